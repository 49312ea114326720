//! Optimisation's part of a problem, in traits of its own: the objective,
//! the bound and the heuristic of a branch and bound ([`Optimise`] on a
//! [`Problem`], [`OptimiseTree`] on a [`Tree`]) and the wrapper that hands
//! them to the engine ([`Optimising`]); and the ways into a branch and
//! bound that are not a run: on the calling thread ([`optimum`]), and the
//! heuristic's ramp-up alone ([`ramp_up`]).
//!
//! The engine is generic over [`Problem`] alone, and calls a branch
//! and bound's methods through hidden hooks of `Problem` whose defaults
//! bound nothing. [`Optimising`] is a problem whose hooks are its inner
//! problem's [`Optimise`] methods; it is the only problem that optimise
//! mode accepts (`Problem::OPTIMISES`), so a problem without an objective
//! cannot be optimised, and one that never optimises shows nothing of it.

use super::count::Count;
use super::mode::Mode;
use super::problem::{Path, PathMove, Problem, Tree};
use super::ramp::ramp;
use super::sequential::walk_from;
use std::sync::Arc;

/// A [`Problem`] with an objective: what [`optimise`](crate::optimise)
/// (a branch and bound, [`Mode::Optimise`]) needs beyond the tree. The
/// best solution is a node of greatest [`Optimise::objective`]; the walk
/// skips every move whose [`Optimise::bound`] cannot beat the best
/// solution known on any worker of any rank.
///
/// ```
/// use hysolve::{Mode, Optimise, Problem, RunConfig, Solutions, optimise, state_is_node};
/// use std::sync::Arc;
///
/// /// The subsets of `weights` that fit in `room`: the heaviest wins.
/// struct Fit { weights: Vec<u64>, room: u64 }
///
/// impl Problem for Fit {
///     type Node = (usize, u64); // the items decided, the weight taken
///     type State = (usize, u64);
///     type Move = bool;         // take the next item, or not
///     type Cursor = u8;
///     state_is_node!();
///     fn root(&self) -> (usize, u64) { (0, 0) }
///     fn moves(&self, s: &mut (usize, u64)) -> u8 { if s.0 < self.weights.len() { 2 } else { 0 } }
///     fn next_move(&self, s: &(usize, u64), left: &mut u8) -> Option<bool> {
///         while *left > 0 {
///             *left -= 1;
///             let take = *left == 1;
///             if !take || s.1 + self.weights[s.0] <= self.room { return Some(take) }
///         }
///         None
///     }
///     fn apply(&self, s: &mut (usize, u64), &take: &bool) {
///         s.1 += if take { self.weights[s.0] } else { 0 };
///         s.0 += 1;
///     }
///     fn undo(&self, s: &mut (usize, u64), &take: &bool) {
///         s.0 -= 1;
///         s.1 -= if take { self.weights[s.0] } else { 0 };
///     }
///     fn solution_weight(&self, _: &(usize, u64)) -> u64 { 1 }
///     fn render(&self, s: &(usize, u64), out: &mut String) { out.push_str(&s.1.to_string()) }
/// }
///
/// impl Optimise for Fit {
///     fn objective(&self, s: &(usize, u64)) -> Option<u64> { Some(s.1) }
///     fn bound(&self, s: &(usize, u64), &take: &bool) -> u64 {
///         let rest: u64 = self.weights[s.0 + 1..].iter().sum();
///         (s.1 + if take { self.weights[s.0] } else { 0 } + rest).min(self.room)
///     }
/// }
///
/// let fit = Arc::new(Fit { weights: vec![31, 41, 59, 26, 53, 58, 97], room: 200 });
/// let config = RunConfig::new(Mode::Optimise).threads(2);
/// let outcome = optimise(fit, &config, Solutions::Discard).unwrap().unwrap();
/// assert_eq!(outcome.objective, Some(197)); // 41 + 59 + 97
/// ```
///
/// A problem without an objective cannot be optimised: this does not
/// compile.
///
/// ```compile_fail
/// use hysolve::{Mode, RunConfig, Solutions, Tree, optimise};
/// use std::sync::Arc;
///
/// /// A count alone: no objective.
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
/// let config = RunConfig::new(Mode::Optimise);
/// optimise(Arc::new(Stairs(10)), &config, Solutions::Discard); // Stairs is no Optimise
/// ```
///
/// Nor does [`run`](crate::run) optimise it: it refuses optimise mode for
/// a problem without an objective
/// ([`ConfigError::NoObjective`](crate::ConfigError::NoObjective)).
///
/// [`check`](crate::check) tries [`Optimise::moves_above`] on the problem
/// wrapped for the engine: `check(&Optimising(problem))`
/// ([`Optimising`]).
pub trait Optimise: Problem {
    /// The objective of the node `state` stands on, as a solution
    /// (greater is better), or `None` when it is not one.
    fn objective(&self, state: &Self::State) -> Option<u64>;

