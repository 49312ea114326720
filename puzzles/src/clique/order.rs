//! The search's numbering of the vertices, chosen per graph (MoMC and
//! CliSAT both choose between a degree and a colour order): a degeneracy
//! order, the dense core first; or, where a colouring of the whole graph
//! is proved optimal by a clique as large, the classes of that colouring
//! one after another (CliSAT's COLOR-SORT), so that the root's colouring
//! is that one and its bound the clique number: the search only has to
//! meet the clique.
//!
//! The rule is measured (`README.md`, "The numbering"): the colour order
//! walked more nodes than the degeneracy order on 10 of the 14 shared
//! graphs tried, MANN_a27 (135 colours for its clique of 126) 451,807
//! against 6,746; it walked fewer where the colouring met the clique
//! number, gen400_p0.9_75 401 nodes against 18,288.
//!
//! The colouring is iterated greedy's, then a colour fewer at a time by
//! tabu search (`tabucol.rs`) while that finds one: hamming8-4's 32
//! colours become 16, its clique number, and gen200_p0.9_44's 50 and
//! gen200_p0.9_55's 66 their cliques' 44 and 55, so the search of each is
//! one node.
//!
//! Where no colouring is met, the colour order is still taken where
//! Knuth's estimator (`estimate.rs`) finds its tree under the floor
//! halfway between the clique met and the colours many times smaller than
//! the degeneracy order's ([`by_estimate`]): keller5's, about 2e6 nodes
//! against 4e8 (CliSAT, too, takes 21 s in its colour order and over 15
//! minutes in its degree order). On the shared graphs the estimate keeps
//! the degeneracy order, for 0.4 to 16 ms.
//!
//! The clique the local searches met is kept: the root's listing ends
//! below the colours that cannot beat it (`search.rs`, `known_end`), as
//! CliSAT's first level starts past the clique its heuristic found.

use super::graph::Graph;
use super::local;
use super::tabucol;
use super::{Clique, estimate};

/// Rounds of Culberson's iterated greedy colouring: each colours the
/// vertices first fit in the order of the last round's classes, the last
/// class first, which never takes more colours. 200 and 1,000 rounds
/// took no fewer colours than 20 on the shared graphs.
const ROUNDS: usize = 20;

/// The effort of each step of the tabu descent that takes a colour away
/// from the greedy colouring (a unit is a move looked at, 2 to 4 ns here),
/// and of the whole descent. One step from 56 colours to 55 on
/// gen200_p0.9_55 took over 1,000,000; the whole descent from 32 colours
/// to 16 on hamming8-4 358,026 (`README.md`, "The numbering").
const TABU_STEP: u64 = 2_000_000;
const TABU_TOTAL: u64 = 40_000_000;

/// Greedy colourings of more than `TABU_NEAR` tenths of the quick search's
/// clique are not taken to the tabu descent, which there would descend a
/// long way for nothing (without the gate it cost p_hat1500-1, 78 colours
/// for 10, 68 ms, and p_hat300-2, 45 for 25, 49 ms; with it 24). hamming8-4
/// (32 for 16) and the gen graphs (at most 1.5) are taken.
const TABU_NEAR: usize = 20;

/// The effort (about a nanosecond a unit, `local.rs`) of the quick local
/// search that tells whether the colouring may be near the clique number.
const QUICK: u64 = 2_000_000;

/// Colourings (after the tabu descent) of more than `NEAR` tenths of the
/// quick search's clique are not tried: keller4 (15 colours for 11) and
/// p_hat300-3 (62 for 34) are not; gen400_p0.9_75 (75 colours, its quick
/// search 49, the clique 75), C125.9 and MANN_a27 are.
const NEAR: usize = 16;

/// The effort of the local search that tries to meet the colouring's
/// number of colours (it stops there): the ramp-up's (`--ramp-up`).
const PROOF: u64 = 20_000_000;

/// The numbering of `graph` for the search: `order[i]` is the vertex
/// numbered `i`; and the largest clique the local searches that chose it
/// met, in that numbering (the root's listing ends below it, `search.rs`).
pub(super) fn numbering(graph: &Graph) -> Numbering {
    let degeneracy = graph.degeneracy_order();
    let g = graph.renumbered(&degeneracy);
    let classes = iterated_greedy(&g);
    let mut clique = local::search(&g, QUICK, 1, 1, classes.len()).map_or(Vec::new(), |f| f.clique);
    // The longer local search where the colouring is near the quick
    // clique, before the descent and, if the descent came near, after it.
    let mut proved = false;
    let mut prove = |clique: &mut Vec<u32>, k: usize| {
        if !proved && clique.len() < k && k * 10 <= clique.len() * NEAR {
            proved = true;
            let proof = local::search(&g, PROOF, 1, 1, k).map_or(Vec::new(), |f| f.clique);
            if proof.len() > clique.len() {
                *clique = proof;
            }
        }
    };
    prove(&mut clique, classes.len());
    let classes = if clique.len() < classes.len() && classes.len() * 10 <= clique.len() * TABU_NEAR
    {
        fewer_colours(&g, classes, clique.len())
    } else {
        classes
    };
    prove(&mut clique, classes.len());
    let clique: Vec<usize> = clique.iter().map(|&v| v as usize).collect();
    // Renumbered class by class: `at[v]` is the new number of `g`'s `v`.
    let flat: Vec<usize> = classes.iter().flatten().copied().collect();
    let mut at = vec![0; flat.len()];
    for (i, &v) in flat.iter().enumerate() {
        at[v] = i;
    }
    let colour = (
        flat.iter().map(|&v| degeneracy[v]).collect(),
        clique.iter().map(|&v| at[v]).collect(),
    );
    if clique.len() < classes.len() {
        return Numbering::Either {
            degeneracy: (degeneracy, clique),
            colour,
            colours: classes.len(),
        };
    }
    Numbering::One(colour.0, colour.1)
}

