//! Trees the engine's unit tests walk.

use super::mode::Mode;
use super::problem::{Path as Nodes, PathCursor, Problem, Tree};

/// A path of `len` nodes: every level holds one.
pub(super) struct Path {
    pub(super) len: u32,
}

impl Tree for Path {
    type Node = u32;
    fn name(&self) -> &'static str {
        "path"
    }
    fn instance(&self) -> String {
        self.len.to_string()
    }
    fn root(&self) -> u32 {
        0
    }
    fn children(&self, &d: &u32, out: &mut Vec<u32>) {
        if d + 1 < self.len {
            out.push(d + 1);
        }
    }
    fn solution_weight(&self, &d: &u32) -> u64 {
        u64::from(d + 1 == self.len)
    }
    fn render(&self, d: &u32, out: &mut String) {
        out.push_str(&d.to_string());
    }
}

/// A spine of `len` nodes with small irregular subtrees hanging off it:
/// a node is its depth, a hash of its path, and how many levels its
/// subtree may still grow off the spine (`u32::MAX`: on the spine). Each
/// spine node but the last has the spine's next node first, then, for
/// a third of the hashes, a node off the spine; a node off the spine
/// with levels left has up to two children. Nodes whose hash is a
/// multiple of 5 are solutions. A walk that stood on a wrong node (a
/// level undone out of order) would see other hashes.
pub(super) struct Spine {
    pub(super) len: u32,
}

impl Spine {
    /// How many children `node` has.
    fn degree(&self, &(d, hash, left): &(u32, u64, u32)) -> u32 {
        match left {
            u32::MAX if d + 1 < self.len => 1 + u32::from(hash % 3 == 0),
            u32::MAX | 0 => 0,
            _ => (hash % 3) as u32,
        }
    }

    /// The child `i` of `node`.
    fn child(&(d, hash, left): &(u32, u64, u32), i: u32) -> (u32, u64, u32) {
        let h = (hash ^ u64::from(i)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let left = match (left, i) {
            (u32::MAX, 0) => u32::MAX,
            (u32::MAX, _) => 3,
            _ => left - 1,
        };
        (d + 1, h ^ h >> 29, left)
    }
}

impl Tree for Spine {
    type Node = (u32, u64, u32);
    fn root(&self) -> (u32, u64, u32) {
        (0, 1, u32::MAX)
    }
    fn children(&self, node: &(u32, u64, u32), out: &mut Vec<(u32, u64, u32)>) {
        out.extend((0..self.degree(node)).map(|i| Spine::child(node, i)));
    }
    fn solution_weight(&self, &(_, hash, _): &(u32, u64, u32)) -> u64 {
        u64::from(hash % 5 == 0)
    }
    fn render(&self, (d, hash, _): &(u32, u64, u32), out: &mut String) {
        out.push_str(&format!("{d} {hash:x}"));
    }
}

/// [`Spine`] walked in place: a [`Problem`] whose state is a path of
/// nodes, moved by the generic frames of a count's dive, where a `Tree`
/// has frames of its own.
pub(super) struct InPlaceSpine(pub(super) Spine);

impl Problem for InPlaceSpine {
    type Node = (u32, u64, u32);
    type State = Nodes<(u32, u64, u32)>;
    type Move = super::problem::PathMove;
    type Cursor = PathCursor;
    fn next_move(&self, state: &Self::State, moves: &mut PathCursor) -> Option<Self::Move> {
        state.next_move(moves)
    }
    fn apply(&self, state: &mut Self::State, m: &Self::Move) {
        state.apply(m)
    }
    fn undo(&self, state: &mut Self::State, m: &Self::Move) {
        state.undo(m)
    }
    fn root(&self) -> Self::Node {
        Tree::root(&self.0)
    }
    fn state(&self, _: Mode) -> Self::State {
        Nodes::default()
    }
    fn load(&self, state: &mut Self::State, node: &Self::Node) {
        state.load(node)
    }
    fn save(&self, state: &Self::State) -> Self::Node {
        *state.top()
    }
    fn moves(&self, state: &mut Self::State) -> PathCursor {
        state.moves(|node, out, _| Tree::children(&self.0, node, out))
    }
    fn solution_weight(&self, state: &Self::State) -> u64 {
        Tree::solution_weight(&self.0, state.top())
    }
    fn render(&self, state: &Self::State, out: &mut String) {
        Tree::render(&self.0, state.top(), out)
    }
}

/// [`Spine`] walked in place with each child also given by value
/// ([`Problem::child`]): the state is the node, a move the child's place
/// and the parent (for the undo), so a count's dive takes the frames
/// that hold their states by value.
pub(super) struct ValueSpine(pub(super) Spine);

impl Problem for ValueSpine {
    type Node = (u32, u64, u32);
    type State = (u32, u64, u32);
    type Move = (u32, (u32, u64, u32));
    /// The next child's place, and the number of children.
    type Cursor = (u32, u32);
    crate::state_is_node!();
    fn root(&self) -> Self::Node {
        Tree::root(&self.0)
    }
    fn moves(&self, state: &mut Self::State) -> (u32, u32) {
        (0, self.0.degree(state))
    }
    fn next_move(&self, state: &Self::State, at: &mut (u32, u32)) -> Option<Self::Move> {
        (at.0 < at.1).then(|| {
            at.0 += 1;
            (at.0 - 1, *state)
        })
    }
    fn apply(&self, state: &mut Self::State, &(i, _): &Self::Move) {
        *state = Spine::child(state, i);
    }
    fn undo(&self, state: &mut Self::State, &(_, parent): &Self::Move) {
        *state = parent;
    }
    fn child(&self, state: &Self::State, &(i, _): &Self::Move) -> Option<Self::State> {
        Some(Spine::child(state, i))
    }
    fn solution_weight(&self, state: &Self::State) -> u64 {
        Tree::solution_weight(&self.0, state)
    }
    fn render(&self, state: &Self::State, out: &mut String) {
        Tree::render(&self.0, state, out)
    }
}

/// N-Queens on boards of up to 16 columns, row by row, each row's columns
/// tried from the lowest: the problem the engine's and the cluster's unit
/// tests search (the puzzles' N-Queens, with its kernels and folding,
/// lives in `hysolve-puzzles`, which depends on this crate). A node is
/// the next row, the attacked columns and diagonals, and the queens'
/// columns four bits a row; it travels encoded (9 bytes), as a real
/// problem's may.
#[derive(Debug)]
pub(crate) struct Queens {
    n: u32,
}

/// A board of [`Queens`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Board {
    row: u32,
    columns: u32,
    /// Diagonals by `row + column`.
    rising: u64,
    /// Diagonals by `row + n - 1 - column`.
    falling: u64,
    /// The queen of row `r` in bits `4r..4r + 4`.
    queens: u64,
}

