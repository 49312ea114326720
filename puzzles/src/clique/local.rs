//! A local search for large cliques: Pullan and Hoos's dynamic local
//! search (DLS-MC, 2006), the ramp-up of the exact search and its race
//! ([`Optimise::heuristic`](hysolve::Optimise::heuristic)).
//!
//! A clique grows by a vertex adjacent to all of it (*expansion*) while it
//! can; then it swaps one vertex for an outside vertex adjacent to all but
//! that one (*plateau*), never taking out a vertex a swap of this plateau
//! brought in, until it can grow again or none of the clique the plateau
//! started from is left. Among the vertices a step may take, the one of
//! least *penalty* wins (ties by the random numbers). At the end of each
//! climb every vertex of the clique gains a penalty, and every
//! `penalty_delay` climbs every penalty falls by one, so vertices that
//! keep ending climbs are avoided for a while; then a random vertex joins
//! the clique and its non-neighbours leave (with a delay of 1, the
//! penalties never count and each climb starts again from a random
//! vertex). The same graph, effort and seed give the same clique.
//!
//! The counts a step needs are kept up to date: `missing[v]`, how many
//! vertices of the clique are not adjacent to `v`, and the lists of the
//! outside vertices missing none (they may join) and one (they may swap
//! in), so that a step looks only at those, not at every vertex. That
//! makes a step cheaper on dense graphs (brock400_4: 1.08 µs against 1.37)
//! and dearer on sparse ones, whose joining and leaving vertices move
//! many non-neighbours between the lists (p_hat1500-1: 5.5 µs against
//! 4.1; `README.md`, "The steps").

use super::graph::Graph;

/// What [`search`] found: the largest clique, and after how many steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// Its vertices, in the order they joined.
    pub clique: Vec<u32>,
    /// The step (a vertex joining, a swap or a perturbation) at which it
    /// was met.
    pub step: u64,
}

/// xorshift64*: the search's random numbers.
struct Random(u64);

