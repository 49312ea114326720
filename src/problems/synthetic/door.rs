//! The synthetic tree through the front door: `hysolve synthetic ...`.

use super::Synthetic;
use crate::engine::Mode;
use crate::problems::{Job, Puzzle, PuzzleError, job};
use std::path::PathBuf;

pub struct Door;

impl Puzzle for Door {
    const NAME: &'static str = "synthetic";
    const ABOUT: &'static str =
        "A pseudo-random irregular tree with exactly LEAVES solutions (for testing the engine)";
    type Args = Synthetic;

    fn inputs(_: &Synthetic) -> Vec<PathBuf> {
        Vec::new()
    }

    fn build(tree: Synthetic, _mode: Mode) -> Result<Box<dyn Job>, PuzzleError> {
        tree.validate()?;
        Ok(job(tree, None))
    }
}
