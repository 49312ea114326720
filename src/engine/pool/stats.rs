//! What each worker did, for `--stats` and `--json`.

use crate::engine::Count;
use serde::{Deserialize, Serialize};

/// One worker thread's account of a run.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkerStats {
    /// Nodes visited.
    pub nodes: u64,
    /// Weighted solutions found.
    pub(crate) solutions: u64,
    /// The deepest node visited, when known.
    pub(crate) depth: Option<u64>,
    /// Tasks walked to the end (or to a stop).
    pub tasks: u64,
    /// Tasks stolen from other workers of the same rank.
    pub local_steals: u64,
    /// Tasks split off for other workers of the same rank.
    pub local_donations: u64,
    /// Subtrees split off for other ranks.
    pub prefixes_donated: u64,
    /// Optimisation: solutions that improved on the best its rank knew.
    pub(crate) improvements: u64,
    /// Seconds spent walking tasks.
    pub busy_s: f64,
    /// Seconds spent without a task.
    pub idle_s: f64,
}

impl WorkerStats {
    /// What the worker counted over the run.
    pub fn count(&self) -> Count {
        Count {
            nodes: self.nodes,
            solutions: self.solutions,
            depth: self.depth,
        }
    }

    /// Sets what the worker counted over the run.
    pub(crate) fn set_count(&mut self, c: Count) {
        (self.nodes, self.solutions, self.depth) = (c.nodes, c.solutions, c.depth);
    }
}

/// A rank's running totals, for progress: nodes and solutions of finished
/// tasks, and how many of the master's initial prefixes this rank walked.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Tally {
    /// Nodes visited.
    pub(crate) nodes: u64,
    /// Solutions found (weighted).
    pub(crate) solutions: u64,
    /// Initial prefixes (units) finished.
    pub(crate) initial_done: u64,
}

impl std::ops::Add for Tally {
    type Output = Tally;
    fn add(self, o: Tally) -> Tally {
        Tally {
            nodes: self.nodes + o.nodes,
            solutions: self.solutions + o.solutions,
            initial_done: self.initial_done + o.initial_done,
        }
    }
}

impl std::ops::Sub for Tally {
    type Output = Tally;
    fn sub(self, o: Tally) -> Tally {
        Tally {
            nodes: self.nodes.saturating_sub(o.nodes),
            solutions: self.solutions.saturating_sub(o.solutions),
            initial_done: self.initial_done.saturating_sub(o.initial_done),
        }
    }
}
