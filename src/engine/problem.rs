//! The one interface between a puzzle and the engine: a search in place
//! ([`Problem`]), or a tree of cloned nodes ([`Tree`]) expressed on it.

use super::count::Count;
use super::mode::Mode;
use super::walk::{Frames, values};

/// A search problem: a tree of partial solutions with a fixed child order,
/// walked in place.
///
/// Each worker owns a [`Problem::State`], made by [`Problem::state`]: the
/// node it stands on, and any scratch space the search needs. The engine
/// moves it down the tree by [`Problem::apply`] and back up by
/// [`Problem::undo`], on the worker's explicit stack of
/// [`Problem::moves`]; nothing is cloned between nodes (but for a count
/// of a problem that gives its children by value, [`Problem::child`]).
///
/// Work leaves a worker as a [`Problem::Node`]: a snapshot of a state,
/// taken by [`Problem::save`] and entered by [`Problem::load`] on another
/// worker. Because the moves come in a fixed order, a path of move
/// indices from the root (a [`Prefix`]) names the same node on every rank
/// and in every run, which is how work crosses process boundaries when
/// nodes are not encoded.
///
/// A problem that prefers to clone its nodes implements [`Tree`] instead,
/// and gets this trait from it. A problem with an objective implements
/// [`Optimise`](crate::Optimise) beside it, for a branch and bound.
///
/// [`Prefix`]: crate::engine::Prefix
pub trait Problem: Send + Sync + 'static {
    /// A snapshot of a state: what a task carries. Cloned when work is
    /// split, so keep it small.
    type Node: Clone + Send + 'static;

    /// A worker's state: the node it stands on, and its scratch space.
    type State: Send + 'static;

    /// One branch from a node to a child.
    type Move: Clone + Send + 'static;

    /// Where the listing of a node's moves stands: a cursor that
    /// [`Problem::next_move`] advances (the next number to try, an index
    /// into a list the state holds, ...). Small: one is kept per level of
    /// the walk.
    type Cursor: Clone + Send + 'static;

    /// Whether [`Problem::encode`] and [`Problem::decode`] carry nodes
    /// between ranks. Then work travels as the node itself and a task's
    /// prefix is kept only down to the master's initial depth (its unit):
    /// nothing is replayed from the root, and splitting a deep walk costs
    /// no more than a shallow one.
    const ENCODES: bool = false;

    /// Appends `node` as bytes that [`Problem::decode`] turns back into it
    /// (on another rank of the same instance). Only called when
    /// [`Problem::ENCODES`].
    fn encode(&self, node: &Self::Node, out: &mut Vec<u8>) {
        let _ = (node, out);
        unreachable!("encode called on a problem that does not encode its nodes")
    }

    /// The node [`Problem::encode`] wrote, or `None` for bytes it could
    /// not have written.
    fn decode(&self, bytes: &[u8]) -> Option<Self::Node> {
        let _ = bytes;
        None
    }

    /// The problem's name in reports and checkpoints (`queens`,
    /// `hitori`, ...). The default: the type's name, without its path.
    fn name(&self) -> &'static str {
        short_type_name::<Self>()
    }

    /// A short description of the instance (`14`, a file name, ...), in
    /// reports and checkpoints. The default: none.
    fn instance(&self) -> String {
        String::new()
    }

    /// The empty partial solution.
    fn root(&self) -> Self::Node;

    /// A new worker's state for a search in `mode`, standing anywhere: the
    /// engine loads a node into it before each walk. The same mode on
    /// every worker of a run, so the tree may depend on it (folding
    /// symmetric solutions into one counted with a weight, in
    /// [`Mode::Count`], is part of counting).
    fn state(&self, mode: Mode) -> Self::State;

    /// Puts `state` on `node`, whatever it stood on before.
    fn load(&self, state: &mut Self::State, node: &Self::Node);

    /// The node `state` stands on.
    fn save(&self, state: &Self::State) -> Self::Node;

    /// Starts listing the moves from the node `state` stands on to its
    /// children. Leaves the node as it was (`state` is mutable for
    /// scratch space, such as a list of moves the cursor indexes).
    fn moves(&self, state: &mut Self::State) -> Self::Cursor;

    /// The next move of the listing `moves` started, always in the same
    /// order, or `None` when there is no more. Called with `state` on the
    /// node [`Problem::moves`] was called on (the walk undoes a move
    /// before it asks for the next).
    fn next_move(&self, state: &Self::State, moves: &mut Self::Cursor) -> Option<Self::Move>;

    /// How many moves the listing `moves` has still to give, where the
    /// cursor knows it without its node (`None`, the default, where it
    /// does not). A walk split for a thief then counts what it leaves
    /// from its listings alone and builds only the half it gives away;
    /// without it, a split builds every level's siblings to count them
    /// (`engine/walk/split.rs`).
    #[inline(always)]
    fn moves_left(&self, moves: &Self::Cursor) -> Option<u64> {
        let _ = moves;
        None
    }

    /// Moves `state` from a node to its child by `m`, one of the node's
    /// moves ([`Problem::next_move`]).
    fn apply(&self, state: &mut Self::State, m: &Self::Move);

    /// Takes back [`Problem::apply`] of `m`: `state` stands on the parent
    /// again, exactly as before.
    fn undo(&self, state: &mut Self::State, m: &Self::Move);

    /// Optional: the state [`Problem::apply`] of `m` would make of
    /// `state`, as a new value, `state` left as it is (the default:
    /// `None`, not given). A problem whose state is a few words of `Copy`
    /// data gives it as `Some(child)`; a count then walks below its stack
    /// with each node's state a value of its own frame (in registers),
    /// where it would apply and undo each move on one state in memory
    /// (`engine/README.md`, "Children by value"). Every field that
    /// [`Problem::undo`], the listings and the weights read must be what
    /// `apply` makes: the walk goes on from such a state, by `apply` and
    /// `undo`, when a split or a pause needs it.
    /// [`check`](crate::engine::check) compares each child with the
    /// applied move (saved, weighed, and its number of moves), and a field
    /// that none of those show only by the totals of its split walks in
    /// count mode. A count cut-off ([`Problem::count_cutoff`]) walks the
    /// levels above it without these frames, so it pays only with a kernel
    /// of its own.
    #[inline(always)]
    fn child(&self, state: &Self::State, m: &Self::Move) -> Option<Self::State> {
        let _ = (state, m);
        None
    }

    /// How many solutions the node `state` stands on stands for: 0 when it
    /// is not a solution, usually 1, more where counting folds symmetric
    /// solutions together.
    fn solution_weight(&self, state: &Self::State) -> u64;

    /// Writes the solution `state` stands on in the problem's text format
    /// (no trailing blank line).
    fn render(&self, state: &Self::State, out: &mut String);

    /// Depth at which, in count mode, the engine stops walking and hands
    /// the whole subtree to [`Problem::count_subtree`], a specialised
    /// kernel. `None` (the default): the walk goes all the way down. Worth
    /// it only where it measurably pays: a count's walk costs about half a
    /// nanosecond a node beyond the problem's own methods
    /// (`engine/README.md`, "The count's dive"), and the default
    /// [`Problem::count_subtree`] is barely faster than the walk (slower
    /// than the walk of a problem that gives [`Problem::child`]), so a
    /// cut-off pays only with a kernel that does more than the moves.
    fn count_cutoff(&self) -> Option<usize> {
        None
    }

    /// The cut-off of a run of `workers` workers in all (every rank's
    /// threads). A subtree counted whole is never split, so where the
    /// subtrees at [`Problem::count_cutoff`] are too few for a large run
    /// (a heavy one among them would hold its tail), a problem may cut
    /// deeper there. Every worker of a run and its expansion use the same
    /// depth; counts are the same at any depth, since
    /// [`Problem::count_subtree`] counts the walk's tree. The default:
    /// [`Problem::count_cutoff`], whatever the run.
    fn count_cutoff_for(&self, workers: usize) -> Option<usize> {
        let _ = workers;
        self.count_cutoff()
    }

    /// Counts the subtree under the node `state` stands on (the node
    /// included) and leaves `state` there. Must visit the same tree as the
    /// walk: the same weighted solutions and the same number of nodes
    /// (and the same depth, when it reports one); the tests of each kernel
    /// hold it to that. The default walks the tree by the moves.
    fn count_subtree(&self, state: &mut Self::State) -> Count {
        count_by_moves(self, state)
    }

    /// The engine's hook for a count's walk below its stack of levels
    /// (`walk/dive.rs`): walks the subtree below the node `state` stands
    /// on, `m` the first move of its listing `moves`, by the frames of
    /// `frames`. A [`ScratchTree`] (every [`Tree`]) overrides it to walk its children as values
    /// (`walk/values.rs`); a problem has no reason to, and cannot name
    /// [`Frames`]' implementations.
    #[doc(hidden)]
    #[inline(always)]
    fn dive<F: Frames<Self>>(
        &self,
        frames: &mut F,
        state: &mut Self::State,
        moves: Self::Cursor,
        m: Self::Move,
        room: usize,
        left: i64,
    ) -> i64
    where
        Self: Sized,
    {
        frames.frame(state, moves, m, room, left)
    }

    // The engine's hooks for a branch and bound (`Mode::Optimise`),
    // hidden: a problem optimises by implementing `Optimise` (or
    // `OptimiseTree`), and the engine runs it as an `Optimising`, whose
    // hooks are that trait's methods (`optimise.rs`). Every other problem
    // keeps these defaults: no objective, nothing bounded; a count never
    // calls them.

    /// Whether the hooks are an `Optimise`'s (`Optimising`'s alone):
    /// optimise mode refuses a problem without.
    #[doc(hidden)]
    const OPTIMISES: bool = false;

    /// `Optimise::BOUNDS_FALL`.
    #[doc(hidden)]
    const OPTIMISE_BOUNDS_FALL: bool = false;

    /// `Optimise::objective`.
    #[doc(hidden)]
    #[inline(always)]
    fn optimise_objective(&self, state: &Self::State) -> Option<u64> {
        let _ = state;
        None
    }

    /// `Optimise::bound`.
    #[doc(hidden)]
    #[inline(always)]
    fn optimise_bound(&self, state: &Self::State, m: &Self::Move) -> u64 {
        let _ = (state, m);
        u64::MAX
    }

    /// `Optimise::moves_above`.
    #[doc(hidden)]
    #[inline(always)]
    fn optimise_moves_above(&self, state: &mut Self::State, floor: u64) -> Self::Cursor {
        let _ = floor;
        self.moves(state)
    }

    /// `Optimise::heuristic`.
    #[doc(hidden)]
    fn optimise_heuristic(&self, effort: u64, seed: u64) -> Option<(u64, String)> {
        let _ = (effort, seed);
        None
    }
}

