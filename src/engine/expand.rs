//! The master's expansion of the root into its initial subtrees, a level
//! at a time, the larger levels shared among the rank's threads.

use super::context::Context;
use super::count::{Count, deeper};
use super::mode::Mode;
use super::prefix::Prefix;
use super::problem::{Problem, listing};
use super::sequential::Sequential;
use super::task::Task;
use super::visit::Visitor;
use crossbeam_channel::{Receiver, Sender};

/// How many nodes per subtree asked for [`expand`] may visit: it stops at
/// the end of the level where it passes that many.
const EXPANSION_NODES_PER_TARGET: usize = 8;

/// The fewest nodes of a level, per thread, for [`expand`] to share the
/// level among its threads: below it one thread expands the level alone
/// (a level of a few hundred nodes costs less than waking the others).
const PARALLEL_NODES_PER_THREAD: usize = 32;

/// Expands the root breadth-first until the frontier holds at least
/// `target` subtrees, cannot grow (only leaves left, or the count cut-off
/// reached), or the levels walked have visited more than
/// [`EXPANSION_NODES_PER_TARGET`] times `target` nodes (a tree whose
/// levels do not grow, as a critical binomial one, would otherwise be
/// walked here, on one thread). Returns the frontier in child order, what
/// visiting the expanded nodes counted, and the texts of solutions among
/// them (in modes that keep solutions; in [`Mode::Optimise`], the best
/// among them, with its objective).
///
/// A level of at least [`PARALLEL_NODES_PER_THREAD`] nodes a thread is cut
/// into `threads` consecutive runs of nodes, each expanded on a thread of
/// its own (the calling thread takes the first), and their children are
/// put back in the same order: the frontier, the counts and the solutions
/// are the same for every number of threads. In [`Mode::Optimise`] a
/// thread prunes with the best known when its level began and what it
/// found since, so the frontier may hold subtrees a single thread would
/// have cut; the optimum is the same. `known` is an incumbent known
/// before the expansion (the ramp-up's): the levels prune with it from
/// the root on, and it is the expansion's best until one beats it.
pub(crate) fn expand<P: Problem>(
    problem: &P,
    mode: Mode,
    target: usize,
    threads: usize,
    workers: usize,
    known: Option<(u64, String)>,
) -> Expansion<P::Node> {
    let cutoff = Visitor::new(problem, mode, workers).cutoff;
    let budget = target.saturating_mul(EXPANSION_NODES_PER_TARGET) as u64;
    let mut e = Expansion {
        frontier: vec![Task {
            prefix: Prefix::root(),
            depth: 0,
            node: problem.root(),
        }],
        counted: Count::default(),
        found: Vec::new(),
        best: known.filter(|_| mode == Mode::Optimise),
        spread: Spread::default(),
    };
    let threads = threads.max(1);
    std::thread::scope(|scope| {
        let mut helpers: Vec<Helper<P::Node>> = Vec::new();
        let mut depth = 0;
        while e.frontier.len() < target && depth < cutoff && e.counted.nodes < budget {
            let tasks = std::mem::take(&mut e.frontier);
            let share = threads > 1 && tasks.len() >= PARALLEL_NODES_PER_THREAD * threads;
            let levels = if share {
                if helpers.is_empty() {
                    let mut ends = Vec::new();
                    helpers = (1..threads)
                        .map(|_| {
                            let (jobs, inbox) = crossbeam_channel::bounded(1);
                            let (done, results) = crossbeam_channel::bounded(1);
                            ends.push(End { inbox, done });
                            Helper { jobs, results }
                        })
                        .collect();
                    start_helpers(scope, problem, mode, workers, ends);
                    e.spread.helpers = helpers.len();
                }
                e.spread.shared_levels += 1;
                share_level(problem, mode, workers, tasks, depth, &e.best, &helpers)
            } else {
                vec![level(problem, mode, workers, &tasks, depth, e.best.clone())]
            };
            e.spread.span += levels.iter().map(|l| l.counted.nodes).max().unwrap_or(0);
            for l in levels {
                e.frontier.extend(l.next);
                e.counted += l.counted;
                e.found.extend(l.found);
                if let Some((v, text)) = l.best
                    && e.best.as_ref().is_none_or(|(b, _)| v > *b)
                {
                    e.best = Some((v, text));
                }
            }
            depth += 1;
            if e.frontier.is_empty() {
                break;
            }
        }
        // Dropping the senders ends the helpers; the scope joins them.
        drop(helpers);
    });
    e
}

