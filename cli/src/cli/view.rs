//! `hysolve view`: the page (or with --svg, one picture) for a solutions
//! file, in the format of the puzzle it comes from.

use super::CliError;
use crate::doors;
use crate::view::{self, svg::Style};
use clap::builder::PossibleValuesParser;
use hysolve::advanced::output::write_atomically;
use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub(super) struct ViewArgs {
    /// A solutions file hysolve wrote (--mode all --out FILE, or a .solution file)
    file: PathBuf,
    /// Where to write the page or picture (default: FILE.html, or FILE-N.svg)
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Number of the first solution on the page (from 1)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    from: u64,
    /// How many solutions the page holds
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=view::MAX_PAGE as u64))]
    count: u64,
    /// Write solution N alone as an SVG picture instead of a page
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    svg: Option<u64>,
    /// The problem the file comes from (default: told from its first solution)
    #[arg(long, value_parser = kinds())]
    kind: Option<String>,
    /// The puzzle the solutions solve, to print its numbers in the cells
    /// (for puzzles whose solutions do not hold them)
    #[arg(long)]
    puzzle: Option<PathBuf>,
}

/// The puzzles whose solutions the viewer draws.
fn kinds() -> PossibleValuesParser {
    PossibleValuesParser::new(doors::formats().into_iter().map(|f| f.name))
}

pub(super) fn view(a: &ViewArgs) -> Result<(), CliError> {
    let formats = doors::formats();
    let (from, count) = match a.svg {
        Some(n) => (n as usize, 1),
        None => (a.from as usize, a.count as usize),
    };
    let format = a
        .kind
        .as_deref()
        .and_then(|k| formats.iter().find(|f| f.name == k).copied());
    let solutions = view::read(&a.file, &formats, format, from, count)?;
    let mut style = Style::for_pictures(&solutions.pictures);
    if let Some(puzzle) = &a.puzzle {
        let Some(numbers) = solutions.format.numbers else {
            let takers: Vec<&str> = formats
                .iter()
                .filter(|f| f.numbers.is_some())
                .map(|f| f.title)
                .collect();
            return Err(CliError::Usage(format!(
                "--puzzle is for {} solutions; {} holds {} solutions",
                takers.join(" or "),
                a.file.display(),
                solutions.format.title
            )));
        };
        let view::Numbers { rows, cols, values } = numbers(puzzle)?;
        for (i, p) in solutions.pictures.iter().enumerate() {
            let (r, c) = p.size();
            if (r, c) != (rows, cols) {
                return Err(CliError::Usage(format!(
                    "{}: solution {} is {r}x{c} but the puzzle {} is {rows}x{cols}",
                    a.file.display(),
                    from + i,
                    puzzle.display(),
                )));
            }
        }
        style.numbers = Some(values);
    }
    // The default output: the solutions file's name with `suffix` added.
    let beside = |suffix: &str| {
        let mut p = a.file.clone().into_os_string();
        p.push(suffix);
        PathBuf::from(p)
    };
    let (path, bytes) = match a.svg {
        Some(n) => {
            let path = a
                .output
                .clone()
                .unwrap_or_else(|| beside(&format!("-{n}.svg")));
            let svg = view::svg::draw(&solutions.pictures[0], &style, true);
            (
                path,
                format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{svg}\n"),
            )
        }
        None => {
            let path = a.output.clone().unwrap_or_else(|| beside(".html"));
            let name = a.file.file_name().map_or_else(
                || a.file.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            (path, view::html::page(&name, &solutions, &style))
        }
    };
    write_atomically(&path, bytes.as_bytes())?;
    eprintln!(
        "hysolve: wrote {} ({} of the {} {} solutions in {}, from solution {from})",
        path.display(),
        solutions.pictures.len(),
        solutions.total,
        solutions.format.title,
        a.file.display()
    );
    Ok(())
}
