//! `hysolve view`: pictures of the solutions a run wrote. A solutions file
//! is blocks of text separated by blank lines, one block per solution, in
//! the format of its problem. Each puzzle says how to read its blocks and
//! draw them (its [`Format`]); nothing here knows any puzzle.
//!
//! [`read`] streams the file (millions of solutions are fine: only the
//! requested range is kept), [`svg`] draws one solution, [`html`] writes the
//! self-contained page.

pub mod html;
pub mod picture;
pub mod svg;

pub use picture::{Cell, Fill, Picture};

use hysolve::advanced::input::{BlockError, InputError};
use std::io::{BufRead, Read};
use std::path::Path;

/// The largest solution block (bytes) the viewer reads.
pub const MAX_BLOCK_BYTES: usize = 4 << 20;
/// The most solutions one page may hold.
pub const MAX_PAGE: usize = 10_000;

/// How the viewer reads and draws one puzzle's solutions.
#[derive(Clone, Copy)]
pub struct Format {
    /// The puzzle's name on the command line (`hysolve view --kind NAME`).
    pub name: &'static str,
    /// What its solutions are called on a page.
    pub title: &'static str,
    /// Whether a block looks like one of its solutions (to tell the format
    /// of a file from its first block; formats are tried in order).
    pub looks_like: fn(&str) -> bool,
    /// One block as a picture; the error names the block's line (from 0).
    pub picture: fn(&str) -> Result<Picture, BlockError>,
    /// The page's legend: a swatch (CSS) and what it means. Labels of
    /// [`Fill::Label`] cells are added after these.
    pub legend: &'static [(&'static str, &'static str)],
    /// `--puzzle FILE`: the numbers to print in the cells.
    pub numbers: Option<ReadNumbers>,
}

/// Reads a puzzle file for the numbers of its cells.
pub type ReadNumbers = fn(&Path) -> Result<Numbers, InputError>;

/// A puzzle's numbers, to print in the cells of its solutions' pictures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Numbers {
    pub rows: usize,
    pub cols: usize,
    /// Row by row.
    pub values: Vec<u64>,
}

impl std::fmt::Debug for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

impl Format {
    /// The tag of a page's body (`data-kind`): the name, capitalised.
    pub fn tag(&self) -> String {
        let mut chars = self.name.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    }
}

/// The first of `formats` that `block` looks like (the last one when none does).
pub fn guess(formats: &[Format], block: &str) -> Option<Format> {
    formats
        .iter()
        .find(|f| (f.looks_like)(block))
        .or(formats.last())
        .copied()
}

/// Solutions read from a file: a range of them, and how many it holds.
#[derive(Debug)]
pub struct Solutions {
    pub format: Format,
    /// Number (from 1) of the first solution kept.
    pub from: usize,
    pub pictures: Vec<Picture>,
    /// Solutions in the whole file.
    pub total: usize,
}

/// Reads solutions `from ..= from + count - 1` (numbered from 1) of a
/// solutions file, counting them all. `format`: as given, or guessed among
/// `formats` from the first solution.
pub fn read(
    path: &Path,
    formats: &[Format],
    format: Option<Format>,
    from: usize,
    count: usize,
) -> Result<Solutions, InputError> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| InputError::file(&name, e.to_string()))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(InputError::file(&name, "is a directory, not a file"));
    }
    let mut reader = std::io::BufReader::new(file);
    let mut format = format;
    let mut pictures = Vec::new();
    let mut total = 0;
    let mut block = String::new();
    let mut block_line = 0;
    let mut line_no = 0;
    let mut buf = Vec::new();
    let mut finish = |block: &mut String, block_line: usize, total: &mut usize| {
        if block.is_empty() {
            return Ok(());
        }
        *total += 1;
        if *total >= from && *total < from.saturating_add(count) {
            let f = match format {
                Some(f) => f,
                None => {
                    let f = guess(formats, block)
                        .ok_or_else(|| InputError::file(&name, "no puzzle draws solutions"))?;
                    *format.insert(f)
                }
            };
            let picture = (f.picture)(block).map_err(|e| {
                InputError::line(
                    &name,
                    block_line + e.line,
                    format!("solution {total}: {} (read as {})", e.message, f.title),
                )
            })?;
            pictures.push(picture);
        }
        block.clear();
        Ok(())
    };
    loop {
        buf.clear();
        let limit = (MAX_BLOCK_BYTES + 1) as u64;
        let n = reader
            .by_ref()
            .take(limit)
            .read_until(b'\n', &mut buf)
            .map_err(|e| InputError::file(&name, e.to_string()))?;
        if n == 0 {
            break;
        }
        line_no += 1;
        let Ok(text) = std::str::from_utf8(&buf) else {
            return Err(InputError::line(&name, line_no, "not UTF-8 text"));
        };
        let text = text.trim_end_matches(['\n', '\r']);
        if text.trim().is_empty() {
            finish(&mut block, block_line, &mut total)?;
            continue;
        }
        if block.is_empty() {
            block_line = line_no;
        } else {
            block.push('\n');
        }
        if block.len() + text.len() > MAX_BLOCK_BYTES {
            return Err(InputError::line(
                &name,
                line_no,
                format!("a solution larger than {} MiB", MAX_BLOCK_BYTES >> 20),
            ));
        }
        block.push_str(text);
    }
    finish(&mut block, block_line, &mut total)?;
    if total == 0 {
        return Err(InputError::file(&name, "holds no solution"));
    }
    if from > total {
        return Err(InputError::file(
            &name,
            format!("holds {total} solution(s): there is no solution {from}"),
        ));
    }
    let format = format
        .or_else(|| formats.last().copied())
        .ok_or_else(|| InputError::file(&name, "no puzzle draws solutions"))?;
    Ok(Solutions {
        format,
        from,
        pictures,
        total,
    })
}
