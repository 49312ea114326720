//! What a run tells whoever watches it: the CLI's progress bar, a log, a
//! notebook. Called on rank 0 only, from its manager thread, so an observer
//! must be quick.

use std::time::Duration;

/// Where the search stands, over all ranks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// Since [`RunConfig::started`](super::RunConfig::started).
    pub elapsed: Duration,
    /// The master's initial prefixes (the run's units of work).
    pub(crate) initial: u64,
    /// Initial prefixes walked to the end.
    pub initial_done: u64,
    /// Solutions and nodes of finished tasks.
    pub solutions: u64,
    /// Nodes visited so far.
    pub nodes: u64,
}

/// Watches a run. Every method has an empty default.
///
/// ```
/// use hysolve::{Observer, Progress};
/// use std::sync::atomic::{AtomicU64, Ordering};
///
/// /// Remembers the furthest the run got.
/// #[derive(Default)]
/// struct Furthest(AtomicU64);
///
/// impl Observer for Furthest {
///     fn progress(&self, p: &Progress) {
///         self.0.fetch_max(p.initial_done, Ordering::Relaxed);
///     }
/// }
/// ```
pub trait Observer: Send + Sync {
    /// The master has dealt its initial prefixes; the search begins.
    fn started(&self, initial_prefixes: u64) {
        let _ = initial_prefixes;
    }

    /// About five times a second while the search runs.
    fn progress(&self, progress: &Progress) {
        let _ = progress;
    }

    /// The search is over (answered, exhausted or interrupted).
    fn finished(&self) {}
}

/// How often rank 0 tells its observer where the search stands.
pub(super) const OBSERVE_EVERY: Duration = Duration::from_millis(200);
