//! The ramp-up of a branch and bound: the problem's heuristic
//! ([`Optimise::heuristic`](crate::Optimise::heuristic)) raced on several threads before the exact
//! search, its best solution the first incumbent (the race beside the
//! search that follows it: `race.rs`).

use super::problem::Problem;

/// What the ramp-up found: the best objective among the racers, its
/// solution's text, and the seed that found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RampUp {
    /// The objective.
    pub(crate) value: u64,
    /// The solution, rendered.
    pub(crate) text: String,
    /// The seed of the racer that found it (the lowest of a tie).
    pub(crate) seed: u64,
}

/// Runs `problem`'s heuristic with `effort` on `racers` threads, seeds 1
/// to `racers`, and returns the best solution (`None` when no racer found
/// one, or `effort` is 0). The same answer for the same arguments. The
/// heuristic is the problem's hook: an [`Optimising`]'s finds solutions.
///
/// [`Optimising`]: crate::engine::Optimising
pub(crate) fn ramp<P: Problem>(problem: &P, effort: u64, racers: usize) -> Option<RampUp> {
    if effort == 0 {
        return None;
    }
    // Seed 1 on this thread, the others on threads of their own (none
    // for one racer: a greedy that takes microseconds pays no spawn).
    let found: Vec<Option<(u64, String)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (2..=racers.max(1) as u64)
            .map(|seed| scope.spawn(move || problem.optimise_heuristic(effort, seed)))
            .collect();
        let mut found = vec![problem.optimise_heuristic(effort, 1)];
        found.extend(
            handles
                .into_iter()
                .map(|h| h.join().expect("a heuristic panicked")),
        );
        found
    });
    let mut best: Option<RampUp> = None;
    for (seed, (value, text)) in (1..).zip(found).filter_map(|(s, f)| Some((s, f?))) {
        if best.as_ref().is_none_or(|b| value > b.value) {
            best = Some(RampUp { value, text, seed });
        }
    }
    best
}
