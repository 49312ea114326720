//! The hysolve command line, as a library for its binary and its tests:
//! every puzzle behind its front door, the viewer, progress bars, signals.
//!
//! - [`door`]: what the command line knows about one puzzle (the
//!   [`Puzzle`](door::Puzzle) trait) and its type-erased entry;
//! - [`doors`]: each puzzle's door, and the list of registered puzzles;
//! - [`view`]: pictures of solutions files (HTML and SVG);
//! - [`cli`]: parsing, running and reporting;
//! - [`text`]: number formatting for the reports and pages.
//!
//! The engine, the cluster layer and the puzzles' searches are the
//! `hysolve` library; nothing here is below it.

pub mod cli;
pub mod door;
pub mod doors;
pub mod text;
pub mod view;