/// The name of type `T` without its path (`Queens` for
/// `hysolve_puzzles::queens::Queens`, `Grid<3>` for a generic one).
fn short_type_name<T: ?Sized>() -> &'static str {
    let full = std::any::type_name::<T>();
    let plain = full.split('<').next().unwrap_or(full);
    match plain.rfind("::") {
        Some(i) => &full[i + 2..],
        None => full,
    }
}

/// Writes [`Problem::state`], [`Problem::load`] and [`Problem::save`] for a
/// problem whose state is its node (`type State = Self::Node`, a `Clone`
/// type): the state is the root at first, and a copy of the node loaded.
/// Put it inside the `impl Problem` block.
///
/// ```
/// use hysolve::{Problem, state_is_node};
///
/// /// The strings of `n` bits.
/// struct Strings(u32);
///
/// impl Problem for Strings {
///     type Node = (u32, u64);
///     type State = (u32, u64);
///     type Move = u64;
///     type Cursor = u64;
///     state_is_node!();
///     fn root(&self) -> (u32, u64) { (0, 0) }
///     fn moves(&self, s: &mut (u32, u64)) -> u64 { if s.0 < self.0 { 0 } else { 2 } }
///     fn next_move(&self, _: &(u32, u64), next: &mut u64) -> Option<u64> {
///         (*next < 2).then(|| { *next += 1; *next - 1 })
///     }
///     fn apply(&self, s: &mut (u32, u64), &b: &u64) { *s = (s.0 + 1, s.1 << 1 | b) }
///     fn undo(&self, s: &mut (u32, u64), _: &u64) { *s = (s.0 - 1, s.1 >> 1) }
///     fn solution_weight(&self, s: &(u32, u64)) -> u64 { u64::from(s.0 == self.0) }
///     fn render(&self, s: &(u32, u64), out: &mut String) { out.push_str(&s.1.to_string()) }
/// }
///
/// assert_eq!(hysolve::check(&Strings(6)).unwrap().solutions, 64);
/// assert_eq!(Strings(6).name(), "Strings");
/// ```
#[macro_export]
macro_rules! state_is_node {
    () => {
        fn state(&self, _: $crate::Mode) -> Self::State {
            $crate::Problem::root(self)
        }
        fn load(&self, state: &mut Self::State, node: &Self::Node) {
            state.clone_from(node);
        }
        fn save(&self, state: &Self::State) -> Self::Node {
            state.clone()
        }
    };
}

