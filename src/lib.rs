//! hysolve: a hybrid MPI + threads solver for exhaustive combinatorial search.
//!
//! Put your own search in as a [`Problem`] (a tree of partial solutions
//! with a fixed child order) and [`run`] it: you get worker threads with
//! work stealing, MPI ranks when started by `mpirun` (the `mpi` feature,
//! on by default), checkpoints, and the modes count, all, first and unique.
//!
//! ```
//! use hysolve::{Mode, Problem, RunConfig, Solutions, run};
//! use std::sync::Arc;
//!
//! /// The binary strings of length `n` with no two 1s side by side
//! /// (Fibonacci many).
//! struct NoAdjacentOnes { n: usize }
//!
//! impl Problem for NoAdjacentOnes {
//!     type Node = (usize, u64); // length so far, bits
//!     fn name(&self) -> &'static str { "no-adjacent-ones" }
//!     fn instance(&self) -> String { self.n.to_string() }
//!     fn root(&self) -> (usize, u64) { (0, 0) }
//!     fn children(&self, &(len, bits): &(usize, u64), out: &mut Vec<(usize, u64)>) {
//!         if len < self.n {
//!             out.push((len + 1, bits << 1));
//!             if bits & 1 == 0 {
//!                 out.push((len + 1, bits << 1 | 1));
//!             }
//!         }
//!     }
//!     fn solution_weight(&self, node: &(usize, u64)) -> u64 { u64::from(node.0 == self.n) }
//!     fn render(&self, &(len, bits): &(usize, u64), out: &mut String) {
//!         out.push_str(&format!("{bits:0len$b}"));
//!     }
//! }
//!
//! let config = RunConfig::new(Mode::Count).threads(2);
//! let outcome = run(Arc::new(NoAdjacentOnes { n: 20 }), &config, Solutions::Discard)
//!     .unwrap()   // a run error
//!     .unwrap();  // the outcome is on rank 0, and this is rank 0
//! assert_eq!(outcome.solutions, 17_711);
//! ```
//!
//! The layers, each using only those before it:
//! - [`engine`]: problem-agnostic search (sequential walk, per-rank
//!   work-stealing pool, the vector level the kernels may use);
//! - [`cluster`]: ranks in an extended star (the only MPI code, behind the
//!   `mpi` feature), [`run`] and its configuration;
//! - [`problems`]: the puzzles, each a [`Problem`] with its parser and an
//!   independent verifier;
//! - [`input`] and [`text`]: leaves (reading input files with located
//!   errors; number formatting).
//!
//! The command line, the puzzles' front doors and the viewer are the
//! `hysolve-cli` package; the benchmark tools are `hysolve-tools`.
//!
//! Features: `mpi` (off by default) joins the ranks of an MPI launch;
//! without it every run is one rank of worker threads.

#![warn(missing_docs, unreachable_pub)]

pub mod cluster;
pub mod engine;
pub mod input;
pub mod problems;
pub mod text;

pub use cluster::{Callback, Outcome, RunConfig, RunError, SolutionSink, Solutions, run};
pub use engine::{Mode, Problem};
