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
//!   n - 1 - bound1`. Rows `1..bound1` keep their queens off the two edge
//!   columns, row `bound2 = n - 1 - bound1` needs an edge column taken by
//!   then, and the last row keeps off the `bound1` columns nearest each
//!   edge: the first row's queen is then nearest an edge of all four edge
//!   queens, which leaves only symmetric boards to tell apart. A complete
//!   board's rotations are compared with it ([`check`]), which keeps the
//!   smallest of its class and finds the class's size.
//!
//! Each representative is counted with the size of its class, so the
//! totals equal the plain count (tested against OEIS A000170).

use super::constrained;

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
    /// Counts with `constrained.rs` below its cut-off (always, but in
    /// tests that ask for the row-order walk alone).
    constrained: bool,
    /// The instructions `constrained.rs` uses.
    path: crate::engine::simd::Level,
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
            constrained: true,
            path: constrained::path(),
        }
    }

    /// The same bounds, counted on `path` (tests force each).
    pub(super) fn on_path(self, path: crate::engine::simd::Level) -> Bounds {
        Bounds { path, ..self }
    }

    /// The path `constrained.rs` takes.
    pub(super) fn path(&self) -> crate::engine::simd::Level {
        self.path
    }

    /// The same bounds, counted by the row-order walk alone.
    pub(super) fn row_order(self) -> Bounds {
        Bounds {
            constrained: false,
            ..self
        }
    }

    pub(super) fn last(&self) -> u32 {
        self.last
    }

    pub(super) fn all(&self) -> u32 {
        self.all
    }

    /// The squares of `row` a board of `class` may use at all, whatever
    /// the rows above hold (for `constrained.rs`; [`Bounds::side`] asks
    /// instead, at row `bound2`, that both edge columns be taken by then,
    /// which with every column taken once is the same set of boards).
    pub(super) fn row_mask(&self, class: Class, row: u32) -> u32 {
        match class {
            Class::Corner => self.corner(row, self.all),
            Class::Side if row == self.last => self.all & !self.last_mask,
            Class::Side if row < self.bound1 || row > self.bound2 => self.all & !self.side,
            Class::Side | Class::Plain => self.all,
        }
    }

    /// Whether the count below row `y` goes to `constrained.rs`.
    #[inline(always)]
    fn hands_over(&self, y: u32) -> bool {
        self.constrained && y >= 1 && self.last + 1 - y <= constrained::LANES
    }

    /// The squares of row `y` a Corner board may use, of `free`.
    #[inline(always)]
    pub(super) fn corner(&self, y: u32, free: u32) -> u32 {
        if y < self.bound1 { free & !2 } else { free }
    }

    /// The squares of row `y` a Side board with columns `cols` taken may
    /// use, of `free`.
    #[inline(always)]
    pub(super) fn side(&self, y: u32, cols: u32, free: u32) -> u32 {
        if y == self.last {
            if free & self.last_mask != 0 { 0 } else { free }
        } else if y < self.bound1 {
            free & !self.side
        } else if y == self.bound2 {
            match cols & self.side {
                0 => 0,
                s if s == self.side => free,
                _ => free & self.side,
            }
        } else {
            free
        }
    }

    /// How many boards the complete Side board `board` (its queen's bit in
    /// each row) stands for: 2, 4 or 8 when it is the smallest of its
    /// class under rotation, 0 when a rotation of it is smaller (that one
    /// is counted instead).
    pub(super) fn check(&self, board: &[u32]) -> u64 {
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

/// Running totals of a counter.
#[derive(Debug, Default)]
pub(super) struct Tally {
    pub solutions: u64,
    pub nodes: u64,
}

/// Counts the Corner boards below row `y` (masks of row `y`'s attacks),
/// each with weight 8, adding every board placed to `t.nodes`. The last
/// two rows are fused: a next-to-last queen leads to as many boards as the
/// last row has free squares. Once at most 16 rows are left, and the
/// processor has AVX-512, `constrained.rs` counts the rest.
pub(super) fn count_corner(b: &Bounds, y: u32, cols: u32, left: u32, right: u32, t: &mut Tally) {
    if b.hands_over(y) {
        constrained::count(Class::Corner, b, y, cols, left, right, [0; 32], t);
        return;
    }
    let mut free = b.corner(y, b.all & !(cols | left | right));
    if y == b.last {
        let last = free.count_ones() as u64;
        t.nodes += last;
        t.solutions += 8 * last;
        return;
    }
    if y + 1 == b.last {
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let next =
                b.all & !((cols | bit) | (((left | bit) << 1) & b.all) | ((right | bit) >> 1));
            let last = b.corner(y + 1, next).count_ones() as u64;
            t.nodes += 1 + last;
            t.solutions += 8 * last;
        }
        return;
    }
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        t.nodes += 1;
        count_corner(
            b,
            y + 1,
            cols | bit,
            ((left | bit) << 1) & b.all,
            (right | bit) >> 1,
            t,
        );
    }
}

/// Counts the Side boards below row `y` (masks of row `y`'s attacks),
/// `board` holding the queens of the rows above (bits), each complete
/// board with the weight [`Bounds::check`] gives it, adding every board
/// placed to `t.nodes`. Once at most 16 rows are left, and the processor
/// has AVX-512, `constrained.rs` counts the rest.
pub(super) fn count_side(
    b: &Bounds,
    y: u32,
    cols: u32,
    left: u32,
    right: u32,
    board: [u32; 32],
    t: &mut Tally,
) {
    let mut walk = SideWalk {
        b: *b,
        board,
        t: Tally::default(),
    };
    walk.below(y, cols, left, right);
    t.nodes += walk.t.nodes;
    t.solutions += walk.t.solutions;
}

/// A Side search's state in one place, so that its recursion passes only
/// the row and the three masks.
struct SideWalk {
    b: Bounds,
    board: [u32; 32],
    t: Tally,
}

impl SideWalk {
    fn below(&mut self, y: u32, cols: u32, left: u32, right: u32) {
        if self.b.hands_over(y) {
            let b = self.b;
            constrained::count(
                Class::Side,
                &b,
                y,
                cols,
                left,
                right,
                self.board,
                &mut self.t,
            );
            return;
        }
        let all = self.b.all;
        let mut free = self.b.side(y, cols, all & !(cols | left | right));
        if y == self.b.last {
            if free != 0 {
                self.leaf(free);
            }
            return;
        }
        self.t.nodes += free.count_ones() as u64;
        if y + 1 == self.b.last {
            // The last row with its parent: one free square at most.
            while free != 0 {
                let bit = free & free.wrapping_neg();
                free ^= bit;
                let f = all & !((cols | bit) | (((left | bit) << 1) & all) | ((right | bit) >> 1));
                if f != 0 && f & self.b.last_mask == 0 {
                    self.board[y as usize] = bit;
                    self.leaf(f);
                }
            }
            return;
        }
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.board[y as usize] = bit;
            self.below(
                y + 1,
                cols | bit,
                ((left | bit) << 1) & all,
                (right | bit) >> 1,
            );
        }
    }

    /// A complete board, its last row's queen on `bit`.
    #[inline]
    fn leaf(&mut self, bit: u32) {
        let last = self.b.last as usize;
        self.board[last] = bit;
        self.t.nodes += 1;
        self.t.solutions += self.b.check(&self.board[..=last]);
    }
}
