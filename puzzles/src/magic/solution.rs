//! A square in the solutions-file format (n rows of n whitespace-separated
//! numbers): the one parser the verifier, the viewer and the tests share.

use hysolve::advanced::input::BlockError;

/// A filled square, as a solutions file holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Its order.
    pub n: usize,
    /// The numbers, row by row.
    pub values: Vec<u64>,
}

impl Solution {
    /// Reads one square; the error names its line (from 0). Every row's sum
    /// fits a `u64`. Blank lines are skipped.
    pub fn parse(block: &str) -> Result<Solution, BlockError> {
        let lines: Vec<(usize, &str)> = block
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .collect();
        let n = lines.len();
        let mut values = Vec::with_capacity(n * n);
        for &(r, line) in &lines {
            let row: Vec<&str> = line.split_whitespace().collect();
            if row.len() != n {
                return Err(BlockError::new(
                    r,
                    format!("a square of {n} rows needs {n} numbers a row"),
                ));
            }
            let mut sum = 0u64;
            for w in row {
                let v: u64 = w
                    .parse()
                    .map_err(|_| BlockError::new(r, format!("'{w}' is not a whole number")))?;
                sum = sum.checked_add(v).ok_or_else(|| {
                    BlockError::new(r, "the row's numbers add up to more than 2^64 - 1")
                })?;
                values.push(v);
            }
        }
        Ok(Solution { n, values })
    }

    /// Whether a block looks like a square (only digits and whitespace).
    pub fn looks_like(block: &str) -> bool {
        block
            .split_whitespace()
            .all(|w| w.chars().all(|c| c.is_ascii_digit()))
    }

    /// The first row's sum (the parser made sure it fits).
    pub fn first_row_sum(&self) -> u64 {
        self.values[..self.n].iter().sum()
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn squares_parse() {
        let m = Solution::parse(" 2  7  6\n 9  5  1\n 4  3  8").unwrap();
        assert_eq!((m.n, m.first_row_sum()), (3, 15));
        assert!(Solution::parse("2 7\n9 x").is_err());
        assert!(Solution::looks_like("2 7\n9 5"));
        assert!(!Solution::looks_like("2 x"));
    }
}
