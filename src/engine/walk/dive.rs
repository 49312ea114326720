//! The count's walk below its explicit stack: a recursion over frames, a
//! frame a level and two frames a native call (the second is the first's
//! code, inlined), each keeping its listing, its count of moves given and
//! the move it took in registers, its node's nodes returned by value and
//! its solutions summed in memory ([`Dive::solutions`]). A
//! look at the context that needs the walk's stack (a split, a pause, a
//! stop), or a recursion [`DIVE_DEPTH`] frames deep, hands the frames to
//! the explicit stack as the levels the walk would have pushed, and the
//! walk goes on there (`engine/README.md`, "The count's dive").

use super::cpu::fast_copy;
use super::{Cursor, Level, POLL_EVERY};
use crate::engine::context::Context;
use crate::engine::problem::Problem;

/// How many native frames a dive may stack before it hands them to the
/// explicit stack (a tree thousands of levels deep, as UTS's binomial
/// ones, stays within a thread's stack; a handoff a few hundred levels
/// costs next to nothing).
pub(super) const DIVE_DEPTH: usize = 256;

/// What a dive shares among its frames: the problem, the walk's context
/// and its stack of levels, and the numbers of its looks at the context.
pub(super) struct Dive<'s, P: Problem, C> {
    pub(super) problem: &'s P,
    pub(super) ctx: &'s mut C,
    /// The walk's levels: the frames push theirs here when they hand off,
    /// the deepest first (the walk puts them back in order).
    pub(super) levels: &'s mut Vec<Level<P>>,
    /// The walk's node count at which to look at the context next: the
    /// count is always `look_at - left`, `left` the nodes a frame has
    /// still to visit before it looks (0 or less: look).
    pub(super) look_at: u64,
    /// The walk's count at which it pauses.
    pub(super) pause_at: u64,
    /// As `Searcher::backoff`.
    pub(super) backoff: u32,
    /// The height at which the children of a frame with no room left
    /// lie: the first frame's children's plus [`DIVE_DEPTH`].
    pub(super) bottom: usize,
    /// The least room a frame had (the deepest frame: its children lie
    /// at `bottom - least_room`; `DIVE_DEPTH + 1` before the first).
    pub(super) least_room: usize,
    /// Set by the frame that hands off: its listing, as the walk's
    /// deepest level, and the move it had taken from it but not applied;
    /// and its `left`.
    pub(super) handoff: Option<(Cursor<P>, P::Move)>,
    pub(super) left: i64,
    /// The solutions the frames have visited (a sum in memory: returned
    /// beside `left`, it was one more value kept across every call).
    pub(super) solutions: u64,
    /// Whether the CPU has the fast copy's features ([`cpu::fast`]): then
    /// each frame calls the fast copy of the next.
    ///
    /// [`cpu::fast`]: super::cpu::fast
    pub(super) fast: bool,
}

/// A dive whose frames hold their nodes' states by value
/// ([`Problem::child`]; [`ByValue::frame`]), and the state of the deepest
/// frame's node once one below the first has handed off.
struct ByValue<'a, 'd, P: Problem, C> {
    dive: &'a mut Dive<'d, P, C>,
    placed: Option<P::State>,
    /// As [`Dive::solutions`], one pointer nearer the frames.
    solutions: u64,
}

/// What a frame returns for its `left` when it has handed off.
pub(crate) const HANDED_OFF: i64 = i64::MIN;

/// What a dive offers the frames of a problem that walks its own
/// ([`Problem::dive`]; `values.rs`, a [`Tree`](crate::engine::Tree)'s): the
/// frame's look at the context and its handoff, as [`Dive::frame`] makes
/// them. Public only because [`Problem::dive`] names it; no problem
/// outside the engine implements or calls it.
#[doc(hidden)]
pub trait Frames<P: Problem> {
    /// The generic frame ([`Dive::frame`]).
    fn frame(
        &mut self,
        state: &mut P::State,
        moves: P::Cursor,
        m: P::Move,
        room: usize,
        left: i64,
    ) -> i64;

    /// Adds `weight` solutions to the dive's ([`Dive::solutions`]).
    fn solved(&mut self, weight: u64);

    /// Whether the CPU has the fast copy's features ([`Dive::fast`]).
    fn fast(&self) -> bool;

