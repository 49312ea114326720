//! N-Queens: place n queens on an n x n board, none attacking another.
//!
//! One tree serves every mode (`walker.rs`): a partial board is the free
//! squares of each row not yet filled, with columns as bits of a `u32`.
//! Its children fill the lowest row while more than 16 are left, then the
//! row with the fewest free squares; a board whose rows left cannot hold
//! their queens (a row with no free square, or a column no row left can
//! take) has none.
//!
//! Symmetry (count mode only): one board of each class of the square's 8
//! symmetries is searched and counted with its class's size, by Takaken's
//! method (`symmetry.rs`). The root's children in a count are the Corner
//! boards (first queen in the corner, second in column `b`), then the Side
//! boards (first queen in column `b`); each case's rules are masks of its
//! rows. Counts equal the plain count (tested against OEIS A000170).
//!
//! Below a board with at most 16 rows left, a count runs `constrained.rs`,
//! the same tree in a specialised loop, on every processor: with AVX-512,
//! or on an array of rows compiled for x86-64-v3 or for the baseline
//! target. A test holds every path to the walk's nodes.

mod constrained;
pub mod solution;
mod symmetry;
mod walker;

pub use solution::verify;
pub use walker::Walker;

use crate::PuzzleError;
use constrained::{LANES, Tally};
use hysolve::advanced::Count;
use hysolve::{Mode, Problem};
use symmetry::Class;

/// The largest board: columns are bits of a `u32`.
pub const MAX_N: u32 = 32;

/// Below this size, a count searches every board (Takaken's cases need
/// room for a corner queen and a second-row queen off its diagonal).
const MIN_SYMMETRIC_N: u32 = 4;

/// An N-Queens instance.
#[derive(Debug, Clone)]
pub struct Queens {
    n: u32,
    symmetric: bool,
    /// Counts with `constrained.rs` below the cut-off (tests turn it off,
    /// to walk the same tree by the moves alone).
    kernel: bool,
    /// The path `constrained.rs` takes (`None`: this process's, from
    /// `HYSOLVE_SIMD` and the processor; tests force each).
    path: Option<hysolve::advanced::simd::Level>,
}

/// A partial board, as a task carries it: the queen's column in each
/// filled row, and the case it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    /// The filled rows.
    placed: u32,
    /// The queen's column in each filled row.
    queens: [u8; MAX_N as usize],
    /// The search the board belongs to, and its `bound1` (symmetry.rs).
    class: Class,
    bound1: u8,
}

impl Queens {
    /// An instance on an n x n board. With `symmetric`, a count searches
    /// one board of each symmetry class, counted with its class's size
    /// (counting only: the other modes list every board, whatever
    /// `symmetric` says; the tree is the mode's, [`Problem::state`]).
    ///
    /// ```
    /// use hysolve_puzzles::queens::Queens;
    /// use hysolve::Mode;
    /// use hysolve::advanced::sequential;
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
        Ok(Queens {
            n,
            symmetric: symmetric && n >= MIN_SYMMETRIC_N,
            kernel: true,
            path: None,
        })
    }

    /// The path `constrained.rs` takes in this process.
    fn path(&self) -> hysolve::advanced::simd::Level {
        self.path.unwrap_or_else(constrained::path)
    }

    /// How many searches the root of a folding count lists: the Corner
    /// boards (`bound1` from 2 to n - 2), then the Side boards (`bound1`
    /// from 1 while it is nearer the edge than n - 1 - bound1).
    fn class_count(&self) -> u32 {
        let last = self.n - 1;
        let corners = last.saturating_sub(2);
        let sides = (1..last).take_while(|&b| b < last - b).count() as u32;
        corners + sides
    }

    /// Moves `w` from the root to the `i`-th search of a folding count.
    fn enter_class(&self, w: &mut Walker, i: u32) {
        let corners = (self.n - 1).saturating_sub(2);
        if i < corners {
            let bound1 = 2 + i;
            w.enter(self.n, Class::Corner, bound1 as u8, &[(0, 0), (1, bound1)]);
        } else {
            let bound1 = 1 + i - corners;
            w.enter(self.n, Class::Side, bound1 as u8, &[(0, bound1)]);
        }
    }

    /// How many solutions the board `w` stands on stands for: 0 until it
    /// is complete.
    #[inline]
    fn weight(&self, w: &Walker) -> u64 {
        if w.top().open != 0 {
            return 0;
        }
        w.bounds.weight(w.class, &w.board[..self.n as usize])
    }

    /// Counts the boards below the one `w` stands on into `t`: by the
    /// kernel once at most [`LANES`] rows are left, by the moves above.
    fn count_below(&self, w: &mut Walker, t: &mut Tally) {
        let f = w.top();
        if f.open != 0 && f.open.count_ones() <= LANES && !w.at_classes() {
            let f = *f;
            constrained::count(
                w.class,
                &w.bounds,
                self.path(),
                &f.free,
                f.open,
                f.unused,
                &w.board,
                t,
            );
            return;
        }
        let mut moves = self.moves(w);
        while let Some(m) = self.next_move(w, &mut moves) {
            self.apply(w, &m);
            t.nodes += 1;
            t.solutions += self.weight(w);
            self.count_below(w, t);
            self.undo(w, &m);
        }
    }
}

