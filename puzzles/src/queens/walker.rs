//! The N-Queens tree, and a worker's state that moves down it in place.
//!
//! A partial board is held as what is left of each row not yet filled
//! (its free squares, as the case's masks and the queens placed leave
//! them) and the columns not yet taken: a [`Frame`]. Its children fill one
//! row, one per free square, lowest column first:
//! - while more than [`LANES`] rows are left, the lowest row left;
//! - then the row with the fewest free squares, the lowest of a tie.
//!
//! A board has no children when a row left has no free square, or the
//! rows left together miss a column not taken (the forward check): no
//! queen can be placed in that row, or in that column, below it.
//! `constrained.rs` counts the same tree below a board with at most
//! [`LANES`] rows left.

use super::MAX_N;
use super::constrained::LANES;
use super::symmetry::{Bounds, Class};

const ROWS: usize = MAX_N as usize;

/// A partial board: the free squares of each row, and what is left.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    /// The free squares of each row not yet filled (0 once filled).
    pub(super) free: [u32; ROWS],
    /// The rows not yet filled.
    pub(super) open: u32,
    /// The columns not yet taken.
    pub(super) unused: u32,
}

impl Frame {
    /// The empty n x n board of a case: each row's squares are its mask.
    pub(super) fn empty(n: u32, bounds: &Bounds, class: Class) -> Frame {
        let mut free = [0; ROWS];
        for (r, f) in free.iter_mut().enumerate().take(n as usize) {
            *f = bounds.row_mask(class, r as u32);
        }
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        Frame {
            free,
            open: all,
            unused: all,
        }
    }

    /// This board with a queen on `bit` in `row`: every row left loses the
    /// queen's column and its two diagonals.
    #[inline]
    pub(super) fn place(&self, row: u32, bit: u32) -> Frame {
        let mut next = *self;
        next.open &= !(1 << row);
        next.unused &= !bit;
        next.free[row as usize] = 0;
        let mut left = next.open;
        while left != 0 {
            let r = left.trailing_zeros();
            left &= left - 1;
            let d = r.abs_diff(row);
            next.free[r as usize] &= !(bit | bit << d | bit >> d);
        }
        next
    }

    /// The forward check: every row left has a free square, and together
    /// they cover the columns not taken.
    #[inline]
    pub(super) fn fits(&self) -> bool {
        let mut all = 0;
        let mut left = self.open;
        while left != 0 {
            let f = self.free[left.trailing_zeros() as usize];
            left &= left - 1;
            if f == 0 {
                return false;
            }
            all |= f;
        }
        all == self.unused
    }

    /// The row the children fill (see the module's text); `open` is not 0.
    #[inline]
    pub(super) fn next_row(&self) -> u32 {
        if self.open.count_ones() > LANES {
            return self.open.trailing_zeros();
        }
        let mut best = u32::MAX;
        let mut left = self.open;
        while left != 0 {
            let r = left.trailing_zeros();
            left &= left - 1;
            let key = self.free[r as usize].count_ones() << 5 | r;
            if key < best {
                best = key;
                if key < 2 << 5 {
                    break; // One free square: no row has fewer.
                }
            }
        }
        best & 31
    }
}

/// A worker's state: the frames from its task's board down to the one it
/// stands on, the queen of each filled row, the board's case, and whether
/// its tree folds symmetric boards (a count of a `symmetric` instance).
pub struct Walker {
    pub(super) frames: Vec<Frame>,
    /// The queen (a bit) of each filled row.
    pub(super) board: [u32; ROWS],
    pub(super) class: Class,
    pub(super) bound1: u8,
    pub(super) bounds: Bounds,
    pub(super) symmetric: bool,
}

impl Walker {
    pub(super) fn new(n: u32, symmetric: bool) -> Walker {
        let bounds = Bounds::new(n, 0);
        Walker {
            frames: vec![Frame::empty(n, &bounds, Class::Plain)],
            board: [0; ROWS],
            class: Class::Plain,
            bound1: 0,
            bounds,
            symmetric,
        }
    }

    /// The board the state stands on.
    #[inline]
    pub(super) fn top(&self) -> &Frame {
        self.frames
            .last()
            .expect("the engine loads a board before it walks")
    }

    /// Whether the moves from the board it stands on are the symmetry
    /// classes (the root of a folding count, the one board of no case).
    #[inline]
    pub(super) fn at_classes(&self) -> bool {
        self.symmetric && self.class == Class::Plain
    }

    /// Goes to a board of `class` with the queens `(row, column)`, on top
    /// of the frames it has.
    pub(super) fn enter(&mut self, n: u32, class: Class, bound1: u8, queens: &[(u32, u32)]) {
        self.class = class;
        self.bound1 = bound1;
        self.bounds = Bounds::new(n, u32::from(bound1));
        let mut frame = Frame::empty(n, &self.bounds, class);
        for &(row, col) in queens {
            frame = frame.place(row, 1 << col);
            self.board[row as usize] = 1 << col;
        }
        self.frames.push(frame);
    }
}
