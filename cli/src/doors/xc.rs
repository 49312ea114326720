//! Exact cover through the front door: `hysolve xc FILE`.

use crate::door::{Job, Puzzle, job};
use hysolve::Mode;
use hysolve::advanced::input::{MAX_INPUT_BYTES, read_text};
use hysolve_puzzles::PuzzleError;
use hysolve_puzzles::xc::Xc;
use hysolve_puzzles::xc::bits;
use hysolve_puzzles::xc::cursor::Engine;
use hysolve_puzzles::xc::format::Instance;
use std::path::PathBuf;

pub struct Door;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The problem in the input format of Knuth's DLX1/DLX2: a line of
    /// items (primary | secondary), then one option per line
    file: PathBuf,
    /// The search structure: bitsets over options where they fit (at most
    /// 16,384 options), Knuth's dancing links otherwise; or one of them
    #[arg(long, default_value = "auto", value_parser = engine_parser())]
    engine: Engine,
}

impl Puzzle for Door {
    const NAME: &'static str = "xc";
    const ABOUT: &'static str =
        "Solve an exact-cover problem written in Knuth's DLX format (with colours)";
    type Args = Args;

    fn inputs(args: &Args) -> Vec<PathBuf> {
        vec![args.file.clone()]
    }

    fn build(args: Args, _mode: Mode) -> Result<Box<dyn Job>, PuzzleError> {
        let (name, instance) = load(&args.file)?;
        let note = match instance.warnings.as_slice() {
            [] => None,
            [one] => Some(one.clone()),
            [first, rest @ ..] => Some(format!(
                "{first} (and {} more such options dropped)",
                rest.len()
            )),
        };
        if args.engine == Engine::Bits && !bits::fits(&instance) {
            return Err(PuzzleError::Argument(format!(
                "xc: --engine bits takes at most {} options; {name} has {}",
                bits::MAX_OPTIONS,
                instance.options.len()
            )));
        }
        Ok(job(Xc::new(name, instance, args.engine), note))
    }
}

/// Reads and parses the file at `path`; also the instance's name (the file's).
pub fn load(path: &std::path::Path) -> Result<(String, Instance), PuzzleError> {
    let text = read_text(path, MAX_INPUT_BYTES)?;
    let name = path.display().to_string();
    let instance = Instance::parse(&name, &text)?;
    Ok((name, instance))
}

/// `--engine`'s values, with their names in `--help`.
fn engine_parser() -> impl clap::builder::TypedValueParser<Value = Engine> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Engine::NAMES.map(|(name, _)| name))
        .map(|name| name.parse::<Engine>().expect("a name of Engine::NAMES"))
}
