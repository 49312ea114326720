//! The bound of colouring branch and bound: a greedy colouring of the
//! candidates, one colour class at a time, on bitsets (as Tomita's MCS and
//! San Segundo's BBMC do). A clique holds at most one vertex of each
//! colour, so a vertex of colour `k`, with the candidates of colours up to
//! `k`, can grow the clique by at most `k`.

/// Colours the vertices of `set` (bits of `words` 64-bit words, numbered
/// in the graph's order) greedily: each class takes, lowest first, every
/// vertex left that has no neighbour in it (`row(v)` gives the neighbours
/// of `v`). Writes the vertices to `order` class by class, each with its
/// colour (from 1) in `colours`, and returns how many there are. `left`
/// and `class` are scratch sets of `words` words.
#[inline]
pub(super) fn colour_classes<'g>(
    set: &[u64],
    row: impl Fn(usize) -> &'g [u64],
    left: &mut [u64],
    class: &mut [u64],
    order: &mut [u32],
    colours: &mut [u32],
) -> usize {
    left.copy_from_slice(set);
    let words = set.len();
    let mut len = 0;
    let mut colour = 0;
    // The first word of `left` that may hold a vertex.
    let mut start = 0;
    loop {
        while start < words && left[start] == 0 {
            start += 1;
        }
        if start == words {
            return len;
        }
        colour += 1;
        class[start..].copy_from_slice(&left[start..]);
        for w in start..words {
            while class[w] != 0 {
                let bit = class[w].trailing_zeros() as usize;
                let v = w * 64 + bit;
                class[w] &= class[w] - 1;
                left[w] &= !(1 << bit);
                // Neighbours of `v` cannot share its colour; the words
                // before `w` are already empty.
                let nv = row(v);
                for j in w..words {
                    class[j] &= !nv[j];
                }
                order[len] = v as u32;
                colours[len] = colour;
                len += 1;
            }
        }
    }
}

/// [`colour_classes`] for sets of exactly `W` words, monomorphised: the
/// word loops unrolled (a neighbourhood is taken out of a class in a few
/// vector instructions), and no copy of a set calls `memmove`. The same
/// colouring, vertex for vertex.
#[inline]
pub(super) fn colour_classes_fixed<'g, const W: usize>(
    set: &[u64],
    row: impl Fn(usize) -> &'g [u64],
    order: &mut [u32],
    colours: &mut [u32],
) -> usize {
    let mut left: [u64; W] = set.try_into().expect("a set of W words");
    let mut len = 0;
    let mut colour = 0;
    let mut start = 0;
    loop {
        while start < W && left[start] == 0 {
            start += 1;
        }
        if start == W {
            return len;
        }
        colour += 1;
        let mut class = left;
        for w in start..W {
            while class[w] != 0 {
                let bit = class[w].trailing_zeros() as usize;
                let v = w * 64 + bit;
                class[w] &= class[w] - 1;
                left[w] &= !(1 << bit);
                // All the words at once: those before `w` are empty.
                let nv: &[u64; W] = row(v).try_into().expect("a row of W words");
                for j in 0..W {
                    class[j] &= !nv[j];
                }
                order[len] = v as u32;
                colours[len] = colour;
                len += 1;
            }
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::clique::graph::Graph;

    #[test]
    fn classes_are_independent_and_come_in_order() {
        let g = crate::clique::families::random(150, 0.6, 3).unwrap();
        let w = g.words();
        let mut set = vec![0u64; w];
        for v in (0..150).filter(|v| v % 3 != 1) {
            set[v / 64] |= 1 << (v % 64);
        }
        let (mut left, mut class) = (vec![0; w], vec![0; w]);
        let (mut order, mut colours) = (vec![0; 150], vec![0; 150]);
        let len = colour_classes(
            &set,
            |v| g.row(v),
            &mut left,
            &mut class,
            &mut order,
            &mut colours,
        );
        assert_eq!(len, 100);
        let mut seen: Vec<u32> = order[..len].to_vec();
        seen.sort();
        assert_eq!(seen, (0..150).filter(|v| v % 3 != 1).collect::<Vec<u32>>());
        for i in 0..len {
            if i > 0 {
                assert!(colours[i] >= colours[i - 1], "classes in order");
            }
            for j in i + 1..len {
                if colours[i] == colours[j] {
                    assert!(!g.adjacent(order[i] as usize, order[j] as usize));
                }
            }
        }
        // A complete graph needs a colour a vertex.
        let mut k = Graph::new(5);
        for u in 0..5 {
            for v in u + 1..5 {
                k.add_edge(u, v);
            }
        }
        let set = [0b11111u64];
        let len = colour_classes(
            &set,
            |v| k.row(v),
            &mut [0],
            &mut [0],
            &mut order,
            &mut colours,
        );
        assert_eq!((len, colours[4]), (5, 5));
    }

    #[test]
    fn the_fixed_width_colouring_is_the_same() {
        for (n, p) in [(64, 0.5), (150, 0.8), (250, 0.3), (1100, 0.3)] {
            let g = crate::clique::families::random(n, p, 9).unwrap();
            let w = g.words();
            let set: Vec<u64> = (0..w)
                .map(|i| {
                    if i + 1 == w && n % 64 != 0 {
                        (1 << (n % 64)) - 1
                    } else {
                        !0
                    }
                })
                .collect();
            let (mut a, mut ca) = (vec![0; n], vec![0; n]);
            let len = colour_classes(
                &set,
                |v| g.row(v),
                &mut vec![0; w],
                &mut vec![0; w],
                &mut a,
                &mut ca,
            );
            let (mut b, mut cb) = (vec![0; n], vec![0; n]);
            let fixed = match w {
                1 => colour_classes_fixed::<1>(&set, |v| g.row(v), &mut b, &mut cb),
                3 => colour_classes_fixed::<3>(&set, |v| g.row(v), &mut b, &mut cb),
                4 => colour_classes_fixed::<4>(&set, |v| g.row(v), &mut b, &mut cb),
                18 => colour_classes_fixed::<18>(&set, |v| g.row(v), &mut b, &mut cb),
                _ => unreachable!(),
            };
            assert_eq!((len, &a[..len], &ca[..len]), (fixed, &b[..len], &cb[..len]));
        }
    }
}
