//! Branching: the list a node's children come from (the restricted piece's
//! kept placements first, then the placements under the lowest empty cell,
//! or in 3D those covering the cell with the fewest that fit).

use super::bits;
use super::{List, Pack, Packing, Rule};

impl<const W: usize> Pack<W> {
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
    pub(super) fn branch(&self, s: &Packing<W>, rule: Rule) -> List {
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
    pub(super) fn list(&self, list: List) -> &[u32] {
        match list {
            List::Nothing => &[],
            List::Restricted => &self.restricted_first,
            List::Lowest(cell) => &self.by_first[cell as usize],
            List::Covering(cell) => &self.covers[cell as usize],
        }
    }

    /// Whether the restricted piece is still to be placed.
    #[inline(always)]
    pub(super) fn restricted_left(&self, s: &Packing<W>) -> bool {
        self.restricted.is_some_and(|k| s.left[k as usize] > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_pack;
    use super::*;

    #[test]
    fn the_restricted_piece_first_then_the_lowest_cell() {
        let p: Pack<1> = test_pack("pentominoes", "10x6", true);
        let mut s = p.root.clone().unwrap();
        assert!(p.restricted_left(&s));
        assert!(matches!(p.branch(&s, Rule::Plain), List::Lowest(0)));
        assert!(matches!(p.branch(&s, Rule::Weighted), List::Restricted));
        assert!(matches!(p.branch(&s, Rule::Distinct), List::Restricted));
        let kept = p.list(List::Restricted);
        assert_eq!(kept, &p.restricted_first[..]);
        // Place the restricted piece: the lowest empty cell next, whatever the rule.
        let q = kept[0];
        p.place(&mut s, q);
        assert!(!p.restricted_left(&s));
        let lowest = bits::lowest(&s.empty).unwrap();
        assert!(matches!(p.branch(&s, Rule::Distinct), List::Lowest(c) if c as usize == lowest));
        assert_eq!(p.list(List::Lowest(lowest as u32)), &p.by_first[lowest][..]);
        assert!(p.list(List::Nothing).is_empty());
    }

    #[test]
    fn solids_branch_on_the_cell_with_fewest_placements() {
        let p: Pack<1> = test_pack("soma", "3x3x3", false);
        let s = p.root.clone().unwrap();
        let List::Covering(cell) = p.branch(&s, Rule::Plain) else {
            panic!("3D branches on a covered cell");
        };
        // No empty cell has fewer placements that fit.
        let fit = |c: usize| {
            p.covers[c]
                .iter()
                .filter(|&&q| bits::is_subset(&p.masks[q as usize], &s.empty))
                .count()
        };
        let n = fit(cell as usize);
        assert!(bits::ones(&s.empty).all(|c| fit(c) >= n));
        assert_eq!(p.list(List::Covering(cell)), &p.covers[cell as usize][..]);
    }
}
