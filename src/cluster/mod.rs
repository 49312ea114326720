//! The cluster layer: ranks joined in an extended star. Rank 0 is the master
//! and also works; on every rank its threads share one link to the others.
//! `mpi_transport` and `mpi_doorbells` are the only code in hysolve that
//! calls MPI (built with the `mpi` feature: off by default, the command
//! line turns it on). The protocol and why it terminates correctly are in
//! `README.md` beside this file.
//!
//! - [`config`]: a run's configuration, with defaults and a builder;
//! - `rank/`: one rank's own side: its state machine, free of I/O
//!   (`rank/mod.rs`: its pool, its busy and hungry flags, the deals it
//!   received, the donation it owes, its report), its link (the transport
//!   and the state machine behind one lock, pumped by its workers and its
//!   manager), its manager, which side a message is for, and the steal
//!   round trips it measures;
//! - `master/`: the masters' side: a master's decisions, free of I/O
//!   (`master/mod.rs`), what rank 0 runs besides its workers (`head`: the master, delivery,
//!   checkpoints, the observer, the interrupt) and a group's master, the
//!   order of a thief's messages, units, the checkpointer and the race;
//!   `master_bench` (with the `sim` feature): the requests per second the
//!   decisions serve;
//! - [`checkpoint`]: the checkpoint file; [`sink`]: where solutions go;
//!   [`observer`]: who watches the run; [`outcome`]: the answer and the
//!   errors;
//! - `sim` (with the `sim` feature, for the tools): the same protocol and
//!   search on a virtual clock, to predict runs on machines we do not have
//!   (`sim/README.md`).

pub(crate) mod checkpoint;
pub(crate) mod config;
mod doorbell;
mod host;
mod launcher;
mod layout;
mod master;
#[cfg(feature = "sim")]
pub use master::master_bench;
#[cfg(feature = "mpi")]
mod mpi_doorbells;
#[cfg(feature = "mpi")]
mod mpi_transport;
pub(crate) mod observer;
pub(crate) mod outcome;
mod protocol;
mod rank;
#[cfg(feature = "sim")]
pub mod sim;
pub(crate) mod sink;
mod transport;

pub use checkpoint::Checkpoint;
pub use config::{
    CheckpointPlan, ConfigError, DEFAULT_PREFIXES_PER_WORKER, DEFAULT_RAMP_UP, MAX_THREADS,
    RunConfig,
};
pub use launcher::{is_rank_zero, launched_by_mpi, local_ranks};
pub(crate) use master::MasterStats;
pub use observer::{Observer, Progress};
pub use outcome::{Outcome, RunError};
pub use rank::trips::{RoundTrips, TripSummary};
pub(crate) use sink::FileSink;
pub use sink::{Callback, FileError, SolutionSink, Solutions};

use crate::engine::{Mode, Optimise, Optimising, Problem};
use sink::Discard;
use std::sync::Arc;
use transport::{ChannelTransport, Solo};

/// Runs the search as this process's rank: over MPI when started by an MPI
/// launcher, as a one-rank job otherwise. Returns the outcome on rank 0 and
/// `None` on the other ranks. Rank 0 alone delivers solutions to
/// `solutions` (see [`Solutions`]); the other ranks ignore it. The clock
/// (`wall_s`) restarts once MPI is up: launcher start-up is not search
/// time.
///
/// ```
/// use hysolve::{Mode, RunConfig, Solutions, run};
/// use hysolve_puzzles::queens::Queens;
/// use std::sync::Arc;
///
/// let queens = Arc::new(Queens::new(8, true).unwrap()); // true: fold mirror images
/// let config = RunConfig::new(Mode::Count).threads(2);
/// let outcome = run(queens, &config, Solutions::Discard).unwrap().unwrap();
/// assert_eq!(outcome.solutions, 92);
/// ```
pub fn run<P: Problem>(
    problem: Arc<P>,
    config: &RunConfig,
    solutions: Solutions<'_>,
) -> Result<Option<Outcome>, RunError> {
    config.validate(&solutions)?;
    config.validate_problem::<P>()?;
    // The output opens before MPI does: a rank that fails before MPI_Init
    // makes the launcher end the whole job, instead of leaving the other
    // ranks waiting for it.
    let rank_zero = !launched_by_mpi() || is_rank_zero();
    let streams = config.mode == Mode::All;
    let resumed = config.checkpoint.as_ref().and_then(|c| c.resume.as_ref());
    let mut file = match (&solutions, rank_zero && streams) {
        (Solutions::File(path), true) => Some(match resumed {
            Some(c) => FileSink::resume(path, c.out_bytes, c.written)?,
            None => FileSink::create(path)?,
        }),
        (Solutions::Stdout, true) => Some(FileSink::stdout()),
        _ => None,
    };
    let mut discard = Discard;
    let mut solutions = solutions;
    let sink: &mut dyn SolutionSink = match (&mut file, &mut solutions) {
        (Some(f), _) => f,
        (None, Solutions::Sink(s)) if rank_zero => &mut **s,
        _ => &mut discard,
    };
    let outcome = if launched_by_mpi() {
        run_mpi(problem, config, sink)?
    } else {
        rank::manager::run_rank(problem, config, Solo, sink)?
    };
    let Some(outcome) = outcome else {
        return Ok(None);
    };
    if let Some(f) = file {
        f.finish()?;
    }
    if !streams {
        // First and unique modes: the solutions kept, now that they are known.
        match &mut solutions {
            Solutions::File(path) => {
                let mut text = outcome.found.join("\n\n");
                text.push('\n');
                crate::output::write_atomically(path, text.as_bytes())?;
            }
            Solutions::Sink(s) => {
                for text in &outcome.found {
                    s.solution(text)?;
                }
            }
            Solutions::Discard | Solutions::Stdout => {}
        }
    }
    Ok(Some(outcome))
}

