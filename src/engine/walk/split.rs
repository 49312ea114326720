//! A split of a walk in progress: half of the subtrees it left unexplored,
//! built on a second state and handed to the context as tasks.

use super::{Cursor, DONE, Level, Searcher};
use crate::engine::context::Context;
use crate::engine::mode::Mode;
use crate::engine::problem::{Problem, listing};
use crate::engine::task::Task;

impl<P: Problem> Searcher<'_, P> {
    /// Splits off half of the subtrees the walk left unexplored, whole
    /// levels, shallowest (biggest) first, and hands them to `ctx`, for a
    /// thread of this rank or for another rank alike. Half, not one
    /// level: where nearly every subtree is small (binomial trees), one
    /// level's siblings are mostly leaves and send the thief back at once;
    /// simulated on UTS T3L at 16 ranks x 16 threads, efficiency 0.205
    /// with one level, 0.422 with half (`bench-results/log/2026-11-simulation.md`,
    /// "Hunger and half splits").
    /// Returns false when there was nothing to give. The siblings are
    /// listed and their nodes built on the scratch state, brought to each
    /// level the walk has not given away by the moves the walk took: each
    /// level's listing starts again there and skips the moves the walk was
    /// given. Where every listing says how many moves it holds
    /// ([`Problem::moves_left`]; not in a branch and bound, whose
    /// listings a floor may cut), the half is counted from them first and
    /// only the levels given are built; otherwise every level's siblings
    /// are built to count them, and the deeper half dropped.
    ///
    /// The scratch state keeps its place from one split to the next, so a
    /// split of a deep walk (UTS's binomial trees reach depth 17,844)
    /// applies the moves taken since the last, not the whole path. That
    /// is sound because it is first taken back to the shallowest level not
    /// given away, and every move it holds above that level is still the
    /// walk's: a level's move changes only while the walk stands on it
    /// with moves to give, that is when it is not done, and only a split
    /// marks levels done (or a bound, on the deepest level, which the walk
    /// leaves at once); so every level whose move (or whose very level)
    /// changed since the last split is at or below a level not done now.
    /// Counted, every level the scratch state goes down through is given,
    /// so done, when the split ends; built, it goes down through every
    /// level not done and leaves those past the half not done, which the
    /// next split first undoes back to the shallowest of them.
    pub(super) fn split<C: Context<P::Node>>(&mut self, task: &Task<P::Node>, ctx: &mut C) -> bool {
        let problem = self.visitor.problem;
        let (base, depth0) = (&task.prefix, task.depth);
        // Prefixes go no deeper than the context keeps them: for a problem
        // that encodes its nodes, the unit's depth, which the task's own
        // prefix already reaches (a split then copies no path).
        let keep = ctx.prefix_depth();
        let mode = self.mode;
        let floor = (mode == Mode::Optimise).then(|| ctx.floor());
        let scratch = self.scratch.get_or_insert_with(|| problem.state(mode));
        let applied = self.scratch_path.get_or_insert_with(|| {
            problem.load(scratch, &task.node);
            Vec::new()
        });
        // The levels above the deepest, then the deepest.
        let count = self.levels.len() + usize::from(self.cur.is_some());
        // Half of everything unexplored, counted from the listings where
        // they know what they hold (without a floor, which may cut some):
        // then only the levels given are built.
        let known = floor.is_none().then(|| {
            (0..count)
                .map(|l| {
                    let level = cursor(&self.levels, &self.cur, l);
                    if level.done() {
                        Some(0)
                    } else {
                        problem.moves_left(&level.moves)
                    }
                })
                .sum::<Option<u64>>()
        });
        let known = known.flatten().map(|left| (left as usize).div_ceil(2));
        if known == Some(0) {
            return false;
        }
        // The unexplored siblings of each level, shallowest first.
        let mut siblings: Vec<(usize, Vec<Task<P::Node>>)> = Vec::new();
        let mut built = 0;
        // The level whose moves were listed last on the scratch state.
        let mut listed = None;
        // The walk's path (each level's child index), as far as a level
        // listed needed it.
        let mut path: Vec<u32> = Vec::new();
        for l in 0..count {
            if known.is_some_and(|want| built >= want) {
                break;
            }
            let level = cursor(&self.levels, &self.cur, l);
            if level.done() {
                continue;
            }
            let given = level.given();
            // The scratch state to the node of level `l`. A move is
            // applied where its node's moves were listed, as in the walk
            // (a problem may keep its listing in the state).
            while applied.len() > l {
                let m = applied.pop().expect("longer than l");
                problem.undo(scratch, &m);
            }
            while applied.len() < l {
                let at = applied.len();
                // Listed in full: a listing told the floor may have
                // ended before the move the walk took.
                if listed != Some(at) || floor.is_some() {
                    problem.moves(scratch);
                }
                let taken = self.levels[at].taken.clone();
                problem.apply(scratch, &taken);
                self.split_applies += 1;
                applied.push(taken);
            }
            listed = Some(l);
            let depth = depth0 + l + 1;
            let above = (base.depth() < keep).then(|| {
                path.extend(
                    self.levels[path.len()..l]
                        .iter()
                        .map(|up| up.cursor.given() - 1),
                );
                base.join(&path)
            });
            let mut moves = listing(problem, scratch, floor);
            let mut index = 0;
            let mut here = Vec::new();
            while let Some(m) = problem.next_move(scratch, &mut moves) {
                index += 1;
                if index <= given {
                    continue;
                }
                if floor.is_some_and(|f| problem.optimise_bound(scratch, &m) < f) {
                    // Pruned, as the walk would.
                    if P::OPTIMISE_BOUNDS_FALL {
                        break;
                    }
                    continue;
                }
                problem.apply(scratch, &m);
                self.split_applies += 1;
                let node = problem.save(scratch);
                problem.undo(scratch, &m);
                let index = index - 1;
                here.push(Task {
                    prefix: match &above {
                        Some(above) if depth <= keep => above.child(index),
                        Some(above) => above.child(index).truncated(keep),
                        None => base.clone(),
                    },
                    depth,
                    node,
                });
            }
            built += here.len();
            siblings.push((l, here));
        }
        // Half of everything unexplored, whole levels shallowest first.
        let want = known.unwrap_or(built.div_ceil(2));
        let mut tasks: Vec<Task<P::Node>> = Vec::new();
        for (l, here) in siblings {
            if tasks.len() >= want {
                break;
            }
            // Nothing of this level is the walk's any more; a level that
            // had nothing left is as done.
            self.cursor_mut(l).given |= DONE;
            tasks.extend(here);
        }
        if tasks.is_empty() {
            return false;
        }
        ctx.donate(tasks);
        true
    }
}

