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
//! - `calibrate`: a puzzle's cost per node on this machine.
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

pub use calibrate::calibrate;
pub use model::{Costs, Network};

use crate::engine::{Mode, Problem};
use serde::Serialize;
use std::sync::Arc;

/// A simulated run.
#[derive(Debug, Clone)]
pub struct SimConfig {
    /// Ranks (the master's included).
    pub(crate) ranks: usize,
    /// Worker threads per rank.
    pub(crate) threads: usize,
    /// The search type.
    pub mode: Mode,
    /// The master's initial prefixes per worker (as [`RunConfig`](super::RunConfig)).
    pub prefixes_per_worker: usize,
    /// Idle workers at which a rank is hungry (as
    /// [`RunConfig::hunger`](super::RunConfig::hunger); `None`: its default).
    pub hunger: Option<usize>,
    /// Ranks per group ([`RunConfig::group_size`](super::RunConfig::group_size);
    /// `None`: its default).
    pub group_size: Option<usize>,
    /// Direct steals ([`RunConfig::direct_steals`](super::RunConfig::direct_steals);
    /// 0: none; `None`: its default).
    pub direct_steals: Option<u32>,
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
    /// Checkpoints, as a real run writes them (`every` on the virtual
    /// clock), and the checkpoint to resume: the file is the real one, so
    /// `hysolve --resume` takes it, and a simulation resumes a real run's.
    pub checkpoint: Option<std::sync::Arc<super::CheckpointPlan>>,
    /// The cores of the machine the run shares (`None`: one for every
    /// worker). With fewer, each worker and manager runs at its share of
    /// a core and the managers poll less often, as `manager.rs` does: to
    /// compare with an oversubscribed real run.
    pub cores: Option<usize>,
}

impl SimConfig {
    /// `ranks` x `threads` counting, on the cluster interconnect, no
    /// jitter, seed 0, a node costing `node_ns`.
    pub fn new(ranks: usize, threads: usize, node_ns: u64) -> SimConfig {
        SimConfig {
            ranks,
            threads,
            mode: Mode::Count,
            prefixes_per_worker: super::DEFAULT_PREFIXES_PER_WORKER,
            hunger: None,
            group_size: None,
            direct_steals: None,
            seed: 0,
            jitter: 0.0,
            network: Network::CLUSTER,
            costs: Costs::with_node_ns(node_ns),
            kill: None,
            cores: None,
            checkpoint: None,
        }
    }
}

/// Idle worker time, as a share of all workers' time until the answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct IdleShares {
    /// Before each worker's first task (the initial deal).
    pub start: f64,
    /// Between its first task and its last (work spreading).
    pub steady: f64,
    /// After its last task, until the answer (the termination tail).
    pub tail: f64,
}

/// What a simulated run predicts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SimReport {
    /// The problem and instance.
    pub problem: String,
    /// The instance.
    pub instance: String,
    /// The mode.
    pub mode: String,
    /// Ranks, threads per rank, and their product.
    pub ranks: usize,
    /// Threads per rank.
    pub threads: usize,
    /// Ranks x threads.
    pub workers: usize,
    /// The seed and jitter of the messages' delays.
    pub seed: u64,
    /// See [`SimConfig::jitter`].
    pub jitter: f64,
    /// The network model.
    pub network: Network,
    /// The cost model (on a core of its own).
    pub costs: Costs,
    /// See [`SimConfig::cores`].
    pub(crate) cores: Option<usize>,
    /// Solutions found (weighted, as a real run counts them).
    pub solutions: u64,
    /// Optimise mode: the optimum found (as [`Outcome::objective`](crate::cluster::Outcome::objective)).
    pub objective: Option<u64>,
    /// Nodes visited.
    pub nodes: u64,
    /// Virtual seconds from the start to the answer (what a real run's
    /// `wall_s` measures).
    pub predicted_s: f64,
    /// One simulated worker's time on the same tree over `workers` times
    /// `predicted_s`.
    pub efficiency: f64,
    /// One simulated worker's time on the same tree, seconds.
    pub one_worker_s: f64,
    /// Messages the master sent to other ranks (a real run's
    /// `master.messages_sent`).
    pub master_messages: u64,
    /// Messages other ranks sent the master.
    pub master_received: u64,
    /// The master's own account (as a real run's `--json` gives it).
    pub master: super::MasterStats,
    /// The share of `predicted_s` the master's manager was busy.
    pub master_busy: f64,
    /// In a run of groups: how many, and the share of the run the busiest
    /// group master's manager was busy (rank 0's counts its root's work
    /// and its group's together, in `master_busy`; this is the others').
    pub groups: usize,
    /// See `groups`.
    pub group_master_busy: f64,
    /// Messages the group masters sent, all together (a real run's sum of
    /// `rank_stats[].group.messages_sent`).
    pub(crate) group_messages: u64,
    /// Idle worker time by phase.
    pub idle: IdleShares,
    /// Messages between ranks, all together.
    pub messages: u64,
    /// The ranks' steal round trips on the virtual clock, as a real run's
    /// `--json` gives them (`steal_round_trip_us`).
    pub steal_round_trip_us: Option<crate::cluster::TripSummary>,
    /// Events the simulator processed.
    pub events: u64,
    /// Seconds the simulation itself took (the one field that differs
    /// between two runs with the same seed).
    pub simulated_in_s: f64,
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
/// use hysolve_puzzles::queens::Queens;
/// use std::sync::Arc;
///
/// let q = Arc::new(Queens::new(8, false).unwrap());
/// let report = simulate(&q, &SimConfig::new(4, 2, 50)).unwrap();
/// assert_eq!(report.solutions, 92);
/// assert_eq!(report.workers, 8);
/// ```
pub fn simulate<P: Problem>(problem: &Arc<P>, config: &SimConfig) -> Result<SimReport, SimError> {
    if config.ranks == 0 || config.threads == 0 {
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
    let one = if config.mode == Mode::Count || config.ranks * config.threads == 1 {
        report.nodes as f64 * config.costs.node_ns as f64 * 1e-9
    } else {
        let single = SimConfig {
            ranks: 1,
            threads: 1,
            kill: None,
            checkpoint: None,
            ..config.clone()
        };
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
