//! `hysolve view`: pictures of the solutions a run wrote. A solutions file
//! is blocks of text separated by blank lines, one block per solution, in
//! the format of its problem:
//!
//! - N-Queens: N rows of N cells, `Q` or `.`;
//! - Hitori: the `.solution` format, `#` shaded and `.` unshaded;
//! - magic squares: n rows of n whitespace-separated numbers;
//! - packing: one row per line, a piece's letter per cell (`.` outside the
//!   figure); a 3D figure's layers side by side on each line, separated by
//!   single spaces.
//!
//! [`read`] streams the file (millions of solutions are fine: only the
//! requested range is kept), [`svg`] draws one solution, [`html`] writes the
//! self-contained page.

pub mod html;
pub mod svg;

use crate::problems::input::InputError;
use std::io::{BufRead, Read};
use std::path::Path;

/// The largest solution block (bytes) the viewer reads.
pub const MAX_BLOCK_BYTES: usize = 4 << 20;
/// The most solutions one page may hold.
pub const MAX_PAGE: usize = 10_000;

/// Which problem a solutions file comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    Queens,
    Hitori,
    Magic,
    Pack,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Queens => "N-Queens",
            Kind::Hitori => "Hitori",
            Kind::Magic => "magic square",
            Kind::Pack => "packing",
        }
    }

    /// The kind a block looks like.
    pub fn guess(block: &str) -> Kind {
        let chars = || block.chars().filter(|c| !c.is_whitespace());
        if block
            .split_whitespace()
            .all(|w| w.chars().all(|c| c.is_ascii_digit()))
        {
            Kind::Magic
        } else if chars().all(|c| c == 'Q' || c == '.') && !block.contains(' ') {
            Kind::Queens
        } else if chars().all(|c| c == '#' || c == '.') && !block.contains(' ') {
            Kind::Hitori
        } else {
            Kind::Pack
        }
    }
}

/// One solution, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub enum Picture {
    /// The column of the queen in each row.
    Queens { cols: Vec<usize> },
    /// Shaded cells, row by row.
    Hitori {
        rows: usize,
        cols: usize,
        shaded: Vec<bool>,
    },
    /// Numbers, row by row.
    Magic { n: usize, values: Vec<u64> },
    /// Piece labels (`None`: not part of the figure), as `[layer][row][col]`.
    Pack { layers: Vec<Vec<Vec<Option<char>>>> },
}

impl Picture {
    /// Reads one block of `kind`; the error says what is wrong and on which
    /// line of the block (counting from 0).
    pub fn parse(kind: Kind, block: &str) -> Result<Picture, (usize, String)> {
        let lines: Vec<&str> = block.lines().collect();
        match kind {
            Kind::Queens => {
                let n = lines.len();
                let mut cols = Vec::with_capacity(n);
                for (r, line) in lines.iter().enumerate() {
                    if line.chars().count() != n {
                        return Err((r, format!("a board of {n} rows needs {n} cells a row")));
                    }
                    let mut queens = line.char_indices().filter(|&(_, c)| c == 'Q');
                    match (queens.next(), queens.next()) {
                        (Some((c, _)), None) => cols.push(c),
                        _ => return Err((r, "a row needs exactly one queen 'Q'".into())),
                    }
                    if let Some(bad) = line.chars().find(|&c| c != 'Q' && c != '.') {
                        return Err((r, format!("'{bad}' is neither 'Q' nor '.'")));
                    }
                }
                Ok(Picture::Queens { cols })
            }
            Kind::Hitori => {
                let cols = lines.first().map_or(0, |l| l.chars().count());
                let mut shaded = Vec::with_capacity(lines.len() * cols);
                for (r, line) in lines.iter().enumerate() {
                    if line.chars().count() != cols {
                        return Err((r, format!("rows must all have {cols} cells")));
                    }
                    for c in line.chars() {
                        match c {
                            '#' => shaded.push(true),
                            '.' => shaded.push(false),
                            _ => return Err((r, format!("'{c}' is neither '#' nor '.'"))),
                        }
                    }
                }
                Ok(Picture::Hitori {
                    rows: lines.len(),
                    cols,
                    shaded,
                })
            }
            Kind::Magic => {
                let n = lines.len();
                let mut values = Vec::with_capacity(n * n);
                for (r, line) in lines.iter().enumerate() {
                    let row: Vec<&str> = line.split_whitespace().collect();
                    if row.len() != n {
                        return Err((r, format!("a square of {n} rows needs {n} numbers a row")));
                    }
                    let mut sum = 0u64;
                    for w in row {
                        let v: u64 = w
                            .parse()
                            .map_err(|_| (r, format!("'{w}' is not a whole number")))?;
                        sum = sum.checked_add(v).ok_or_else(|| {
                            (
                                r,
                                "the row's numbers add up to more than 2^64 - 1".to_string(),
                            )
                        })?;
                        values.push(v);
                    }
                }
                Ok(Picture::Magic { n, values })
            }
            Kind::Pack => {
                let first: Vec<&str> = lines.first().map_or(Vec::new(), |l| l.split(' ').collect());
                let (depth, width) = (first.len(), first.first().map_or(0, |s| s.chars().count()));
                let mut layers = vec![Vec::with_capacity(lines.len()); depth];
                for (r, line) in lines.iter().enumerate() {
                    let parts: Vec<&str> = line.split(' ').collect();
                    if parts.len() != depth {
                        return Err((r, format!("rows must all have {depth} layer(s)")));
                    }
                    for (z, part) in parts.iter().enumerate() {
                        if part.chars().count() != width {
                            return Err((r, format!("layer rows must all be {width} cells wide")));
                        }
                        if let Some(bad) = part.chars().find(|c| c.is_control()) {
                            return Err((r, format!("control character {bad:?} in a row")));
                        }
                        layers[z].push(part.chars().map(|c| (c != '.').then_some(c)).collect());
                    }
                }
                Ok(Picture::Pack { layers })
            }
        }
    }