/// A move: a queen on the square `bit` of `row` (or, at the root of a
/// folding count, `row` = `CLASSES` and the class's index as a bit).
#[derive(Debug, Clone, Copy)]
pub struct Square {
    row: u8,
    bit: u64,
}

/// The listing of a board's moves: the squares (bits) of `row` not yet
/// tried.
#[derive(Debug, Clone, Copy)]
pub struct Squares {
    row: u8,
    left: u64,
}

/// The `row` of the moves to the searches of a folding count.
const CLASSES: u8 = u8::MAX;

/// Walked in place (`walker.rs`).
impl Problem for Queens {
    type Node = Board;
    type State = Walker;
    type Move = Square;
    type Cursor = Squares;

    /// A board travels as its filled rows, case, bound1 and queens.
    const ENCODES: bool = true;

    fn encode(&self, b: &Board, out: &mut Vec<u8>) {
        out.extend_from_slice(&b.placed.to_le_bytes());
        out.extend_from_slice(&[b.class.code(), b.bound1]);
        let mut rows = b.placed;
        while rows != 0 {
            out.push(b.queens[rows.trailing_zeros() as usize]);
            rows &= rows - 1;
        }
    }

    fn decode(&self, bytes: &[u8]) -> Option<Board> {
        let placed = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?);
        let (class, bound1) = (*bytes.get(4)?, *bytes.get(5)?);
        let class = Class::from_code(class)?;
        let columns = bytes.get(6..)?;
        if (self.n < 32 && placed >> self.n != 0)
            || columns.len() != placed.count_ones() as usize
            || u32::from(bound1) >= self.n
            || columns.iter().any(|&q| u32::from(q) >= self.n)
            || (class != Class::Plain && !self.symmetric)
        {
            return None;
        }
        let mut queens = [0u8; MAX_N as usize];
        let mut rows = placed;
        for &q in columns {
            queens[rows.trailing_zeros() as usize] = q;
            rows &= rows - 1;
        }
        Some(Board {
            placed,
            queens,
            class,
            bound1,
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
            placed: 0,
            queens: [0; MAX_N as usize],
            class: Class::Plain,
            bound1: 0,
        }
    }

    fn state(&self, mode: Mode) -> Walker {
        Walker::new(self.n, self.symmetric && mode == Mode::Count)
    }

    fn load(&self, w: &mut Walker, b: &Board) {
        let mut queens = [(0, 0); MAX_N as usize];
        let mut rows = b.placed;
        let mut k = 0;
        while rows != 0 {
            let r = rows.trailing_zeros();
            rows &= rows - 1;
            queens[k] = (r, u32::from(b.queens[r as usize]));
            k += 1;
        }
        w.frames.clear();
        w.enter(self.n, b.class, b.bound1, &queens[..k]);
    }

