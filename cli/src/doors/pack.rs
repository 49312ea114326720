//! Packing through the front door: `hysolve pack --pieces SET (--board WxH[xD] | --figure F)`.

use crate::door::{Job, Puzzle, job, written};
use crate::view::{Cell, Fill, Format, Picture};
use hysolve::Mode;
use hysolve_puzzles::PuzzleError;
use hysolve_puzzles::pack::export::export_xc;
use hysolve_puzzles::pack::figure::Figure;
use hysolve_puzzles::pack::pieces::PieceSet;
use hysolve_puzzles::pack::solution::Solution;
use hysolve_puzzles::pack::{Layout, Pack, WithPack};
use std::path::PathBuf;

pub struct Door;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The pieces: iqfit, pentominoes, soma, double-soma, bedlam, soma-plus, or a .pieces file
    #[arg(long)]
    pieces: String,
    /// A box to fill: WxH or WxHxD
    #[arg(long, required_unless_present = "figure", conflicts_with = "figure")]
    board: Option<String>,
    /// A figure: a built-in name (8x8-hole) or a figure file
    #[arg(long)]
    figure: Option<String>,
    /// Count solutions up to the symmetries of the figure (of its cells, whatever margins of holes
    /// surround them) that map the piece set onto itself
    #[arg(long)]
    distinct: bool,
    /// Write the problem as exact cover in Knuth's DLX format to this file
    /// (for `hysolve xc`) instead of solving it
    #[arg(long, value_name = "FILE", conflicts_with = "distinct")]
    export_xc: Option<PathBuf>,
}

impl Puzzle for Door {
    const NAME: &'static str = "pack";
    const ABOUT: &'static str = "Pack a figure with a set of pieces, each used once";
    type Args = Args;

    /// The pieces and the figure, when they name files (a built-in set or
    /// figure is identified by its name, among the arguments).
    fn inputs(args: &Args) -> Vec<PathBuf> {
        std::iter::once(&args.pieces)
            .chain(&args.figure)
            .map(PathBuf::from)
            .filter(|p| p.is_file())
            .collect()
    }

    fn build(args: Args, _mode: Mode) -> Result<Box<dyn Job>, PuzzleError> {
        let set = PieceSet::load(&args.pieces)?;
        let figure = match (&args.board, &args.figure) {
            (Some(spec), _) => {
                Figure::parse_box(spec).map_err(|e| e.option("box", "--board", ""))?
            }
            (None, Some(spec)) => Figure::load(spec)?,
            (None, None) => {
                return Err(PuzzleError::Argument(
                    "pack: give --board WxH[xD] or --figure F".into(),
                ));
            }
        };
        let layout = Layout::new(set, figure)?;
        if let Some(path) = args.export_xc {
            let text = export_xc(&layout)?;
            let what = format!(
                "{} options over {} items",
                layout.placements.len(),
                layout.set.kinds.len() + layout.shown.cells()
            );
            return Ok(written(path, text, what));
        }
        // A count folds symmetric packings by itself: the problem learns
        // the mode from the engine.
        layout.search(args.distinct, AsJob)
    }

    fn format() -> Option<Format> {
        Some(Format {
            name: Self::NAME,
            title: "packing",
            // The fallback: any block that is not another puzzle's.
            looks_like: |_| true,
            picture: |block| Solution::parse(block).map(|s| picture(&s)),
            legend: &[],
            numbers: None,
        })
    }
}

/// A colour per piece, outlined; cells outside the figure pale.
fn picture(s: &Solution) -> Picture {
    let cell = |label: &Option<char>| match *label {
        Some(l) => {
            let mut c = Cell::new(Fill::Label(l))
                .data("data-piece", l)
                .text(l, None);
            c.group = Some(l);
            c
        }
        None => Cell::new(Fill::Colour("#f4f4f4")).stroke("#ddd"),
    };
    Picture {
        layers: s
            .layers
            .iter()
            .map(|layer| {
                layer
                    .iter()
                    .map(|row| row.iter().map(cell).collect())
                    .collect()
            })
            .collect(),
        caption: String::new(),
    }
}

/// A packing search of any board size as a [`Job`].
struct AsJob;

impl WithPack for AsJob {
    type Output = Box<dyn Job>;
    fn with<const W: usize>(self, pack: Pack<W>) -> Box<dyn Job> {
        job(pack, None)
    }
}