/// A run of one level's nodes for a helper: the nodes, their depth, and
/// the best solution known when the level began.
type Job<N> = (Vec<Task<N>>, usize, Option<(u64, String)>);

/// A helper thread of [`expand`] as the expansion sees it: where it is
/// sent runs, and where it answers. A channel of its own each way, so that
/// a helper that panics (a problem's bug) closes its answers and the
/// expansion panics too, instead of waiting for it.
struct Helper<N> {
    jobs: Sender<Job<N>>,
    results: Receiver<Level<N>>,
}

/// A helper thread's ends of its two channels.
struct End<N> {
    inbox: Receiver<Job<N>>,
    done: Sender<Level<N>>,
}

/// Starts a helper thread on each of `ends`, as a tree: this thread starts
/// one helper and hands it half of the others to start, then the next with
/// half of the rest, and so on. The last helper starts after about
/// log2(helpers) thread starts in a row instead of one for each (a start
/// costs this thread 15 to 20 µs; `Costs::spawn_ns` in the simulator).
fn start_helpers<'scope, 'env, P: Problem>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    problem: &'env P,
    mode: Mode,
    workers: usize,
    mut ends: Vec<End<P::Node>>,
) {
    while let Some(own) = ends.pop() {
        let theirs = ends.split_off(ends.len() / 2);
        scope.spawn(move || {
            start_helpers(scope, problem, mode, workers, theirs);
            help(problem, mode, workers, &own.inbox, &own.done);
        });
    }
}

/// How many thread starts in a row [`start_helpers`] takes to start
/// `helpers` helpers: ceil(log2(helpers + 1)) (for the simulator's cost).
#[cfg(feature = "sim")]
pub(crate) fn start_depth(helpers: usize) -> u32 {
    (helpers + 1).next_power_of_two().trailing_zeros()
}

/// A helper thread of [`expand`]: expands the runs it is sent until the
/// expansion drops its sender.
fn help<P: Problem>(
    problem: &P,
    mode: Mode,
    workers: usize,
    inbox: &Receiver<Job<P::Node>>,
    done: &Sender<Level<P::Node>>,
) {
    for (tasks, depth, best) in inbox {
        let l = level(problem, mode, workers, &tasks, depth, best);
        if done.send(l).is_err() {
            return;
        }
    }
}

/// Expands one level cut into a run for each thread: the calling thread
/// takes the first run, the helpers the others. Returns each run's
/// [`Level`], in the order of the runs.
fn share_level<P: Problem>(
    problem: &P,
    mode: Mode,
    workers: usize,
    mut tasks: Vec<Task<P::Node>>,
    depth: usize,
    best: &Option<(u64, String)>,
    helpers: &[Helper<P::Node>],
) -> Vec<Level<P::Node>> {
    let runs = helpers.len() + 1;
    let n = tasks.len();
    // Cut from the back, so that each run is moved out once.
    for (i, helper) in helpers.iter().enumerate().rev() {
        let run = tasks.split_off((i + 1) * n / runs);
        helper
            .jobs
            .send((run, depth, best.clone()))
            .expect("a helper lives as long as the expansion");
    }
    let mut levels = vec![level(problem, mode, workers, &tasks, depth, best.clone())];
    levels.extend(helpers.iter().map(|helper| {
        helper
            .results
            .recv()
            .expect("a helper answers every run it is sent")
    }));
    levels
}