impl Random {
    fn new(seed: u64) -> Random {
        // Never zero; a seed's neighbours give unrelated streams.
        Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number below `n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

/// A set of vertices as a list, with each member's place in it: a member
/// joins and leaves in constant time, and the list is walked in its own
/// order (a step's choice among its members is at random, so the order
/// does not bias it).
struct Members {
    list: Vec<u32>,
    /// Each vertex's place in `list`, [`Members::OUT`] for a non-member.
    at: Vec<u32>,
}

impl Members {
    const OUT: u32 = u32::MAX;

    fn new(n: usize) -> Members {
        Members {
            list: Vec::new(),
            at: vec![Self::OUT; n],
        }
    }

    #[inline]
    fn insert(&mut self, v: usize) {
        debug_assert_eq!(self.at[v], Self::OUT);
        self.at[v] = self.list.len() as u32;
        self.list.push(v as u32);
    }

    #[inline]
    fn remove(&mut self, v: usize) {
        let i = self.at[v] as usize;
        debug_assert!(i < self.list.len());
        let last = self.list.pop().expect("a member") as usize;
        if last != v {
            self.list[i] = last as u32;
            self.at[last] = i as u32;
        }
        self.at[v] = Self::OUT;
    }
}

/// The search's state on `graph`.
struct Walk<'g> {
    graph: &'g Graph,
    clique: Vec<u32>,
    inside: Vec<bool>,
    /// For each vertex, how many vertices of the clique it is not adjacent
    /// to (a vertex of the clique misses none).
    missing: Vec<u32>,
    /// The outside vertices missing none of the clique, and those missing
    /// one.
    joins: Members,
    swaps: Members,
    penalty: Vec<u32>,
    /// Vertices a swap of the current plateau brought in.
    swapped_in: Vec<bool>,
    random: Random,
    /// The work done: words and vertices looked at by the steps and their
    /// choices (about a nanosecond each).
    work: u64,
}

/// Applies `f` to every vertex of `graph` other than `v` not adjacent to
/// it.
#[inline]
fn for_non_neighbours(graph: &Graph, v: usize, mut f: impl FnMut(usize)) {
    let n = graph.len();
    for (w, &bits) in graph.row(v).iter().enumerate() {
        let mut non = !bits;
        if w == n / 64 {
            non &= (1u64 << (n % 64)).wrapping_sub(1);
        }
        while non != 0 {
            let u = w * 64 + non.trailing_zeros() as usize;
            non &= non - 1;
            if u != v {
                f(u);
            }
        }
    }
}

impl<'g> Walk<'g> {
    fn new(graph: &'g Graph, seed: u64) -> Walk<'g> {
        let n = graph.len();
        Walk {
            graph,
            clique: Vec::new(),
            inside: vec![false; n],
            missing: vec![0; n],
            joins: {
                // Every vertex may join the empty clique.
                let mut all = Members::new(n);
                (0..n).for_each(|v| all.insert(v));
                all
            },
            swaps: Members::new(n),
            penalty: vec![0; n],
            swapped_in: vec![false; n],
            random: Random::new(seed),
            work: 0,
        }
    }

    /// `v`, which misses none of the clique, joins it.
    fn add(&mut self, v: usize) {
        debug_assert_eq!(self.missing[v], 0);
        self.inside[v] = true;
        self.clique.push(v as u32);
        self.joins.remove(v);
        self.recount::<true>(v);
    }

    /// `v` leaves the clique (and may join again: it misses none).
    fn remove(&mut self, v: usize) {
        self.inside[v] = false;
        let at = self
            .clique
            .iter()
            .position(|&u| u as usize == v)
            .expect("in the clique");
        self.clique.remove(at);
        self.work += self.clique.len() as u64;
        self.joins.insert(v);
        self.recount::<false>(v);
    }

    /// The counts of `v`'s non-neighbours, and their lists, as `v` joins
    /// the clique (`JOINS`) or leaves it. They are all outside: the clique's
    /// vertices are adjacent to `v`.
    #[inline]
    fn recount<const JOINS: bool>(&mut self, v: usize) {
        let (missing, joins, swaps) = (&mut self.missing, &mut self.joins, &mut self.swaps);
        let mut touched = 0;
        for_non_neighbours(self.graph, v, |u| {
            touched += 1;
            if JOINS {
                missing[u] += 1;
                match missing[u] {
                    1 => {
                        joins.remove(u);
                        swaps.insert(u);
                    }
                    2 => swaps.remove(u),
                    _ => {}
                }
            } else {
                missing[u] -= 1;
                match missing[u] {
                    0 => {
                        swaps.remove(u);
                        joins.insert(u);
                    }
                    1 => swaps.insert(u),
                    _ => {}
                }
            }
        });
        self.work += 4 * (self.graph.words() + touched) as u64;
    }

    /// The outside vertex of least penalty, ties broken at random, among
    /// those missing `k` (0 or 1) vertices of the clique and `allowed`
    /// (which costs `allowed_work`).
    fn pick(
        &mut self,
        k: u32,
        allowed_work: usize,
        allowed: impl Fn(&Walk, usize) -> bool,
    ) -> Option<usize> {
        let mut best: Option<usize> = None;
        let mut least = u32::MAX;
        let mut ties = 0;
        // The random numbers copied out and back, so that `allowed` may
        // borrow the walk while they advance.
        let mut random = Random(self.random.0);
        let members = if k == 0 { &self.joins } else { &self.swaps };
        let mut looked = members.list.len();
        for &v in &members.list {
            let v = v as usize;
            debug_assert!(self.missing[v] == k && !self.inside[v]);
            if self.penalty[v] > least {
                continue;
            }
            looked += allowed_work;
            if !allowed(self, v) {
                continue;
            }
            if self.penalty[v] < least {
                least = self.penalty[v];
                ties = 0;
            }
            ties += 1;
            if random.below(ties) == 0 {
                best = Some(v);
            }
        }
        self.random = random;
        self.work += 2 * looked as u64 + 1;
        best
    }

    /// The vertex of the clique not adjacent to `v` (which misses one).
    fn conflict(&self, v: usize) -> usize {
        self.clique
            .iter()
            .map(|&u| u as usize)
            .find(|&u| !self.graph.adjacent(u, v))
            .expect("a vertex missing one has one conflict")
    }
}

/// Runs the dynamic local search on `graph` until it has done `effort`
/// work (four units a word of a vertex's row and four a vertex whose
/// count changes when it joins or leaves the clique, two a vertex looked
/// at by a choice: about a nanosecond each), from `seed`, with penalties that fall
/// every `penalty_delay` climbs (at least 1). Stops early once it holds a
/// clique of `enough` vertices, and once it has gone without a larger
/// clique for as long as it took to meet the largest plus an eighth of
/// `effort` (an easy graph's answer comes at once, and then waiting for
/// more is waste). Returns the largest clique met (`None`
/// for a graph without vertices).
pub fn search(
    graph: &Graph,
    effort: u64,
    seed: u64,
    penalty_delay: u32,
    enough: usize,
) -> Option<Found> {
    let n = graph.len();
    if n == 0 {
        return None;
    }
    let delay = penalty_delay.max(1);
    let mut walk = Walk::new(graph, seed);
    let mut best = Found {
        clique: Vec::new(),
        step: 0,
    };
    let mut step = 0u64;
    let mut climbs = 0u32;
    // The work done when the largest clique was met.
    let mut best_work = 0;
    let go_on =
        |walk: &Walk, best_work: u64| walk.work < effort && walk.work < 2 * best_work + effort / 8;
    let first = walk.random.below(n);
    walk.add(first);
    while go_on(&walk, best_work) {
        // Expansion, then plateau, until neither can move.
        loop {
            while let Some(v) = walk.pick(0, 0, |_, _| true) {
                walk.add(v);
                step += 1;
            }
            if walk.clique.len() > best.clique.len() {
                best = Found {
                    clique: walk.clique.clone(),
                    step,
                };
                best_work = walk.work;
                if best.clique.len() >= enough {
                    return Some(best);
                }
            }
            // The plateau: swaps while some of its first clique is left.
            let mut left = walk.clique.len();
            let start: Vec<u32> = walk.clique.clone();
            let mut grew = false;
            while left > 0 && go_on(&walk, best_work) {
                if !walk.joins.list.is_empty() {
                    grew = true;
                    break;
                }
                let Some(v) = walk.pick(1, walk.clique.len(), |w, v| !w.swapped_in[w.conflict(v)])
                else {
                    break;
                };
                let u = walk.conflict(v);
                walk.remove(u);
                walk.add(v);
                walk.swapped_in[v] = true;
                step += 1;
                if start.contains(&(u as u32)) {
                    left -= 1;
                }
            }
            for &v in &walk.clique {
                walk.swapped_in[v as usize] = false;
            }
            if !grew || !go_on(&walk, best_work) {
                break;
            }
        }
        // Penalties, then a perturbation. With a delay of 1 each penalty
        // would fall back at once: none is kept.
        climbs += 1;
        if delay > 1 {
            for &v in &walk.clique {
                walk.penalty[v as usize] += 1;
            }
            if climbs.is_multiple_of(delay) {
                for p in &mut walk.penalty {
                    *p = p.saturating_sub(1);
                }
                walk.work += n as u64;
            }
        }
        step += 1;
        let v = walk.random.below(n);
        if delay == 1 {
            while let Some(&u) = walk.clique.last() {
                walk.remove(u as usize);
            }
            walk.add(v);
        } else if !walk.inside[v] {
            let drop: Vec<u32> = walk
                .clique
                .iter()
                .copied()
                .filter(|&u| !graph.adjacent(u as usize, v))
                .collect();
            for u in drop {
                walk.remove(u as usize);
            }
            walk.add(v);
        }
    }
    Some(best)
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::clique::families;

    #[test]
    fn it_finds_cliques_and_repeats_itself_for_a_seed() {
        let g = families::hamming(6, 2).unwrap();
        for delay in [1, 2] {
            let found = search(&g, 1_000_000, 7, delay, usize::MAX).unwrap();
            let clique: Vec<usize> = found.clique.iter().map(|&v| v as usize).collect();
            assert!(g.is_clique(&clique));
            assert_eq!(clique.len(), 32, "hamming6-2's clique number");
            assert_eq!(search(&g, 1_000_000, 7, delay, usize::MAX), Some(found));
        }
        let g = families::random(120, 0.7, 5).unwrap();
        let found = search(&g, 2_000_000, 1, 2, 12).unwrap();
        let clique: Vec<usize> = found.clique.iter().map(|&v| v as usize).collect();
        assert!(g.is_clique(&clique) && clique.len() >= 12);
        assert_eq!(search(&Graph::new(0), 10, 1, 1, 1), None);
    }
}
