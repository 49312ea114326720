//! A pseudo-random irregular tree with a known number of solutions, for
//! exercising the engine where N-Queens is too regular.
//!
//! Every node carries a *budget*: the number of solutions in its subtree.
//! The root's budget is `leaves`. A node with budget b >= 2 (or b = 1 above
//! `min_depth`) has 2 to 5 children and splits b among them with heavily
//! skewed pseudo-random weights, so subtree sizes are very uneven. A node
//! with budget 1 at or below `min_depth` is a solution leaf. A child that got
//! budget 0 roots a *dead* subtree: random branching (0 to 4 children) down
//! to `dead_depth` levels, no solution in it. The number of solutions is
//! therefore exactly `leaves`, whatever the seed: an answer known without
//! running any search.
//!
//! With `needle`, the budget goes to the last children: all of it to the
//! last, or, from a budget of 2, one to the child before it and the rest
//! to the last (so that the budgets on the path fall and it ends). Every
//! solution then lies behind the dead subtrees of the levels above it in
//! child order (the worst case for `first` mode).

use crate::PuzzleError;
use hysolve::Tree;
use std::hint::black_box;

/// Parameters of a synthetic tree (the command line's `synthetic`
/// arguments, with the same defaults: [`Synthetic::default`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Synthetic {
    /// Seed of the tree's shape
    pub seed: u64,
    /// Number of solutions in the tree
    pub leaves: u64,
    /// Solutions lie at this depth or deeper
    pub min_depth: u32,
    /// Depth of the solution-free subtrees hanging off the tree
    pub dead_depth: u32,
    /// Put the solutions last in child order, behind the dead subtrees of the levels above them
    pub needle: bool,
    /// Extra hashing rounds per node (simulated node cost)
    pub work: u32,
}

impl Default for Synthetic {
    fn default() -> Self {
        Synthetic {
            seed: 1,
            leaves: 10_000,
            min_depth: 4,
            dead_depth: 8,
            needle: false,
            work: 0,
        }
    }
}

/// The largest `dead_depth` accepted: dead subtrees grow like 2^depth.
pub const MAX_DEAD_DEPTH: u32 = 30;
/// The largest `min_depth` accepted.
pub const MAX_MIN_DEPTH: u32 = 64;

/// A node of the synthetic tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SynNode {
    key: u64,
    budget: u64,
    depth: u32,
    /// Depth at which this node's dead subtree started (`u32::MAX` if alive).
    dead_from: u32,
}

/// splitmix64: a well-mixed 64-bit hash.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Synthetic {
    /// Refuses parameters out of range (depths past their maxima).
    pub fn validate(&self) -> Result<(), PuzzleError> {
        if self.dead_depth > MAX_DEAD_DEPTH {
            return Err(PuzzleError::Parameter {
                puzzle: "synthetic",
                param: "dead_depth",
                problem: format!("must be at most {MAX_DEAD_DEPTH}, got {}", self.dead_depth),
            });
        }
        if self.min_depth > MAX_MIN_DEPTH {
            return Err(PuzzleError::Parameter {
                puzzle: "synthetic",
                param: "min_depth",
                problem: format!("must be at most {MAX_MIN_DEPTH}, got {}", self.min_depth),
            });
        }
        Ok(())
    }

    fn child_key(&self, key: u64, i: usize) -> u64 {
        mix(key ^ (i as u64 + 1).wrapping_mul(0xA076_1D64_78BD_642F))
    }

    /// Splits `budget` over `k` children: skewed, summing to `budget`,
    /// and (for budget >= 2) never all in one child.
    fn split(&self, key: u64, budget: u64, k: usize) -> Vec<u64> {
        if self.needle {
            let mut parts = vec![0; k];
            parts[k - 1] = budget;
            if budget >= 2 {
                // (k >= 2 here: a budget of 2 or more has 2 to 5 children.)
                parts[k - 1] -= 1;
                parts[k - 2] = 1;
            }
            return parts;
        }
        let weights: Vec<u128> = (0..k)
            .map(|i| {
                let w = (mix(key.rotate_left(17) ^ i as u64) % 1024 + 1) as u128;
                w * w * w
            })
            .collect();
        let total: u128 = weights.iter().sum();
        let mut parts: Vec<u64> = weights
            .iter()
            .map(|w| (budget as u128 * w / total) as u64)
            .collect();
        let given: u64 = parts.iter().sum();
        let heaviest = (0..k).max_by_key(|&i| weights[i]).unwrap_or(0);
        parts[heaviest] += budget - given;
        if budget >= 2 && parts[heaviest] == budget {
            parts[heaviest] -= 1;
            parts[(heaviest + 1) % k] += 1;
        }
        parts
    }
}

