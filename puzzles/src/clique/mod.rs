//! Maximum clique by colouring branch and bound, from DIMACS files.
//!
//! The search is Tomita's MCS and San Segundo's BBMC on the engine's
//! optimise mode: vertices renumbered in a degeneracy order (the dense core
//! first), or class by class where a colouring is met by a clique or
//! where the estimated tree is far smaller so (`order.rs`,
//! `estimate.rs`), candidate sets as bitsets, and a greedy colouring of each
//! node's candidates as the bound of its moves, which come highest colour
//! first; the listing, told the incumbent (`Optimise::moves_above`), ends
//! before the colours that cannot beat it, and MaxSAT reasoning on the
//! colour classes cuts moves of the lowest colour that can (`maxsat.rs`).
//! The root's listing ends, besides, below the colours that cannot beat
//! the clique the numbering's local search met (`order.rs`), as the
//! root is listed before the ramp-up gives an incumbent.
//! The incumbent is shared by every worker and rank (see the engine's
//! README).
//!
//! In count and all modes the same tree counts (or lists) every nonempty
//! clique once.
//!
//! ```
//! use hysolve::advanced::optimum;
//! use hysolve_puzzles::clique::{Clique, families};
//!
//! let graph = families::hamming(6, 2).unwrap();
//! let clique = Clique::new(&graph, "hamming6-2");
//! let (_, best) = optimum(&clique, None);
//! let (size, text) = best.unwrap();
//! assert_eq!(size, 32);
//! let vertices: Vec<usize> = text.split(' ').map(|v| v.parse::<usize>().unwrap() - 1).collect();
//! assert!(graph.is_clique(&vertices));
//! ```

/// `$f::<W>(args)` for a graph of `$words` words, `W` that width compiled
/// in for every width of 1 to 32 words (2,048 vertices), or `$wide` for a
/// wider graph: the colouring and the MaxSAT propagation both dispatch
/// so, over the one list of widths here.
macro_rules! by_width {
    ($words:expr, $f:ident $args:tt, $wide:expr) => {
        by_width!(@ $words, $f $args, $wide;
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
            17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)
    };
    (@ $words:expr, $f:ident $args:tt, $wide:expr; $($w:literal)*) => {
        match $words {
            $($w => $f::<$w> $args,)*
            _ => $wide,
        }
    };
}

pub mod binary;
mod colour;
pub mod dimacs;
pub mod estimate;
pub mod families;
pub mod graph;
pub mod local;
mod maxsat;
mod order;
mod recolour;
mod search;
mod second;
mod tabucol;

pub use graph::Graph;
pub use search::{Node, State};

/// A maximum clique instance: the graph, renumbered for the search.
pub struct Clique {
    /// The graph with vertex `i` standing for `original[i]`.
    graph: Graph,
    original: Vec<usize>,
    name: String,
    /// Optimisation: the highest colour classes re-coloured at each node
    /// (`recolour.rs`; 0, the default: none).
    recolour: u32,
    /// Optimisation: the moves of the lowest colour that can reach the
    /// incumbent are cut by MaxSAT reasoning (`maxsat.rs`; on by default).
    maxsat: bool,
    /// A clique the numbering's local search met (`order.rs`), as a set in
    /// the search's numbering, and its size: the root's listing ends
    /// below it (`search.rs`, `moves_above`).
    known: Vec<u64>,
    known_size: u32,
}

impl Clique {
    /// The instance of `graph`, named `name` in reports (a file name).
    pub fn new(graph: &Graph, name: impl Into<String>) -> Clique {
        let name = name.into();
        match order::numbering(graph) {
            order::Numbering::One(original, clique) => {
                Clique::numbered(graph, original, &clique, name)
            }
            order::Numbering::Either {
                degeneracy,
                colour,
                colours,
            } => order::by_estimate(degeneracy, colour, colours, |(original, clique)| {
                Clique::numbered(graph, original.clone(), clique, name.clone())
            }),
        }
    }

    /// The instance of `graph` numbered by `original` (the search's
    /// vertex `i` is `graph`'s `original[i]`), `clique` a clique in that
    /// numbering.
    fn numbered(graph: &Graph, original: Vec<usize>, clique: &[usize], name: String) -> Clique {
        let graph = graph.renumbered(&original);
        debug_assert!(graph.is_clique(clique));
        let mut known = vec![0u64; graph.words()];
        for &v in clique {
            known[v / 64] |= 1 << (v % 64);
        }
        Clique {
            graph,
            original,
            name,
            recolour: 0,
            maxsat: true,
            known,
            known_size: clique.len() as u32,
        }
    }

    /// The same instance, re-colouring the `top` highest colour classes of
    /// each node in optimise mode (`recolour.rs`; 0: none). Fewer nodes,
    /// more time on every shared graph measured (`README.md`), so off
    /// unless asked for.
    pub fn recolouring(mut self, top: u32) -> Clique {
        self.recolour = top;
        self
    }

    /// The same instance with (the default) or without the MaxSAT cut of
    /// the moves of the lowest colour that can reach the incumbent
    /// (`maxsat.rs`): fewer nodes and less time on every shared graph but
    /// the MANN ones, whose colourings hold over a hundred classes
    /// (`README.md`). The look ahead (each move's child coloured before
    /// it is taken, `search.rs`) goes with it.
    pub fn maxsat(mut self, on: bool) -> Clique {
        self.maxsat = on;
        self
    }

    /// Vertices of the graph.
    pub fn vertices(&self) -> usize {
        self.graph.len()
    }

    /// Writes `clique` (vertices in the search's numbering) as the file
    /// numbers them, from 1, in increasing order.
    fn render_clique(&self, clique: &[u32], out: &mut String) {
        let mut vertices: Vec<usize> = clique
            .iter()
            .map(|&v| self.original[v as usize] + 1)
            .collect();
        vertices.sort_unstable();
        for (k, v) in vertices.iter().enumerate() {
            if k > 0 {
                out.push(' ');
            }
            out.push_str(&v.to_string());
        }
    }
}

/// The vertices of a clique as the search writes it (one line of vertex
/// numbers counted from 1), counted from 0; `None` for a line that is not
/// such a list.
pub fn parse_solution(text: &str) -> Option<Vec<usize>> {
    text.split_whitespace()
        .map(|w| w.parse::<usize>().ok().filter(|&v| v >= 1).map(|v| v - 1))
        .collect()
}
