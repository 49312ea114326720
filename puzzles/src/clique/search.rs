//! The tree of colouring branch and bound, walked in place: a node is a
//! clique and the candidates that can still join it; its moves are the
//! candidates, in the reverse of their greedy colouring (the highest
//! colour first), each bounded by the clique's size plus its colour.
//!
//! A move to the candidate at index `i` of the colouring takes as the
//! child's candidates its neighbours among the candidates before it
//! (`order[..i]`): the candidates after it were tried by its earlier
//! siblings, so every clique lies under exactly one path.

use super::colour::{colour_classes, colour_classes_fixed};
use super::maxsat::{Scratch, classes_as_sets, cuts_move};
use super::recolour::recolour;
use super::second::{Lives, Second};
use super::{Clique, local};
use hysolve::{Mode, Optimise, Problem};

/// How far above the colours that cannot reach the floor MaxSAT reasoning
/// tests a move: a move of colour `low + j` needs `j` disjoint
/// inconsistent sets of classes to be cut. 2 since failed literals and
/// propagation under a mask (`maxsat.rs`): a third fewer nodes of
/// brock400_4 in the same time, p_hat1500-1 under half of MCSa1's
/// colourings, gen400_p0.9_75 a third faster, the graphs of a tenth of a
/// second up to a fifth slower (`README.md`, "Failed literals"). 3 was
/// measured again beside the look ahead's build: a tenth fewer nodes,
/// brock400_4 1.17 and p_hat1500-1 1.28 times the time.
pub(super) const MAXSAT_REACH: u32 = 2;

/// How far above the floor a grandchild's colouring may reach and still
/// be filtered by MaxSAT reasoning on each of its own moves (the look
/// ahead's second level, `second.rs`): 1, so that the moves tested are
/// those the grandchild's own MaxSAT cut tests at its visit
/// (`MAXSAT_REACH`), and a grandchild that survives is given their
/// results. 2 and every colour cut a few more nodes (keller4 1,012 to 982
/// and 980, brock400_4 1,730,011 to 1,438,107 and 1,385,919, measured
/// with the filter one level up) at 1.1 to 1.4 times the time
/// (`README.md`, "The filter").
pub(super) const FILTER_REACH: u32 = 1;

/// A subtree as a task carries it: a clique and its candidates, in the
/// search's numbering.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    clique: Vec<u32>,
    candidates: Vec<u64>,
}

/// A worker's state: the clique it stands on, and for each of its sizes
/// on the way down the candidates and their colouring.
pub struct State {
    /// Solutions are counted (count and all modes: every nonempty clique).
    counts: bool,
    clique: Vec<u32>,
    /// The candidates of the clique of size `d` at `sets[d * words..]`.
    sets: Vec<u64>,
    /// Their colouring at `order[d * n..]` and `colours[d * n..]`.
    order: Vec<u32>,
    colours: Vec<u32>,
    /// How many candidates each colouring holds.
    lens: Vec<u32>,
    /// Scratch sets of the colouring.
    left: Vec<u64>,
    class: Vec<u64>,
    /// Optimisation: how many of the highest colour classes are
    /// re-coloured (0: none), and the re-colouring's scratch classes.
    recolour: u32,
    classes: Vec<u64>,
    /// Optimisation: the MaxSAT bound (`maxsat.rs`) on, and its scratch.
    maxsat: bool,
    /// Where the listing of the clique of size `d` ends: the candidates
    /// before `stops[d]` in its colouring cannot reach the floor.
    stops: Vec<u32>,
    sat_classes: Vec<u64>,
    sat: Scratch,
    ahead: Vec<Ahead>,
    taken: Vec<u32>,
    before: Vec<u64>,
    child: Vec<u64>,
    child_order: Vec<u32>,
    child_colours: Vec<u32>,
    /// The look ahead's second level's scratch (`second.rs`).
    second: Second,
}

