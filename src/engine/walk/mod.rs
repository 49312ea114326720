//! The depth-first walk of one task, shared by every coordination (sequential,
//! threads, ranks). It keeps an explicit stack of levels; each level holds
//! the cursor of the listing of its node's moves, how many moves it has
//! given and the move the walk below it took, so the unexplored siblings
//! at any level can be split off as new tasks (`split.rs`).

mod split;

use super::context::Context;
use super::count::{Count, deeper};
use super::mode::Mode;
use super::problem::Problem;
use super::task::Task;
use super::visit::Visitor;

/// Nodes to walk before asking again after a split found nothing to give.
const SPLIT_BACKOFF: u32 = 1024;

/// Nodes walked between two looks at the context (`stop`, `wants_work`):
/// a relaxed load or two, which in a loop of a few nanoseconds a node are
/// worth doing once in a while, not at every node. A solution found is
/// followed by a look at once (a search for the first one stops there).
pub(crate) const POLL_EVERY: u64 = 16;

/// One level of the walk: the listing of the moves from the node at this
/// level (`moves`, advanced by [`Problem::next_move`]), how many it has
/// given (`given`), and the move the walk below it took (`taken`, to undo
/// when it comes back). A split gives away the rest of the listing and
/// marks the level `done`.
struct Level<P: Problem> {
    moves: P::Moves,
    given: u32,
    taken: Option<P::Move>,
    done: bool,
}

impl<P: Problem> Level<P> {
    #[inline(always)]
    fn new(moves: P::Moves) -> Self {
        Level {
            moves,
            given: 0,
            taken: None,
            done: false,
        }
    }
}

/// Reusable state for walking tasks of one problem: the worker's state,
/// moved in place, and its stack of levels.
pub(crate) struct Searcher<'p, P: Problem> {
    visitor: Visitor<'p, P>,
    mode: Mode,
    /// The node the walk stands on: the task's node with the move taken
    /// at each level but the deepest applied.
    /// (Out, in a local of [`Searcher::resume`], while that runs.)
    state: Option<P::State>,
    /// A second state, made on the first split, on which split-off
    /// siblings are built (the walk's own stays where it is). It stands
    /// on the task's node with `scratch_path` applied, and is kept from
    /// one split to the next.
    scratch: Option<P::State>,
    /// The moves applied to the scratch state since the task's node was
    /// loaded in it (`None`: it holds no node of the task being walked).
    scratch_path: Option<Vec<P::Move>>,
    /// The levels of the walk in progress: `levels[l]` lists the moves to
    /// the children of the node at level `l` (the task's node for `l = 0`).
    levels: Vec<Level<P>>,
    /// Nodes to walk before looking for hungry workers again.
    backoff: u32,
    /// Moves applied by splits (to bring the scratch state down, and to
    /// build each sibling given away): a split's cost in nodes.
    split_applies: u64,
}

impl<'p, P: Problem> Searcher<'p, P> {
    pub(crate) fn new(problem: &'p P, mode: Mode) -> Self {
        Searcher {
            visitor: Visitor::new(problem, mode),
            mode,
            state: Some(problem.state(mode)),
            scratch: None,
            scratch_path: None,
            levels: Vec::new(),
            backoff: 0,
            split_applies: 0,
        }
    }

    /// Nodes and solutions counted so far, and the deepest node, over
    /// every task run.
    pub(crate) fn counters(&self) -> Count {
        Count {
            depth: deeper(self.visitor.counters.depth, self.visitor.task_depth),
            ..self.visitor.counters
        }
    }

    /// What the last task walked counted: the nodes and solutions since
    /// the searcher's counters were `before` (taken before the task
    /// began), and its deepest node.
    pub(crate) fn task_count(&self, before: Count) -> Count {
        let now = self.visitor.counters;
        Count {
            nodes: now.nodes - before.nodes,
            solutions: now.solutions - before.solutions,
            depth: self.visitor.task_depth,
        }
    }

    /// Moves splits have applied so far (what they cost, in nodes).
    pub(crate) fn split_applies(&self) -> u64 {
        self.split_applies
    }

    /// Walks the subtree of `task` to the end, or until `ctx.stop()`.
    pub(super) fn run<C: Context<P::Node>>(&mut self, task: &Task<P::Node>, ctx: &mut C) {
        if self.begin(task, ctx) {
            self.resume(task, ctx, u64::MAX);
        }
    }

    /// Starts the walk of `task`: loads its node, visits it and starts
    /// listing its moves. Returns whether there is more to walk (then call
    /// [`Searcher::resume`] with the same task until it says the walk is
    /// over). A walk paused between `resume` calls is a stack of levels
    /// like any other: it can be split meanwhile only by the walk itself.
    pub(crate) fn begin<C: Context<P::Node>>(&mut self, task: &Task<P::Node>, ctx: &mut C) -> bool {
        let depth0 = task.depth;
        let v = &mut self.visitor;
        v.counters.depth = deeper(v.counters.depth, v.task_depth);
        v.task_depth = Some(depth0 as u64);
        self.levels.clear();
        self.backoff = 0;
        self.scratch_path = None;
        if ctx.stop() {
            return false;
        }
        let problem = self.visitor.problem;
        let state = self.state.as_mut().expect("the searcher's state");
        problem.load(state, &task.node);
        if !self.visitor.visit(state, depth0, ctx).0 {
            return false;
        }
        let moves = problem.moves(state);
        self.levels.push(Level::new(moves));
        true
    }

