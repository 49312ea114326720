//! Packing: fill a figure with a set of pieces, each used once, rotated (and
//! turned over where the set allows).
//!
//! Data first. The figure lives in the bounding box of its cells (margins
//! of holes cut off, so that its symmetries are those of its cells), cell
//! (x, y, z) at index x + w(y + h z) of a `W`-word bitboard. A *placement*
//! is one piece in one orientation at one position, as a bitboard, listed
//! under its lowest cell.
//! A node holds the empty cells, how many copies of each kind of piece are
//! left, and the placements made.
//!
//! The loop: the lowest empty cell must be covered by a placement whose
//! lowest cell it is (every cell below it is full), so a node's children are
//! the placements listed under that cell that fit the empty cells and whose
//! piece is left. In 3D the search branches instead on the empty cell with
//! the fewest placements that fit, and a node where a piece left fits
//! nowhere or an empty cell has no placement is a dead end (`fewest.rs`:
//! the counter keeps the placements that fit from level to level). A
//! child survives only if every empty region the new piece touches can
//! still be filled: at least as large as the smallest piece left, and a
//! multiple of the greatest common divisor of the sizes left; and the
//! pieces left must still be able to balance the black and white cells of
//! a chessboard colouring of the empty cells (`parity`). Counting below
//! a cut-off runs in place, with no allocation per node (the 3D counter's
//! lists live in one buffer per subtree counted).
//!
//! `--distinct` counts solutions up to the figure's symmetries that map the
//! piece set onto itself (`symmetry`), exactly, by restricting one piece to
//! one placement per orbit; that piece is placed first, at the root, so
//! the search is about 1/|G| of the count of every packing (or less: a
//! piece fixed early prunes more). A count of every packing walks the same
//! tree and weighs each packing with its orbit's size; a listing walks
//! every packing. The walk learns which from the engine's mode
//! (`walk.rs`, [`Rule`]).
//!
//! The files, one concept each: the node ([`Packing`]) and the instance
//! ([`Pack`]) here;
//! `layout.rs` prepares an instance (checks, axes, placements from
//! `placements.rs`); `dispatch.rs` picks the board size; `instance.rs`
//! builds a [`Pack`] from a layout (indexes, symmetries, colouring, root);
//! `moves.rs` places and takes back a piece; `prune.rs` holds the cuts;
//! `branch.rs` the list a node's children come from; `leaf.rs` what a
//! complete packing counts; `count.rs` and `fewest.rs` the in-place
//! counters; `walk.rs` the engine's view.

pub(crate) mod bits;
mod branch;
mod count;
mod dispatch;
pub mod export;
mod fewest;
pub mod figure;
pub(crate) mod geometry;
mod instance;
mod layout;
mod leaf;
mod moves;
pub(crate) mod parity;
pub mod pieces;
mod placements;
mod prune;
pub mod solution;
pub(crate) mod symmetry;
pub mod verify;
mod walk;

use bits::Bits;
use parity::Parity;
use pieces::{MAX_KINDS, MAX_PIECES};
use prune::Edges;
use std::collections::HashMap;

pub use dispatch::WithPack;
pub use layout::{Layout, labels};
pub use walk::{List, Rule};

/// A partial packing. Two are equal when they hold the same placements:
/// `placed` past `count` keeps what an undone placement left there, which
/// nothing reads.
#[derive(Debug, Clone)]
pub struct Packing<const W: usize> {
    empty: Bits<W>,
    left: [u8; MAX_KINDS],
    placed: [u32; MAX_PIECES],
    count: u8,
    /// The multiset of pieces left as an index of the colouring table
    /// (`parity`), and black minus white among the empty cells.
    rest: u32,
    imbalance: i32,
}

impl<const W: usize> PartialEq for Packing<W> {
    fn eq(&self, other: &Self) -> bool {
        let n = usize::from(self.count);
        self.count == other.count
            && self.placed[..n] == other.placed[..n]
            && self.empty == other.empty
            && self.left == other.left
            && self.rest == other.rest
            && self.imbalance == other.imbalance
    }
}

impl<const W: usize> Eq for Packing<W> {}