/// Counts the subtree under the node `state` stands on (the node
/// included, `state` left there) by the moves alone, recursively: what
/// [`Problem::count_subtree`] does by default, and what a kernel's tests
/// hold it to.
pub fn count_by_moves<P: Problem + ?Sized>(p: &P, state: &mut P::State) -> Count {
    /// Walks the children of the node `state` stands on, at `depth`,
    /// whose listing `moves` has just given `m`. Returns their nodes and
    /// solutions with their subtrees', and the deepest depth, by value
    /// (in registers: `cheap_nodes cutoff 38` took 0.350 s adding to a
    /// total behind a reference, 0.294 s so; `engine/README.md`). A
    /// child's first move is asked for before the call for its children,
    /// so a leaf costs no call.
    #[inline]
    fn children<P: Problem + ?Sized>(
        p: &P,
        state: &mut P::State,
        depth: u64,
        mut moves: P::Cursor,
        mut m: P::Move,
    ) -> (u64, u64, u64) {
        let (mut nodes, mut sols, mut deep) = (0u64, 0u64, depth + 1);
        loop {
            p.apply(state, &m);
            nodes += 1;
            sols += p.solution_weight(state);
            let mut below = p.moves(state);
            if let Some(first) = p.next_move(state, &mut below) {
                let (a, b, c) = children(p, state, depth + 1, below, first);
                nodes += a;
                sols += b;
                deep = deep.max(c);
            }
            p.undo(state, &m);
            match p.next_move(state, &mut moves) {
                Some(next) => m = next,
                None => return (nodes, sols, deep),
            }
        }
    }
    let mut total = (1, p.solution_weight(state), 0);
    let mut moves = p.moves(state);
    if let Some(first) = p.next_move(state, &mut moves) {
        let (a, b, c) = children(p, state, 0, moves, first);
        total = (total.0 + a, total.1 + b, c);
    }
    Count {
        nodes: total.0,
        solutions: total.1,
        depth: Some(total.2),
    }
}

