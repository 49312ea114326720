//! N-Queens: place n queens on an n x n board, none attacking another.
//!
//! Bitboard layout: a partial board of `row` queens is three masks of the
//! next row's columns, one bit per column: `cols` (taken columns), `left` and
//! `right` (squares attacked along the two diagonals). Moving to the next row
//! shifts `left` up and `right` down by one column. The free squares of the
//! next row are `all & !(cols | left | right)`.
//!
//! Symmetry (count mode only): one board of each class of the square's 8
//! symmetries is searched and counted with its class's size, by Takaken's
//! method (`symmetry.rs`). Below the root, the tree of a count has the
//! Corner searches (first queen in the corner, second in column `b`), then
//! the Side searches (first queen in column `b`). Counts equal the plain
//! count (tested against OEIS A000170).
//!
//! Below a board of those cases, once at most 16 rows are left, the count
//! fills the most constrained row first and cuts a board as soon as a row
//! left has no free square (`constrained.rs`), on every processor: with
//! AVX-512, or on an array of rows compiled for x86-64-v3 or for the
//! baseline target, visiting the same boards.

mod constrained;
pub mod solution;
mod symmetry;

pub use solution::verify;

use crate::engine::{Mode, Problem, SubtreeCount};
use crate::problems::PuzzleError;
use symmetry::{Bounds, Class, Tally, count_corner, count_side};

/// The largest board: columns are bits of a `u32`.
pub const MAX_N: u32 = 32;

/// Below this size, a count searches every board (Takaken's cases need
/// room for a corner queen and a second-row queen off its diagonal).
const MIN_SYMMETRIC_N: u32 = 4;

/// An N-Queens instance.
#[derive(Debug, Clone)]
pub struct Queens {
    n: u32,
    all: u32,
    symmetric: bool,
    /// Counts by the row-order walk alone, never `constrained.rs` (tests).
    row_order: bool,
    /// The path `constrained.rs` takes (`None`: this process's, from
    /// `HYSOLVE_SIMD` and the processor; tests force each).
    path: Option<crate::engine::simd::Level>,
}

/// A partial board: the first `row` rows hold a queen each.
#[derive(Debug, Clone, Copy)]
pub struct Board {
    cols: u32,
    left: u32,
    right: u32,
    row: u8,
    /// The search the board belongs to, and its `bound1` (symmetry.rs).
    class: Class,
    bound1: u8,
    /// Column of the queen in each placed row.
    queens: [u8; MAX_N as usize],
}

impl Board {
    /// This board with a queen on `bit` in its next row.
    #[inline]
    fn place(&self, bit: u32, all: u32) -> Board {
        let mut child = *self;
        child.cols |= bit;
        child.left = ((self.left | bit) << 1) & all;
        child.right = (self.right | bit) >> 1;
        child.queens[self.row as usize] = bit.trailing_zeros() as u8;
        child.row = self.row + 1;
        child
    }

    /// The queen of each placed row as a bit.
    fn bits(&self) -> [u32; MAX_N as usize] {
        let mut board = [0; MAX_N as usize];
        for (b, &q) in board.iter_mut().zip(&self.queens[..self.row as usize]) {
            *b = 1 << q;
        }
        board
    }
}

impl Queens {
    /// An instance on an n x n board. With `symmetric`, a count searches
    /// one board of each symmetry class, counted with its class's size
    /// (counting only: the other modes list every board, whatever
    /// `symmetric` says; the tree is the mode's, [`Problem::state`]).
    ///
    /// ```
    /// use hysolve::problems::queens::Queens;
    /// use hysolve::engine::{Mode, sequential};
    ///
    /// let (counted, _) = sequential(&Queens::new(8, true).unwrap(), Mode::Count);
    /// assert_eq!(counted.solutions, 92);
    /// assert!(Queens::new(33, false).is_err());
    /// ```
    pub fn new(n: u32, symmetric: bool) -> Result<Self, PuzzleError> {
        if !(1..=MAX_N).contains(&n) {
            return Err(PuzzleError::Argument(format!(
                "queens: N must be between 1 and {MAX_N}, got {n}"
            )));
        }
        let all = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        Ok(Queens {
            n,
            all,
            symmetric: symmetric && n >= MIN_SYMMETRIC_N,
            row_order: false,
            path: None,
        })
    }

    fn bounds(&self, b: &Board) -> Bounds {
        let bounds = Bounds::new(self.n, b.bound1 as u32);
        let bounds = match self.path {
            Some(path) => bounds.on_path(path),
            None => bounds,
        };
        if self.row_order {
            bounds.row_order()
        } else {
            bounds
        }
    }

    /// How many searches [`Queens::classes`] lists.
    fn class_count(&self) -> u32 {
        let last = self.n - 1;
        let corners = last.saturating_sub(2);
        let sides = (1..last).take_while(|&b| b < last - b).count() as u32;
        corners + sides
    }

