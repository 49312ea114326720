//! The cuts: a child survives only if every empty region the new piece
//! touches can still be filled (at least as large as the smallest piece
//! left, a multiple of the gcd of the sizes left) and the pieces left can
//! still balance the colours of the empty cells (`parity`).

use super::bits::{self, Bits};
use super::figure::Figure;
use super::pieces::MAX_KINDS;
use super::{Pack, Packing};

/// Masks for growing regions: cells that have a neighbour in each direction.
#[derive(Debug, Clone)]
pub(super) struct Edges<const W: usize> {
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
    pub(super) fn new(f: &Figure) -> Self {
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
    /// The smallest size and the gcd of the sizes of the pieces left.
    #[inline]
    pub(super) fn limits(&self, left: &[u8; MAX_KINDS]) -> (u32, u32) {
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
    pub(super) fn regions_ok(&self, empty: &Bits<W>, seeds: &Bits<W>, min: u32, gcd: u32) -> bool {
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

    /// Whether placement `p` fits `s` and leaves fillable regions.
    #[inline(always)]
    pub(super) fn fits(&self, s: &Packing<W>, p: u32, min: u32, gcd: u32) -> bool {
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
    pub(super) fn fillable_after(
        &self,
        s: &Packing<W>,
        p: u32,
        mask: &Bits<W>,
        min: u32,
        gcd: u32,
    ) -> bool {
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
    pub(super) fn colours_ok(&self, s: &Packing<W>, p: u32) -> bool {
        let Some(table) = &self.parity else {
            return true;
        };
        let p = p as usize;
        table.reachable(
            s.rest - self.kind_weight[self.kind_of[p] as usize],
            s.imbalance - self.imbalance[p],
        )
    }
}

fn gcd_of(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd_of(b, a % b) }
}

#[cfg(test)]
mod tests {
    use super::super::test_pack;
    use super::*;

    fn board<const W: usize>(f: &Figure, cells: &[[i32; 3]]) -> Bits<W> {
        let mut b = bits::zero();
        for c in cells {
            bits::set(&mut b, f.index(c[0], c[1], c[2]).unwrap());
        }
        b
    }

    #[test]
    fn growing_stays_inside_the_box() {
        let f = Figure::parse_box("4x3x2").unwrap();
        let e = Edges::<1>::new(&f);
        // A corner grows into its three neighbours, no further.
        let corner = board(&f, &[[3, 2, 1]]);
        let grown = board(&f, &[[3, 2, 1], [2, 2, 1], [3, 1, 1], [3, 2, 0]]);
        assert_eq!(e.grow(&corner), grown);
        // On a flat box, no neighbour in z; the end of a row does not wrap.
        let f = Figure::parse_box("4x3").unwrap();
        let e = Edges::<1>::new(&f);
        let end = board(&f, &[[3, 0, 0]]);
        assert_eq!(e.grow(&end), board(&f, &[[3, 0, 0], [2, 0, 0], [3, 1, 0]]));
    }

    #[test]
    fn regions_too_small_or_of_the_wrong_size_are_cut() {
        assert_eq!((gcd_of(12, 18), gcd_of(0, 5), gcd_of(7, 0)), (6, 5, 7));
        // Pentominoes on 10x6 (the search sees it 6 wide): left, 5 cells
        // each, so regions of 5, 10, ... pass and others fail.
        let p: Pack<1> = test_pack("pentominoes", "10x6", false);
        let root = p.root.clone().unwrap();
        assert_eq!(p.limits(&root.left), (5, 5));
        let f = &p.layout.figure;
        let all = root.empty;
        // A wall across the search's rows after the first x: regions of
        // 6x and 54 - 6x cells on its two sides.
        for x in 1..9 {
            let wall: Vec<[i32; 3]> = (0..6).map(|i| [i, x, 0]).collect();
            let wall = board::<1>(f, &wall);
            let (empty, seeds) = (bits::and_not(&all, &wall), p.edges.grow(&wall));
            assert!(p.regions_ok(&empty, &seeds, 6, 6), "x = {x}");
            assert!(!p.regions_ok(&empty, &seeds, 5, 5), "x = {x}");
            assert_eq!(
                p.regions_ok(&empty, &seeds, 7, 3),
                x != 1 && x != 8,
                "x = {x}"
            );
        }
        // With one piece of 5 left, an empty region of 4 is too small.
        let mut left = [0; MAX_KINDS];
        left[0] = 1;
        assert_eq!(p.limits(&left), (5, 5));
        assert_eq!(p.limits(&[0; MAX_KINDS]), (u32::MAX, 1));
        let four = board::<1>(f, &[[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0]]);
        assert!(!p.regions_ok(&four, &four, 5, 1));
        assert!(p.regions_ok(&four, &four, 4, 2));
        assert!(!p.regions_ok(&four, &four, 4, 3));
    }

    #[test]
    fn fits_needs_the_piece_left_and_its_cells_empty() {
        let p: Pack<1> = test_pack("soma", "3x3x3", false);
        let mut s: Packing<1> = p.root.clone().unwrap();
        let q = (0..p.masks.len() as u32)
            .find(|&q| p.fits(&s, q, 0, 1))
            .unwrap();
        p.place(&mut s, q);
        // The same kind is used up; an overlapping placement does not fit.
        let kind = p.kind_of[q as usize];
        assert!(
            p.by_kind[kind as usize]
                .iter()
                .all(|&r| !p.fits(&s, r, 0, 1))
        );
        assert!(
            p.covers[p.layout.placements[q as usize].1[0]]
                .iter()
                .all(|&r| !p.fits(&s, r, 0, 1))
        );
    }
}
