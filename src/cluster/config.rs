//! How a run is set up: the same on every rank.

use super::checkpoint::Checkpoint;
use super::observer::Observer;
use crate::engine::Mode;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Initial prefixes per worker that the master deals when nothing else is
/// said: enough for the first round of work to spread evenly.
pub const DEFAULT_PREFIXES_PER_WORKER: usize = 16;

/// How a run is set up; the same on every rank. Start from
/// [`RunConfig::new`] (or [`Default`], count mode) and change what you need:
///
/// ```
/// use hysolve::{Mode, RunConfig};
///
/// let config = RunConfig::new(Mode::All).threads(4).limit(10);
/// assert_eq!(config.threads, 4);
/// assert_eq!(config.stop_after(), Some(10));
/// assert_eq!(RunConfig::default().mode, Mode::Count);
/// ```
#[derive(Clone)]
pub struct RunConfig {
    pub mode: Mode,
    /// Worker threads per rank [default: the cores this process may use].
    pub threads: usize,
    /// Initial prefixes the master aims for, per worker in the whole job
    /// [default: [`DEFAULT_PREFIXES_PER_WORKER`]].
    pub prefixes_per_worker: usize,
    /// When the input was parsed: `wall_s` counts from here [default: when
    /// the configuration was made].
    pub started: Instant,
    /// Stop after this many solutions (modes that send solutions: all,
    /// first, unique); `None`: as the mode says.
    pub limit: Option<u64>,
    /// Checkpoints (count and all modes): where, how often, of what run,
    /// and the checkpoint this run resumes.
    pub checkpoint: Option<Arc<CheckpointPlan>>,
    /// Once set (on SIGTERM or SIGINT, say), the master stops every rank,
    /// writes a last checkpoint and the run ends with
    /// [`RunError::Interrupted`](super::RunError::Interrupted).
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Told of the run's progress, on rank 0 only (a progress bar, a log).
    pub observer: Option<Arc<dyn Observer>>,
}

/// Where and how often to checkpoint.
#[derive(Debug)]
pub struct CheckpointPlan {
    pub path: PathBuf,
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
            .field("limit", &self.limit)
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
            started: Instant::now(),
            limit: None,
            checkpoint: None,
            interrupt: None,
            observer: None,
        }
    }

    /// Worker threads per rank (at least 1).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads.max(1);
        self
    }

    /// Initial prefixes per worker that the master deals (at least 1).
    pub fn prefixes_per_worker(mut self, n: usize) -> Self {
        self.prefixes_per_worker = n.max(1);
        self
    }

    /// Stop after `n` solutions (all, first and unique modes).
    pub fn limit(mut self, n: u64) -> Self {
        self.limit = Some(n);
        self
    }

    /// Count `wall_s` from `t` (when reading the input began, say).
    pub fn started(mut self, t: Instant) -> Self {
        self.started = t;
        self
    }

    /// Checkpoint as `plan` says (count and all modes).
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

    /// How many solutions end the search: the mode's own limit and `limit`, whichever is smaller.
    pub fn stop_after(&self) -> Option<u64> {
        match (self.mode.stop_after(), self.limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}
