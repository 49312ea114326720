//! The extended star on a virtual clock: the real master (rank 0's
//! `Head`), the real rank state machine (`RankState`) and the real search of the real
//! tree, with every worker's nodes, every steal and split and every
//! message charged to a deterministic clock instead of run on threads and
//! MPI. It predicts runs on machines we do not have: thousands of ranks,
//! an interconnect or Ethernet.
//!
//! - `model`: the costs (a node, a steal, a message, the master's
//!   bookkeeping) and the network (latency, bandwidth, jitter, MPI's
//!   order per channel);
//! - `clock`: the events in time order and the managers' poll schedule;
//! - `pool`: a rank's workers stepping through their walks;
//! - `driver`: the managers, the master and the messages between them;
//! - `calibrate`: a puzzle's cost per node on this machine;
//! - `report`: what a simulated run predicts, as text and as JSON.
//!
//! The same configuration and seed give the same [`SimReport`], field for
//! field, apart from `simulated_in_s` (the simulator's own time). How the
//! model is built, what it leaves out, and how it is checked against real
//! runs are in `cluster/sim/README.md`; its error against real runs is in
//! `bench-results/log/2026-11-simulation.md` ("Validation").

mod calibrate;
mod clock;
mod driver;
mod model;
mod pool;
mod report;

pub use calibrate::calibrate;
pub use model::{Costs, Network};
pub use report::SimReport;
pub(crate) use report::{IdleShares, OverheadShares};

use crate::cluster::RunConfig;
use crate::engine::{Mode, Problem};
use std::sync::Arc;

/// A simulated run: the ranks, the run as a real one is configured
/// (its [`RunConfig`]: mode, threads a rank, initial prefixes, hunger,
/// groups, direct steals, checkpoints, all read by the same code as in a
/// real run), and the machine it is predicted on.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// Ranks (the master's included).
    pub(crate) ranks: usize,
    /// The run, as [`run`](crate::run) takes it. Its checkpoints are
    /// written as a real run writes them (`every` on the virtual clock),
    /// and its resume is the real file's: `hysolve --resume` takes a
    /// simulation's checkpoint, and a simulation resumes a real run's.
    pub run: RunConfig,
    /// The seed of the jitter.
    pub seed: u64,
    /// Each message's delay is drawn between the model's and `1 + jitter`
    /// times it.
    pub jitter: f64,
    /// The network between ranks.
    pub network: Network,
    /// Costs inside a rank.
    pub costs: Costs,
    /// Kill this rank at this virtual time (seconds): the run ends as a
    /// real one does when a rank dies, with the last checkpoint kept.
    pub kill: Option<(usize, f64)>,
    /// The cores of the machine the run shares (`None`: one for every
    /// worker). With fewer, each worker and manager runs at its share of
    /// a core and the managers poll less often, as `manager.rs` does: to
    /// compare with an oversubscribed real run.
    pub(crate) cores: Option<usize>,
    /// Ranks a machine: ranks `0..n` share the first, `n..2n` the next.
    /// A message between two ranks of one machine rings the receiver's
    /// doorbell (`cluster/doorbell.rs`): a busy receiver sees it at its
    /// workers' next look, not at their next timed poll.
    pub(crate) ranks_per_host: usize,
}

impl SimConfig {
    /// `ranks` ranks, each run as `run` says, on the cluster
    /// interconnect, no jitter, seed 0, a node costing `node_ns`.
    pub fn new(ranks: usize, run: RunConfig, node_ns: u64) -> SimConfig {
        SimConfig {
            ranks,
            run,
            seed: 0,
            jitter: 0.0,
            network: Network::CLUSTER,
            costs: Costs::with_node_ns(node_ns),
            kill: None,
            cores: None,
            ranks_per_host: 1,
        }
    }

    /// Worker threads a rank.
    pub(crate) fn threads(&self) -> usize {
        self.run.threads
    }