/// A search problem whose nodes are values: each child is a new node.
/// Simpler to write than [`Problem`], which every `Tree` is (its state is
/// the path of nodes from the task's root), at the cost of a node's
/// construction for every child: a count of nodes of a few bit
/// operations runs about 1.6 times a plain recursion of its own, where
/// the same search on `Problem` runs about 1.2 times it
/// (`engine/README.md`, "A `Tree`'s frames"). A tree whose workers need
/// scratch space of their own implements [`ScratchTree`] instead; a tree
/// with an objective implements [`OptimiseTree`](crate::OptimiseTree)
/// beside it.
///
/// ```
/// use hysolve::{Mode, RunConfig, Solutions, Tree, run};
///
/// /// The ways to climb `n` stairs by steps of 1 or 2: a node is the
/// /// stairs climbed so far.
/// struct Stairs(u32);
///
/// impl Tree for Stairs {
///     type Node = u32;
///     fn root(&self) -> u32 { 0 }
///     fn children(&self, &at: &u32, out: &mut Vec<u32>) {
///         out.extend([at + 1, at + 2].into_iter().filter(|&c| c <= self.0));
///     }
///     fn solution_weight(&self, &at: &u32) -> u64 { u64::from(at == self.0) }
///     fn render(&self, at: &u32, out: &mut String) { out.push_str(&at.to_string()) }
/// }
///
/// let config = RunConfig::new(Mode::Count).threads(2);
/// let outcome = run(std::sync::Arc::new(Stairs(30)), &config, Solutions::Discard);
/// assert_eq!(outcome.unwrap().unwrap().solutions, 1_346_269); // Fibonacci
/// ```
pub trait Tree: Send + Sync + 'static {
    /// A partial solution. Cloned when work is split, so keep it small.
    type Node: Clone + Send + 'static;

    /// As [`Problem::ENCODES`].
    const ENCODES: bool = false;

    /// As [`Problem::encode`].
    fn encode(&self, node: &Self::Node, out: &mut Vec<u8>) {
        let _ = (node, out);
        unreachable!("encode called on a problem that does not encode its nodes")
    }

    /// As [`Problem::decode`].
    fn decode(&self, bytes: &[u8]) -> Option<Self::Node> {
        let _ = bytes;
        None
    }

    /// As [`Problem::name`] (the default: the type's name).
    fn name(&self) -> &'static str {
        short_type_name::<Self>()
    }

    /// As [`Problem::instance`] (the default: none).
    fn instance(&self) -> String {
        String::new()
    }

    /// The empty partial solution.
    fn root(&self) -> Self::Node;

    /// Appends the children of `node` to `out`, always in the same order.
    /// `out` is empty on entry.
    fn children(&self, node: &Self::Node, out: &mut Vec<Self::Node>);

    /// How many solutions `node` stands for (as
    /// [`Problem::solution_weight`]).
    fn solution_weight(&self, node: &Self::Node) -> u64;

    /// Writes a solution node in the problem's text format (no trailing
    /// blank line).
    fn render(&self, node: &Self::Node, out: &mut String);

    /// As [`Problem::count_cutoff`].
    fn count_cutoff(&self) -> Option<usize> {
        None
    }

    /// Counts the subtree under `node`, as [`Problem::count_subtree`]
    /// (the same tree as the walk). The default walks it.
    fn count_subtree(&self, node: &Self::Node) -> Count {
        let mut total = Count {
            depth: Some(0),
            ..Count::default()
        };
        let mut stack = vec![(node.clone(), 0)];
        let mut buf = Vec::new();
        while let Some((n, d)) = stack.pop() {
            total.nodes += 1;
            total.solutions += self.solution_weight(&n);
            total.depth = total.depth.max(Some(d));
            buf.clear();
            self.children(&n, &mut buf);
            stack.extend(buf.drain(..).map(|c| (c, d + 1)));
        }
        total
    }
}

