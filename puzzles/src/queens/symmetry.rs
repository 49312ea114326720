//! Counting one board of each symmetry class (Takaken's method), for count
//! mode. The 8 symmetries of the square (rotations by 90, 180 and 270
//! degrees, and their mirror images) map solutions to solutions; a class
//! has 8 members, or 4 when a 180-degree rotation fixes its boards, or 2
//! when a 90-degree rotation does. The search visits one representative
//! per class and counts it with its class's size.
//!
//! - **Corner**: the first row's queen in column 0. No other queen lies
//!   on a corner then, so no rotation fixes the board: every class has 8
//!   members. Its mirror image in the main diagonal also has a queen in
//!   the corner; rows `1..bound1` (where `bound1` is the second row's
//!   column) leave column 1 free, which keeps one of the two.
//! - **Side**: the first row's queen in column `bound1`, `1 <= bound1 <
//!   n - 1 - bound1`. Rows `1..bound1` and the rows after `bound2 = n - 1 -
//!   bound1` keep their queens off the two edge columns (so that rows
//!   `bound1..=bound2` take both), and the last row keeps off the `bound1`
//!   columns nearest each edge: the first row's queen is then nearest an edge of all four edge
//!   queens, which leaves only symmetric boards to tell apart. A complete
//!   board's rotations are compared with it ([`Bounds::check`]), which keeps the
//!   smallest of its class and finds the class's size.
//!
//! Each representative is counted with the size of its class, so the
//! totals equal the plain count (tested against OEIS A000170). Every rule
//! is a mask of a row ([`Bounds::row_mask`]), whichever order the rows are
//! filled in.

/// The search a board belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    /// Every board (modes that list solutions).
    Plain,
    /// Takaken's first case: a queen in the corner of the first row.
    Corner,
    /// Takaken's second case: the first row's queen in column `bound1`.
    Side,
}

impl Class {
    pub(super) fn code(self) -> u8 {
        self as u8
    }

    pub(super) fn from_code(code: u8) -> Option<Class> {
        [Class::Plain, Class::Corner, Class::Side]
            .get(code as usize)
            .copied()
    }
}

/// The masks of one class search on an n x n board.
#[derive(Debug, Clone, Copy)]
pub(super) struct Bounds {
    /// The last row's index (n - 1).
    last: u32,
    all: u32,
    bound1: u32,
    bound2: u32,
    /// The two edge columns.
    side: u32,
    /// Columns the last row may not use (Side): `bound1` at each edge.
    last_mask: u32,
    top: u32,
    /// The column a 180-degree symmetric board has in its last row.
    end: u32,
}

impl Bounds {
    pub(super) fn new(n: u32, bound1: u32) -> Bounds {
        let last = n - 1;
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let top = 1u32 << last;
        let edge = |k: u32| if k == 0 { 0 } else { (1u32 << k) - 1 };
        // `bound1` columns at the low edge, and as many at the high one.
        let last_mask = edge(bound1.min(n)) | (edge(bound1.min(n)) << (n - bound1.min(n)));
        Bounds {
            last,
            all,
            bound1,
            bound2: last.saturating_sub(bound1),
            side: top | 1,
            last_mask,
            top,
            end: top >> bound1.min(31),
        }
    }

    pub(super) fn last(&self) -> u32 {
        self.last
    }

    /// The squares of `row` a board of `class` may use at all, whatever
    /// the other rows hold. A Corner board keeps column 1 free in rows
    /// `1..bound1`; a Side board keeps the edge columns free in rows
    /// `1..bound1` and `bound2 + 1..n`, and its last row off `last_mask`.
    /// (Takaken's row-order walk asks instead, at row `bound2`, that an
    /// edge column be taken by then: with every column taken once, that
    /// is the same set of complete boards.)
    pub(super) fn row_mask(&self, class: Class, row: u32) -> u32 {
        match class {
            Class::Corner if row < self.bound1 => self.all & !2,
            Class::Side if row == self.last => self.all & !self.last_mask,
            Class::Side if row < self.bound1 || row > self.bound2 => self.all & !self.side,
            Class::Corner | Class::Side | Class::Plain => self.all,
        }
    }

    /// How many boards the complete board `board` (its queen's bit in
    /// each row) of `class` stands for: 1 for a Plain board, 8 for a
    /// Corner one, and for a Side one [`Bounds::check`]'s.
    #[inline]
    pub(super) fn weight(&self, class: Class, board: &[u32]) -> u64 {
        match class {
            Class::Plain => 1,
            Class::Corner => 8,
            Class::Side => self.check(board),
        }
    }

    /// How many boards the complete Side board `board` (its queen's bit in
    /// each row) stands for: 2, 4 or 8 when it is the smallest of its
    /// class under rotation, 0 when a rotation of it is smaller (that one
    /// is counted instead).
    fn check(&self, board: &[u32]) -> u64 {
        let last = self.last as usize;
        // 90 degrees: compare row `own` of the board with column `ptn`
        // read from the other side.
        if board[self.bound2 as usize] == 1 {
            let (mut own, mut ptn) = (1, 2u32);
            while own <= last {
                let (mut bit, mut you) = (1u32, last);
                while board[you] != ptn && board[own] >= bit {
                    bit <<= 1;
                    you -= 1;
                }
                if board[own] > bit {
                    return 0;
                }
                if board[own] < bit {
                    break;
                }
                own += 1;
                ptn <<= 1;
            }
            if own > last {
                return 2;
            }
        }
        // 180 degrees.
        if board[last] == self.end {
            let (mut own, mut you) = (1, last - 1);
            while own <= last {
                let (mut bit, mut ptn) = (1u32, self.top);
                while board[you] != ptn && board[own] >= bit {
                    bit <<= 1;
                    ptn >>= 1;
                }
                if board[own] > bit {
                    return 0;
                }
                if board[own] < bit {
                    break;
                }
                own += 1;
                you = you.wrapping_sub(1);
            }
            if own > last {
                return 4;
            }
        }
        // 270 degrees.
        if board[self.bound1 as usize] == self.top {
            let (mut own, mut ptn) = (1, self.top >> 1);
            while own <= last {
                let (mut bit, mut you) = (1u32, 0);
                while board[you] != ptn && board[own] >= bit {
                    bit <<= 1;
                    you += 1;
                }
                if board[own] > bit {
                    return 0;
                }
                if board[own] < bit {
                    break;
                }
                own += 1;
                ptn >>= 1;
            }
        }
        8
    }
}
