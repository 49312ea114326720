//! What a run ends with: its answer on rank 0, or the error that ended it.

use super::checkpoint::CheckpointError;
use super::master::MasterStats;
use super::protocol::RankReport;
use super::sink::FileError;
use crate::engine::{Mode, Prefix};
use std::path::PathBuf;

/// The answer, as the master knows it at the end (fields will grow: read
/// them, do not build one).
#[derive(Debug)]
#[non_exhaustive]
pub struct Outcome {
    /// The mode the run searched in.
    pub mode: Mode,
    /// count/all: every solution, weighted; first/unique: solutions kept (at most 1 or 2).
    pub solutions: u64,
    /// first/unique: the solutions kept, rendered.
    pub found: Vec<String>,
    /// all: solutions written to the output.
    pub written: u64,
    /// Nodes visited, over every rank and the master's expansion.
    pub nodes: u64,
    /// The depth of the deepest node visited, when the search knows it
    /// (not below a specialised counter, as N-Queens' below its cut-off).
    pub depth: Option<u64>,
    /// Seconds from the start (`RunConfig::started`) to the known answer.
    pub wall_s: f64,
    /// Ranks in the run.
    pub ranks: usize,
    /// Worker threads per rank.
    pub threads: usize,
    /// What each rank did.
    pub reports: Vec<RankReport>,
    /// What the master did.
    pub master: MasterStats,
    /// Optimise mode: the optimum (with a target, the first objective
    /// found that reaches it), or `None` when no node is a solution.
    /// `found` holds its solution.
    pub objective: Option<u64>,
    /// Optimise mode: each improvement on the incumbent as the master
    /// learnt it, in order.
    pub improvements: Vec<Improvement>,
}

impl Outcome {
    /// The steal round trips of every rank together (`trips.rs`): from a
    /// rank's request for work to the work; `None` when no rank stole.
    pub fn steal_round_trips(&self) -> Option<super::TripSummary> {
        super::RoundTrips::merged(self.reports.iter().map(|r| &r.steal_round_trips)).summary()
    }
}

/// An improvement on the incumbent of a branch and bound.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[non_exhaustive]
pub struct Improvement {
    /// Seconds from the start (`RunConfig::started`) to when the master
    /// learnt it.
    pub(crate) s: f64,
    /// The objective.
    pub value: u64,
    /// The rank whose worker found it (0 for the master's expansion, the
    /// ramp-up, the race or a checkpoint's incumbent).
    pub(crate) rank: usize,
    /// Whether the problem's heuristic found it (the ramp-up or the race,
    /// [`Optimise::heuristic`](crate::Optimise::heuristic)) rather
    /// than the exact search.
    pub(crate) heuristic: bool,
}

/// Errors that end a run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A configuration that cannot run ([`RunConfig::validate`](super::RunConfig::validate)).
    #[error(transparent)]
    Config(#[from] super::config::ConfigError),
    /// A message between ranks that cannot be decoded.
    #[error(transparent)]
    Decode(#[from] super::protocol::DecodeError),
    /// A message its receiver should never get (a protocol fault).
    #[error("rank {rank} got a {what} it should never receive")]
    Protocol {
        /// The rank that got it.
        rank: usize,
        /// The message's kind.
        what: &'static str,
    },
    /// Work whose prefix names no subtree of this instance (ranks that
    /// disagree on the instance).
    #[error("rank {rank} got a prefix that names no subtree of this instance: {prefix:?}")]
    BadPrefix {
        /// The rank that got it.
        rank: usize,
        /// The prefix.
        prefix: Prefix,
    },
    /// MPI failed, or a rank died.
    #[error("MPI: {0}")]
    Mpi(String),
    /// Writing the solutions failed.
    #[error("writing solutions: {0}")]
    Output(#[from] std::io::Error),
    /// The solutions file failed.
    #[error(transparent)]
    File(#[from] FileError),
    /// A checkpoint could not be read or written.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// A rank reported a unit of work the master does not hold open.
    #[error("rank {rank} reported a unit the master does not hold open: {unit:?}")]
    Unit {
        /// The reporting rank.
        rank: usize,
        /// The unit.
        unit: Prefix,
    },
    /// A signal stopped the run (after its last checkpoint, if any).
    #[error("{}", interrupted_message(.checkpoint))]
    Interrupted {
        /// The checkpoint that resumes the run.
        checkpoint: Option<PathBuf>,
    },
}

fn interrupted_message(checkpoint: &Option<PathBuf>) -> String {
    match checkpoint {
        Some(p) => format!(
            "interrupted by a signal; checkpoint written to {}: resume it with the same problem",
            p.display()
        ),
        None => "interrupted by a signal (a run with checkpoints can be resumed)".into(),
    }
}