/// A [`Tree`] whose workers each keep scratch space of their own: the
/// buffers a node's children are worked out in, a table a subtree is
/// counted in, or what the run's mode makes of the tree. Every `Tree` is
/// one, with no scratch (`()`), so a problem implements `Tree`, or this
/// where it needs scratch (hitori's propagation buffers, magic's tables
/// by lines), never both. The engine walks a `ScratchTree` as it walks a
/// `Tree`, and gives each worker one [`ScratchTree::Scratch`], made once
/// by [`ScratchTree::scratch`] and lent to each call that may use it.
///
/// ```
/// use hysolve::{Mode, ScratchTree, check};
///
/// /// The ways to climb `n` stairs by steps of 1 or 2, each step's
/// /// candidates gathered in the worker's buffer.
/// struct Stairs(u32);
///
/// impl ScratchTree for Stairs {
///     type Node = u32;
///     type Scratch = Vec<u32>;
///     fn root(&self) -> u32 { 0 }
///     fn scratch(&self, _: Mode) -> Vec<u32> { Vec::with_capacity(2) }
///     fn children(&self, &at: &u32, out: &mut Vec<u32>, steps: &mut Vec<u32>) {
///         steps.clear();
///         steps.extend([at + 1, at + 2]);
///         out.extend(steps.iter().filter(|&&c| c <= self.0));
///     }
///     fn solution_weight(&self, &at: &u32, _: &Vec<u32>) -> u64 { u64::from(at == self.0) }
///     fn render(&self, at: &u32, out: &mut String) { out.push_str(&at.to_string()) }
/// }
///
/// assert_eq!(check(&Stairs(20)).unwrap().solutions, 10_946); // Fibonacci
/// ```
pub trait ScratchTree: Send + Sync + 'static {
    /// As [`Tree::Node`].
    type Node: Clone + Send + 'static;

    /// A worker's scratch space: whatever its calls to
    /// [`ScratchTree::children`], [`ScratchTree::solution_weight`] and
    /// [`ScratchTree::count_subtree`] share. What they leave in it must
    /// not change what they give later: a node's children and weight are
    /// the same on every worker.
    type Scratch: Send + 'static;

    /// As [`Problem::ENCODES`].
    const ENCODES: bool = false;

    /// As [`Problem::encode`].
    fn encode(&self, node: &Self::Node, out: &mut Vec<u8>) {
        let _ = (node, out);
        unreachable!("encode called on a problem that does not encode its nodes")
    }

    /// As [`Problem::decode`].
    fn decode(&self, bytes: &[u8]) -> Option<Self::Node> {
        let _ = bytes;
        None
    }

    /// As [`Problem::name`] (the default: the type's name).
    fn name(&self) -> &'static str {
        short_type_name::<Self>()
    }

    /// As [`Problem::instance`] (the default: none).
    fn instance(&self) -> String {
        String::new()
    }

    /// The empty partial solution.
    fn root(&self) -> Self::Node;

    /// A new worker's scratch, for a search in `mode` (the same on every
    /// worker of a run, as [`Problem::state`]).
    fn scratch(&self, mode: Mode) -> Self::Scratch;

    /// As [`Tree::children`], with the worker's scratch.
    fn children(&self, node: &Self::Node, out: &mut Vec<Self::Node>, scratch: &mut Self::Scratch);

    /// As [`Tree::solution_weight`], with the worker's scratch.
    fn solution_weight(&self, node: &Self::Node, scratch: &Self::Scratch) -> u64;

    /// As [`Tree::render`].
    fn render(&self, node: &Self::Node, out: &mut String);

    /// As [`Problem::count_cutoff`].
    fn count_cutoff(&self) -> Option<usize> {
        None
    }

    /// As [`Problem::count_cutoff_for`].
    fn count_cutoff_for(&self, workers: usize) -> Option<usize> {
        let _ = workers;
        self.count_cutoff()
    }

    /// As [`Tree::count_subtree`], with the worker's scratch. The default
    /// walks the subtree.
    fn count_subtree(&self, node: &Self::Node, scratch: &mut Self::Scratch) -> Count {
        let mut total = Count {
            depth: Some(0),
            ..Count::default()
        };
        let mut stack = vec![(node.clone(), 0)];
        let mut buf = Vec::new();
        while let Some((n, d)) = stack.pop() {
            total.nodes += 1;
            total.solutions += self.solution_weight(&n, scratch);
            total.depth = total.depth.max(Some(d));
            buf.clear();
            self.children(&n, &mut buf, scratch);
            stack.extend(buf.drain(..).map(|c| (c, d + 1)));
        }
        total
    }
}