    /// An upper bound on the objective of every node in the subtree that
    /// move `m` leads to from the node `state` stands on. The walk does
    /// not take a move whose bound cannot beat the best solution known
    /// (on any worker of any rank), nor does a split give it away. The
    /// default bounds nothing.
    #[inline(always)]
    fn bound(&self, state: &Self::State, m: &Self::Move) -> u64 {
        let _ = (state, m);
        u64::MAX
    }

    /// [`Problem::moves`], told `floor`, the least objective that beats
    /// the best solution known; a branch and bound's walk calls this
    /// instead. It lists the same moves in the same order as `moves`, but
    /// may end the listing early where no later move's subtree can reach
    /// `floor`, and may use `floor` to tighten the bounds of its moves
    /// ([`Optimise::bound`]) where a tighter bound costs work worth
    /// spending only near the floor. A split lists the node again later,
    /// with a floor at least as high, and skips the moves the walk was
    /// given by their places: the listing up to where it ends must not
    /// depend on `floor` (`engine/README.md`). The default: `moves`.
    #[inline(always)]
    fn moves_above(&self, state: &mut Self::State, floor: u64) -> Self::Cursor {
        let _ = floor;
        self.moves(state)
    }

    /// Whether a node's moves come in order of falling
    /// [`Optimise::bound`]: then the first move that cannot beat the best
    /// known ends the node's listing, as in colouring branch and bound
    /// for cliques.
    const BOUNDS_FALL: bool = false;

    /// A good solution found without the tree (a local search, a greedy
    /// construction), with its objective and its text as
    /// [`Problem::render`] would write it; `None` when it found none. The
    /// engine's *ramp-up* runs it before the exact search, on rank 0, on
    /// as many threads as a rank has (seeds 1, 2, ...), and its best
    /// solution becomes the first incumbent
    /// ([`RunConfig::ramp_up`](crate::RunConfig::ramp_up)): the search
    /// then proves it optimal or beats it. Then the *race* calls it again
    /// and again beside the search, on one more thread, with the next
    /// seeds and a few milliseconds' effort a call
    /// ([`RunConfig::race`](crate::RunConfig::race)); a better solution
    /// it finds is an incumbent. `effort` bounds its work in the
    /// problem's own units (about a nanosecond each, so that one effort
    /// suits every problem), and the end of a run waits for the call
    /// under way: keep to it. The same effort and seed must give the same
    /// solution. The default finds none.
    fn heuristic(&self, effort: u64, seed: u64) -> Option<(u64, String)> {
        let _ = (effort, seed);
        None
    }
}

/// A [`Tree`] with an objective, as [`Optimise`] is a [`Problem`] with
/// one (and every `OptimiseTree` is an `Optimise`).
///
/// ```
/// use hysolve::{Mode, OptimiseTree, RunConfig, Solutions, Tree, optimise};
/// use std::sync::Arc;
///
/// /// The longest run of steps of 1 or 2 that stays off the holes.
/// struct Holes { top: u32, holes: Vec<u32> }
///
/// impl Tree for Holes {
///     type Node = u32; // the stair stood on
///     fn root(&self) -> u32 { 0 }
///     fn children(&self, &at: &u32, out: &mut Vec<u32>) {
///         let ok = |&c: &u32| c <= self.top && !self.holes.contains(&c);
///         out.extend([at + 2, at + 1].into_iter().filter(ok));
///     }
///     fn solution_weight(&self, _: &u32) -> u64 { 1 }
///     fn render(&self, at: &u32, out: &mut String) { out.push_str(&at.to_string()) }
/// }
///
/// impl OptimiseTree for Holes {
///     fn objective(&self, &at: &u32) -> Option<u64> { Some(at.into()) }
///     fn bound(&self, _: &u32, _: &u32) -> u64 { self.top.into() }
/// }
///
/// let holes = Arc::new(Holes { top: 30, holes: vec![7, 12, 13, 22] });
/// let config = RunConfig::new(Mode::Optimise).threads(2);
/// let outcome = optimise(holes, &config, Solutions::Discard).unwrap().unwrap();
/// assert_eq!(outcome.objective, Some(11)); // no step crosses 12 and 13
/// ```
pub trait OptimiseTree: Tree {
    /// The objective of `node` as a solution (greater is better), or
    /// `None` when it is not one, as [`Optimise::objective`].
    fn objective(&self, node: &Self::Node) -> Option<u64>;

