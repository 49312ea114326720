//! Exact cover from a file in Knuth's DLX format ([`format`](mod@format)): choose
//! options so that every primary item is covered exactly once and every
//! secondary item at most once, or, where coloured, only by options that
//! agree on its colour.
//!
//! The search is Knuth's dancing links with colours (`links`), or bitsets
//! over the options where they fit (`bits`): branch on the primary item
//! with fewest options left, cover and uncover in place. Each worker's
//! state is its own copy of the structure ([`cursor`]), moved by the
//! engine from node to node by applying and undoing options; a task
//! carries its path, the options chosen so far, and a worker that takes
//! it moves its structure there once. Below the count cut-off the worker
//! counts in place (`links::Links::count_below`, `bits::Bits::count_below`),
//! on the same tree.

pub mod bits;
pub mod cursor;
pub mod format;
pub(crate) mod links;
pub mod verify;

use cursor::{Cursor, Engine, Template};
use format::Instance;
use hysolve::advanced::Count;
use hysolve::{Mode, Problem};
use links::Links;
use std::sync::Arc;

/// A partial solution: the options chosen, in the order chosen, and how
/// many primary items they cover.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partial {
    /// The options chosen, root first.
    pub path: Vec<u32>,
    /// Primary items covered.
    pub covered: u32,
}

/// An exact-cover instance ready to search.
#[derive(Debug)]
pub struct Xc {
    name: String,
    /// The instance as read.
    pub instance: Instance,
    /// The structure with nothing chosen, from which each worker makes its own.
    template: Template,
    /// Primary items each option covers.
    primaries: Vec<u32>,
    cutoff: usize,
}

/// Nodes at which the count cut-off is deep enough: the tree is expanded
/// breadth-first (at build time) until a level holds this many.
const CUTOFF_WIDTH: usize = 4096;
/// The most nodes that expansion visits before settling for a level.
const CUTOFF_PROBE: usize = 200_000;

impl Xc {
    /// `name`: how reports show the instance (its file name).
    pub fn new(name: String, instance: Instance, engine: Engine) -> Xc {
        let table = match engine {
            Engine::Links => None,
            Engine::Auto | Engine::Bits => bits::Table::new(&instance),
        };
        let template = match table {
            Some(t) => Template::Bits(Arc::new(t), instance.options.len()),
            None => Template::Links(Links::new(&instance)),
        };
        let primaries = instance
            .options
            .iter()
            .map(|o| {
                o.items
                    .iter()
                    .filter(|&&(i, _)| (i as usize) < instance.primary)
                    .count() as u32
            })
            .collect();
        let mut xc = Xc {
            name,
            instance,
            template,
            primaries,
            cutoff: 1,
        };
        xc.cutoff = xc.probe_cutoff();
        xc
    }

    /// The first level of the tree with [`CUTOFF_WIDTH`] nodes, or the
    /// last one reached within [`CUTOFF_PROBE`] visits: above it the engine
    /// walks and splits, below it a worker counts in place. Enough subtrees
    /// for every worker to find work, each mostly counted in place.
    fn probe_cutoff(&self) -> usize {
        let mut state = self.state(Mode::Count);
        let mut level = vec![self.root()];
        let mut next = Vec::new();
        let mut visited = 0;
        let mut depth = 0;
        while level.len() < CUTOFF_WIDTH && visited < CUTOFF_PROBE && !level.is_empty() {
            next.clear();
            for node in &level {
                visited += 1;
                self.load(&mut state, node);
                let mut moves = self.moves(&mut state);
                while let Some(k) = self.next_move(&state, &mut moves) {
                    self.apply(&mut state, &k);
                    next.push(self.save(&state));
                    self.undo(&mut state, &k);
                }
            }
            if next.is_empty() {
                break;
            }
            std::mem::swap(&mut level, &mut next);
            depth += 1;
        }
        depth.max(1)
    }

    /// The structure searching the instance.
    pub fn engine(&self) -> Engine {
        match self.template {
            Template::Links(_) => Engine::Links,
            Template::Bits(..) => Engine::Bits,
        }
    }

