//! Puzzles with exactly one solution, at a chosen difficulty,
//! reproducible from a seed.
//!
//! 1. A random valid shading A: cells in random order are shaded when no
//!    neighbour is shaded and the unshaded cells stay connected.
//! 2. Numbers for the unshaded cells from a Latin square (rows, columns and
//!    symbols shuffled), so no number repeats among them in a line.
//! 3. Every shaded cell copies the number of a random unshaded cell of its
//!    row or column, so it hides a duplicate. A is a solution.
//! 4. The grader (`grade.rs`) applies the difficulty's rules. Where they
//!    leave cells undecided, some of those cells are *forced*, by changes
//!    that keep A a solution: a shaded cell takes the number of an
//!    unshaded neighbour (a decided one where it has one), so that the
//!    easy rules shade it once the neighbour is white; for an unshaded
//!    cell, each shaded line-mate with its number takes the number of one
//!    of its own unshaded neighbours instead, so that no line-mate of the
//!    cell shares its number and the rules whiten it. Then the grader runs
//!    again, on the whole new grid.
//! 5. When the rules decide every cell, the puzzle has exactly one
//!    solution, A: every rule is a consequence of the puzzle's rules. No
//!    search is run.
//!
//! An easy puzzle is forced until the easy rules solve it. A hard one is
//! forced with the easy rules until few cells are left (a two-hundredth of
//! the grid, at least 8, at most 64), then one cell at a time among those
//! look-ahead leaves, until the hard rules solve it; the easy rules then
//! leave the cells look-ahead decided. A grid the easy rules solve on the
//! way is *weakened*: a twentieth of its shaded cells (at least one) take
//! the number of an unshaded cell of their row or column that is not their
//! neighbour (A stays a solution), and grading goes on; after three
//! weakenings it starts afresh.

use super::grade::{Difficulty, Grade, Report, graded};
use super::grid::Grid;
use super::solver::{UNKNOWN, WHITE};
use crate::PuzzleError;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;

/// The largest side the generator accepts.
pub const MAX_SIDE: usize = 1000;

/// Fresh starts a generation tries before it gives up (a hard puzzle that
/// the easy rules keep solving, at a size too small for look-ahead to
/// matter).
pub const MAX_RESTARTS: usize = 200;

/// A generated puzzle and its one solution (`true` = shaded).
#[derive(Debug, Clone)]
pub struct Generated {
    /// The puzzle.
    pub grid: Grid,
    /// Its one solution: shaded cells, row by row.
    pub solution: Vec<bool>,
    /// Cells forced (step 4 of the module text).
    pub repairs: usize,
    /// Fresh starts.
    pub restarts: usize,
    /// The grading that proves it unique: its difficulty and deductions.
    pub report: Report,
}

/// Generates a `rows` x `cols` easy puzzle with exactly one solution.
pub fn generate(rows: usize, cols: usize, seed: u64) -> Result<Generated, PuzzleError> {
    generate_graded(rows, cols, seed, Difficulty::Easy)
}

