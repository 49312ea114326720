//! What a run ends with: its answer on rank 0, or the error that ended it.

use super::checkpoint::CheckpointError;
use super::master::MasterStats;
use super::protocol::RankReport;
use super::sink::FileError;
use crate::engine::{Mode, Prefix};
use std::path::PathBuf;

/// The answer, as the master knows it at the end.
#[derive(Debug)]
pub struct Outcome {
    pub mode: Mode,
    /// count/all: every solution, weighted; first/unique: solutions kept (at most 1 or 2).
    pub solutions: u64,
    /// first/unique: the solutions kept, rendered.
    pub found: Vec<String>,
    /// all: solutions written to the output.
    pub written: u64,
    pub nodes: u64,
    /// The depth of the deepest node visited, when the search knows it
    /// (not below a specialised counter, as N-Queens' below its cut-off).
    pub depth: Option<u64>,
    pub wall_s: f64,
    pub ranks: usize,
    pub threads: usize,
    pub reports: Vec<RankReport>,
    pub master: MasterStats,
}

/// Errors that end a run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Decode(#[from] super::protocol::DecodeError),
    #[error("rank {rank} got a {what} it should never receive")]
    Protocol { rank: usize, what: &'static str },
    #[error("rank {rank} got a prefix that names no subtree of this instance: {prefix:?}")]
    BadPrefix { rank: usize, prefix: Prefix },
    #[error("MPI: {0}")]
    Mpi(String),
    #[error("writing solutions: {0}")]
    Output(#[from] std::io::Error),
    #[error(transparent)]
    File(#[from] FileError),
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    #[error("rank {rank} reported a unit the master does not hold open: {unit:?}")]
    Unit { rank: usize, unit: Prefix },
    #[error("{}", interrupted_message(.checkpoint))]
    Interrupted { checkpoint: Option<PathBuf> },
}

fn interrupted_message(checkpoint: &Option<PathBuf>) -> String {
    match checkpoint {
        Some(p) => format!(
            "interrupted by a signal; checkpoint written to {0}: continue with --resume {0} and the same problem arguments",
            p.display()
        ),
        None => "interrupted by a signal (with --checkpoint FILE a run can be resumed)".into(),
    }
}
