//! How a run is set up: the same on every rank.

use super::checkpoint::Checkpoint;
use super::observer::Observer;
use crate::engine::{Mode, Problem};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Initial prefixes per worker that the master deals when nothing else is
/// said: enough for the first round of work to spread evenly.
pub const DEFAULT_PREFIXES_PER_WORKER: usize = 16;

/// The most initial prefixes the master aims for, whatever the run's size
/// (see [`RunConfig::initial_prefixes`]).
const MAX_INITIAL_PREFIXES: usize = 32_768;

/// The ramp-up's effort when nothing else is said: about 20 ms of a
/// heuristic on each of rank 0's threads (the clique's local search meets
/// gen400_p0.9_75's optimum in about a twentieth of it).
pub const DEFAULT_RAMP_UP: u64 = 20_000_000;

/// The race's effort when nothing else is said: the heuristic beside the
/// exact search spends at most this much (a few seconds of a core, at an
/// eighth of one: `engine/race.rs`), and stops when the search ends.
pub(crate) const DEFAULT_RACE: u64 = 2_000_000_000;

/// Direct steals a rank makes by default before it asks its master
/// ([`RunConfig::direct_steals`]): two ranks of its group at random. A
/// steal then needs neither the master nor, when the victim has tasks
/// queued, its workers' attention beyond a poll (`cluster/README.md`,
/// "Noticing a message").
pub(crate) const DEFAULT_DIRECT_STEALS: u32 = 2;

/// How a run is set up; the same on every rank. Start from
/// [`RunConfig::new`] (or [`Default`], count mode) and change what you need:
///
/// ```
/// use hysolve::{ConfigError, Mode, RunConfig, Solutions};
///
/// let config = RunConfig::new(Mode::All).threads(4).limit(10);
/// assert_eq!(config.validate(&Solutions::Discard), Ok(()));
/// // Count mode (the default) counts every solution: no limit.
/// let count = RunConfig::default().limit(10);
/// assert_eq!(count.validate(&Solutions::Discard), Err(ConfigError::LimitInCount));
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub struct RunConfig {
    /// What the search looks for.
    pub(crate) mode: Mode,
    /// Worker threads per rank [default: the cores this process may use].
    pub(crate) threads: usize,
    /// Initial prefixes the master aims for, per worker of a one-thread
    /// rank [default: [`DEFAULT_PREFIXES_PER_WORKER`]]; a rank of `T`
    /// threads counts as `ceil(sqrt(T))` workers, and the master aims for
    /// at most 32,768 (see [`RunConfig::initial_prefixes`]).
    pub(crate) prefixes_per_worker: usize,
    /// How many of a rank's workers must be idle, with nothing to steal,
    /// before the rank tells the master it would take more work while it
    /// still holds some (`Hungry`); 0: a rank asks only once it runs dry.
    /// `None` (the default): [`RunConfig::hunger_threshold`]'s rule.
    pub(crate) hunger: Option<usize>,
    /// Ranks per group of the extended star's second level: rank 0's
    /// master serves group masters, each of which serves the ranks of its
    /// group. `Some(0)`: one group, rank 0 serves every rank; `None` (the
    /// default): one group up to 64 ranks, beyond that groups of about the
    /// square root of the ranks (see `cluster/README.md`, "Groups"). Rank
    /// 0, the root, has a group of its own: itself alone, or its node. A
    /// group is rounded up to whole nodes when the job script says how many
    /// ranks each node runs (`HYSOLVE_RANKS_PER_NODE`).
    pub(crate) group_size: Option<usize>,
    /// Direct steals: how many ranks of its own group, picked at random,
    /// a rank whose pool runs dry or is hungry asks for work itself
    /// (`StealRequest`), one at a time, before it asks its master; 0:
    /// none, every steal goes through the master (see
    /// `cluster/README.md`, "Direct steals"). `None` (the default):
    /// [`DEFAULT_DIRECT_STEALS`] in a run of one group; none in a run of
    /// groups, or with checkpoints, which cannot have them
    /// ([`RunConfig::steal_tries`]).
    pub(crate) direct_steals: Option<u32>,
    /// When the input was parsed: `wall_s` counts from here [default: when
    /// the configuration was made].
    pub(crate) started: Instant,
    /// Stop after this many solutions (modes that send solutions: all,
    /// first, unique); `None`: as the mode says.
    pub(crate) limit: Option<u64>,
    /// Optimise mode: stop at the first solution whose objective reaches
    /// this (the decision variant of the optimisation); `None`: prove the
    /// optimum.
    pub(crate) at_least: Option<u64>,
    /// Optimise mode: the effort of the ramp-up, the problem's heuristic
    /// raced on rank 0's threads before the exact search
    /// ([`Optimise::heuristic`](crate::Optimise::heuristic), in its
    /// units of about a nanosecond); 0: none [default:
    /// [`DEFAULT_RAMP_UP`]].
    pub(crate) ramp_up: u64,
    /// Optimise mode: the effort of the race, the problem's heuristic run
    /// on one more thread of rank 0 beside the exact search, at an eighth
    /// of a core, each improvement it finds an incumbent
    /// ([`race`](crate::engine::race)); 0, or a ramp-up of 0: none
    /// [default: [`DEFAULT_RACE`]].
    pub(crate) race: u64,
    /// Checkpoints (count, all and optimise modes): where, how often, of what run,
    /// and the checkpoint this run resumes.
    pub(crate) checkpoint: Option<Arc<CheckpointPlan>>,
    /// Once set (on SIGTERM or SIGINT, say), the master stops every rank,
    /// writes a last checkpoint and the run ends with
    /// [`RunError::Interrupted`](super::RunError::Interrupted).
    pub(crate) interrupt: Option<Arc<AtomicBool>>,
    /// Told of the run's progress, on rank 0 only (a progress bar, a log).
    pub(crate) observer: Option<Arc<dyn Observer>>,
}

