//! A tighter bound than the colouring's, by MaxSAT reasoning on its colour
//! classes (Li and Quan's MaxCLQ): a clique holds at most one vertex of
//! each class, and reaches the colouring's bound `k` only by taking one of
//! every class. A class of one vertex forces that vertex, so every other
//! class keeps only its neighbours; a class that keeps one vertex forces it
//! in turn, and a class that keeps none cannot be taken: the classes that
//! forced it and it are *inconsistent*, no clique takes a vertex of each.
//! So `r` disjoint inconsistent sets of classes bound the clique by
//! `k - r`.
//!
//! The search uses it on a move (`search.rs`, `moves_above`): the
//! candidates of the move to a vertex of colour `c` are its neighbours in
//! the classes below `c`; where the floor needs `j` more vertices than the
//! classes below the lowest colour that can reach it give, `j` sets cut
//! the move. A bound whatever the floor; the floor only says which moves
//! are worth the work.

/// A class is in an inconsistent set already.
const USED: u8 = 1;
/// A class was tried as the first unit without a conflict.
const TRIED: u8 = 2;
/// A class is forced in the attempt under way.
const FORCED: u8 = 4;

/// The scratch space of [`inconsistent`], kept by a worker's state.
#[derive(Default)]
pub(super) struct Scratch {
    /// The classes as propagation leaves them.
    work: Vec<u64>,
    /// Each class's `USED`, `TRIED` and `FORCED` marks.
    flags: Vec<u8>,
    /// The classes forced in the attempt under way, in order.
    forced: Vec<usize>,
}

/// Disjoint inconsistent sets of the `k` colour classes in `classes`
/// (class `c` at `classes[c * words..]`, each an independent set of the
/// graph whose neighbourhoods `row` gives; an empty one is a set alone),
/// at least `most` of them if there are (it stops there). `classes` is
/// left as found.
pub(super) fn inconsistent<'g>(
    classes: &[u64],
    k: usize,
    words: usize,
    row: impl Fn(usize) -> &'g [u64],
    scratch: &mut Scratch,
    most: u32,
) -> u32 {
    // Compiled for each width, as the colouring is, so that a class's
    // words are a few vector instructions.
    by_width!(
        words,
        inconsistent_in(classes, k, words, row, scratch, most),
        inconsistent_in::<0>(classes, k, words, row, scratch, most)
    )
}

