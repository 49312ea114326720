//! The conformance check of a [`Problem`]: what the engine relies on, tried
//! on a small instance, for a user's own tests.

use super::context::Context;
use super::count::Count;
use super::mode::Mode;
use super::prefix::{Prefix, replay};
use super::problem::{Problem, count_by_moves, listing};
use super::sequential::sequential;
use super::task::Task;
use super::walk::Searcher;
use std::fmt::{self, Debug};

/// Nodes [`check`] walks at most (its node-by-node checks stop there, and
/// the whole-tree checks are left out when the tree is larger).
pub(crate) const CHECK_NODES: u64 = 1_000_000;

/// A property of a [`Problem`] the engine relies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Property {
    /// [`Problem::moves`] leaves the node as it was.
    MovesKeepTheNode,
    /// [`Problem::undo`] brings the state back exactly to the parent.
    UndoRestores,
    /// [`Problem::load`] of what [`Problem::save`] gave stands on the same
    /// node: the same node saved again, the same weight and text, the
    /// same number of moves.
    SaveLoadRoundTrip,
    /// [`Problem::decode`] of what [`Problem::encode`] wrote is the node.
    EncodeDecodeRoundTrip,
    /// The modes agree: a count finds the solutions all mode lists, and
    /// first mode finds one exactly when its tree has one.
    ModesAgree,
    /// Splitting a walk anywhere loses and repeats nothing, and a split
    /// task's prefix, replayed from the root, reaches its node (the moves
    /// come in a fixed order).
    SplitsAreExact,
    /// [`Optimise::moves_above`] lists the first moves [`Problem::moves`]
    /// lists, in its order, whatever the floor (tried at 0, 1, at each
    /// bound of the node's moves and one above it, and at the highest),
    /// on a state made for optimise mode, and leaves the node as it was.
    /// Checked for an [`Optimise`] run as the engine runs it:
    /// `check(&Optimising(problem))` ([`Optimising`]).
    ///
    /// [`Optimise`]: crate::Optimise
    /// [`Optimise::moves_above`]: crate::Optimise::moves_above
    /// [`Optimising`]: crate::advanced::Optimising
    BoundedListingIsAPrefix,
    /// [`Problem::count_subtree`] counts what the moves give below the
    /// cut-off depth (of a run of one worker, and of the largest run:
    /// [`Problem::count_cutoff_for`]), and leaves the state where it was.
    KernelAgrees,
    /// [`Problem::child`] gives every move's child or none, and a child it
    /// gives is the node [`Problem::apply`] makes: the same node saved,
    /// the same weight, the same number of moves.
    ChildIsTheMove,
    /// [`Problem::moves_left`], where it says, is how many moves the
    /// listing still gives: when the listing starts, before each move,
    /// and after the last (a split counts what it gives away by it).
    MovesLeftCounts,
}

/// What [`check`] found wrong: the property, the node where it failed
/// (the indices of the moves from the root to it, as a [`Prefix`]), and
/// what it saw.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Violation {
    /// The property that does not hold.
    pub property: Property,
    /// Where: the node's path of move indices from the root.
    pub at: Prefix,
    /// What was seen.
    pub(crate) detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} fails at the node {:?}: {}",
            self.property, self.at.0, self.detail
        )
    }
}

impl std::error::Error for Violation {}

/// What [`check`] walked.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Checked {
    /// Nodes checked one by one (in all mode's tree).
    pub nodes: u64,
    /// Whether that was the whole tree (then the modes and the splits were
    /// checked too).
    pub whole: bool,
    /// Solutions of the tree, weighted, when it was walked whole.
    pub solutions: u64,
    /// Splits made to check that splits are exact.
    pub splits: u64,
    /// Subtrees below the cut-off depth whose kernel count was compared
    /// with the moves' (at each depth a run may cut at).
    pub kernel_subtrees: u64,
}