    /// A frame's beginning, with `room` frames below it and `left` nodes
    /// to visit before it looks: whether it may go on (no look was due,
    /// or the look let it, and it has room). When not, it must hand off
    /// ([`Frames::hand_off`]).
    fn enter(&mut self, room: usize, left: &mut i64) -> bool;

    /// The deepest frame's handoff: its listing `moves`, which has given
    /// `given` moves, the last, `m`, taken but not applied, and its
    /// `left`; then it returns [`HANDED_OFF`]. Both are lent, and cloned
    /// here: given by value, they were kept packed for this cold call
    /// along the frame's hot path (Langford of order 11: 428.0 million
    /// instructions by value, 413.8 million lent).
    fn hand_off(&mut self, moves: &P::Cursor, given: u64, m: &P::Move, left: i64);

    /// A frame above the deepest, as it hands off: pushes its level (its
    /// listing, which has given `given` moves, `m` the last, taken; lent,
    /// as to [`Frames::hand_off`]).
    fn push(&mut self, moves: &P::Cursor, given: u64, m: &P::Move);
}

impl<P: Problem, C: Context<P::Node>> Frames<P> for Dive<'_, P, C> {
    #[inline(always)]
    fn frame(
        &mut self,
        state: &mut P::State,
        moves: P::Cursor,
        m: P::Move,
        room: usize,
        left: i64,
    ) -> i64 {
        // A problem gives every child by value or none (`Problem::child`;
        // the default's `None` is known at compile time).
        if self.problem.child(state, &m).is_some() {
            let mut frames = ByValue {
                dive: self,
                placed: None,
                solutions: 0,
            };
            let left = frames.call(state, moves, m, room, left);
            frames.dive.solutions += frames.solutions;
            // The walk goes on where the deepest frame stood.
            if let Some(deepest) = frames.placed {
                *state = deepest;
            }
            left
        } else {
            self.call(state, moves, m, room, left)
        }
    }

    #[inline(always)]
    fn solved(&mut self, weight: u64) {
        self.solutions += weight;
    }

    #[inline(always)]
    fn fast(&self) -> bool {
        self.fast
    }

    #[inline(always)]
    fn enter(&mut self, room: usize, left: &mut i64) -> bool {
        if room < self.least_room {
            self.least_room = room;
        }
        !((*left <= 0 && !self.look(left)) || room == 0)
    }

    #[cold]
    #[inline(never)]
    fn hand_off(&mut self, moves: &P::Cursor, given: u64, m: &P::Move, left: i64) {
        self.handoff = Some((Cursor::new(moves.clone(), given), m.clone()));
        self.left = left;
    }

    #[inline(always)]
    fn push(&mut self, moves: &P::Cursor, given: u64, m: &P::Move) {
        Dive::push(self, moves, given, m)
    }
}