/// Generates a `rows` x `cols` puzzle with exactly one solution that the
/// rules of `difficulty` solve and, for `Hard`, the easy rules alone do not.
pub fn generate_graded(
    rows: usize,
    cols: usize,
    seed: u64,
    difficulty: Difficulty,
) -> Result<Generated, PuzzleError> {
    if !(2..=MAX_SIDE).contains(&rows) || !(2..=MAX_SIDE).contains(&cols) {
        return Err(PuzzleError::Argument(format!(
            "generate hitori: sides must be between 2 and {MAX_SIDE}, got {rows}x{cols}"
        )));
    }
    let mut rng = XorShiftRng::seed_from_u64(seed);
    let n = rows * cols;
    // Hard: when the easy rules leave this few cells, force one at a time.
    let few = (n / 200).clamp(8, 64);
    let mut repairs = 0;
    for restart in 0..MAX_RESTARTS {
        let solution = random_shading(rows, cols, &mut rng);
        let mut grid = number(rows, cols, &solution, &mut rng);
        let mut weakenings = 0;
        // Rounds of forcing: each forces a share of the cells left, so a
        // round is needed for each halving, and a few more.
        for _ in 0..64 + 4 * n.ilog2() as usize {
            let (easy, cells) = graded(&grid, Difficulty::Easy);
            match (easy.grade, difficulty) {
                (Grade::NoSolution, _) => {
                    debug_assert!(false, "the planted shading is a solution");
                    break;
                }
                (Grade::Solved(_), Difficulty::Easy) => {
                    return Ok(done(grid, solution, repairs, restart, easy));
                }
                (Grade::Solved(_), Difficulty::Hard) => {
                    // Too easy to be hard: weaken it, or start afresh.
                    if weakenings == 3 {
                        break;
                    }
                    weakenings += 1;
                    weaken(&mut grid, &solution, &mut rng);
                }
                (_, Difficulty::Hard) if easy.undecided <= few => {
                    let (hard, cells) = graded(&grid, Difficulty::Hard);
                    if hard.grade == Grade::Solved(Difficulty::Hard) {
                        return Ok(done(grid, solution, repairs, restart, hard));
                    }
                    // Most of what look-ahead leaves are pairs of cells that
                    // only a search tells apart: force a quarter at a time.
                    repairs += force(
                        &mut grid,
                        &solution,
                        &cells,
                        (hard.undecided / 4).max(1),
                        &mut rng,
                    );
                }
                _ => {
                    let mut share = easy.undecided.div_ceil(2);
                    if difficulty == Difficulty::Hard {
                        share = share.min(easy.undecided - few);
                    }
                    repairs += force(&mut grid, &solution, &cells, share.max(1), &mut rng);
                }
            }
        }
    }
    Err(PuzzleError::Instance(format!(
        "generate hitori: no {} {rows}x{cols} puzzle found in {MAX_RESTARTS} attempts (seed {seed})",
        difficulty.as_str()
    )))
}

fn done(
    grid: Grid,
    solution: Vec<bool>,
    repairs: usize,
    restarts: usize,
    report: Report,
) -> Generated {
    debug_assert_eq!(report.solution.as_ref(), Some(&solution));
    Generated {
        grid,
        solution,
        repairs,
        restarts,
        report,
    }
}

/// Weakens `grid` (see the module text): a twentieth of the shaded cells
/// of `ours`, at least one, take the number of an unshaded cell of their
/// line that is not their neighbour.
fn weaken(grid: &mut Grid, ours: &[bool], rng: &mut XorShiftRng) {
    let (rows, cols) = (grid.rows, grid.cols);
    let mut shaded: Vec<usize> = (0..ours.len()).filter(|&i| ours[i]).collect();
    shaded.shuffle(rng);
    let count = (shaded.len() / 20).max(1);
    for &b in shaded.iter().take(count) {
        let (r, c) = (b / cols, b % cols);
        let far: Vec<usize> = (0..cols)
            .map(|k| r * cols + k)
            .chain((0..rows).map(|k| k * cols + c))
            .filter(|&z| !ours[z] && !is_neighbour(cols, b, z))
            .collect();
        if !far.is_empty() {
            grid.values[b] = grid.values[far[rng.random_range(0..far.len())]];
        }
    }
}

/// Forces `count` of the cells the rules left undecided (`cells`, as the
/// grader left them), chosen at random, keeping `ours` a solution (see the
/// module text). Returns how many it changed.
fn force(
    grid: &mut Grid,
    ours: &[bool],
    cells: &[u8],
    count: usize,
    rng: &mut XorShiftRng,
) -> usize {
    let (rows, cols) = (grid.rows, grid.cols);
    let mut open: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == UNKNOWN).collect();
    open.shuffle(rng);
    // An unshaded neighbour of `i` (in A) for it to copy, a decided one
    // first, avoiding the number `not`.
    let mate = |grid: &Grid, i: usize, not: u32, rng: &mut XorShiftRng| -> Option<usize> {
        let mut best: Vec<usize> = neighbours(rows, cols, i / cols, i % cols)
            .filter(|&j| !ours[j] && grid.values[j] != not)
            .collect();
        best.shuffle(rng);
        best.sort_by_key(|&j| cells[j] != WHITE);
        best.first().copied()
    };
    let mut changed = 0;
    for &c in open.iter().take(count) {
        if ours[c] {
            if let Some(z) = mate(grid, c, grid.values[c], rng) {
                grid.values[c] = grid.values[z];
                changed += 1;
            }
        } else {
            let v = grid.values[c];
            let (r, cc) = (c / cols, c % cols);
            let mates: Vec<usize> = (0..cols)
                .map(|k| r * cols + k)
                .chain((0..rows).map(|k| k * cols + cc))
                .filter(|&b| b != c && grid.values[b] == v)
                .collect();
            for b in mates {
                debug_assert!(ours[b], "A repeats no number among its unshaded cells");
                if let Some(z) = mate(grid, b, v, rng) {
                    grid.values[b] = grid.values[z];
                    changed += 1;
                }
            }
        }
    }
    changed
}

