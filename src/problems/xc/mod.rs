//! Exact cover from a file in Knuth's DLX format ([`format`](mod@format)): choose
//! options so that every primary item is covered exactly once and every
//! secondary item at most once, or, where coloured, only by options that
//! agree on its colour.
//!
//! The search is Knuth's dancing links with colours (`links`): branch on
//! the primary item with fewest options left, cover and uncover in place.
//! A structure searched in place does not fit the engine's value nodes as
//! it is, so a node is named by its path, the options chosen so far, and
//! every worker thread keeps its own copy of the structure, moved from node
//! to node by undoing and applying options ([`cursor`]). The engine walks,
//! splits and donates paths as it would any node; because it walks depth
//! first, consecutive nodes differ by one option down or a few up, and a
//! stolen path is replayed once. Below the count cut-off the worker counts
//! in place with no path at all (`links::Links::count_below`).

pub mod bits;
pub mod cursor;
pub mod format;
pub(crate) mod links;
pub mod verify;

use crate::engine::{SubtreeCount, Tree};
use cursor::{Engine, Template, with_cursor};
use format::Instance;
use links::Links;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

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
    /// Names the instance in the worker threads' cursors.
    id: u64,
    name: String,
    /// The instance as read.
    pub instance: Instance,
    /// The structure with nothing chosen, from which each worker makes its own.
    template: Template,
    /// Primary items each option covers.
    primaries: Vec<u32>,
    cutoff: usize,
}

/// Tells instances apart in the cursors (a fresh number per instance).
static NEXT_ID: AtomicU64 = AtomicU64::new(0);

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
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
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
        let mut level = vec![self.root()];
        let mut next = Vec::new();
        let mut visited = 0;
        let mut depth = 0;
        while level.len() < CUTOFF_WIDTH && visited < CUTOFF_PROBE && !level.is_empty() {
            next.clear();
            for node in &level {
                visited += 1;
                self.children(node, &mut next);
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

impl Tree for Xc {
    type Node = Partial;
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

    fn children(&self, node: &Partial, out: &mut Vec<Partial>) {
        with_cursor(self.id, &self.template, |cursor, scratch| {
            cursor.goto(&node.path);
            scratch.clear();
            cursor.branches(scratch);
            out.extend(scratch.iter().map(|&k| {
                let mut path = Vec::with_capacity(node.path.len() + 1);
                path.extend_from_slice(&node.path);
                path.push(k);
                Partial {
                    path,
                    covered: node.covered + self.primaries[k as usize],
                }
            }));
        });
    }

    fn solution_weight(&self, node: &Partial) -> u64 {
        (node.covered as usize == self.instance.primary) as u64
    }

    /// The options of the solution, one per line as the input spells them,
    /// in the input's order.
    fn render(&self, node: &Partial, out: &mut String) {
        out.push_str(&self.options_text(&node.path).join("\n"));
    }

    fn count_cutoff(&self) -> Option<usize> {
        Some(self.cutoff)
    }

    fn count_subtree(&self, node: &Partial) -> SubtreeCount {
        with_cursor(self.id, &self.template, |cursor, _| {
            cursor.goto(&node.path);
            let below = cursor.count_below();
            SubtreeCount {
                solutions: self.solution_weight(node) + below.solutions,
                nodes: 1 + below.nodes,
                depth: Some(below.depth),
            }
        })
    }
}
