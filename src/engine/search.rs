//! The depth-first walk of one task, shared by every coordination (sequential,
//! threads, ranks). It keeps an explicit stack of levels; each level holds the
//! children of the node above it and the index of the next one to visit, so
//! the unexplored siblings at any level can be split off as new tasks.

use super::mode::Mode;
use super::prefix::Prefix;
use super::problem::Problem;

/// A unit of work: a subtree, held locally as a node at `depth`, and named
/// portably by its prefix: the whole path from the root, or, for a problem
/// that encodes its nodes, the path down to the master's initial depth
/// (the unit it belongs to) at most.
#[derive(Debug, Clone)]
pub struct Task<N> {
    pub prefix: Prefix,
    pub depth: usize,
    pub node: N,
}

/// What the walk needs from whoever runs it. Called once per visited node,
/// so implementations must be cheap (a relaxed atomic load or two).
pub(crate) trait Context<N> {
    /// The search must stop now (answer known, or terminated).
    fn stop(&self) -> bool;
    /// Some thread, here or on another rank, is hungry.
    fn wants_work(&self) -> bool;
    /// Takes tasks split off the walk. They are no longer the walker's.
    fn donate(&mut self, tasks: Vec<Task<N>>);
    /// How deep the prefixes of split-off tasks go (`usize::MAX`: all the way).
    fn prefix_depth(&self) -> usize {
        usize::MAX
    }
    /// A solution was found (only in modes that keep solutions).
    fn found(&mut self, text: &str);
    /// Optimisation: the least objective that improves on the best
    /// solution known here (0 while none is). Read at every look at the
    /// context: a walk prunes with a value at most [`POLL_EVERY`] nodes
    /// old, which is never wrong, only less sharp.
    fn floor(&self) -> u64 {
        0
    }
    /// Optimisation: a solution of objective `value`, at least the floor
    /// the walk last read, rendered as `text`.
    fn improved(&mut self, value: u64, text: &str) {
        let _ = (value, text);
    }
}

/// Nodes visited, weighted solutions found, and the depth of the deepest
/// node visited (`None` once part of the tree was counted by a specialised
/// counter that does not know its depth).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counters {
    /// Nodes visited.
    pub nodes: u64,
    /// Solutions found (weighted).
    pub solutions: u64,
    /// The deepest node's depth, when the search knows it.
    pub depth: Option<u64>,
}

impl Default for Counters {
    fn default() -> Self {
        Counters {
            nodes: 0,
            solutions: 0,
            depth: Some(0),
        }
    }
}

/// The deeper of two depths; unknown when either is.
#[inline]
pub fn deeper(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    Some(a?.max(b?))
}

/// Nodes to walk before asking again after a split found nothing to give.
const SPLIT_BACKOFF: u32 = 1024;

/// Nodes walked between two looks at the context (`stop`, `wants_work`):
/// a relaxed load or two, which in a loop of a few nanoseconds a node are
/// worth doing once in a while, not at every node. A solution found is
/// followed by a look at once (a search for the first one stops there).
const POLL_EVERY: u64 = 16;

/// Counts and reports visited nodes.
struct Visitor<'p, P: Problem> {
    problem: &'p P,
    keeps_solutions: bool,
    /// Branch and bound ([`Mode::Optimise`]).
    optimise: bool,
    /// The count cut-off's depth (`usize::MAX`: none).
    cutoff: usize,
    text: String,
    counters: Counters,
    /// The deepest node of the task being walked (see `Searcher::task_depth`).
    task_depth: Option<u64>,
}

impl<'p, P: Problem> Visitor<'p, P> {
    fn new(problem: &'p P, mode: Mode) -> Self {
        Visitor {
            problem,
            keeps_solutions: mode.keeps_solutions(),
            optimise: mode == Mode::Optimise,
            cutoff: (mode == Mode::Count)
                .then(|| problem.count_cutoff())
                .flatten()
                .unwrap_or(usize::MAX),
            text: String::new(),
            counters: Counters::default(),
            task_depth: Some(0),
        }
    }

