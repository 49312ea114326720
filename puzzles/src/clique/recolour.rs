//! Re-colouring (Tomita's Re-NUMBER, MCS 2010), made independent of the
//! incumbent: after the greedy colouring, each vertex of the `top`
//! highest colour classes tries to move into a class of the rest (the
//! *low* classes), directly when it has no neighbour there, or by a swap
//! when it has exactly one, `w`, and `w` can move up into a later low
//! class where it has none. A vertex that moves gets a lower colour, so a
//! lower bound, and a top class that empties takes a colour off every
//! vertex above it.
//!
//! Tomita re-numbers the vertices whose colour passes the incumbent's
//! threshold (`k_min`); the engine wants a node's listing not to depend
//! on the incumbent (`engine/README.md`), so the threshold here is a
//! fixed number of classes from the top: the moves a node branches on
//! are its highest colours, and those are the ones re-coloured.

use super::graph::Graph;

/// Re-colours the colouring of `len` vertices in `order` and `colours`
/// (classes in order, colours from 1, as the greedy colouring wrote them)
/// as the module says, and writes it back the same way: classes in order
/// (empty ones dropped), each class's vertices rising. `classes` is
/// scratch space.
pub(super) fn recolour(
    graph: &Graph,
    top: u32,
    order: &mut [u32],
    colours: &mut [u32],
    len: usize,
    classes: &mut Vec<u64>,
) {
    if len == 0 {
        return;
    }
    let k = colours[len - 1] as usize;
    // The low classes are 0..low (colours 1 to low); a swap needs two.
    let Some(low) = k.checked_sub(top as usize).filter(|&l| l >= 2) else {
        return;
    };
    let words = graph.words();
    classes.clear();
    classes.resize(k * words, 0);
    for i in 0..len {
        let v = order[i] as usize;
        classes[(colours[i] as usize - 1) * words + v / 64] |= 1 << (v % 64);
    }
    let first_top = colours[..len].partition_point(|&c| c as usize <= low);
    for i in first_top..len {
        let v = order[i] as usize;
        let c = colours[i] as usize - 1;
        if let Some((k1, swap)) = place(graph, classes, words, low, v) {
            classes[c * words + v / 64] &= !(1 << (v % 64));
            classes[k1 * words + v / 64] |= 1 << (v % 64);
            if let Some((w, k2)) = swap {
                classes[k1 * words + w / 64] &= !(1 << (w % 64));
                classes[k2 * words + w / 64] |= 1 << (w % 64);
            }
        }
    }
    // Written back class by class.
    let mut at = 0;
    let mut colour = 0;
    for class in classes.chunks_exact(words) {
        if class.iter().all(|&b| b == 0) {
            continue;
        }
        colour += 1;
        for (w, &bits) in class.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                order[at] = (w * 64 + bits.trailing_zeros() as usize) as u32;
                colours[at] = colour;
                at += 1;
                bits &= bits - 1;
            }
        }
    }
    debug_assert_eq!(at, len);
}

/// Where `v` can go among the low classes `0..low`: the first class where
/// it has no neighbour, or where it has one, `w`, that can move up to a
/// later low class where `w` has none (returned with `w` and that class).
#[inline]
fn place(
    graph: &Graph,
    classes: &[u64],
    words: usize,
    low: usize,
    v: usize,
) -> Option<(usize, Option<(usize, usize)>)> {
    let nv = graph.row(v);
    for k1 in 0..low {
        let class = &classes[k1 * words..(k1 + 1) * words];
        // The one neighbour of `v` in the class, if it has exactly one.
        let mut one = None;
        let mut many = false;
        for (j, (&c, &n)) in class.iter().zip(nv).enumerate() {
            let both = c & n;
            if both == 0 {
                continue;
            }
            if one.is_some() || both & (both - 1) != 0 {
                many = true;
                break;
            }
            one = Some(j * 64 + both.trailing_zeros() as usize);
        }
        if many {
            continue;
        }
        let Some(w) = one else {
            return Some((k1, None));
        };
        let nw = graph.row(w);
        for k2 in k1 + 1..low {
            let class = &classes[k2 * words..(k2 + 1) * words];
            if class.iter().zip(nw).all(|(&c, &n)| c & n == 0) {
                return Some((k1, Some((w, k2))));
            }
        }
    }
    None
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::clique::colour::colour_classes;
    use crate::clique::families;

    #[test]
    fn the_recolouring_is_a_colouring_with_no_more_colours() {
        for (n, p, seed) in [(60, 0.5, 1), (150, 0.8, 2), (200, 0.9, 3), (130, 0.3, 4)] {
            let g = families::random(n, p, seed).unwrap();
            let w = g.words();
            let set: Vec<u64> = (0..w)
                .map(|i| {
                    let bits = (n - i * 64).min(64);
                    if bits == 64 { !0 } else { (1 << bits) - 1 }
                })
                .collect();
            let (mut order, mut colours) = (vec![0; n], vec![0; n]);
            let len = colour_classes(
                &set,
                |v| g.row(v),
                &mut vec![0; w],
                &mut vec![0; w],
                &mut order,
                &mut colours,
            );
            let before = colours[len - 1];
            for top in [1, 3, 100] {
                let (mut o, mut c) = (order.clone(), colours.clone());
                recolour(&g, top, &mut o, &mut c, len, &mut Vec::new());
                let mut seen = o[..len].to_vec();
                seen.sort();
                assert_eq!(seen, (0..n as u32).collect::<Vec<_>>(), "every vertex once");
                assert!(c[len - 1] <= before);
                for i in 0..len {
                    if i > 0 {
                        assert!(c[i] == c[i - 1] || c[i] == c[i - 1] + 1, "classes in order");
                    }
                    for j in i + 1..len {
                        if c[i] == c[j] {
                            assert!(!g.adjacent(o[i] as usize, o[j] as usize));
                        }
                    }
                }
            }
        }
    }
}
