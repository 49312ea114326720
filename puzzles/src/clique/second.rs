//! The look ahead's second level: a child's visit, made at its parent.
//!
//! The look ahead (`search.rs`, `moves_above`) colours each child of a
//! node before the walk takes it and cuts the child whose colouring
//! cannot reach the floor. Most of the nodes that survived it were
//! visited only to find every move of theirs cut (keller4 696 of its 922
//! nodes, C125.9 1,637 of 2,557, MANN_a27 4,090 of 6,391; `README.md`,
//! "The look ahead's second level"): their MaxSAT cut and their own look
//! ahead left nothing. So the parent makes that visit's cuts itself,
//! move by move from the child's highest colour down, and stops at the
//! first move that survives them: a child none of whose moves survives
//! is cut at the parent, as one whose colouring falls short is.
//!
//! A move of the child survives what its visit would do to it: the MaxSAT
//! cut (a move of a colour up to `MAXSAT_REACH` above those that cannot
//! reach the floor, cut by as many disjoint inconsistent sets), then the
//! colouring of its own child, the grandchild (cut where it cannot reach
//! the floor), then the filter on the grandchild (where its colouring
//! reaches the floor by at most `FILTER_REACH`, each of its moves tested
//! by MaxSAT reasoning; cut where all are).
//!
//! Nothing is done twice: the moves found cut, and which moves were
//! tested, go to the child's visit (`Kept::from`: below it its visit tests
//! its moves itself), and the colouring of the grandchild that survived,
//! with the filter's cuts of its moves, goes to the child's own look
//! ahead (`Grand`).

use super::Clique;
use super::colour::colour_classes_fixed;
use super::maxsat::{Scratch, classes_as_sets, cuts_move};
use super::search::{FILTER_REACH, MAXSAT_REACH};

/// The second level's scratch, and what it found of the last child that
/// lived.
#[derive(Default)]
pub(super) struct Second {
    /// The child's candidates before the move tested.
    pre: Vec<u64>,
    /// The move's grandchild: its candidates.
    grand: Vec<u64>,
    /// The grandchild's colouring (of `vertices` entries), where the child
    /// lived.
    pub(super) order: Vec<u32>,
    pub(super) colours: Vec<u32>,
    pub(super) len: usize,
    /// The grandchild's classes, for the filter.
    classes: Vec<u64>,
    /// The child's moves found cut (indices in its colouring).
    pub(super) cuts: Vec<u32>,
    /// The grandchild's moves the filter cut, where it was tested.
    pub(super) grand_cuts: Vec<u32>,
    /// The child's moves known cut.
    known: Vec<bool>,
}

impl Second {
    /// Scratch for a graph of `vertices` vertices in `words` words.
    pub(super) fn new(vertices: usize, words: usize) -> Second {
        Second {
            pre: vec![0; words],
            grand: vec![0; words],
            order: vec![0; vertices],
            colours: vec![0; vertices],
            ..Second::default()
        }
    }
}

/// A child that lives: the index of its move that survived, whether the
/// filter tested that move's grandchild (its cuts are then in
/// `Second::grand_cuts`), and the index from which the child's moves
/// were tested by its MaxSAT cut (`at`, or 0 where all were known); the
/// cuts of its moves are in `Second::cuts`.
pub(super) struct Lives {
    pub(super) at: usize,
    pub(super) tested: bool,
    pub(super) from: usize,
}