    /// Goes on with the walk of `task` (started by [`Searcher::begin`])
    /// until it is over, `ctx.stop()`, or `budget` more nodes have been
    /// visited (a node counted by a specialised counter counts with its
    /// whole subtree, so a pause can come later than asked). Returns
    /// whether the walk is over (walked to the end, or stopped).
    pub(crate) fn resume<C: Context<P::Node>>(
        &mut self,
        task: &Task<P::Node>,
        ctx: &mut C,
        budget: u64,
    ) -> bool {
        let problem = self.visitor.problem;
        let depth0 = task.depth + 1;
        let (cutoff, keeps) = (self.visitor.cutoff, self.visitor.keeps_solutions);
        let optimise = self.visitor.optimise;
        // Optimisation: the least objective that beats the best known.
        let mut floor = ctx.floor();
        // The counters live in registers while the walk runs, and go back
        // to the visitor whenever it returns: `deepest` is the most levels
        // the walk had when it visited a node (at depth `depth0 + levels`).
        let Count {
            mut nodes,
            mut solutions,
            ..
        } = self.visitor.counters;
        // One more than the most levels (0: no node visited yet).
        let mut deepest = 0;
        let pause_at = nodes.saturating_add(budget);
        let mut look_at = nodes;
        // The deepest level lives in `cur` while the walk runs, the levels
        // above it in `self.levels`; it goes back there whenever the walk
        // pauses or splits.
        let mut levels = std::mem::take(&mut self.levels);
        let Some(mut cur) = levels.pop() else {
            return true;
        };
        // The state and the levels are locals while the walk runs (the
        // compiler keeps what it can of them in registers), and go back
        // to the searcher when it returns.
        let mut state = self.state.take().expect("the searcher's state");
        let over = loop {
            // One compare a node: the next look at the context, or the pause.
            if nodes >= look_at {
                if nodes >= pause_at {
                    levels.push(cur);
                    break false;
                }
                look_at = nodes.saturating_add(POLL_EVERY).min(pause_at);
                if optimise {
                    floor = floor.max(ctx.floor());
                }
                if ctx.stop() {
                    levels.clear();
                    break true;
                }
                if self.backoff > 0 {
                    self.backoff = self.backoff.saturating_sub(POLL_EVERY as u32);
                } else if ctx.wants_work() {
                    levels.push(cur);
                    self.levels = levels;
                    if !self.split(task, ctx) {
                        self.backoff = SPLIT_BACKOFF;
                    }
                    levels = std::mem::take(&mut self.levels);
                    cur = levels.pop().expect("pushed above");
                }
            }
            let next = if cur.done {
                None
            } else {
                problem.next_move(&state, &mut cur.moves)
            };
            let Some(m) = next else {
                // This level is done: back up to the node above it.
                let Some(up) = levels.pop() else {
                    break true;
                };
                cur = up;
                problem.undo(&mut state, cur.taken.as_ref().expect("taken"));
                continue;
            };
            cur.given += 1;
            if optimise && problem.bound(&state, &m) < floor {
                // Pruned: this subtree cannot beat the best known (nor
                // can the rest of the listing, when bounds fall).
                cur.done |= P::BOUNDS_FALL;
                continue;
            }
            problem.apply(&mut state, &m);
            // The visit (as `Visitor::visit`, on the counters in registers:
            // one function for both, on a struct of these registers, made
            // `examples/custom_problem 12` 3.5 % slower, 11 runs each).
            let height = levels.len();
            let depth = depth0 + height;
            if depth >= cutoff {
                let sub = problem.count_subtree(&mut state);
                nodes += sub.nodes;
                solutions += sub.solutions;
                let v = &mut self.visitor;
                v.task_depth = deeper(v.task_depth, sub.depth.map(|d| depth as u64 + d));
                problem.undo(&mut state, &m);
                continue;
            }
            nodes += 1;
            deepest = deepest.max(height + 1);
            let weight = if optimise {
                if let Some(up) = self.visitor.improve(&state, floor, ctx) {
                    solutions += 1;
                    floor = up;
                    look_at = nodes;
                }
                0
            } else {
                problem.solution_weight(&state)
            };
            if weight > 0 {
                solutions += weight;
                if keeps {
                    let text = &mut self.visitor.text;
                    text.clear();
                    problem.render(&state, text);
                    ctx.found(text);
                    look_at = nodes;
                }
            }
            let moves = problem.moves(&mut state);
            cur.taken = Some(m);
            levels.push(std::mem::replace(&mut cur, Level::new(moves)));
        };
        self.levels = levels;
        self.state = Some(state);
        let v = &mut self.visitor;
        v.counters.nodes = nodes;
        v.counters.solutions = solutions;
        if deepest > 0 {
            v.task_depth = deeper(v.task_depth, Some((depth0 + deepest - 1) as u64));
        }
        over
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::engine::fixtures::Path;
    use crate::engine::prefix::Prefix;
    use crate::engine::sequential::Sequential;

    #[test]
    fn a_paused_walk_resumes_where_it_stopped() {
        let path = Path { len: 10_000 };
        let task = Task {
            prefix: Prefix::root(),
            depth: 0,
            node: 0,
        };
        let mut s = Searcher::new(&path, Mode::Count);
        let mut ctx = Sequential {
            limit: None,
            found: Vec::new(),
            best: None,
        };
        assert!(s.begin(&task, &mut ctx));
        let mut pauses = 0;
        while !s.resume(&task, &mut ctx, 999) {
            pauses += 1;
            assert_eq!(s.counters().nodes, 1 + 999 * pauses);
        }
        assert_eq!(pauses, 10);
        assert_eq!((s.counters().nodes, s.counters().solutions), (10_000, 1));
    }
}