/// A packing instance on a board of `W` words.
#[derive(Debug, Clone)]
pub struct Pack<const W: usize> {
    layout: Layout,
    distinct: bool,
    masks: Vec<Bits<W>>,
    kind_of: Vec<u8>,
    /// Placements by their lowest cell.
    by_first: Vec<Vec<u32>>,
    /// Placements by every cell they cover.
    covers: Vec<Vec<u32>>,
    /// `covers[c]` in runs of one kind, `(kind, start, end)`: the scan for
    /// the cell with the fewest placements skips a used piece's run whole.
    cover_runs: Vec<Vec<(u8, u32, u32)>>,
    /// Placements by kind.
    by_kind: Vec<Vec<u32>>,
    /// The placements by lowest cell, in runs of one kind:
    /// `runs[cell_runs[c].0..cell_runs[c].1]` are cell `c`'s runs,
    /// `(kind, start, end)` a range of `first`. The in-place counter skips
    /// a used piece's run whole, not placement by placement.
    first: Vec<u32>,
    runs: Vec<(u8, u32, u32)>,
    cell_runs: Vec<(u32, u32)>,
    /// Branch on the empty cell with fewest fitting placements instead of
    /// the lowest one (3D figures: it costs a scan per node, but cuts the
    /// tree by orders of magnitude where pockets of the wrong shape abound).
    fewest: bool,
    /// For a kept placement of the restricted piece that some symmetries fix:
    /// those symmetries, against which a solution through it must be minimal.
    fixers: HashMap<u32, Vec<usize>>,
    /// The restricted piece's kind, if any.
    restricted: Option<u8>,
    /// Its kept placements: with `--distinct`, the search places the
    /// restricted piece before anything else (see [`Pack::branch`]).
    restricted_first: Vec<u32>,
    /// Symmetries every solution is checked against when no piece could be restricted.
    leaf_group: Vec<usize>,
    /// `images[s][p]`: the placement symmetry `s` maps placement `p` to.
    images: Vec<Vec<u32>>,
    sizes: Vec<u32>,
    /// The colouring bound (`parity`): each placement's black minus white
    /// cells, what placing a kind takes off the multiset index, and the
    /// table (`None` where the bound cannot cut: the weights and
    /// imbalances are then 0).
    imbalance: Vec<i32>,
    kind_weight: [u32; MAX_KINDS],
    parity: Option<Parity>,
    edges: Edges<W>,
    root: Option<Packing<W>>,
}

/// Test layouts: `pieces` (a built-in set or a file) on a box `WxH[xD]`
/// or a figure.
#[cfg(test)]
fn test_layout(pieces: &str, figure: &str) -> Layout {
    let set = pieces::PieceSet::load(pieces).unwrap();
    let figure = figure::Figure::parse_box(figure)
        .or_else(|_| figure::Figure::load(figure).map_err(|e| e.to_string()))
        .unwrap();
    Layout::new(set, figure).unwrap()
}

/// Test instances: [`test_layout`], prepared for `W` words.
#[cfg(test)]
fn test_pack<const W: usize>(pieces: &str, figure: &str, distinct: bool) -> Pack<W> {
    Pack::new(test_layout(pieces, figure), distinct).unwrap()
}

/// Walks the tree below `s` by a rule with nothing but [`Pack::branch`],
/// [`Pack::fits`] and the moves, calling `leaf` on every complete packing;
/// returns the nodes below `s`. The tests' reference for the counters.
#[cfg(test)]
fn walk_by_hand<const W: usize>(
    p: &Pack<W>,
    s: &mut Packing<W>,
    rule: Rule,
    leaf: &mut impl FnMut(&Packing<W>),
) -> u64 {
    let (list, (min, gcd)) = (p.branch(s, rule), p.limits(&s.left));
    let mut nodes = 0;
    for &q in p.list(list) {
        if p.fits(s, q, min, gcd) {
            p.place(s, q);
            nodes += 1;
            if bits::is_zero(&s.empty) {
                leaf(s);
            } else {
                nodes += walk_by_hand(p, s, rule, leaf);
            }
            p.unplace(s, q);
        }
    }
    nodes
}
