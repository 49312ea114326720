//! Every integration test of the command line, one module a file, in one
//! test binary (as the library's `tests/suite.rs`, whose helpers these
//! share): the binary's contract, its parsers under fuzzing, the README's
//! sample, the reference `docs/cli.md`, the viewer, runs under mpirun (every count, groups, checkpoints
//! and resumes), the vector paths `HYSOLVE_SIMD` forces, `make deps` and
//! the job scripts. A file's tests are named after it: `cargo test
//! --profile testing --workspace --test suite -- mpi::` runs `mpi.rs`.
//! Their runs start in the workspace's root (`common::root`).

#[path = "../../tests/common/mod.rs"]
mod common;

#[path = "checkpoint.rs"]
mod checkpoint;
#[path = "cli.rs"]
mod cli;
#[path = "deps.rs"]
mod deps;
#[path = "fuzz.rs"]
mod fuzz;
#[path = "groups.rs"]
mod groups;
#[path = "mpi.rs"]
mod mpi;
#[path = "readme.rs"]
mod readme;
#[path = "reference.rs"]
mod reference;
#[path = "scripts.rs"]
mod scripts;
#[path = "simd.rs"]
mod simd;
#[path = "view.rs"]
mod view;