/// Checks what the engine relies on of `problem`, on up to
/// a million nodes of its tree: call it from your tests on a small
/// instance (a few thousand to a million nodes), and it tells you which
/// promise of [`Problem`] your implementation breaks, and where.
///
/// Node by node, in a depth-first walk of all mode's tree: `moves` keeps
/// the node, `undo` restores it, `save` and `load` (and `encode` and
/// `decode`, for a problem that encodes) round-trip. Over the whole tree,
/// when it is no larger: count and all mode find the same solutions and
/// first mode finds one when there is one; walks split over and over
/// visit the same nodes and solutions as one walk, and each split task's
/// prefix replays to its node. Below the count cut-off, if the problem
/// has one: each subtree's kernel count equals the moves' count. Of a
/// problem with an objective, checked as the engine optimises it
/// (`check(&Optimising(problem))`, [`Optimising`]): its listings told a
/// floor ([`Property::BoundedListingIsAPrefix`]).
///
/// [`Optimising`]: crate::advanced::Optimising
///
/// Nodes are compared with `==`, so the node type needs `PartialEq` (and
/// `Debug`, to say what differed). A state is compared through the node
/// it saves: scratch space that `save` does not see is not checked.
///
/// ```
/// use hysolve::{check, Tree};
///
/// /// Subsets of {0, ..., 9} as rising lists.
/// struct Subsets;
///
/// impl Tree for Subsets {
///     type Node = Vec<u8>;
///     fn root(&self) -> Vec<u8> { Vec::new() }
///     fn children(&self, node: &Vec<u8>, out: &mut Vec<Vec<u8>>) {
///         let from = node.last().map_or(0, |&x| x + 1);
///         out.extend((from..10).map(|x| [node.as_slice(), &[x]].concat()));
///     }
///     fn solution_weight(&self, _: &Vec<u8>) -> u64 { 1 }
///     fn render(&self, node: &Vec<u8>, out: &mut String) { out.push_str(&format!("{node:?}")) }
/// }
///
/// let checked = check(&Subsets).unwrap();
/// assert!(checked.whole);
/// assert_eq!((checked.nodes, checked.solutions), (1024, 1024));
/// ```
pub fn check<P>(problem: &P) -> Result<Checked, Violation>
where
    P: Problem,
    P::Node: PartialEq + Debug,
{
    check_up_to(problem, CHECK_NODES)
}

/// [`check`], walking at most `limit` nodes.
pub fn check_up_to<P>(problem: &P, limit: u64) -> Result<Checked, Violation>
where
    P: Problem,
    P::Node: PartialEq + Debug,
{
    let mut first = Vec::new();
    let keep = if P::OPTIMISES {
        limit.min(BOUNDED_LISTING_NODES)
    } else {
        0
    };
    let (nodes, solutions, whole) = node_by_node(problem, limit, &mut first, keep)?;
    let mut checked = Checked {
        nodes,
        whole,
        solutions: if whole { solutions } else { 0 },
        splits: 0,
        kernel_subtrees: 0,
    };
    if whole {
        modes_agree(problem, solutions)?;
        for mode in [Mode::Count, Mode::All] {
            checked.splits += splits_are_exact(problem, mode)?;
        }
    }
    // The cut-offs of one worker and of the largest run (where they
    // differ, both).
    let small = problem.count_cutoff_for(1);
    let large = problem
        .count_cutoff_for(usize::MAX)
        .filter(|&d| Some(d) != small);
    for cutoff in small.into_iter().chain(large) {
        checked.kernel_subtrees += kernel_agrees(problem, cutoff, limit)?;
    }
    // Last: a listing whose order is not fixed is caught above as what it
    // breaks first. (Only an optimiser lists by a floor.)
    if P::OPTIMISES {
        let mut fresh = problem.state(Mode::All);
        let mut bounded = problem.state(Mode::Optimise);
        for (node, path) in &first {
            bounded_listing(problem, node, &mut fresh, &mut bounded, path)?;
        }
    }
    Ok(checked)
}

/// A violation of `property` at the node `path`.
fn violation(property: Property, path: &[u32], detail: String) -> Violation {
    Violation {
        property,
        at: Prefix(path.to_vec()),
        detail,
    }
}

/// One level of the checking walk: the node's listing, the moves it gave,
/// the node as saved before its listing, the moves a state loaded with it
/// lists, and the move taken below.
struct Frame<P: Problem> {
    moves: P::Cursor,
    given: u32,
    before: P::Node,
    loaded_moves: u64,
    /// The moves the node's state by value ([`Problem::child`]) lists,
    /// when the problem gives one.
    child_moves: Option<u64>,
    taken: Option<P::Move>,
    /// What [`Problem::moves_left`] said when the listing started.
    left: Option<u64>,
}