impl<P: Problem, C: Context<P::Node>> Dive<'_, P, C> {
    /// The look at the context a frame makes when its `left` is spent:
    /// whether the dive may go on without the walk's stack, as the walk's
    /// own look would (no pause due, no stop, no hungry worker it would
    /// split for). If so, `left` is set for the next.
    #[cold]
    #[inline(never)]
    fn look(&mut self, left: &mut i64) -> bool {
        // `left` is 0 or less: the count is at or past `look_at`.
        let nodes = self.look_at + left.unsigned_abs();
        if nodes >= self.pause_at || self.ctx.stop() {
            return false;
        }
        if self.backoff > 0 {
            self.backoff = self.backoff.saturating_sub(POLL_EVERY as u32);
        } else if self.ctx.wants_work() {
            return false;
        }
        self.look_at = nodes.saturating_add(POLL_EVERY).min(self.pause_at);
        *left = (self.look_at - nodes) as i64;
        true
    }

    /// Pushes a frame's level, as it hands off: its listing, the moves
    /// it has given, and `m`, the last, which it took.
    #[cold]
    #[inline(never)]
    fn push(&mut self, moves: &P::Cursor, given: u64, m: &P::Move) {
        self.levels.push(Level {
            cursor: Cursor::new(moves.clone(), given),
            taken: m.clone(),
        });
    }

    /// Walks the children of the node `state` stands on and their
    /// subtrees, by its listing `moves`, which has given one move, `m`,
    /// taken next. `room` is how many frames may still be
    /// made below this one (its children lie at the height
    /// [`Dive::bottom`] `- room`); `left` is how many nodes it may visit
    /// before it looks at the context. Adds the solutions it visits to
    /// [`Dive::solutions`] and returns `left` when it ends, or
    /// [`HANDED_OFF`] when it handed off: then `state` stands where the
    /// walk would, the levels of the frames above the deepest are on
    /// [`Dive::levels`], and [`Dive::handoff`] holds the deepest's listing
    /// and its move.
    ///
    /// A call walks two frames: this one and, inline, each child's
    /// ([`Dive::body`]), whose children's frames are calls again. The
    /// call's saved registers, its arguments and its return are paid once
    /// for two levels (`cheap_nodes apply 30`, in place: 114.8 million
    /// instructions with a call a frame, 111.9 million with a call for
    /// two; `engine/README.md`, "Two frames a call").
    #[inline(never)]
    pub(super) fn frame(
        &mut self,
        state: &mut P::State,
        moves: P::Cursor,
        m: P::Move,
        room: usize,
        left: i64,
    ) -> i64 {
        self.body::<true>(state, moves, m, room, left)
    }

    fast_copy! {
        /// [`Dive::frame`], compiled for the fast copy's features.
        fn frame_fast => body::<true>(
            state: &mut P::State, moves: P::Cursor, m: P::Move, room: usize, left: i64
        ) -> i64
    }

    /// A call of a frame: [`Dive::frame`], or its fast copy where the CPU
    /// has the features.
    #[inline(always)]
    fn call(
        &mut self,
        state: &mut P::State,
        moves: P::Cursor,
        m: P::Move,
        room: usize,
        left: i64,
    ) -> i64 {
        if super::cpu::WANTED && self.fast {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `fast` is `cpu::fast()`, true only where the CPU has
            // every feature the fast copy is compiled with.
            return unsafe { self.frame_fast(state, moves, m, room, left) };
        }
        self.frame(state, moves, m, room, left)
    }

    /// The walk of one frame, as [`Dive::frame`]. With `TWICE`, each
    /// child's frame is this code again, inlined (`body::<false>`), and
    /// the frames below that one are calls of [`Dive::frame`].
    #[inline(always)]
    fn body<const TWICE: bool>(
        &mut self,
        state: &mut P::State,
        mut moves: P::Cursor,
        mut m: P::Move,
        room: usize,
        mut left: i64,
    ) -> i64 {
        // One move given: a frame always starts so, and one argument fewer
        // keeps `left` out of the stack (`engine/README.md`).
        let mut given = 1;
        // The look, before `m` is applied, as in the walk: at most once a
        // frame (a leaf has none), on a count kept in a register; and
        // the deepest frame so far, kept as the least room.
        if !self.enter(room, &mut left) {
            self.hand_off(&moves, given, &m, left);
            return HANDED_OFF;
        }
        let p = self.problem;
        loop {
            p.apply(state, &m);
            left -= 1;
            self.solutions += p.solution_weight(state);
            let mut below = p.moves(state);
            if let Some(first) = p.next_move(state, &mut below) {
                let l = if TWICE {
                    self.body::<false>(state, below, first, room - 1, left)
                } else {
                    self.call(state, below, first, room - 1, left)
                };
                if l == HANDED_OFF {
                    self.push(&moves, given, &m);
                    return HANDED_OFF;
                }
                left = l;
            }
            p.undo(state, &m);
            match p.next_move(state, &mut moves) {
                Some(next) => {
                    given += 1;
                    m = next;
                }
                None => return left,
            }
        }
    }
}

impl<P: Problem, C: Context<P::Node>> ByValue<'_, '_, P, C> {
    /// [`Dive::frame`] for a problem that gives its children by value
    /// ([`Problem::child`]): each child's state is a value of this frame,
    /// made from `node`'s and listed in place, and nothing is undone. When
    /// a frame below hands off, this frame's child is the deepest node,
    /// or stands above it: the first frame to return that way sets its
    /// child's state aside ([`ByValue::placed`]) for the walk's (the
    /// first frame's node is the walk's own state, where a handoff of the
    /// first frame leaves it). A call walks two frames, as
    /// [`Dive::frame`]'s (Langford of order 11: 413.8 million
    /// instructions with a call a frame, 382.8 million with a call for
    /// two).
    #[inline(never)]
    fn frame(
        &mut self,
        node: &mut P::State,
        moves: P::Cursor,
        m: P::Move,
        room: usize,
        left: i64,
    ) -> i64 {
        self.body::<true>(node, moves, m, room, left)
    }

