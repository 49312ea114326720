//! A [`ScratchTree`]'s (a [`Tree`]'s) count below the walk's stack:
//! frames over its children as values ([`Problem::dive`]). The generic
//! frames (`dive.rs`) reach a tree's node through its [`Path`] at every step (the depth and the
//! place kept in memory, two lists deep, bounds checked twice a node);
//! these hold each depth's list of children as a slice of their own and
//! walk it in order, as a plain recursion over the same lists would. They
//! hand off as the generic frames do: the state then stands on the
//! deepest frame's node, and each frame's level is the one the walk would
//! have pushed (`engine/README.md`, "The count's dive").
//!
//! [`Problem::dive`]: crate::engine::Problem::dive
//! [`Tree`]: crate::engine::Tree

use super::cpu::fast_copy;
use super::dive::{Frames, HANDED_OFF};
use crate::engine::problem::{Path, PathCursor, PathMove, ScratchTree};

/// What a dive's frames share: the tree, the dive, the worker's scratch,
/// the depth of the first frame's node and its room, and where the
/// deepest frame stood when it handed off (its node's depth and place),
/// and the solutions its frames have visited (given to the dive's at its
/// end).
struct Values<'a, T: ScratchTree, F> {
    tree: &'a T,
    frames: &'a mut F,
    scratch: &'a mut T::Scratch,
    depth: u32,
    room: usize,
    stand: (u32, u32),
    solutions: u64,
    /// As the dive's ([`Frames::fast`]).
    fast: bool,
}

/// The dive below the node `path` stands on, `m` (its first child) the
/// first move of its listing `moves`, with `room` frames and `left` nodes
/// before a look (as [`Frames::frame`]).
#[inline(always)]
pub(crate) fn dive<T: ScratchTree, F: Frames<T>>(
    tree: &T,
    frames: &mut F,
    path: &mut Path<T::Node, T::Scratch>,
    moves: PathCursor,
    m: PathMove,
    room: usize,
    left: i64,
) -> i64 {
    // The walk dives with a listing just begun (once a dive: a frame
    // walks its list from its start).
    assert_eq!((m.child, moves.next, m.parent), (0, 1, moves.parent));
    // A list for each depth a frame may list (the node's children lie at
    // `depth + 1`, listed by the walk; each frame below lists one more).
    let depth = path.depth;
    let lists = depth as usize + 2 + room;
    if path.lists.len() < lists {
        path.deeper(lists);
    }
    let fast = frames.fast();
    let mut values = Values {
        tree,
        frames,
        fast,
        scratch: &mut path.scratch,
        depth,
        room,
        stand: (depth, moves.parent),
        solutions: 0,
    };
    let below = &mut path.lists[depth as usize + 1..lists];
    let left = values.call(below, moves.parent, left);
    values.frames.solved(values.solutions);
    if left == HANDED_OFF {
        (path.depth, path.here) = values.stand;
    }
    left
}

impl<T: ScratchTree, F: Frames<T>> Values<'_, T, F> {
    /// Walks the children of a node and their subtrees: `lists[0]` holds
    /// the children (the node lies at `parent` in its own depth's list),
    /// `lists[1..]` are the lists of the depths below, one for each frame
    /// that may still be made (the frame's room). Returns as
    /// [`Frames::frame`], whose frame's listing has given its first move;
    /// when it hands off, [`Values::stand`] is where the state must
    /// stand. (The room and the node's depth follow from the lists: five
    /// arguments, and fewer values kept across the call for a child.)
    #[inline(always)]
    fn body(&mut self, lists: &mut [Vec<T::Node>], parent: u32, mut left: i64) -> i64 {
        let room = lists.len() - 1;
        let (children, lists) = lists.split_first_mut().expect("a list per frame");
        let children: &[T::Node] = children;
        let end = children.len() as u32;
        // The look, before the first child is visited (`dive.rs`).
        if !self.frames.enter(room, &mut left) {
            self.hand_off(end, parent, room, left);
            return HANDED_OFF;
        }
        // The child's place follows from the children left (kept by the
        // iterator): one number fewer kept across the call (0.402 s
        // against 0.391 s, `cheap_nodes tree 38`, quick runs, one each,
        // five times).
        let mut rest = children.iter();
        while let Some(node) = rest.next() {
            left -= 1;
            self.solutions += self.tree.solution_weight(node, self.scratch);
            // The child's own children, listed where a frame for it would
            // find them; a leaf makes no frame.
            let below = &mut lists[0];
            below.clear();
            self.tree.children(node, below, self.scratch);
            if !below.is_empty() {
                let child = end - 1 - rest.len() as u32;
                let l = self.call(lists, child, left);
                if l == HANDED_OFF {
                    // This frame's level: its listing has given `child`,
                    // the move taken (its place found again, not kept
                    // across the call).
                    let child = end - 1 - rest.len() as u32;
                    let moves = PathCursor {
                        next: child + 1,
                        end,
                        parent,
                    };
                    let m = PathMove { child, parent };
                    self.frames.push(&moves, u64::from(child + 1), &m);
                    return HANDED_OFF;
                }
                left = l;
            }
        }
        left
    }

    /// A frame (its [`Values::body`] in a call of its own).
    fn frame(&mut self, lists: &mut [Vec<T::Node>], parent: u32, left: i64) -> i64 {
        self.body(lists, parent, left)
    }

    fast_copy! {
        /// [`Values::frame`], compiled for the fast copy's features.
        fn frame_fast => body(lists: &mut [Vec<T::Node>], parent: u32, left: i64) -> i64
    }

    /// A call of a frame: [`Values::frame`], or its fast copy where the
    /// CPU has the features.
    #[inline(always)]
    fn call(&mut self, lists: &mut [Vec<T::Node>], parent: u32, left: i64) -> i64 {
        if super::cpu::WANTED && self.fast {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `fast` is the dive's, `cpu::fast()`: true only where
            // the CPU has every feature the fast copy is compiled with.
            return unsafe { self.frame_fast(lists, parent, left) };
        }
        self.frame(lists, parent, left)
    }

    /// The handoff of a frame whose node lies at `parent` and has `end`
    /// children, before it visits the first.
    #[cold]
    #[inline(never)]
    fn hand_off(&mut self, end: u32, parent: u32, room: usize, left: i64) {
        let moves = PathCursor {
            next: 1,
            end,
            parent,
        };
        let m = PathMove { child: 0, parent };
        self.frames.hand_off(&moves, 1, &m, left);
        self.stand = (self.depth + (self.room - room) as u32, parent);
    }
}