    /// An upper bound on the objective of every node in the subtree of
    /// `child`, a child of `parent`, as [`Optimise::bound`]: the walk does
    /// not enter a child whose bound cannot beat the best solution known.
    /// The default bounds nothing.
    #[inline(always)]
    fn bound(&self, parent: &Self::Node, child: &Self::Node) -> u64 {
        let _ = (parent, child);
        u64::MAX
    }

    /// As [`Optimise::BOUNDS_FALL`]: [`Tree::children`] lists children in
    /// order of falling [`OptimiseTree::bound`].
    const BOUNDS_FALL: bool = false;

    /// As [`Optimise::heuristic`]: a good solution found without the
    /// tree, for the ramp-up and the race.
    fn heuristic(&self, effort: u64, seed: u64) -> Option<(u64, String)> {
        let _ = (effort, seed);
        None
    }
}

/// An [`OptimiseTree`] optimises on its [`Path`]: the objective of the
/// node the path stands on, the bound of the child a move goes down to.
impl<T: OptimiseTree> Optimise for T {
    #[inline(always)]
    fn objective(&self, path: &Path<T::Node>) -> Option<u64> {
        OptimiseTree::objective(self, path.top())
    }
    #[inline(always)]
    fn bound(&self, path: &Path<T::Node>, m: &PathMove) -> u64 {
        OptimiseTree::bound(self, path.top(), path.child(m))
    }
    const BOUNDS_FALL: bool = T::BOUNDS_FALL;
    fn heuristic(&self, effort: u64, seed: u64) -> Option<(u64, String)> {
        OptimiseTree::heuristic(self, effort, seed)
    }
}

/// An [`Optimise`] problem as the engine runs it in optimise mode: the
/// same problem, whose engine hooks are its objective, bound and
/// heuristic. What [`optimise`](crate::optimise) runs; wrap a problem
/// yourself for the functions that take a problem and a mode, such as
/// [`run_threaded`](crate::advanced::run_threaded) or
/// [`check`](crate::check). In the other modes it searches as the
/// problem does.
#[repr(transparent)]
pub struct Optimising<P>(pub P);

impl<P: Optimise> Optimising<P> {
    /// `problem`, lent as an `Optimising`.
    pub(crate) fn of(problem: &P) -> &Optimising<P> {
        let p: *const P = problem;
        // SAFETY: `Optimising<P>` is `repr(transparent)` over its one
        // field, a `P`: the same size, alignment and layout, and no
        // invariant of its own. So a valid `&P` is a valid
        // `&Optimising<P>` for the same lifetime (the reference is
        // shared, and neither type has interior mutability beyond `P`'s).
        unsafe { &*p.cast::<Optimising<P>>() }
    }

    /// `problem`, shared, as an `Optimising`.
    pub(crate) fn arc(problem: Arc<P>) -> Arc<Optimising<P>> {
        let p: *const P = Arc::into_raw(problem);
        // SAFETY: `Arc::from_raw` takes a pointer that `Arc<U>::into_raw`
        // gave when `U` has the size and alignment of `T` (its
        // documentation); `Optimising<P>` is `repr(transparent)` over `P`,
        // so it has them, and the count the `Arc<P>` held passes to the
        // new `Arc`.
        unsafe { Arc::from_raw(p.cast::<Optimising<P>>()) }
    }
}

/// The problem, forwarded, with the engine's hooks its [`Optimise`]'s.
/// `Problem::dive` keeps its default: a count through the wrapper walks a
/// [`Tree`]'s children by the generic frames, not by value (a count has
/// no reason to wrap).
impl<P: Optimise> Problem for Optimising<P> {
    type Node = P::Node;
    type State = P::State;
    type Move = P::Move;
    type Cursor = P::Cursor;

    const ENCODES: bool = P::ENCODES;

