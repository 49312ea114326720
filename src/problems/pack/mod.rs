//! Packing: fill a figure with a set of pieces, each used once, rotated (and
//! turned over where the set allows).
//!
//! Data first. The figure lives in its bounding box, cell (x, y, z) at index
//! x + w(y + h z) of a `W`-word bitboard. A *placement* is one piece in one
//! orientation at one position, as a bitboard, listed under its lowest cell.
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

pub(crate) mod bits;
pub mod export;
mod fewest;
pub mod figure;
pub(crate) mod geometry;
pub(crate) mod parity;
pub mod pieces;
pub mod solution;
pub(crate) mod symmetry;
pub mod verify;
mod walk;

use crate::engine::SubtreeCount;
use crate::problems::PuzzleError;
use bits::Bits;
use figure::Figure;
use parity::Parity;
use pieces::{MAX_KINDS, MAX_PIECES, PieceSet};
use std::collections::HashMap;
pub use walk::{List, Rule};

/// A partial packing.
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

/// The prepared instance, independent of the board size.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The pieces.
    pub set: PieceSet,
    /// The figure as the search sees it: axes reordered so the first is the
    /// shortest (the lowest-empty-cell scan then runs along the short side,
    /// which keeps the frontier narrow: 6x10 pentominoes visit five times
    /// fewer nodes scanned along the 6 than along the 10).
    pub figure: Figure,
    /// The figure as given, in which solutions are written.
    pub shown: Figure,
    /// Index in `figure` of each cell of `shown`.
    pub to_search: Vec<usize>,
    /// One character per kind for solution files.
    pub labels: Vec<char>,
    /// Every placement: its kind and its cells (box indices, ascending).
    pub placements: Vec<(u8, Vec<usize>)>,
}

/// The characters kinds are labelled with in solution files when their
/// names' first characters collide: 62, more than [`MAX_KINDS`].
const LABELS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const _: () = assert!(LABELS.len() >= MAX_KINDS);

/// One distinct character per kind: the first character of each name when
/// those are distinct, else the kinds in order through `LABELS` (A-Z, a-z, 0-9).
pub fn labels(set: &PieceSet) -> Vec<char> {
    let firsts: Vec<char> = set
        .kinds
        .iter()
        .map(|k| k.name.chars().next().unwrap_or('?'))
        .collect();
    if (0..firsts.len()).all(|i| !firsts[..i].contains(&firsts[i])) {
        firsts
    } else {
        LABELS.chars().take(set.kinds.len()).collect()
    }
}

impl Layout {
    /// Checks that the pieces can cover the figure and lists every placement.
    pub fn new(set: PieceSet, shown: Figure) -> Result<Layout, PuzzleError> {
        let figure = &shown;
        let (need, have) = (figure.cells(), set.cells());
        if need != have {
            return Err(PuzzleError::Instance(format!(
                "pack: the figure {} has {need} cells but the pieces of {} cover {have}",
                figure.name, set.name
            )));
        }
        if figure.d > 1 && !set.three_d {
            return Err(PuzzleError::Instance(format!(
                "pack: the figure {} is three-dimensional but the pieces of {} are flat",
                figure.name, set.name
            )));
        }
        let labels = labels(&set);
        // Axis k of the search is axis order[k] of the figure as given; flat
        // pieces keep the z axis last.
        let dims = [figure.w, figure.h, figure.d];
        let mut order = [0usize, 1, 2];
        if set.three_d {
            order.sort_by_key(|&a| dims[a]);
        } else if figure.w > figure.h {
            order = [1, 0, 2];
        }
        let [w, h, d] = order.map(|a| dims[a]);
        let mut inner = Figure {
            name: figure.name.clone(),
            w,
            h,
            d,
            filled: vec![false; w * h * d],
        };
        let mut to_search = vec![0; figure.filled.len()];
        for (i, &filled) in figure.filled.iter().enumerate() {
            let c = figure.coords(i);
            let j = inner
                .index(c[order[0]], c[order[1]], c[order[2]])
                .expect("same box");
            inner.filled[j] = filled;
            to_search[i] = j;
        }
        let figure = inner;
        let mut placements = Vec::new();
        for (k, kind) in set.kinds.iter().enumerate() {
            for shape in geometry::orientations(&kind.cells, set.three_d) {
                let ext = [0, 1, 2].map(|a| shape.iter().map(|c| c[a]).max().unwrap_or(0));
                for z in 0..figure.d as i32 - ext[2] {
                    for y in 0..figure.h as i32 - ext[1] {
                        for x in 0..figure.w as i32 - ext[0] {
                            let cells: Option<Vec<usize>> = shape
                                .iter()
                                .map(|c| {
                                    figure
                                        .index(c[0] + x, c[1] + y, c[2] + z)
                                        .filter(|&i| figure.filled[i])
                                })
                                .collect();
                            if let Some(mut cells) = cells {
                                cells.sort_unstable();
                                placements.push((k as u8, cells));
                            }
                        }
                    }
                }
            }
        }
        Ok(Layout {
            set,
            figure,
            shown,
            to_search,
            labels,
            placements,
        })
    }