/// The node-by-node checks, on all mode's tree, up to `limit` nodes; the
/// first `keep` nodes visited, with their paths, go to `first`. Returns
/// the nodes walked, their weighted solutions, and whether that was the
/// whole tree.
fn node_by_node<P>(
    p: &P,
    limit: u64,
    first: &mut Vec<(P::Node, Vec<u32>)>,
    keep: u64,
) -> Result<(u64, u64, bool), Violation>
where
    P: Problem,
    P::Node: PartialEq + Debug,
{
    let mode = Mode::All;
    let mut state = p.state(mode);
    let mut fresh = p.state(mode);
    p.load(&mut state, &p.root());
    let mut path: Vec<u32> = Vec::new();
    let mut stack: Vec<Frame<P>> = Vec::new();
    let (mut nodes, mut solutions) = (0u64, 0u64);
    // Whether the problem gives children by value, once it is known; the
    // moves listed by the last child it gave (its node's frame keeps them,
    // checked against the node's own listing when it is done).
    let mut gives = None;
    let mut child_moves = None;
    loop {
        // Visit the node the state stands on (at `path`).
        nodes += 1;
        solutions += p.solution_weight(&state);
        let (before, loaded_moves) = node_checks(p, &mut state, &mut fresh, &path)?;

        if nodes <= keep {
            first.push((before.clone(), path.clone()));
        }
        let moves = p.moves(&mut state);
        kept(
            p,
            &state,
            &before,
            Property::MovesKeepTheNode,
            &path,
            "moves",
        )?;
        let left = p.moves_left(&moves);
        stack.push(Frame {
            moves,
            left,
            given: 0,
            before,
            loaded_moves,
            child_moves: child_moves.take(),
            taken: None,
        });
        // The next node: the first move of the deepest listing that has
        // one left, undoing the moves of those that have none.
        loop {
            let Some(top) = stack.last_mut() else {
                return Ok((nodes, solutions, true));
            };
            let left = p.moves_left(&top.moves);
            let said = top.left.and_then(|l| l.checked_sub(u64::from(top.given)));
            if left != said {
                return Err(violation(
                    Property::MovesLeftCounts,
                    &path,
                    format!(
                        "moves_left says {left:?} after {} moves of a listing it said held {:?}",
                        top.given, top.left
                    ),
                ));
            }
            if let Some(m) = p.next_move(&state, &mut top.moves) {
                if nodes >= limit {
                    return Ok((nodes, solutions, false));
                }
                top.given += 1;
                path.push(top.given - 1);
                let child = p.child(&state, &m);
                p.apply(&mut state, &m);
                child_moves = child_is_the_move(p, child, &state, &mut gives, &path)?;
                top.taken = Some(m);
                break;
            }
            let done = stack.pop().expect("the top");
            if let Some(left) = done.left
                && left != u64::from(done.given)
            {
                return Err(violation(
                    Property::MovesLeftCounts,
                    &path,
                    format!(
                        "moves_left said the listing held {left} moves; it gave {}",
                        done.given
                    ),
                ));
            }
            if let Some(listed) = done.child_moves
                && listed != u64::from(done.given)
            {
                return Err(violation(
                    Property::ChildIsTheMove,
                    &path,
                    format!(
                        "the child by value lists {listed} moves, the node {}",
                        done.given
                    ),
                ));
            }
            if u64::from(done.given) != done.loaded_moves {
                return Err(violation(
                    Property::SaveLoadRoundTrip,
                    &path,
                    format!(
                        "the walked node lists {} moves, the same node loaded from its save {}",
                        done.given, done.loaded_moves
                    ),
                ));
            }
            let Some(parent) = stack.last_mut() else {
                return Ok((nodes, solutions, true));
            };
            let m = parent.taken.take().expect("the move to this node");
            p.undo(&mut state, &m);
            kept(
                p,
                &state,
                &parent.before,
                Property::UndoRestores,
                &path,
                "undo of the move to this node",
            )?;
            path.pop();
        }
    }
}