    /// The machines the run shares: `cores` in all (`None`: one for every
    /// worker), and `ranks_per_host` ranks each ([`SimConfig`]'s fields of
    /// those names).
    pub fn machines(&mut self, cores: Option<usize>, ranks_per_host: usize) {
        self.cores = cores;
        self.ranks_per_host = ranks_per_host.max(1);
    }

    /// The search type (the run's).
    pub fn mode(&self) -> Mode {
        self.run.mode
    }
}

/// Why a simulation could not end as a run.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A configuration the simulator cannot run.
    #[error("{0}")]
    Config(String),
    /// The protocol failed in simulation (a real run would fail too).
    #[error(transparent)]
    Run(#[from] super::RunError),
    /// No event is left but the run has not ended: the protocol lost work
    /// or a message (a real run would hang).
    #[error("simulated run stalled at {at_s:.6} s: no event left and the master has not ended")]
    Stalled {
        /// Virtual time of the stall.
        at_s: f64,
    },
    /// A rank was killed: the run ends as a real one does.
    #[error("rank {rank} died at {at_s:.6} s (virtual): the job ends here{}", match checkpoint {
        Some(path) => format!("; resume from its last checkpoint, {}", path.display()),
        None => String::new(),
    })]
    RankDied {
        /// The rank killed.
        rank: usize,
        /// When.
        at_s: f64,
        /// The checkpoint left (its last one written), when the run kept them.
        checkpoint: Option<std::path::PathBuf>,
    },
}

/// Simulates `config` on `problem`: the real protocol and search on the
/// virtual clock.
///
/// ```
/// use hysolve::advanced::sim::{SimConfig, simulate};
/// use hysolve::{Mode, RunConfig};
/// use hysolve_puzzles::queens::Queens;
/// use std::sync::Arc;
///
/// let q = Arc::new(Queens::new(8, false).unwrap());
/// let run = RunConfig::new(Mode::Count).threads(2);
/// let report = simulate(&q, &SimConfig::new(4, run, 50)).unwrap();
/// assert_eq!(report.solutions, 92);
/// assert!(report.efficiency > 0.0 && report.efficiency <= 1.0);
/// ```
pub fn simulate<P: Problem>(problem: &Arc<P>, config: &SimConfig) -> Result<SimReport, SimError> {
    if config.ranks == 0 || config.threads() == 0 {
        return Err(SimError::Config(
            "ranks and threads must be at least 1".into(),
        ));
    }
    if let Some((rank, _)) = config.kill
        && rank >= config.ranks
    {
        return Err(SimError::Config(format!(
            "the rank to kill is rank {rank}, but the run has {} ranks",
            config.ranks
        )));
    }
    // Optimise mode needs an objective, as a real run checks.
    config
        .run
        .validate_problem::<P>()
        .map_err(|e| SimError::Config(e.to_string()))?;
    if !(0.0..=100.0).contains(&config.jitter) {
        return Err(SimError::Config(format!(
            "the jitter must lie between 0 and 100, not {}",
            config.jitter
        )));
    }
    let started = std::time::Instant::now();
    let mut report = driver::run(problem, config)?;
    // One worker's time on the same tree: the counting search visits the
    // same nodes in every configuration, so it is their cost; other modes
    // stop where the order of the walk says, so one worker is simulated.
    let one = if config.mode() == Mode::Count || config.ranks * config.threads() == 1 {
        report.nodes as f64 * config.costs.node_ns as f64 * 1e-9
    } else {
        let mut single = SimConfig {
            ranks: 1,
            kill: None,
            ..config.clone()
        };
        single.run = single.run.threads(1);
        single.run.checkpoint = None;
        driver::run(problem, &single)?.predicted_s
    };
    report.one_worker_s = one;
    report.efficiency = if report.predicted_s > 0.0 {
        one / (report.workers as f64 * report.predicted_s)
    } else {
        1.0
    };
    report.simulated_in_s = started.elapsed().as_secs_f64();
    Ok(report)
}