impl Tree for Synthetic {
    type Node = SynNode;

    fn name(&self) -> &'static str {
        "synthetic"
    }

    fn instance(&self) -> String {
        format!(
            "seed={},leaves={},min_depth={},dead_depth={}{}",
            self.seed,
            self.leaves,
            self.min_depth,
            self.dead_depth,
            if self.needle { ",needle" } else { "" }
        )
    }

    fn root(&self) -> SynNode {
        SynNode {
            key: mix(self.seed),
            budget: self.leaves,
            depth: 0,
            dead_from: if self.leaves == 0 { 0 } else { u32::MAX },
        }
    }

    fn children(&self, node: &SynNode, out: &mut Vec<SynNode>) {
        // Simulated node cost; the tree's shape does not depend on it.
        let mut burn = node.key;
        for _ in 0..self.work {
            burn = mix(burn);
        }
        black_box(burn);
        let h = node.key;
        if node.dead_from != u32::MAX {
            if node.depth - node.dead_from >= self.dead_depth {
                return;
            }
            // Never die out in the first two levels, then 0 to 4 children.
            let k = if node.depth - node.dead_from < 2 {
                2 + h % 3
            } else {
                h % 5
            };
            for i in 0..k as usize {
                out.push(SynNode {
                    key: self.child_key(node.key, i),
                    budget: 0,
                    depth: node.depth + 1,
                    dead_from: node.dead_from,
                });
            }
            return;
        }
        if node.budget == 1 && node.depth >= self.min_depth {
            return; // a solution leaf
        }
        let k = 2 + (h >> 8) as usize % 4;
        let parts = self.split(node.key, node.budget, k);
        for (i, budget) in parts.into_iter().enumerate() {
            out.push(SynNode {
                key: self.child_key(node.key, i),
                budget,
                depth: node.depth + 1,
                dead_from: if budget == 0 {
                    node.depth + 1
                } else {
                    u32::MAX
                },
            });
        }
    }

    fn solution_weight(&self, node: &SynNode) -> u64 {
        u64::from(node.dead_from == u32::MAX && node.budget == 1 && node.depth >= self.min_depth)
    }

    fn render(&self, node: &SynNode, out: &mut String) {
        use std::fmt::Write;
        let _ = write!(out, "leaf {:016x} depth {}", node.key, node.depth);
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use hysolve::Mode;
    use hysolve::advanced::sequential;

    fn tree(seed: u64, leaves: u64) -> Synthetic {
        Synthetic {
            seed,
            leaves,
            min_depth: 3,
            dead_depth: 6,
            needle: false,
            work: 0,
        }
    }

    #[test]
    fn solutions_equal_budget_for_many_seeds() {
        for seed in 0..200 {
            let t = tree(seed, seed * 7 % 300);
            let (c, _) = sequential(&t, Mode::Count);
            assert_eq!(c.solutions, t.leaves, "seed {seed}");
        }
    }

    #[test]
    fn subtrees_are_uneven() {
        let t = tree(1, 5000);
        let mut kids = Vec::new();
        t.children(&t.root(), &mut kids);
        let mut grandkids = Vec::new();
        for k in &kids {
            t.children(k, &mut grandkids);
        }
        let sizes: Vec<u64> = grandkids.iter().map(|k| t.count_subtree(k).nodes).collect();
        let (min, max) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
        assert!(*max > 10 * (*min).max(1), "{sizes:?}");
    }

    #[test]
    fn needle_is_the_last_leaf() {
        let t = Synthetic {
            needle: true,
            min_depth: 8,
            ..tree(3, 1)
        };
        let (c, found) = sequential(&t, Mode::All);
        assert_eq!(c.solutions, 1);
        assert_eq!(found.len(), 1);
        assert!(
            c.nodes > 100,
            "dead subtrees before the needle: {}",
            c.nodes
        );
    }

    /// With more than one leaf, the needle's budget falls by one a level
    /// (it used to go whole to the last child, a path without end), and
    /// the first solution still comes after the root's dead subtrees.
    #[test]
    fn a_needle_of_many_leaves_ends() {
        let t = Synthetic {
            needle: true,
            ..tree(3, 40)
        };
        let (c, found) = sequential(&t, Mode::All);
        assert_eq!((c.solutions, found.len()), (40, 40));
        let (first, _) = sequential(&t, Mode::First);
        assert!(first.nodes > 10, "nodes before the first: {}", first.nodes);
    }
}
