//! Each worker thread's own copy of the search structure, at the node it
//! last looked at, and the moves between nodes named by their paths.
//!
//! The engine hands a problem nodes in depth-first order (and, now and
//! then, a stolen one from elsewhere in the tree), so moving the structure
//! from the node before to the next one undoes the options the two paths
//! do not share and applies the new ones: one option down, or a few up and
//! one down, on average a constant number per node visited.

use super::bits::{Bits, Table};
use super::links::{Below, Links};
use std::cell::RefCell;
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
    fn new(template: &Template) -> Cursor {
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

/// A worker's cursor, for the instance `id` names, and scratch space.
struct Slot {
    id: u64,
    cursor: Cursor,
    scratch: Vec<u32>,
}

thread_local! {
    static SLOT: RefCell<Option<Slot>> = const { RefCell::new(None) };
}

/// Runs `f` on this thread's cursor for instance `id`, made from
/// `template` the first time this thread meets the instance.
pub fn with_cursor<R>(
    id: u64,
    template: &Template,
    f: impl FnOnce(&mut Cursor, &mut Vec<u32>) -> R,
) -> R {
    SLOT.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.as_ref().is_none_or(|s| s.id != id) {
            *slot = Some(Slot {
                id,
                cursor: Cursor::new(template),
                scratch: Vec::new(),
            });
        }
        let s = slot.as_mut().expect("just filled");
        f(&mut s.cursor, &mut s.scratch)
    })
}
