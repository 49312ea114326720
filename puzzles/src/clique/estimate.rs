//! The size of the search's tree under a floor, by Knuth's estimator:
//! random paths from the root, each step to a child drawn uniformly among
//! those that survive the bound, each path's estimate the sum of the
//! products of the branching factors along it, the mean over paths an
//! unbiased estimate of the nodes. The tree is the real one: the listing
//! told the floor (`Optimise::moves_above`), its bounds and pruning, with
//! the incumbent held at `floor - 1`.
//!
//! The numbering (`mod.rs`, `Clique::new`) compares the degeneracy order
//! and the colour order so where the two may differ by orders of
//! magnitude, and `clique-estimate` (`tools/`) projects searches out of
//! reach.

use super::Clique;
use hysolve::{Mode, Optimise, Problem};
use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;

type Move = <Clique as Problem>::Move;

/// What an estimate saw: the mean over its paths, and the nodes whose
/// moves it listed (its cost).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// The estimated nodes of the tree under the floor, the root's
    /// included.
    pub nodes: f64,
    /// The nodes listed along the paths (the root once).
    pub listed: u64,
}

/// The moves of the node `state` stands on that survive the bound under
/// `floor`, into `children`.
fn surviving(clique: &Clique, state: &mut super::State, floor: u64, children: &mut Vec<Move>) {
    children.clear();
    let mut moves = clique.moves_above(state, floor);
    while let Some(m) = clique.next_move(state, &mut moves) {
        if clique.bound(state, &m) >= floor {
            children.push(m);
        }
    }
}

/// Knuth's estimate of `clique`'s tree under `floor` from `probes` random
/// paths drawn with `seed`. The root is listed once, not once a path.
pub fn tree(clique: &Clique, floor: u64, probes: u64, seed: u64) -> Estimate {
    let mut rng = XorShiftRng::seed_from_u64(seed);
    let mut state = clique.state(Mode::Optimise);
    let root = clique.root();
    clique.load(&mut state, &root);
    let mut first = Vec::new();
    surviving(clique, &mut state, floor, &mut first);
    let mut listed = 1;
    if first.is_empty() || probes == 0 {
        return Estimate { nodes: 1.0, listed };
    }
    let mut total = 0f64;
    let mut children = Vec::new();
    let mut path: Vec<Move> = Vec::new();
    for _ in 0..probes {
        // From the root, whose listing the state keeps while the path is
        // walked and taken back, as the walk keeps it.
        let mut weight = first.len() as f64;
        let mut estimate = 1.0 + weight;
        let mut m = first[rng.random_range(0..first.len())];
        loop {
            clique.apply(&mut state, &m);
            path.push(m);
            surviving(clique, &mut state, floor, &mut children);
            listed += 1;
            if children.is_empty() {
                break;
            }
            weight *= children.len() as f64;
            estimate += weight;
            m = children[rng.random_range(0..children.len())];
        }
        while let Some(m) = path.pop() {
            clique.undo(&mut state, &m);
        }
        total += estimate;
    }
    Estimate {
        nodes: total / probes as f64,
        listed,
    }
}

/// Walks `clique`'s tree under `floor` depth first, as the search lists
/// and prunes it, while `go_on(walked)` says so (asked before each step);
/// returns the nodes walked below the root. `clique-estimate` measures the
/// search's rate with it, and the estimator's test the whole of a small
/// tree.
pub fn walk(clique: &Clique, floor: u64, mut go_on: impl FnMut(u64) -> bool) -> u64 {
    let mut state = clique.state(Mode::Optimise);
    clique.load(&mut state, &clique.root());
    let mut walked = 0u64;
    let mut stack = vec![(clique.moves_above(&mut state, floor), None)];
    while let Some((moves, _)) = stack.last_mut() {
        if !go_on(walked) {
            break;
        }
        // The next move the walk would take (pruned ones skipped).
        let next = loop {
            match clique.next_move(&state, moves) {
                Some(m) if clique.bound(&state, &m) < floor => continue,
                other => break other,
            }
        };
        match next {
            Some(m) => {
                clique.apply(&mut state, &m);
                walked += 1;
                let moves = clique.moves_above(&mut state, floor);
                stack.push((moves, Some(m)));
            }
            None => {
                let (_, taken) = stack.pop().expect("not empty");
                if let Some(m) = taken {
                    clique.undo(&mut state, &m);
                }
            }
        }
    }
    walked
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::clique::families;

    /// A tree small enough to walk whole: the estimate is unbiased, so
    /// its mean over many paths comes near the nodes a depth-first walk
    /// of the same tree lists.
    #[test]
    fn the_estimate_of_a_small_tree_is_near_its_size() {
        let g = families::random(60, 0.6, 7).unwrap();
        let clique = Clique::new(&g, "g60");
        let floor = 2;
        // Every node under the floor, depth first, the root's included.
        let nodes = 1 + walk(&clique, floor, |_| true);
        assert!(nodes > 1_000, "a tree worth estimating: {nodes}");
        let e = tree(&clique, floor, 20_000, 1);
        let ratio = e.nodes / nodes as f64;
        assert!((0.8..1.25).contains(&ratio), "{} against {nodes}", e.nodes);
        assert!(e.listed > 20_000);
    }
}
