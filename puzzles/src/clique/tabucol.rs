//! A colouring in fewer colours by tabu search (Hertz and de Werra's
//! TabuCol, with Galinier and Hao's tenure): the numbering's way to a
//! colouring that a clique as large proves optimal where greedy colourings
//! stop short of it.
//!
//! The search keeps every vertex coloured in `k` colours and moves one
//! vertex of a conflict (an edge inside a class) at a time to the colour
//! that leaves fewest conflicts, ties at random; a vertex may not return
//! to a colour it left for `0.6 · conflicting vertices + 0..10` moves,
//! unless that move leaves fewer conflicts than any colouring met so far.
//! It starts from a greedy colouring in more colours, each vertex of a
//! class past the `k`th moved to the class of fewest neighbours.
//!
//! Why (`README.md`, "The numbering"): iterated greedy colours hamming8-4
//! in 32 colours and keller4 in 21; this search colours hamming8-4 in 16,
//! its clique number, and keller4 in 15, within a millisecond or two.

use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;

use super::graph::Graph;

/// A search's state: the colour of each vertex, and for each vertex and
/// colour how many neighbours hold that colour.
struct Tabu<'g> {
    graph: &'g Graph,
    k: usize,
    colour: Vec<usize>,
    /// `near[v * k + c]`: how many neighbours of `v` have colour `c`.
    near: Vec<u32>,
    /// `until[v * k + c]`: the move at which `v` may take `c` again.
    until: Vec<u64>,
    /// The vertices in a conflict, and where each stands in that list
    /// (`usize::MAX` where it is in none).
    conflicting: Vec<usize>,
    at: Vec<usize>,
    /// Edges inside a class.
    conflicts: u64,
}