/// The colourings of a node's children that survived the look ahead
/// (`moves_above`), kept for their visits, with the moves of theirs that
/// the second level cut (`second.rs`).
#[derive(Default)]
struct Ahead {
    /// For each move of the listing, its child's colouring and cuts
    /// (`Kept::NONE`: none).
    at: Vec<Kept>,
    order: Vec<u32>,
    colours: Vec<u32>,
    /// The indices, in their child's colouring, of the moves the second
    /// level cut.
    cuts: Vec<u32>,
    /// The colourings of the grandchildren that survived the second level
    /// (one a child at most), and the filter's cuts of their moves.
    grand_order: Vec<u32>,
    grand_colours: Vec<u32>,
    grand_cuts: Vec<u32>,
    /// The floor the look ahead ran under: a child visited under the same
    /// floor takes its cuts instead of testing its moves again.
    floor: u64,
}

/// Where a child's colouring lies in `Ahead::order` and `colours`, and
/// its cuts in `Ahead::cuts`.
#[derive(Clone, Copy)]
struct Kept {
    start: u32,
    len: u32,
    cuts: u32,
    /// How many cuts; `u32::MAX`: the second level did not test its moves.
    cut: u32,
    /// The moves from this index up were tested (the second level stops
    /// at the first move that survives, from the top); the child's visit
    /// tests those below it.
    from: u32,
    /// The grandchild that survived the second level.
    grand: Grand,
}

/// The colouring of a grandchild that survived the second level (at
/// `Ahead::grand_order` and `grand_colours`), the index in its child's
/// colouring of the move to it, and the filter's cuts of its moves (at
/// `Ahead::grand_cuts`).
#[derive(Clone, Copy)]
struct Grand {
    /// `u32::MAX`: none.
    at: u32,
    start: u32,
    len: u32,
    cuts: u32,
    /// How many cuts; `u32::MAX`: the filter did not test its moves.
    cut: u32,
}

impl Kept {
    const NONE: Kept = Kept {
        start: u32::MAX,
        len: 0,
        cuts: 0,
        cut: u32::MAX,
        from: 0,
        grand: Grand {
            at: u32::MAX,
            start: 0,
            len: 0,
            cuts: 0,
            cut: u32::MAX,
        },
    };
}

impl State {
    /// Room for the sets and colourings of cliques up to size `d`.
    #[inline]
    fn reserve(&mut self, d: usize, n: usize, words: usize) {
        if self.sets.len() < (d + 1) * words {
            self.sets.resize((d + 1) * words, 0);
            self.order.resize((d + 1) * n.max(1), 0);
            self.colours.resize((d + 1) * n.max(1), 0);
            self.lens.resize(d + 1, 0);
            self.stops.resize(d + 1, 0);
            self.ahead.resize_with(d + 1, Ahead::default);
            self.taken.resize(d + 1, 0);
        }
    }
}

impl Problem for Clique {
    type Node = Node;
    type State = State;
    /// The index of a candidate in the node's colouring.
    type Move = u32;
    /// How many of the colouring's candidates are left to list (from the
    /// back).
    type Cursor = u32;

    const ENCODES: bool = true;

    fn encode(&self, node: &Node, out: &mut Vec<u8>) {
        out.extend_from_slice(&(node.clique.len() as u32).to_le_bytes());
        for v in &node.clique {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for w in &node.candidates {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }

    fn decode(&self, bytes: &[u8]) -> Option<Node> {
        let k = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?) as usize;
        let words = self.graph.words();
        if k > self.graph.len() || bytes.len() != 4 + 4 * k + 8 * words {
            return None;
        }
        let clique: Vec<u32> = bytes[4..4 + 4 * k]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect();
        let candidates: Vec<u64> = bytes[4 + 4 * k..]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        let n = self.graph.len();
        let beyond = !n.is_multiple_of(64) && candidates[words - 1] >> (n % 64) != 0;
        (clique.iter().all(|&v| (v as usize) < n) && !beyond).then_some(Node { clique, candidates })
    }

    fn name(&self) -> &'static str {
        "clique"
    }

