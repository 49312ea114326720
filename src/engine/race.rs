//! The race beside a branch and bound: the problem's heuristic
//! ([`Optimise::heuristic`](crate::Optimise::heuristic)) called again and again on a thread of its own
//! while the exact search runs, at an eighth of a core, each improvement
//! it finds an incumbent (`engine/README.md`, "The race").

use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

use super::problem::Problem;

/// The effort of each of the race's calls of the heuristic: a few
/// milliseconds, so that the race stops soon after the search does.
pub(crate) const RACE_SLICE: u64 = 2_000_000;

/// How long the race waits before its first call: a search that ends
/// sooner never meets it (the race is for long searches).
const RACE_DELAY: Duration = Duration::from_millis(50);

/// The share of a core the race takes: after each call it sleeps seven
/// times as long as the call ran (an eighth of a core).
const RACE_SLEEP_PER_RUN: u32 = 7;

/// Runs `problem`'s heuristic beside the exact search, once it has gone
/// on for 50 ms: calls of [`RACE_SLICE`] effort, seeds from
/// `first_seed` up, each followed by a sleep seven times its length (an
/// eighth of a core), until `effort` is spent, the heuristic finds
/// nothing, or `stop` is closed (the search has ended). Tells `found` of
/// each solution better than the best so far, starting from `best`. The
/// calls are independent restarts, so a heuristic whose climbs restart
/// anyway (the clique's odd seeds) loses nothing to the slicing.
pub(crate) fn race<P: Problem>(
    problem: &P,
    effort: u64,
    first_seed: u64,
    mut best: u64,
    stop: &Receiver<()>,
    mut found: impl FnMut(u64, String),
) {
    let mut spent = 0;
    let mut seed = first_seed;
    let mut pause = RACE_DELAY;
    while spent < effort {
        match stop.recv_timeout(pause) {
            Err(RecvTimeoutError::Timeout) => {}
            _ => return,
        }
        let slice = RACE_SLICE.min(effort - spent);
        let t = Instant::now();
        let Some((value, text)) = problem.optimise_heuristic(slice, seed) else {
            return;
        };
        if value > best {
            best = value;
            found(value, text);
        }
        spent += slice;
        seed += 1;
        pause = t.elapsed() * RACE_SLEEP_PER_RUN;
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::engine::{OptimiseTree, Optimising, Tree};
    use crossbeam_channel::bounded;
    use std::sync::atomic::{AtomicU64, Ordering};

    /// No tree to speak of; a heuristic that finds `seed % 5` and counts
    /// its calls, none from seed 20.
    struct Seeds {
        calls: AtomicU64,
    }

    impl Tree for Seeds {
        type Node = u32;
        fn root(&self) -> u32 {
            0
        }
        fn children(&self, _: &u32, _: &mut Vec<u32>) {}
        fn solution_weight(&self, _: &u32) -> u64 {
            0
        }
        fn render(&self, v: &u32, out: &mut String) {
            out.push_str(&v.to_string());
        }
    }

    impl OptimiseTree for Seeds {
        fn objective(&self, _: &u32) -> Option<u64> {
            None
        }
        fn heuristic(&self, effort: u64, seed: u64) -> Option<(u64, String)> {
            assert!(effort <= RACE_SLICE);
            self.calls.fetch_add(1, Ordering::Relaxed);
            (seed < 20).then(|| (seed % 5, seed.to_string()))
        }
    }

    #[test]
    fn the_race_reports_improvements_alone_and_stops_when_told() {
        // Told only of what beats the best: from 2 with seeds 3 and 4.
        let p = Seeds {
            calls: AtomicU64::new(0),
        };
        let (_keep, stop) = bounded::<()>(0);
        let mut found = Vec::new();
        race(Optimising::of(&p), 6 * RACE_SLICE, 3, 2, &stop, |v, t| {
            found.push((v, t))
        });
        assert_eq!(found, [(3, "3".to_string()), (4, "4".to_string())]);
        assert_eq!(
            p.calls.load(Ordering::Relaxed),
            6,
            "the effort is six slices"
        );
        // A heuristic that finds nothing ends the race (seed 20).
        let p = Seeds {
            calls: AtomicU64::new(0),
        };
        race(Optimising::of(&p), u64::MAX, 17, 99, &stop, |_, _| {
            panic!("nothing beats 99")
        });
        assert_eq!(p.calls.load(Ordering::Relaxed), 4);
        // Closed before its first call: no call.
        let (closed, stop) = bounded::<()>(0);
        drop(closed);
        let p = Seeds {
            calls: AtomicU64::new(0),
        };
        race(Optimising::of(&p), u64::MAX, 1, 0, &stop, |_, _| {
            panic!("stopped")
        });
        assert_eq!(p.calls.load(Ordering::Relaxed), 0);
    }
}