    /// Board words needed for the figure's bounding box.
    pub fn words(&self) -> usize {
        (self.figure.w * self.figure.h * self.figure.d).div_ceil(64)
    }

    /// The search for this layout, on the smallest board it fits, handed
    /// to `then`: each board size is compiled separately, so the hot loop
    /// works on a fixed number of words, and `then` is called with the
    /// size's own type. (A count folds symmetric packings by itself:
    /// [`Rule::Weighted`].)
    pub fn search<T: WithPack>(self, distinct: bool, then: T) -> Result<T::Output, PuzzleError> {
        Ok(match self.words() {
            1 => then.with(Pack::<1>::new(self, distinct)?),
            2 => then.with(Pack::<2>::new(self, distinct)?),
            3 | 4 => then.with(Pack::<4>::new(self, distinct)?),
            _ => then.with(Pack::<8>::new(self, distinct)?),
        })
    }
}

/// What to do with a packing search once its board size, a type of its
/// own, is known ([`Layout::search`]): run it, say.
pub trait WithPack {
    /// What `with` returns.
    type Output;
    /// Takes the search on a board of `W` 64-bit words.
    fn with<const W: usize>(self, pack: Pack<W>) -> Self::Output;
}

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

/// Masks for growing regions: cells that have a neighbour in each direction.
#[derive(Debug, Clone)]
struct Edges<const W: usize> {
    not_right: Bits<W>,
    not_left: Bits<W>,
    not_bottom: Bits<W>,
    not_top: Bits<W>,
    not_back: Bits<W>,
    not_front: Bits<W>,
    w: usize,
    wh: usize,
    /// Whether the figure has more than one layer (else no cell has a
    /// neighbour in z, and growing skips those shifts).
    three_d: bool,
}

impl<const W: usize> Edges<W> {
    fn new(f: &Figure) -> Self {
        let mut e = Edges {
            not_right: bits::zero(),
            not_left: bits::zero(),
            not_bottom: bits::zero(),
            not_top: bits::zero(),
            not_back: bits::zero(),
            not_front: bits::zero(),
            w: f.w,
            wh: f.w * f.h,
            three_d: f.d > 1,
        };
        for i in 0..f.w * f.h * f.d {
            let [x, y, z] = f.coords(i);
            let put = |m: &mut Bits<W>, ok: bool| {
                if ok {
                    bits::set(m, i)
                }
            };
            put(&mut e.not_right, (x as usize) + 1 < f.w);
            put(&mut e.not_left, x > 0);
            put(&mut e.not_bottom, (y as usize) + 1 < f.h);
            put(&mut e.not_top, y > 0);
            put(&mut e.not_back, (z as usize) + 1 < f.d);
            put(&mut e.not_front, z > 0);
        }
        e
    }

