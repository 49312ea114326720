//! What the walk asks of whoever runs it: a sequential run, a pool's
//! worker, the simulator's virtual worker.

use super::task::Task;

/// What the walk needs from whoever runs it. Called once per visited node,
/// so implementations must be cheap (a relaxed atomic load or two).
pub(crate) trait Context<N> {
    /// The search must stop now (answer known, or terminated).
    fn stop(&self) -> bool;
    /// Some thread, here or on another rank, is hungry.
    fn wants_work(&self) -> bool;
    /// Takes tasks split off the walk. They are no longer the walker's.
    fn donate(&mut self, tasks: Vec<Task<N>>);
    /// How deep the prefixes of split-off tasks go (`usize::MAX`: all the way).
    fn prefix_depth(&self) -> usize {
        usize::MAX
    }
    /// A solution was found (only in modes that keep solutions).
    fn found(&mut self, text: &str);
    /// Optimisation: the least objective that improves on the best
    /// solution known here (0 while none is). Read at every look at the
    /// context: a walk prunes with a value at most [`POLL_EVERY`](super::walk::POLL_EVERY) nodes
    /// old, which is never wrong, only less sharp.
    fn floor(&self) -> u64 {
        0
    }
    /// Optimisation: a solution of objective `value`, at least the floor
    /// the walk last read, rendered as `text`.
    fn improved(&mut self, value: u64, text: &str) {
        let _ = (value, text);
    }
}
