//! The synthetic tree through the front door: `hysolve synthetic ...`.

use crate::door::{Job, Puzzle, job};
use hysolve::Mode;
use hysolve_puzzles::PuzzleError;
use hysolve_puzzles::synthetic::Synthetic;
use std::path::PathBuf;

/// The `synthetic` subcommand's arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// Seed of the tree's shape
    #[arg(long, default_value_t = Synthetic::default().seed)]
    pub seed: u64,
    /// Number of solutions in the tree
    #[arg(long, default_value_t = Synthetic::default().leaves)]
    pub leaves: u64,
    /// Solutions lie at this depth or deeper
    #[arg(long, default_value_t = Synthetic::default().min_depth)]
    pub min_depth: u32,
    /// Depth of the solution-free subtrees hanging off the tree
    #[arg(long, default_value_t = Synthetic::default().dead_depth)]
    pub dead_depth: u32,
    /// Put the solutions last in child order, behind the dead subtrees of the levels above them
    #[arg(long)]
    pub needle: bool,
    /// Extra hashing rounds per node (simulated node cost)
    #[arg(long, default_value_t = Synthetic::default().work)]
    pub work: u32,
}

/// The synthetic tree's door.
pub struct Door;

impl Puzzle for Door {
    const NAME: &'static str = "synthetic";
    const ABOUT: &'static str =
        "A pseudo-random irregular tree with exactly LEAVES solutions (for testing the engine)";
    type Args = Args;

    fn inputs(_: &Args) -> Vec<PathBuf> {
        Vec::new()
    }

    fn build(a: Args, _mode: Mode) -> Result<Box<dyn Job>, PuzzleError> {
        let tree = Synthetic {
            seed: a.seed,
            leaves: a.leaves,
            min_depth: a.min_depth,
            dead_depth: a.dead_depth,
            needle: a.needle,
            work: a.work,
        };
        tree.validate().map_err(|e| {
            e.option("dead_depth", "--dead-depth", "")
                .option("min_depth", "--min-depth", "")
        })?;
        Ok(job(tree, None))
    }
}
