//! The puzzles. Each knows nothing of threads or MPI: it implements
//! [`Problem`](crate::engine::Problem), parses its input with clear errors,
//! and has an independent verifier for tests.

pub mod hitori;
pub mod input;
pub mod magic;
pub mod pack;
pub mod queens;
pub mod synthetic;
