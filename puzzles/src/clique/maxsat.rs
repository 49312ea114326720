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
//! Once unit classes find no more, a class of two vertices is tried as a
//! *failed literal* (Li, Fang and Xu's IncMaxCLQ): if forcing either
//! vertex empties a class, no clique takes a vertex of the class, of the
//! classes the first refutation used and of those the second did.
//!
//! The classes are those of a node's colouring restricted to a mask (the
//! neighbours of the vertex whose move is tested): propagation narrows the
//! mask by each forced vertex's row and counts each class under it, so no
//! class is copied.
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

/// How many classes of two a call tries as failed literals once unit
/// classes find no more sets: one cut brock400_4 and p_hat1500-1 as much
/// as every class did, where every class took MANN_a27 (its colourings
/// hold over a hundred classes of two or three) three times as long
/// (`README.md`, "Failed literals").
const FAILED_LITERALS: u32 = 1;

/// The scratch space of [`inconsistent`], kept by a worker's state.
#[derive(Default)]
pub(super) struct Scratch {
    /// How many vertices of the mask each class holds.
    sizes: Vec<u32>,
    /// Each class's `USED`, `TRIED` and `FORCED` marks.
    flags: Vec<u8>,
    /// The vertex a forced class is left with.
    vertex: Vec<u32>,
    /// The classes forced in the attempt under way, in order.
    forced: Vec<usize>,
    /// The classes of a failed literal's refutations.
    involved: Vec<usize>,
    /// The mask as propagation narrows it: the neighbours of every
    /// vertex forced so far.
    narrowed: Vec<u64>,
}

/// The classes 1 to `top` of a colouring (`order` with its `colours`,
/// ascending) as [`inconsistent`] takes them: class `c` as a set of
/// `words` words at `classes[(c - 1) * words..]`.
#[inline]
pub(super) fn classes_as_sets(
    classes: &mut Vec<u64>,
    order: &[u32],
    colours: &[u32],
    top: usize,
    words: usize,
) {
    classes.clear();
    classes.resize(top * words, 0);
    for (&v, &c) in order.iter().zip(colours) {
        if c as usize > top {
            break;
        }
        classes[(c as usize - 1) * words + v as usize / 64] |= 1 << (v % 64);
    }
}

/// The MaxSAT cut of a move, at a node whose moves of colours up to
/// `cannot` cannot reach the floor: the move of colour `c` (its
/// candidates `mask`, its neighbours among the classes below `c`) is cut
/// where those classes hold `c - cannot` disjoint inconsistent sets, for
/// a clique through it then has at most `1 + (c - 1) - (c - cannot)`,
/// that is `cannot`, vertices. The one rule the node's own cut, the look
/// ahead's second level and its filter on a grandchild apply, each at
/// its own depth (`search.rs`, `second.rs`).
#[inline]
pub(super) fn cuts_move<'g>(
    classes: &[u64],
    words: usize,
    c: u32,
    cannot: u32,
    mask: &[u64],
    row: impl Fn(usize) -> &'g [u64],
    scratch: &mut Scratch,
) -> bool {
    let need = c - cannot;
    inconsistent(classes, c as usize - 1, words, mask, row, scratch, need) >= need
}

/// Disjoint inconsistent sets of the `k` colour classes in `classes`
/// restricted to `mask` (class `c` at `classes[c * words..]`, each an
/// independent set of the graph whose neighbourhoods `row` gives; an
/// empty one is a set alone), at least `most` of them if there are (it
/// stops there).
pub(super) fn inconsistent<'g>(
    classes: &[u64],
    k: usize,
    words: usize,
    mask: &[u64],
    row: impl Fn(usize) -> &'g [u64],
    scratch: &mut Scratch,
    most: u32,
) -> u32 {
    // Compiled for each width, as the colouring is, so that a class's
    // words are a few vector instructions.
    by_width!(
        words,
        inconsistent_in(classes, k, words, mask, row, scratch, most),
        inconsistent_in::<0>(classes, k, words, mask, row, scratch, most)
    )
}