    /// A magic square's first row sum (the parser made sure it fits).
    pub fn magic_sum(&self) -> Option<u64> {
        match self {
            Picture::Magic { n, values } => Some(values[..*n].iter().sum()),
            _ => None,
        }
    }

    /// Rows and columns of one layer.
    pub fn size(&self) -> (usize, usize) {
        match self {
            Picture::Queens { cols } => (cols.len(), cols.len()),
            Picture::Hitori { rows, cols, .. } => (*rows, *cols),
            Picture::Magic { n, .. } => (*n, *n),
            Picture::Pack { layers } => (
                layers.first().map_or(0, Vec::len),
                layers.first().and_then(|l| l.first()).map_or(0, Vec::len),
            ),
        }
    }
}

/// Solutions read from a file: a range of them, and how many it holds.
#[derive(Debug)]
pub struct Solutions {
    pub kind: Kind,
    /// Number (from 1) of the first solution kept.
    pub from: usize,
    pub pictures: Vec<Picture>,
    /// Solutions in the whole file.
    pub total: usize,
}

/// Reads solutions `from ..= from + count - 1` (numbered from 1) of a
/// solutions file, counting them all. `kind`: as given, or guessed from the
/// first solution.
pub fn read(
    path: &Path,
    kind: Option<Kind>,
    from: usize,
    count: usize,
) -> Result<Solutions, InputError> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| InputError::file(&name, e.to_string()))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(InputError::file(&name, "is a directory, not a file"));
    }
    let mut reader = std::io::BufReader::new(file);
    let mut kind = kind;
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
            let k = *kind.get_or_insert_with(|| Kind::guess(block));
            let picture = Picture::parse(k, block).map_err(|(r, why)| {
                InputError::line(
                    &name,
                    block_line + r,
                    format!("solution {total}: {why} (read as {})", k.name()),
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
    Ok(Solutions {
        kind: kind.unwrap_or(Kind::Pack),
        from,
        pictures,
        total,
    })
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn kinds_are_told_apart() {
        assert_eq!(Kind::guess(".Q..\n...Q\nQ...\n..Q."), Kind::Queens);
        assert_eq!(Kind::guess("#..\n.#.\n..."), Kind::Hitori);
        assert_eq!(Kind::guess(" 2  7  6\n 9  5  1\n 4  3  8"), Kind::Magic);
        assert_eq!(Kind::guess("AAB\nCCB"), Kind::Pack);
        assert_eq!(Kind::guess("aab abb\nccc ccb"), Kind::Pack);
    }

    #[test]
    fn pictures_parse_and_bad_blocks_name_their_line() {
        let q = Picture::parse(Kind::Queens, ".Q..\n...Q\nQ...\n..Q.").unwrap();
        assert_eq!(
            q,
            Picture::Queens {
                cols: vec![1, 3, 0, 2]
            }
        );
        assert_eq!(
            Picture::parse(Kind::Queens, ".Q..\nQQ..\nQ...\n..Q.")
                .unwrap_err()
                .0,
            1
        );
        let p = Picture::parse(Kind::Pack, "ab. ..c\nab. ddc").unwrap();
        let Picture::Pack { layers } = &p else {
            panic!()
        };
        assert_eq!(layers.len(), 2);
        assert_eq!(layers[1][1], vec![Some('d'), Some('d'), Some('c')]);
        assert_eq!(layers[0][0][2], None);
        assert_eq!(p.size(), (2, 3));
        assert_eq!(Picture::parse(Kind::Pack, "ab ab\nab").unwrap_err().0, 1);
        let m = Picture::parse(Kind::Magic, "2 7 6\n9 5 1\n4 3 8").unwrap();
        assert_eq!(m.size(), (3, 3));
        assert!(Picture::parse(Kind::Magic, "2 7\n9 x").is_err());
        assert!(Picture::parse(Kind::Hitori, "#.\n#").is_err());
    }
}