    /// `s` and its face neighbours.
    #[inline(always)]
    fn grow(&self, s: &Bits<W>) -> Bits<W> {
        let mut g = *s;
        g = bits::or(&g, &bits::shl(&bits::and(s, &self.not_right), 1));
        g = bits::or(&g, &bits::shr(&bits::and(s, &self.not_left), 1));
        g = bits::or(&g, &bits::shl(&bits::and(s, &self.not_bottom), self.w));
        g = bits::or(&g, &bits::shr(&bits::and(s, &self.not_top), self.w));
        if self.three_d {
            g = bits::or(&g, &bits::shl(&bits::and(s, &self.not_back), self.wh));
            g = bits::or(&g, &bits::shr(&bits::and(s, &self.not_front), self.wh));
        }
        g
    }
}

impl<const W: usize> Pack<W> {
    /// Prepares the search; `W` must be `layout.words()` rounded up to a
    /// supported size.
    pub fn new(layout: Layout, distinct: bool) -> Result<Pack<W>, PuzzleError> {
        assert!(layout.words() <= W, "board too large for {W} words");
        let f = &layout.figure;
        let masks: Vec<Bits<W>> = layout
            .placements
            .iter()
            .map(|(_, cells)| {
                let mut m = bits::zero();
                for &c in cells {
                    bits::set(&mut m, c);
                }
                m
            })
            .collect();
        let kind_of: Vec<u8> = layout.placements.iter().map(|(k, _)| *k).collect();
        let mut by_first = vec![Vec::new(); f.w * f.h * f.d];
        let mut covers = vec![Vec::new(); f.w * f.h * f.d];
        let mut by_kind = vec![Vec::new(); layout.set.kinds.len()];
        for (p, (k, cells)) in layout.placements.iter().enumerate() {
            by_first[cells[0]].push(p as u32);
            by_kind[*k as usize].push(p as u32);
            for &c in cells {
                covers[c].push(p as u32);
            }
        }
        let fewest = f.d > 1;
        // The symmetries, and the piece a `--distinct` or a folding count
        // restricts to one placement per orbit (`Rule`), whatever this
        // run's mode: the walk learns it from the engine.
        let groups = symmetry::Breaking::new(&layout, true)?;
        // by_first's lists are in kind order (placements are made kind by
        // kind), so each kind's placements under a cell are one run. The
        // restricted piece's dropped placements stay in them: a walk that
        // restricts it places it first, from `restricted_first`, and has
        // no copy of it left after (it is single).
        let (mut first, mut runs, mut cell_runs) = (Vec::new(), Vec::new(), Vec::new());
        for list in &by_first {
            let from = runs.len() as u32;
            runs.extend(kind_runs(list, &kind_of, first.len() as u32));
            first.extend(list.iter().copied());
            cell_runs.push((from, runs.len() as u32));
        }
        let mut empty = bits::zero();
        for (i, &filled) in f.filled.iter().enumerate() {
            if filled {
                bits::set(&mut empty, i);
            }
        }
        let mut left = [0u8; MAX_KINDS];
        for (k, kind) in layout.set.kinds.iter().enumerate() {
            left[k] = kind.copies;
        }
        let sizes = layout
            .set
            .kinds
            .iter()
            .map(|k| k.cells.len() as u32)
            .collect();
        // Placements are made kind by kind, so each cover list is in kind order.
        let cover_runs = covers
            .iter()
            .map(|list| kind_runs(list, &kind_of, 0))
            .collect();
        let restricted_first = match groups.restricted {
            Some(k) => by_kind[k as usize]
                .iter()
                .copied()
                .filter(|&p| groups.allowed[p as usize])
                .collect(),
            None => Vec::new(),
        };
        let magnitude: Vec<u32> = layout
            .set
            .kinds
            .iter()
            .map(|k| {
                let cells: Vec<usize> = (0..k.cells.len()).collect();
                parity::imbalance(&cells, |i| k.cells[i]).unsigned_abs()
            })
            .collect();
        let parity = Parity::new(&layout.set, &magnitude);
        let mut kind_weight = [0u32; MAX_KINDS];
        let (imbalance, empty_imbalance) = match &parity {
            Some(table) => {
                for (k, w) in kind_weight
                    .iter_mut()
                    .enumerate()
                    .take(layout.set.kinds.len())
                {
                    *w = table.weight(k);
                }
                let coords = |c| f.coords(c);
                let cells: Vec<usize> = (0..f.filled.len()).filter(|&i| f.filled[i]).collect();
                (
                    layout
                        .placements
                        .iter()
                        .map(|(_, cells)| parity::imbalance(cells, coords))
                        .collect(),
                    parity::imbalance(&cells, coords),
                )
            }
            None => (vec![0; layout.placements.len()], 0),
        };
        let mut pack = Pack {
            distinct,
            imbalance,
            kind_weight,
            masks,
            kind_of,
            by_first,
            covers,
            cover_runs,
            by_kind,
            first,
            runs,
            cell_runs,
            fewest,
            fixers: groups.fixers,
            restricted_first,
            restricted: groups.restricted,
            leaf_group: groups.leaf_group,
            images: groups.images,
            sizes,
            parity,
            edges: Edges::new(f),
            root: None,
            layout,
        };
        let root = Packing {
            empty,
            left,
            placed: [0; MAX_PIECES],
            count: 0,
            rest: pack.parity.as_ref().map_or(0, |t| t.index(&left)),
            imbalance: empty_imbalance,
        };
        let (min, gcd) = pack.limits(&root.left);
        let colours_ok = pack
            .parity
            .as_ref()
            .is_none_or(|t| t.reachable(root.rest, root.imbalance));
        pack.root = (colours_ok && pack.regions_ok(&root.empty, &empty, min, gcd)).then_some(root);
        Ok(pack)
    }