    fn save(&self, w: &Walker) -> Board {
        let f = w.top();
        let rows = if self.n == 32 {
            u32::MAX
        } else {
            (1 << self.n) - 1
        };
        let placed = rows & !f.open;
        let mut queens = [0u8; MAX_N as usize];
        let mut left = placed;
        while left != 0 {
            let r = left.trailing_zeros() as usize;
            left &= left - 1;
            queens[r] = w.board[r].trailing_zeros() as u8;
        }
        Board {
            placed,
            queens,
            class: w.class,
            bound1: w.bound1,
        }
    }

    /// The free squares of the row the board's children fill, or at the
    /// root of a folding count one bit per class; none when the board
    /// fails the forward check.
    #[inline]
    fn moves(&self, w: &mut Walker) -> Squares {
        if w.at_classes() {
            let left = (1u64 << self.class_count()) - 1;
            return Squares { row: CLASSES, left };
        }
        let f = w.top();
        if f.open == 0 || !f.fits() {
            return Squares { row: 0, left: 0 };
        }
        let row = f.next_row();
        Squares {
            row: row as u8,
            left: u64::from(f.free[row as usize]),
        }
    }

    #[inline]
    fn next_move(&self, _: &Walker, at: &mut Squares) -> Option<Square> {
        let bit = at.left & at.left.wrapping_neg();
        at.left ^= bit;
        (bit != 0).then_some(Square { row: at.row, bit })
    }

    #[inline]
    fn apply(&self, w: &mut Walker, &Square { row, bit }: &Square) {
        if row == CLASSES {
            return self.enter_class(w, bit.trailing_zeros());
        }
        let child = w.top().place(u32::from(row), bit as u32);
        w.board[row as usize] = bit as u32;
        w.frames.push(child);
    }

    #[inline]
    fn undo(&self, w: &mut Walker, &Square { row, .. }: &Square) {
        w.frames.pop();
        if row == CLASSES {
            w.class = Class::Plain;
            w.bound1 = 0;
            w.bounds = symmetry::Bounds::new(self.n, 0);
        }
    }

    fn solution_weight(&self, w: &Walker) -> u64 {
        self.weight(w)
    }

    /// The board as rows of `.` and `Q`.
    fn render(&self, w: &Walker, out: &mut String) {
        for row in 0..self.n as usize {
            if row > 0 {
                out.push('\n');
            }
            for col in 0..self.n {
                out.push(if w.board[row] == 1 << col { 'Q' } else { '.' });
            }
        }
    }

    /// Below this depth the kernel takes over: about 11 rows left, so one
    /// call takes tens of microseconds, short enough for donation to
    /// balance the tail.
    fn count_cutoff(&self) -> Option<usize> {
        self.kernel
            .then(|| self.n.saturating_sub(11).max(1) as usize)
    }

