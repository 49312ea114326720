//! What a simulated run predicts: the report, as `hysolve-sim` prints it
//! (`Display`) and as its `--json` gives it (`Serialize`).

use super::model::{Costs, Network};
use serde::Serialize;
use std::fmt;

/// Idle worker time, as a share of all workers' time until the answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub(crate) struct IdleShares {
    /// Before each worker's first task (the initial deal).
    pub(crate) start: f64,
    /// Between its first task and its last (work spreading).
    pub(crate) steady: f64,
    /// After its last task, until the answer (the termination tail).
    pub(crate) tail: f64,
}

/// Busy worker time spent on other than nodes, as a share of all
/// workers' time until the answer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub(crate) struct OverheadShares {
    /// Splits: the moves a split applies and the tasks it makes.
    pub(crate) splits: f64,
    /// Steals within a rank: a task taken from a deque or the injector.
    pub(crate) steals: f64,
}

/// What a simulated run predicts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SimReport {
    /// The problem and instance.
    pub(crate) problem: String,
    /// The instance.
    pub(crate) instance: String,
    /// The mode.
    pub(crate) mode: String,
    /// Ranks, threads per rank, and their product.
    pub(crate) ranks: usize,
    /// Threads per rank.
    pub(crate) threads: usize,
    /// Ranks x threads.
    pub(crate) workers: usize,
    /// The seed and jitter of the messages' delays.
    pub(crate) seed: u64,
    /// See `SimConfig::jitter`.
    pub(crate) jitter: f64,
    /// The network model.
    pub(crate) network: Network,
    /// The cost model (on a core of its own).
    pub(crate) costs: Costs,
    /// See `SimConfig::cores`.
    pub(crate) cores: Option<usize>,
    /// See `SimConfig::ranks_per_host`.
    pub(crate) ranks_per_host: usize,
    /// Solutions found (weighted, as a real run counts them).
    pub solutions: u64,
    /// Optimise mode: the optimum found (as [`Outcome::objective`](crate::cluster::Outcome::objective)).
    pub(crate) objective: Option<u64>,
    /// Nodes visited.
    pub nodes: u64,
    /// Virtual seconds from the start to the answer (what a real run's
    /// `wall_s` measures).
    pub predicted_s: f64,
    /// One simulated worker's time on the same tree over `workers` times
    /// `predicted_s`.
    pub efficiency: f64,
    /// One simulated worker's time on the same tree, seconds.
    pub(crate) one_worker_s: f64,
    /// Messages the master sent to other ranks (a real run's
    /// `master.messages_sent`).
    pub(crate) master_messages: u64,
    /// Messages other ranks sent the master.
    pub(crate) master_received: u64,
    /// The master's own account (as a real run's `--json` gives it).
    pub(crate) master: crate::cluster::MasterStats,
    /// The share of `predicted_s` the master's manager was busy.
    pub(crate) master_busy: f64,
    /// In a run of groups: how many, and the share of the run the busiest
    /// group master's manager was busy (rank 0's counts its root's work
    /// and its group's together, in `master_busy`; this is the others').
    pub(crate) groups: usize,
    /// See `groups`.
    pub(crate) group_master_busy: f64,
    /// Messages the group masters sent, all together (a real run's sum of
    /// `rank_stats[].group.messages_sent`).
    pub(crate) group_messages: u64,
    /// Idle worker time by phase.
    pub(crate) idle: IdleShares,
    /// Busy worker time not spent on nodes, by cause.
    pub(crate) overhead: OverheadShares,
    /// Messages between ranks, all together.
    pub(crate) messages: u64,
    /// The ranks' steal round trips on the virtual clock, as a real run's
    /// `--json` gives them (`steal_round_trip_us`).
    pub(crate) steal_round_trip_us: Option<crate::cluster::TripSummary>,
    /// Events the simulator processed.
    pub(crate) events: u64,
    /// Seconds the simulation itself took (the one field that differs
    /// between two runs with the same seed).
    pub(crate) simulated_in_s: f64,
}

impl fmt::Display for SimReport {
    /// The report as `hysolve-sim` prints it without `--json`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (c, n) = (&self.costs, &self.network);
        writeln!(
            f,
            "{} {} ({}), {} ranks x {} threads, simulated",
            self.problem, self.instance, self.mode, self.ranks, self.threads
        )?;
        writeln!(
            f,
            "  network {}: {:.1} µs, {:.2} GB/s, jitter {} (seed {})",
            n.name,
            n.latency_ns as f64 / 1e3,
            n.bandwidth / 1e9,
            self.jitter,
            self.seed
        )?;
        writeln!(
            f,
            "  costs: node {} ns, message {} ns, master {} ns a message",
            c.node_ns, c.message_cpu_ns, c.master_ns
        )?;
        match self.objective {
            Some(objective) => writeln!(f, "objective: {objective}")?,
            None => writeln!(f, "solutions: {}", self.solutions)?,
        }
        writeln!(f, "nodes: {}", self.nodes)?;
        writeln!(
            f,
            "predicted: {:.6} s; one worker {:.6} s; efficiency {:.3}",
            self.predicted_s, self.one_worker_s, self.efficiency
        )?;
        writeln!(
            f,
            "master: {} messages sent, {} received, busy {:.1} %",
            self.master_messages,
            self.master_received,
            self.master_busy * 100.0
        )?;
        if self.groups > 1 {
            writeln!(
                f,
                "groups: {}; the busiest group master (rank 0's aside) busy {:.1} %",
                self.groups,
                self.group_master_busy * 100.0
            )?;
        }
        let idle = &self.idle;
        writeln!(
            f,
            "idle: start {:.2} %, steady {:.2} %, tail {:.2} %",
            idle.start * 100.0,
            idle.steady * 100.0,
            idle.tail * 100.0
        )?;
        writeln!(
            f,
            "busy on other than nodes: splits {:.2} %, steals {:.2} %",
            self.overhead.splits * 100.0,
            self.overhead.steals * 100.0
        )?;
        match self.steal_round_trip_us {
            Some(t) => writeln!(f, "steal round trips: {t}")?,
            None => writeln!(f, "steal round trips: none")?,
        }
        write!(
            f,
            "simulated in {:.2} s ({} events, {} messages)",
            self.simulated_in_s, self.events, self.messages
        )
    }
}
