//! Counting packings up to the figure's symmetries, exactly.
//!
//! G: the signed axis permutations that map the figure onto itself and every
//! kind of piece onto a kind with as many copies (a mirror image may swap two
//! chiral kinds, as in Soma; a map that sends a piece to a shape outside the
//! set, as mirrors do in Bedlam, is not in G). G acts on placements and so on
//! packings.
//!
//! Choose a kind P with one copy that every map in G sends to itself, and
//! keep, of each orbit of P's placements under G, only its first placement
//! r. Any packing S has exactly one P placement p(S), and the images g S
//! with g p(S) = r are {h g0 S : h in H}, H the stabiliser of r. So the
//! packings through the kept placements meet every class in one H-orbit;
//! counting one per H-orbit, the one whose sorted placement list is the
//! smallest of its H-images, counts each class exactly once, symmetric
//! packings included. Most placements have a trivial stabiliser and need no
//! check at all. Without a suitable P, every complete packing is checked
//! against all of G instead.

use super::Layout;
use super::geometry::{Transform, normalize, orientations};
use crate::PuzzleError;
use std::collections::HashMap;

/// What the search needs to count one packing per class.
#[derive(Debug, Clone)]
pub(crate) struct Breaking {
    pub allowed: Vec<bool>,
    pub fixers: HashMap<u32, Vec<usize>>,
    pub restricted: Option<u8>,
    pub leaf_group: Vec<usize>,
    /// `images[s][p]`: the image of placement p under symmetry s (s = 0: identity).
    pub images: Vec<Vec<u32>>,
}

/// A candidate restricted kind: its orbits, the placements kept, and the
/// symmetries fixing each kept placement.
struct Restriction {
    orbits: usize,
    kind: u8,
    kept: Vec<bool>,
    fixers: HashMap<u32, Vec<usize>>,
}

/// A symmetry: where each box cell goes and which kind each kind becomes.
struct Symmetry {
    cells: Vec<usize>,
    kinds: Vec<u8>,
}

impl Breaking {
    pub(crate) fn new(layout: &Layout, distinct: bool) -> Result<Breaking, PuzzleError> {
        let n = layout.placements.len();
        let identity = Breaking {
            allowed: vec![true; n],
            fixers: HashMap::new(),
            restricted: None,
            leaf_group: Vec::new(),
            images: vec![(0..n as u32).collect()],
        };
        if !distinct {
            return Ok(identity);
        }
        let group = symmetries(layout);
        let index: HashMap<(u8, &[usize]), u32> = layout
            .placements
            .iter()
            .enumerate()
            .map(|(p, (k, cells))| ((*k, cells.as_slice()), p as u32))
            .collect();
        let mut images = Vec::with_capacity(group.len());
        for g in &group {
            let mut img = Vec::with_capacity(n);
            for (k, cells) in &layout.placements {
                let mut mapped: Vec<usize> = cells.iter().map(|&c| g.cells[c]).collect();
                mapped.sort_unstable();
                let p = index
                    .get(&(g.kinds[*k as usize], mapped.as_slice()))
                    .ok_or_else(|| {
                        PuzzleError::Instance(
                            "pack: internal: a symmetry maps a placement outside the list".into(),
                        )
                    })?;
                img.push(*p);
            }
            images.push(img);
        }
        // The restricted kind: single, fixed by every symmetry, fewest orbits.
        let kinds = layout.set.kinds.len();
        let candidates = (0..kinds as u8).filter(|&k| {
            layout.set.kinds[k as usize].copies == 1
                && group.iter().all(|g| g.kinds[k as usize] == k)
        });
        let mut best: Option<Restriction> = None;
        for k in candidates {
            let mut seen = vec![false; n];
            let mut kept = vec![true; n];
            let mut fixers = HashMap::new();
            let mut orbits = 0;
            for p in (0..n).filter(|&p| layout.placements[p].0 == k) {
                if seen[p] {
                    kept[p] = false;
                    continue;
                }
                orbits += 1;
                for img in &images {
                    seen[img[p] as usize] = true;
                }
                let fixing: Vec<usize> = (1..images.len())
                    .filter(|&g| images[g][p] as usize == p)
                    .collect();
                if !fixing.is_empty() {
                    fixers.insert(p as u32, fixing);
                }
            }
            if best.as_ref().is_none_or(|b| orbits < b.orbits) {
                best = Some(Restriction {
                    orbits,
                    kind: k,
                    kept,
                    fixers,
                });
            }
        }
        Ok(match best {
            Some(Restriction {
                kind, kept, fixers, ..
            }) => Breaking {
                allowed: kept,
                fixers,
                restricted: Some(kind),
                leaf_group: Vec::new(),
                images,
            },
            None => Breaking {
                leaf_group: (1..images.len()).collect(),
                images,
                ..identity
            },
        })
    }
}

