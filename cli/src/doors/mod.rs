//! Each puzzle's front door, and the list of registered puzzles.
//!
//! Adding a puzzle: its search as a folder of `hysolve_puzzles` (`puzzles/src`), its door
//! here (a type implementing [`Puzzle`](crate::door::Puzzle)), its `mod`
//! line below and its line in [`PUZZLES`]. Nothing else in hysolve names a
//! puzzle.

use crate::door::{Entry, register};

pub mod clique;
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
    &register::<queens::Door>(),
    &register::<hitori::Door>(),
    &register::<magic::Door>(),
    &register::<pack::Door>(),
    &register::<synthetic::Door>(),
    &register::<uts::Door>(),
    &register::<xc::Door>(),
    &register::<clique::Door>(),
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
