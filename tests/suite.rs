//! Every integration test of the library, one module a file, in one test
//! binary: each binary links the whole library again, so twenty files as
//! one save minutes of `make test`. A file's tests are named after it:
//! `cargo test --profile testing --test suite -- engine::` runs
//! `tests/engine.rs` (`make test` builds with the `testing` profile). The
//! puzzles' tests are their package's (`puzzles/tests/suite.rs`); those of
//! the binary, the Makefile and the job scripts the command line's
//! (`cli/tests/suite.rs`).

mod common;

#[path = "check.rs"]
mod check;
#[path = "engine.rs"]
mod engine;
#[path = "example.rs"]
mod example;
#[path = "layers.rs"]
mod layers;
#[cfg(feature = "sim")]
#[path = "sim.rs"]
mod sim;
#[path = "surface.rs"]
mod surface;