/// The most worker threads a rank may have.
pub const MAX_THREADS: usize = 4096;

/// A configuration [`run`](crate::run) refuses, before anything starts,
/// in one line that names the [`RunConfig`] setting (the command line says
/// it with its flags instead).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// No worker thread, or more than [`MAX_THREADS`].
    #[error("threads (RunConfig::threads) must be from 1 to {MAX_THREADS}, got {0}")]
    Threads(usize),
    /// No initial prefix per worker.
    #[error("the master must deal at least 1 initial prefix per worker")]
    PrefixesPerWorker,
    /// A limit on solutions in count or optimise mode.
    #[error("a limit on solutions (RunConfig::limit) is for modes all, first and unique")]
    LimitInCount,
    /// A limit of no solution.
    #[error("a limit on solutions (RunConfig::limit) must be at least 1")]
    ZeroLimit,
    /// Optimise mode for a problem without an objective: a problem that
    /// optimises implements [`Optimise`](crate::Optimise) and runs by
    /// [`optimise`](crate::optimise).
    #[error(
        "optimise mode (Mode::Optimise) needs a problem with an objective: an Optimise, run by hysolve::optimise"
    )]
    NoObjective,
    /// [`optimise`](crate::optimise) of a configuration in another mode.
    #[error("hysolve::optimise runs optimise mode (RunConfig::new(Mode::Optimise)), not {0}")]
    OptimiseMode(Mode),
    /// A target objective outside optimise mode.
    #[error("a target objective (RunConfig::at_least) is for optimise mode, not {0}")]
    AtLeastMode(Mode),
    /// Checkpoints in first or unique mode, whose answer is not a sum of
    /// units.
    #[error("checkpoints (RunConfig::checkpoint) are for count, all and optimise modes, not {0}")]
    CheckpointMode(Mode),
    /// Checkpoints with a limit: the units left would not know how many
    /// solutions they may still give.
    #[error("checkpoints (RunConfig::checkpoint) cannot be used with a limit on solutions")]
    CheckpointLimit,
    /// Checkpoints with direct steals: a master counts a unit's parcels
    /// only when the donations to a thief are announced in the order the
    /// thief received them, which direct steals do not keep.
    #[error(
        "checkpoints (RunConfig::checkpoint) cannot be used with direct steals (RunConfig::direct_steals): a checkpoint's units would not be exact"
    )]
    CheckpointDirectSteals,
    /// Checkpoints in all mode with solutions that cannot be rewound to the
    /// last checkpoint (stdout, a callback).
    #[error(
        "checkpoints (RunConfig::checkpoint) in all mode need the solutions in a file (Solutions::File): a stream cannot be rewound"
    )]
    CheckpointStream,
}

/// Where and how often to checkpoint.
#[derive(Debug)]
pub struct CheckpointPlan {
    /// The checkpoint file (written beside its name, then renamed).
    pub path: PathBuf,
    /// Time between checkpoints.
    pub every: Duration,
    /// The run: problem, instance, mode and fingerprint (the other fields
    /// are filled in when a checkpoint is taken).
    pub identity: Checkpoint,
    /// The checkpoint this run continues.
    pub resume: Option<Checkpoint>,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig::new(Mode::Count)
    }
}

