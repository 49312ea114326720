//! The in-place counter of 2D figures: the nodes and solutions below a
//! node, with no cursor and no allocation per node, branching on the
//! lowest empty cell (3D figures: `fewest.rs`). It visits the tree the
//! walk's moves make (the tests hold it to them).

use super::bits;
use super::{Pack, Packing, Rule};
use hysolve::advanced::Count;

impl<const W: usize> Pack<W> {
    /// Counts, in place, the nodes and solutions strictly below `s` in a
    /// walk by `rule`: the same tree as the walk's moves, without a cursor.
    pub(super) fn count_below(&self, s: &mut Packing<W>, rule: Rule, total: &mut Count) {
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
    pub(super) fn count_child(&self, s: &mut Packing<W>, p: u32, rule: Rule, total: &mut Count) {
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
    pub(super) fn count_below_lowest(&self, s: &mut Packing<W>, rule: Rule, total: &mut Count) {
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
}

#[cfg(test)]
mod tests {
    use super::super::{test_pack, walk_by_hand};
    use super::*;

    #[test]
    fn the_counter_visits_the_tree_walked_by_hand() {
        for (figure, distinct, rule) in [
            ("20x3", false, Rule::Plain),
            ("20x3", false, Rule::Weighted),
            ("20x3", true, Rule::Distinct),
            ("15x4", true, Rule::Distinct),
        ] {
            let p: Pack<1> = test_pack("pentominoes", figure, distinct);
            let mut s = p.root.clone().unwrap();
            let mut solutions = 0;
            let nodes = walk_by_hand(&p, &mut s, rule, &mut |s| {
                solutions += p.leaf_weight(s, rule)
            });
            let mut total = Count::default();
            p.count_below(&mut s, rule, &mut total);
            assert_eq!(
                (total.nodes, total.solutions),
                (nodes, solutions),
                "{figure} {rule:?}"
            );
            assert!(nodes > 0);
        }
    }
}
