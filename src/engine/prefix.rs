//! Prefixes: portable names for subtrees.

use super::mode::Mode;
use super::problem::Problem;
use serde::{Deserialize, Serialize};

/// A path of child indices from the root. Since children come in a fixed
/// order, the same prefix names the same subtree on every rank.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Prefix(pub(crate) Vec<u32>);

impl Prefix {
    /// The empty path: the root.
    pub fn root() -> Self {
        Prefix(Vec::new())
    }

    /// The child indices from the root, one a level.
    pub fn path(&self) -> &[u32] {
        &self.0
    }

    /// How many steps below the root it leads.
    pub(crate) fn depth(&self) -> usize {
        self.0.len()
    }

    /// The ancestor of this prefix at `depth` (itself when it is no deeper):
    /// with the depth of the master's initial prefixes, the unit a subtree
    /// belongs to.
    pub(crate) fn truncated(&self, depth: usize) -> Prefix {
        Prefix(self.0[..depth.min(self.0.len())].to_vec())
    }

    /// The prefix of child `index` of the node this prefix names.
    pub fn child(&self, index: u32) -> Prefix {
        let mut path = Vec::with_capacity(self.0.len() + 1);
        path.extend_from_slice(&self.0);
        path.push(index);
        Prefix(path)
    }

    /// This prefix extended by a path below it.
    pub fn join(&self, below: &[u32]) -> Prefix {
        let mut path = Vec::with_capacity(self.0.len() + below.len());
        path.extend_from_slice(&self.0);
        path.extend_from_slice(below);
        Prefix(path)
    }
}

/// Rebuilds the node a prefix names by replaying it from the root.
///
/// The tree may depend on the search's `mode` (a count folds symmetric
/// solutions): every rank replays in the run's mode.
///
/// Returns `None` when the prefix does not name a node of this problem
/// (an index past the children of some node): a sign of a corrupt message or
/// of ranks disagreeing about the instance.
///
/// ```
/// use hysolve::{Mode, Problem};
/// use hysolve::advanced::{Prefix, replay};
/// use hysolve_puzzles::queens::Queens;
///
/// let q = Queens::new(8, false).unwrap();
/// // The root's third move, then that node's first: the same node on
/// // every rank, since moves come in a fixed order.
/// let path = Prefix::root().child(2).child(0);
/// let mut state = q.state(Mode::All);
/// q.load(&mut state, &q.root());
/// for index in [2, 0] {
///     let mut moves = q.moves(&mut state);
///     let m = (0..=index).filter_map(|_| q.next_move(&state, &mut moves)).last();
///     q.apply(&mut state, &m.unwrap());
/// }
/// let expected = format!("{:?}", Some(q.save(&state)));
/// assert_eq!(format!("{:?}", replay(&q, Mode::All, &path)), expected);
/// assert!(replay(&q, Mode::All, &Prefix::root().child(99)).is_none());
/// ```
pub fn replay<P: Problem>(problem: &P, mode: Mode, prefix: &Prefix) -> Option<P::Node> {
    let root = problem.root();
    if prefix.0.is_empty() {
        return Some(root);
    }
    let mut state = problem.state(mode);
    problem.load(&mut state, &root);
    for &index in &prefix.0 {
        let mut moves = problem.moves(&mut state);
        let mut m = problem.next_move(&state, &mut moves);
        for _ in 0..index {
            m = Some(problem.next_move(&state, &mut moves)?);
        }
        problem.apply(&mut state, &m?);
    }
    Some(problem.save(&state))
}