impl Queens {
    /// N-Queens on `n` columns, 1 to 16.
    pub(crate) fn new(n: u32) -> Queens {
        assert!(
            (1..=16).contains(&n),
            "the fixture's boards are 1 to 16 wide"
        );
        Queens { n }
    }

    fn place(&self, b: &mut Board, column: u32) {
        b.columns |= 1 << column;
        b.rising |= 1 << (b.row + column);
        b.falling |= 1 << (b.row + self.n - 1 - column);
        b.queens |= u64::from(column) << (4 * b.row);
        b.row += 1;
    }
}

impl Problem for Queens {
    type Node = Board;
    type State = Board;
    type Move = u32;
    type Cursor = u32;

    const ENCODES: bool = true;

    fn encode(&self, b: &Board, out: &mut Vec<u8>) {
        out.push(b.row as u8);
        out.extend_from_slice(&b.queens.to_le_bytes());
    }

    fn decode(&self, bytes: &[u8]) -> Option<Board> {
        let (&row, queens) = bytes.split_first()?;
        let queens = u64::from_le_bytes(queens.try_into().ok()?);
        let mut b = self.root();
        for r in 0..u32::from(row).min(self.n) {
            let column = (queens >> (4 * r) & 15) as u32;
            if column >= self.n {
                return None;
            }
            self.place(&mut b, column);
        }
        (b.row == u32::from(row) && b.queens == queens).then_some(b)
    }

    fn root(&self) -> Board {
        Board {
            row: 0,
            columns: 0,
            rising: 0,
            falling: 0,
            queens: 0,
        }
    }

    crate::state_is_node!();

    fn moves(&self, b: &mut Board) -> u32 {
        if b.row == self.n {
            return 0;
        }
        let attacked = (0..self.n).filter(|&c| {
            b.rising >> (b.row + c) & 1 != 0 || b.falling >> (b.row + self.n - 1 - c) & 1 != 0
        });
        let full = (1u32 << self.n) - 1;
        full & !b.columns & !attacked.fold(0, |m, c| m | 1 << c)
    }

    fn next_move(&self, _: &Board, free: &mut u32) -> Option<u32> {
        let column = (*free != 0).then(|| free.trailing_zeros())?;
        *free &= *free - 1;
        Some(column)
    }

    fn apply(&self, b: &mut Board, &column: &u32) {
        self.place(b, column);
    }

    fn undo(&self, b: &mut Board, &column: &u32) {
        b.row -= 1;
        b.columns &= !(1 << column);
        b.rising &= !(1 << (b.row + column));
        b.falling &= !(1 << (b.row + self.n - 1 - column));
        b.queens &= !(15 << (4 * b.row));
    }

    fn solution_weight(&self, b: &Board) -> u64 {
        u64::from(b.row == self.n)
    }

    fn render(&self, b: &Board, out: &mut String) {
        let columns: Vec<String> = (0..b.row)
            .map(|r| (b.queens >> (4 * r) & 15).to_string())
            .collect();
        out.push_str(&columns.join(" "));
    }
}

#[test]
fn the_queens_fixture_has_the_published_counts() {
    // OEIS A000170.
    for (n, count) in [(1, 1), (4, 2), (5, 10), (6, 4), (7, 40), (8, 92)] {
        let (whole, _) = super::sequential(&Queens::new(n), Mode::Count);
        assert_eq!(whole.solutions, count, "{n} queens");
    }
    let q = Queens::new(6);
    let mut b = q.root();
    for c in [1, 3, 5] {
        q.apply(&mut b, &c);
    }
    let mut bytes = Vec::new();
    q.encode(&b, &mut bytes);
    assert_eq!(q.decode(&bytes), Some(b));
    assert_eq!(q.decode(&bytes[..4]), None);
}
