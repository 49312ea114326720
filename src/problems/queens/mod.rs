//! N-Queens: place n queens on an n x n board, none attacking another.
//!
//! Bitboard layout: a partial board of `row` queens is three masks of the
//! next row's columns, one bit per column: `cols` (taken columns), `left` and
//! `right` (squares attacked along the two diagonals). Moving to the next row
//! shifts `left` up and `right` down by one column. The free squares of the
//! next row are `all & !(cols | left | right)`.
//!
//! Mirror symmetry (count mode only): every solution with its first-row queen
//! in the left half has a mirror image with it in the right half, so the
//! first row only tries the left half, with weight 2, plus the middle column
//! (odd n) with weight 1. Counts equal the plain count (tested).

pub mod door;
pub mod solution;

pub use solution::verify;

use crate::engine::{Problem, SubtreeCount};
use crate::problems::PuzzleError;

/// The largest board: columns are bits of a `u32`.
pub const MAX_N: u32 = 32;

/// An N-Queens instance.
#[derive(Debug, Clone)]
pub struct Queens {
    n: u32,
    all: u32,
    mirror: bool,
}

/// A partial board: the first `row` rows hold a queen each.
#[derive(Debug, Clone, Copy)]
pub struct Board {
    cols: u32,
    left: u32,
    right: u32,
    row: u8,
    /// Solutions each completion of this board stands for (1, or 2 under mirroring).
    weight: u8,
    /// Column of the queen in each placed row.
    queens: [u8; MAX_N as usize],
}

impl Queens {
    /// An instance on an n x n board. `mirror` folds mirror-image solutions
    /// together (for counting only: boards are then missing from the tree).
    ///
    /// ```
    /// use hysolve::problems::queens::Queens;
    /// use hysolve::engine::{Mode, sequential};
    ///
    /// let (counted, _) = sequential(&Queens::new(8, true).unwrap(), Mode::Count);
    /// assert_eq!(counted.solutions, 92);
    /// assert!(Queens::new(33, false).is_err());
    /// ```
    pub fn new(n: u32, mirror: bool) -> Result<Self, PuzzleError> {
        if !(1..=MAX_N).contains(&n) {
            return Err(PuzzleError::Argument(format!(
                "queens: N must be between 1 and {MAX_N}, got {n}"
            )));
        }
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        Ok(Queens { n, all, mirror })
    }
}

/// Running totals of the hot loop.
struct Tally {
    solutions: u64,
    nodes: u64,
}

/// Counts the completions of the board (`cols`, `left`, `right`) that has
/// `rows_left >= 2` rows still to fill, adding every board visited below it
/// to `t.nodes`. The last two rows are fused: each free square of the
/// next-to-last row leads to as many solutions as its last row has free
/// squares, counted by one popcount.
fn count_below(all: u32, cols: u32, left: u32, right: u32, rows_left: u32, t: &mut Tally) {
    let mut free = all & !(cols | left | right);
    if rows_left == 2 {
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let last = (all & !((cols | bit) | ((left | bit) << 1) | ((right | bit) >> 1)))
                .count_ones() as u64;
            t.nodes += 1 + last;
            t.solutions += last;
        }
        return;
    }
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        t.nodes += 1;
        count_below(
            all,
            cols | bit,
            (left | bit) << 1,
            (right | bit) >> 1,
            rows_left - 1,
            t,
        );
    }
}

impl Problem for Queens {
    /// A board travels as its three masks, row, weight and queens.
    const ENCODES: bool = true;

    fn encode(&self, b: &Board, out: &mut Vec<u8>) {
        for mask in [b.cols, b.left, b.right] {
            out.extend_from_slice(&mask.to_le_bytes());
        }
        out.extend_from_slice(&[b.row, b.weight]);
        out.extend_from_slice(&b.queens[..b.row as usize]);
    }

    fn decode(&self, bytes: &[u8]) -> Option<Board> {
        let word = |i: usize| {
            Some(u32::from_le_bytes(
                bytes.get(4 * i..4 * i + 4)?.try_into().ok()?,
            ))
        };
        let (row, weight) = (*bytes.get(12)?, *bytes.get(13)?);
        let placed = bytes.get(14..)?;
        if placed.len() != row as usize || u32::from(row) > self.n || !(1..=2).contains(&weight) {
            return None;
        }
        let mut queens = [0u8; MAX_N as usize];
        queens[..placed.len()].copy_from_slice(placed);
        Some(Board {
            cols: word(0)?,
            left: word(1)?,
            right: word(2)?,
            row,
            weight,
            queens,
        })
    }

    type Node = Board;

