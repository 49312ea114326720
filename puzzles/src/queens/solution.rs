//! A board in the solutions-file format (n rows of n cells, `Q` a queen and
//! `.` an empty square): the one parser the verifier, the viewer and the
//! tests share, and the independent check of a solution.

use hysolve::advanced::input::BlockError;

/// The column of the queen in each row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// The column of each row's queen.
    pub cols: Vec<usize>,
}

impl Solution {
    /// Reads one board; the error names its line (from 0).
    pub fn parse(block: &str) -> Result<Solution, BlockError> {
        let lines: Vec<&str> = block.lines().map(str::trim_end).collect();
        let n = lines.len();
        let mut cols = Vec::with_capacity(n);
        for (r, line) in lines.iter().enumerate() {
            if line.chars().count() != n {
                return Err(BlockError::new(
                    r,
                    format!("a board of {n} rows needs {n} cells a row"),
                ));
            }
            let mut queens = line.char_indices().filter(|&(_, c)| c == 'Q');
            match (queens.next(), queens.next()) {
                (Some((c, _)), None) => cols.push(c),
                _ => return Err(BlockError::new(r, "a row needs exactly one queen 'Q'")),
            }
            if let Some(bad) = line.chars().find(|&c| c != 'Q' && c != '.') {
                return Err(BlockError::new(
                    r,
                    format!("'{bad}' is neither 'Q' nor '.'"),
                ));
            }
        }
        Ok(Solution { cols })
    }

    /// Whether a block looks like a board (only `Q` and `.`, no spaces).
    pub fn looks_like(block: &str) -> bool {
        !block.contains(' ')
            && block
                .chars()
                .filter(|c| !c.is_whitespace())
                .all(|c| c == 'Q' || c == '.')
    }
}

/// Checks a rendered board independently of the solver: n rows of n cells,
/// one queen a row and a column, no two on a diagonal.
pub fn verify(n: usize, text: &str) -> Result<(), String> {
    let board = Solution::parse(text).map_err(|e| format!("row {}: {}", e.line + 1, e.message))?;
    if board.cols.len() != n {
        return Err(format!("expected {n} rows, got {}", board.cols.len()));
    }
    for (r1, &c1) in board.cols.iter().enumerate() {
        for (r2, &c2) in board.cols.iter().enumerate().skip(r1 + 1) {
            if c1 == c2 || r2 - r1 == c1.abs_diff(c2) {
                return Err(format!(
                    "queens in rows {} and {} attack each other",
                    r1 + 1,
                    r2 + 1
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn boards_parse_and_bad_rows_are_named() {
        let q = Solution::parse(".Q..\n...Q\nQ...\n..Q.").unwrap();
        assert_eq!(q.cols, vec![1, 3, 0, 2]);
        assert_eq!(
            Solution::parse(".Q..\nQQ..\nQ...\n..Q.").unwrap_err().line,
            1
        );
        assert_eq!(
            Solution::parse(".Q..\n.x..\nQ...\n..Q.").unwrap_err().line,
            1
        );
        assert!(Solution::looks_like(".Q\nQ."));
        assert!(!Solution::looks_like(". Q"));
    }
}