/// [`inconsistent`] for classes of `W` words (0: of `words`, known only
/// at run time).
#[inline]
fn inconsistent_in<'g, const W: usize>(
    classes: &[u64],
    k: usize,
    words: usize,
    row: impl Fn(usize) -> &'g [u64],
    scratch: &mut Scratch,
    most: u32,
) -> u32 {
    let words = if W == 0 { words } else { W };
    if scratch.work.len() < k * words {
        scratch.work.resize(k * words, 0);
    }
    if scratch.flags.len() < k {
        scratch.flags.resize(k, 0);
    }
    let forced = &mut scratch.forced;
    let (classes, work, flags) = (
        &classes[..k * words],
        &mut scratch.work[..k * words],
        &mut scratch.flags[..k],
    );
    let count = |set: &[u64]| set.iter().map(|w| w.count_ones()).sum::<u32>();
    // An empty class is a set alone.
    let mut found = 0;
    for (c, flag) in flags.iter_mut().enumerate() {
        *flag = if count(&classes[c * words..(c + 1) * words]) == 0 {
            found += 1;
            USED
        } else {
            0
        };
    }
    while found < most {
        // A unit class not yet used nor tried, the highest colour first
        // (the classes the search branches on).
        let Some(start) = (0..k).rev().find(|&c| {
            flags[c] & (USED | TRIED) == 0 && count(&classes[c * words..(c + 1) * words]) == 1
        }) else {
            return found;
        };
        flags[start] |= TRIED;
        work.copy_from_slice(classes);
        forced.clear();
        forced.push(start);
        flags[start] |= FORCED;
        let mut next = 0;
        let mut conflict = None;
        'propagate: while next < forced.len() {
            let a = forced[next];
            next += 1;
            let set = &work[a * words..(a + 1) * words];
            let w = set.iter().position(|&x| x != 0).expect("a unit class");
            let v = w * 64 + set[w].trailing_zeros() as usize;
            let nv = row(v);
            // Every other class keeps the neighbours of `v`, those forced
            // already too (their vertex must be one).
            for c in 0..k {
                if c == a || flags[c] & USED != 0 {
                    continue;
                }
                let class = &mut work[c * words..(c + 1) * words];
                let mut left = 0;
                for (x, n) in class.iter_mut().zip(nv) {
                    *x &= n;
                    left += x.count_ones();
                }
                if left == 0 {
                    conflict = Some(c);
                    break 'propagate;
                }
                if left == 1 && flags[c] & FORCED == 0 {
                    flags[c] |= FORCED;
                    forced.push(c);
                }
            }
        }
        for &c in forced.iter() {
            flags[c] &= !FORCED;
        }
        if let Some(empty) = conflict {
            // The forced classes and the emptied one: no clique takes a
            // vertex of each.
            flags[empty] |= USED;
            for &c in forced.iter() {
                flags[c] |= USED;
            }
            found += 1;
        }
    }
    found
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::problems::clique::graph::Graph;

    /// Classes of single vertices of `graph`, one word each.
    fn singletons(vertices: &[usize]) -> Vec<u64> {
        vertices.iter().map(|&v| 1u64 << v).collect()
    }

    #[test]
    fn two_non_adjacent_singletons_are_inconsistent() {
        // 0 - 1, 2 alone: classes {0}, {1}, {2}.
        let mut g = Graph::new(3);
        g.add_edge(0, 1);
        let classes = singletons(&[0, 1, 2]);
        let r = inconsistent(&classes, 3, 1, |v| g.row(v), &mut Scratch::default(), 8);
        // {2} forces 2, which leaves nothing of {1} (or {0}): one set;
        // {0} and {1} alone are consistent.
        assert_eq!(r, 1);
    }

    #[test]
    fn a_clique_of_singletons_is_consistent() {
        let mut g = Graph::new(4);
        for u in 0..4 {
            for v in u + 1..4 {
                g.add_edge(u, v);
            }
        }
        let classes = singletons(&[0, 1, 2, 3]);
        assert_eq!(
            inconsistent(&classes, 4, 1, |v| g.row(v), &mut Scratch::default(), 8),
            0
        );
    }

    /// The propagation compiled for a width finds what the run-time one
    /// does, on the colour classes of wide graphs' neighbourhoods.
    #[test]
    fn every_width_finds_the_same_sets() {
        let mut found = 0;
        for (n, p, seed) in [(100, 0.5, 1), (1100, 0.3, 2), (1500, 0.25, 3)] {
            let g = crate::problems::clique::families::random(n, p, seed).unwrap();
            let words = g.words();
            for v in [0, n / 2, n - 1] {
                // The neighbourhood of v, coloured greedily, as classes.
                let set = g.row(v).to_vec();
                let (mut order, mut colours) = (vec![0; n], vec![0; n]);
                let len = crate::problems::clique::colour::colour_classes(
                    &set,
                    |u| g.row(u),
                    &mut vec![0; words],
                    &mut vec![0; words],
                    &mut order,
                    &mut colours,
                );
                let k = colours[len - 1] as usize;
                let mut classes = vec![0u64; k * words];
                for i in 0..len {
                    let (u, c) = (order[i] as usize, colours[i] as usize - 1);
                    classes[c * words + u / 64] |= 1 << (u % 64);
                }
                for most in [1, 3, 64] {
                    let row = |u| g.row(u);
                    let (mut a, mut b) = (Scratch::default(), Scratch::default());
                    let fixed = inconsistent(&classes, k, words, row, &mut a, most);
                    let plain = inconsistent_in::<0>(&classes, k, words, row, &mut b, most);
                    assert_eq!(fixed, plain, "n {n}, v {v}, most {most}");
                    found += fixed;
                }
            }
        }
        // Some sets were found, not only none by both.
        assert!(found > 0);
    }

    /// The bound never undercuts the clique number: on random graphs
    /// coloured greedily, colours minus inconsistent sets is at least the
    /// largest clique, found by brute force.
    #[test]
    fn the_bound_holds_on_random_graphs() {
        for seed in 1..=40u64 {
            let n = 14;
            let g = crate::problems::clique::families::random(n, 0.55, seed).unwrap();
            let mut omega = 0;
            for mask in 0u32..1 << n {
                let vs: Vec<usize> = (0..n).filter(|v| mask >> v & 1 == 1).collect();
                let clique = vs
                    .iter()
                    .enumerate()
                    .all(|(i, &u)| vs[i + 1..].iter().all(|&v| g.adjacent(u, v)));
                if clique {
                    omega = omega.max(vs.len());
                }
            }
            let (mut order, mut colours) = (vec![0; n], vec![0; n]);
            let set = [(1u64 << n) - 1];
            let len = crate::problems::clique::colour::colour_classes(
                &set,
                |v| g.row(v),
                &mut [0],
                &mut [0],
                &mut order,
                &mut colours,
            );
            let k = colours[len - 1] as usize;
            let mut classes = vec![0u64; k];
            for i in 0..len {
                classes[colours[i] as usize - 1] |= 1 << order[i];
            }
            let r =
                inconsistent(&classes, k, 1, |v| g.row(v), &mut Scratch::default(), 64) as usize;
            assert!(
                k - r >= omega,
                "seed {seed}: {k} colours, {r} sets, omega {omega}"
            );
        }
    }
}
