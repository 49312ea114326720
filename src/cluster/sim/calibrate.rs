//! A puzzle's cost per node on this machine: the real search, on one
//! thread, timed.

use crate::engine::{Context, Prefix};
use crate::engine::{Mode, Problem, Searcher, Task};
use std::time::{Duration, Instant};

/// A walk that nobody interrupts.
struct Alone;

impl<N> Context<N> for Alone {
    fn stop(&self) -> bool {
        false
    }
    fn wants_work(&self) -> bool {
        false
    }
    fn donate(&mut self, _: Vec<Task<N>>) {
        unreachable!("nobody asks")
    }
    fn found(&mut self, _: &str) {}
}

/// Nanoseconds a node of `problem` takes on this machine in `mode`: the
/// real walk from the root, on this thread, for about `budget` (or to its
/// end, when sooner), nodes over time. A measurement: it varies a little
/// from run to run (give the result back as `--node-ns` to repeat a
/// simulation exactly). The walk's first nodes are its top levels, whose
/// cost per node can differ from the tree's average; a budget that walks
/// a fair share of the tree gives the fairest figure.
pub fn calibrate<P: Problem>(problem: &P, mode: Mode, budget: Duration) -> f64 {
    let mut searcher = Searcher::new(problem, mode);
    let task = Task {
        prefix: Prefix::root(),
        depth: 0,
        node: problem.root(),
    };
    let started = Instant::now();
    let mut more = searcher.begin(&task, &mut Alone);
    let mut chunk = 1024;
    while more && started.elapsed() < budget {
        more = !searcher.resume(&task, &mut Alone, chunk);
        chunk = (chunk * 2).min(1 << 20);
    }
    let nodes = searcher.counters().nodes.max(1);
    started.elapsed().as_nanos() as f64 / nodes as f64
}
