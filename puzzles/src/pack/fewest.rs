//! Branching on the empty cell with the fewest placements (3D figures).
//!
//! The rule: cut the node when a piece left fits nowhere or an empty cell
//! is covered by no placement that fits; else branch on the empty cell
//! with the fewest placements that fit, the lowest such cell on a tie.
//!
//! The counter keeps, level by level, the list of placements that fit (their
//! piece left, their cells empty): a child's list is its parent's filtered
//! against the cells just filled, so the lists shrink as the search goes
//! down and a node costs a pass over its parent's list, not a scan of every
//! cell's placements. The per-cell counts come from the same pass, in
//! bit-sliced counters: plane `i` holds bit `i` of every cell's count, and
//! adding a placement is a ripple of ANDs and XORs over the planes. Counts
//! beyond the planes (near the root only) fall back to an exact count.

use super::bits::{self, Bits};
use super::{Pack, Packing, Rule};
use hysolve::advanced::Count;

/// Counts up to `2^PLANES - 1` are exact in the counters.
const PLANES: usize = 5;

/// A placement that fits, with what the filter reads kept beside it (no
/// lookup by placement number in the hot loop).
#[derive(Clone, Copy)]
struct Fit<const W: usize> {
    mask: Bits<W>,
    p: u32,
    kind: u8,
}

/// Bit-sliced per-cell counts of a list of placements.
struct Counts<const W: usize> {
    planes: [Bits<W>; PLANES],
    /// Cells whose count reached `2^PLANES`.
    over: Bits<W>,
    /// Kinds with a placement in the list.
    kinds: u32,
}

impl<const W: usize> Counts<W> {
    fn new() -> Self {
        Counts {
            planes: [bits::zero(); PLANES],
            over: bits::zero(),
            kinds: 0,
        }
    }

    #[inline(always)]
    fn add(&mut self, mask: &Bits<W>, kind: u8) {
        let mut carry = *mask;
        for plane in &mut self.planes {
            let next = bits::and(plane, &carry);
            *plane = bits::xor(plane, &carry);
            carry = next;
        }
        self.over = bits::or(&self.over, &carry);
        self.kinds |= 1 << kind;
    }

    /// Cells of `cells` that no placement covers.
    fn uncovered(&self, cells: &Bits<W>) -> Bits<W> {
        let any = self.planes.iter().fold(self.over, |a, p| bits::or(&a, p));
        bits::and_not(cells, &any)
    }

    /// Cells of `cells` covered by exactly `k` placements (`k < 2^PLANES`).
    fn exactly(&self, cells: &Bits<W>, k: usize) -> Bits<W> {
        let mut m = bits::and_not(cells, &self.over);
        for (i, plane) in self.planes.iter().enumerate() {
            m = if (k >> i) & 1 == 1 {
                bits::and(&m, plane)
            } else {
                bits::and_not(&m, plane)
            };
        }
        m
    }
}

impl<const W: usize> Pack<W> {
    /// The kinds with a copy left in `s`, as bits.
    #[inline]
    fn kinds_left(&self, s: &Packing<W>) -> u32 {
        (0..self.sizes.len())
            .filter(|&k| s.left[k] > 0)
            .fold(0, |m, k| m | 1 << k)
    }

    /// The cell to branch on by the rule above, given the placements that
    /// fit `s` (`list`) and their counts; `None` cuts the node.
    fn fewest_cell(&self, s: &Packing<W>, list: &[Fit<W>], counts: &Counts<W>) -> Option<usize> {
        if counts.kinds != self.kinds_left(s) || !bits::is_zero(&counts.uncovered(&s.empty)) {
            return None;
        }
        for k in 1..1 << PLANES {
            if let Some(c) = bits::lowest(&counts.exactly(&s.empty, k)) {
                return Some(c);
            }
        }
        // Every empty cell has 2^PLANES placements or more: count exactly.
        let mut best = (usize::MAX, 0);
        for c in bits::ones(&s.empty) {
            let n = list.iter().filter(|f| bits::test(&f.mask, c)).count();
            if n < best.0 {
                best = (n, c);
            }
        }
        Some(best.1)
    }

    /// The placements that fit `s` (piece left, cells empty), appended to `out`, with their counts.
    fn fitting(&self, s: &Packing<W>, out: &mut Vec<Fit<W>>) -> Counts<W> {
        let mut counts = Counts::new();
        for (k, list) in self.by_kind.iter().enumerate() {
            if s.left[k] == 0 {
                continue;
            }
            for &q in list {
                let mask = &self.masks[q as usize];
                if bits::is_subset(mask, &s.empty) {
                    out.push(Fit {
                        mask: *mask,
                        p: q,
                        kind: k as u8,
                    });
                    counts.add(mask, k as u8);
                }
            }
        }
        counts
    }

