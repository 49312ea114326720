//! A node's moves: placing a piece and taking it back, in place, and the
//! cell-to-placement map a packing is rendered from.

use super::bits;
use super::{Pack, Packing};

impl<const W: usize> Pack<W> {
    /// Places placement `p` in `s` (which must allow it).
    #[inline(always)]
    pub(super) fn place(&self, s: &mut Packing<W>, p: u32) {
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
    pub(super) fn unplace(&self, s: &mut Packing<W>, p: u32) {
        s.count -= 1;
        let kind = self.kind_of[p as usize] as usize;
        s.left[kind] += 1;
        s.rest += self.kind_weight[kind];
        s.imbalance += self.imbalance[p as usize];
        s.empty = bits::or(&s.empty, &self.masks[p as usize]);
    }

    /// The cell -> placement map of a packing, for rendering.
    pub(super) fn owners(&self, s: &Packing<W>) -> Vec<Option<u32>> {
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

#[cfg(test)]
mod tests {
    use super::super::test_pack;
    use super::*;

    /// Everything a node holds, to compare two.
    fn fields<const W: usize>(s: &Packing<W>) -> String {
        format!(
            "{:?} {:?} {:?} {} {}",
            s.empty,
            s.left,
            &s.placed[..s.count as usize],
            s.rest,
            s.imbalance
        )
    }

    #[test]
    fn unplace_restores_the_node_exactly() {
        for (pieces, figure) in [("soma", "3x3x3"), ("pentominoes", "10x6")] {
            let p: Pack<1> = test_pack(pieces, figure, false);
            let mut s = p.root.clone().unwrap();
            let mut empty = bits::count(&s.empty) as usize;
            let mut path: Vec<(u32, String)> = Vec::new();
            // Place the first placement that fits, level by level, as far as it goes.
            while let Some(q) = (0..p.masks.len() as u32).find(|&q| p.fits(&s, q, 0, 1)) {
                let before = fields(&s);
                p.place(&mut s, q);
                empty -= p.layout.placements[q as usize].1.len();
                assert_eq!(bits::count(&s.empty) as usize, empty);
                assert_eq!(s.placed[s.count as usize - 1], q);
                path.push((q, before));
            }
            assert!(!path.is_empty());
            let owners = p.owners(&s);
            for &(q, _) in &path {
                for &c in &p.layout.placements[q as usize].1 {
                    assert_eq!(owners[c], Some(q));
                }
            }
            while let Some((q, before)) = path.pop() {
                p.unplace(&mut s, q);
                assert_eq!(fields(&s), before, "{pieces} {figure}");
            }
            assert!(p.owners(&s).iter().all(Option::is_none));
        }
    }
}
