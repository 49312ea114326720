//! The cluster layer: ranks joined in an extended star. Rank 0 is the master
//! and also works; on every rank one manager thread does all the talking.
//! `mpi_transport` is the only code in hysolve that calls MPI. The protocol
//! and why it terminates correctly are in `README.md` beside this file.

pub mod checkpoint;
pub mod manager;
pub mod master;
mod mpi_transport;
pub mod protocol;
pub mod transport;
pub mod units;

pub use checkpoint::{Checkpoint, CheckpointError};
pub use manager::{CheckpointPlan, Outcome, RunConfig, RunError, run_rank};
pub use mpi_transport::launched_by_mpi;
pub use protocol::{Message, RankReport};
pub use transport::{ChannelTransport, Solo, Transport};

use crate::engine::Problem;
use std::sync::Arc;

/// Where `all` mode's solutions go. `persist` makes everything written so
/// far durable (flushed, and synced to disk for a file) before a checkpoint
/// records its length.
pub trait SolutionSink: std::io::Write {
    fn persist(&mut self) -> std::io::Result<()> {
        self.flush()
    }
}

impl SolutionSink for std::io::Sink {}
impl SolutionSink for Vec<u8> {}

/// Runs the search as this process's rank: over MPI when started by an MPI
/// launcher, as a one-rank job otherwise. Returns the outcome on rank 0.
/// The clock (`wall_s`) restarts once MPI is up: launcher start-up is not
/// search time.
pub fn run<P: Problem>(
    problem: Arc<P>,
    config: &RunConfig,
    sink: &mut dyn SolutionSink,
) -> Result<Option<Outcome>, RunError> {
    if launched_by_mpi() {
        let transport = mpi_transport::MpiTransport::init().map_err(RunError::Mpi)?;
        let config = RunConfig {
            started: std::time::Instant::now(),
            ..config.clone()
        };
        run_rank(problem, &config, transport, sink)
    } else {
        run_rank(problem, config, Solo, sink)
    }
}

/// Runs `ranks` ranks as threads of this process, joined by channels: the
/// same managers and protocol as over MPI, for tests. Solutions of `all`
/// mode go to `sink`.
pub fn run_threaded<P: Problem>(
    problem: Arc<P>,
    config: &RunConfig,
    ranks: usize,
    sink: &mut (dyn SolutionSink + Send),
) -> Result<Outcome, RunError> {
    let mut transports = ChannelTransport::mesh(ranks.max(1));
    let master = transports.remove(0);
    std::thread::scope(|scope| {
        let others: Vec<_> = transports
            .into_iter()
            .map(|t| {
                let problem = problem.clone();
                scope.spawn(move || run_rank(problem, config, t, &mut std::io::sink()))
            })
            .collect();
        let outcome = run_rank(problem.clone(), config, master, sink);
        for handle in others {
            handle.join().expect("a rank thread panicked")?;
        }
        Ok(outcome?.expect("rank 0 returns the outcome"))
    })
}
