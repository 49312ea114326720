//! Building a search from a layout: the placements as bitboards, the
//! indexes the walk and the counters read (by lowest cell, by covered cell,
//! by kind, in runs of one kind), the symmetries a `--distinct` or a
//! folding count breaks, the colouring table and the root.

use super::bits::{self, Bits};
use super::parity::{self, Parity};
use super::pieces::{MAX_KINDS, MAX_PIECES};
use super::{Edges, Layout, Pack, Packing, symmetry};
use crate::PuzzleError;

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

    /// The number of symmetries `--distinct` counts up to.
    pub fn symmetries(&self) -> usize {
        self.images.len()
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

#[cfg(test)]
mod tests {
    use super::super::test_pack;
    use super::*;

    #[test]
    fn runs_of_one_kind() {
        let kind_of = [0, 0, 1, 1, 1, 2];
        assert_eq!(
            kind_runs(&[0, 1, 2, 4, 5], &kind_of, 10),
            [(0, 10, 12), (1, 12, 14), (2, 14, 15)]
        );
        assert_eq!(kind_runs(&[], &kind_of, 3), []);
    }

    #[test]
    fn indexes_agree_with_the_placements() {
        let p: Pack<1> = test_pack("pentominoes", "8x8-hole", true);
        let cells = |q: u32| &p.layout.placements[q as usize].1;
        for (c, list) in p.by_first.iter().enumerate() {
            assert!(list.iter().all(|&q| cells(q)[0] == c));
            // The runs list the same placements, kind by kind.
            let (a, b) = p.cell_runs[c];
            let mut listed = Vec::new();
            for &(kind, start, end) in &p.runs[a as usize..b as usize] {
                for &q in &p.first[start as usize..end as usize] {
                    assert_eq!(p.kind_of[q as usize], kind);
                    listed.push(q);
                }
            }
            assert_eq!(&listed, list);
        }
        for (c, list) in p.covers.iter().enumerate() {
            assert!(list.iter().all(|&q| cells(q).contains(&c)));
            assert!(list.iter().all(|&q| bits::test(&p.masks[q as usize], c)));
        }
        let all: usize = p.by_kind.iter().map(Vec::len).sum();
        assert_eq!(all, p.layout.placements.len());
        // The restricted piece keeps one placement per orbit of the 8
        // symmetries of the square: no two kept ones are images of each
        // other, and every placement of its kind is an image of a kept one.
        assert_eq!(p.symmetries(), 8);
        let k = p.restricted.expect("a pentomino can be restricted");
        let kept = &p.restricted_first;
        for (i, &a) in kept.iter().enumerate() {
            assert!(
                p.images
                    .iter()
                    .all(|g| !kept[i + 1..].contains(&g[a as usize]))
            );
        }
        for &q in &p.by_kind[k as usize] {
            assert!(
                kept.iter()
                    .any(|&a| p.images.iter().any(|g| g[a as usize] == q))
            );
        }
        assert!(kept.len() * 8 >= p.by_kind[k as usize].len());
    }

    #[test]
    fn the_root_holds_every_piece_or_is_dead() {
        let p: Pack<1> = test_pack("soma", "3x3x3", false);
        let root = p.root.as_ref().expect("the cube is solvable");
        assert_eq!(bits::count(&root.empty), 27);
        assert_eq!(root.count, 0);
        assert_eq!(root.left[..7], [1; 7]);
        // Without `--distinct` the 48 symmetries are still found (mirrors
        // swap the two chiral pieces): a count folds them.
        assert_eq!(p.symmetries(), 48);
        assert!(p.restricted.is_some());
        // Two regions of 31 and 29 cells: no pentomino tiling, dead at the root.
        let split = "###########.#########.\n##########..##########\n##########..##########\n";
        let path = std::env::temp_dir().join(format!("pack-split-{}.fig", std::process::id()));
        std::fs::write(&path, split).unwrap();
        let p: Pack<2> = test_pack("pentominoes", path.to_str().unwrap(), false);
        std::fs::remove_file(&path).unwrap();
        assert!(p.root.is_none());
    }
}