/// The vertices of `set` (`W` words, 0: `words`) that are in `mask`, and
/// how many there are.
#[inline]
fn count<const W: usize>(set: &[u64], mask: &[u64], words: usize) -> u32 {
    let words = if W == 0 { words } else { W };
    set[..words]
        .iter()
        .zip(&mask[..words])
        .map(|(x, m)| (x & m).count_ones())
        .sum()
}

/// The first vertex of `set` in `mask` (there is one).
#[inline]
fn first<const W: usize>(set: &[u64], mask: &[u64], words: usize) -> usize {
    let words = if W == 0 { words } else { W };
    let (w, x) = set[..words]
        .iter()
        .zip(&mask[..words])
        .map(|(x, m)| x & m)
        .enumerate()
        .find(|&(_, x)| x != 0)
        .expect("a vertex in the mask");
    w * 64 + x.trailing_zeros() as usize
}

/// The two vertices of `set` in `mask` (there are two).
#[inline]
fn two<const W: usize>(set: &[u64], mask: &[u64], words: usize) -> [usize; 2] {
    let words = if W == 0 { words } else { W };
    let mut out = [0; 2];
    let mut i = 0;
    for (w, (x, m)) in set[..words].iter().zip(&mask[..words]).enumerate() {
        let mut x = x & m;
        while x != 0 && i < 2 {
            out[i] = w * 64 + x.trailing_zeros() as usize;
            i += 1;
            x &= x - 1;
        }
    }
    out
}

/// [`inconsistent`] for classes of `W` words (0: of `words`, known only
/// at run time).
#[inline]
fn inconsistent_in<'g, const W: usize>(
    classes: &[u64],
    k: usize,
    words: usize,
    mask: &[u64],
    row: impl Fn(usize) -> &'g [u64],
    scratch: &mut Scratch,
    most: u32,
) -> u32 {
    let words = if W == 0 { words } else { W };
    if scratch.flags.len() < k {
        scratch.flags.resize(k, 0);
        scratch.sizes.resize(k, 0);
        scratch.vertex.resize(k, 0);
    }
    scratch.narrowed.resize(words, 0);
    let Scratch {
        sizes,
        flags,
        vertex,
        forced,
        involved,
        narrowed,
    } = scratch;
    let classes = &classes[..k * words];
    let mut ctx = Propagation::<W, _> {
        classes,
        k,
        words,
        mask,
        row: &row,
        flags: &mut flags[..k],
        vertex: &mut vertex[..k],
        forced,
        narrowed,
    };
    // An empty class is a set alone.
    let mut found = 0;
    for (c, size) in sizes[..k].iter_mut().enumerate() {
        *size = count::<W>(&classes[c * words..], mask, words);
        ctx.flags[c] = if *size == 0 {
            found += 1;
            USED
        } else {
            0
        };
    }
    let mut tries = 0;
    while found < most {
        // A unit class not yet used nor tried, the highest colour first
        // (the classes the search branches on).
        if let Some(start) = (0..k)
            .rev()
            .find(|&c| ctx.flags[c] & (USED | TRIED) == 0 && sizes[c] == 1)
        {
            ctx.flags[start] |= TRIED;
            let v = first::<W>(&classes[start * words..], mask, words);
            if let Some(empty) = ctx.propagate(start, v) {
                // The forced classes and the emptied one: no clique takes a
                // vertex of each.
                ctx.flags[empty] |= USED;
                for &c in ctx.forced.iter() {
                    ctx.flags[c] |= USED;
                }
                found += 1;
            } else {
                // A unit class this propagation forced would force a part
                // of what it did, and find no conflict either.
                for &c in ctx.forced.iter() {
                    if sizes[c] == 1 {
                        ctx.flags[c] |= TRIED;
                    }
                }
            }
            continue;
        }
        if tries == FAILED_LITERALS {
            return found;
        }
        tries += 1;
        // A class of two vertices each of which propagation refutes (a
        // failed literal each): the class and the classes of both
        // refutations.
        let Some(start) = (0..k)
            .rev()
            .find(|&c| ctx.flags[c] & (USED | TRIED) == 0 && sizes[c] == 2)
        else {
            return found;
        };
        ctx.flags[start] |= TRIED;
        involved.clear();
        let set = &classes[start * words..(start + 1) * words];
        let mut refuted = true;
        for v in two::<W>(set, mask, words) {
            match ctx.propagate(start, v) {
                Some(empty) => {
                    involved.push(empty);
                    involved.extend_from_slice(ctx.forced);
                }
                None => {
                    refuted = false;
                    break;
                }
            }
        }
        if refuted {
            for &c in involved.iter() {
                ctx.flags[c] |= USED;
            }
            found += 1;
        }
    }
    found
}

