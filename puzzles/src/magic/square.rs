//! The input: n rows of n integers, `-1` for an empty cell.

use crate::PuzzleError;
use hysolve::advanced::input::{InputError, words};

/// The largest order: numbers up to 256 fit the solver's bitset.
pub const MAX_N: usize = 16;

/// A partially filled square; `0` marks an empty cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given {
    /// The order.
    pub n: usize,
    /// The numbers, row by row; 0 for an empty cell.
    pub cells: Vec<u16>,
}

impl Given {
    /// The square with nothing given.
    pub fn empty(n: usize) -> Result<Given, PuzzleError> {
        if !(1..=MAX_N).contains(&n) {
            return Err(PuzzleError::Argument(format!(
                "magic: the order must be between 1 and {MAX_N}, got {n}"
            )));
        }
        Ok(Given {
            n,
            cells: vec![0; n * n],
        })
    }

    /// The magic constant n(n^2 + 1)/2.
    pub fn magic_sum(&self) -> u32 {
        let n = self.n as u32;
        n * (n * n + 1) / 2
    }

    /// Parses a square; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<Given, InputError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        let Some(&(first_line, first)) = lines.first() else {
            return Err(InputError::file(
                file,
                "empty square: no numbers in the file",
            ));
        };
        let n = words(first).count();
        if n > MAX_N {
            return Err(InputError::line(
                file,
                first_line,
                format!("{n} numbers in the first row: orders above {MAX_N} are not supported"),
            ));
        }
        if lines.len() != n {
            let (line, _) = lines[n.min(lines.len() - 1)];
            return Err(InputError::line(
                file,
                line,
                format!(
                    "{} rows for a first row of {n} numbers: a square needs {n} rows",
                    lines.len()
                ),
            ));
        }
        let top = (n * n) as i64;
        let mut cells = Vec::with_capacity(n * n);
        let mut seen: Vec<Option<(usize, usize)>> = vec![None; n * n + 1];
        for (r, &(line_no, line)) in lines.iter().enumerate() {
            let mut count = 0;
            for (col, word) in words(line) {
                count += 1;
                if count > n {
                    return Err(InputError::at(
                        file,
                        line_no,
                        col,
                        format!("row {} has more than {n} numbers", r + 1),
                    ));
                }
                let v: i64 = word.parse().map_err(|_| {
                    InputError::at(
                        file,
                        line_no,
                        col,
                        format!("expected an integer, found '{word}'"),
                    )
                })?;
                if v == -1 {
                    cells.push(0);
                    continue;
                }
                if !(1..=top).contains(&v) {
                    return Err(InputError::at(
                        file,
                        line_no,
                        col,
                        format!("{v} is out of range: numbers are 1 to {top}, or -1 for empty"),
                    ));
                }
                if let Some((l, c)) = seen[v as usize] {
                    return Err(InputError::at(
                        file,
                        line_no,
                        col,
                        format!("{v} is given twice (first at line {l}, column {c})"),
                    ));
                }
                seen[v as usize] = Some((line_no, col));
                cells.push(v as u16);
            }
            if count < n {
                return Err(InputError::at(
                    file,
                    line_no,
                    line.trim_end().chars().count() + 1,
                    format!("row {} has {count} numbers, expected {n}", r + 1),
                ));
            }
        }
        Ok(Given { n, cells })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Given::parse(text, "m.txt").unwrap_err().to_string()
    }

    #[test]
    fn parses_a_square() {
        let g = Given::parse("-1 -1 -1\n-1 5 -1\n-1 -1 2\n", "m").unwrap();
        assert_eq!(g.n, 3);
        assert_eq!(g.cells, vec![0, 0, 0, 0, 5, 0, 0, 0, 2]);
        assert_eq!(g.magic_sum(), 15);
    }

    #[test]
    fn bad_squares_name_line_and_column() {
        assert_eq!(err(""), "m.txt: empty square: no numbers in the file");
        assert_eq!(
            err("1 2\n3 4\n1 2\n"),
            "m.txt:3: 3 rows for a first row of 2 numbers: a square needs 2 rows"
        );
        assert_eq!(
            err("1 2 3\n4 5\n"),
            "m.txt:2: 2 rows for a first row of 3 numbers: a square needs 3 rows"
        );
        assert_eq!(
            err("1 2\n3 x\n"),
            "m.txt:2:3: expected an integer, found 'x'"
        );
        assert_eq!(
            err("1 2\n3 5\n"),
            "m.txt:2:3: 5 is out of range: numbers are 1 to 4, or -1 for empty"
        );
        assert_eq!(
            err("1 0\n3 4\n"),
            "m.txt:1:3: 0 is out of range: numbers are 1 to 4, or -1 for empty"
        );
        assert_eq!(
            err("1 -2\n3 4\n"),
            "m.txt:1:3: -2 is out of range: numbers are 1 to 4, or -1 for empty"
        );
        assert_eq!(
            err("1 2\n1 4\n"),
            "m.txt:2:1: 1 is given twice (first at line 1, column 1)"
        );
        assert_eq!(
            err("1 2\n3 4 4\n"),
            "m.txt:2:5: row 2 has more than 2 numbers"
        );
        assert_eq!(
            err("1 2\n3\n"),
            "m.txt:2:2: row 2 has 1 numbers, expected 2"
        );
        assert!(err(&"-1 ".repeat(17)).contains("orders above 16"));
    }
}
