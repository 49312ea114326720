//! Maximum clique through the front door: `hysolve clique FILE` (a DIMACS
//! graph), and `hysolve generate clique FAMILY ...` for the DIMACS families
//! built from their definitions and random graphs.

use crate::door::{Generated, Generator, Job, Puzzle, optimiser};
use clap::FromArgMatches;
use hysolve::Mode;
use hysolve_puzzles::PuzzleError;
use hysolve_puzzles::clique::{Clique, Graph, dimacs, families};
use std::path::PathBuf;

pub struct Door;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A graph in DIMACS format: ASCII (c comments, p edge V E, e U V) or
    /// the challenge's binary .clq.b, told apart by content
    file: PathBuf,
    /// Optimise mode: re-colour the vertices of the N highest colour
    /// classes (Tomita's re-numbering without the incumbent; measured
    /// slower, see problems/clique/README.md) [default: 0, none]
    #[arg(long, value_name = "N", default_value_t = 0, hide = true)]
    recolour: u32,
    /// Optimise mode: without the MaxSAT cut of the moves of the lowest
    /// colour that can reach the incumbent (on by default; off to measure
    /// it, see problems/clique/README.md)
    #[arg(long, hide = true)]
    no_maxsat: bool,
}

impl Puzzle for Door {
    const NAME: &'static str = "clique";
    const ABOUT: &'static str = "Find a maximum clique of a DIMACS graph by colouring branch and bound \
         (--mode optimise, the default; --at-least K stops at a clique of K), or count its cliques";
    const OPTIMISES: bool = true;
    type Args = Args;

    fn default_mode(_: &Args) -> Mode {
        Mode::Optimise
    }

    fn inputs(args: &Args) -> Vec<PathBuf> {
        vec![args.file.clone()]
    }

    fn build(args: Args, mode: Mode) -> Result<Box<dyn Job>, PuzzleError> {
        if matches!(mode, Mode::First | Mode::Unique) {
            return Err(PuzzleError::Argument(format!(
                "clique: --mode {mode} has no meaning here (every clique is a solution): use optimise, count or all"
            )));
        }
        let read = dimacs::read(&args.file)?;
        let name = args.file.display().to_string();
        let note = (!read.warnings.is_empty()).then(|| read.warnings.join("; "));
        let clique = Clique::new(&read.graph, name)
            .recolouring(args.recolour)
            .maxsat(!args.no_maxsat);
        Ok(optimiser(clique, note))
    }

    fn generator() -> Option<Generator> {
        Some(Generator {
            about: "A DIMACS graph: hamming BITS DISTANCE, johnson N WEIGHT DISTANCE, keller DIM, or random N P [--seed S]",
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

#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// hamming, johnson, keller or random
    family: String,
    /// The family's parameters: hamming BITS DISTANCE (hamming8-4: 8 4),
    /// johnson N WEIGHT DISTANCE (johnson16-2-4: 16 2 4), keller DIM
    /// (keller4: 4), random N P (G(200, 0.75): 200 0.75)
    #[arg(num_args = 1..=3, required = true)]
    params: Vec<String>,
    /// Random graphs: the seed (the same seed, the same graph)
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn make(a: GenerateArgs) -> Result<Generated, PuzzleError> {
    let bad = |what: &str| PuzzleError::Argument(format!("generate clique {}: {what}", a.family));
    let int = |i: usize| -> Result<u32, PuzzleError> {
        a.params
            .get(i)
            .ok_or_else(|| bad(&format!("parameter {} is missing", i + 1)))?
            .parse()
            .map_err(|_| {
                bad(&format!(
                    "parameter {} must be a whole number, got '{}'",
                    i + 1,
                    a.params[i]
                ))
            })
    };
    let want = |k: usize| -> Result<(), PuzzleError> {
        if a.params.len() == k {
            Ok(())
        } else {
            Err(bad(&format!(
                "takes {k} parameter(s), got {}",
                a.params.len()
            )))
        }
    };
    let (graph, name): (Graph, String) = match a.family.as_str() {
        "hamming" => {
            want(2)?;
            let (b, d) = (int(0)?, int(1)?);
            (
                families::hamming(b, d).map_err(|e| bad(&e))?,
                format!("hamming{b}-{d}"),
            )
        }
        "johnson" => {
            want(3)?;
            let (n, w, d) = (int(0)?, int(1)?, int(2)?);
            (
                families::johnson(n, w, d).map_err(|e| bad(&e))?,
                format!("johnson{n}-{w}-{d}"),
            )
        }
        "keller" => {
            want(1)?;
            let d = int(0)?;
            (
                families::keller(d).map_err(|e| bad(&e))?,
                format!("keller{d}"),
            )
        }
        "random" => {
            want(2)?;
            let n = int(0)? as usize;
            let p: f64 = a.params[1].parse().map_err(|_| {
                bad(&format!(
                    "the edge probability must be a number, got '{}'",
                    a.params[1]
                ))
            })?;
            let seed = a.seed;
            (
                families::random(n, p, seed).map_err(|e| bad(&e))?,
                format!("G({n}, {p}) seed {seed}"),
            )
        }
        other => {
            return Err(PuzzleError::Argument(format!(
                "generate clique: unknown family '{other}' (expected hamming, johnson, keller or random)"
            )));
        }
    };
    let comments = vec![format!(
        "{name}, made by hysolve generate clique from its definition"
    )];
    Ok(Generated {
        text: graph.to_dimacs(&comments),
        solution: None,
        summary: Some(format!(
            "generated {name}: {} vertices, {} edges (density {:.3})",
            graph.len(),
            graph.edges(),
            graph.density()
        )),
        json: None,
    })
}