impl std::fmt::Debug for RunConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunConfig")
            .field("mode", &self.mode)
            .field("threads", &self.threads)
            .field("prefixes_per_worker", &self.prefixes_per_worker)
            .field("group_size", &self.group_size)
            .field("hunger", &self.hunger)
            .field("direct_steals", &self.direct_steals)
            .field("limit", &self.limit)
            .field("at_least", &self.at_least)
            .field("ramp_up", &self.ramp_up)
            .field("race", &self.race)
            .field("checkpoint", &self.checkpoint)
            .field("observer", &self.observer.is_some())
            .finish_non_exhaustive()
    }
}

impl RunConfig {
    /// A run in `mode` on as many threads as this process has cores, with
    /// no limit, no checkpoints and nobody watching.
    pub fn new(mode: Mode) -> RunConfig {
        RunConfig {
            mode,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            prefixes_per_worker: DEFAULT_PREFIXES_PER_WORKER,
            hunger: None,
            group_size: None,
            direct_steals: None,
            started: Instant::now(),
            limit: None,
            at_least: None,
            ramp_up: DEFAULT_RAMP_UP,
            race: DEFAULT_RACE,
            checkpoint: None,
            interrupt: None,
            observer: None,
        }
    }

    /// Worker threads per rank (1 to [`MAX_THREADS`]: [`run`](crate::run)
    /// refuses others).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Initial prefixes per worker that the master deals (at least 1:
    /// [`run`](crate::run) refuses 0).
    pub fn prefixes_per_worker(mut self, n: usize) -> Self {
        self.prefixes_per_worker = n;
        self
    }

    /// How many idle workers make a rank hungry (see [`RunConfig::hunger`];
    /// 0: never, it asks only when dry).
    pub fn hunger(mut self, workers: usize) -> Self {
        self.hunger = Some(workers);
        self
    }

    /// Ranks per group (see [`RunConfig::group_size`]; 0: one group).
    pub fn group_size(mut self, ranks: usize) -> Self {
        self.group_size = Some(ranks);
        self
    }

    /// Ranks of its group a dry or hungry rank asks for work itself before
    /// it asks its master (see [`RunConfig::direct_steals`]; 0: none).
    pub fn direct_steals(mut self, tries: u32) -> Self {
        self.direct_steals = Some(tries);
        self
    }

    /// The direct steals a rank makes before it asks its master:
    /// [`RunConfig::direct_steals`], or by default [`DEFAULT_DIRECT_STEALS`]
    /// in a run of one group, and none in a run of groups (`grouped`) or
    /// with checkpoints. In groups a rank is hungry at its first idle
    /// worker, and its steals cost the ranks it asks and its master more
    /// than they bring: simulated UTS T1XXL on 1,024 ranks of 16 threads
    /// (33 groups) ran at 0.650 of its ideal with 2, the group masters 90 %
    /// busy and ten times the messages, and at 0.897 with none
    /// (`bench-results/sim-groups.jsonl`, rows `69870bf`).
    pub(crate) fn steal_tries(&self, grouped: bool) -> u32 {
        let default = if self.checkpoint.is_some() || grouped {
            0
        } else {
            DEFAULT_DIRECT_STEALS
        };
        self.direct_steals.unwrap_or(default)
    }

    /// The groups of a run of `ranks` ranks, `per_node` of them a node.
    pub(crate) fn layout(&self, ranks: usize, per_node: usize) -> super::layout::Layout {
        use super::layout::Layout;
        let size = self
            .group_size
            .unwrap_or_else(|| Layout::default_group_size(ranks));
        Layout::groups_of(ranks, size, per_node)
    }

    /// The idle workers, with nothing to steal, at which a rank that
    /// still holds work tells its master it would take more, in a run of
    /// one group or (`grouped`) of several: as [`RunConfig::hunger`] says,
    /// or by default, on ranks of 4 threads or more, one idle worker in a
    /// run of groups and a quarter of the rank's threads in one group;
    /// never on smaller ranks (their one or two idle workers are served
    /// by the ask a moment later). A master of few children serves an
    /// early `Hungry` at once; a master of many, already busy, does not,
    /// and pays for every one it handles. Simulated at `d5f4acd`
    /// (`bench-results/log/2026-11-to-12-groups.md`, "Hunger in groups"): on 1,024 ranks of
    /// 16 threads in groups of 32, one idle worker took UTS T1XL from
    /// 0.694 to 0.793 and T1XXL from 0.819 to 0.875; on 64 ranks of 16
    /// in one group, T3XXL fell from 0.644 to 0.590 (its master 79 %
    /// busy) while 5x5 magic squares rose from 0.814 to 0.837.
    pub(crate) fn hunger_threshold(&self, grouped: bool) -> usize {
        match self.hunger {
            Some(n) => n,
            None if self.threads >= 4 && grouped => 1,
            None if self.threads >= 4 => self.threads.div_ceil(4),
            None => 0,
        }
    }

