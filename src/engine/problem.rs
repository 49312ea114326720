//! The one interface between a puzzle and the engine.

/// A search problem: a tree of partial solutions with a fixed child order.
///
/// The engine walks the tree depth-first. Because [`Problem::children`] is
/// deterministic, a path of child indices from the root (a [`Prefix`]) names
/// the same subtree on every rank and in every run, which is how work crosses
/// process boundaries.
///
/// [`Prefix`]: crate::engine::Prefix
pub trait Problem: Send + Sync + 'static {
    /// A partial solution. Cloned when work is split, so keep it small.
    type Node: Clone + Send + 'static;

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

    /// The problem's name on the command line (`queens`, `hitori`, ...).
    fn name(&self) -> &'static str;

    /// A short description of the instance (`14`, a file name, ...).
    fn instance(&self) -> String;

    /// The empty partial solution.
    fn root(&self) -> Self::Node;

    /// Appends the children of `node` to `out`, always in the same order.
    /// `out` is empty on entry.
    fn children(&self, node: &Self::Node, out: &mut Vec<Self::Node>);

    /// How many solutions `node` stands for: 0 when it is not a solution,
    /// usually 1, more when the problem folds symmetric solutions together
    /// (only ever done in [`Mode::Count`](crate::engine::Mode::Count)).
    fn solution_weight(&self, node: &Self::Node) -> u64;

    /// Writes a solution node in the problem's text format (no trailing blank line).
    fn render(&self, node: &Self::Node, out: &mut String);

    /// The solution `rendered` (by [`Problem::render`]) drawn for a
    /// terminal, when the problem has a richer picture than its file format.
    fn pretty(&self, rendered: &str) -> Option<String> {
        let _ = rendered;
        None
    }

    /// Depth at which, in count mode, the engine stops expanding generically
    /// and hands the whole subtree to [`Problem::count_subtree`]. `None`: the
    /// generic search goes all the way down.
    fn count_cutoff(&self) -> Option<usize> {
        None
    }

    /// Counts the subtree under `node` (the node included) with a specialised
    /// sequential search. Must agree with the generic search exactly: the same
    /// weighted solutions and the same number of nodes visited (and the same
    /// depth, when it reports one).
    fn count_subtree(&self, node: &Self::Node) -> SubtreeCount {
        let mut total = SubtreeCount {
            depth: Some(0),
            ..SubtreeCount::default()
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

/// What [`Problem::count_subtree`] found.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SubtreeCount {
    /// Solutions in the subtree (weighted).
    pub solutions: u64,
    /// Nodes in the subtree, its root included.
    pub nodes: u64,
    /// How far below the subtree's root its deepest node lies, when the
    /// counter knows (`None`: the run reports no depth).
    pub depth: Option<u64>,
}

impl SubtreeCount {
    /// The count of a subtree whose root is `node` (worth `weight`
    /// solutions), with `below` counting, in place on a copy of the node,
    /// everything strictly under it. For problems whose node is an
    /// `Option`, `None` standing for a dead root.
    pub fn in_place<N: Clone>(
        node: &Option<N>,
        weight: u64,
        below: impl FnOnce(&mut N, &mut SubtreeCount),
    ) -> SubtreeCount {
        let mut total = SubtreeCount {
            nodes: 1,
            solutions: weight,
            depth: None,
        };
        if let Some(n) = node {
            below(&mut n.clone(), &mut total);
        }
        total
    }
}
