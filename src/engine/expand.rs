//! The master's expansion of the root into its initial subtrees.

use super::context::Context;
use super::count::{Count, deeper};
use super::mode::Mode;
use super::prefix::Prefix;
use super::problem::Problem;
use super::sequential::Sequential;
use super::task::Task;
use super::visit::Visitor;

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
    let counters = Count {
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
    pub counted: Count,
    /// The solutions among them (modes that keep solutions).
    pub found: Vec<String>,
    /// Optimisation: the best solution among them, with its objective.
    pub best: Option<(u64, String)>,
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::engine::fixtures::Path;
    use crate::engine::sequential::sequential;

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
}