    fn instance(&self) -> String {
        self.name.clone()
    }

    fn root(&self) -> Node {
        let n = self.graph.len();
        let mut candidates = vec![0u64; self.graph.words()];
        for v in 0..n {
            candidates[v / 64] |= 1 << (v % 64);
        }
        Node {
            clique: Vec::new(),
            candidates,
        }
    }

    fn state(&self, mode: Mode) -> State {
        let words = self.graph.words();
        let mut s = State {
            counts: matches!(mode, Mode::Count | Mode::All),
            clique: Vec::new(),
            sets: Vec::new(),
            order: Vec::new(),
            colours: Vec::new(),
            lens: Vec::new(),
            left: vec![0; words],
            class: vec![0; words],
            recolour: if mode == Mode::Optimise {
                self.recolour
            } else {
                0
            },
            classes: Vec::new(),
            maxsat: mode == Mode::Optimise && self.maxsat,
            stops: Vec::new(),
            sat_classes: Vec::new(),
            sat: Scratch::default(),
            ahead: Vec::new(),
            taken: Vec::new(),
            before: Vec::new(),
            child: Vec::new(),
            child_order: vec![0; self.graph.len()],
            child_colours: vec![0; self.graph.len()],
            second: Second::new(self.graph.len(), words),
        };
        s.reserve(0, self.graph.len(), words);
        s
    }

    fn load(&self, s: &mut State, node: &Node) {
        let (n, words) = (self.graph.len(), self.graph.words());
        s.clique.clear();
        s.clique.extend_from_slice(&node.clique);
        let d = s.clique.len();
        s.reserve(d, n, words);
        s.sets[d * words..(d + 1) * words].copy_from_slice(&node.candidates);
        s.ahead.iter_mut().for_each(|a| a.at.clear());
    }

    fn save(&self, s: &State) -> Node {
        let words = self.graph.words();
        let d = s.clique.len();
        Node {
            clique: s.clique.clone(),
            candidates: s.sets[d * words..(d + 1) * words].to_vec(),
        }
    }

    #[inline]
    fn moves(&self, s: &mut State) -> u32 {
        let (n, words) = (self.graph.len(), self.graph.words());
        let d = s.clique.len();
        s.ahead[d].at.clear();
        if d > 0 {
            let a = &s.ahead[d - 1];
            if let Some(&Kept { start, len: k, .. }) = a.at.get(s.taken[d - 1] as usize)
                && start != u32::MAX
            {
                let (start, k) = (start as usize, k as usize);
                s.order[d * n..d * n + k].copy_from_slice(&a.order[start..start + k]);
                s.colours[d * n..d * n + k].copy_from_slice(&a.colours[start..start + k]);
                s.lens[d] = k as u32;
                s.stops[d] = 0;
                return k as u32;
            }
        }
        let graph = &self.graph;
        let set = &s.sets[d * words..(d + 1) * words];
        let row = |v| graph.row(v);
        let (order, colours) = (
            &mut s.order[d * n..(d + 1) * n],
            &mut s.colours[d * n..(d + 1) * n],
        );
        // Graphs of up to 2,048 vertices (keller5's 776 and p_hat1500-1's
        // 1,500 among them) get a colouring compiled for their width:
        // p_hat1500-1 (24 words) took 0.873 s with it, 1.096 s without
        // (`README.md`).
        let len = by_width!(
            words,
            colour_classes_fixed(set, row, order, colours),
            colour_classes(set, row, &mut s.left, &mut s.class, order, colours)
        ) as u32;
        if s.recolour > 0 {
            recolour(
                graph,
                s.recolour,
                order,
                colours,
                len as usize,
                &mut s.classes,
            );
        }
        s.lens[d] = len;
        s.stops[d] = 0;
        len
    }