    /// The options of the solution a path stands for, in the input's
    /// order and spelling.
    pub fn options_text(&self, path: &[u32]) -> Vec<&str> {
        let mut sorted = path.to_vec();
        sorted.sort_unstable();
        sorted
            .iter()
            .map(|&k| self.instance.options[k as usize].text.as_str())
            .collect()
    }
}

/// A worker's state: its structure at the node it stands on, the
/// primary items covered there, and the options to try at each level.
pub struct Walker {
    cursor: Cursor,
    covered: u32,
    branches: Vec<Vec<u32>>,
}

impl Problem for Xc {
    type Node = Partial;
    type State = Walker;
    /// An option.
    type Move = u32;
    /// The next of the level's branches to try.
    type Cursor = u32;
    const ENCODES: bool = true;

    fn encode(&self, node: &Partial, out: &mut Vec<u8>) {
        for &k in &node.path {
            out.extend_from_slice(&k.to_le_bytes());
        }
    }

    /// A path of options in range whose primary items do not overlap.
    fn decode(&self, bytes: &[u8]) -> Option<Partial> {
        if !bytes.len().is_multiple_of(4) {
            return None;
        }
        let mut used = vec![false; self.instance.primary];
        let mut node = Partial {
            path: Vec::with_capacity(bytes.len() / 4),
            covered: 0,
        };
        for chunk in bytes.chunks_exact(4) {
            let k = u32::from_le_bytes(chunk.try_into().ok()?);
            let opt = self.instance.options.get(k as usize)?;
            for &(i, _) in &opt.items {
                if let Some(u) = used.get_mut(i as usize) {
                    if *u {
                        return None;
                    }
                    *u = true;
                }
            }
            node.path.push(k);
            node.covered += self.primaries[k as usize];
        }
        Some(node)
    }

    fn name(&self) -> &'static str {
        "xc"
    }

    fn instance(&self) -> String {
        self.name.clone()
    }

    fn root(&self) -> Partial {
        Partial {
            path: Vec::new(),
            covered: 0,
        }
    }

    fn state(&self, _: Mode) -> Walker {
        Walker {
            cursor: Cursor::new(&self.template),
            covered: 0,
            branches: Vec::new(),
        }
    }

    fn load(&self, w: &mut Walker, node: &Partial) {
        w.cursor.goto(&node.path);
        w.covered = node.covered;
    }

    fn save(&self, w: &Walker) -> Partial {
        Partial {
            path: w.cursor.path().to_vec(),
            covered: w.covered,
        }
    }

    /// The options covering the item branched on, into the list of this
    /// level.
    #[inline]
    fn moves(&self, w: &mut Walker) -> u32 {
        let d = w.cursor.path().len();
        if w.branches.len() <= d {
            w.branches.resize_with(d + 1, Vec::new);
        }
        w.branches[d].clear();
        w.cursor.branches(&mut w.branches[d]);
        0
    }

    #[inline]
    fn next_move(&self, w: &Walker, next: &mut u32) -> Option<u32> {
        let k = *w.branches[w.cursor.path().len()].get(*next as usize)?;
        *next += 1;
        Some(k)
    }

    #[inline]
    fn apply(&self, w: &mut Walker, &k: &u32) {
        w.cursor.push(k);
        w.covered += self.primaries[k as usize];
    }

    #[inline]
    fn undo(&self, w: &mut Walker, &k: &u32) {
        w.cursor.pop();
        w.covered -= self.primaries[k as usize];
    }

    fn solution_weight(&self, w: &Walker) -> u64 {
        (w.covered as usize == self.instance.primary) as u64
    }

    /// The options of the solution, one per line as the input spells them,
    /// in the input's order.
    fn render(&self, w: &Walker, out: &mut String) {
        out.push_str(&self.options_text(w.cursor.path()).join("\n"));
    }

    fn count_cutoff(&self) -> Option<usize> {
        Some(self.cutoff)
    }

    fn count_subtree(&self, w: &mut Walker) -> Count {
        let weight = self.solution_weight(w);
        let below = w.cursor.count_below();
        Count {
            solutions: weight + below.solutions,
            nodes: 1 + below.nodes,
            depth: Some(below.depth),
        }
    }
}