    fn name(&self) -> &'static str {
        "queens"
    }

    fn instance(&self) -> String {
        self.n.to_string()
    }

    fn root(&self) -> Board {
        Board {
            cols: 0,
            left: 0,
            right: 0,
            row: 0,
            weight: 1,
            queens: [0; MAX_N as usize],
        }
    }

    fn children(&self, b: &Board, out: &mut Vec<Board>) {
        if b.row as u32 == self.n {
            return;
        }
        let mut free = self.all & !(b.cols | b.left | b.right);
        let half = self.n / 2;
        if self.mirror && b.row == 0 {
            let middle = if self.n % 2 == 1 { 1 << half } else { 0 };
            free &= ((1u32 << half) - 1) | middle;
        }
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let col = bit.trailing_zeros();
            let mut child = *b;
            child.cols |= bit;
            child.left = ((b.left | bit) << 1) & self.all;
            child.right = (b.right | bit) >> 1;
            child.queens[b.row as usize] = col as u8;
            child.row = b.row + 1;
            if self.mirror && b.row == 0 {
                child.weight = if col < half { 2 } else { 1 };
            }
            out.push(child);
        }
    }

    fn solution_weight(&self, b: &Board) -> u64 {
        if b.row as u32 == self.n {
            b.weight as u64
        } else {
            0
        }
    }

    fn render(&self, b: &Board, out: &mut String) {
        for row in 0..self.n as usize {
            if row > 0 {
                out.push('\n');
            }
            for col in 0..self.n as u8 {
                out.push(if b.queens[row] == col { 'Q' } else { '.' });
            }
        }
    }

    /// Below this depth the iterative counter takes over: about 11 rows
    /// left, so one call takes tens of microseconds, short enough for
    /// donation to balance the tail.
    fn count_cutoff(&self) -> Option<usize> {
        Some(self.n.saturating_sub(11).max(1) as usize)
    }

    fn count_subtree(&self, b: &Board) -> SubtreeCount {
        let rows_left = self.n - b.row as u32;
        let (solutions, nodes) = match rows_left {
            0 => (1, 1),
            1 => {
                let free = (self.all & !(b.cols | b.left | b.right)).count_ones() as u64;
                (free, 1 + free)
            }
            _ => {
                let mut t = Tally {
                    solutions: 0,
                    nodes: 1,
                };
                count_below(self.all, b.cols, b.left, b.right, rows_left, &mut t);
                (t.solutions, t.nodes)
            }
        };
        SubtreeCount {
            solutions: solutions * b.weight as u64,
            nodes,
            depth: None,
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::engine::{Mode, sequential};

    /// OEIS A000170.
    const A000170: [u64; 13] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];

    #[test]
    fn counts_match_oeis_with_and_without_mirror() {
        for n in 1..=12u32 {
            let expect = A000170[n as usize - 1];
            for mirror in [false, true] {
                let q = Queens::new(n, mirror).unwrap();
                let (c, _) = sequential(&q, Mode::Count);
                assert_eq!(c.solutions, expect, "n={n} mirror={mirror}");
            }
        }
    }

    #[test]
    fn fast_counter_agrees_with_generic_walk() {
        // The default count_subtree (generic) against the iterative one, node counts included.
        for n in 1..=10u32 {
            let q = Queens::new(n, true).unwrap();
            let mut buf = Vec::new();
            q.children(&q.root(), &mut buf);
            let mut buf2 = Vec::new();
            for child in buf.iter().take(3) {
                buf2.clear();
                q.children(child, &mut buf2);
                for b in buf2.iter().chain(std::iter::once(child)) {
                    let fast = q.count_subtree(b);
                    let mut generic = SubtreeCount::default();
                    let mut stack = vec![*b];
                    let mut kids = Vec::new();
                    while let Some(x) = stack.pop() {
                        generic.nodes += 1;
                        generic.solutions += q.solution_weight(&x);
                        kids.clear();
                        q.children(&x, &mut kids);
                        stack.extend_from_slice(&kids);
                    }
                    assert_eq!(fast, generic, "n={n}");
                }
            }
        }
    }

    #[test]
    fn every_board_of_all_mode_verifies() {
        let q = Queens::new(8, false).unwrap();
        let (c, boards) = sequential(&q, Mode::All);
        assert_eq!(c.solutions, 92);
        assert_eq!(boards.len(), 92);
        let distinct: std::collections::HashSet<_> = boards.iter().collect();
        assert_eq!(distinct.len(), 92);
        for b in &boards {
            verify(8, b).unwrap();
        }
    }

    #[test]
    fn verifier_rejects_attacks() {
        assert!(verify(4, ".Q..\n...Q\nQ...\n..Q.").is_ok());
        assert!(verify(4, "Q...\n.Q..\n..Q.\n...Q").is_err());
        assert!(verify(4, ".Q..\n...Q\nQ...").is_err());
    }

    #[test]
    fn rejects_sizes_out_of_range() {
        assert!(Queens::new(0, false).is_err());
        assert!(Queens::new(33, false).is_err());
        assert!(Queens::new(32, true).is_ok());
    }
}