/// A [`Tree`] is a [`ScratchTree`] with no scratch.
impl<T: Tree> ScratchTree for T {
    type Node = T::Node;
    type Scratch = ();

    const ENCODES: bool = T::ENCODES;

    fn encode(&self, node: &T::Node, out: &mut Vec<u8>) {
        Tree::encode(self, node, out)
    }
    fn decode(&self, bytes: &[u8]) -> Option<T::Node> {
        Tree::decode(self, bytes)
    }
    fn name(&self) -> &'static str {
        Tree::name(self)
    }
    fn instance(&self) -> String {
        Tree::instance(self)
    }
    fn root(&self) -> T::Node {
        Tree::root(self)
    }
    fn scratch(&self, _: Mode) {}
    #[inline(always)]
    fn children(&self, node: &T::Node, out: &mut Vec<T::Node>, _: &mut ()) {
        Tree::children(self, node, out)
    }
    #[inline(always)]
    fn solution_weight(&self, node: &T::Node, _: &()) -> u64 {
        Tree::solution_weight(self, node)
    }
    fn render(&self, node: &T::Node, out: &mut String) {
        Tree::render(self, node, out)
    }
    fn count_cutoff(&self) -> Option<usize> {
        Tree::count_cutoff(self)
    }
    fn count_subtree(&self, node: &T::Node, _: &mut ()) -> Count {
        Tree::count_subtree(self, node)
    }
}

