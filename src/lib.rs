//! hysolve: a hybrid MPI + threads solver for exhaustive combinatorial search.
//!
//! - [`engine`]: problem-agnostic search (sequential walk, per-rank work-stealing pool);
//! - [`cluster`]: ranks in an extended star (the only MPI code);
//! - [`problems`]: the puzzles;
//! - [`cli`]: the command line;
//! - [`bench`]: helpers of the benchmark programs.

pub mod bench;
pub mod cli;
pub mod cluster;
pub mod engine;
pub mod problems;
pub mod text;
pub mod view;