    /// Visits the node `state` stands on, at `depth`: counts it, reports
    /// it if it is a solution. Returns whether its children still need to
    /// be walked, and whether a solution was reported.
    #[inline(always)]
    fn visit<C: Context<P::Node>>(
        &mut self,
        state: &mut P::State,
        depth: usize,
        ctx: &mut C,
    ) -> (bool, bool) {
        if depth >= self.cutoff {
            let sub = self.problem.count_subtree(state);
            self.counters.nodes += sub.nodes;
            self.counters.solutions += sub.solutions;
            self.task_depth = deeper(self.task_depth, sub.depth.map(|d| depth as u64 + d));
            return (false, false);
        }
        self.counters.nodes += 1;
        if let Some(d) = &mut self.task_depth {
            *d = (*d).max(depth as u64);
        }
        if self.optimise {
            let reported = self.improve(state, ctx.floor(), ctx).is_some();
            self.counters.solutions += u64::from(reported);
            return (true, reported);
        }
        let weight = self.problem.solution_weight(state);
        if weight > 0 {
            self.counters.solutions += weight;
            if self.keeps_solutions {
                self.text.clear();
                self.problem.render(state, &mut self.text);
                ctx.found(&self.text);
                return (true, true);
            }
        }
        (true, false)
    }
}

