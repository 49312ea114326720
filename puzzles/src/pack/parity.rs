//! The colouring bound (BCSolve's unimplemented "parity optimisation").
//!
//! Colour the cells like a chessboard in 2D or 3D: cell (x, y, z) is black
//! when x + y + z is even. A placement covers some black and some white
//! cells; its *imbalance* is black minus white. Moving a piece by one cell
//! flips the sign of its imbalance and turning it keeps the magnitude, so
//! each kind has one magnitude `|d|` and its placements have `+|d|` or
//! `-|d|`. The empty cells of a node have an imbalance too, and in every
//! completion it equals the sum of the imbalances of the pieces still to be
//! placed. So a node can be cut when no choice of signs for the pieces left
//! reaches the empty cells' imbalance.
//!
//! Which sums the pieces left can reach depends only on how many of each
//! kind are left: a table holds, for every such multiset (its index in
//! mixed radix, kept up to date as pieces are placed), the reachable sums
//! as a 128-bit set, so the check is one load and one bit test. The sums
//! reached with both signs allowed for every piece are a superset of those
//! any figure allows, so the cut never drops a packing.

use super::pieces::{MAX_KINDS, PieceSet};

/// Sums are stored shifted by this much (bit `OFFSET + v` for sum `v`).
const OFFSET: i32 = 64;

/// The largest table built: kinds with up to 3 copies over 12 or 13 kinds
/// stay far below it (Bedlam: 8,192 entries; Double Soma: 2,187).
const MAX_ENTRIES: usize = 1 << 16;

/// The reachable imbalances of every multiset of pieces left.
#[derive(Debug, Clone)]
pub(crate) struct Parity {
    /// `weight[k]`: how much one copy of kind `k` adds to a multiset's index.
    weight: [u32; MAX_KINDS],
    /// `reach[index]`: bit `OFFSET + v` set when the pieces left can sum to `v`.
    reach: Vec<u128>,
}

impl Parity {
    /// The table for `set`, given each kind's imbalance magnitude. `None`
    /// when it could never cut (every magnitude 0) or would be too large
    /// (more multisets than `MAX_ENTRIES`, or sums beyond +-63).
    pub(crate) fn new(set: &PieceSet, magnitude: &[u32]) -> Option<Parity> {
        let kinds = set.kinds.len();
        let total: u32 = (0..kinds)
            .map(|k| magnitude[k] * u32::from(set.kinds[k].copies))
            .sum();
        if total == 0 || total as i32 >= OFFSET {
            return None;
        }
        let mut weight = [0u32; MAX_KINDS];
        let mut entries = 1usize;
        for (w, kind) in weight.iter_mut().zip(&set.kinds) {
            *w = entries as u32;
            entries = entries.checked_mul(usize::from(kind.copies) + 1)?;
            if entries > MAX_ENTRIES {
                return None;
            }
        }
        let mut reach = vec![0u128; entries];
        reach[0] = 1u128 << OFFSET;
        for index in 1..entries {
            // Take one copy of the first kind this multiset holds.
            let k = (0..kinds)
                .find(|&k| {
                    !(index / weight[k] as usize)
                        .is_multiple_of(usize::from(set.kinds[k].copies) + 1)
                })
                .expect("a non-empty multiset holds some kind");
            let rest = reach[index - weight[k] as usize];
            let d = magnitude[k];
            reach[index] = (rest << d) | (rest >> d);
        }
        Some(Parity { weight, reach })
    }

    /// The index of the multiset that `left` copies of each kind make.
    pub(crate) fn index(&self, left: &[u8; MAX_KINDS]) -> u32 {
        left.iter()
            .zip(&self.weight)
            .map(|(&c, &w)| u32::from(c) * w)
            .sum()
    }

    /// What one copy of kind `k` adds to the index.
    #[inline(always)]
    pub(crate) fn weight(&self, k: usize) -> u32 {
        self.weight[k]
    }

    /// Whether the multiset `index` can sum to `imbalance`.
    #[inline(always)]
    pub(crate) fn reachable(&self, index: u32, imbalance: i32) -> bool {
        let bit = imbalance + OFFSET;
        (0..128).contains(&bit) && (self.reach[index as usize] >> bit) & 1 == 1
    }
}

/// Black minus white among `cells`, cell (x, y, z) black when x + y + z is
/// even; `coords` gives a cell's coordinates.
pub(crate) fn imbalance(cells: &[usize], coords: impl Fn(usize) -> [i32; 3]) -> i32 {
    cells
        .iter()
        .map(|&c| {
            let [x, y, z] = coords(c);
            if (x + y + z) % 2 == 0 { 1 } else { -1 }
        })
        .sum()
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn reachable_sums_of_the_soma_pieces() {
        // Soma: V has magnitude 1, T and the branch P 2, the rest 0.
        let set = PieceSet::load("soma").unwrap();
        let magnitude: Vec<u32> = set
            .kinds
            .iter()
            .map(|k| {
                imbalance(&(0..k.cells.len()).collect::<Vec<_>>(), |i| k.cells[i]).unsigned_abs()
            })
            .collect();
        let mut sorted = magnitude.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 0, 0, 0, 1, 2, 2]);
        let p = Parity::new(&set, &magnitude).unwrap();
        let mut left = [0u8; MAX_KINDS];
        for (k, kind) in set.kinds.iter().enumerate() {
            left[k] = kind.copies;
        }
        let all = p.index(&left);
        // +-1 +-2 +-2: every odd sum from -5 to 5, nothing even.
        for v in -6..=6 {
            assert_eq!(p.reachable(all, v), v % 2 != 0 && v.abs() <= 5, "{v}");
        }
        assert!(p.reachable(0, 0) && !p.reachable(0, 1));
        assert!(!p.reachable(all, 100) && !p.reachable(all, -100));
    }
}
