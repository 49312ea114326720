//! Hitori shadings counted by a plain search: cells in row-major order,
//! each tried unshaded then shaded, with forward checking (an unshaded cell
//! shades every equal cell of its row and column; a shaded cell unshades its
//! neighbours); when a row is done, every unshaded region above must reach
//! it (a region that does not can never join the others); at the end one
//! region, and every shaded cell has an unshaded equal in its row or column.
//! Regions are found on bit masks of the rows, not by the engine's code.

use std::path::Path;

#[derive(Clone, Copy, PartialEq)]
enum Cell {
    Open,
    Shaded,
    White,
}

struct Puzzle {
    rows: usize,
    cols: usize,
    /// Cells with the same number in the same row or column.
    mates: Vec<Vec<usize>>,
    /// Each cell's orthogonal neighbours (no division in the search).
    neighbours: Vec<Vec<usize>>,
}

impl Puzzle {
    fn parse(text: &str) -> Puzzle {
        let grid: Vec<Vec<u64>> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
            .collect();
        let (rows, cols) = (grid.len(), grid[0].len());
        assert!(rows <= 64 && cols <= 64, "up to 64x64 (a row is a u64)");
        let value: Vec<u64> = grid.into_iter().flatten().collect();
        assert_eq!(value.len(), rows * cols);
        let mates = (0..rows * cols)
            .map(|i| {
                (0..rows * cols)
                    .filter(|&j| {
                        j != i
                            && value[j] == value[i]
                            && (j / cols == i / cols || j % cols == i % cols)
                    })
                    .collect()
            })
            .collect();
        let neighbours = (0..rows * cols)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                [
                    (r > 0).then(|| i - cols),
                    (r + 1 < rows).then(|| i + cols),
                    (c > 0).then(|| i - 1),
                    (c + 1 < cols).then(|| i + 1),
                ]
                .into_iter()
                .flatten()
                .collect()
            })
            .collect();
        Puzzle {
            rows,
            cols,
            mates,
            neighbours,
        }
    }

    /// Decides cell `i` and everything that forces; false on a contradiction.
    fn decide(&self, state: &mut [Cell], i: usize, to: Cell) -> bool {
        let mut queue = vec![(i, to)];
        while let Some((i, to)) = queue.pop() {
            match state[i] {
                Cell::Open => state[i] = to,
                now if now == to => continue,
                _ => return false,
            }
            if to == Cell::White {
                queue.extend(self.mates[i].iter().map(|&j| (j, Cell::Shaded)));
            } else {
                queue.extend(self.neighbours[i].iter().map(|&j| (j, Cell::White)));
            }
        }
        true
    }

    /// Regions of white cells in rows `..rows`: every one touches row
    /// `rows - 1`, or (`last`) there is exactly one. A row's white cells are
    /// a bit mask; the cells reached grow from row `rows - 1` (or, `last`,
    /// from one white cell) to their white neighbours, all lanes of a row
    /// at once, until nothing grows; then every white cell must be reached.
    fn regions_ok(&self, state: &[Cell], rows: usize, last: bool) -> bool {
        let cols = self.cols;
        let mut white = [0u64; 64];
        for (r, w) in white.iter_mut().enumerate().take(rows) {
            for c in 0..cols {
                *w |= u64::from(state[r * cols + c] == Cell::White) << c;
            }
        }
        let white = &white[..rows];
        let mut reached = [0u64; 64];
        let reached = &mut reached[..rows];
        if last {
            match white.iter().position(|&w| w != 0) {
                Some(r) => reached[r] = white[r] & white[r].wrapping_neg(),
                None => return false, // no region at all
            }
        } else {
            reached[rows - 1] = white[rows - 1];
        }
        let grow = |reached: &mut [u64], r: usize| {
            let mut g = reached[r] | reached[r] << 1 | reached[r] >> 1;
            if r > 0 {
                g |= reached[r - 1];
            }
            if r + 1 < rows {
                g |= reached[r + 1];
            }
            let g = g & white[r];
            let grew = g != reached[r];
            reached[r] = g;
            grew
        };
        loop {
            let mut grew = false;
            for r in (0..rows).rev() {
                grew |= grow(reached, r);
            }
            for r in 0..rows {
                grew |= grow(reached, r);
            }
            if !grew {
                return reached == white;
            }
        }
    }

    fn count(&self, state: &mut [Cell], mut at: usize) -> u64 {
        let n = self.rows * self.cols;
        loop {
            if at > 0
                && at.is_multiple_of(self.cols)
                && !self.regions_ok(state, at / self.cols, at == n)
            {
                return 0;
            }
            if at == n {
                let hidden = (0..n).all(|i| {
                    state[i] != Cell::Shaded
                        || self.mates[i].iter().any(|&j| state[j] == Cell::White)
                });
                return u64::from(hidden);
            }
            if state[at] == Cell::Open {
                break;
            }
            at += 1;
        }
        let mut total = 0;
        for to in [Cell::White, Cell::Shaded] {
            let mut next = state.to_vec();
            if self.decide(&mut next, at, to) {
                total += self.count(&mut next, at + 1);
            }
        }
        total
    }

    fn solutions(&self) -> u64 {
        let mut state = vec![Cell::Open; self.rows * self.cols];
        // A cell with no equal in its lines can hide no duplicate: unshaded.
        for i in 0..state.len() {
            if self.mates[i].is_empty() && !self.decide(&mut state, i, Cell::White) {
                return 0;
            }
        }
        self.count(&mut state, 0)
    }
}

fn count_file(path: &Path) -> u64 {
    Puzzle::parse(&std::fs::read_to_string(path).unwrap()).solutions()
}

#[test]
fn every_count_in_counts_tsv() {
    let dir = crate::common::root().join("examples/hitori/seed");
    let table = std::fs::read_to_string(dir.join("counts.tsv")).unwrap();
    let mut checked = 0;
    for line in table.lines().filter(|l| !l.trim().is_empty()) {
        let (name, count) = line.split_once(char::is_whitespace).unwrap();
        let t = std::time::Instant::now();
        let got = count_file(&dir.join(format!("{name}.txt")));
        eprintln!("{name}: {got} in {:?}", t.elapsed());
        assert_eq!(got, count.trim().parse::<u64>().unwrap(), "{name}");
        checked += 1;
    }
    assert_eq!(checked, 18);
}

#[test]
fn open_grids() {
    let dir = crate::common::root().join("examples/hitori");
    assert_eq!(count_file(&dir.join("open-16x16-small.txt")), 146_880);
}

#[test]
fn tiny_grids() {
    // 1 1 / 1 1: each line needs one shaded cell, so a diagonal is shaded
    // and the other two cells are cut apart.
    assert_eq!(Puzzle::parse("1 1\n1 1\n").solutions(), 0);
    // 1 1 / 2 1: only the top right shaded works (the top left shaded
    // leaves column 2 with two 1s, the bottom right row 1; both corners
    // leave the 2 and the top right 1 apart).
    assert_eq!(Puzzle::parse("1 1\n2 1\n").solutions(), 1);
}