    fn encode(&self, node: &P::Node, out: &mut Vec<u8>) {
        self.0.encode(node, out)
    }
    fn decode(&self, bytes: &[u8]) -> Option<P::Node> {
        self.0.decode(bytes)
    }
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn instance(&self) -> String {
        self.0.instance()
    }
    fn root(&self) -> P::Node {
        self.0.root()
    }
    fn state(&self, mode: Mode) -> P::State {
        self.0.state(mode)
    }
    fn load(&self, state: &mut P::State, node: &P::Node) {
        self.0.load(state, node)
    }
    fn save(&self, state: &P::State) -> P::Node {
        self.0.save(state)
    }
    #[inline(always)]
    fn moves(&self, state: &mut P::State) -> P::Cursor {
        self.0.moves(state)
    }
    #[inline(always)]
    fn next_move(&self, state: &P::State, moves: &mut P::Cursor) -> Option<P::Move> {
        self.0.next_move(state, moves)
    }
    #[inline(always)]
    fn apply(&self, state: &mut P::State, m: &P::Move) {
        self.0.apply(state, m)
    }
    #[inline(always)]
    fn undo(&self, state: &mut P::State, m: &P::Move) {
        self.0.undo(state, m)
    }
    #[inline(always)]
    fn child(&self, state: &P::State, m: &P::Move) -> Option<P::State> {
        self.0.child(state, m)
    }
    #[inline(always)]
    fn solution_weight(&self, state: &P::State) -> u64 {
        self.0.solution_weight(state)
    }
    fn render(&self, state: &P::State, out: &mut String) {
        self.0.render(state, out)
    }
    fn count_cutoff(&self) -> Option<usize> {
        self.0.count_cutoff()
    }
    fn count_cutoff_for(&self, workers: usize) -> Option<usize> {
        self.0.count_cutoff_for(workers)
    }
    fn count_subtree(&self, state: &mut P::State) -> Count {
        self.0.count_subtree(state)
    }

    const OPTIMISES: bool = true;
    const OPTIMISE_BOUNDS_FALL: bool = P::BOUNDS_FALL;
    #[inline(always)]
    fn optimise_objective(&self, state: &P::State) -> Option<u64> {
        self.0.objective(state)
    }
    #[inline(always)]
    fn optimise_bound(&self, state: &P::State, m: &P::Move) -> u64 {
        self.0.bound(state, m)
    }
    #[inline(always)]
    fn optimise_moves_above(&self, state: &mut P::State, floor: u64) -> P::Cursor {
        self.0.moves_above(state, floor)
    }
    fn optimise_heuristic(&self, effort: u64, seed: u64) -> Option<(u64, String)> {
        self.0.heuristic(effort, seed)
    }
}

/// Runs a branch and bound ([`Mode::Optimise`]) on the calling thread,
/// from `known`, a solution already known (its objective and its text;
/// `None`: none), such as a ramp-up's ([`ramp_up`]): the walk prunes
/// against it from the first node, as a run that starts from that
/// ramp-up does. Returns the counters, and the optimum with one optimal
/// solution, rendered (`None` when no node is a solution); the known
/// solution when the search finds none better. The reference of a
/// parallel run: its optimum, and its nodes (its anomaly, `hysolve
/// --anomaly`).
///
/// ```
/// use hysolve::advanced::{optimum, ramp_up};
/// use hysolve_puzzles::clique::{Clique, families};
///
/// let clique = Clique::new(&families::hamming(6, 2).unwrap(), "hamming6-2");
/// let (alone, best) = optimum(&clique, None);
/// let (known, same) = optimum(&clique, ramp_up(&clique, 1_000_000, 1));
/// assert_eq!((best.unwrap().0, same.unwrap().0), (32, 32));
/// assert!(known.nodes <= alone.nodes);
/// ```
pub fn optimum<P: Optimise>(
    problem: &P,
    known: Option<(u64, String)>,
) -> (Count, Option<(u64, String)>) {
    let (counters, ctx) = walk_from(Optimising::of(problem), Mode::Optimise, known);
    (counters, ctx.best)
}

/// Runs `problem`'s [`Optimise::heuristic`] with `effort` on `racers`
/// threads, seeds 1 to `racers`, as a run's ramp-up does, and returns the
/// best solution found, its objective and its text (`None` when no racer
/// found one, or `effort` is 0; the lowest seed's of a tie). The same
/// answer for the same arguments.
pub fn ramp_up<P: Optimise>(problem: &P, effort: u64, racers: usize) -> Option<(u64, String)> {
    ramp(Optimising::of(problem), effort, racers).map(|r| (r.value, r.text))
}