/// [`Property::ChildIsTheMove`] for the move just applied: `child` is
/// what [`Problem::child`] gave for it, `state` what [`Problem::apply`]
/// made, at `path`; `gives` whether the problem gives children (known
/// from its first move). Returns how many moves the child lists, for the
/// walk to compare with the node's.
fn child_is_the_move<P>(
    p: &P,
    child: Option<P::State>,
    state: &P::State,
    gives: &mut Option<bool>,
    path: &[u32],
) -> Result<Option<u64>, Violation>
where
    P: Problem,
    P::Node: PartialEq + Debug,
{
    let given = child.is_some();
    if *gives.get_or_insert(given) != given {
        return Err(violation(
            Property::ChildIsTheMove,
            path,
            format!(
                "child gave {} for this move, and the opposite for an earlier one",
                if given { "a state" } else { "none" }
            ),
        ));
    }
    let Some(mut child) = child else {
        return Ok(None);
    };
    let (by_value, applied) = (p.save(&child), p.save(state));
    if by_value != applied {
        return Err(violation(
            Property::ChildIsTheMove,
            path,
            format!("child made {by_value:?}, apply {applied:?}"),
        ));
    }
    let (a, b) = (p.solution_weight(&child), p.solution_weight(state));
    if a != b {
        return Err(violation(
            Property::ChildIsTheMove,
            path,
            format!("the child by value weighs {a}, the node {b}"),
        ));
    }
    Ok(Some(listed_moves(p, &mut child)))
}

/// Nodes at whose listing [`check`] tries
/// [`Property::BoundedListingIsAPrefix`] (each tries several floors).
const BOUNDED_LISTING_NODES: u64 = 20_000;

/// [`Property::BoundedListingIsAPrefix`] at `node`: its children by
/// [`Problem::moves`] on `fresh`, then by `Optimise::moves_above` on
/// `bounded` (an optimise mode state) at each floor tried.
fn bounded_listing<P>(
    p: &P,
    node: &P::Node,
    fresh: &mut P::State,
    bounded: &mut P::State,
    path: &[u32],
) -> Result<(), Violation>
where
    P: Problem,
    P::Node: PartialEq + Debug,
{
    let children = |state: &mut P::State, floor: Option<u64>| {
        p.load(state, node);
        let mut moves = listing(p, state, floor);
        let (mut out, mut bounds) = (Vec::new(), Vec::new());
        while let Some(m) = p.next_move(state, &mut moves) {
            bounds.push(p.optimise_bound(state, &m));
            p.apply(state, &m);
            out.push(p.save(state));
            p.undo(state, &m);
        }
        (out, bounds)
    };
    let (all, bounds) = children(fresh, None);
    let mut floors: Vec<u64> = vec![0, 1, u64::MAX];
    for &b in bounds.iter().take(8) {
        floors.extend([b, b.saturating_add(1)]);
    }
    floors.sort_unstable();
    floors.dedup();
    for floor in floors {
        let (listed, _) = children(bounded, Some(floor));
        let fail = |detail| Err(violation(Property::BoundedListingIsAPrefix, path, detail));
        if listed.len() > all.len() {
            return fail(format!(
                "at floor {floor} it lists {} moves, moves lists {}",
                listed.len(),
                all.len()
            ));
        }
        if let Some(j) = (0..listed.len()).find(|&j| listed[j] != all[j]) {
            return fail(format!(
                "at floor {floor} its move {j} leads to {:?}, that of moves to {:?}",
                listed[j], all[j]
            ));
        }
        kept(
            p,
            bounded,
            node,
            Property::BoundedListingIsAPrefix,
            path,
            "moves_above",
        )?;
    }
    Ok(())
}

/// Whether `state` stands where it stood, on `before`, after `what`: a
/// violation of `property` at `path` otherwise.
fn kept<P>(
    p: &P,
    state: &P::State,
    before: &P::Node,
    property: Property,
    path: &[u32],
    what: &str,
) -> Result<(), Violation>
where
    P: Problem,
    P::Node: PartialEq + Debug,
{
    let after = p.save(state);
    if after != *before {
        return Err(violation(
            property,
            path,
            format!("{what} left {after:?}, not {before:?}"),
        ));
    }
    Ok(())
}

