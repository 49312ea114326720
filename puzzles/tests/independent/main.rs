//! Independent checkers: plain searches that share no code with hysolve's
//! solvers (nor with each other's helpers in `src/`), reproducing the
//! expected counts that the data READMEs attribute to them. Each module
//! reads the shipped test data itself.
//!
//! - `clique`: every clique number of `examples/clique`, and hysolve's
//!   optimum and clique on random graphs, by its own DIMACS reader and
//!   Carraghan and Pardalos's search; every clique counted once;
//! - `magic`: every completion count of `examples/magic`, by a row-major
//!   search that derives the last blank of each row and column;
//! - `pack`: the IQ Fit 11x5 board's 371,020 tilings (92,755 up to the
//!   board's symmetries) and the 6x10 pentomino count, by a first-empty-cell
//!   search with its own orientation code;
//! - `hitori`: `examples/hitori/seed/counts.tsv` and the open grids' counts, by
//!   a cell-by-cell search with forward checking and a row-by-row
//!   connectivity test;
//! - `xc`: every count of `examples/xc` (the Sudoku's uniqueness among
//!   them), by its own reader of the DLX format and its own Algorithm X.

use crate::common;

mod clique;
mod hitori;
mod magic;
mod pack;
mod xc;
