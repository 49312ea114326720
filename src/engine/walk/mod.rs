//! The depth-first walk of one task, shared by every coordination (sequential,
//! threads, ranks). It keeps an explicit stack of levels; each level holds
//! the cursor of the listing of its node's moves and how many moves it has
//! given, and each level above the deepest the move the walk took from it,
//! so the unexplored siblings at any level can be split off as new tasks
//! (`split.rs`).
//!
//! The loop is compiled once per kind of visit (branch and bound, keeping
//! solutions, counting), so a count carries no test of the mode at a node;
//! a node that turns out to be a leaf costs no level (its first move is
//! asked for before a level is pushed for it). A count without a cut-off
//! walks below its deepest level by native frames (`dive.rs`), which hand
//! themselves to the stack of levels when a split, a pause or a stop
//! needs it. Why each parcel of the loop is as it is, with its cost per
//! node, is in `engine/README.md`.

mod cpu;
mod dive;
mod split;
pub(super) mod values;

use super::context::Context;
use super::count::{Count, deeper};
use super::mode::Mode;
use super::problem::{Problem, listing};
use super::task::Task;
use super::visit::Visitor;
pub(crate) use dive::Frames;
use dive::{DIVE_DEPTH, Dive, HANDED_OFF};

/// Nodes to walk before asking again after a split found nothing to give.
const SPLIT_BACKOFF: u32 = 1024;

/// Nodes walked between two looks at the context (`stop`, `wants_work`):
/// a relaxed load or two, which in a loop of a few nanoseconds a node are
/// worth doing once in a while, not at every node. A solution found is
/// followed by a look at once (a search for the first one stops there).
pub(crate) const POLL_EVERY: u64 = 16;

/// Where the listing of one node's moves stands: the cursor
/// ([`Problem::next_move`] advances it), how many moves it has given,
/// and whether a split (or a bound) ended it (done: the rest of the
/// listing is no longer the walk's). The count and the flag share a
/// word, [`DONE`] its top bit: a separate flag left padding that the
/// compiler copied byte by byte at every push and pop (the cheap-node
/// walk took 0.35 s with it, 0.30 s without, one run each).
struct Cursor<P: Problem> {
    moves: P::Cursor,
    given: u64,
}

/// [`Cursor::given`]'s bit that marks a listing done.
const DONE: u64 = 1 << 63;

impl<P: Problem> Cursor<P> {
    #[inline(always)]
    fn new(moves: P::Cursor, given: u64) -> Self {
        Cursor { moves, given }
    }

    /// Whether the rest of the listing is no longer the walk's.
    #[inline(always)]
    fn done(&self) -> bool {
        self.given & DONE != 0
    }

    /// How many moves the listing has given (the walk's and those pruned).
    #[inline(always)]
    fn given(&self) -> u32 {
        (self.given & !DONE) as u32
    }
}

/// A level above the deepest: its listing, and the move the walk took
/// from it (to undo when it comes back).
struct Level<P: Problem> {
    cursor: Cursor<P>,
    taken: P::Move,
}

/// Reusable state for walking tasks of one problem: the worker's state,
/// moved in place, and its stack of levels.
pub(crate) struct Searcher<'p, P: Problem> {
    visitor: Visitor<'p, P>,
    mode: Mode,
    /// The node the walk stands on: the task's node with the move taken
    /// at each level above the deepest applied.
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
    /// The levels of the walk in progress above the deepest: `levels[l]`
    /// lists the moves to the children of the node at level `l` (the
    /// task's node for `l = 0`).
    levels: Vec<Level<P>>,
    /// The deepest level's listing (`None`: no walk in progress).
    cur: Option<Cursor<P>>,
    /// A move the deepest level gave that the walk has not applied yet
    /// (a walk paused just before it).
    pending: Option<P::Move>,
    /// Nodes to walk before looking for hungry workers again.
    backoff: u32,
    /// Moves applied by splits (to bring the scratch state down, and to
    /// build each sibling given away): a split's cost in nodes.
    split_applies: u64,
}

impl<'p, P: Problem> Searcher<'p, P> {
    /// A searcher that walks alone (a run of one worker).
    pub(crate) fn new(problem: &'p P, mode: Mode) -> Self {
        Self::in_run(problem, mode, 1)
    }

