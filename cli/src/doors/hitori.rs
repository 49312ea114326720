//! Hitori through the front door: `hysolve hitori FILE` and
//! `hysolve generate hitori ...`.

use crate::door::{Generated, Generator, Job, Puzzle, drawn};
use crate::view::{Cell, Fill, Format, Numbers, Picture};
use clap::FromArgMatches;
use hysolve::Mode;
use hysolve::advanced::input::{MAX_INPUT_BYTES, read_text};
use hysolve_puzzles::PuzzleError;
use hysolve_puzzles::hitori::grade::{self, Difficulty};
use hysolve_puzzles::hitori::grid::Grid;
use hysolve_puzzles::hitori::solution::Solution;
use hysolve_puzzles::hitori::{Hitori, generate, verify};
use std::path::PathBuf;
use std::time::Instant;

pub struct Door;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The puzzle file
    file: PathBuf,
    /// Instead of solving it, grade it: the weakest rule set that solves
    /// it without search (easy, hard, or needs search) and its deductions,
    /// on the last line
    #[arg(long)]
    grade: bool,
}

impl Puzzle for Door {
    const NAME: &'static str = "hitori";
    const ABOUT: &'static str =
        "Shade a Hitori grid (one row per line, whitespace-separated positive numbers)";
    type Args = Args;

    /// A Hitori puzzle asks for its solution, not for a count.
    fn default_mode(_: &Args) -> Mode {
        Mode::First
    }

    fn inputs(args: &Args) -> Vec<PathBuf> {
        vec![args.file.clone()]
    }

    fn build(args: Args, _mode: Mode) -> Result<Box<dyn Job>, PuzzleError> {
        if args.grade {
            let text = read_text(&args.file, MAX_INPUT_BYTES)?;
            let grid = Grid::parse(&text, &args.file.display().to_string())?;
            let started = Instant::now();
            let report = grade::grade(&grid);
            let seconds = started.elapsed().as_secs_f64();
            let name = args.file.display();
            let steps: Vec<String> = report
                .lookahead_cells
                .iter()
                .map(|&(i, shaded)| {
                    let (r, c) = (i / grid.cols + 1, i % grid.cols + 1);
                    format!(
                        "row {r} column {c} {}",
                        if shaded { "shaded" } else { "white" }
                    )
                })
                .collect();
            let mut lines = format!(
                "{name}: {}x{} cells\neasy rules: {} cells decided\nlook-ahead: {} cells decided{}\nundecided: {}\ngraded in {seconds:.3} s\n",
                grid.rows,
                grid.cols,
                report.easy,
                report.lookahead,
                if steps.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", steps.join(", "))
                },
                report.undecided
            );
            lines.push_str(&format!(
                "{} ({} deductions: {} by the easy rules, {} by look-ahead)",
                report.grade,
                report.deductions(),
                report.easy,
                report.lookahead
            ));
            return Ok(crate::door::printed(lines));
        }
        let hitori = Hitori::from_file(&args.file)?;
        let grid = hitori.grid().clone();
        Ok(drawn(hitori, move |text| pretty(&grid, text)))
    }

    fn format() -> Option<Format> {
        Some(Format {
            name: Self::NAME,
            title: "Hitori",
            looks_like: Solution::looks_like,
            picture: |block| Solution::parse(block).map(|s| picture(&s)),
            legend: &[
                ("background:#222", "shaded"),
                ("background:#fff", "unshaded"),
            ],
            numbers: Some(|path| {
                let text = read_text(path, MAX_INPUT_BYTES)?;
                let grid =
                    hysolve_puzzles::hitori::grid::Grid::parse(&text, &path.display().to_string())?;
                let values = grid.values.iter().map(|&v| u64::from(v)).collect();
                Ok(Numbers {
                    rows: grid.rows,
                    cols: grid.cols,
                    values,
                })
            }),
        })
    }

    fn generator() -> Option<Generator> {
        Some(Generator {
            about: "A Hitori puzzle with exactly one solution",
            args: <GenerateArgs as clap::Args>::augment_args,
            make: |matches| {
                make(
                    GenerateArgs::from_arg_matches(matches)
                        .map_err(|e| PuzzleError::Argument(e.to_string()))?,
                )
            },
        })
    }
}

