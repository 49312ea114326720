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
/// [`Mode::Optimise`], one optimal solution, or none where no node is a
/// solution; its objective is [`optimum`]'s).
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

/// Runs a branch and bound ([`Mode::Optimise`]) on the calling thread:
/// the optimum and one optimal solution, rendered (`None` when no node is
/// a solution), and the counters. The reference for parallel runs.
pub fn optimum<P: Problem>(problem: &P) -> (Count, Option<(u64, String)>) {
    optimum_from(problem, None)
}

/// [`optimum`] from a solution already known, its objective and its text
/// (a ramp-up's: [`ramp_up`](crate::engine::ramp_up)): the walk prunes
/// against it from the first node, as a run that starts from that
/// ramp-up does. The reference of a parallel run's nodes (its anomaly,
/// `hysolve --anomaly`). The known solution is returned when the search
/// finds none better.
///
/// ```
/// use hysolve::advanced::{optimum, optimum_from, ramp_up};
/// use hysolve_puzzles::clique::{Clique, families};
///
/// let clique = Clique::new(&families::hamming(6, 2).unwrap(), "hamming6-2");
/// let (alone, best) = optimum(&clique);
/// let start = ramp_up(&clique, 1_000_000, 1).map(|r| (r.value, r.text));
/// let (known, same) = optimum_from(&clique, start);
/// assert_eq!((best.unwrap().0, same.unwrap().0), (32, 32));
/// assert!(known.nodes <= alone.nodes);
/// ```
pub fn optimum_from<P: Problem>(
    problem: &P,
    known: Option<(u64, String)>,
) -> (Count, Option<(u64, String)>) {
    let (counters, ctx) = walk_from(problem, Mode::Optimise, known);
    (counters, ctx.best)
}

/// The whole tree in `mode` on the calling thread, as one task.
pub(super) fn walk_alone<P: Problem>(problem: &P, mode: Mode) -> (Count, Sequential) {
    walk_from(problem, mode, None)
}

/// [`walk_alone`], a branch and bound from the solution `best`.
fn walk_from<P: Problem>(
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
