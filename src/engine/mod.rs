//! The search engine: problem-agnostic, with no MPI in it.
//!
//! - `problem`: the traits a puzzle implements: [`Problem`] (a search in
//!   place: a worker's state moved by apply and undo) or [`Tree`] (cloned
//!   nodes, expressed on it); `README.md` explains them;
//! - `check`: the conformance check of a problem ([`check`]), for a
//!   user's own tests;
//! - `task`: a unit of work (a subtree: its node, depth and prefix);
//! - `context`: what the walk asks of whoever runs it;
//! - `count`: what a search counts ([`Count`]);
//! - `visit`: the visit of one node (counted, reported if a solution);
//! - `walk`: the depth-first walk of one task, in place on the worker's
//!   state and stack of levels, and (`walk/split.rs`) its splits;
//! - `optimise`: optimisation's part of a problem, in traits of its own
//!   ([`Optimise`], [`OptimiseTree`]), the wrapper that hands it to the
//!   engine ([`Optimising`]), and a branch and bound on the calling thread
//!   ([`optimum`]) or its ramp-up alone ([`ramp_up`]);
//! - `sequential`: the search on the calling thread ([`sequential`]), the
//!   reference of every parallel run;
//! - `expand`: the master's breadth-first expansion of the root;
//! - `pool`: a rank's worker threads with work stealing and donation;
//! - `prefix`: portable names for subtrees ([`Prefix`]), and their replay
//!   ([`replay`]);
//! - `parcel`: work as it crosses ranks (a prefix, or an encoded node);
//! - `ramp`: the ramp-up of a branch and bound, the problem's heuristic
//!   raced before the exact search;
//! - `race`: the same heuristic beside the exact search ([`race`]);
//! - [`simd`]: the widest vector instructions the kernels may use
//!   (`HYSOLVE_SIMD`);
//! - `fixtures` (tests only): the trees and the small N-Queens that the
//!   engine's and the cluster's unit tests search.

mod check;
mod context;
mod count;
mod expand;
#[cfg(test)]
pub(crate) mod fixtures;
mod mode;
mod optimise;
mod parcel;
pub(crate) mod pool;
mod prefix;
mod problem;
mod race;
mod ramp;
mod sequential;
pub mod simd;
mod task;
mod visit;
mod walk;

pub use check::{Checked, Property, Violation, check, check_up_to};
pub(crate) use context::Context;
pub use count::Count;
pub(crate) use count::deeper;
#[cfg(feature = "sim")]
pub(crate) use expand::start_depth;
pub(crate) use expand::{Spread, expand};
pub use mode::{Mode, Uniqueness};
pub use optimise::{Optimise, OptimiseTree, Optimising, optimum, ramp_up};
pub(crate) use parcel::{Parcel, Parcels, Unpacked};
pub(crate) use pool::stats::{Tally, WorkerStats};
pub(crate) use pool::{Poller, PoolEvent, RankPool, SILENT, Threads, UnitReport};
#[cfg(feature = "sim")]
pub(crate) use pool::{SOLUTION_BATCH, policy};
pub use prefix::{Prefix, replay};
pub use problem::{Path, PathCursor, PathMove, Problem, ScratchTree, Tree, count_by_moves};
pub(crate) use race::race;
pub(crate) use ramp::ramp;
pub use sequential::sequential;
pub(crate) use task::Task;
#[cfg(feature = "sim")]
pub(crate) use walk::POLL_EVERY;
pub(crate) use walk::Searcher;