/// What unit propagation works on: the classes restricted to the mask,
/// their marks, and its own scratch.
struct Propagation<'a, 'g, const W: usize, R: Fn(usize) -> &'g [u64]> {
    classes: &'a [u64],
    k: usize,
    words: usize,
    mask: &'a [u64],
    row: &'a R,
    flags: &'a mut [u8],
    vertex: &'a mut [u32],
    forced: &'a mut Vec<usize>,
    narrowed: &'a mut [u64],
}

impl<'g, const W: usize, R: Fn(usize) -> &'g [u64]> Propagation<'_, 'g, W, R> {
    /// Unit propagation from the vertex `v` of class `start` over the
    /// classes not `USED`: the classes it forces are left in `forced`
    /// (`start` first), and the class it empties, if any, is returned.
    #[inline]
    fn propagate(&mut self, start: usize, v: usize) -> Option<usize> {
        let words = if W == 0 { self.words } else { W };
        let (classes, flags, vertex) = (self.classes, &mut *self.flags, &mut *self.vertex);
        let narrowed = &mut self.narrowed[..words];
        narrowed.copy_from_slice(&self.mask[..words]);
        let forced = &mut *self.forced;
        forced.clear();
        forced.push(start);
        vertex[start] = v as u32;
        flags[start] |= FORCED;
        let mut next = 0;
        let mut conflict = None;
        'propagate: while next < forced.len() {
            let a = forced[next];
            next += 1;
            let nv = (self.row)(vertex[a] as usize);
            for (m, n) in narrowed.iter_mut().zip(&nv[..words]) {
                *m &= n;
            }
            // Every other class keeps the neighbours of the forced
            // vertices; a forced class's own vertex must be one.
            for c in 0..self.k {
                if c == a || flags[c] & USED != 0 {
                    continue;
                }
                if flags[c] & FORCED != 0 {
                    let u = vertex[c] as usize;
                    if nv[u / 64] >> (u % 64) & 1 == 0 {
                        conflict = Some(c);
                        break 'propagate;
                    }
                    continue;
                }
                let left = count::<W>(&classes[c * words..], narrowed, words);
                if left == 0 {
                    conflict = Some(c);
                    break 'propagate;
                }
                if left == 1 {
                    flags[c] |= FORCED;
                    vertex[c] = first::<W>(&classes[c * words..], narrowed, words) as u32;
                    forced.push(c);
                }
            }
        }
        for &c in forced.iter() {
            flags[c] &= !FORCED;
        }
        conflict
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::clique::graph::Graph;

    /// Classes of single vertices of `graph`, one word each.
    fn singletons(vertices: &[usize]) -> Vec<u64> {
        vertices.iter().map(|&v| 1u64 << v).collect()
    }

