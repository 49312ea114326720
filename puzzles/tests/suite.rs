//! Every integration test of the puzzles, one module a file, in one test
//! binary (as the library's `tests/suite.rs`, whose helpers these share).
//! A file's tests are named after it: `cargo test --profile testing
//! --workspace --test suite -- pack::` runs `tests/pack.rs`. Paths in them
//! are the workspace root's (`common::root`): the puzzles' inputs are in
//! `examples/` and their test data in `tests/data/` there.

#[path = "../../tests/common/mod.rs"]
mod common;

#[path = "clique.rs"]
mod clique;
#[path = "conformance.rs"]
mod conformance;
#[path = "hitori.rs"]
mod hitori;
#[path = "independent/main.rs"]
mod independent;
#[path = "magic.rs"]
mod magic;
#[path = "pack.rs"]
mod pack;
#[path = "uts.rs"]
mod uts;
#[path = "xc.rs"]
mod xc;
