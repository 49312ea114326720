//! N-Queens through the front door: `hysolve queens N`.

use crate::door::{Job, Puzzle, job};
use crate::view::{Cell, Fill, Format, Picture};
use hysolve::Mode;
use hysolve_puzzles::PuzzleError;
use hysolve_puzzles::queens::Queens;
use hysolve_puzzles::queens::solution::Solution;
use std::path::PathBuf;

pub struct Door;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Board size, 1 to 32
    #[arg(value_parser = clap::value_parser!(u32))]
    n: u32,
}

impl Puzzle for Door {
    const NAME: &'static str = "queens";
    const ABOUT: &'static str =
        "Count (or list) the placements of N non-attacking queens on an N x N board";
    type Args = Args;
    /// 1: the most constrained row first, one tree in every mode.
    const TREE: u32 = 1;

    fn inputs(_: &Args) -> Vec<PathBuf> {
        Vec::new()
    }

    fn build(args: Args, _mode: Mode) -> Result<Box<dyn Job>, PuzzleError> {
        // Mirror images fold together when solutions are just counted: the
        // problem learns the mode from the engine.
        Ok(job(Queens::new(args.n, true)?, None))
    }

    fn format() -> Option<Format> {
        Some(Format {
            name: Self::NAME,
            title: "N-Queens",
            looks_like: Solution::looks_like,
            picture: |block| Solution::parse(block).map(|s| picture(&s)),
            legend: &[("background:#1b1b1b;border-radius:50%", "queen")],
            numbers: None,
        })
    }
}

/// A chequered board with a disc on each queen's square.
fn picture(board: &Solution) -> Picture {
    let n = board.cols.len();
    Picture::flat(
        (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| {
                        let fill = if (r + c) % 2 == 0 {
                            "#f0d9b5"
                        } else {
                            "#b58863"
                        };
                        let mut cell = Cell::new(Fill::Colour(fill));
                        if board.cols[r] == c {
                            cell = cell.data("data-queen", 1);
                            cell.disc = true;
                        }
                        cell
                    })
                    .collect()
            })
            .collect(),
    )
}
