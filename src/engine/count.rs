//! What a search counts: nodes, solutions and the deepest node, the one
//! type for every such total (a walk's, a kernel's subtree, a unit's on a
//! rank and at the master, the expansion's, a checkpoint's).

use serde::{Deserialize, Serialize};

/// Nodes visited, weighted solutions found, and the depth of the deepest
/// node visited (`None` once part of the tree was counted by a specialised
/// counter that does not know its depth). Counts of disjoint parts of a
/// tree add up (`+`, `+=`): nodes and solutions sum, the depth is the
/// deeper one (unknown when either is), so the default, depth
/// 0 and nothing counted, adds nothing.
///
/// ```
/// use hysolve::advanced::Count;
///
/// let a = Count { nodes: 5, solutions: 1, depth: Some(3) };
/// let b = Count { nodes: 2, solutions: 0, depth: Some(4) };
/// assert_eq!(a + b, Count { nodes: 7, solutions: 1, depth: Some(4) });
/// assert_eq!(a + Count::default(), a);
/// assert_eq!((a + Count { depth: None, ..b }).depth, None);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Count {
    /// Nodes visited.
    pub nodes: u64,
    /// Solutions found (weighted).
    pub solutions: u64,
    /// The deepest node's depth, when the search knows it.
    pub depth: Option<u64>,
}

impl Default for Count {
    fn default() -> Self {
        Count {
            nodes: 0,
            solutions: 0,
            depth: Some(0),
        }
    }
}

impl std::ops::Add for Count {
    type Output = Count;
    #[inline]
    fn add(self, o: Count) -> Count {
        Count {
            nodes: self.nodes + o.nodes,
            solutions: self.solutions + o.solutions,
            depth: deeper(self.depth, o.depth),
        }
    }
}

impl std::ops::AddAssign for Count {
    #[inline]
    fn add_assign(&mut self, o: Count) {
        *self = *self + o;
    }
}

impl std::iter::Sum for Count {
    fn sum<I: Iterator<Item = Count>>(counts: I) -> Count {
        counts.fold(Count::default(), |a, b| a + b)
    }
}

/// The deeper of two depths; unknown when either is.
#[inline]
pub(crate) fn deeper(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    Some(a?.max(b?))
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn counts_add_as_disjoint_parts_of_a_tree() {
        let a = Count {
            nodes: 5,
            solutions: 1,
            depth: Some(3),
        };
        let unknown = Count {
            nodes: 2,
            solutions: 2,
            depth: None,
        };
        let mut t = Count::default();
        t += a;
        assert_eq!(t, a);
        t += unknown;
        assert_eq!(
            t,
            Count {
                nodes: 7,
                solutions: 3,
                depth: None
            }
        );
        // Unknown stays unknown, whatever comes after.
        t += a;
        assert_eq!(t.depth, None);
        assert_eq!([a, a, unknown].into_iter().sum::<Count>(), a + a + unknown);
        assert_eq!(std::iter::empty::<Count>().sum::<Count>(), Count::default());
    }
}