    /// The `i`-th board [`Queens::classes`] lists, made alone.
    fn class(&self, root: &Board, i: u32) -> Board {
        let corners = (self.n - 1).saturating_sub(2);
        if i < corners {
            let bound1 = 2 + i;
            let mut b = root.place(1, self.all).place(1 << bound1, self.all);
            b.class = Class::Corner;
            b.bound1 = bound1 as u8;
            b
        } else {
            let bound1 = 1 + i - corners;
            let mut b = root.place(1 << bound1, self.all);
            b.class = Class::Side;
            b.bound1 = bound1 as u8;
            b
        }
    }

    /// The root's children in a symmetric count: the Corner searches, then
    /// the Side searches.
    fn classes(&self, root: &Board, out: &mut Vec<Board>) {
        let last = self.n - 1;
        for bound1 in 2..last {
            let mut b = root.place(1, self.all).place(1 << bound1, self.all);
            b.class = Class::Corner;
            b.bound1 = bound1 as u8;
            out.push(b);
        }
        let mut bound1 = 1;
        while bound1 < last - bound1 {
            let mut b = root.place(1 << bound1, self.all);
            b.class = Class::Side;
            b.bound1 = bound1 as u8;
            out.push(b);
            bound1 += 1;
        }
    }
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

impl Queens {
    /// The boards with a queen more (the tests' reference for the moves),
    /// in the tree of a count that folds
    /// symmetric boards (`symmetric`, only where `self.symmetric`) or of a
    /// plain walk.
    #[cfg(test)]
    fn children(&self, b: &Board, out: &mut Vec<Board>, symmetric: bool) {
        let y = b.row as u32;
        if y == self.n {
            return;
        }
        if symmetric && y == 0 {
            return self.classes(b, out);
        }
        let free = self.all & !(b.cols | b.left | b.right);
        let mut free = match b.class {
            Class::Plain => free,
            Class::Corner => self.bounds(b).corner(y, free),
            Class::Side => self.bounds(b).side(y, b.cols, free),
        };
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            out.push(b.place(bit, self.all));
        }
    }

    /// How many solutions `b` stands for: 0 until it is complete.
    fn weight(&self, b: &Board) -> u64 {
        if b.row as u32 != self.n {
            return 0;
        }
        match b.class {
            Class::Plain => 1,
            Class::Corner => 8,
            Class::Side => self.bounds(b).check(&b.bits()[..self.n as usize]),
        }
    }

    /// `b` as rows of `.` and `Q`.
    fn draw(&self, b: &Board, out: &mut String) {
        for row in 0..self.n as usize {
            if row > 0 {
                out.push('\n');
            }
            for col in 0..self.n as u8 {
                out.push(if b.queens[row] == col { 'Q' } else { '.' });
            }
        }
    }

    /// Counts the subtree of `b` (of a count that folds symmetric
    /// boards, or not), itself included.
    fn count_board(&self, b: &Board, symmetric: bool) -> SubtreeCount {
        let y = b.row as u32;
        let mut t = Tally {
            solutions: self.weight(b),
            nodes: 1,
        };
        if y < self.n {
            match b.class {
                Class::Plain if symmetric && y == 0 => {
                    let mut classes = Vec::new();
                    self.classes(b, &mut classes);
                    for c in &classes {
                        let sub = self.count_board(c, symmetric);
                        t.nodes += sub.nodes;
                        t.solutions += sub.solutions;
                    }
                }
                Class::Plain if self.n - y == 1 => {
                    let free = (self.all & !(b.cols | b.left | b.right)).count_ones() as u64;
                    t.nodes += free;
                    t.solutions += free;
                }
                Class::Plain => {
                    count_below(self.all, b.cols, b.left, b.right, self.n - y, &mut t);
                }
                Class::Corner => count_corner(&self.bounds(b), y, b.cols, b.left, b.right, &mut t),
                Class::Side => count_side(
                    &self.bounds(b),
                    y,
                    b.cols,
                    b.left,
                    b.right,
                    b.bits(),
                    &mut t,
                ),
            }
        }
        SubtreeCount {
            solutions: t.solutions,
            nodes: t.nodes,
            depth: None,
        }
    }
}

/// A worker's state: the boards from its task's board down to the one it
/// stands on, and whether its tree folds symmetric boards (a count of a
/// `symmetric` instance).
pub struct Walker {
    path: Vec<Board>,
    symmetric: bool,
}

impl Walker {
    /// The board the state stands on.
    #[inline]
    fn top(&self) -> &Board {
        self.path
            .last()
            .expect("the engine loads a board before it walks")
    }

    /// Whether the moves from the board it stands on are the symmetry
    /// classes (the root of a folding count).
    #[inline]
    fn at_classes(&self) -> bool {
        self.symmetric && self.top().row == 0
    }
}