impl<P: Problem> Visitor<'_, P> {
    /// Optimisation: reports the node `state` stands on when it is a
    /// solution at least as good as `floor` and the context's floor, and
    /// returns the floor after it (`None`: nothing reported). The caller
    /// counts the report.
    #[inline]
    fn improve<C: Context<P::Node>>(
        &mut self,
        state: &P::State,
        floor: u64,
        ctx: &mut C,
    ) -> Option<u64> {
        let value = self.problem.objective(state)?;
        if value < floor || value < ctx.floor() {
            return None;
        }
        self.text.clear();
        self.problem.render(state, &mut self.text);
        ctx.improved(value, &self.text);
        Some(value + 1)
    }
}

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
    pub(crate) fn counters(&self) -> Counters {
        Counters {
            depth: deeper(self.visitor.counters.depth, self.visitor.task_depth),
            ..self.visitor.counters
        }
    }

    /// Moves splits have applied so far (what they cost, in nodes).
    pub(crate) fn split_applies(&self) -> u64 {
        self.split_applies
    }

    /// The depth of the deepest node of the last task walked.
    pub(crate) fn task_depth(&self) -> Option<u64> {
        self.visitor.task_depth
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
        let Counters {
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

    /// Splits off half of the subtrees the walk left unexplored, whole
    /// levels, shallowest (biggest) first, and hands them to `ctx`, for a
    /// thread of this rank or for another rank alike. Half, not one
    /// level: where nearly every subtree is small (binomial trees), one
    /// level's siblings are mostly leaves and send the thief back at once;
    /// simulated on UTS T3L at 16 ranks x 16 threads, efficiency 0.205
    /// with one level, 0.422 with half (`bench-results/README.md`).
    /// Returns false when there was nothing to give. The siblings are
    /// listed and their nodes built on the scratch state, brought to each
    /// level the walk has not given away by the moves the walk took: each
    /// level's listing starts again there and skips the moves the walk was
    /// given.
    ///
    /// The scratch state keeps its place from one split to the next, so a
    /// split of a deep walk (UTS's binomial trees reach depth 17,844)
    /// applies the moves taken since the last, not the whole path. That
    /// is sound because it is first taken back to the shallowest level not
    /// given away, and every move it holds above that level is still the
    /// walk's: a level's move changes only while the walk stands on it
    /// with moves to give, that is when it is not done, and only a split
    /// marks levels done; so every level whose move (or whose very level)
    /// changed since the last split is at or below a level not done now.
    fn split<C: Context<P::Node>>(&mut self, task: &Task<P::Node>, ctx: &mut C) -> bool {
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
        // The unexplored siblings of each level, shallowest first.
        let mut siblings: Vec<(usize, Vec<Task<P::Node>>)> = Vec::new();
        // The level whose moves were listed last on the scratch state.
        let mut listed = None;
        // The walk's path (each level's child index), as far as a level
        // listed needed it.
        let mut path: Vec<u32> = Vec::new();
        for (l, level) in self.levels.iter().enumerate() {
            if level.done {
                continue;
            }
            // The scratch state to the node of level `l`. A move is
            // applied where its node's moves were listed, as in the walk
            // (a problem may keep its listing in the state).
            while applied.len() > l {
                let m = applied.pop().expect("longer than l");
                problem.undo(scratch, &m);
            }
            while applied.len() < l {
                let at = applied.len();
                if listed != Some(at) {
                    problem.moves(scratch);
                }
                let taken = self.levels[at]
                    .taken
                    .clone()
                    .expect("a level above the deepest took a move");
                problem.apply(scratch, &taken);
                self.split_applies += 1;
                applied.push(taken);
            }
            listed = Some(l);
            let depth = depth0 + l + 1;
            let above = (base.depth() < keep).then(|| {
                path.extend(self.levels[path.len()..l].iter().map(|up| up.given - 1));
                base.join(&path)
            });
            let mut moves = problem.moves(scratch);
            let mut index = 0;
            let mut here = Vec::new();
            while let Some(m) = problem.next_move(scratch, &mut moves) {
                index += 1;
                if index <= level.given {
                    continue;
                }
                if floor.is_some_and(|f| problem.bound(scratch, &m) < f) {
                    // Pruned, as the walk would.
                    if P::BOUNDS_FALL {
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
            siblings.push((l, here));
        }
        // Half of everything unexplored, whole levels shallowest first.
        let left: usize = siblings.iter().map(|(_, here)| here.len()).sum();
        let want = left.div_ceil(2);
        let mut tasks: Vec<Task<P::Node>> = Vec::new();
        for (l, here) in siblings {
            if tasks.len() >= want {
                break;
            }
            // Nothing of this level is the walk's any more; a level that
            // had nothing left is as done.
            self.levels[l].done = true;
            tasks.extend(here);
        }
        if tasks.is_empty() {
            return false;
        }
        ctx.donate(tasks);
        true
    }
}

/// A context for a plain sequential search: nobody else wants work; stops
/// after `limit` solutions when the mode has one; collects solution texts.
pub(super) struct Sequential {
    limit: Option<u64>,
    pub found: Vec<String>,
    /// Optimisation: the best solution found, and its objective.
    pub best: Option<(u64, String)>,
}

impl<N> Context<N> for Sequential {
    fn stop(&self) -> bool {
        self.limit.is_some_and(|l| self.found.len() as u64 >= l)
    }
    fn wants_work(&self) -> bool {
        false
    }
    fn donate(&mut self, _tasks: Vec<Task<N>>) {
        unreachable!("a sequential search never asks for work")
    }
    fn found(&mut self, text: &str) {
        self.found.push(text.to_owned());
    }
    fn floor(&self) -> u64 {
        self.best.as_ref().map_or(0, |(v, _)| v + 1)
    }
    fn improved(&mut self, value: u64, text: &str) {
        self.best = Some((value, text.to_owned()));
    }
}

/// Runs the whole search on the calling thread. The reference against which
/// every parallel configuration is checked. Returns the counters and, in
/// the modes that keep solutions, the solutions found, rendered (in
/// [`Mode::Optimise`], one optimal solution, or none where no node is a
/// solution; its objective is [`optimum`]'s).
///
/// ```
/// use hysolve::engine::{Mode, sequential};
/// use hysolve::problems::queens::Queens;
///
/// let q = Queens::new(6, false).unwrap();
/// let (counted, _) = sequential(&q, Mode::Count);
/// assert_eq!(counted.solutions, 4);
/// let (_, first) = sequential(&q, Mode::First);
/// assert_eq!(first.len(), 1);
/// ```
pub fn sequential<P: Problem>(problem: &P, mode: Mode) -> (Counters, Vec<String>) {
    let (counters, mut ctx) = walk_alone(problem, mode);
    if mode == Mode::Optimise {
        ctx.found = ctx.best.map(|(_, text)| text).into_iter().collect();
    }
    (counters, ctx.found)
}

/// Runs a branch and bound ([`Mode::Optimise`]) on the calling thread:
/// the optimum and one optimal solution, rendered (`None` when no node is
/// a solution), and the counters. The reference for parallel runs.
pub fn optimum<P: Problem>(problem: &P) -> (Counters, Option<(u64, String)>) {
    let (counters, ctx) = walk_alone(problem, Mode::Optimise);
    (counters, ctx.best)
}

/// The whole tree in `mode` on the calling thread, as one task.
fn walk_alone<P: Problem>(problem: &P, mode: Mode) -> (Counters, Sequential) {
    let mut searcher = Searcher::new(problem, mode);
    let mut ctx = Sequential {
        limit: mode.stop_after(),
        found: Vec::new(),
        best: None,
    };
    let root = Task {
        prefix: Prefix::root(),
        depth: 0,
        node: problem.root(),
    };
    searcher.run(&root, &mut ctx);
    (searcher.counters(), ctx)
}

/// How many nodes per subtree asked for [`expand`] may visit: it stops at
/// the end of the level where it passes that many.
const EXPANSION_NODES_PER_TARGET: usize = 8;

/// Expands the root breadth-first until the frontier holds at least
/// `target` subtrees, cannot grow (only leaves left, or the count cut-off
/// reached), or the levels walked have visited more than
/// [`EXPANSION_NODES_PER_TARGET`] times `target` nodes (a tree whose
/// levels do not grow, as a critical binomial one, would otherwise be
/// walked here, on one thread). Returns the frontier in child order, what
/// visiting the expanded nodes counted, and the texts of solutions among
/// them (in modes that keep solutions; in [`Mode::Optimise`], the best
/// among them, with its objective).
pub(crate) fn expand<P: Problem>(problem: &P, mode: Mode, target: usize) -> Expansion<P::Node> {
    let mut visitor = Visitor::new(problem, mode);
    let mut ctx = Sequential {
        limit: None,
        found: Vec::new(),
        best: None,
    };
    let mut frontier = vec![Task {
        prefix: Prefix::root(),
        depth: 0,
        node: problem.root(),
    }];
    let mut depth = 0;
    let mut state = problem.state(mode);
    let budget = target.saturating_mul(EXPANSION_NODES_PER_TARGET) as u64;
    while frontier.len() < target && depth < visitor.cutoff && visitor.counters.nodes < budget {
        let mut next = Vec::new();
        for task in &frontier {
            problem.load(&mut state, &task.node);
            if !visitor.visit(&mut state, depth, &mut ctx).0 {
                continue;
            }
            let mut moves = problem.moves(&mut state);
            let mut i = 0;
            while let Some(m) = problem.next_move(&state, &mut moves) {
                if visitor.optimise && problem.bound(&state, &m) < Context::<P::Node>::floor(&ctx) {
                    if P::BOUNDS_FALL {
                        break;
                    }
                    i += 1;
                    continue;
                }
                problem.apply(&mut state, &m);
                next.push(Task {
                    prefix: task.prefix.child(i),
                    depth: depth + 1,
                    node: problem.save(&state),
                });
                problem.undo(&mut state, &m);
                i += 1;
            }
        }
        frontier = next;
        depth += 1;
        if frontier.is_empty() {
            break;
        }
    }
    let counters = Counters {
        depth: deeper(visitor.counters.depth, visitor.task_depth),
        ..visitor.counters
    };
    Expansion {
        frontier,
        counted: counters,
        found: ctx.found,
        best: ctx.best,
    }
}

/// What [`expand`] returns.
pub(crate) struct Expansion<N> {
    /// The subtrees left, in child order.
    pub frontier: Vec<Task<N>>,
    /// What visiting the expanded nodes counted.
    pub counted: Counters,
    /// The solutions among them (modes that keep solutions).
    pub found: Vec<String>,
    /// Optimisation: the best solution among them, with its objective.
    pub best: Option<(u64, String)>,
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::engine::problem::Tree;

    /// A path of `len` nodes: every level holds one.
    struct Path {
        len: u32,
    }

    impl Tree for Path {
        type Node = u32;
        fn name(&self) -> &'static str {
            "path"
        }
        fn instance(&self) -> String {
            self.len.to_string()
        }
        fn root(&self) -> u32 {
            0
        }
        fn children(&self, &d: &u32, out: &mut Vec<u32>) {
            if d + 1 < self.len {
                out.push(d + 1);
            }
        }
        fn solution_weight(&self, &d: &u32) -> u64 {
            u64::from(d + 1 == self.len)
        }
        fn render(&self, d: &u32, out: &mut String) {
            out.push_str(&d.to_string());
        }
    }

    #[test]
    fn the_expansion_of_levels_that_do_not_grow_stops_at_its_budget() {
        let path = Path { len: 1_000_000 };
        let Expansion {
            frontier, counted, ..
        } = expand(&path, Mode::Count, 16);
        assert_eq!(frontier.len(), 1);
        assert_eq!(counted.nodes, 16 * EXPANSION_NODES_PER_TARGET as u64);
        assert_eq!(frontier[0].depth, 128);
        // The walk from there counts the rest, once.
        let (whole, _) = sequential(&path, Mode::Count);
        assert_eq!((whole.nodes, whole.solutions), (1_000_000, 1));
    }

    /// A random tree walked in place: a node is its depth and a hash of
    /// its path, a move a number, and `undo` inverts `apply` with the move
    /// (a scratch state that took a wrong move stands on another node, so
    /// it lists other siblings, of other hashes). Leaves are solutions.
    struct Hashed;

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
        type Moves = u64;
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
        fn moves(&self, state: &mut Walked) -> u64 {
            state.listed |= 1 << state.at.0;
            0
        }
        fn next_move(&self, state: &Walked, next: &mut u64) -> Option<u64> {
            let (depth, hash) = state.at;
            // Up to 4 children; none past depth 14.
            let kids = if depth >= 14 {
                0
            } else {
                (hash.wrapping_mul(0xD6E8_FEB8_6659_FD93) >> 59) % 5
            };
            (*next < kids).then(|| {
                *next += 1;
                *next
            })
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
            u64::from(self.next_move(state, &mut 0).is_none())
        }
        fn render(&self, state: &Walked, out: &mut String) {
            let (depth, hash) = state.at;
            out.push_str(&format!("{depth} {hash:016x}"));
        }
    }

    /// Wants work at a pseudo-random third of its looks, and keeps what a
    /// split gives in a queue, with the solutions found.
    struct Greedy {
        seed: u64,
        queue: Vec<Task<(u32, u64)>>,
        found: Vec<String>,
        splits: u64,
    }

    impl Context<(u32, u64)> for Greedy {
        fn stop(&self) -> bool {
            false
        }
        fn wants_work(&self) -> bool {
            // The seed moves in `donate` (xorshift) and in `found`, so the
            // pattern shifts as the walk goes.
            (self.seed >> 17).is_multiple_of(3)
        }
        fn donate(&mut self, tasks: Vec<Task<(u32, u64)>>) {
            self.splits += 1;
            self.seed ^= self.seed << 13;
            self.seed ^= self.seed >> 7;
            self.seed ^= self.seed << 17;
            self.queue.extend(tasks);
        }
        fn found(&mut self, text: &str) {
            self.seed = self.seed.wrapping_mul(MUL).wrapping_add(1);
            self.found.push(text.to_owned());
        }
    }

    #[test]
    fn the_inverse_multiplier_inverts() {
        assert_eq!(MUL.wrapping_mul(INV), 1);
    }

    /// Splits of walks in place, forced over and over, with pauses between
    /// and the walk backing up between them (so the scratch state is kept,
    /// taken back and brought down again): every split-off subtree is
    /// exactly the part of the tree the walk did not visit.
    #[test]
    fn splits_give_away_exactly_what_the_walk_leaves() {
        let (whole, mut reference) = walk_alone(&Hashed, Mode::All);
        reference.found.sort();
        assert!(whole.nodes > 10_000, "a tree of {} nodes", whole.nodes);
        for seed in 1..=16u64 {
            let mut ctx = Greedy {
                seed: seed.wrapping_mul(MUL),
                queue: vec![Task {
                    prefix: Prefix::root(),
                    depth: 0,
                    node: Hashed.root(),
                }],
                found: Vec::new(),
                splits: 0,
            };
            // One searcher for every task, as a worker keeps one.
            let mut s = Searcher::new(&Hashed, Mode::All);
            while let Some(task) = ctx.queue.pop() {
                if s.begin(&task, &mut ctx) {
                    while !s.resume(&task, &mut ctx, 700 + seed * 13) {}
                }
            }
            let at = format!("seed {seed}");
            assert!(ctx.splits > 20, "{at}: {} splits", ctx.splits);
            assert_eq!(s.counters().nodes, whole.nodes, "{at}");
            assert_eq!(s.counters().solutions, whole.solutions, "{at}");
            ctx.found.sort();
            assert_eq!(ctx.found, reference.found, "{at}");
        }
    }

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