/// A numbering and the clique its local searches met, in it.
pub(super) type Numbered = (Vec<usize>, Vec<usize>);

/// What [`numbering`] chose.
pub(super) enum Numbering {
    /// The colour order, whose colouring the clique meets.
    One(Vec<usize>, Vec<usize>),
    /// No colouring met: the degeneracy order, unless the colour order's
    /// tree is estimated far smaller ([`by_estimate`]); `colours` is the
    /// colouring's number of classes.
    Either {
        degeneracy: Numbered,
        colour: Numbered,
        colours: usize,
    },
}

/// Paths of each order's first estimate: where the colour order's tree
/// is not the smaller by [`SCOUT_MARGIN`] there, the degeneracy order is
/// kept (MANN_a27, the dearest of the shared graphs to list, took 54 ms
/// with 64 paths an order, for a search of 0.25 s).
const SCOUT_PROBES: u64 = 16;

/// How many times smaller the colour order's first estimate must be: less
/// than [`MARGIN`], as sixteen paths seldom meet the heavy tail of a
/// tree (keller5's two trees 3.5 times apart over 16 paths, 43 over 64).
const SCOUT_MARGIN: f64 = 2.0;

/// Paths of each order's second estimate, which must agree with the
/// first for the colour order to be taken.
const PROBES: u64 = 64;

/// How many times smaller the colour order's estimate must be to be
/// taken: Knuth's estimator spreads widely over tens of paths, and where
/// the two orders' trees are near each other the degeneracy order walked
/// fewer nodes on most shared graphs (`README.md`, "The numbering").
const MARGIN: f64 = 4.0;

/// Between the degeneracy order and the colour order, the one whose tree
/// Knuth's estimator (`estimate.rs`) finds smaller, twice (by
/// [`SCOUT_MARGIN`] over [`SCOUT_PROBES`] paths, then by [`MARGIN`] over
/// [`PROBES`]), under the floor halfway between the clique met and the
/// colouring's bound: under the clique met, which the ramp-up beats, the
/// trees are many times the search's and mislead (MANN_a27's colour
/// order's was the smaller there, and walked a hundred times the nodes).
/// `instance` builds the search's instance of a numbering; the chosen
/// one is returned. Seeded, so a graph gets the same numbering on every
/// run and rank.
pub(super) fn by_estimate(
    degeneracy: Numbered,
    colour: Numbered,
    colours: usize,
    instance: impl Fn(&Numbered) -> Clique,
) -> Clique {
    let started = std::time::Instant::now();
    let floor = (degeneracy.1.len() + colours) as u64 / 2 + 1;
    let (d, c) = (instance(&degeneracy), instance(&colour));
    let mut listed = 0;
    let mut smaller = |probes, seed, margin: f64| {
        let (de, ce) = (
            estimate::tree(&d, floor, probes, seed),
            estimate::tree(&c, floor, probes, seed),
        );
        listed += de.listed + ce.listed;
        tracing::debug!(
            probes,
            degeneracy = de.nodes,
            colour = ce.nodes,
            floor,
            "estimated"
        );
        ce.nodes * margin < de.nodes
    };
    let pick = smaller(SCOUT_PROBES, 1, SCOUT_MARGIN) && smaller(PROBES, 2, MARGIN);
    tracing::debug!(
        listed,
        ms = started.elapsed().as_secs_f64() * 1e3,
        pick = if pick { "colour" } else { "degeneracy" },
        "the clique's numbering"
    );
    if pick { c } else { d }
}

