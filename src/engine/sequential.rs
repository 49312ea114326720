//! A search on the calling thread: the reference every parallel
//! configuration is checked against.

use super::context::Context;
use super::count::Count;
use super::mode::Mode;
use super::prefix::Prefix;
use super::problem::Problem;
use super::task::Task;
use super::walk::Searcher;

/// A context for a plain sequential search: nobody else wants work; stops
/// after `limit` solutions when the mode has one; collects solution texts.
pub(super) struct Sequential {
    pub(crate) limit: Option<u64>,
    pub(crate) found: Vec<String>,
    /// Optimisation: the best solution found, and its objective.
    pub(crate) best: Option<(u64, String)>,
}

impl<N> Context<N> for Sequential {
    fn stop(&self) -> bool {
        self.limit.is_some_and(|l| self.found.len() as u64 >= l)
    }
    fn wants_work(&self) -> bool {
        false
    }
    fn donate(&mut self, _tasks: Vec<Task<N>>) {
        unreachable!("a sequential search never asks for work")
    }
    fn found(&mut self, text: &str) {
        self.found.push(text.to_owned());
    }
    fn floor(&self) -> u64 {
        self.best.as_ref().map_or(0, |(v, _)| v + 1)
    }
    fn improved(&mut self, value: u64, text: &str) {
        self.best = Some((value, text.to_owned()));
    }
}

/// Runs the whole search on the calling thread. The reference against which
/// every parallel configuration is checked. Returns the counters and, in
/// the modes that keep solutions, the solutions found, rendered (in
/// [`Mode::Optimise`], of an [`Optimising`] problem, one optimal solution,
/// or none where no node is a solution; its objective is
/// [`optimum`](crate::engine::optimum)'s).
///
/// [`Optimising`]: crate::engine::Optimising
///
/// ```
/// use hysolve::Mode;
/// use hysolve::advanced::sequential;
/// use hysolve_puzzles::queens::Queens;
///
/// let q = Queens::new(6, false).unwrap();
/// let (counted, _) = sequential(&q, Mode::Count);
/// assert_eq!(counted.solutions, 4);
/// let (_, first) = sequential(&q, Mode::First);
/// assert_eq!(first.len(), 1);
/// ```
pub fn sequential<P: Problem>(problem: &P, mode: Mode) -> (Count, Vec<String>) {
    let (counters, mut ctx) = walk_alone(problem, mode);
    if mode == Mode::Optimise {
        ctx.found = ctx.best.map(|(_, text)| text).into_iter().collect();
    }
    (counters, ctx.found)
}

/// The whole tree in `mode` on the calling thread, as one task.
pub(super) fn walk_alone<P: Problem>(problem: &P, mode: Mode) -> (Count, Sequential) {
    walk_from(problem, mode, None)
}

/// [`walk_alone`], a branch and bound from the solution `best`.
pub(super) fn walk_from<P: Problem>(
    problem: &P,
    mode: Mode,
    best: Option<(u64, String)>,
) -> (Count, Sequential) {
    let mut searcher = Searcher::new(problem, mode);
    let mut ctx = Sequential {
        limit: mode.stop_after(),
        found: Vec::new(),
        best,
    };
    let root = Task {
        prefix: Prefix::root(),
        depth: 0,
        node: problem.root(),
    };
    searcher.run(&root, &mut ctx);
    (searcher.counters(), ctx)
}