/// Shaded cells dark, the puzzle's numbers (with `--puzzle`) in each cell.
/// A solution's numbers for a terminal, its shaded cells in reverse video.
fn pretty(grid: &Grid, solution: &str) -> Option<String> {
    let shaded = verify::parse_solution(solution, grid.rows, grid.cols).ok()?;
    let width = grid.number_width();
    let mut out = String::new();
    for r in 0..grid.rows {
        if r > 0 {
            out.push('\n');
        }
        for c in 0..grid.cols {
            let text = format!(" {:>width$} ", grid.at(r, c));
            if shaded[r * grid.cols + c] {
                out.push_str("\x1b[7m");
                out.push_str(&text);
                out.push_str("\x1b[0m");
            } else {
                out.push_str(&text);
            }
        }
    }
    Some(out)
}

fn picture(s: &Solution) -> Picture {
    Picture::flat(
        s.shaded
            .chunks(s.cols.max(1))
            .map(|row| {
                row.iter()
                    .map(|&dark| {
                        let (fill, ink) = if dark {
                            ("#222", "#fff")
                        } else {
                            ("#fff", "#000")
                        };
                        let mut cell = Cell::new(Fill::Colour(fill))
                            .data("data-shaded", u8::from(dark))
                            .stroke("#999");
                        cell.number_ink = Some(ink);
                        cell
                    })
                    .collect()
            })
            .collect(),
    )
}

#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// Rows and columns of a square grid
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=generate::MAX_SIDE as i64))]
    size: Option<u32>,
    /// Rows (with --cols, for a rectangle)
    #[arg(long, requires = "cols", conflicts_with = "size", value_parser = clap::value_parser!(u32).range(2..=generate::MAX_SIDE as i64))]
    rows: Option<u32>,
    /// Columns (with --rows)
    #[arg(long, requires = "rows", conflicts_with = "size", value_parser = clap::value_parser!(u32).range(2..=generate::MAX_SIDE as i64))]
    cols: Option<u32>,
    /// Random seed: the same seed and size give the same puzzle
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Instead of a puzzle, a grid with many solutions for counting
    /// workloads: distinct numbers but GROUPS groups of 2 or 3 equal ones
    #[arg(long, value_name = "GROUPS")]
    open: Option<usize>,
    /// easy: the easy rules solve it; hard: look-ahead by contradiction
    /// solves it and the easy rules alone do not (hitori --grade says which)
    #[arg(long, default_value = "easy", conflicts_with = "open")]
    difficulty: Difficulty,
}

fn make(a: GenerateArgs) -> Result<Generated, PuzzleError> {
    let (rows, cols) = match (a.size, a.rows, a.cols) {
        (Some(n), _, _) => (n as usize, n as usize),
        (None, Some(r), Some(c)) => (r as usize, c as usize),
        _ => {
            return Err(PuzzleError::Argument(
                "generate hitori: give --size N, or --rows R --cols C".to_owned(),
            ));
        }
    };
    let seed = a.seed;
    let started = Instant::now();
    if let Some(groups) = a.open {
        let grid = generate::open_grid(rows, cols, groups, seed)?;
        return Ok(Generated {
            text: grid.to_text(),
            solution: None,
            summary: None,
            json: None,
        });
    }
    let difficulty = a.difficulty;
    let puzzle = generate::generate_graded(rows, cols, seed, difficulty)?;
    let mut solution = String::new();
    for row in puzzle.solution.chunks(cols) {
        solution.extend(row.iter().map(|&b| if b { '#' } else { '.' }));
        solution.push('\n');
    }
    let elapsed = started.elapsed().as_secs_f64();
    Ok(Generated {
        text: puzzle.grid.to_text(),
        solution: Some(solution),
        summary: Some(format!(
            "generated a {} {rows}x{cols} Hitori with one solution (seed {seed}) in {elapsed:.3} s: {} cells forced, {} restarts, {} deductions ({} by look-ahead)",
            difficulty.as_str(),
            puzzle.repairs,
            puzzle.restarts,
            puzzle.report.deductions(),
            puzzle.report.lookahead
        )),
        // The fields hysolve-bench reads, so that generation can be benchmarked too.
        json: Some(serde_json::json!({
            "problem": "generate hitori",
            "instance": format!("{rows}x{cols} {} seed {seed}", difficulty.as_str()),
            "difficulty": difficulty,
            "lookahead": puzzle.report.lookahead,
            "wall_s": elapsed,
            "prepare_s": 0.0,
            "solutions": 1,
            "nodes": puzzle.repairs,
            "repairs": puzzle.repairs,
            "restarts": puzzle.restarts,
        })),
    })
}