/// A [`ScratchTree`]'s state: the task's node, the children of each node
/// on the path down from it (one list per depth), where the node it
/// stands on lies in its depth's list, and the worker's scratch. Nothing
/// is cloned on the way down: the node the state stands on is a child in
/// its parent's list, and a move (a [`PathMove`]) says where that child
/// lies and where its parent does, so that going down and back up changes
/// two numbers.
pub struct Path<N, S = ()> {
    /// The task's node (alone in `lists[0]`), then the children of the
    /// node at each depth of the path.
    pub(super) lists: Vec<Vec<N>>,
    /// The depth of the node the state stands on.
    pub(super) depth: u32,
    /// Where it lies in its depth's list.
    pub(super) here: u32,
    /// The worker's scratch ([`ScratchTree::Scratch`]).
    pub(super) scratch: S,
}

/// Where a [`Path`]'s listing of a node's children stands: the next
/// child's place in its list, the list's length, and where the parent
/// lies in its own.
#[derive(Clone, Copy, Debug)]
pub struct PathCursor {
    pub(super) next: u32,
    pub(super) end: u32,
    pub(super) parent: u32,
}

/// A move of a [`Path`]: down to the child at `child` in its depth's
/// list, from the parent at `parent` in its own (for the way back up).
#[derive(Clone, Copy, Debug)]
pub struct PathMove {
    pub(super) child: u32,
    pub(super) parent: u32,
}

impl<N, S: Default> Default for Path<N, S> {
    fn default() -> Self {
        Path::new(S::default())
    }
}

impl<N, S> Path<N, S> {
    /// A path standing nowhere, with `scratch`.
    pub(super) fn new(scratch: S) -> Self {
        Path {
            lists: Vec::new(),
            depth: 0,
            here: 0,
            scratch,
        }
    }
}

impl<N: Clone, S> Path<N, S> {
    /// The node the state stands on.
    #[inline]
    pub(super) fn top(&self) -> &N {
        &self.lists[self.depth as usize][self.here as usize]
    }

    /// Stands on `node` ([`Problem::load`]).
    pub(super) fn load(&mut self, node: &N) {
        if self.lists.is_empty() {
            self.lists.push(Vec::new());
        }
        self.lists[0].clear();
        self.lists[0].push(node.clone());
        self.depth = 0;
        self.here = 0;
    }

    /// Lists the children of the node it stands on, by `children` (called
    /// with the node, an empty list to fill and the scratch), and starts
    /// the listing ([`Problem::moves`]).
    #[inline(always)]
    pub(super) fn moves(&mut self, children: impl FnOnce(&N, &mut Vec<N>, &mut S)) -> PathCursor {
        let d = self.depth as usize;
        if self.lists.len() <= d + 1 {
            self.deeper(d + 2);
        }
        let (above, below) = self.lists.split_at_mut(d + 1);
        let out = &mut below[0];
        out.clear();
        children(&above[d][self.here as usize], out, &mut self.scratch);
        PathCursor {
            next: 0,
            end: out.len() as u32,
            parent: self.here,
        }
    }

    /// Lists for `lists` depths, where there are fewer: the depth below
    /// the deepest yet for a listing, as many as a `Tree`'s dive may list
    /// (`walk/values.rs`). Out of the walk's loop, which it would
    /// otherwise keep from inlining the listing.
    #[cold]
    #[inline(never)]
    pub(super) fn deeper(&mut self, lists: usize) {
        self.lists.resize_with(lists, Vec::new);
    }

    /// The next child ([`Problem::next_move`]).
    #[inline]
    pub(super) fn next_move(&self, moves: &mut PathCursor) -> Option<PathMove> {
        let child = moves.next;
        (child < moves.end).then(|| {
            moves.next = child + 1;
            PathMove {
                child,
                parent: moves.parent,
            }
        })
    }

