//! The puzzle file: one row per line, whitespace-separated positive integers.

use hysolve::advanced::input::{InputError, words};

/// The most cells a grid may have (cell indices are `u32`, and the solver
/// keeps a few words per cell).
pub const MAX_CELLS: usize = 1 << 26;

/// The most same-number pairs in a line (the solver stores one entry per
/// ordered pair); bounds memory for absurd grids of one repeated number.
pub const MAX_PEER_PAIRS: usize = 1 << 28;

/// A rectangular grid of positive numbers, row-major.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The numbers, row by row.
    pub values: Vec<u32>,
}

impl Grid {
    /// A grid of `rows` x `cols` numbers, row by row.
    pub fn new(rows: usize, cols: usize, values: Vec<u32>) -> Grid {
        assert_eq!(rows * cols, values.len());
        Grid { rows, cols, values }
    }

    /// The number at row `r`, column `c`.
    #[inline]
    pub fn at(&self, r: usize, c: usize) -> u32 {
        self.values[r * self.cols + c]
    }

    /// Cells in the grid.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the grid has no cell.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Parses a puzzle; `file` names it in errors. Blank lines before and
    /// after the grid are ignored, not inside it.
    pub fn parse(text: &str, file: &str) -> Result<Grid, InputError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .skip_while(|(_, l)| l.trim().is_empty())
            .collect();
        let end = lines
            .iter()
            .rposition(|(_, l)| !l.trim().is_empty())
            .map_or(0, |p| p + 1);
        let lines = &lines[..end];
        if lines.is_empty() {
            return Err(InputError::file(file, "empty grid: no numbers in the file"));
        }
        let mut values = Vec::new();
        let mut cols = 0;
        for (row, &(line_no, line)) in lines.iter().enumerate() {
            let mut count = 0;
            for (col, word) in words(line) {
                count += 1;
                if row > 0 && count > cols {
                    return Err(InputError::at(
                        file,
                        line_no,
                        col,
                        format!("row {} has more than the {cols} numbers of row 1", row + 1),
                    ));
                }
                values.push(parse_value(word).map_err(|m| InputError::at(file, line_no, col, m))?);
                if values.len() > MAX_CELLS {
                    return Err(InputError::at(
                        file,
                        line_no,
                        col,
                        format!("grid has more than {MAX_CELLS} cells"),
                    ));
                }
            }
            if count == 0 {
                return Err(InputError::line(
                    file,
                    line_no,
                    "blank line inside the grid",
                ));
            }
            if row == 0 {
                cols = count;
            } else if count < cols {
                let width = line.trim_end().chars().count() + 1;
                return Err(InputError::at(
                    file,
                    line_no,
                    width,
                    format!("row {} has {count} numbers, row 1 has {cols}", row + 1),
                ));
            }
        }
        let grid = Grid::new(lines.len(), cols, values);
        let pairs = grid.peer_pairs();
        if pairs > MAX_PEER_PAIRS {
            return Err(InputError::file(
                file,
                format!(
                    "{pairs} pairs of equal numbers in a line: more than the {MAX_PEER_PAIRS} supported"
                ),
            ));
        }
        Ok(grid)
    }

    /// How many ordered pairs of distinct cells share a row or a column and
    /// their number: the size of the solver's peer table.
    pub fn peer_pairs(&self) -> usize {
        let mut total = 0usize;
        let mut line = Vec::new();
        for r in 0..self.rows {
            line.clear();
            line.extend((0..self.cols).map(|c| self.at(r, c)));
            total = total.saturating_add(pairs_in(&mut line));
        }
        for c in 0..self.cols {
            line.clear();
            line.extend((0..self.rows).map(|r| self.at(r, c)));
            total = total.saturating_add(pairs_in(&mut line));
        }
        total
    }

    /// Digits of the widest number.
    pub fn number_width(&self) -> usize {
        self.values
            .iter()
            .map(|v| v.to_string().len())
            .max()
            .unwrap_or(1)
    }

    /// The grid in the input format, numbers right-aligned.
    pub fn to_text(&self) -> String {
        let width = self.number_width();
        let mut out = String::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                if c > 0 {
                    out.push(' ');
                }
                out.push_str(&format!("{:>width$}", self.at(r, c)));
            }
            out.push('\n');
        }
        out
    }
}

fn pairs_in(line: &mut [u32]) -> usize {
    line.sort_unstable();
    line.chunk_by(|a, b| a == b)
        .map(|g| g.len() * (g.len() - 1))
        .sum()
}

fn parse_value(word: &str) -> Result<u32, String> {
    if let Some(rest) = word.strip_prefix('-')
        && !rest.is_empty()
        && rest.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(format!("'{word}' is negative: numbers must be 1 or more"));
    }
    if !word.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("expected a positive integer, found '{word}'"));
    }
    match word.parse::<u32>() {
        Ok(0) => Err("0 is not allowed: numbers must be 1 or more".to_owned()),
        Ok(v) => Ok(v),
        Err(_) => Err(format!("'{word}' is too large (at most {})", u32::MAX)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Grid::parse(text, "g.txt").unwrap_err().to_string()
    }

    #[test]
    fn parses_rows() {
        let g = Grid::parse("\n1 2 3\n 3 1 2 \n\n", "g.txt").unwrap();
        assert_eq!((g.rows, g.cols), (2, 3));
        assert_eq!(g.values, vec![1, 2, 3, 3, 1, 2]);
        assert_eq!(Grid::parse(&g.to_text(), "x").unwrap(), g);
    }

    #[test]
    fn bad_inputs_name_line_and_column() {
        assert_eq!(err(""), "g.txt: empty grid: no numbers in the file");
        assert_eq!(err(" \n\t\n"), "g.txt: empty grid: no numbers in the file");
        assert_eq!(
            err("1 2\n3 x\n"),
            "g.txt:2:3: expected a positive integer, found 'x'"
        );
        assert_eq!(
            err("1 2\n3 0\n"),
            "g.txt:2:3: 0 is not allowed: numbers must be 1 or more"
        );
        assert_eq!(
            err("1 -2\n"),
            "g.txt:1:3: '-2' is negative: numbers must be 1 or more"
        );
        assert_eq!(
            err("1 2\n3 4 5\n"),
            "g.txt:2:5: row 2 has more than the 2 numbers of row 1"
        );
        assert_eq!(
            err("1 2\n3\n"),
            "g.txt:2:2: row 2 has 1 numbers, row 1 has 2"
        );
        assert_eq!(err("1 2\n\n3 4\n"), "g.txt:2: blank line inside the grid");
        assert_eq!(
            err("99999999999\n"),
            "g.txt:1:1: '99999999999' is too large (at most 4294967295)"
        );
        assert_eq!(
            err("1.5\n"),
            "g.txt:1:1: expected a positive integer, found '1.5'"
        );
    }

    #[test]
    fn counts_peer_pairs() {
        let g = Grid::parse("1 1 1\n1 2 3\n", "g").unwrap();
        // row 1: 3 equal -> 6 ordered pairs; column 1: 2 equal -> 2.
        assert_eq!(g.peer_pairs(), 8);
    }
}
