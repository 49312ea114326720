//! A worker's own copy of the search structure (part of its state), at
//! the node it stands on, and the moves between nodes: one option down
//! ([`Cursor::push`]) or up ([`Cursor::pop`]), or to a node named by its
//! path ([`Cursor::goto`]: it undoes the options the two paths do not
//! share and applies the new ones, so a task near the last one walked
//! costs a few moves).

use super::bits::{Bits, Table};
use super::links::{Below, Links};
use std::sync::Arc;

/// Which structure searches an instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// Bitsets over options where they fit ([`super::bits::MAX_OPTIONS`]),
    /// dancing links otherwise.
    Auto,
    /// Dancing links with colours.
    Links,
    /// Bitsets over options.
    Bits,
}

impl Engine {
    /// Every engine, by the name [`FromStr`](std::str::FromStr) reads.
    pub const NAMES: [(&'static str, Engine); 3] = [
        ("auto", Engine::Auto),
        ("links", Engine::Links),
        ("bits", Engine::Bits),
    ];
}

impl std::str::FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Engine::NAMES
            .iter()
            .find(|(name, _)| *name == s)
            .map(|&(_, e)| e)
            .ok_or_else(|| format!("unknown engine '{s}' (auto, links or bits)"))
    }
}

/// The structure with nothing chosen, from which each worker makes its own.
#[derive(Debug)]
pub enum Template {
    /// Dancing links.
    Links(Links),
    /// Bitsets over the options, and how many options.
    Bits(Arc<Table>, usize),
}

enum State {
    Links(Links, Vec<(u32, u32)>),
    Bits(Bits),
}

/// The structure at the node `applied` names.
pub struct Cursor {
    state: State,
    applied: Vec<u32>,
}

impl Cursor {
    /// A structure with nothing chosen.
    pub fn new(template: &Template) -> Cursor {
        Cursor {
            state: match template {
                Template::Links(l) => State::Links(l.clone(), Vec::new()),
                Template::Bits(t, options) => State::Bits(Bits::new(t.clone(), *options)),
            },
            applied: Vec::new(),
        }
    }

    /// Moves the structure to the node `path` names.
    pub fn goto(&mut self, path: &[u32]) {
        let shared = self
            .applied
            .iter()
            .zip(path)
            .take_while(|(a, b)| a == b)
            .count();
        while self.applied.len() > shared {
            let k = self.applied.pop().expect("longer than shared");
            match &mut self.state {
                State::Links(l, _) => l.undo(k),
                State::Bits(b) => b.undo(),
            }
        }
        for &k in &path[shared..] {
            match &mut self.state {
                State::Links(l, _) => l.apply(k),
                State::Bits(b) => b.apply(k),
            }
            self.applied.push(k);
        }
    }

    /// Chooses option `k`, one of [`Cursor::branches`]: one level down.
    #[inline]
    pub fn push(&mut self, k: u32) {
        match &mut self.state {
            State::Links(l, _) => l.apply(k),
            State::Bits(b) => b.apply(k),
        }
        self.applied.push(k);
    }

    /// Takes back the last option chosen: one level up.
    #[inline]
    pub fn pop(&mut self) {
        let k = self.applied.pop().expect("an option to take back");
        match &mut self.state {
            State::Links(l, _) => l.undo(k),
            State::Bits(b) => b.undo(),
        }
    }

    /// The options chosen, root first.
    pub fn path(&self) -> &[u32] {
        &self.applied
    }

    /// The options to try at the current node, in order.
    pub fn branches(&self, out: &mut Vec<u32>) {
        match &self.state {
            State::Links(l, _) => l.branches(out),
            State::Bits(b) => b.branches(out),
        }
    }

    /// Counts everything below the current node, in place.
    pub fn count_below(&mut self) -> Below {
        match &mut self.state {
            State::Links(l, stack) => l.count_below(stack),
            State::Bits(b) => b.count_below(),
        }
    }
}