    #[inline]
    fn next_move(&self, s: &State, left: &mut u32) -> Option<u32> {
        (*left > s.stops[s.clique.len()]).then(|| {
            *left -= 1;
            *left
        })
    }

    #[inline]
    fn apply(&self, s: &mut State, &i: &u32) {
        let (n, words) = (self.graph.len(), self.graph.words());
        let d = s.clique.len();
        s.reserve(d + 1, n, words);
        let at = d * n;
        let v = s.order[at + i as usize] as usize;
        s.taken[d] = i;
        let (here, below) = s.sets.split_at_mut((d + 1) * words);
        let child = &mut below[..words];
        for ((c, p), r) in child
            .iter_mut()
            .zip(&here[d * words..])
            .zip(self.graph.row(v))
        {
            *c = p & r;
        }
        // The candidates its earlier siblings took (after it in the
        // colouring) are not its.
        for &u in &s.order[at + i as usize + 1..at + s.lens[d] as usize] {
            child[u as usize / 64] &= !(1 << (u % 64));
        }
        s.clique.push(v as u32);
    }

    #[inline]
    fn undo(&self, s: &mut State, _: &u32) {
        s.clique.pop();
    }

    #[inline]
    fn solution_weight(&self, s: &State) -> u64 {
        u64::from(s.counts && !s.clique.is_empty())
    }

    fn render(&self, s: &State, out: &mut String) {
        self.render_clique(&s.clique, out);
    }
}

/// The clique number: a clique's size is its objective, bounded by the
/// colouring.
impl Optimise for Clique {
    /// Bounds fall along the colouring, but the MaxSAT cut lowers some
    /// moves' bounds below their next siblings' (`moves_above`).
    const BOUNDS_FALL: bool = false;