/// `classes`, a colouring of `graph`, with colours taken away one at a
/// time by tabu search (`tabucol.rs`) down to `floor`, a clique's size:
/// each step has `TABU_STEP` units of effort, all of them `TABU_TOTAL`, and
/// the first step that finds no colouring ends the descent.
fn fewer_colours(graph: &Graph, mut classes: Vec<Vec<usize>>, floor: usize) -> Vec<Vec<usize>> {
    let mut spent = 0;
    while classes.len() > floor && spent < TABU_TOTAL {
        let effort = TABU_STEP.min(TABU_TOTAL - spent);
        let (fewer, used) = tabucol::colour(graph, classes.len() - 1, &classes, effort, 1);
        spent += used;
        match fewer {
            Some(fewer) => classes = fewer.into_iter().filter(|c| !c.is_empty()).collect(),
            None => break,
        }
    }
    classes
}

/// A colouring of `graph` by iterated greedy: its classes, each a list of
/// vertices.
fn iterated_greedy(graph: &Graph) -> Vec<Vec<usize>> {
    let n = graph.len();
    let mut best = first_fit(graph, &(0..n).collect::<Vec<_>>());
    for _ in 0..ROUNDS {
        let seq: Vec<usize> = best.iter().rev().flatten().copied().collect();
        let next = first_fit(graph, &seq);
        if next.len() <= best.len() {
            best = next;
        }
    }
    best
}

/// The first-fit colouring of `graph` in the order `seq`: each vertex
/// takes the first class that holds no neighbour of it.
fn first_fit(graph: &Graph, seq: &[usize]) -> Vec<Vec<usize>> {
    let words = graph.words();
    let mut sets: Vec<u64> = Vec::new();
    let mut classes: Vec<Vec<usize>> = Vec::new();
    for &v in seq {
        let row = graph.row(v);
        let c = (0..classes.len())
            .find(|&c| {
                sets[c * words..(c + 1) * words]
                    .iter()
                    .zip(row)
                    .all(|(s, r)| s & r == 0)
            })
            .unwrap_or_else(|| {
                sets.resize(sets.len() + words, 0);
                classes.push(Vec::new());
                classes.len() - 1
            });
        sets[c * words + v / 64] |= 1 << (v % 64);
        classes[c].push(v);
    }
    classes
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::clique::families;

    /// A complete multipartite graph (parts of `size` independent
    /// vertices, every pair of parts joined) has a clique of a vertex a
    /// part and a colouring of a colour a part: the colour order, parts
    /// one after another.
    #[test]
    fn a_colouring_met_by_a_clique_orders_by_colour() {
        let (parts, size) = (7, 5);
        let mut g = Graph::new(parts * size);
        for u in 0..parts * size {
            for v in u + 1..parts * size {
                if u % parts != v % parts {
                    g.add_edge(u, v);
                }
            }
        }
        let Numbering::One(order, clique) = numbering(&g) else {
            panic!("a colouring met by a clique")
        };
        assert_eq!(clique.len(), parts);
        assert!(g.renumbered(&order).is_clique(&clique));
        let mut seen = order.clone();
        seen.sort_unstable();
        assert_eq!(seen, (0..parts * size).collect::<Vec<_>>());
        for block in order.chunks(size) {
            assert!(
                block.iter().all(|&v| v % parts == block[0] % parts),
                "{order:?}"
            );
        }
    }

    /// hamming8-4's greedy colouring takes 32 colours; the tabu descent
    /// finds one in 16, its clique number, and the colour order follows.
    #[test]
    fn hamming8_4_is_ordered_by_a_colouring_its_clique_meets() {
        let g = families::hamming(8, 4).unwrap();
        let Numbering::One(order, clique) = numbering(&g) else {
            panic!("a colouring met by a clique")
        };
        assert_eq!(clique.len(), 16);
        assert_ne!(order, g.degeneracy_order());
        let r = g.renumbered(&order);
        assert!(r.is_clique(&clique));
        // Sixteen runs of consecutive numbers, each independent.
        let classes = super::iterated_greedy(&r);
        assert_eq!(classes.len(), 16, "the numbering's classes, first fit");
    }

    /// keller5's colour order's tree is estimated tens of times smaller
    /// than its degeneracy order's (CliSAT: 222,737 steps in its colour
    /// order, over 15 minutes in its degree order): the colour order.
    /// keller4's two trees are near each other: the degeneracy order.
    #[test]
    fn keller5_is_ordered_by_colour_by_the_estimate_and_keller4_is_not() {
        let g = families::keller(5).unwrap();
        let c = Clique::new(&g, "keller5");
        assert_ne!(c.original, g.degeneracy_order());
        let colours = super::iterated_greedy(&c.graph).len();
        assert!(
            colours < 40,
            "the numbering's classes, first fit: {colours}"
        );
        let g = families::keller(4).unwrap();
        assert_eq!(Clique::new(&g, "keller4").original, g.degeneracy_order());
    }

    /// A random graph's greedy colouring is far above its clique number:
    /// the degeneracy order.
    #[test]
    fn a_colouring_far_from_the_clique_keeps_the_degeneracy_order() {
        let g = families::random(120, 0.5, 3).unwrap();
        let c = Clique::new(&g, "g120");
        assert_eq!(c.original, g.degeneracy_order());
        assert!(c.known_size > 0);
    }
}