    /// A searcher for one of the `workers` workers of a run (all ranks'
    /// threads): the count's cut-off may depend on them
    /// ([`Problem::count_cutoff_for`]).
    pub(crate) fn in_run(problem: &'p P, mode: Mode, workers: usize) -> Self {
        Searcher {
            visitor: Visitor::new(problem, mode, workers),
            mode,
            state: Some(problem.state(mode)),
            scratch: None,
            scratch_path: None,
            levels: Vec::new(),
            cur: None,
            pending: None,
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

    /// Moves splits have applied so far (what they cost, in nodes; for
    /// the simulator).
    #[cfg(feature = "sim")]
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
        self.cur = None;
        self.pending = None;
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
        let moves = listing(problem, state, self.visitor.optimise.then(|| ctx.floor()));
        self.cur = Some(Cursor::new(moves, 0));
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
        // The walk compiled for the CPU's features where it has them
        // (`cpu.rs`): the problem's methods inlined into it are too.
        #[cfg(target_arch = "x86_64")]
        if cpu::fast() {
            // SAFETY: `cpu::fast()` is true only where the CPU has every
            // feature the fast copy is compiled with.
            return unsafe { self.resume_fast(task, ctx, budget) };
        }
        self.resume_in(task, ctx, budget)
    }

    cpu::fast_copy! {
        /// [`Searcher::resume_in`], compiled for the fast copy's features.
        fn resume_fast<C: Context<P::Node>> => resume_in::<C>(
            task: &Task<P::Node>, ctx: &mut C, budget: u64
        ) -> bool
    }

    /// [`Searcher::resume`], compiled for the features of its caller.
    #[inline(always)]
    fn resume_in<C: Context<P::Node>>(
        &mut self,
        task: &Task<P::Node>,
        ctx: &mut C,
        budget: u64,
    ) -> bool {
        // One loop per kind of visit, chosen once a call.
        // (Only a count has a cut-off.)
        let cuts = self.visitor.cutoff != usize::MAX;
        match (self.visitor.optimise, self.visitor.keeps_solutions, cuts) {
            (true, _, _) => self.walk::<C, true, false, false>(task, ctx, budget),
            (false, true, _) => self.walk::<C, false, true, false>(task, ctx, budget),
            (false, false, false) => self.walk::<C, false, false, false>(task, ctx, budget),
            (false, false, true) => self.walk::<C, false, false, true>(task, ctx, budget),
        }
    }

    /// [`Searcher::resume`] for branch and bound (`OPTIMISE`), or for a
    /// search that reports its solutions (`KEEPS`), or neither (a count,
    /// with a cut-off or not: `CUTS`). Without a cut-off, the state's
    /// address is never taken by a call the compiler cannot see into, so
    /// it can keep the state in registers.
    #[inline(always)]
    fn walk<C: Context<P::Node>, const OPTIMISE: bool, const KEEPS: bool, const CUTS: bool>(
        &mut self,
        task: &Task<P::Node>,
        ctx: &mut C,
        budget: u64,
    ) -> bool {
        let problem = self.visitor.problem;
        let depth0 = task.depth + 1;
        let cutoff = self.visitor.cutoff;
        // A count without a cut-off walks below its deepest level by a
        // recursion (`dive.rs`).
        let native = !OPTIMISE && !KEEPS && !CUTS;
        // Optimisation: the least objective that beats the best known.
        let mut floor = if OPTIMISE { ctx.floor() } else { 0 };
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
        let start = nodes;
        let pause_at = nodes.saturating_add(budget);
        let mut look_at = nodes;
        // The deepest level lives in `cur` while the walk runs, the levels
        // above it in `levels`, the state in `state` (the compiler keeps
        // what it can of them in registers); they go back to the searcher
        // whenever the walk pauses or splits.
        let Some(mut cur) = self.cur.take() else {
            return true;
        };
        let mut levels = std::mem::take(&mut self.levels);
        let mut state = self.state.take().expect("the searcher's state");
        // A move the walk paused before, to take first.
        let mut paused = self.pending.take();
        let over = 'walk: loop {
            // The deepest level's next move, backing up from the levels
            // that have none left.
            let mut m = match paused.take() {
                Some(m) => m,
                None => loop {
                    if !cur.done()
                        && let Some(m) = problem.next_move(&state, &mut cur.moves)
                    {
                        cur.given += 1;
                        break m;
                    }
                    let Some(up) = levels.pop() else {
                        break 'walk true;
                    };
                    cur = up.cursor;
                    problem.undo(&mut state, &up.taken);
                },
            };
            // Down the tree by `m`, and by each node's first move after
            // it, until a leaf (or a pruned move).
            loop {
                // One compare a node: the next look at the context, or
                // the pause. `m` is the walk's while it looks: a split
                // gives only the moves after it.
                if nodes >= look_at {
                    if nodes >= pause_at {
                        paused = Some(m);
                        break 'walk false;
                    }
                    look_at = nodes.saturating_add(POLL_EVERY).min(pause_at);
                    if OPTIMISE {
                        floor = floor.max(ctx.floor());
                    }
                    if ctx.stop() {
                        levels.clear();
                        break 'walk true;
                    }
                    if self.backoff > 0 {
                        self.backoff = self.backoff.saturating_sub(POLL_EVERY as u32);
                    } else if ctx.wants_work() {
                        self.levels = levels;
                        self.cur = Some(cur);
                        if !self.split(task, ctx) {
                            self.backoff = SPLIT_BACKOFF;
                        }
                        levels = std::mem::take(&mut self.levels);
                        cur = self.cur.take().expect("put back above");
                    }
                }
                if OPTIMISE && problem.optimise_bound(&state, &m) < floor {
                    // Pruned: this subtree cannot beat the best known
                    // (nor can the rest of the listing, when bounds fall).
                    if P::OPTIMISE_BOUNDS_FALL {
                        cur.given |= DONE;
                    }
                    continue 'walk;
                }
                problem.apply(&mut state, &m);
                // The visit (as `Visitor::visit`, on the counters in
                // registers: one function for both, on a struct of these
                // registers, made `examples/custom_problem 12` 3.5 %
                // slower, 11 runs each).
                let height = levels.len();
                let depth = depth0 + height;
                if CUTS && depth >= cutoff {
                    let sub = problem.count_subtree(&mut state);
                    nodes += sub.nodes;
                    solutions += sub.solutions;
                    let v = &mut self.visitor;
                    v.task_depth = deeper(v.task_depth, sub.depth.map(|d| depth as u64 + d));
                    problem.undo(&mut state, &m);
                    continue 'walk;
                }
                nodes += 1;
                if OPTIMISE {
                    deepest = deepest.max(height + 1);
                    if let Some(up) = self.visitor.improve(&state, floor, ctx) {
                        solutions += 1;
                        floor = up;
                        look_at = nodes;
                    }
                } else {
                    let weight = problem.solution_weight(&state);
                    if weight > 0 {
                        solutions += weight;
                        if KEEPS {
                            let text = &mut self.visitor.text;
                            text.clear();
                            problem.render(&state, text);
                            ctx.found(text);
                            look_at = nodes;
                        }
                    }
                }
                // The node's first move, if it has one, is the next taken;
                // a level is pushed only then (a leaf costs none).
                let mut moves = listing(problem, &mut state, OPTIMISE.then_some(floor));
                let Some(first) = problem.next_move(&state, &mut moves) else {
                    problem.undo(&mut state, &m);
                    continue 'walk;
                };
                if native {
                    // The subtree below by native frames, `cur` a level
                    // above them meanwhile.
                    levels.push(Level {
                        cursor: cur,
                        taken: m,
                    });
                    let base = levels.len();
                    let mut dive = Dive {
                        problem,
                        ctx: &mut *ctx,
                        levels: &mut levels,
                        look_at: look_at.max(nodes),
                        pause_at,
                        backoff: self.backoff,
                        bottom: height + 1 + DIVE_DEPTH,
                        least_room: DIVE_DEPTH + 1,
                        handoff: None,
                        left: 0,
                        solutions: 0,
                        fast: cpu::fast(),
                    };
                    let left = (dive.look_at - nodes) as i64;
                    let left = problem.dive(&mut dive, &mut state, moves, first, DIVE_DEPTH, left);
                    let (handoff, seen, s) = (dive.handoff.take(), dive.look_at, dive.solutions);
                    let left = if left == HANDED_OFF { dive.left } else { left };
                    // The deepest frame's children lay at `bottom -
                    // least_room` (a handoff's pending move too).
                    deepest = deepest.max(dive.bottom - dive.least_room + 1);
                    self.backoff = dive.backoff;
                    // The count is `look_at - left` (`left` may be below 0).
                    nodes = seen.wrapping_sub(left as u64);
                    solutions += s;
                    match handoff {
                        None => {
                            // Walked to the end: back to `cur`.
                            let up = levels.pop().expect("pushed above");
                            cur = up.cursor;
                            problem.undo(&mut state, &up.taken);
                            look_at = seen;
                            continue 'walk;
                        }
                        Some((below, pending)) => {
                            // The frames' levels, pushed deepest first, in
                            // order; the deepest's listing is the walk's,
                            // and its move is looked at again here.
                            levels[base..].reverse();
                            cur = below;
                            m = pending;
                            look_at = nodes;
                            continue;
                        }
                    }
                }
                let below = Cursor::new(moves, 1);
                levels.push(Level {
                    cursor: std::mem::replace(&mut cur, below),
                    taken: m,
                });
                if !OPTIMISE {
                    // The child `first` is visited at this height (no
                    // bound prunes it; only a stop can come first): the
                    // deepest level, kept where a level is pushed, not at
                    // every node.
                    deepest = deepest.max(levels.len() + 1);
                }
                m = first;
            }
        };
        if !OPTIMISE && nodes > start {
            // A node at height 0 was visited (deeper ones are counted
            // where their level was pushed).
            deepest = deepest.max(1);
        }
        self.levels = levels;
        if !over {
            self.cur = Some(cur);
            self.pending = paused;
        }
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