impl<'g> Tabu<'g> {
    fn new(graph: &'g Graph, k: usize, start: &[Vec<usize>]) -> Tabu<'g> {
        let n = graph.len();
        let mut tabu = Tabu {
            graph,
            k,
            colour: vec![usize::MAX; n],
            near: vec![0; n * k],
            until: vec![0; n * k],
            conflicting: Vec::new(),
            at: vec![usize::MAX; n],
            conflicts: 0,
        };
        for (c, class) in start.iter().enumerate().take(k) {
            for &v in class {
                tabu.place(v, c);
            }
        }
        for class in start.iter().skip(k) {
            for &v in class {
                let row = &tabu.near[v * k..(v + 1) * k];
                let c = (0..k).min_by_key(|&c| row[c]).unwrap_or(0);
                tabu.place(v, c);
            }
        }
        for v in 0..n {
            tabu.mark(v);
        }
        tabu
    }

    /// Gives the uncoloured `v` colour `c`.
    fn place(&mut self, v: usize, c: usize) {
        self.colour[v] = c;
        self.conflicts += u64::from(self.near[v * self.k + c]);
        for u in self.graph.neighbours(v) {
            self.near[u * self.k + c] += 1;
        }
    }

    /// Moves `v` to colour `c`, keeping the conflict list.
    fn recolour(&mut self, v: usize, c: usize) {
        let (k, old) = (self.k, self.colour[v]);
        self.conflicts =
            self.conflicts + u64::from(self.near[v * k + c]) - u64::from(self.near[v * k + old]);
        self.colour[v] = c;
        for u in self.graph.neighbours(v) {
            self.near[u * k + old] -= 1;
            self.near[u * k + c] += 1;
            if self.colour[u] == old || self.colour[u] == c {
                self.mark(u);
            }
        }
        self.mark(v);
    }

    /// Puts `v` in the conflict list or takes it out, as it now stands.
    fn mark(&mut self, v: usize) {
        let bad = self.near[v * self.k + self.colour[v]] > 0;
        match (bad, self.at[v] != usize::MAX) {
            (true, false) => {
                self.at[v] = self.conflicting.len();
                self.conflicting.push(v);
            }
            (false, true) => {
                let i = self.at[v];
                self.conflicting.swap_remove(i);
                if let Some(&w) = self.conflicting.get(i) {
                    self.at[w] = i;
                }
                self.at[v] = usize::MAX;
            }
            _ => {}
        }
    }

    /// The classes of the colouring.
    fn classes(&self) -> Vec<Vec<usize>> {
        let mut classes = vec![Vec::new(); self.k];
        for (v, &c) in self.colour.iter().enumerate() {
            classes[c].push(v);
        }
        classes
    }
}

/// A colouring of `graph` in `k` colours (its classes, some maybe empty)
/// found by tabu search from the colouring `start`, or `None` where none
/// was found within `effort` units (a unit is one candidate move looked
/// at, a few nanoseconds). The same arguments give the same answer.
pub(super) fn colour(
    graph: &Graph,
    k: usize,
    start: &[Vec<usize>],
    effort: u64,
    seed: u64,
) -> (Option<Vec<Vec<usize>>>, u64) {
    if k == 0 {
        return (graph.is_empty().then(Vec::new), 0);
    }
    let mut tabu = Tabu::new(graph, k, start);
    let mut random = XorShiftRng::seed_from_u64(seed);
    let (mut spent, mut best) = (0u64, tabu.conflicts);
    let mut step = 0u64;
    while tabu.conflicts > 0 {
        if spent >= effort {
            return (None, spent);
        }
        step += 1;
        spent += (tabu.conflicting.len() * k) as u64;
        // The best allowed move, ties at random (reservoir of one).
        let mut chosen = None;
        let (mut least, mut ties) = (i64::MAX, 0u32);
        for &v in &tabu.conflicting {
            let row = &tabu.near[v * k..(v + 1) * k];
            let own = i64::from(row[tabu.colour[v]]);
            for c in (0..k).filter(|&c| c != tabu.colour[v]) {
                let delta = i64::from(row[c]) - own;
                let open = tabu.until[v * k + c] <= step;
                let aspires = (tabu.conflicts as i64 + delta) < best as i64;
                if !(open || aspires) || delta > least {
                    continue;
                }
                if delta < least {
                    (least, ties) = (delta, 0);
                }
                ties += 1;
                if random.random_range(0..ties) == 0 {
                    chosen = Some((v, c));
                }
            }
        }
        let Some((v, c)) = chosen else {
            continue;
        };
        let old = tabu.colour[v];
        tabu.recolour(v, c);
        best = best.min(tabu.conflicts);
        let tenure = (tabu.conflicting.len() * 6 / 10) as u64 + random.random_range(0..10u64);
        tabu.until[v * k + old] = step + tenure;
    }
    (Some(tabu.classes()), spent)
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::clique::families;

    fn proper(graph: &Graph, classes: &[Vec<usize>]) -> bool {
        let mut seen: Vec<usize> = classes.iter().flatten().copied().collect();
        seen.sort_unstable();
        seen == (0..graph.len()).collect::<Vec<_>>()
            && classes.iter().all(|class| {
                class
                    .iter()
                    .all(|&u| class.iter().all(|&v| !graph.adjacent(u, v)))
            })
    }

    /// hamming8-4 (words of 8 bits, joined at distance 4 or more) has a
    /// clique of 16 and a colouring in 16, which iterated greedy misses
    /// by far (32 colours); the search finds one.
    #[test]
    fn hamming8_4_in_sixteen_colours() {
        let g = families::hamming(8, 4).unwrap();
        let start: Vec<Vec<usize>> = (0..g.len()).map(|v| vec![v]).collect();
        let classes = colour(&g, 16, &start, 50_000_000, 1).0.expect("16 colours");
        assert_eq!(classes.len(), 16);
        assert!(proper(&g, &classes));
    }

    /// No colouring below the clique number exists, and the search says
    /// so once its effort is spent.
    #[test]
    fn below_the_clique_number_it_gives_up() {
        let g = families::hamming(6, 2).unwrap();
        let start: Vec<Vec<usize>> = (0..g.len()).map(|v| vec![v]).collect();
        // hamming6-2's clique number is 32.
        assert!(colour(&g, 31, &start, 2_000_000, 1).0.is_none());
        let classes = colour(&g, 32, &start, 50_000_000, 1).0.expect("32 colours");
        assert!(proper(&g, &classes));
    }
}