    /// What a complete packing counts in a walk by `rule`: 1 in a plain
    /// walk; under `--distinct`, 1 when it is the one of its class the
    /// search counts; in a folding count, its orbit's size.
    fn leaf_weight(&self, s: &Packing<W>, rule: Rule) -> u64 {
        match rule {
            Rule::Plain => 1,
            Rule::Distinct => self.canonical(s) as u64,
            Rule::Weighted => {
                let kind = self.restricted.expect("a folding count restricts a piece");
                let p = s.placed[..s.count as usize]
                    .iter()
                    .find(|&&p| self.kind_of[p as usize] == kind)
                    .expect("a complete packing uses every piece");
                let fixed = self.fixers.get(p).map_or(0, Vec::len);
                (self.images.len() / (fixed + 1)) as u64
            }
        }
    }

    /// The number of symmetries `--distinct` counts up to.
    pub fn symmetries(&self) -> usize {
        self.images.len()
    }

    /// The smallest size and the gcd of the sizes of the pieces left.
    #[inline]
    fn limits(&self, left: &[u8; MAX_KINDS]) -> (u32, u32) {
        let (mut min, mut gcd) = (u32::MAX, 0);
        for (k, &size) in self.sizes.iter().enumerate() {
            if left[k] > 0 {
                min = min.min(size);
                gcd = gcd_of(gcd, size);
            }
        }
        (min, gcd.max(1))
    }

    /// Whether every empty region touching `seeds` could still be filled by
    /// pieces of at least `min` cells whose sizes share the divisor `gcd`.
    #[inline]
    fn regions_ok(&self, empty: &Bits<W>, seeds: &Bits<W>, min: u32, gcd: u32) -> bool {
        let mut seeds = bits::and(seeds, empty);
        while !bits::is_zero(&seeds) {
            let mut region = bits::lowest_bit(&seeds);
            loop {
                let grown = bits::and(&self.edges.grow(&region), empty);
                if grown == region {
                    break;
                }
                region = grown;
            }
            let size = bits::count(&region);
            if size < min || size % gcd != 0 {
                return false;
            }
            seeds = bits::and_not(&seeds, &region);
        }
        true
    }

    /// Places placement `p` in `s` (which must allow it).
    #[inline(always)]
    fn place(&self, s: &mut Packing<W>, p: u32) {
        s.empty = bits::and_not(&s.empty, &self.masks[p as usize]);
        let kind = self.kind_of[p as usize] as usize;
        s.left[kind] -= 1;
        s.rest -= self.kind_weight[kind];
        s.imbalance -= self.imbalance[p as usize];
        s.placed[s.count as usize] = p;
        s.count += 1;
    }

