//! What a complete packing counts: 1 in a plain walk; under `--distinct`,
//! 1 when it is the one of its class the search keeps (`symmetry.rs`); in
//! a folding count, the size of its orbit.

use super::{Pack, Packing, Rule};

impl<const W: usize> Pack<W> {
    /// What a complete packing counts in a walk by `rule`: 1 in a plain
    /// walk; under `--distinct`, 1 when it is the one of its class the
    /// search counts; in a folding count, its orbit's size.
    pub(super) fn leaf_weight(&self, s: &Packing<W>, rule: Rule) -> u64 {
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

    /// Whether a complete packing is the one of its class that `--distinct` counts.
    pub(super) fn canonical(&self, s: &Packing<W>) -> bool {
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
}

#[cfg(test)]
mod tests {
    use super::super::{test_pack, walk_by_hand};
    use super::*;

    /// The sum of the leaves' weights in the tree of `rule`.
    fn total(pieces: &str, figure: &str, distinct: bool, rule: Rule) -> u64 {
        let p: Pack<1> = test_pack(pieces, figure, distinct);
        let mut sum = 0;
        walk_by_hand(&p, &mut p.root.clone().unwrap(), rule, &mut |s| {
            sum += p.leaf_weight(s, rule)
        });
        sum
    }

    #[test]
    fn weights_count_every_packing_or_one_per_class() {
        // 8 tilings of 20x3, 2 up to its 4 symmetries; Soma, 11,520 and 240.
        for (pieces, figure, all, classes) in [
            ("pentominoes", "20x3", 8, 2),
            ("soma", "3x3x3", 11_520, 240),
        ] {
            assert_eq!(total(pieces, figure, false, Rule::Plain), all);
            assert_eq!(total(pieces, figure, false, Rule::Weighted), all);
            assert_eq!(total(pieces, figure, true, Rule::Distinct), classes);
        }
    }

    #[test]
    fn a_class_is_counted_once_at_its_smallest_member() {
        // No piece can be restricted among two copies of one kind: every
        // packing is checked against the whole group at the leaf. The 2x2
        // box's two tilings by dominoes are one class under its 8 symmetries.
        let p: Pack<1> = {
            let set = super::super::pieces::PieceSet::parse("D 0,0 1,0\nD 0,0 1,0\n", "d").unwrap();
            let f = super::super::figure::Figure::parse_box("2x2").unwrap();
            Pack::new(super::super::Layout::new(set, f).unwrap(), true).unwrap()
        };
        assert!(p.restricted.is_none());
        assert_eq!(p.leaf_group.len(), 7);
        let mut kept = Vec::new();
        walk_by_hand(&p, &mut p.root.clone().unwrap(), Rule::Distinct, &mut |s| {
            kept.push(p.canonical(s))
        });
        kept.sort();
        assert_eq!(kept, [false, true]);
    }
}