/// Runs a branch and bound of `problem` ([`Mode::Optimise`]: `config`'s
/// mode must be it) as this process's rank, as [`run`] does: the best
/// solution by [`Optimise::objective`], proved by walking the whole tree
/// under pruning by [`Optimise::bound`]. A problem without an objective
/// does not compile here ([`Optimise`] shows one that does, and one that
/// does not).
///
/// ```
/// use hysolve::{Mode, RunConfig, Solutions, optimise};
/// use hysolve_puzzles::clique::{Clique, families};
/// use std::sync::Arc;
///
/// let clique = Arc::new(Clique::new(&families::hamming(6, 2).unwrap(), "hamming6-2"));
/// let config = RunConfig::new(Mode::Optimise).threads(2);
/// let outcome = optimise(clique, &config, Solutions::Discard).unwrap().unwrap();
/// assert_eq!(outcome.objective, Some(32));
/// ```
pub fn optimise<P: Optimise>(
    problem: Arc<P>,
    config: &RunConfig,
    solutions: Solutions<'_>,
) -> Result<Option<Outcome>, RunError> {
    if config.mode != Mode::Optimise {
        return Err(ConfigError::OptimiseMode(config.mode).into());
    }
    run(Optimising::arc(problem), config, solutions)
}

#[cfg(feature = "mpi")]
fn run_mpi<P: Problem>(
    problem: Arc<P>,
    config: &RunConfig,
    sink: &mut dyn SolutionSink,
) -> Result<Option<Outcome>, RunError> {
    let transport = mpi_transport::MpiTransport::init().map_err(RunError::Mpi)?;
    let config = RunConfig {
        started: std::time::Instant::now(),
        ..config.clone()
    };
    rank::manager::run_rank(problem, &config, transport, sink)
}

#[cfg(not(feature = "mpi"))]
fn run_mpi<P: Problem>(
    _problem: Arc<P>,
    _config: &RunConfig,
    _sink: &mut dyn SolutionSink,
) -> Result<Option<Outcome>, RunError> {
    Err(RunError::Mpi(
        "started by an MPI launcher, but this program was built without MPI (the \
         `mpi` feature): rebuild it with the feature (hysolve: without --no-default-features)"
            .into(),
    ))
}

/// Runs `ranks` ranks as threads of this process, joined by channels: the
/// same managers and protocol as over MPI, for tests. Solutions go to
/// `sink` as [`run`] would deliver them in `all` mode (in the other modes
/// they are in the outcome). In optimise mode, the problem as
/// [`optimise`] runs it: `Arc::new(Optimising(problem))`
/// ([`Optimising`]).
///
/// ```
/// use hysolve::Callback;
/// use hysolve::advanced::run_threaded;
/// use hysolve_puzzles::queens::Queens;
/// use hysolve::{Mode, RunConfig};
/// use std::sync::Arc;
///
/// // Every 6-queens board, listed by 3 ranks of 2 threads.
/// let mut boards = Vec::new();
/// let config = RunConfig::new(Mode::All).threads(2);
/// let queens = Arc::new(Queens::new(6, false).unwrap());
/// let mut sink = Callback(|board: &str| boards.push(board.to_owned()));
/// let outcome = run_threaded(queens, &config, 3, &mut sink).unwrap();
/// assert_eq!((outcome.solutions, outcome.ranks), (4, 3));
/// assert_eq!(boards.len(), 4);
/// ```
pub fn run_threaded<P: Problem>(
    problem: Arc<P>,
    config: &RunConfig,
    ranks: usize,
    sink: &mut (dyn SolutionSink + Send),
) -> Result<Outcome, RunError> {
    config.validate_problem::<P>()?;
    let mut transports = ChannelTransport::mesh(ranks.max(1));
    let master = transports.remove(0);
    std::thread::scope(|scope| {
        let others: Vec<_> = transports
            .into_iter()
            .map(|t| {
                let problem = problem.clone();
                scope.spawn(move || rank::manager::run_rank(problem, config, t, &mut Discard))
            })
            .collect();
        let outcome = rank::manager::run_rank(problem.clone(), config, master, sink);
        for handle in others {
            handle.join().expect("a rank thread panicked")?;
        }
        Ok(outcome?.expect("rank 0 returns the outcome"))
    })
}
