//! An independent check of a completed square: it shares nothing with the
//! solver but the input.

use super::solution::Solution;
use super::square::Given;

/// Reads a square as `render` writes it (n rows of n numbers), with the
/// shared parser.
pub fn parse_square(text: &str, n: usize) -> Result<Vec<u16>, String> {
    let s = Solution::parse(text).map_err(|e| e.to_string())?;
    if s.n != n {
        return Err(format!("{} rows, expected {n}", s.n));
    }
    s.values
        .iter()
        .map(|&v| {
            u16::try_from(v)
                .map_err(|_| format!("{v} is larger than any number of a square of order {n}"))
        })
        .collect()
}

/// Checks that `square` is a normal magic square completing `given`.
pub fn verify(given: &Given, square: &[u16]) -> Result<(), String> {
    let n = given.n;
    if square.len() != n * n {
        return Err(format!("{} numbers, expected {}", square.len(), n * n));
    }
    let mut sorted = square.to_vec();
    sorted.sort_unstable();
    if sorted != (1..=(n * n) as u16).collect::<Vec<_>>() {
        return Err("the numbers are not 1..n^2 once each".to_owned());
    }
    for (i, (&g, &v)) in given.cells.iter().zip(square).enumerate() {
        if g != 0 && g != v {
            return Err(format!("cell {} was given {g}, holds {v}", i + 1));
        }
    }
    let target: u64 = (n as u64) * ((n * n) as u64 + 1) / 2;
    let at = |r: usize, c: usize| square[r * n + c] as u64;
    for i in 0..n {
        let row: u64 = (0..n).map(|c| at(i, c)).sum();
        let col: u64 = (0..n).map(|r| at(r, i)).sum();
        if row != target {
            return Err(format!("row {} sums to {row}, not {target}", i + 1));
        }
        if col != target {
            return Err(format!("column {} sums to {col}, not {target}", i + 1));
        }
    }
    let diag: u64 = (0..n).map(|i| at(i, i)).sum();
    let anti: u64 = (0..n).map(|i| at(i, n - 1 - i)).sum();
    if diag != target || anti != target {
        return Err(format!("diagonals sum to {diag} and {anti}, not {target}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lo_shu_passes_and_broken_squares_fail() {
        let g = Given::empty(3).unwrap();
        let lo_shu = parse_square("2 7 6\n9 5 1\n4 3 8\n", 3).unwrap();
        verify(&g, &lo_shu).unwrap();
        let mut bad = lo_shu.clone();
        bad.swap(0, 1);
        assert!(verify(&g, &bad).is_err());
        let mut g5 = Given::empty(3).unwrap();
        g5.cells[4] = 4;
        assert!(verify(&g5, &lo_shu).unwrap_err().contains("given 4"));
        assert!(verify(&g, &[1; 9]).is_err());
    }
}