    /// Takes placement `p` out of `s` again.
    #[inline(always)]
    fn unplace(&self, s: &mut Packing<W>, p: u32) {
        s.count -= 1;
        let kind = self.kind_of[p as usize] as usize;
        s.left[kind] += 1;
        s.rest += self.kind_weight[kind];
        s.imbalance += self.imbalance[p as usize];
        s.empty = bits::or(&s.empty, &self.masks[p as usize]);
    }

    /// Whether placement `p` fits `s` and leaves fillable regions.
    #[inline(always)]
    fn fits(&self, s: &Packing<W>, p: u32, min: u32, gcd: u32) -> bool {
        let p = p as usize;
        if s.left[self.kind_of[p] as usize] == 0 || !bits::is_subset(&self.masks[p], &s.empty) {
            return false;
        }
        self.fillable_after(s, p as u32, &self.masks[p], min, gcd)
    }

    /// Whether the empty cells of `s` less placement `p` (cells `mask`)
    /// can still be filled: the colours can balance ([`Pack::colours_ok`])
    /// and every region the piece touches has a size the pieces left can
    /// fill ([`Pack::regions_ok`]).
    #[inline(always)]
    fn fillable_after(&self, s: &Packing<W>, p: u32, mask: &Bits<W>, min: u32, gcd: u32) -> bool {
        self.colours_ok(s, p)
            && self.regions_ok(
                &bits::and_not(&s.empty, mask),
                &self.edges.grow(mask),
                min,
                gcd,
            )
    }

    /// Whether the pieces left after placing `p` in `s` can still balance
    /// the colours of the empty cells (`parity`).
    #[inline(always)]
    fn colours_ok(&self, s: &Packing<W>, p: u32) -> bool {
        let Some(table) = &self.parity else {
            return true;
        };
        let p = p as usize;
        table.reachable(
            s.rest - self.kind_weight[self.kind_of[p] as usize],
            s.imbalance - self.imbalance[p],
        )
    }

    /// The placements to branch over: those listed under the lowest empty
    /// cell, or (with `fewest`) those covering the empty cell that has the
    /// fewest free placements. `None`: a dead end (no placement for an
    /// empty cell, or, with `fewest`, for a piece left).
    ///
    /// With `--distinct`, the restricted piece (one placement per orbit of
    /// the symmetries) goes first, at the root, whatever cell it covers:
    /// the tree then splits into one subtree per kept placement, and the
    /// whole search costs about 1/|G| of the count of every packing.
    /// Covering the lowest empty cell stays a valid rule after it: every
    /// cell below the lowest empty one is full, however it was filled.
    /// In a plain walk (`rule`) the restricted piece is a piece like any
    /// other.
    #[inline]
    fn branch(&self, s: &Packing<W>, rule: Rule) -> List {
        if rule != Rule::Plain && self.restricted_left(s) {
            return List::Restricted;
        }
        let Some(lowest) = bits::lowest(&s.empty) else {
            return List::Nothing;
        };
        if !self.fewest {
            return List::Lowest(lowest as u32);
        }
        match self.fewest_scan(s) {
            Some(cell) => List::Covering(cell as u32),
            None => List::Nothing,
        }
    }

    /// The placements `list` names.
    #[inline]
    fn list(&self, list: List) -> &[u32] {
        match list {
            List::Nothing => &[],
            List::Restricted => &self.restricted_first,
            List::Lowest(cell) => &self.by_first[cell as usize],
            List::Covering(cell) => &self.covers[cell as usize],
        }
    }

