//! A shading in the solutions-file format (the `.solution` format: `#`
//! shaded, `.` unshaded, one row per line): the one parser the verifier,
//! the viewer and the tests share.

use hysolve::advanced::input::BlockError;

/// A shading, as a solutions file holds it (`#` shaded, `.` white).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Shaded cells, row by row.
    pub shaded: Vec<bool>,
}

impl Solution {
    /// Reads one shading; the error names its line (from 0). Blank lines
    /// are skipped and trailing whitespace ignored.
    pub fn parse(block: &str) -> Result<Solution, BlockError> {
        let lines: Vec<(usize, &str)> = block
            .lines()
            .map(str::trim_end)
            .enumerate()
            .filter(|(_, l)| !l.is_empty())
            .collect();
        let cols = lines.first().map_or(0, |(_, l)| l.chars().count());
        let mut shaded = Vec::with_capacity(lines.len() * cols);
        for &(r, line) in &lines {
            if line.chars().count() != cols {
                return Err(BlockError::new(
                    r,
                    format!("rows must all have {cols} cells"),
                ));
            }
            for c in line.chars() {
                match c {
                    '#' => shaded.push(true),
                    '.' => shaded.push(false),
                    _ => return Err(BlockError::new(r, format!("'{c}' is neither '#' nor '.'"))),
                }
            }
        }
        Ok(Solution {
            rows: lines.len(),
            cols,
            shaded,
        })
    }

    /// Whether a block looks like a shading (only `#` and `.`, no spaces).
    pub fn looks_like(block: &str) -> bool {
        !block.contains(' ')
            && block
                .chars()
                .filter(|c| !c.is_whitespace())
                .all(|c| c == '#' || c == '.')
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn shadings_parse() {
        let s = Solution::parse("#..\n.#.\n...").unwrap();
        assert_eq!((s.rows, s.cols), (3, 3));
        assert!(s.shaded[4]);
        assert_eq!(Solution::parse("#.\n#").unwrap_err().line, 1);
        assert!(Solution::looks_like("#.\n.#"));
    }
}