    fn count_subtree(&self, w: &mut Walker) -> Count {
        let mut t = Tally {
            solutions: self.weight(w),
            nodes: 1,
        };
        self.count_below(w, &mut t);
        Count {
            solutions: t.solutions,
            nodes: t.nodes,
            depth: None,
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use hysolve::Mode;
    use hysolve::advanced::{count_by_moves, sequential};

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

    /// The walk by the moves alone, never the kernel.
    fn walked(q: &Queens) -> Queens {
        Queens {
            kernel: false,
            ..q.clone()
        }
    }

    #[test]
    fn the_kernel_visits_the_walks_tree_on_every_path() {
        use hysolve::advanced::simd::{self, Level};
        // Whole counts for n = 1..=12, folded and not: on each path this
        // processor has (`none` always), the kernel counts the same
        // solutions and the same nodes as the walk by the moves.
        let paths = simd::available();
        assert_eq!(paths[0], Level::None);
        for n in 1..=12u32 {
            for symmetric in [false, true] {
                let q = Queens::new(n, symmetric).unwrap();
                let (slow, _) = sequential(&walked(&q), Mode::Count);
                for &path in &paths {
                    let fast = Queens {
                        path: Some(path),
                        ..q.clone()
                    };
                    let (c, _) = sequential(&fast, Mode::Count);
                    assert_eq!(
                        (c.solutions, c.nodes),
                        (slow.solutions, slow.nodes),
                        "n={n} symmetric={symmetric} {path}"
                    );
                }
            }
        }
        eprintln!("constrained.rs checked on {paths:?}");
    }

    /// Walks down `q`'s count tree from the root by the `k`-th move at
    /// each level (the last one when there are fewer), `depth` levels.
    fn descend(q: &Queens, picks: &[usize]) -> Walker {
        let mut w = q.state(Mode::Count);
        q.load(&mut w, &q.root());
        for &k in picks {
            let mut moves = q.moves(&mut w);
            let mut chosen = None;
            for _ in 0..=k {
                match q.next_move(&w, &mut moves) {
                    Some(m) => chosen = Some(m),
                    None => break,
                }
            }
            q.apply(&mut w, &chosen.expect("a board with children"));
        }
        w
    }

    #[test]
    fn the_kernel_agrees_above_sixteen_rows_and_with_a_full_register() {
        use hysolve::advanced::simd;
        // n = 18 and 19 fill rows in order while more than 16 are left;
        // the subtrees below a few levels down (13 to 16 rows left, the
        // register full) agree with the walk on every path.
        for (n, picks) in [
            (18, &[40, 0][..]),
            (18, &[5, 3, 0]),
            (19, &[44, 1, 2, 0]),
            (17, &[20, 2, 1]),
        ] {
            let q = Queens::new(n, true).unwrap();
            let mut w = descend(&q, picks);
            let slow = count_by_moves(&q, &mut w);
            for path in simd::available() {
                let fast = Queens {
                    path: Some(path),
                    ..q.clone()
                }
                .count_subtree(&mut w);
                assert_eq!(
                    (fast.nodes, fast.solutions),
                    (slow.nodes, slow.solutions),
                    "n={n} {picks:?} {path}"
                );
            }
            assert!(slow.nodes > 1000, "n={n} {picks:?}: {slow:?}");
        }
    }

    #[test]
    fn every_mode_walks_one_tree() {
        // A listing walks the tree of a plain count: the same nodes.
        for n in 1..=9u32 {
            let q = Queens::new(n, true).unwrap();
            let counted = sequential(&Queens::new(n, false).unwrap(), Mode::Count).0;
            let listed = sequential(&q, Mode::All).0;
            assert_eq!(
                (listed.solutions, listed.nodes),
                (counted.solutions, counted.nodes),
                "n={n}"
            );
        }
    }

    #[test]
    fn a_saved_board_travels_and_loads_back() {
        // Every board of the first three levels of a folding count and of
        // a listing, through encode and decode, loads back to the same
        // board with the same moves.
        for n in [1, 4, 8, 13, 32] {
            let q = Queens::new(n, true).unwrap();
            for mode in [Mode::Count, Mode::All] {
                let mut w = q.state(mode);
                let mut other = q.state(mode);
                let mut level = vec![q.root()];
                for _ in 0..3 {
                    let mut next = Vec::new();
                    for b in level.iter().take(40) {
                        let mut bytes = Vec::new();
                        q.encode(b, &mut bytes);
                        assert_eq!(q.decode(&bytes), Some(*b), "n={n}");
                        q.load(&mut w, b);
                        assert_eq!(q.save(&w), *b);
                        let mut moves = q.moves(&mut w);
                        while let Some(m) = q.next_move(&w, &mut moves) {
                            q.apply(&mut w, &m);
                            let child = q.save(&w);
                            q.load(&mut other, &child);
                            assert_eq!(q.save(&other), child);
                            assert_eq!(
                                format!("{:?}", other.top().free),
                                format!("{:?}", w.top().free)
                            );
                            next.push(child);
                            q.undo(&mut w, &m);
                        }
                        assert_eq!(q.save(&w), *b, "undo is exact");
                    }
                    level = next;
                }
            }
            assert_eq!(q.decode(&[1, 0, 0, 0, 9, 0, 0]), None);
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
