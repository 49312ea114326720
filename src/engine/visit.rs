//! The visit of one node: counted, and reported when it is a solution
//! (or, in a branch and bound, an improvement).

use super::context::Context;
use super::count::{Count, deeper};
use super::mode::Mode;
use super::problem::Problem;

/// Counts and reports visited nodes.
pub(super) struct Visitor<'p, P: Problem> {
    pub(super) problem: &'p P,
    pub(super) keeps_solutions: bool,
    /// Branch and bound ([`Mode::Optimise`]).
    pub(super) optimise: bool,
    /// The count cut-off's depth (`usize::MAX`: none).
    pub(super) cutoff: usize,
    pub(super) text: String,
    pub(super) counters: Count,
    /// The deepest node of the task being walked (see `Searcher::task_depth`).
    pub(super) task_depth: Option<u64>,
}

impl<'p, P: Problem> Visitor<'p, P> {
    /// The visitor of a worker of a run of `workers` workers in all (the
    /// count's cut-off may depend on it: [`Problem::count_cutoff_for`]).
    pub(super) fn new(problem: &'p P, mode: Mode, workers: usize) -> Self {
        // Refused where a run starts (`ConfigError::NoObjective`): a walk
        // of optimise mode without an objective would find nothing.
        assert!(
            mode != Mode::Optimise || P::OPTIMISES,
            "optimise mode needs a problem with an objective (an `Optimising`)"
        );
        Visitor {
            problem,
            keeps_solutions: mode.keeps_solutions(),
            optimise: mode == Mode::Optimise,
            cutoff: (mode == Mode::Count)
                .then(|| problem.count_cutoff_for(workers))
                .flatten()
                .unwrap_or(usize::MAX),
            text: String::new(),
            counters: Count::default(),
            task_depth: Some(0),
        }
    }

    /// Visits the node `state` stands on, at `depth`: counts it, reports
    /// it if it is a solution. Returns whether its children still need to
    /// be walked, and whether a solution was reported.
    #[inline(always)]
    pub(super) fn visit<C: Context<P::Node>>(
        &mut self,
        state: &mut P::State,
        depth: usize,
        ctx: &mut C,
    ) -> (bool, bool) {
        if depth >= self.cutoff {
            let sub = self.problem.count_subtree(state);
            self.counters.nodes += sub.nodes;
            self.counters.solutions += sub.solutions;
            self.task_depth = deeper(self.task_depth, sub.depth.map(|d| depth as u64 + d));
            return (false, false);
        }
        self.counters.nodes += 1;
        if let Some(d) = &mut self.task_depth {
            *d = (*d).max(depth as u64);
        }
        if self.optimise {
            let reported = self.improve(state, ctx.floor(), ctx).is_some();
            self.counters.solutions += u64::from(reported);
            return (true, reported);
        }
        let weight = self.problem.solution_weight(state);
        if weight > 0 {
            self.counters.solutions += weight;
            if self.keeps_solutions {
                self.text.clear();
                self.problem.render(state, &mut self.text);
                ctx.found(&self.text);
                return (true, true);
            }
        }
        (true, false)
    }
}

impl<P: Problem> Visitor<'_, P> {
    /// Optimisation: reports the node `state` stands on when it is a
    /// solution at least as good as `floor` and the context's floor, and
    /// returns the floor after it (`None`: nothing reported). The caller
    /// counts the report.
    #[inline]
    pub(super) fn improve<C: Context<P::Node>>(
        &mut self,
        state: &P::State,
        floor: u64,
        ctx: &mut C,
    ) -> Option<u64> {
        let value = self.problem.optimise_objective(state)?;
        if value < floor || value < ctx.floor() {
            return None;
        }
        self.text.clear();
        self.problem.render(state, &mut self.text);
        ctx.improved(value, &self.text);
        Some(value + 1)
    }
}
