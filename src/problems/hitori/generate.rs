//! Puzzles with exactly one solution, reproducible from a seed.
//!
//! 1. A random valid shading: cells in random order are shaded when no
//!    neighbour is shaded and the unshaded cells stay connected.
//! 2. Numbers for the unshaded cells from a Latin square (rows, columns and
//!    symbols shuffled), so no number repeats among them in a line.
//! 3. Every shaded cell copies the number of a random unshaded cell of its
//!    row or column, so it hides a duplicate.
//! 4. The solver in `unique` mode looks for a second solution B. Some cell
//!    y is shaded in ours (A) and unshaded in B: otherwise B shades all of
//!    A's cells and one more, x, unshaded in A, whose peers are all shaded in
//!    A and so in B, and x would hide no duplicate in B. Give y the number of
//!    a cell z of its line unshaded in both: B now repeats a number and
//!    fails, A still holds (y is shaded and z hides its duplicate). Repeat
//!    until the solver proves A unique.

use super::Hitori;
use super::grid::Grid;
use super::verify::parse_solution;
use crate::engine::{Mode, sequential};
use crate::problems::PuzzleError;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;
use std::collections::VecDeque;

/// The largest side the generator accepts.
pub const MAX_SIDE: usize = 1000;

/// A generated puzzle and its one solution (`true` = shaded).
#[derive(Debug, Clone)]
pub struct Generated {
    /// The puzzle.
    pub grid: Grid,
    /// Its one solution: shaded cells, row by row.
    pub solution: Vec<bool>,
    /// Second solutions that had to be ruled out.
    pub repairs: usize,
    /// Fresh starts (a repair loop that ran too long).
    pub restarts: usize,
}

/// Generates a `rows` x `cols` puzzle with exactly one solution.
pub fn generate(rows: usize, cols: usize, seed: u64) -> Result<Generated, PuzzleError> {
    if !(2..=MAX_SIDE).contains(&rows) || !(2..=MAX_SIDE).contains(&cols) {
        return Err(PuzzleError::Argument(format!(
            "generate hitori: sides must be between 2 and {MAX_SIDE}, got {rows}x{cols}"
        )));
    }
    let mut rng = XorShiftRng::seed_from_u64(seed);
    let max_repairs = 4 * (rows * cols).max(64);
    for restart in 0.. {
        let solution = random_shading(rows, cols, &mut rng);
        let mut grid = number(rows, cols, &solution, &mut rng);
        let mut repairs = 0;
        while repairs <= max_repairs {
            let h = Hitori::new(grid.clone(), "generated");
            let (_, found) = sequential(&h, Mode::Unique);
            let other = found
                .iter()
                .map(|text| {
                    parse_solution(text, rows, cols).expect("the solver renders its own format")
                })
                .find(|s| *s != solution);
            let Some(other) = other else {
                debug_assert_eq!(found.len(), 1, "the planted shading is a solution");
                return Ok(Generated {
                    grid,
                    solution,
                    repairs,
                    restarts: restart,
                });
            };
            if !repair(&mut grid, &solution, &other, &mut rng) {
                break;
            }
            repairs += 1;
        }
    }
    unreachable!("the loop above only ends by returning")
}

/// Shades cells in random order wherever the rules still allow it.
fn random_shading(rows: usize, cols: usize, rng: &mut XorShiftRng) -> Vec<bool> {
    let n = rows * cols;
    let mut shaded = vec![false; n];
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(rng);
    let mut seen = vec![0u32; n];
    let mut stamp = 0u32;
    let mut queue = VecDeque::new();
    for &i in &order {
        let (r, c) = (i / cols, i % cols);
        let touches = neighbours(rows, cols, r, c).any(|j| shaded[j]);
        if touches || rng.random_bool(0.15) {
            continue;
        }
        shaded[i] = true;
        // Shading i can only disconnect its neighbours from each other.
        stamp += 1;
        let first = neighbours(rows, cols, r, c)
            .next()
            .expect("sides are at least 2");
        queue.clear();
        queue.push_back(first);
        seen[first] = stamp;
        let mut remaining: usize = neighbours(rows, cols, r, c).count() - 1;
        while let Some(j) = queue.pop_front() {
            if remaining == 0 {
                break;
            }
            for k in neighbours(rows, cols, j / cols, j % cols) {
                if !shaded[k] && seen[k] != stamp {
                    seen[k] = stamp;
                    remaining -= usize::from(is_neighbour(cols, i, k));
                    queue.push_back(k);
                }
            }
        }
        if remaining > 0 {
            shaded[i] = false;
        }
    }
    shaded
}

fn is_neighbour(cols: usize, i: usize, k: usize) -> bool {
    k.abs_diff(i) == cols || (k.abs_diff(i) == 1 && i / cols == k / cols)
}

fn neighbours(rows: usize, cols: usize, r: usize, c: usize) -> impl Iterator<Item = usize> {
    let i = r * cols + c;
    [
        (r > 0).then(|| i - cols),
        (r + 1 < rows).then_some(i + cols),
        (c > 0).then(|| i - 1),
        (c + 1 < cols).then_some(i + 1),
    ]
    .into_iter()
    .flatten()
}