    /// The child that move `m` goes down to, before it is taken (for
    /// [`OptimiseTree::bound`](crate::engine::OptimiseTree::bound)).
    #[inline]
    pub(crate) fn child(&self, m: &PathMove) -> &N {
        &self.lists[self.depth as usize + 1][m.child as usize]
    }

    /// Goes down to the child `m` ([`Problem::apply`]).
    #[inline]
    pub(super) fn apply(&mut self, m: &PathMove) {
        self.depth += 1;
        self.here = m.child;
    }

    /// Comes back up from the child `m` ([`Problem::undo`]).
    #[inline]
    pub(super) fn undo(&mut self, m: &PathMove) {
        self.depth -= 1;
        self.here = m.parent;
    }
}

/// A [`ScratchTree`] (every [`Tree`]) walked in place: the state is the
/// path of nodes with the worker's scratch, a move the place of a child
/// among the children of the node it leaves.
impl<T: ScratchTree> Problem for T {
    type Node = T::Node;
    type State = Path<T::Node, T::Scratch>;
    type Move = PathMove;
    type Cursor = PathCursor;

    const ENCODES: bool = T::ENCODES;

    fn encode(&self, node: &T::Node, out: &mut Vec<u8>) {
        ScratchTree::encode(self, node, out)
    }
    fn decode(&self, bytes: &[u8]) -> Option<T::Node> {
        ScratchTree::decode(self, bytes)
    }
    fn name(&self) -> &'static str {
        ScratchTree::name(self)
    }
    fn instance(&self) -> String {
        ScratchTree::instance(self)
    }
    fn root(&self) -> T::Node {
        ScratchTree::root(self)
    }
    fn state(&self, mode: Mode) -> Self::State {
        Path::new(self.scratch(mode))
    }
    fn load(&self, path: &mut Self::State, node: &T::Node) {
        path.load(node)
    }
    fn save(&self, path: &Self::State) -> T::Node {
        path.top().clone()
    }
    #[inline(always)]
    fn moves(&self, path: &mut Self::State) -> PathCursor {
        path.moves(|node, out, scratch| ScratchTree::children(self, node, out, scratch))
    }
    #[inline]
    fn next_move(&self, path: &Self::State, moves: &mut PathCursor) -> Option<PathMove> {
        path.next_move(moves)
    }
    #[inline]
    fn apply(&self, path: &mut Self::State, m: &PathMove) {
        path.apply(m)
    }
    #[inline]
    fn undo(&self, path: &mut Self::State, m: &PathMove) {
        path.undo(m)
    }
    #[inline]
    fn solution_weight(&self, path: &Self::State) -> u64 {
        ScratchTree::solution_weight(self, path.top(), &path.scratch)
    }
    fn render(&self, path: &Self::State, out: &mut String) {
        ScratchTree::render(self, path.top(), out)
    }
    fn count_cutoff(&self) -> Option<usize> {
        ScratchTree::count_cutoff(self)
    }
    fn count_cutoff_for(&self, workers: usize) -> Option<usize> {
        ScratchTree::count_cutoff_for(self, workers)
    }
    fn count_subtree(&self, path: &mut Self::State) -> Count {
        let node = &path.lists[path.depth as usize][path.here as usize];
        ScratchTree::count_subtree(self, node, &mut path.scratch)
    }
    #[inline(always)]
    fn dive<F: Frames<Self>>(
        &self,
        frames: &mut F,
        path: &mut Self::State,
        moves: PathCursor,
        m: PathMove,
        room: usize,
        left: i64,
    ) -> i64 {
        values::dive(self, frames, path, moves, m, room, left)
    }
}

/// Starts the listing of the node `state` stands on as the engine's walks
/// list it: told the floor in a branch and bound (`Some`, by
/// [`Optimise::moves_above`](crate::engine::Optimise::moves_above)), by
/// [`Problem::moves`] otherwise.
#[inline(always)]
pub(crate) fn listing<P: Problem + ?Sized>(
    p: &P,
    state: &mut P::State,
    floor: Option<u64>,
) -> P::Cursor {
    match floor {
        Some(f) => p.optimise_moves_above(state, f),
        None => p.moves(state),
    }
}
