//! The puzzles. Each is a folder that knows nothing of threads or MPI: it
//! implements [`Problem`](crate::engine::Problem), parses its input with
//! clear errors, has an independent verifier for tests, and comes in
//! through the front door ([`Puzzle`], in its `door.rs`).
//!
//! Adding a puzzle: a folder here with its `door.rs`, its `mod` line below
//! and its line in [`PUZZLES`]. Nothing else in hysolve names a puzzle.

mod error;
pub mod input;
mod puzzle;

pub use error::PuzzleError;
pub use puzzle::{
    BuildError, Entry, Generated, Generator, Job, Puzzle, Registered, job, register, written,
};

pub mod hitori;
pub mod magic;
pub mod pack;
pub mod queens;
pub mod synthetic;
pub mod uts;
pub mod xc;

/// Every puzzle hysolve knows, in the order of `hysolve --help`. The
/// viewer tries their formats in this order to tell a file's puzzle:
/// packing, whose format takes any block, comes after the others.
pub static PUZZLES: &[&dyn Entry] = &[
    &register::<queens::door::Door>(),
    &register::<hitori::door::Door>(),
    &register::<magic::door::Door>(),
    &register::<pack::door::Door>(),
    &register::<synthetic::door::Door>(),
    &register::<uts::door::Door>(),
    &register::<xc::door::Door>(),
];

/// The registered puzzle called `name`.
pub fn find(name: &str) -> Option<&'static dyn Entry> {
    PUZZLES.iter().copied().find(|p| p.name() == name)
}

/// The solution formats of the registered puzzles, in the order in which
/// the viewer tries them.
pub fn formats() -> Vec<crate::view::Format> {
    PUZZLES.iter().filter_map(|p| p.format()).collect()
}
