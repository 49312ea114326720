//! The seed's opening rules: patterns in the numbers alone that decide cells
//! before any search. Each follows from rules 1 to 3 (argued beside it), so
//! they never remove a solution; the propagation and the search would find
//! the same cells, only later.

use super::grid::Grid;
use super::solver::{BLACK, WHITE};

/// Cells decided by the opening rules, each with its colour. A cell may
/// appear more than once; two different colours for one cell mean the grid
/// has no solution (the propagation reports it).
pub(crate) fn opening(grid: &Grid) -> Vec<(usize, u8)> {
    let mut out = Vec::new();
    let (rows, cols) = (grid.rows, grid.cols);
    let mut line: Vec<usize> = Vec::new();
    for r in 0..rows {
        line.clear();
        line.extend((0..cols).map(|c| r * cols + c));
        in_line(grid, &line, &mut out);
    }
    for c in 0..cols {
        line.clear();
        line.extend((0..rows).map(|r| r * cols + c));
        in_line(grid, &line, &mut out);
    }
    if rows >= 2 && cols >= 2 {
        corners(grid, &mut out);
    }
    out
}

/// Patterns along one row or column (`line`: its cells in order).
fn in_line(grid: &Grid, line: &[usize], out: &mut Vec<(usize, u8)>) {
    let v = |k: usize| grid.values[line[k]];
    let n = line.len();
    for k in 1..n.saturating_sub(1) {
        if v(k - 1) == v(k + 1) {
            // Sandwich: of the two equal ends at most one is white, so one
            // is black and the middle, its neighbour, is white.
            out.push((line[k], WHITE));
            if v(k) == v(k - 1) {
                // Triple: the middle is white, so both ends are black.
                out.push((line[k - 1], BLACK));
                out.push((line[k + 1], BLACK));
            }
        }
    }
    for k in 0..n.saturating_sub(1) {
        if v(k) == v(k + 1) {
            // Pair isolation: of two equal neighbours exactly one is white
            // (not both black, not both white), so every other cell of the
            // line with that number is black.
            let a = v(k);
            for j in (0..n).filter(|&j| j != k && j != k + 1 && v(j) == a) {
                out.push((line[j], BLACK));
            }
        }
    }
    for k in 0..n.saturating_sub(3) {
        let (a, b) = (v(k), v(k + 1));
        if a != b && v(k + 2) == b && v(k + 3) == a {
            // Flanked isolation, `a b b a`: one b is black, and whichever it
            // is whitens its a-neighbour, which shades the other a, which
            // whitens the other b. So exactly one a and one b here are
            // white, and every other a or b of the line is black.
            for j in (0..n).filter(|&j| !(k..k + 4).contains(&j) && (v(j) == a || v(j) == b)) {
                out.push((line[j], BLACK));
            }
        }
    }
}

/// The corner patterns, for each corner cell `x` with row neighbour `h`,
/// column neighbour `w` and diagonal `d`.
fn corners(grid: &Grid, out: &mut Vec<(usize, u8)>) {
    let (rows, cols) = (grid.rows, grid.cols);
    for (r, c, dr, dc) in [
        (0, 0, 1isize, 1isize),
        (0, cols - 1, 1, -1),
        (rows - 1, 0, -1, 1),
        (rows - 1, cols - 1, -1, -1),
    ] {
        let at =
            |rr: isize, cc: isize| (r as isize + rr) as usize * cols + (c as isize + cc) as usize;
        let (x, h, w, d) = (at(0, 0), at(0, dc), at(dr, 0), at(dr, dc));
        let val = |i: usize| grid.values[i];
        if val(x) == val(h) && val(x) == val(w) {
            // Triple corner: a white corner would shade both its
            // neighbours and be cut off.
            out.push((x, BLACK));
        }
        if (val(x) == val(h) && val(w) == val(d)) || (val(x) == val(w) && val(h) == val(d)) {
            // Quad corner: two equal pairs; a white corner shades its pair
            // mate, which whitens the other pair's cell beside it, which
            // shades the last one, the corner's other neighbour: cut off.
            // So the corner is black and, by the same chain, so is `d`.
            out.push((x, BLACK));
            out.push((d, BLACK));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decided(text: &str) -> Vec<(usize, u8)> {
        let g = Grid::parse(text, "t").unwrap();
        let mut v = opening(&g);
        v.sort_unstable();
        v.dedup();
        v
    }

    #[test]
    fn sandwich_and_triple() {
        assert_eq!(decided("1 2 1 3"), vec![(1, WHITE)]);
        assert_eq!(decided("1 1 1 3"), vec![(0, BLACK), (1, WHITE), (2, BLACK)]);
    }

    #[test]
    fn pair_isolation_and_flanked() {
        assert_eq!(decided("4 4 2 3 4"), vec![(4, BLACK)]);
        assert_eq!(decided("1 2 2 1 5 2 1"), vec![(5, BLACK), (6, BLACK)]);
    }

    #[test]
    fn corners_of_a_square() {
        // Triple corner at the top left.
        let v = decided("5 5 1\n5 2 3\n4 6 7");
        assert!(v.contains(&(0, BLACK)));
        // Quad corner: two vertical pairs at the top left.
        let v = decided("5 6 1\n5 6 3\n4 2 7");
        assert!(v.contains(&(0, BLACK)) && v.contains(&(4, BLACK)));
    }
}