    fast_copy! {
        /// [`ByValue::frame`], compiled for the fast copy's features.
        fn frame_fast => body::<true>(
            node: &mut P::State, moves: P::Cursor, m: P::Move, room: usize, left: i64
        ) -> i64
    }

    /// A call of a frame, as [`Dive::call`].
    #[inline(always)]
    fn call(
        &mut self,
        node: &mut P::State,
        moves: P::Cursor,
        m: P::Move,
        room: usize,
        left: i64,
    ) -> i64 {
        if super::cpu::WANTED && self.dive.fast {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `Dive::call`.
            return unsafe { self.frame_fast(node, moves, m, room, left) };
        }
        self.frame(node, moves, m, room, left)
    }

    /// The walk of one frame, as [`ByValue::frame`]; `TWICE` as in
    /// [`Dive::body`] (the frames below are calls of [`ByValue::frame`]).
    #[inline(always)]
    fn body<const TWICE: bool>(
        &mut self,
        node: &mut P::State,
        mut moves: P::Cursor,
        mut m: P::Move,
        room: usize,
        mut left: i64,
    ) -> i64 {
        let mut given = 1;
        if !self.dive.enter(room, &mut left) {
            self.dive.hand_off(&moves, given, &m, left);
            return HANDED_OFF;
        }
        let p = self.dive.problem;
        loop {
            let mut child = p
                .child(node, &m)
                .expect("Problem::child gives every child or none");
            left -= 1;
            self.solutions += p.solution_weight(&child);
            let mut below = p.moves(&mut child);
            if let Some(first) = p.next_move(&child, &mut below) {
                let l = if TWICE {
                    self.body::<false>(&mut child, below, first, room - 1, left)
                } else {
                    self.call(&mut child, below, first, room - 1, left)
                };
                if l == HANDED_OFF {
                    if self.placed.is_none() {
                        self.placed = Some(child);
                    }
                    self.dive.push(&moves, given, &m);
                    return HANDED_OFF;
                }
                left = l;
            }
            match p.next_move(node, &mut moves) {
                Some(next) => {
                    given += 1;
                    m = next;
                }
                None => return left,
            }
        }
    }
}

#[cfg(test)]
mod test {
    use super::DIVE_DEPTH;
    use crate::engine::check::check;
    use crate::engine::check::split_walk;
    use crate::engine::fixtures::{InPlaceSpine, Spine, ValueSpine};
    use crate::engine::mode::Mode;
    use crate::engine::problem::Problem;
    use crate::engine::sequential::walk_alone;

    /// A count's walk of a tree several dives deep, alone and split where
    /// its context asks, with pauses: the frames hand off at every depth's
    /// limit, every pause and every split, and the nodes, the solutions and the
    /// deepest node are the explicit walk's (a listing's, which does not
    /// dive). The tree as a `Tree` dives by its own frames (`values.rs`),
    /// in place by the generic ones, with its children by value by the
    /// frames that hold them (`ByValue::frame`); each conforms.
    #[test]
    fn a_deep_count_hands_its_frames_off_and_counts_every_node() {
        let len = 3 * DIVE_DEPTH as u32 + 7;
        deep_count(&Spine { len });
        deep_count(&InPlaceSpine(Spine { len }));
        deep_count(&ValueSpine(Spine { len }));
    }

    fn deep_count<P: Problem<Node = (u32, u64, u32)>>(p: &P) {
        let len = 3 * DIVE_DEPTH as u64 + 7;
        let checked = check(p).unwrap_or_else(|v| panic!("{v}"));
        assert!(checked.whole, "{checked:?}");
        let (listed, _) = walk_alone(p, Mode::All);
        let (counted, _) = walk_alone(p, Mode::Count);
        assert!(listed.nodes > len * 3 / 2, "{listed:?}");
        assert!(listed.depth >= Some(len - 1), "{listed:?}");
        assert_eq!(counted, listed);
        let mut splits = 0;
        for seed in 1..=32u64 {
            let (split, _, made) = split_walk(
                p,
                Mode::Count,
                seed.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                40 + seed * 37,
            )
            .unwrap_or_else(|v| panic!("seed {seed}: {v}"));
            splits += made;
            assert_eq!(
                (split.nodes, split.solutions),
                (listed.nodes, listed.solutions),
                "seed {seed}"
            );
        }
        // (A context wants work at a third of its looks, for some seeds.)
        assert!(splits > 5, "{splits} splits");
    }
}
