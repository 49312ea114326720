//! Tilings of a rectangle by a flat piece set, counted by a plain search:
//! the first empty cell in row-major order (rows along the short side) is
//! covered by every placement whose first cell it is. Orientations come from
//! this file's own rotation and reflection, not from the solver's geometry.
//! Distinct tilings are counted as orbits under the rectangle's symmetries
//! by keeping the solutions and comparing each with its images.

use std::collections::HashSet;

/// The pieces of a `.pieces` file: (name, cells).
fn pieces(path: &str) -> Vec<(String, Vec<(i32, i32)>)> {
    let text = std::fs::read_to_string(crate::common::root().join(path)).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| {
            let mut words = l.split_whitespace();
            let name = words.next().unwrap().to_string();
            let cells = words
                .map(|w| {
                    let xy: Vec<i32> = w.split(',').map(|v| v.parse().unwrap()).collect();
                    assert_eq!(xy.len(), 2, "flat pieces only");
                    (xy[0], xy[1])
                })
                .collect();
            (name, cells)
        })
        .collect()
}

/// The distinct shapes of a flat piece turned and turned over, each moved
/// to touch both axes and sorted.
fn shapes(cells: &[(i32, i32)]) -> Vec<Vec<(i32, i32)>> {
    let mut out: Vec<Vec<(i32, i32)>> = Vec::new();
    let mut cur: Vec<(i32, i32)> = cells.to_vec();
    for flip in 0..2 {
        for _ in 0..4 {
            cur = cur.iter().map(|&(x, y)| (-y, x)).collect();
            let (mx, my) = (
                cur.iter().map(|c| c.0).min().unwrap(),
                cur.iter().map(|c| c.1).min().unwrap(),
            );
            let mut s: Vec<(i32, i32)> = cur.iter().map(|&(x, y)| (x - mx, y - my)).collect();
            s.sort_by_key(|&(x, y)| (y, x));
            if !out.contains(&s) {
                out.push(s);
            }
        }
        if flip == 0 {
            cur = cur.iter().map(|&(x, y)| (-x, y)).collect();
        }
    }
    out
}

struct Tiler {
    w: usize,
    cells: usize,
    /// placements[cell]: (piece, mask) with `cell` the mask's lowest bit.
    placements: Vec<Vec<(usize, u64)>>,
    board: Vec<u8>,
    solutions: Vec<Vec<u8>>,
}

impl Tiler {
    /// `w` columns (the short side) by `h` rows.
    fn new(set: &[(String, Vec<(i32, i32)>)], w: usize, h: usize) -> Tiler {
        let mut placements = vec![Vec::new(); w * h];
        for (k, (_, cells)) in set.iter().enumerate() {
            for s in shapes(cells) {
                for y0 in 0..h as i32 {
                    for x0 in 0..w as i32 {
                        let fits = s.iter().all(|&(x, y)| {
                            (0..w as i32).contains(&(x + x0)) && (0..h as i32).contains(&(y + y0))
                        });
                        if fits {
                            let mask = s.iter().fold(0u64, |m, &(x, y)| {
                                m | 1 << ((x + x0) as usize + w * (y + y0) as usize)
                            });
                            placements[mask.trailing_zeros() as usize].push((k, mask));
                        }
                    }
                }
            }
        }
        Tiler {
            w,
            cells: w * h,
            placements,
            board: vec![0; w * h],
            solutions: Vec::new(),
        }
    }

    fn search(&mut self, full: u64, used: u32) {
        if full.count_ones() as usize == self.cells {
            self.solutions.push(self.board.clone());
            return;
        }
        let cell = (!full).trailing_zeros() as usize;
        for i in 0..self.placements[cell].len() {
            let (k, mask) = self.placements[cell][i];
            if used & (1 << k) == 0 && full & mask == 0 {
                for b in 0..self.cells {
                    if mask >> b & 1 == 1 {
                        self.board[b] = k as u8;
                    }
                }
                self.search(full | mask, used | 1 << k);
            }
        }
    }

    /// The tiling seen after the rectangle's symmetry `s` (0..4: identity,
    /// half turn, mirror in x, mirror in y).
    fn image(&self, t: &[u8], s: usize) -> Vec<u8> {
        let h = self.cells / self.w;
        let mut out = vec![0; self.cells];
        for y in 0..h {
            for x in 0..self.w {
                let (ix, iy) = match s {
                    0 => (x, y),
                    1 => (self.w - 1 - x, h - 1 - y),
                    2 => (self.w - 1 - x, y),
                    _ => (x, h - 1 - y),
                };
                out[ix + self.w * iy] = t[x + self.w * y];
            }
        }
        out
    }

    /// (all tilings, tilings up to the rectangle's 4 symmetries).
    fn count(mut self) -> (usize, usize) {
        self.search(0, 0);
        let all: HashSet<&Vec<u8>> = self.solutions.iter().collect();
        assert_eq!(all.len(), self.solutions.len(), "a tiling found twice");
        let orbits = self
            .solutions
            .iter()
            .filter(|t| (1..4).all(|s| self.image(t, s) >= **t))
            .count();
        (self.solutions.len(), orbits)
    }
}

#[test]
fn iq_fit_board() {
    let set = pieces("puzzles/src/pack/sets/iqfit-11x5.pieces");
    assert_eq!(set.len(), 12);
    assert_eq!(Tiler::new(&set, 5, 11).count(), (371_020, 92_755));
}

#[test]
fn pentomino_rectangles() {
    let set = pieces("puzzles/src/pack/sets/pentominoes.pieces");
    assert_eq!(Tiler::new(&set, 6, 10).count(), (9356, 2339));
    assert_eq!(Tiler::new(&set, 3, 20).count(), (8, 2));
}