    /// The sets (up to 8) of the one-word `classes` of `g` under `mask`.
    fn sets(g: &Graph, classes: &[u64], mask: u64) -> u32 {
        let k = classes.len();
        inconsistent(
            classes,
            k,
            1,
            &[mask],
            |v| g.row(v),
            &mut Scratch::default(),
            8,
        )
    }

    #[test]
    fn two_non_adjacent_singletons_are_inconsistent() {
        // 0 - 1, 2 alone: classes {0}, {1}, {2}.
        let mut g = Graph::new(3);
        g.add_edge(0, 1);
        let classes = singletons(&[0, 1, 2]);
        let r = sets(&g, &classes, !0);
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
        assert_eq!(sets(&g, &classes, !0), 0);
    }

    #[test]
    fn a_class_of_two_refuted_both_ways_is_a_failed_literal() {
        // Classes {0, 1}, {2, 3}, {4, 5}, none a unit. 0 keeps only 2 of
        // the second class and 1 only 3; neither 2 nor 3 is adjacent to 4
        // or 5, which both 0 and 1 are: forcing either of the first class
        // empties the third.
        let mut g = Graph::new(6);
        for (u, v) in [(0, 2), (1, 3), (0, 4), (0, 5), (1, 4), (1, 5)] {
            g.add_edge(u, v);
        }
        let classes = [0b11, 0b1100, 0b11_0000];
        let r = sets(&g, &classes, !0);
        assert_eq!(r, 1);
        // Without 5 in the mask the third class is the unit {4}, which
        // forces 4 and empties the second: unit propagation finds it.
        let r = sets(&g, &classes, !(1 << 5));
        assert_eq!(r, 1);
        // With 2 adjacent to 4 as well, 0, 2 and 4 make a clique that
        // takes a vertex of each class: nothing may be refuted.
        g.add_edge(2, 4);
        let r = sets(&g, &classes, !0);
        assert_eq!(r, 0);
    }

    /// The propagation compiled for a width finds what the run-time one
    /// does, on the colour classes of wide graphs' neighbourhoods.
    #[test]
    fn every_width_finds_the_same_sets() {
        let mut found = 0;
        for (n, p, seed) in [(100, 0.5, 1), (1100, 0.3, 2), (1500, 0.25, 3)] {
            let g = crate::clique::families::random(n, p, seed).unwrap();
            let words = g.words();
            for v in [0, n / 2, n - 1] {
                // The neighbourhood of v, coloured greedily, as classes.
                let set = g.row(v).to_vec();
                let (mut order, mut colours) = (vec![0; n], vec![0; n]);
                let len = crate::clique::colour::colour_classes(
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
                    let all = vec![!0u64; words];
                    let fixed = inconsistent(&classes, k, words, &all, row, &mut a, most);
                    let plain = inconsistent_in::<0>(&classes, k, words, &all, row, &mut b, most);
                    assert_eq!(fixed, plain, "n {n}, v {v}, most {most}");
                    found += fixed;
                    // Under a mask (a neighbourhood, as the search gives),
                    // what the classes cut to the mask give.
                    let mask = g.row(n / 3);
                    let cut: Vec<u64> = classes
                        .chunks_exact(words)
                        .flat_map(|c| c.iter().zip(mask).map(|(x, m)| x & m))
                        .collect();
                    let masked = inconsistent(&classes, k, words, mask, row, &mut a, most);
                    let plain = inconsistent_in::<0>(&cut, k, words, &all, row, &mut b, most);
                    assert_eq!(masked, plain, "n {n}, v {v}, most {most}, masked");
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
            let g = crate::clique::families::random(n, 0.55, seed).unwrap();
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
            let len = crate::clique::colour::colour_classes(
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
            let r = inconsistent(
                &classes,
                k,
                1,
                &[!0],
                |v| g.row(v),
                &mut Scratch::default(),
                64,
            ) as usize;
            assert!(
                k - r >= omega,
                "seed {seed}: {k} colours, {r} sets, omega {omega}"
            );
        }
    }
}