/// Walked in place: a move is a bit, the square of the next row's queen
/// (or, at the root of a folding count, the class's index as a bit); the
/// listing of a board's moves is the set of those bits not yet tried.
impl Problem for Queens {
    type Node = Board;
    type State = Walker;
    type Move = u64;
    type Moves = u64;

    /// A board travels as its three masks, row, class, bound1 and queens.
    const ENCODES: bool = true;

    fn encode(&self, b: &Board, out: &mut Vec<u8>) {
        for mask in [b.cols, b.left, b.right] {
            out.extend_from_slice(&mask.to_le_bytes());
        }
        out.extend_from_slice(&[b.row, b.class.code(), b.bound1]);
        out.extend_from_slice(&b.queens[..b.row as usize]);
    }

    fn decode(&self, bytes: &[u8]) -> Option<Board> {
        let word = |i: usize| {
            Some(u32::from_le_bytes(
                bytes.get(4 * i..4 * i + 4)?.try_into().ok()?,
            ))
        };
        let (row, class, bound1) = (*bytes.get(12)?, *bytes.get(13)?, *bytes.get(14)?);
        let class = Class::from_code(class)?;
        let placed = bytes.get(15..)?;
        if placed.len() != row as usize
            || u32::from(row) > self.n
            || u32::from(bound1) >= self.n
            || placed.iter().any(|&q| u32::from(q) >= self.n)
            || (class != Class::Plain && !self.symmetric)
        {
            return None;
        }
        let mut queens = [0u8; MAX_N as usize];
        queens[..placed.len()].copy_from_slice(placed);
        Some(Board {
            cols: word(0)?,
            left: word(1)?,
            right: word(2)?,
            row,
            class,
            bound1,
            queens,
        })
    }

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
            class: Class::Plain,
            bound1: 0,
            queens: [0; MAX_N as usize],
        }
    }

    fn state(&self, mode: Mode) -> Walker {
        Walker {
            path: Vec::new(),
            symmetric: self.symmetric && mode == Mode::Count,
        }
    }

    fn load(&self, w: &mut Walker, b: &Board) {
        w.path.clear();
        w.path.push(*b);
    }

    fn save(&self, w: &Walker) -> Board {
        *w.top()
    }

    /// The free squares of the next row that the board's case allows, or
    /// at the root of a folding count one bit per class.
    #[inline]
    fn moves(&self, w: &mut Walker) -> u64 {
        let b = w.top();
        let y = b.row as u32;
        if y == self.n {
            return 0;
        }
        if w.at_classes() {
            return (1 << self.class_count()) - 1;
        }
        let free = self.all & !(b.cols | b.left | b.right);
        u64::from(match b.class {
            Class::Plain => free,
            Class::Corner => self.bounds(b).corner(y, free),
            Class::Side => self.bounds(b).side(y, b.cols, free),
        })
    }

    #[inline]
    fn next_move(&self, _: &Walker, left: &mut u64) -> Option<u64> {
        let bit = *left & left.wrapping_neg();
        *left ^= bit;
        (bit != 0).then_some(bit)
    }

    #[inline]
    fn apply(&self, w: &mut Walker, &bit: &u64) {
        let child = if w.at_classes() {
            self.class(w.top(), bit.trailing_zeros())
        } else {
            w.top().place(bit as u32, self.all)
        };
        w.path.push(child);
    }

    #[inline]
    fn undo(&self, w: &mut Walker, _: &u64) {
        w.path.pop();
    }

    fn solution_weight(&self, w: &Walker) -> u64 {
        self.weight(w.top())
    }

    fn render(&self, w: &Walker, out: &mut String) {
        self.draw(w.top(), out)
    }

    /// Below this depth the iterative counter takes over: about 11 rows
    /// left, so one call takes tens of microseconds, short enough for
    /// donation to balance the tail.
    fn count_cutoff(&self) -> Option<usize> {
        Some(self.n.saturating_sub(11).max(1) as usize)
    }

    fn count_subtree(&self, w: &mut Walker) -> SubtreeCount {
        self.count_board(w.top(), w.symmetric)
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::engine::{Mode, sequential};

    /// OEIS A000170.
    const A000170: [u64; 15] = [
        1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
    ];

    #[test]
    fn counts_match_oeis_with_and_without_symmetry() {
        for n in 1..=15u32 {
            let expect = A000170[n as usize - 1];
            for symmetric in [false, true] {
                if n > 12 && !symmetric {
                    continue;
                }
                let q = Queens::new(n, symmetric).unwrap();
                let (c, _) = sequential(&q, Mode::Count);
                assert_eq!(c.solutions, expect, "n={n} symmetric={symmetric}");
            }
        }
    }

    #[test]
    fn symmetric_count_visits_under_a_quarter_of_the_boards() {
        // Classes are told apart only at the leaves (the rotation check):
        // the tree keeps some boards of a class above them (n = 12:
        // 198,375 boards visited of 856,189).
        let nodes = |symmetric| {
            let q = Queens::new(12, symmetric).unwrap();
            sequential(&q, Mode::Count).0.nodes
        };
        let (plain, classes) = (nodes(false), nodes(true));
        assert!(classes * 4 < plain, "{classes} of {plain}");
    }

    #[test]
    fn fast_counter_agrees_with_generic_walk() {
        // The default count_subtree (generic) against the row-order
        // counter, node counts included.
        for n in 1..=10u32 {
            let q = Queens {
                row_order: true,
                ..Queens::new(n, true).unwrap()
            };
            let mut buf = Vec::new();
            q.children(&q.root(), &mut buf, q.symmetric);
            let mut buf2 = Vec::new();
            for child in buf.iter().take(3) {
                buf2.clear();
                q.children(child, &mut buf2, q.symmetric);
                for b in buf2.iter().chain(std::iter::once(child)) {
                    let fast = q.count_board(b, q.symmetric);
                    let mut generic = SubtreeCount::default();
                    let mut stack = vec![*b];
                    let mut kids = Vec::new();
                    while let Some(x) = stack.pop() {
                        generic.nodes += 1;
                        generic.solutions += q.weight(&x);
                        kids.clear();
                        q.children(&x, &mut kids, q.symmetric);
                        stack.extend_from_slice(&kids);
                    }
                    assert_eq!(fast, generic, "n={n}");
                }
            }
        }
    }

    #[test]
    fn constrained_counter_agrees_with_row_order_walk_on_every_path() {
        use crate::engine::simd::{self, Level};
        // Every board of the first three levels of the symmetric tree for
        // n = 4..=14, the root for n = 15, and for n = 17 the last Side
        // board (row 1 on: 16 rows, a full register); on each path this
        // processor has, `none` always: the same solutions as the
        // row-order walk, and the same nodes on every path.
        let paths = simd::available();
        assert_eq!(paths[0], Level::None);
        let agree = |q: &Queens, b: &Board| {
            let slow = Queens {
                row_order: true,
                ..q.clone()
            };
            let row = slow.count_board(b, q.symmetric);
            let mut first = None;
            for &path in &paths {
                let fast = Queens {
                    path: Some(path),
                    ..q.clone()
                }
                .count_board(b, q.symmetric);
                assert_eq!(fast.solutions, row.solutions, "n={} {path} {b:?}", q.n);
                assert!(fast.nodes <= row.nodes, "n={} {path} {b:?}", q.n);
                let first = *first.get_or_insert(fast.nodes);
                assert_eq!(
                    fast.nodes, first,
                    "n={} {path}: nodes differ from none",
                    q.n
                );
            }
            (first.unwrap(), row.nodes)
        };
        for n in 4..=15u32 {
            let q = Queens::new(n, true).unwrap();
            let mut level = vec![q.root()];
            let (mut fewer, mut all) = (0, 0);
            for _ in 0..if n < 15 { 3 } else { 1 } {
                let mut next = Vec::new();
                for b in &level {
                    let (fast, row) = agree(&q, b);
                    fewer += fast;
                    all += row;
                    q.children(b, &mut next, q.symmetric);
                }
                level = next;
            }
            assert!(n < 12 || fewer * 2 < all, "n={n}: {fewer} of {all} boards");
        }
        let q = Queens::new(17, true).unwrap();
        let mut classes = Vec::new();
        q.children(&q.root(), &mut classes, q.symmetric);
        let side = classes.last().unwrap();
        assert_eq!((side.class, side.row), (Class::Side, 1));
        agree(&q, side);
        eprintln!("constrained.rs checked on {paths:?}");
    }

    #[test]
    fn moves_in_place_reach_the_children_in_order() {
        // The first three levels, in a folding count and in a listing.
        for n in 4..=12u32 {
            let q = Queens::new(n, true).unwrap();
            for mode in [Mode::Count, Mode::All] {
                let symmetric = mode == Mode::Count;
                let mut w = q.state(mode);
                let mut level = vec![q.root()];
                for _ in 0..3 {
                    let mut next = Vec::new();
                    for b in &level {
                        let mut expected = Vec::new();
                        q.children(b, &mut expected, symmetric);
                        q.load(&mut w, b);
                        let mut listing = q.moves(&mut w);
                        let mut reached = Vec::new();
                        while let Some(m) = q.next_move(&w, &mut listing) {
                            q.apply(&mut w, &m);
                            reached.push(q.save(&w));
                            q.undo(&mut w, &m);
                        }
                        assert_eq!(format!("{reached:?}"), format!("{expected:?}"), "n={n}");
                        next.extend(expected);
                    }
                    level = next;
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