/// Expands `tasks`, nodes at `depth`: visits each and lists its children.
/// `best` is the best solution known before (optimisation); `workers`,
/// the run's (its cut-off is the walk's).
fn level<P: Problem>(
    problem: &P,
    mode: Mode,
    workers: usize,
    tasks: &[Task<P::Node>],
    depth: usize,
    best: Option<(u64, String)>,
) -> Level<P::Node> {
    let mut visitor = Visitor::new(problem, mode, workers);
    let known = best.as_ref().map(|(v, _)| *v);
    let mut ctx = Sequential {
        limit: None,
        found: Vec::new(),
        best,
    };
    let mut state = problem.state(mode);
    let mut next = Vec::new();
    for task in tasks {
        problem.load(&mut state, &task.node);
        if !visitor.visit(&mut state, depth, &mut ctx).0 {
            continue;
        }
        let floor = visitor.optimise.then(|| Context::<P::Node>::floor(&ctx));
        let mut moves = listing(problem, &mut state, floor);
        let mut i = 0;
        while let Some(m) = problem.next_move(&state, &mut moves) {
            if visitor.optimise
                && problem.optimise_bound(&state, &m) < Context::<P::Node>::floor(&ctx)
            {
                if P::OPTIMISE_BOUNDS_FALL {
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
    Level {
        next,
        counted: Count {
            depth: deeper(visitor.counters.depth, visitor.task_depth),
            ..visitor.counters
        },
        found: ctx.found,
        // Only what this level improved.
        best: ctx.best.filter(|(v, _)| known.is_none_or(|k| *v > k)),
    }
}

/// What expanding a run of one level's nodes gives.
struct Level<N> {
    /// Their children, in order.
    next: Vec<Task<N>>,
    /// What visiting them counted.
    counted: Count,
    /// The solutions among them (modes that keep solutions).
    found: Vec<String>,
    /// Optimisation: a solution among them better than the best known
    /// before the level.
    best: Option<(u64, String)>,
}

/// What [`expand`] returns.
pub(crate) struct Expansion<N> {
    /// The subtrees left, in child order.
    pub(crate) frontier: Vec<Task<N>>,
    /// What visiting the expanded nodes counted.
    pub(crate) counted: Count,
    /// The solutions among them (modes that keep solutions).
    pub(crate) found: Vec<String>,
    /// Optimisation: the best solution among them, with its objective.
    pub(crate) best: Option<(u64, String)>,
    /// How the work was shared among threads.
    pub(crate) spread: Spread,
}

/// How [`expand`] shared its work among threads (for the simulator, which
/// charges rank 0 the expansion's span, not its nodes).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(not(feature = "sim"), allow(dead_code))]
pub(crate) struct Spread {
    /// The nodes on the expansion's longest path of work: over the levels,
    /// the most nodes one thread visited in each (all of a level that one
    /// thread expanded). The expansion's nodes on one thread.
    pub(crate) span: u64,
    /// How many levels were shared among threads.
    pub(crate) shared_levels: u32,
    /// How many helper threads were started (none, or one fewer than the
    /// threads).
    pub(crate) helpers: usize,
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::engine::fixtures::Path;
    use crate::engine::fixtures::Queens;
    use crate::engine::sequential::sequential;

    #[test]
    fn the_expansion_of_levels_that_do_not_grow_stops_at_its_budget() {
        let path = Path { len: 1_000_000 };
        let Expansion {
            frontier, counted, ..
        } = expand(&path, Mode::Count, 16, 1, 1, None);
        assert_eq!(frontier.len(), 1);
        assert_eq!(counted.nodes, 16 * EXPANSION_NODES_PER_TARGET as u64);
        assert_eq!(frontier[0].depth, 128);
        // The walk from there counts the rest, once.
        let (whole, _) = sequential(&path, Mode::Count);
        assert_eq!((whole.nodes, whole.solutions), (1_000_000, 1));
    }

    /// Eight children a node, numbered breadth-first from the root's 0;
    /// listing the children of node 72, the last of the third level, panics.
    struct Boom;

    impl crate::engine::Tree for Boom {
        type Node = u32;
        fn root(&self) -> u32 {
            0
        }
        fn children(&self, &n: &u32, out: &mut Vec<u32>) {
            assert!(n != 72, "a problem's bug");
            out.extend((1..=8).map(|i| n * 8 + i));
        }
        fn solution_weight(&self, _: &u32) -> u64 {
            0
        }
        fn render(&self, _: &u32, _: &mut String) {}
    }

    #[test]
    #[cfg(feature = "sim")]
    fn helpers_start_in_a_tree_of_log2_starts() {
        let depths: Vec<u32> = [0, 1, 2, 3, 4, 7, 8, 15].map(start_depth).to_vec();
        assert_eq!(depths, [0, 1, 2, 2, 3, 3, 4, 4]);
    }

    #[test]
    fn a_helper_that_panics_makes_the_expansion_panic_not_wait() {
        // The third level (64 nodes) is shared by 2 threads: node 72 is
        // the helper's.
        let one = std::panic::catch_unwind(|| expand(&Boom, Mode::Count, 1_000, 1, 1, None));
        let two = std::panic::catch_unwind(|| expand(&Boom, Mode::Count, 1_000, 2, 2, None));
        assert!(one.is_err() && two.is_err());
    }

    #[test]
    fn threads_share_the_large_levels_and_give_the_same_frontier() {
        let q = Queens::new(10);
        let one = expand(&q, Mode::All, 2_000, 1, 1, None);
        let alone = Spread {
            span: one.counted.nodes,
            ..Spread::default()
        };
        assert_eq!(one.spread, alone);
        for threads in [2, 3, 7] {
            let many = expand(&q, Mode::All, 2_000, threads, threads, None);
            let s = many.spread;
            assert!(s.shared_levels >= 1, "{threads} threads");
            assert_eq!(s.helpers, threads - 1);
            assert!(s.span < one.spread.span, "{threads} threads: {s:?}");
            assert_eq!(many.counted, one.counted);
            assert_eq!(many.found, one.found);
            let prefixes = |e: &Expansion<_>| -> Vec<Prefix> {
                e.frontier.iter().map(|t| t.prefix.clone()).collect()
            };
            assert_eq!(prefixes(&many), prefixes(&one));
        }
    }

    /// Bits chosen one a level, `DEPTH` levels; a leaf's objective is its
    /// ones, and a child's bound the ones it has plus the levels left.
    struct Bits;

    const DEPTH: u32 = 10;

    impl crate::engine::Tree for Bits {
        type Node = (u32, u32);
        fn root(&self) -> (u32, u32) {
            (0, 0)
        }
        fn children(&self, &(depth, ones): &(u32, u32), out: &mut Vec<(u32, u32)>) {
            if depth < DEPTH {
                out.extend([(depth + 1, ones), (depth + 1, ones + 1)]);
            }
        }
        fn solution_weight(&self, &(depth, _): &(u32, u32)) -> u64 {
            u64::from(depth == DEPTH)
        }
        fn render(&self, &(_, ones): &(u32, u32), out: &mut String) {
            out.push_str(&ones.to_string());
        }
    }

    impl crate::engine::OptimiseTree for Bits {
        fn objective(&self, &(depth, ones): &(u32, u32)) -> Option<u64> {
            (depth == DEPTH).then_some(u64::from(ones))
        }
        fn bound(&self, _: &(u32, u32), &(depth, ones): &(u32, u32)) -> u64 {
            u64::from(ones + DEPTH - depth)
        }
    }

    #[test]
    fn a_known_incumbent_prunes_the_expansion_from_the_root() {
        let bits = crate::engine::Optimising(Bits);
        let free = expand(&bits, Mode::Optimise, 64, 1, 1, None);
        assert!(
            free.frontier.len() >= 64,
            "{} subtrees",
            free.frontier.len()
        );
        assert_eq!(free.best, None);
        // The optimum known: no child can beat it, so none is listed.
        let known = Some((u64::from(DEPTH), "known".to_string()));
        let pruned = expand(&bits, Mode::Optimise, 64, 2, 2, known.clone());
        assert!(
            pruned.frontier.is_empty(),
            "{} subtrees",
            pruned.frontier.len()
        );
        assert!(pruned.counted.nodes < free.counted.nodes);
        assert_eq!(pruned.best, known, "the known incumbent stays the best");
        // One below the optimum: only the all-ones path beats it.
        let below = Some((u64::from(DEPTH) - 1, "below".to_string()));
        let narrow = expand(&bits, Mode::Optimise, 64, 1, 1, below);
        assert!(
            narrow.frontier.len() <= 1,
            "{} subtrees",
            narrow.frontier.len()
        );
        // A count ignores it.
        let count = expand(&bits, Mode::Count, 64, 1, 1, Some((99, String::new())));
        assert_eq!(count.best, None);
    }
}
