//! Graphs built from definitions: the DIMACS benchmark families whose
//! clique numbers are known (hamming, johnson, keller), and random graphs
//! G(n, p) from a seed.
//!
//! The DIMACS challenge's files of these families are made from the same
//! definitions; the vertices may be numbered otherwise, which changes no
//! clique number.

use super::graph::{Graph, MAX_VERTICES};
use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;

/// Why a family's parameters make no graph here.
fn too_big(what: &str, n: u128) -> String {
    format!("{what} would have {n} vertices (at most {MAX_VERTICES})")
}

/// `hamming{bits}-{distance}`: the words of `bits` bits, adjacent when
/// they differ in at least `distance` bits. hamming6-2 has clique number
/// 32, hamming8-4 16 (DIMACS).
pub fn hamming(bits: u32, distance: u32) -> Result<Graph, String> {
    if bits == 0 || bits > 15 {
        return Err(too_big(
            &format!("hamming{bits}-{distance}"),
            1u128 << bits.min(100),
        ));
    }
    let n = 1usize << bits;
    let mut g = Graph::new(n);
    for u in 0..n {
        for v in u + 1..n {
            if (u ^ v).count_ones() >= distance {
                g.add_edge(u, v);
            }
        }
    }
    Ok(g)
}

/// `johnson{n}-{weight}-{distance}`: the subsets of `weight` of `n`
/// elements (words of `n` bits with `weight` ones), adjacent when they
/// differ in at least `distance` bits. johnson8-4-4 has clique number 14,
/// johnson16-2-4 8 (DIMACS).
pub fn johnson(n: u32, weight: u32, distance: u32) -> Result<Graph, String> {
    if n == 0 || n > 32 || weight > n {
        return Err(format!(
            "johnson{n}-{weight}-{distance}: the weight must be at most n, n from 1 to 32"
        ));
    }
    let words: Vec<u64> = (0u64..1 << n)
        .filter(|w| w.count_ones() == weight)
        .take(MAX_VERTICES + 1)
        .collect();
    if words.len() > MAX_VERTICES {
        return Err(too_big(
            &format!("johnson{n}-{weight}-{distance}"),
            words.len() as u128,
        ));
    }
    let mut g = Graph::new(words.len());
    for (i, a) in words.iter().enumerate() {
        for (j, b) in words.iter().enumerate().skip(i + 1) {
            if (a ^ b).count_ones() >= distance {
                g.add_edge(i, j);
            }
        }
    }
    Ok(g)
}

/// Keller's graph of dimension `d`: the words of `d` digits 0 to 3,
/// adjacent when they differ in at least two digits, and in one of them
/// by exactly 2 (mod 4). Its clique number is 2^d for d up to 5.
pub fn keller_graph(d: u32) -> Result<Graph, String> {
    if d == 0 || d > 7 {
        return Err(too_big(
            &format!("Keller's graph of dimension {d}"),
            1u128 << (2 * d.min(60)),
        ));
    }
    let n = 1usize << (2 * d);
    let digit = |w: usize, i: u32| (w >> (2 * i)) & 3;
    let mut g = Graph::new(n);
    for u in 0..n {
        for v in u + 1..n {
            let differ = (0..d).filter(|&i| digit(u, i) != digit(v, i)).count();
            let by_two = (0..d).any(|i| (digit(u, i) + 4 - digit(v, i)) % 4 == 2);
            if differ >= 2 && by_two {
                g.add_edge(u, v);
            }
        }
    }
    Ok(g)
}

/// DIMACS `keller{d}`: the neighbours of one vertex in Keller's graph of
/// dimension `d`, which has the same neighbourhood everywhere. keller4
/// has 171 vertices and clique number 11, keller5 776 and 27, keller6
/// 3,361 and 59.
pub fn keller(d: u32) -> Result<Graph, String> {
    let whole = keller_graph(d)?;
    let around: Vec<usize> = (0..whole.len()).filter(|&v| whole.adjacent(0, v)).collect();
    Ok(whole.induced(&around))
}

/// A random graph G(n, p): each pair of the `n` vertices is adjacent with
/// probability `p`, independently; the same seed, the same graph.
pub fn random(n: usize, p: f64, seed: u64) -> Result<Graph, String> {
    if n > MAX_VERTICES {
        return Err(too_big("the random graph", n as u128));
    }
    if !(0.0..=1.0).contains(&p) {
        return Err(format!("the edge probability must be from 0 to 1, got {p}"));
    }
    let mut rng = XorShiftRng::seed_from_u64(seed);
    let mut g = Graph::new(n);
    for u in 0..n {
        for v in u + 1..n {
            if rng.random_bool(p) {
                g.add_edge(u, v);
            }
        }
    }
    Ok(g)
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn the_families_have_their_published_sizes() {
        // DIMACS: vertices and edges.
        let h = hamming(6, 2).unwrap();
        assert_eq!((h.len(), h.edges()), (64, 1824));
        let h = hamming(8, 4).unwrap();
        assert_eq!((h.len(), h.edges()), (256, 20864));
        let j = johnson(8, 4, 4).unwrap();
        assert_eq!((j.len(), j.edges()), (70, 1855));
        let j = johnson(16, 2, 4).unwrap();
        assert_eq!((j.len(), j.edges()), (120, 5460));
        let k = keller(4).unwrap();
        assert_eq!((k.len(), k.edges()), (171, 9435));
    }

    #[test]
    fn random_graphs_follow_their_seed() {
        let a = random(60, 0.5, 7).unwrap();
        assert_eq!(a, random(60, 0.5, 7).unwrap());
        assert_ne!(a, random(60, 0.5, 8).unwrap());
        assert!((a.density() - 0.5).abs() < 0.1);
        assert!(random(10, 1.5, 1).is_err());
    }
}
