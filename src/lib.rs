//! hysolve: a hybrid MPI + threads solver for exhaustive combinatorial search.
//!
//! Put your own search in as a [`Problem`] (a tree of partial solutions
//! with a fixed order of moves, walked in place: each worker owns a state
//! that the engine moves down by applying a move and back up by undoing
//! it) and [`run`] it: you get worker threads with work stealing, MPI
//! ranks when started by `mpirun` (the `mpi` feature: off by default, the
//! command line turns it on), checkpoints, and the modes count, all,
//! first, unique and optimise. A search that prefers values (a node and
//! its children) implements [`Tree`] instead ([`ScratchTree`] where its
//! workers need scratch space). A search with an objective implements
//! [`Optimise`] (or [`OptimiseTree`]) too, and [`optimise`] runs its
//! branch and bound. `src/engine/README.md` explains them. Call [`check`]
//! from your tests on a small instance: it says which promise of the
//! trait your code breaks, and at which node.
//!
//! ```
//! use hysolve::{Mode, Problem, RunConfig, Solutions, run, state_is_node};
//! use std::sync::Arc;
//!
//! /// The binary strings of length `n` with no two 1s side by side
//! /// (Fibonacci many).
//! struct NoAdjacentOnes { n: usize }
//!
//! /// A string so far: its length and its bits.
//! #[derive(Clone, Copy)]
//! struct Bits { len: usize, bits: u64 }
//!
//! impl Problem for NoAdjacentOnes {
//!     type Node = Bits;   // what a task carries when work is split
//!     type State = Bits;  // what each worker moves in place
//!     type Move = u64;    // the next bit
//!     type Cursor = u64;   // the next bit to try: 0, 1, then 2 (none)
//!     state_is_node!();  // the state is a copy of the node
//!     fn root(&self) -> Bits { Bits { len: 0, bits: 0 } }
//!     fn moves(&self, s: &mut Bits) -> u64 { if s.len < self.n { 0 } else { 2 } }
//!     fn next_move(&self, s: &Bits, next: &mut u64) -> Option<u64> {
//!         let bit = *next;
//!         *next += 1;
//!         // A 1 only after a 0.
//!         (bit == 0 || bit == 1 && s.bits & 1 == 0).then_some(bit)
//!     }
//!     fn apply(&self, s: &mut Bits, &bit: &u64) { s.bits = s.bits << 1 | bit; s.len += 1 }
//!     fn undo(&self, s: &mut Bits, _: &u64) { s.bits >>= 1; s.len -= 1 }
//!     fn solution_weight(&self, s: &Bits) -> u64 { u64::from(s.len == self.n) }
//!     fn render(&self, s: &Bits, out: &mut String) {
//!         out.push_str(&format!("{:0len$b}", s.bits, len = s.len));
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
//! The layers point down only (`tests/layers.rs` checks it):
//! - `engine`, at the bottom: problem-agnostic search (sequential walk,
//!   per-rank work-stealing pool, the vector level the kernels may use);
//! - `cluster`, on the engine: ranks in an extended star (the only MPI
//!   code, behind the `mpi` feature), [`run`] and its configuration;
//! - `input` and `output`: leaves that any layer may use and that use
//!   nothing (reading input files with located errors; writing files
//!   atomically).
//!
//! The names above are what a program that searches needs. The rest of
//! what other crates may use (the command line, the puzzles, the tools:
//! the sequential search, the conformance check's parts, the launcher's
//! questions, the simulator) is in [`advanced`], and may change between
//! versions.
//!
//! The built-in puzzles, each a [`Problem`] with its parser and an
//! independent verifier, are the `hysolve-puzzles` package; the command
//! line, the puzzles' front doors and the viewer are `hysolve-cli`; the
//! benchmark tools are `hysolve-tools`.
//!
//! Features: `mpi` (off by default) joins the ranks of an MPI launch;
//! without it every run is one rank of worker threads. `sim` (for the
//! tools) adds the simulator, `advanced::sim`.

#![warn(missing_docs, unreachable_pub)]

mod cluster;
mod engine;
mod input;
mod output;

pub use cluster::{
    Callback, ConfigError, Observer, Outcome, Progress, RunConfig, RunError, SolutionSink,
    Solutions, optimise, run,
};
pub use engine::{
    Checked, Mode, Optimise, OptimiseTree, Problem, Property, ScratchTree, Tree, Violation, check,
};

/// What the command line, the puzzles and the tools use beyond the names
/// at the crate's root: the sequential search, the parts of a problem's
/// conformance check, the launcher's questions, checkpoints, input and
/// output helpers and (feature `sim`) the simulator. Not needed to write
/// and run a search; it may change between versions.
pub mod advanced {
    pub use crate::cluster::{
        Checkpoint, CheckpointPlan, DEFAULT_PREFIXES_PER_WORKER, DEFAULT_RAMP_UP, FileError,
        MAX_THREADS, RoundTrips, TripSummary, is_rank_zero, launched_by_mpi, local_ranks,
        run_threaded,
    };
    #[cfg(feature = "sim")]
    pub use crate::cluster::{master_bench, sim};
    pub use crate::engine::{
        Count, Optimising, Path, PathCursor, PathMove, Prefix, Uniqueness, check_up_to,
        count_by_moves, optimum, ramp_up, replay, sequential, simd,
    };
    /// Reading input files, with errors located at `file:line:col`.
    pub mod input {
        pub use crate::input::{
            BlockError, InputError, MAX_INPUT_BYTES, read_bytes, read_text, text_from_bytes, words,
        };
    }
    /// Writing files atomically.
    pub mod output {
        pub use crate::output::{replace, write_atomically};
    }
}
