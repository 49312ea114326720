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
//! The clique the local searches met is kept: the root's listing ends
//! below the colours that cannot beat it (`search.rs`, `known_end`), as
//! CliSAT's first level starts past the clique its heuristic found.

use super::graph::Graph;
use super::local;

/// Rounds of Culberson's iterated greedy colouring: each colours the
/// vertices first fit in the order of the last round's classes, the last
/// class first, which never takes more colours. 200 and 1,000 rounds
/// took no fewer colours than 20 on the shared graphs.
const ROUNDS: usize = 20;

/// The effort (about a nanosecond a unit, `local.rs`) of the quick local
/// search that tells whether the colouring may be near the clique number.
const QUICK: u64 = 2_000_000;

/// Colourings of more than `NEAR` tenths of the quick search's clique are
/// not tried: keller4 (21 colours for 11), hamming8-4 (32 for 16) and
/// p_hat300-3 (70 for 34) are not; gen400_p0.9_75 (75 colours, its quick
/// search 49, the clique 75), the other gen graphs, C125.9 and MANN_a27
/// are.
const NEAR: usize = 16;

/// The effort of the local search that tries to meet the colouring's
/// number of colours (it stops there): the ramp-up's (`--ramp-up`).
const PROOF: u64 = 20_000_000;

/// The numbering of `graph` for the search: `order[i]` is the vertex
/// numbered `i`; and the largest clique the local searches that chose it
/// met, in that numbering (the root's listing ends below it, `search.rs`).
pub(super) fn numbering(graph: &Graph) -> (Vec<usize>, Vec<usize>) {
    let degeneracy = graph.degeneracy_order();
    let g = graph.renumbered(&degeneracy);
    let classes = iterated_greedy(&g);
    let k = classes.len();
    let mut clique = local::search(&g, QUICK, 1, 1, k).map_or(Vec::new(), |f| f.clique);
    if clique.len() < k && k * 10 <= clique.len() * NEAR {
        let proof = local::search(&g, PROOF, 1, 1, k).map_or(Vec::new(), |f| f.clique);
        if proof.len() > clique.len() {
            clique = proof;
        }
    }
    let clique: Vec<usize> = clique.iter().map(|&v| v as usize).collect();
    if clique.len() < k {
        return (degeneracy, clique);
    }
    // Renumbered class by class: `at[v]` is the new number of `g`'s `v`.
    let flat: Vec<usize> = classes.iter().flatten().copied().collect();
    let mut at = vec![0; flat.len()];
    for (i, &v) in flat.iter().enumerate() {
        at[v] = i;
    }
    (
        flat.iter().map(|&v| degeneracy[v]).collect(),
        clique.iter().map(|&v| at[v]).collect(),
    )
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
        let (order, clique) = numbering(&g);
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

    /// A random graph's greedy colouring is far above its clique number:
    /// the degeneracy order.
    #[test]
    fn a_colouring_far_from_the_clique_keeps_the_degeneracy_order() {
        let g = families::random(120, 0.5, 3).unwrap();
        let (order, clique) = numbering(&g);
        assert_eq!(order, g.degeneracy_order());
        assert!(!clique.is_empty() && g.renumbered(&order).is_clique(&clique));
    }
}
