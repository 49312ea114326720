//! A task: the unit of work the walk takes, a pool queues and a split
//! hands out.

use super::prefix::Prefix;

/// A unit of work: a subtree, held locally as a node at `depth`, and named
/// portably by its prefix: the whole path from the root, or, for a problem
/// that encodes its nodes, the path down to the master's initial depth
/// (the unit it belongs to) at most.
#[derive(Debug, Clone)]
pub(crate) struct Task<N> {
    pub(crate) prefix: Prefix,
    pub(crate) depth: usize,
    pub(crate) node: N,
}