/// G, the identity first.
fn symmetries(layout: &Layout) -> Vec<Symmetry> {
    let f = &layout.figure;
    let dims = [f.w as i32, f.h as i32, f.d as i32];
    let shapes: Vec<Vec<Vec<[i32; 3]>>> = layout
        .set
        .kinds
        .iter()
        .map(|k| orientations(&k.cells, layout.set.three_d))
        .collect();
    let mut out: Vec<Symmetry> = Vec::new();
    'maps: for t in Transform::all() {
        if (0..3).any(|k| dims[t.perm[k]] != dims[k]) {
            continue;
        }
        let mut cells = Vec::with_capacity(f.filled.len());
        for i in 0..f.filled.len() {
            let c = t.apply(f.coords(i));
            let c = [0, 1, 2].map(|k| {
                if t.sign[k] < 0 {
                    c[k] + dims[k] - 1
                } else {
                    c[k]
                }
            });
            let j = f.index(c[0], c[1], c[2]).expect("the box maps onto itself");
            if f.filled[i] != f.filled[j] {
                continue 'maps;
            }
            cells.push(j);
        }
        let mut kinds = Vec::with_capacity(shapes.len());
        for kind in &layout.set.kinds {
            let image = normalize(&kind.cells.iter().map(|&c| t.apply(c)).collect::<Vec<_>>());
            let Some(to) = shapes.iter().position(|s| s.contains(&image)) else {
                continue 'maps;
            };
            if layout.set.kinds[to].copies != kind.copies {
                continue 'maps;
            }
            kinds.push(to as u8);
        }
        if !out.iter().any(|s| s.cells == cells && s.kinds == kinds) {
            out.push(Symmetry { cells, kinds });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::test_layout as layout;
    use super::*;

    /// Each image is a permutation of the placements, the first the
    /// identity.
    fn assert_permutations(b: &Breaking, n: usize) {
        assert!(b.images[0].iter().enumerate().all(|(p, &q)| p as u32 == q));
        for image in &b.images {
            let mut seen = vec![false; n];
            for &p in image {
                assert!(!seen[p as usize], "placement {p} met twice");
                seen[p as usize] = true;
            }
        }
    }

    #[test]
    fn without_distinct_nothing_is_restricted() {
        let l = layout("pentominoes", "10x6");
        let b = Breaking::new(&l, false).unwrap();
        assert!(b.allowed.iter().all(|&a| a));
        assert_eq!((b.images.len(), b.restricted), (1, None));
    }

    /// A 10x6 rectangle has 4 symmetries. The restricted piece keeps one
    /// placement of each orbit: a quarter of its placements, more where a
    /// placement is its own image.
    #[test]
    fn a_rectangle_keeps_one_placement_an_orbit() {
        let l = layout("pentominoes", "10x6");
        let b = Breaking::new(&l, true).unwrap();
        assert_eq!(b.images.len(), 4);
        assert_permutations(&b, l.placements.len());
        let k = b.restricted.expect("a piece to restrict");
        let of_k: Vec<usize> = (0..l.placements.len())
            .filter(|&p| l.placements[p].0 == k)
            .collect();
        let kept = of_k.iter().filter(|&&p| b.allowed[p]).count();
        let all = of_k.len();
        assert!(4 * kept >= all && 2 * kept <= all, "{kept} of {all}");
        // Every orbit meets a kept placement.
        for p in of_k {
            assert!(
                b.images.iter().any(|image| b.allowed[image[p] as usize]),
                "{p}"
            );
        }
    }

    /// The Soma cube: the cube's 48 symmetries, mirrors included (they
    /// swap Soma's two chiral pieces, which stay in the set).
    #[test]
    fn the_soma_cube_has_the_cubes_48_symmetries() {
        let l = layout("soma", "3x3x3");
        let b = Breaking::new(&l, true).unwrap();
        assert_eq!(b.images.len(), 48);
        assert_permutations(&b, l.placements.len());
    }
}
