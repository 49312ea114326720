//! UTS through the front door: `hysolve uts --tree T1L`, or any tree by the
//! reference's parameters (`hysolve uts -t 0 -b 2000 -q 0.124875 -m 8 -r 42`).

use crate::door::{Job, Puzzle, job};
use hysolve::Mode;
use hysolve_puzzles::PuzzleError;
use hysolve_puzzles::uts::Uts;
use hysolve_puzzles::uts::params::{PUBLISHED, Params};
use std::path::PathBuf;

pub struct Door;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A published tree: T1, T2, T3, T1L, T3L, T1XL (the parameters below
    /// change it)
    #[arg(long, value_name = "NAME")]
    tree: Option<String>,
    /// Tree type: 0 binomial, 1 geometric, 2 hybrid, 3 balanced [default: 1]
    #[arg(short = 't', allow_hyphen_values = true)]
    t: Option<String>,
    /// Root branching factor [default: 4]
    #[arg(short = 'b', allow_hyphen_values = true)]
    b: Option<String>,
    /// Root seed [default: 0]
    #[arg(short = 'r', allow_hyphen_values = true)]
    r: Option<String>,
    /// Geometric shape: 0 linear, 1 exponential, 2 cyclic, 3 fixed [default: 0]
    #[arg(short = 'a', allow_hyphen_values = true)]
    a: Option<String>,
    /// Geometric depth [default: 6]
    #[arg(short = 'd', allow_hyphen_values = true)]
    d: Option<String>,
    /// Binomial probability of a node with children [default: 0.234375]
    #[arg(short = 'q', allow_hyphen_values = true)]
    q: Option<String>,
    /// Binomial number of children [default: 4]
    #[arg(short = 'm', allow_hyphen_values = true)]
    m: Option<String>,
    /// Hybrid: the depth fraction where the tree turns binomial [default: 0.5]
    #[arg(short = 'f', allow_hyphen_values = true)]
    f: Option<String>,
}

impl Puzzle for Door {
    const NAME: &'static str = "uts";
    const ABOUT: &'static str =
        "Count the nodes, leaves and depth of a UTS tree (the Unbalanced Tree Search benchmark)";
    type Args = Args;

    fn inputs(_: &Args) -> Vec<PathBuf> {
        Vec::new()
    }

    fn build(args: Args, _mode: Mode) -> Result<Box<dyn Job>, PuzzleError> {
        let (mut p, mut name) = match &args.tree {
            Some(tree) => {
                let (p, published) = Params::named(tree)?;
                (p, Some(published.name.to_string()))
            }
            None => (Params::default(), None),
        };
        let given = [
            ("t", &args.t),
            ("b", &args.b),
            ("r", &args.r),
            ("a", &args.a),
            ("d", &args.d),
            ("q", &args.q),
            ("m", &args.m),
            ("f", &args.f),
        ];
        for (flag, value) in given {
            if let Some(value) = value {
                p.set(flag, value)?;
                name = None;
            }
        }
        // A published tree keeps its name only as published; its size is
        // known, so a binomial q*m at or above 1 (T3L's) is no warning.
        let warning = p.check()?;
        let (name, note) = match name.filter(|n| PUBLISHED.iter().any(|t| t.name == n)) {
            Some(name) => (name, None),
            None => (p.describe(), warning),
        };
        Ok(job(Uts::new(p, name), note))
    }
}
