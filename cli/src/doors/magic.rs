//! Magic squares through the front door: `hysolve magic FILE` or
//! `hysolve magic --empty N [--distinct]`.

use crate::door::{Job, Puzzle, job};
use crate::view::{Cell, Fill, Format, Picture};
use hysolve::Mode;
use hysolve_puzzles::PuzzleError;
use hysolve_puzzles::magic::Magic;
use hysolve_puzzles::magic::lines::Lines;
use hysolve_puzzles::magic::solution::Solution;
use hysolve_puzzles::magic::square::{Given, MAX_N};
use std::path::PathBuf;

pub struct Door;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The square file (or --empty N)
    #[arg(required_unless_present = "empty", conflicts_with = "empty")]
    file: Option<PathBuf>,
    /// Start from the empty N x N square instead of a file
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_N as i64))]
    empty: Option<u32>,
    /// Count squares up to rotation and reflection (empty squares only)
    #[arg(long)]
    distinct: bool,
    /// How to fill the square: by lines (5x5 only, the default there) or
    /// cell by cell (the default for every other order)
    #[arg(long, value_enum, value_name = "HOW")]
    by: Option<By>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum By {
    /// Whole lines from their sums: the diagonals, then two halves joined
    Lines,
    /// One cell at a time, the last of each line derived from its sum
    Cells,
}

impl Puzzle for Door {
    const NAME: &'static str = "magic";
    const ABOUT: &'static str =
        "Complete a partially filled magic square (n rows of n numbers, -1 for empty)";
    type Args = Args;

    fn inputs(args: &Args) -> Vec<PathBuf> {
        args.file.iter().cloned().collect()
    }

    fn build(args: Args, _mode: Mode) -> Result<Box<dyn Job>, PuzzleError> {
        build(args).map_err(|e| {
            e.option("distinct", "--distinct", "use --empty N").option(
                "Lines",
                "the line solver",
                "use --by cells",
            )
        })
    }

    fn format() -> Option<Format> {
        Some(Format {
            name: Self::NAME,
            title: "magic square",
            looks_like: Solution::looks_like,
            picture: |block| Solution::parse(block).map(|s| picture(&s)),
            legend: &[],
            numbers: None,
        })
    }
}

/// The search `args` ask for, its errors in the library's words.
fn build(args: Args) -> Result<Box<dyn Job>, PuzzleError> {
    let problem = match (args.file, args.empty) {
        (Some(path), _) => Magic::from_file(&path, args.distinct)?,
        (None, Some(n)) => {
            let given = Given::empty(n as usize)?;
            Magic::new(given, format!("empty-{n}"), args.distinct)?
        }
        (None, None) => {
            return Err(PuzzleError::Argument(
                "magic: give a square file or --empty N".into(),
            ));
        }
    };
    let note = problem
        .contradiction()
        .map(|why| format!("no completion: {why}"));
    let five = problem.given().n == 5;
    match args.by.unwrap_or(if five { By::Lines } else { By::Cells }) {
        By::Cells => Ok(job(problem, note)),
        By::Lines => {
            let name = problem.name().to_owned();
            let given = problem.given().clone();
            let lines = Lines::new(given, name, args.distinct)?;
            Ok(job(lines, note))
        }
    }
}

/// The numbers in white cells; the caption gives the magic sum.
fn picture(s: &Solution) -> Picture {
    let mut picture = Picture::flat(
        s.values
            .chunks(s.n.max(1))
            .map(|row| {
                row.iter()
                    .map(|v| {
                        Cell::new(Fill::Colour("#fff"))
                            .data("data-value", v)
                            .stroke("#555")
                            .text(v, Some("#000"))
                    })
                    .collect()
            })
            .collect(),
    );
    if s.n > 0 {
        picture.caption = format!(", magic sum {}", s.first_row_sum());
    }
    picture
}
