//! What a search counts: nodes, solutions and the deepest node.

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