    /// [`Problem::moves`], ended before the candidates whose colour cannot
    /// reach `floor`. A candidate of the lowest colour that can is given
    /// a colour that cannot (its move is not taken) when MaxSAT reasoning
    /// shows that its neighbours cannot fill the classes below it
    /// (`maxsat.rs`). Then the look ahead and its second level cut the
    /// moves whose children, or every move of whose children, cannot
    /// reach it (`second.rs`).
    #[inline]
    fn moves_above(&self, s: &mut State, floor: u64) -> u32 {
        let len = self.moves(s);
        s.reserve(s.clique.len() + 1, self.graph.len(), self.graph.words());
        if s.recolour > 0 {
            return len;
        }
        let (n, words) = (self.graph.len(), self.graph.words());
        let d = s.clique.len();
        let colours = &mut s.colours[d * n..d * n + len as usize];
        let order = &s.order[d * n..d * n + len as usize];
        // The colours that cannot reach the floor: d + c < floor.
        let low = floor.saturating_sub(d as u64 + 1).min(u64::from(u32::MAX)) as u32;
        let stop = colours.partition_point(|&c| c <= low.max(self.known_end(order, colours, d)));
        s.stops[d] = stop as u32;
        if !s.maxsat || stop == len as usize {
            return len;
        }
        // The cuts the second level found for this node's moves at its
        // parent under the same floor, and from which move up it tested
        // them (`Kept::from`): the moves below are tested here.
        let kept = (d > 0)
            .then(|| {
                let a = &s.ahead[d - 1];
                a.at.get(s.taken[d - 1] as usize)
                    .filter(|k| k.cut != u32::MAX && a.floor == floor)
                    .map(|k| {
                        let cuts = &a.cuts[k.cuts as usize..(k.cuts + k.cut) as usize];
                        (cuts, k.from as usize)
                    })
            })
            .flatten();
        let tested = kept.map_or(len as usize, |(_, from)| from.min(len as usize));
        if stop < tested && colours[stop] <= low.saturating_add(MAXSAT_REACH) {
            // The classes below the highest tested, as sets.
            let top = (low.saturating_add(MAXSAT_REACH)).min(colours[len as usize - 1]) as usize;
            let classes = &mut s.sat_classes;
            classes_as_sets(classes, order, colours, top, words);
            for i in stop..tested {
                let c = colours[i];
                if c > low.saturating_add(MAXSAT_REACH) {
                    break;
                }
                // The candidates of its move: its neighbours among the
                // classes below its own (those of its own class are not).
                let row = |v| self.graph.row(v);
                if cuts_move(
                    classes,
                    words,
                    c,
                    low,
                    row(order[i] as usize),
                    row,
                    &mut s.sat,
                ) {
                    colours[i] = low;
                }
            }
        }
        // After the tests: the classes above were made of the colours
        // before any cut.
        if let Some((cuts, _)) = kept {
            for &j in cuts {
                colours[j as usize] = low;
            }
        }
        // The look ahead (CliSAT's filtering phase): each move left is
        // tried before the walk takes it, by colouring its child's
        // candidates; a child that cannot reach the floor is cut here, not
        // visited, and a child that can keeps its colouring for its visit
        // (`moves`), so no colouring is made twice. Then its second level
        // (`second.rs`): the child's visit made here, its moves tested
        // from the top until one survives; a child none of whose moves
        // survives is cut too. Graphs of up to 2,048 vertices (the widths
        // compiled in).
        if low >= 1 && words <= 32 && colours[stop..].iter().any(|&c| c > low) {
            // This node's look ahead, and its parent's, whose second level
            // kept a grandchild for one of this node's moves: the move's
            // index, the grandchild's colouring, and its filter's cuts
            // where they hold under this floor.
            let (up, here) = s.ahead.split_at_mut(d);
            let ahead = &mut here[0];
            let given = up.last().and_then(|a| {
                let g = a.at.get(s.taken[d - 1] as usize)?.grand;
                (g.at != u32::MAX).then(|| {
                    let (start, end) = (g.start as usize, (g.start + g.len) as usize);
                    let cuts = (g.cut != u32::MAX && a.floor == floor)
                        .then(|| &a.grand_cuts[g.cuts as usize..(g.cuts + g.cut) as usize]);
                    let colouring = (&a.grand_order[start..end], &a.grand_colours[start..end]);
                    (g.at as usize, colouring, cuts)
                })
            });
            // The candidates before each move, grown as the moves go up.
            let before = &mut s.before;
            before.clear();
            before.resize(words, 0);
            for &v in &order[..stop] {
                before[v as usize / 64] |= 1 << (v % 64);
            }
            let child = &mut s.child;
            child.resize(words, 0);
            ahead.at.clear();
            ahead.at.resize(len as usize, Kept::NONE);
            ahead.order.clear();
            ahead.colours.clear();
            ahead.cuts.clear();
            ahead.grand_order.clear();
            ahead.grand_colours.clear();
            ahead.grand_cuts.clear();
            ahead.floor = floor;
            for i in stop..len as usize {
                let (v, c) = (order[i] as usize, colours[i]);
                if c > low {
                    for ((x, b), r) in child.iter_mut().zip(before.iter()).zip(self.graph.row(v)) {
                        *x = b & r;
                    }
                    let given_here = given.filter(|&(at, _, _)| at == i);
                    let k = if let Some((_, (order, colours), _)) = given_here {
                        let k = order.len();
                        s.child_order[..k].copy_from_slice(order);
                        s.child_colours[..k].copy_from_slice(colours);
                        k
                    } else {
                        let row = |u| self.graph.row(u);
                        by_width!(
                            words,
                            colour_classes_fixed(
                                child,
                                row,
                                &mut s.child_order,
                                &mut s.child_colours
                            ),
                            0
                        )
                    };
                    let top = if k == 0 { 0 } else { s.child_colours[k - 1] };
                    let mut kept = Kept {
                        start: ahead.order.len() as u32,
                        len: k as u32,
                        cuts: ahead.cuts.len() as u32,
                        ..Kept::NONE
                    };
                    let mut dead = top < low;
                    if !dead && low >= 2 {
                        let known = given_here.and_then(|(_, _, cuts)| cuts);
                        match self.second_level(
                            &mut s.second,
                            &mut s.sat,
                            &mut s.sat_classes,
                            child,
                            &s.child_order[..k],
                            &s.child_colours[..k],
                            low,
                            known,
                        ) {
                            None => dead = true,
                            Some(Lives { at, tested, from }) => {
                                let second = &s.second;
                                kept.cut = second.cuts.len() as u32;
                                kept.from = from as u32;
                                ahead.cuts.extend_from_slice(&second.cuts);
                                kept.grand = Grand {
                                    at: at as u32,
                                    start: ahead.grand_order.len() as u32,
                                    len: second.len as u32,
                                    cuts: ahead.grand_cuts.len() as u32,
                                    cut: if tested {
                                        second.grand_cuts.len() as u32
                                    } else {
                                        u32::MAX
                                    },
                                };
                                ahead
                                    .grand_order
                                    .extend_from_slice(&second.order[..second.len]);
                                ahead
                                    .grand_colours
                                    .extend_from_slice(&second.colours[..second.len]);
                                if tested {
                                    ahead.grand_cuts.extend_from_slice(&second.grand_cuts);
                                }
                            }
                        }
                    }
                    if dead {
                        colours[i] = low;
                    } else {
                        ahead.at[i] = kept;
                        ahead.order.extend_from_slice(&s.child_order[..k]);
                        ahead.colours.extend_from_slice(&s.child_colours[..k]);
                    }
                }
                before[v / 64] |= 1 << (v % 64);
            }
        }
        len
    }