    /// The initial prefixes the master aims for over `ranks` ranks:
    /// `prefixes_per_worker x ranks x ceil(sqrt(threads))`, at most
    /// 32,768. A rank's threads share its prefixes by stealing from each
    /// other, so a rank needs fewer than one batch a thread; and the master
    /// expands the root (its larger levels on rank 0's threads) while every
    /// other worker waits, and deals what it made, so more prefixes cost
    /// the whole job. Simulated on UTS T1L at 64
    /// ranks x 16 threads, 16 prefixes a thread (18,541) gave efficiency
    /// 0.673 and 4 a thread (4,562) 0.761; N-Queens 17, 0.643 and 0.750;
    /// on ranks of one thread 16 a rank did best (T1L at 256 ranks: 0.750
    /// against 0.705 with 4). On 1 or 2 threads a rank this is the old
    /// `prefixes_per_worker x workers`.
    ///
    /// With 16 a worker the cap binds only past 2,048 ranks of one thread
    /// or 512 of 16 (runs of groups by default): there the expansion's
    /// cost keeps growing with the workers while what each worker gains
    /// from it does not, and a level of the tree can overshoot the aim
    /// several times over. Simulated UTS T1XXL on 1,024 ranks of 16
    /// threads in groups of 32: 65,536 asked gave a level of 193,128
    /// prefixes, half a millisecond of a 22 ms run in which every other
    /// worker waits, and efficiency 0.899; 32,768 asked gave 47,914 and
    /// 0.911. On 256 ranks of 16 threads the aim stays 16,384 (47,914
    /// prefixes): half of it, 12,013 prefixes, gave 0.961 against 0.978
    /// (`bench-results/log/2026-11-to-12-groups.md`, "The initial prefixes of a large run").
    pub(crate) fn initial_prefixes(&self, ranks: usize) -> usize {
        let threads = self.threads.max(1);
        let mut root = threads.isqrt();
        if root * root < threads {
            root += 1;
        }
        (self.prefixes_per_worker.max(1) * ranks.max(1) * root).min(MAX_INITIAL_PREFIXES)
    }

    /// Stop after `n` solutions (all, first and unique modes).
    pub fn limit(mut self, n: u64) -> Self {
        self.limit = Some(n);
        self
    }

    /// Optimise mode: stop at the first solution whose objective is at
    /// least `target`.
    pub fn at_least(mut self, target: u64) -> Self {
        self.at_least = Some(target);
        self
    }

    /// Optimise mode: the ramp-up's effort (0: none).
    pub fn ramp_up(mut self, effort: u64) -> Self {
        self.ramp_up = effort;
        self
    }

    /// Optimise mode: the race's effort (0: none).
    pub fn race(mut self, effort: u64) -> Self {
        self.race = effort;
        self
    }

    /// Count `wall_s` from `t` (when reading the input began, say).
    pub fn started(mut self, t: Instant) -> Self {
        self.started = t;
        self
    }

    /// Checkpoint as `plan` says (count, all and optimise modes).
    pub fn checkpoint(mut self, plan: CheckpointPlan) -> Self {
        self.checkpoint = Some(Arc::new(plan));
        self
    }

    /// Stop the run, checkpointing it, once `flag` is set.
    pub fn interrupt(mut self, flag: Arc<AtomicBool>) -> Self {
        self.interrupt = Some(flag);
        self
    }

    /// Tell `observer` of the run's progress (on rank 0).
    pub fn observer(mut self, observer: Arc<dyn Observer>) -> Self {
        self.observer = Some(observer);
        self
    }