impl Clique {
    /// The second level on a child of a node whose moves of colours up to
    /// `low` cannot reach the floor (`low` at least 2): `child` its
    /// candidates, `order` and `colours` their colouring (its top at least
    /// `low`), `known` the cuts of its moves already found under the same
    /// floor (by the filter of the node's parent, which tested every move
    /// of the child's MaxSAT cut). `None`: every move of the child is cut,
    /// and so is the child. `sat_classes` is scratch.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn second_level(
        &self,
        second: &mut Second,
        sat: &mut Scratch,
        sat_classes: &mut Vec<u64>,
        child: &[u64],
        order: &[u32],
        colours: &[u32],
        low: u32,
        known: Option<&[u32]>,
    ) -> Option<Lives> {
        let (k, words) = (order.len(), self.graph.words());
        let row = |u| self.graph.row(u);
        let top = colours[k - 1];
        // The child needs `low - 1` more vertices past a move: its moves
        // of colours below `low` cannot reach the floor.
        let first = colours.partition_point(|&c| c < low);
        // The colours its MaxSAT cut tests.
        let window = low - 1 + MAXSAT_REACH;
        second.cuts.clear();
        second.known.clear();
        second.known.resize(k, false);
        if let Some(known) = known {
            for &j in known {
                second.known[j as usize] = true;
            }
        }
        second.pre.copy_from_slice(child);
        let mut built = false;
        for j in (first..k).rev() {
            let u = order[j] as usize;
            second.pre[u / 64] &= !(1 << (u % 64));
            if second.known[j] {
                second.cuts.push(j as u32);
                continue;
            }
            let c = colours[j];
            if known.is_none() && c <= window {
                if !built {
                    classes_as_sets(sat_classes, order, colours, top.min(window) as usize, words);
                    built = true;
                }
                // The child's moves of colours up to `low - 1` cannot
                // reach the floor.
                if cuts_move(sat_classes, words, c, low - 1, row(u), row, sat) {
                    second.cuts.push(j as u32);
                    continue;
                }
            }
            for ((g, p), r) in second.grand.iter_mut().zip(&second.pre).zip(row(u)) {
                *g = p & r;
            }
            let kg = by_width!(
                words,
                colour_classes_fixed(&second.grand, row, &mut second.order, &mut second.colours),
                0
            );
            let topg = if kg == 0 { 0 } else { second.colours[kg - 1] };
            // The grandchild needs `low - 2` more vertices past a move.
            if topg < low - 1 {
                second.cuts.push(j as u32);
                continue;
            }
            let tested = topg <= low - 1 + FILTER_REACH;
            if tested {
                let (go, gc) = (&second.order[..kg], &second.colours[..kg]);
                classes_as_sets(&mut second.classes, go, gc, topg as usize, words);
                second.grand_cuts.clear();
                let moves = kg - gc.partition_point(|&c| c < low - 1);
                for j2 in (kg - moves..kg).rev() {
                    // The grandchild's moves of colours up to `low - 2`
                    // cannot reach the floor.
                    let (c, v) = (gc[j2], go[j2] as usize);
                    if cuts_move(&second.classes, words, c, low - 2, row(v), row, sat) {
                        second.grand_cuts.push(j2 as u32);
                    }
                }
                if second.grand_cuts.len() == moves {
                    second.cuts.push(j as u32);
                    continue;
                }
            }
            second.len = kg;
            // The known cuts below: the child's visit need not test its
            // moves again.
            let from = if known.is_some() {
                for i in first..j {
                    if second.known[i] {
                        second.cuts.push(i as u32);
                    }
                }
                0
            } else {
                j
            };
            return Some(Lives {
                at: j,
                tested,
                from,
            });
        }
        None
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::clique::families;
    use crate::clique::graph::Graph;

    /// The largest clique among the vertices of `set` (one word).
    fn omega(g: &Graph, set: u64) -> u32 {
        if set == 0 {
            return 0;
        }
        let v = set.trailing_zeros() as usize;
        let rest = set & (set - 1);
        let with = 1 + omega(g, rest & g.row(v)[0]);
        with.max(omega(g, rest))
    }

    /// The second level is sound: a child it cuts holds no clique of the
    /// `low` vertices it needs, and each move of a child that lives that
    /// it cuts has a grandchild with no clique of `low - 1`; and it cuts
    /// children whose colouring reaches the floor (the look ahead's first
    /// level would keep them).
    #[test]
    fn what_the_second_level_cuts_holds_no_clique_large_enough() {
        let (mut children_cut, mut moves_cut) = (0, 0);
        for (n, p, seed) in [(40, 0.5, 1), (50, 0.7, 2), (60, 0.8, 3), (64, 0.6, 4)] {
            let g = families::random(n, p, seed).unwrap();
            let clique = Clique::new(&g, "g");
            let g = &clique.graph;
            let (mut second, mut sat, mut classes) =
                (Second::new(n, 1), Scratch::default(), Vec::new());
            let (mut order, mut colours) = (vec![0; n], vec![0; n]);
            for v in 0..n {
                // The child of a move to `v`: its neighbours numbered below it.
                let child = [g.row(v)[0] & ((1u64 << v) - 1)];
                let k = colour_classes_fixed::<1>(&child, |u| g.row(u), &mut order, &mut colours);
                if k == 0 {
                    continue;
                }
                let (order, colours) = (&order[..k], &colours[..k]);
                let w = omega(g, child[0]);
                for low in 2..=colours[k - 1] {
                    let lives = clique.second_level(
                        &mut second,
                        &mut sat,
                        &mut classes,
                        &child,
                        order,
                        colours,
                        low,
                        None,
                    );
                    match lives {
                        None => {
                            assert!(w < low, "n {n}, v {v}, low {low}: omega {w}");
                            children_cut += 1;
                        }
                        Some(Lives { at, .. }) => {
                            for &j in &second.cuts {
                                let j = j as usize;
                                assert!(j > at);
                                let before: u64 = order[..j].iter().map(|&u| 1u64 << u).sum();
                                let grand = before & g.row(order[j] as usize)[0];
                                assert!(
                                    omega(g, grand) + 1 < low,
                                    "n {n}, v {v}, low {low}, move {j}"
                                );
                                moves_cut += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(
            children_cut > 0 && moves_cut > 0,
            "{children_cut} {moves_cut}"
        );
    }
}
