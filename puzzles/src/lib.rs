//! The built-in puzzles of hysolve. Each is a folder that knows nothing of
//! threads or MPI: it implements [`hysolve::Problem`], parses its input
//! with clear errors, and has an independent verifier for tests. The
//! command line reaches each through its front door, in the `hysolve-cli`
//! package.

#![warn(missing_docs, unreachable_pub)]

mod error;

pub use error::PuzzleError;

pub mod clique;
pub mod hitori;
pub mod magic;
pub mod pack;
pub mod queens;
pub mod synthetic;
pub mod uts;
pub mod xc;
