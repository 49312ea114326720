//! An independent check of a finished shading against the four rules, in
//! the plainest code possible: it shares nothing with the solver but the grid.

use super::grid::Grid;
use super::solution::Solution;
use std::collections::{HashSet, VecDeque};

/// Reads a solution in the `.solution` format (`#` shaded, `.` unshaded, one
/// row per line) for a `rows` x `cols` grid, with the shared parser.
pub fn parse_solution(text: &str, rows: usize, cols: usize) -> Result<Vec<bool>, String> {
    let s = Solution::parse(text).map_err(|e| e.to_string())?;
    if (s.rows, s.cols) != (rows, cols) {
        return Err(format!(
            "{}x{} cells, expected {rows}x{cols}",
            s.rows, s.cols
        ));
    }
    Ok(s.shaded)
}

/// Checks the four rules; says which one fails, and where.
pub fn verify(grid: &Grid, shaded: &[bool]) -> Result<(), String> {
    let (rows, cols) = (grid.rows, grid.cols);
    if shaded.len() != rows * cols {
        return Err(format!("{} cells, expected {}", shaded.len(), rows * cols));
    }
    let black = |r: usize, c: usize| shaded[r * cols + c];
    // Rule 1: no number twice among the unshaded cells of a row or column.
    for r in 0..rows {
        let mut seen = HashSet::new();
        for c in 0..cols {
            if !black(r, c) && !seen.insert(grid.at(r, c)) {
                return Err(format!("row {}: {} unshaded twice", r + 1, grid.at(r, c)));
            }
        }
    }
    for c in 0..cols {
        let mut seen = HashSet::new();
        for r in 0..rows {
            if !black(r, c) && !seen.insert(grid.at(r, c)) {
                return Err(format!(
                    "column {}: {} unshaded twice",
                    c + 1,
                    grid.at(r, c)
                ));
            }
        }
    }
    // Rule 2: shaded cells do not touch.
    for r in 0..rows {
        for c in 0..cols {
            if black(r, c)
                && ((c + 1 < cols && black(r, c + 1)) || (r + 1 < rows && black(r + 1, c)))
            {
                return Err(format!(
                    "shaded cells touch at row {}, column {}",
                    r + 1,
                    c + 1
                ));
            }
        }
    }
    // Rule 3: the unshaded cells are connected (breadth-first from one of them).
    let whites = shaded.iter().filter(|&&b| !b).count();
    if let Some(start) = shaded.iter().position(|&b| !b) {
        let mut seen = vec![false; rows * cols];
        let mut queue = VecDeque::from([start]);
        seen[start] = true;
        let mut reached = 0;
        while let Some(i) = queue.pop_front() {
            reached += 1;
            let (r, c) = (i / cols, i % cols);
            let mut next = Vec::new();
            if r > 0 {
                next.push(i - cols);
            }
            if r + 1 < rows {
                next.push(i + cols);
            }
            if c > 0 {
                next.push(i - 1);
            }
            if c + 1 < cols {
                next.push(i + 1);
            }
            for j in next {
                if !shaded[j] && !seen[j] {
                    seen[j] = true;
                    queue.push_back(j);
                }
            }
        }
        if reached != whites {
            return Err(format!(
                "unshaded cells fall apart ({reached} of {whites} reached)"
            ));
        }
    } else if rows * cols > 0 {
        return Err("every cell is shaded".to_owned());
    }
    // Rule 4: every shaded cell has an unshaded cell with its number in its row or column.
    for r in 0..rows {
        for c in 0..cols {
            if !black(r, c) {
                continue;
            }
            let v = grid.at(r, c);
            let in_row = (0..cols).any(|cc| cc != c && !black(r, cc) && grid.at(r, cc) == v);
            let in_col = (0..rows).any(|rr| rr != r && !black(rr, c) && grid.at(rr, c) == v);
            if !in_row && !in_col {
                return Err(format!(
                    "shaded cell at row {}, column {} hides no duplicate",
                    r + 1,
                    c + 1
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catches_each_rule() {
        let g = Grid::parse("1 1\n2 3", "t").unwrap();
        assert!(verify(&g, &[true, false, false, false]).is_ok());
        assert!(
            verify(&g, &[false, false, false, false])
                .unwrap_err()
                .contains("row 1")
        );
        assert!(
            verify(&g, &[true, true, false, false])
                .unwrap_err()
                .contains("touch")
        );
        let g = Grid::parse("1 2 3\n2 4 5\n6 7 8", "t").unwrap();
        // Shading both neighbours of the corner cuts it off.
        assert!(
            verify(
                &g,
                &[false, true, false, true, false, false, false, false, false]
            )
            .unwrap_err()
            .contains("apart")
        );
        let g = Grid::parse("1 2\n3 4", "t").unwrap();
        assert!(
            verify(&g, &[true, false, false, false])
                .unwrap_err()
                .contains("duplicate")
        );
    }

    #[test]
    fn parses_solutions() {
        assert_eq!(
            parse_solution("#.\n..\n", 2, 2).unwrap(),
            vec![true, false, false, false]
        );
        assert!(parse_solution("#.\n", 2, 2).is_err());
        assert!(parse_solution("#x\n..\n", 2, 2).is_err());
    }
}