    /// Whether a complete packing is the one of its class that `--distinct` counts.
    fn canonical(&self, s: &Packing<W>) -> bool {
        let placed = &s.placed[..s.count as usize];
        let group: &[usize] = match self.restricted {
            Some(kind) => {
                let p = placed
                    .iter()
                    .find(|&&p| self.kind_of[p as usize] == kind)
                    .expect("a complete packing uses every piece");
                match self.fixers.get(p) {
                    Some(g) => g,
                    None => return true,
                }
            }
            None => &self.leaf_group,
        };
        if group.is_empty() {
            return true;
        }
        let mut mine: Vec<u32> = placed.to_vec();
        mine.sort_unstable();
        group.iter().all(|&g| {
            let mut image: Vec<u32> = placed.iter().map(|&p| self.images[g][p as usize]).collect();
            image.sort_unstable();
            mine <= image
        })
    }

    /// Whether the restricted piece is still to be placed.
    #[inline(always)]
    fn restricted_left(&self, s: &Packing<W>) -> bool {
        self.restricted.is_some_and(|k| s.left[k as usize] > 0)
    }

    /// Counts, in place, the nodes and solutions strictly below `s` in a
    /// walk by `rule`: the same tree as the walk's moves, without a cursor.
    fn count_below(&self, s: &mut Packing<W>, rule: Rule, total: &mut SubtreeCount) {
        if rule == Rule::Plain || !self.restricted_left(s) {
            return if self.fewest {
                self.count_fewest(s, rule, total)
            } else {
                self.count_below_lowest(s, rule, total)
            };
        }
        let (min, gcd) = self.limits(&s.left);
        for &p in &self.restricted_first {
            if self.fits(s, p, min, gcd) {
                self.count_child(s, p, rule, total);
            }
        }
    }

    /// Counts the child of `s` that placement `p` makes, and all below it.
    #[inline(always)]
    fn count_child(&self, s: &mut Packing<W>, p: u32, rule: Rule, total: &mut SubtreeCount) {
        self.place(s, p);
        total.nodes += 1;
        if bits::is_zero(&s.empty) {
            total.solutions += self.leaf_weight(s, rule);
        } else {
            self.count_below(s, rule, total);
        }
        self.unplace(s, p);
    }

    /// [`Pack::count_below`] branching on the lowest empty cell: the same
    /// children in the same order as [`Pack::branch`] and [`Pack::fits`]
    /// give, a used piece's placements skipped in one step.
    fn count_below_lowest(&self, s: &mut Packing<W>, rule: Rule, total: &mut SubtreeCount) {
        let Some(lowest) = bits::lowest(&s.empty) else {
            return;
        };
        let (min, gcd) = self.limits(&s.left);
        let (a, b) = self.cell_runs[lowest];
        for &(kind, start, end) in &self.runs[a as usize..b as usize] {
            if s.left[kind as usize] == 0 {
                continue;
            }
            for &p in &self.first[start as usize..end as usize] {
                let mask = &self.masks[p as usize];
                if bits::is_subset(mask, &s.empty) && self.fillable_after(s, p, mask, min, gcd) {
                    self.count_child(s, p, rule, total);
                }
            }
        }
    }

    /// The cell -> placement map of a packing, for rendering.
    fn owners(&self, s: &Packing<W>) -> Vec<Option<u32>> {
        let f = &self.layout.figure;
        let mut owner = vec![None; f.w * f.h * f.d];
        for &p in &s.placed[..s.count as usize] {
            for &c in &self.layout.placements[p as usize].1 {
                owner[c] = Some(p);
            }
        }
        owner
    }
}

/// The runs of one kind in `list`, as `(kind, start, end)` with the
/// positions shifted by `offset` (where `list` will start in a longer one).
fn kind_runs(list: &[u32], kind_of: &[u8], offset: u32) -> Vec<(u8, u32, u32)> {
    let mut runs: Vec<(u8, u32, u32)> = Vec::new();
    for (i, &p) in list.iter().enumerate() {
        let (k, at) = (kind_of[p as usize], offset + i as u32);
        match runs.last_mut() {
            Some((kind, _, end)) if *kind == k => *end = at + 1,
            _ => runs.push((k, at, at + 1)),
        }
    }
    runs
}

fn gcd_of(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd_of(b, a % b) }
}