    /// The cell [`Pack::branch`] branches on in 3D, by the same rule,
    /// without a list (the engine's walk, for the modes that list
    /// packings): every kind left must have a placement that fits; then,
    /// cell by cell, the placements that fit are counted until they reach
    /// the best count so far (one is enough to show a cell is coverable).
    pub(super) fn fewest_scan(&self, s: &Packing<W>) -> Option<usize> {
        for (k, placements) in self.by_kind.iter().enumerate() {
            let fits = |&q: &u32| bits::is_subset(&self.masks[q as usize], &s.empty);
            if s.left[k] > 0 && !placements.iter().any(fits) {
                return None;
            }
        }
        // Only the restricted piece has placements the symmetry breaking
        // drops, and it is placed before this scan runs, so every
        // placement of a piece left is allowed here.
        let mut best = (usize::MAX, 0);
        for c in bits::ones(&s.empty) {
            let (mut n, covers) = (0, &self.covers[c]);
            'runs: for &(kind, start, end) in &self.cover_runs[c] {
                if s.left[kind as usize] == 0 {
                    continue;
                }
                for &q in &covers[start as usize..end as usize] {
                    if bits::is_subset(&self.masks[q as usize], &s.empty) {
                        n += 1;
                        if n >= best.0 {
                            break 'runs;
                        }
                    }
                }
            }
            if n == 0 {
                return None;
            }
            if n < best.0 {
                best = (n, c);
            }
        }
        Some(best.1)
    }

    /// Counts the packings below `s` (the restricted piece placed), adding
    /// every placement made to `total.nodes`.
    pub(super) fn count_fewest(&self, s: &mut Packing<W>, rule: Rule, total: &mut Count) {
        let mut buf = Vec::with_capacity(4 * self.masks.len());
        let counts = self.fitting(s, &mut buf);
        let end = buf.len();
        self.fewest_level(s, &mut buf, 0..end, counts, rule, total);
    }

    /// One level: `buf[level]` holds the placements that fit `s`, with
    /// their `counts`.
    fn fewest_level(
        &self,
        s: &mut Packing<W>,
        buf: &mut Vec<Fit<W>>,
        level: std::ops::Range<usize>,
        counts: Counts<W>,
        rule: Rule,
        total: &mut Count,
    ) {
        let (from, to) = (level.start, level.end);
        let Some(cell) = self.fewest_cell(s, &buf[from..to], &counts) else {
            return;
        };
        let (min, gcd) = self.limits(&s.left);
        for i in from..to {
            let Fit { mask, p, kind } = buf[i];
            if !bits::test(&mask, cell) || !self.fillable_after(s, p, &mask, min, gcd) {
                continue;
            }
            self.place(s, p);
            total.nodes += 1;
            if bits::is_zero(&s.empty) {
                total.solutions += self.leaf_weight(s, rule);
            } else {
                // The child's list: this one's, less the placements that
                // meet the piece just placed, and its kind's when no copy
                // is left (every other entry still fits).
                let gone = if s.left[kind as usize] == 0 {
                    kind
                } else {
                    u8::MAX
                };
                let start = buf.len();
                let mut child = Counts::new();
                for j in from..to {
                    let f = buf[j];
                    if f.kind != gone && bits::is_zero(&bits::and(&f.mask, &mask)) {
                        buf.push(f);
                        child.add(&f.mask, f.kind);
                    }
                }
                let end = buf.len();
                self.fewest_level(s, buf, start..end, child, rule, total);
                buf.truncate(start);
            }
            self.unplace(s, p);
        }
    }
}

#[cfg(test)]
mod test {
    use super::super::test_pack;
    use hysolve::advanced::count_by_moves;
    use hysolve::{Mode, Problem};

    /// Nodes and solutions of the subtree `state` stands on, by the
    /// walk's moves alone.
    fn walked<P: Problem>(p: &P, state: &mut P::State) -> (u64, u64) {
        let c = count_by_moves(p, state);
        (c.nodes, c.solutions)
    }

    #[test]
    fn the_counters_walk_the_tree_the_moves_do() {
        let solid = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../tests/data/packing/solid-pentominoes.pieces"
        );
        // (pieces, figure, distinct, mode, solutions): 3D (fewest.rs), and
        // 2D (the lowest empty cell), in every rule.
        let cases = [
            ("soma", "3x3x3", false, Mode::All, 11_520),
            ("soma", "3x3x3", true, Mode::Count, 240),
            ("soma", "3x3x3", false, Mode::Count, 11_520),
            (solid, "10x3x2", true, Mode::All, 12),
            (solid, "10x3x2", false, Mode::Count, 96),
            ("pentominoes", "20x3", false, Mode::All, 8),
            ("pentominoes", "20x3", false, Mode::Count, 8),
            ("pentominoes", "20x3", true, Mode::Count, 2),
        ];
        for (pieces, figure, distinct, mode, expected) in cases {
            let p = test_pack::<1>(pieces, figure, distinct);
            let what = format!("{pieces} {figure} distinct={distinct} {mode:?}");
            let mut w = p.state(mode);
            p.load(&mut w, &p.root());
            let whole = p.count_subtree(&mut w);
            assert_eq!((whole.nodes, whole.solutions), walked(&p, &mut w), "{what}");
            assert_eq!(whole.solutions, expected, "{what}");
            // The subtrees of the first children and grandchildren.
            let mut moves = p.moves(&mut w);
            for _ in 0..4 {
                let Some(m) = p.next_move(&w, &mut moves) else {
                    break;
                };
                p.apply(&mut w, &m);
                let c = p.count_subtree(&mut w);
                assert_eq!((c.nodes, c.solutions), walked(&p, &mut w), "{what}");
                let mut below = p.moves(&mut w);
                if let Some(g) = p.next_move(&w, &mut below) {
                    p.apply(&mut w, &g);
                    let c = p.count_subtree(&mut w);
                    assert_eq!((c.nodes, c.solutions), walked(&p, &mut w), "{what}");
                    p.undo(&mut w, &g);
                }
                p.undo(&mut w, &m);
            }
        }
    }
}