/// The checks of one node on its own: save and load (and encode and
/// decode) round-trip. Returns the node saved, and how many moves the
/// loaded copy lists.
fn node_checks<P>(
    p: &P,
    state: &mut P::State,
    fresh: &mut P::State,
    path: &[u32],
) -> Result<(P::Node, u64), Violation>
where
    P: Problem,
    P::Node: PartialEq + Debug,
{
    let node = p.save(state);
    p.load(fresh, &node);
    let again = p.save(fresh);
    let fail = |detail| Err(violation(Property::SaveLoadRoundTrip, path, detail));
    if again != node {
        return fail(format!("saved {node:?}, loaded and saved again {again:?}"));
    }
    let (w, w2) = (p.solution_weight(state), p.solution_weight(fresh));
    if w != w2 {
        return fail(format!("weight {w}, loaded from its save {w2}"));
    }
    if w > 0 {
        let (mut a, mut b) = (String::new(), String::new());
        p.render(state, &mut a);
        p.render(fresh, &mut b);
        if a != b {
            return fail(format!("renders {a:?}, loaded from its save {b:?}"));
        }
    }
    if P::ENCODES {
        let mut bytes = Vec::new();
        p.encode(&node, &mut bytes);
        let back = p.decode(&bytes);
        if back.as_ref() != Some(&node) {
            return Err(violation(
                Property::EncodeDecodeRoundTrip,
                path,
                format!("encoded {node:?} as {bytes:?}, decoded {back:?}"),
            ));
        }
    }
    Ok((node, listed_moves(p, fresh)))
}

/// How many moves the node `state` stands on lists.
fn listed_moves<P: Problem>(p: &P, state: &mut P::State) -> u64 {
    let mut moves = p.moves(state);
    let mut listed = 0;
    while p.next_move(state, &mut moves).is_some() {
        listed += 1;
    }
    listed
}

/// Count and all mode find the same (weighted) solutions, `solutions`,
/// and first mode one exactly when its own tree has one (a problem may
/// count nothing in first mode: an optimisation counts its solutions in
/// count and all mode only).
fn modes_agree<P: Problem>(p: &P, solutions: u64) -> Result<(), Violation> {
    let fail = |detail| Err(violation(Property::ModesAgree, &[], detail));
    let (count, _) = sequential(p, Mode::Count);
    if count.solutions != solutions {
        return fail(format!(
            "count mode counts {} solutions, all mode lists {solutions}",
            count.solutions
        ));
    }
    let mut state = p.state(Mode::First);
    p.load(&mut state, &p.root());
    let in_first = count_by_moves(p, &mut state).solutions;
    let (_, first) = sequential(p, Mode::First);
    if first.len() as u64 != in_first.min(1) {
        return fail(format!(
            "first mode found {} solutions, of {in_first} in its tree",
            first.len()
        ));
    }
    Ok(())
}

/// A context that wants work at a pseudo-random third of its looks and
/// keeps what splits give.
struct Splitter<N> {
    seed: u64,
    queue: Vec<Task<N>>,
    found: Vec<String>,
    splits: u64,
}

impl<N> Splitter<N> {
    fn step(&mut self) {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
    }
}

impl<N> Context<N> for Splitter<N> {
    fn stop(&self) -> bool {
        false
    }
    fn wants_work(&self) -> bool {
        (self.seed >> 17).is_multiple_of(3)
    }
    fn donate(&mut self, tasks: Vec<Task<N>>) {
        self.splits += 1;
        self.step();
        self.queue.extend(tasks);
    }
    fn found(&mut self, text: &str) {
        self.step();
        self.found.push(text.to_owned());
    }
}

/// Walks `p`'s tree in `mode` as one worker whose context wants work at
/// a pseudo-random third of its looks (from `seed`), pausing every
/// `budget` nodes, until every split-off task is walked too; each split
/// task's prefix must replay from the root to its node. Returns what the
/// walks counted, the solutions they listed, and the splits made. (The
/// walk's own test of splits runs it too.)
pub(super) fn split_walk<P>(
    p: &P,
    mode: Mode,
    seed: u64,
    budget: u64,
) -> Result<(Count, Vec<String>, u64), Violation>
where
    P: Problem,
    P::Node: PartialEq + Debug,
{
    let mut ctx = Splitter {
        seed,
        queue: vec![Task {
            prefix: Prefix::root(),
            depth: 0,
            node: p.root(),
        }],
        found: Vec::new(),
        splits: 0,
    };
    let mut searcher = Searcher::new(p, mode);
    while let Some(task) = ctx.queue.pop() {
        if task.depth > 0 {
            let replayed = replay(p, mode, &task.prefix);
            if replayed.as_ref() != Some(&task.node) {
                return Err(violation(
                    Property::SplitsAreExact,
                    &task.prefix.0,
                    format!(
                        "a split gave {:?} here, and replaying its prefix from the root gave {replayed:?}",
                        task.node
                    ),
                ));
            }
        }
        if searcher.begin(&task, &mut ctx) {
            while !searcher.resume(&task, &mut ctx, budget) {}
        }
    }
    Ok((searcher.counters(), ctx.found, ctx.splits))
}