/// Shades cells in random order wherever the rules still allow it: no
/// shaded neighbour, and the unshaded cells stay connected.
///
/// Connectivity is decided locally, in near-constant time a cell. In the
/// plane, shading `i` cuts the unshaded cells apart exactly when it closes
/// a loop of shaded cells (diagonal steps allowed, the border counting as
/// one shaded cell). Around `i`, its four neighbours are unshaded (or off
/// the grid); the shaded cells and border among its eight surrounding
/// cells form runs (*arcs*), each already one piece of shaded cells (its
/// members touch). A loop closes when two arcs belong to the same piece,
/// which a union-find of the shaded cells and the border tells.
fn random_shading(rows: usize, cols: usize, rng: &mut XorShiftRng) -> Vec<bool> {
    let n = rows * cols;
    let mut shaded = vec![false; n];
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(rng);
    // Union-find over the cells and the border (index n).
    let mut parent: Vec<u32> = (0..=n as u32).collect();
    fn find(parent: &mut [u32], mut x: usize) -> usize {
        while parent[x] as usize != x {
            let up = parent[parent[x] as usize];
            parent[x] = up;
            x = up as usize;
        }
        x
    }
    // The eight surrounding cells, in order around the cell.
    const RING: [(isize, isize); 8] = [
        (-1, 0),
        (-1, 1),
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
    ];
    let mut arcs: Vec<usize> = Vec::with_capacity(4);
    for &i in &order {
        let (r, c) = (i / cols, i % cols);
        let touches = neighbours(rows, cols, r, c).any(|j| shaded[j]);
        if touches || rng.random_bool(0.15) {
            continue;
        }
        // The piece of each ring position: the border, a shaded cell's
        // root, or none (unshaded).
        let mut piece = [None; 8];
        for (k, (dr, dc)) in RING.iter().enumerate() {
            let (rr, cc) = (r as isize + dr, c as isize + dc);
            piece[k] = if rr < 0 || cc < 0 || rr >= rows as isize || cc >= cols as isize {
                Some(n)
            } else {
                let j = rr as usize * cols + cc as usize;
                shaded[j].then_some(j)
            };
        }
        // One representative a run, starting after an unshaded position
        // (a neighbour, which is never shaded; at least one is on the grid).
        let start = (0..8)
            .step_by(2)
            .find(|&k| piece[k].is_none())
            .expect("sides are at least 2");
        arcs.clear();
        let mut in_arc = false;
        for step in 1..=8 {
            match piece[(start + step) % 8] {
                Some(j) if !in_arc => {
                    arcs.push(find(&mut parent, j));
                    in_arc = true;
                }
                Some(_) => {}
                None => in_arc = false,
            }
        }
        let closes = (0..arcs.len()).any(|a| arcs[a + 1..].contains(&arcs[a]));
        if closes {
            continue;
        }
        shaded[i] = true;
        for &root in &arcs {
            let root = find(&mut parent, root);
            parent[root] = i as u32;
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
    use crate::hitori::Hitori;
    use crate::hitori::verify::verify;
    use hysolve::Mode;
    use hysolve::advanced::sequential;

    #[test]
    fn generated_puzzles_are_unique_and_reproducible() {
        for (size, seed) in [(5, 1), (6, 2), (9, 3), (12, 4)] {
            let g = generate(size, size, seed).unwrap();
            assert_eq!(g.report.grade, Grade::Solved(Difficulty::Easy));
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