    #[inline]
    fn bound(&self, s: &State, &i: &u32) -> u64 {
        let d = s.clique.len();
        (d + s.colours[d * self.graph.len() + i as usize] as usize) as u64
    }

    /// A clique with no candidate left: a maximum clique is one (a
    /// candidate would make a larger clique), and reporting only these
    /// spares the incumbent an improvement at every step of a dive.
    #[inline]
    fn objective(&self, s: &State) -> Option<u64> {
        let (d, words) = (s.clique.len(), self.graph.words());
        s.sets[d * words..(d + 1) * words]
            .iter()
            .all(|&w| w == 0)
            .then_some(d as u64)
    }

    /// Pullan and Hoos's dynamic local search (`local.rs`): odd seeds
    /// restart each climb from a random vertex, even ones keep penalties
    /// (a delay of 2), as the two suit different graphs.
    fn heuristic(&self, effort: u64, seed: u64) -> Option<(u64, String)> {
        let delay = if seed % 2 == 1 { 1 } else { 2 };
        let found = local::search(&self.graph, effort, seed, delay, usize::MAX)?;
        let mut text = String::new();
        self.render_clique(&found.clique, &mut text);
        Some((found.clique.len() as u64, text))
    }
}

impl Clique {
    /// The colours the root's listing ends below: those up to the known
    /// clique's size (`order.rs`), as CliSAT's first level starts past
    /// the clique its heuristic found before the search; 0 elsewhere.
    /// The root is listed before the ramp-up's incumbent is known (the
    /// master's expansion), so its floor is 0 there, and every child
    /// whose colour cannot beat the known clique would be visited.
    ///
    /// Exact: a cut child holds no clique larger than the known one, and
    /// the known clique's own child (that of its last vertex in the
    /// colouring, whose candidates hold the rest of it) is kept, its
    /// colour above the known size (or the cut is not made), so the
    /// search meets a clique as large unless the incumbent already is.
    fn known_end(&self, order: &[u32], colours: &[u32], d: usize) -> u32 {
        let q = self.known_size;
        if d > 0 || q == 0 {
            return 0;
        }
        let known = |v: u32| self.known[v as usize / 64] >> (v % 64) & 1 == 1;
        match order.iter().rposition(|&v| known(v)) {
            Some(last) if colours[last] > q => q,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod test {
    use crate::clique::{Clique, Graph, families, parse_solution};
    use hysolve::advanced::optimum;
    use hysolve::{Mode, Optimise, Problem};

    /// The look ahead (with the MaxSAT cut and the second level, whose
    /// cuts, and the grandchild it kept, a child visited under its
    /// parent's floor takes over) finds the clique number the plain
    /// colouring finds, and a clique of that size; the dense graphs are
    /// those whose children the second level tests most.
    #[test]
    fn the_look_ahead_keeps_the_optimum() {
        for (n, p, seed) in [
            (60, 0.5, 1),
            (80, 0.7, 2),
            (90, 0.85, 3),
            (130, 0.6, 4),
            (100, 0.9, 5),
            (120, 0.8, 6),
            (150, 0.75, 7),
        ] {
            let g = families::random(n, p, seed).unwrap();
            let (_, plain) = optimum(&Clique::new(&g, "g").maxsat(false), None);
            let (_, best) = optimum(&Clique::new(&g, "g"), None);
            let (size, text) = best.unwrap();
            assert_eq!(Some(size), plain.map(|(s, _)| s), "n {n}, edges {p}");
            let vertices = parse_solution(&text).unwrap();
            assert_eq!(vertices.len() as u64, size);
            assert!(g.is_clique(&vertices));
        }
    }

    /// The root's listing ends below the clique the numbering's local
    /// search met (`known_end`), told no incumbent (as the master's
    /// expansion lists it) on some graphs; searched alone, with no
    /// incumbent, the optimum is that of the same search without it
    /// (`known_size` 0), so the known clique's own child, kept, gives a
    /// clique as large, and no more nodes are walked.
    ///
    /// A complete multipartite graph's colouring is met by its clique,
    /// so no child's colour is above the clique's size and the root's
    /// listing keeps every child (cut at the known size, it would list
    /// none).
    #[test]
    fn the_root_ends_below_the_known_clique() {
        let (parts, size) = (7, 5);
        let mut multipartite = Graph::new(parts * size);
        for u in 0..parts * size {
            for v in u + 1..parts * size {
                if u % parts != v % parts {
                    multipartite.add_edge(u, v);
                }
            }
        }
        let mut graphs = vec![multipartite];
        for (n, p, seed) in [
            (60, 0.5, 1),
            (80, 0.7, 2),
            (90, 0.85, 3),
            (130, 0.6, 4),
            (100, 0.9, 5),
            (120, 0.8, 6),
            (150, 0.3, 7),
            (200, 0.1, 8),
        ] {
            graphs.push(families::random(n, p, seed).unwrap());
        }
        let mut ended = 0;
        for g in graphs {
            let (n, p) = (g.len(), g.edges());
            let with = Clique::new(&g, "g");
            assert!(with.known_size > 0);
            let mut without = Clique::new(&g, "g");
            without.known_size = 0;
            let (cut, best) = optimum(&with, None);
            let (all, plain) = optimum(&without, None);
            let (size, text) = best.unwrap();
            assert_eq!(Some(size), plain.map(|(s, _)| s), "n {n}, edges {p}");
            let vertices = parse_solution(&text).unwrap();
            assert_eq!(vertices.len() as u64, size);
            assert!(g.is_clique(&vertices));
            assert!(cut.nodes <= all.nodes, "n {n}, edges {p}");
            let mut state = with.state(Mode::Optimise);
            with.load(&mut state, &with.root());
            with.moves_above(&mut state, 0);
            ended += usize::from(state.stops[0] > 0);
        }
        assert!(ended >= 4, "{ended}");
    }
}