/// Walks split over and over, paused every few nodes, in `mode`, visit the
/// nodes and solutions of one walk, and each split task's prefix replays
/// to its node. Returns the splits made.
fn splits_are_exact<P>(p: &P, mode: Mode) -> Result<u64, Violation>
where
    P: Problem,
    P::Node: PartialEq + Debug,
{
    let (whole, mut listed) = sequential(p, mode);
    listed.sort();
    let mut splits = 0;
    for seed in [0x9E37_79B9_7F4A_7C15u64, 0xD6E8_FEB8_6659_FD93] {
        let (count, mut found, made) = split_walk(p, mode, seed, 7 + seed % 13)?;
        let Count {
            nodes, solutions, ..
        } = count;
        if (nodes, solutions) != (whole.nodes, whole.solutions) {
            return Err(violation(
                Property::SplitsAreExact,
                &[],
                format!(
                    "in {mode:?} mode, walks split {made} times visit {nodes} nodes and {solutions} solutions, \
                     one walk {} and {}",
                    whole.nodes, whole.solutions
                ),
            ));
        }
        if mode.keeps_solutions() {
            found.sort();
            if found != listed {
                return Err(violation(
                    Property::SplitsAreExact,
                    &[],
                    format!("walks split {made} times list other solutions than one walk"),
                ));
            }
        }
        splits += made;
    }
    Ok(splits)
}

/// Below the count cut-off `cutoff`: each subtree's kernel count equals
/// the moves' count, and the kernel leaves the state where it was, for
/// subtrees of up to `limit` nodes in all. Returns the subtrees compared.
fn kernel_agrees<P>(p: &P, cutoff: usize, limit: u64) -> Result<u64, Violation>
where
    P: Problem,
    P::Node: PartialEq + Debug,
{
    let mut state = p.state(Mode::Count);
    p.load(&mut state, &p.root());
    let mut path: Vec<u32> = Vec::new();
    // The listings above the cut-off, and the move taken from each.
    let mut stack: Vec<(P::Cursor, u32, Option<P::Move>)> = Vec::new();
    let (mut subtrees, mut counted) = (0, 0);
    loop {
        if path.len() >= cutoff {
            let before = p.save(&state);
            let kernel = p.count_subtree(&mut state);
            kept(
                p,
                &state,
                &before,
                Property::KernelAgrees,
                &path,
                "count_subtree",
            )?;
            let moves = count_by_moves(p, &mut state);
            let same_depth = kernel.depth.is_none() || kernel.depth == moves.depth;
            if kernel.nodes != moves.nodes || kernel.solutions != moves.solutions || !same_depth {
                return Err(violation(
                    Property::KernelAgrees,
                    &path,
                    format!(
                        "count_subtree counts {} nodes, {} solutions, depth {:?}; the moves {} nodes, {} solutions, depth {:?}",
                        kernel.nodes,
                        kernel.solutions,
                        kernel.depth,
                        moves.nodes,
                        moves.solutions,
                        moves.depth
                    ),
                ));
            }
            subtrees += 1;
            counted += moves.nodes;
            if counted >= limit {
                return Ok(subtrees);
            }
        } else {
            let moves = p.moves(&mut state);
            stack.push((moves, 0, None));
        }
        loop {
            let height = stack.len();
            let Some((moves, given, taken)) = stack.last_mut() else {
                return Ok(subtrees);
            };
            if path.len() == height {
                // Back from a child: undo its move.
                let m = taken.take().expect("the move to the child");
                p.undo(&mut state, &m);
                path.pop();
            }
            if let Some(m) = p.next_move(&state, moves) {
                *given += 1;
                path.push(*given - 1);
                p.apply(&mut state, &m);
                *taken = Some(m);
                break;
            }
            stack.pop();
        }
    }
}
