//! What each worker did, for `--stats` and `--json`.

use serde::{Deserialize, Serialize};

/// One worker thread's account of a run.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorkerStats {
    /// Nodes visited.
    pub nodes: u64,
    /// Weighted solutions found.
    pub solutions: u64,
    /// Tasks walked to the end (or to a stop).
    pub tasks: u64,
    /// Tasks stolen from other workers of the same rank.
    pub local_steals: u64,
    /// Tasks split off for other workers of the same rank.
    pub local_donations: u64,
    /// Subtrees split off for other ranks.
    pub prefixes_donated: u64,
    /// Seconds spent walking tasks.
    pub busy_s: f64,
    /// Seconds spent without a task.
    pub idle_s: f64,
}