/// Numbers for a shading: a shuffled Latin square on the unshaded cells,
/// duplicates of an unshaded line-mate on the shaded ones.
fn number(rows: usize, cols: usize, shaded: &[bool], rng: &mut XorShiftRng) -> Grid {
    let k = rows.max(cols);
    let mut row_shift: Vec<usize> = (0..k).collect();
    let mut col_shift: Vec<usize> = (0..k).collect();
    let mut symbol: Vec<u32> = (1..=k as u32).collect();
    row_shift.shuffle(rng);
    col_shift.shuffle(rng);
    symbol.shuffle(rng);
    let mut values: Vec<u32> = (0..rows * cols)
        .map(|i| symbol[(row_shift[i / cols] + col_shift[i % cols]) % k])
        .collect();
    let mut mates = Vec::new();
    for i in (0..rows * cols).filter(|&i| shaded[i]) {
        let (r, c) = (i / cols, i % cols);
        mates.clear();
        mates.extend((0..cols).map(|cc| r * cols + cc).filter(|&j| !shaded[j]));
        mates.extend((0..rows).map(|rr| rr * cols + c).filter(|&j| !shaded[j]));
        let j = mates[rng.random_range(0..mates.len())];
        values[i] = values[j];
    }
    Grid::new(rows, cols, values)
}

/// Rules out `other` while keeping `ours` a solution (see the module text).
/// False when no cell can be changed (the caller starts afresh).
fn repair(grid: &mut Grid, ours: &[bool], other: &[bool], rng: &mut XorShiftRng) -> bool {
    let (rows, cols) = (grid.rows, grid.cols);
    let mut ys: Vec<usize> = (0..rows * cols).filter(|&i| ours[i] && !other[i]).collect();
    ys.shuffle(rng);
    for y in ys {
        let (r, c) = (y / cols, y % cols);
        let zs: Vec<usize> = (0..cols)
            .map(|cc| r * cols + cc)
            .chain((0..rows).map(|rr| rr * cols + c))
            .filter(|&z| z != y && !ours[z] && !other[z])
            .collect();
        if !zs.is_empty() {
            let z = zs[rng.random_range(0..zs.len())];
            grid.values[y] = grid.values[z];
            return true;
        }
    }
    false
}

/// A grid that is not a proper puzzle, for counting workloads: distinct
/// numbers everywhere except `groups` groups of two or three cells of a row
/// or column that share a number. Each group keeps one cell unshaded, so the
/// grid has up to 2 or 3 solutions per group, fewer where groups interact
/// (shaded cells that would touch or cut the unshaded region).
pub fn open_grid(rows: usize, cols: usize, groups: usize, seed: u64) -> Result<Grid, PuzzleError> {
    if !(2..=MAX_SIDE).contains(&rows) || !(2..=MAX_SIDE).contains(&cols) {
        return Err(PuzzleError::Argument(format!(
            "generate hitori: sides must be between 2 and {MAX_SIDE}, got {rows}x{cols}"
        )));
    }
    let n = rows * cols;
    if groups * 3 > n {
        return Err(PuzzleError::Argument(format!(
            "generate hitori: {groups} groups do not fit in {rows}x{cols} cells"
        )));
    }
    let mut rng = XorShiftRng::seed_from_u64(seed);
    let mut values: Vec<u32> = (1..=n as u32).collect();
    let mut taken = vec![false; n];
    let mut made = 0;
    let mut next_value = n as u32;
    let mut cells = Vec::new();
    for _ in 0..1000 * (groups + 1) {
        if made == groups {
            break;
        }
        let size = if rng.random_range(0..3) == 0 { 3 } else { 2 };
        cells.clear();
        if rng.random_bool(0.5) {
            let r = rng.random_range(0..rows);
            let mut cs: Vec<usize> = (0..cols).collect();
            cs.shuffle(&mut rng);
            cells.extend(cs.iter().take(size).map(|&c| r * cols + c));
        } else {
            let c = rng.random_range(0..cols);
            let mut rs: Vec<usize> = (0..rows).collect();
            rs.shuffle(&mut rng);
            cells.extend(rs.iter().take(size).map(|&r| r * cols + c));
        }
        if cells.len() < 2 || cells.iter().any(|&i| taken[i]) {
            continue;
        }
        next_value += 1;
        for &i in &cells {
            taken[i] = true;
            values[i] = next_value;
        }
        made += 1;
    }
    if made < groups {
        return Err(PuzzleError::Argument(format!(
            "generate hitori: could place only {made} of {groups} groups"
        )));
    }
    Ok(Grid::new(rows, cols, values))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::hitori::verify::verify;

    #[test]
    fn generated_puzzles_are_unique_and_reproducible() {
        for (size, seed) in [(5, 1), (6, 2), (9, 3), (12, 4)] {
            let g = generate(size, size, seed).unwrap();
            verify(&g.grid, &g.solution).unwrap();
            let h = Hitori::new(g.grid.clone(), "g");
            assert_eq!(
                sequential(&h, Mode::Count).0.solutions,
                1,
                "{size}x{size} seed {seed}"
            );
            let again = generate(size, size, seed).unwrap();
            assert_eq!(again.grid, g.grid);
        }
    }

    #[test]
    fn rejects_absurd_sizes() {
        assert!(generate(1, 5, 0).is_err());
        assert!(generate(5, MAX_SIDE + 1, 0).is_err());
    }
}