    /// Checks the configuration before a run, with `solutions` its
    /// destination: [`run`](crate::run) refuses what this refuses.
    ///
    /// ```
    /// use hysolve::{Mode, RunConfig, Solutions};
    /// use hysolve::ConfigError;
    ///
    /// let count = RunConfig::new(Mode::Count);
    /// assert!(count.validate(&Solutions::Discard).is_ok());
    /// let limited = RunConfig::new(Mode::Count).limit(5);
    /// assert_eq!(limited.validate(&Solutions::Discard), Err(ConfigError::LimitInCount));
    /// ```
    pub fn validate(&self, solutions: &super::Solutions<'_>) -> Result<(), ConfigError> {
        if !(1..=MAX_THREADS).contains(&self.threads) {
            return Err(ConfigError::Threads(self.threads));
        }
        if self.prefixes_per_worker == 0 {
            return Err(ConfigError::PrefixesPerWorker);
        }
        match self.limit {
            Some(_) if matches!(self.mode, Mode::Count | Mode::Optimise) => {
                return Err(ConfigError::LimitInCount);
            }
            Some(0) => return Err(ConfigError::ZeroLimit),
            _ => {}
        }
        if self.at_least.is_some() && self.mode != Mode::Optimise {
            return Err(ConfigError::AtLeastMode(self.mode));
        }
        if self.checkpoint.is_some() {
            if !matches!(self.mode, Mode::Count | Mode::All | Mode::Optimise) {
                return Err(ConfigError::CheckpointMode(self.mode));
            }
            if self.limit.is_some() {
                return Err(ConfigError::CheckpointLimit);
            }
            if self.direct_steals.is_some_and(|k| k > 0) {
                return Err(ConfigError::CheckpointDirectSteals);
            }
            let rewinds = matches!(
                solutions,
                super::Solutions::File(_) | super::Solutions::Discard
            );
            if self.mode == Mode::All && !rewinds {
                return Err(ConfigError::CheckpointStream);
            }
        }
        Ok(())
    }

    /// Whether this configuration can run `P`: optimise mode needs an
    /// objective (an [`Optimising`](crate::advanced::Optimising)
    /// problem).
    pub(crate) fn validate_problem<P: Problem>(&self) -> Result<(), ConfigError> {
        if self.mode == Mode::Optimise && !P::OPTIMISES {
            return Err(ConfigError::NoObjective);
        }
        Ok(())
    }

    /// How many solutions end the search: the mode's own limit and `limit`, whichever is smaller
    /// (in optimise mode, one when there is a target).
    pub(crate) fn stop_after(&self) -> Option<u64> {
        if self.mode == Mode::Optimise {
            return self.at_least.map(|_| 1);
        }
        match (self.mode.stop_after(), self.limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn direct_steals_by_default_in_one_group_only() {
        let config = RunConfig::new(Mode::Count);
        assert_eq!(config.steal_tries(false), DEFAULT_DIRECT_STEALS);
        assert_eq!(config.steal_tries(true), 0);
        // Asked for, a run of groups has them too.
        assert_eq!(config.clone().direct_steals(3).steal_tries(true), 3);
        assert_eq!(config.direct_steals(0).steal_tries(false), 0);
    }

    #[test]
    fn a_rank_of_t_threads_counts_as_the_square_root_of_t_workers_up_to_a_cap() {
        let config = |t| RunConfig::new(Mode::Count).threads(t);
        // One and two threads: one batch a worker, as before.
        assert_eq!(config(1).initial_prefixes(4), 64);
        assert_eq!(config(2).initial_prefixes(2), 64);
        // 3 and 4 threads count as 2 workers, 16 as 4, 17 as 5.
        assert_eq!(config(3).initial_prefixes(1), 32);
        assert_eq!(config(4).initial_prefixes(1), 32);
        assert_eq!(config(16).initial_prefixes(64), 4_096);
        assert_eq!(config(17).initial_prefixes(1), 80);
        assert_eq!(config(16).prefixes_per_worker(1).initial_prefixes(1), 4);
        // At most 32,768: it binds past 512 ranks of 16 threads and 2,048
        // of one, or sooner with more prefixes a worker.
        assert_eq!(config(16).initial_prefixes(256), 16_384);
        assert_eq!(config(16).initial_prefixes(1_024), 32_768);
        assert_eq!(config(1).initial_prefixes(2_048), 32_768);
        assert_eq!(config(1).initial_prefixes(4_096), 32_768);
        assert_eq!(
            config(1).prefixes_per_worker(100).initial_prefixes(1_024),
            32_768
        );
    }

    #[test]
    fn ranks_of_many_threads_hunger_at_one_idle_worker_in_groups() {
        let config = |t| RunConfig::new(Mode::Count).threads(t);
        assert_eq!(config(16).hunger_threshold(false), 4);
        assert_eq!(config(16).hunger_threshold(true), 1);
        assert_eq!(config(5).hunger_threshold(false), 2);
        // Never on ranks of fewer than 4 threads, groups or not.
        for grouped in [false, true] {
            assert_eq!(config(3).hunger_threshold(grouped), 0);
        }
        // What the configuration says, whatever the layout.
        let mut c = config(16);
        c.hunger = Some(6);
        assert_eq!(
            (c.hunger_threshold(false), c.hunger_threshold(true)),
            (6, 6)
        );
    }
}
