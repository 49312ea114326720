//! The search engine: problem-agnostic, with no MPI in it.
//!
//! - [`problem`]: the traits a puzzle implements: [`Problem`] (a search in
//!   place: a worker's state moved by apply and undo) or [`Tree`] (cloned
//!   nodes, expressed on it); `README.md` explains them;
//! - `search`: the depth-first walk of one task, in place on the worker's
//!   state and stack of moves, its splits, and the sequential search
//!   ([`sequential`]);
//! - `pool`: a rank's worker threads with work stealing and donation;
//! - [`prefix`]: portable names for subtrees, and their replay;
//! - [`piece`]: work as it crosses ranks (a prefix, or an encoded node);
//! - `ramp`: the ramp-up of a branch and bound, the problem's heuristic
//!   raced before the exact search ([`ramp_up`]);
//! - [`simd`]: the widest vector instructions the kernels may use
//!   (`HYSOLVE_SIMD`).

pub mod mode;
pub mod piece;
pub(crate) mod pool;
pub mod prefix;
pub mod problem;
mod ramp;
mod search;
pub mod simd;

pub use mode::{Mode, Uniqueness};
pub use piece::Piece;
pub use pool::stats::{Tally, WorkerStats};
pub(crate) use pool::{PoolEvent, RankPool, SOLUTION_BATCH, UnitReport};
pub use prefix::{Prefix, replay};
pub use problem::{Path, Problem, SubtreeCount, Tree, count_by_moves};
pub use ramp::{RampUp, ramp_up};
pub(crate) use search::{Context, Searcher, Task, expand};
pub use search::{Counters, deeper, optimum, sequential};