/// The listing of level `l` of a walk: one of its `levels` above the
/// deepest, or the deepest, `cur`.
fn cursor<'a, P: Problem>(
    levels: &'a [Level<P>],
    cur: &'a Option<Cursor<P>>,
    l: usize,
) -> &'a Cursor<P> {
    match levels.get(l) {
        Some(level) => &level.cursor,
        None => cur.as_ref().expect("a level of the walk"),
    }
}

impl<P: Problem> Searcher<'_, P> {
    /// The listing of level `l` ([`cursor`]), to change.
    fn cursor_mut(&mut self, l: usize) -> &mut Cursor<P> {
        match self.levels.get_mut(l) {
            Some(level) => &mut level.cursor,
            None => self.cur.as_mut().expect("a level of the walk"),
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::engine::check::split_walk;
    use crate::engine::sequential::walk_alone;

    /// A random tree walked in place: a node is its depth and a hash of
    /// its path, a move a number, and `undo` inverts `apply` with the move
    /// (a scratch state that took a wrong move stands on another node, so
    /// it lists other siblings, of other hashes). Leaves are solutions.
    /// `counts`: its listings say how many moves they have left
    /// ([`Problem::moves_left`]), so a split builds only what it gives.
    struct Hashed {
        counts: bool,
    }

    /// The multiplier of `Hashed`'s hash, and its inverse modulo 2^64.
    const MUL: u64 = 0x9E37_79B9_7F4A_7C15;
    const INV: u64 = {
        // Newton's iteration: each step doubles the correct low bits.
        let mut x = MUL;
        let mut i = 0;
        while i < 6 {
            x = x.wrapping_mul(2u64.wrapping_sub(MUL.wrapping_mul(x)));
            i += 1;
        }
        x
    };

    /// `Hashed`'s state: the node, and which of the depths on its path
    /// have had their moves listed (a move is applied only where its
    /// node's moves were listed, as a problem that keeps its listing in
    /// the state needs).
    struct Walked {
        at: (u32, u64),
        listed: u64,
    }

    impl Problem for Hashed {
        type Node = (u32, u64);
        type State = Walked;
        type Move = u64;
        /// The next move, and how many there are.
        type Cursor = (u64, u64);
        fn name(&self) -> &'static str {
            "hashed"
        }
        fn instance(&self) -> String {
            String::new()
        }
        fn root(&self) -> (u32, u64) {
            (0, 12_345)
        }
        fn state(&self, _: Mode) -> Walked {
            Walked {
                at: (u32::MAX, 0),
                listed: 0,
            }
        }
        fn load(&self, state: &mut Walked, node: &(u32, u64)) {
            state.at = *node;
            state.listed = 0;
        }
        fn save(&self, state: &Walked) -> (u32, u64) {
            state.at
        }
        fn moves(&self, state: &mut Walked) -> (u64, u64) {
            state.listed |= 1 << state.at.0;
            (0, kids(state))
        }
        fn next_move(&self, state: &Walked, (next, kids): &mut (u64, u64)) -> Option<u64> {
            assert_eq!(*kids, self::kids(state), "listed on another node");
            (*next < *kids).then(|| {
                *next += 1;
                *next
            })
        }
        fn moves_left(&self, &(next, kids): &(u64, u64)) -> Option<u64> {
            self.counts.then_some(kids - next)
        }
        fn apply(&self, state: &mut Walked, m: &u64) {
            let (depth, hash) = &mut state.at;
            assert!(state.listed >> *depth & 1 == 1, "a move applied unlisted");
            *depth += 1;
            *hash = hash.wrapping_add(*m).wrapping_mul(MUL);
            state.listed &= !(1 << *depth);
        }
        fn undo(&self, state: &mut Walked, m: &u64) {
            let (depth, hash) = &mut state.at;
            *depth -= 1;
            *hash = hash.wrapping_mul(INV).wrapping_sub(*m);
        }
        fn solution_weight(&self, state: &Walked) -> u64 {
            u64::from(kids(state) == 0)
        }
        fn render(&self, state: &Walked, out: &mut String) {
            let (depth, hash) = state.at;
            out.push_str(&format!("{depth} {hash:016x}"));
        }
    }

    /// How many children `Hashed`'s node has: up to 4; none past depth 14.
    fn kids(state: &Walked) -> u64 {
        let (depth, hash) = state.at;
        if depth >= 14 {
            0
        } else {
            (hash.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 59) % 5
        }
    }

    #[test]
    fn the_inverse_multiplier_inverts() {
        assert_eq!(MUL.wrapping_mul(INV), 1);
    }

    /// Splits of walks in place, forced over and over, with pauses between
    /// and the walk backing up between them (so the scratch state is kept,
    /// taken back and brought down again): every split-off subtree is
    /// exactly the part of the tree the walk did not visit; and a split
    /// that counts from the listings gives what one that builds every
    /// level gives, split for split.
    #[test]
    fn splits_give_away_exactly_what_the_walk_leaves() {
        let (whole, mut reference) = walk_alone(&Hashed { counts: false }, Mode::All);
        reference.found.sort();
        assert!(whole.nodes > 10_000, "a tree of {} nodes", whole.nodes);
        for seed in 1..=16u64 {
            let mut walks = Vec::new();
            for counts in [false, true] {
                // One searcher for every task, as a worker keeps one; the
                // conformance check's split walk (prefixes replayed too).
                let (count, found, splits) = split_walk(
                    &Hashed { counts },
                    Mode::All,
                    seed.wrapping_mul(MUL),
                    700 + seed * 13,
                )
                .unwrap_or_else(|v| panic!("seed {seed}: {v}"));
                let at = format!("seed {seed}, counts {counts}");
                assert!(splits > 20, "{at}: {splits} splits");
                assert_eq!(count.nodes, whole.nodes, "{at}");
                assert_eq!(count.solutions, whole.solutions, "{at}");
                let mut sorted = found.clone();
                sorted.sort();
                assert_eq!(sorted, reference.found, "{at}");
                walks.push((found, splits));
            }
            // The same splits, so the same tasks in the same order.
            assert_eq!(walks[0], walks[1], "seed {seed}");
        }
    }
}
