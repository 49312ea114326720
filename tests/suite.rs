//! Every integration test of the library, one module a file, in one test
//! binary: each binary links the whole library again, so twenty files as
//! one save minutes of `make test`. A file's tests are named after it:
//! `cargo test --profile testing --test suite -- engine::` runs
//! `tests/engine.rs` (`make test` builds with the `testing` profile).

mod common;

#[path = "check.rs"]
mod check;
#[path = "checkpoint.rs"]
mod checkpoint;
#[path = "clique.rs"]
mod clique;
#[path = "conformance.rs"]
mod conformance;
#[path = "deps.rs"]
mod deps;
#[path = "engine.rs"]
mod engine;
#[path = "example.rs"]
mod example;
#[path = "groups.rs"]
mod groups;
#[path = "hitori.rs"]
mod hitori;
#[path = "independent/main.rs"]
mod independent;
#[path = "layers.rs"]
mod layers;
#[path = "magic.rs"]
mod magic;
#[path = "mpi.rs"]
mod mpi;
#[path = "pack.rs"]
mod pack;
#[path = "scripts.rs"]
mod scripts;
#[cfg(feature = "sim")]
#[path = "sim.rs"]
mod sim;
#[path = "simd.rs"]
mod simd;
#[path = "uts.rs"]
mod uts;
#[path = "xc.rs"]
mod xc;
