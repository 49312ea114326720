//! The race beside a branch and bound: the problem's heuristic
//! ([`Optimise::heuristic`](crate::Optimise::heuristic)) called again and again on a thread of its own
//! while the exact search runs, at an eighth of a core while it is new or
//! has just improved, less and less while it finds nothing, each
//! improvement it finds an incumbent (`engine/README.md`, "The race").

use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

use super::problem::Problem;

/// The effort of each of the race's calls of the heuristic: a few
/// milliseconds, so that the race stops soon after the search does.
pub(crate) const RACE_SLICE: u64 = 2_000_000;

/// How long the race waits before its first call: a search that ends
/// sooner never meets it (the race is for long searches).
const RACE_DELAY: Duration = Duration::from_millis(50);

/// The share of a core the race takes while it is eager: after each call
/// it sleeps seven times as long as the call ran (an eighth of a core).
const RACE_SLEEP_PER_RUN: u32 = 7;

/// How long the race stays eager: from its first call, and again from
/// each improvement it finds. After that each call that finds nothing
/// doubles the sleep that follows it, up to [`RACE_BACKOFF_MAX`] times the
/// eager one. On 2 threads of 2 cores the race's eighth of a core is taken
/// from the workers: brock400_4, whose race meets the optimum 0.05 to
/// 0.25 s in and then runs fruitlessly for seconds, made 1.78 times one
/// thread's speed with the race always eager (`problems/clique/README.md`).
const RACE_EAGER: Duration = Duration::from_secs(1);

/// The most the sleep after a fruitless call grows: eight times the eager
/// one, so a race that has found nothing for long takes a 57th of a core,
/// and a heuristic that needs many restarts (brock800's) is slowed at most
/// eight times, not stopped.
const RACE_BACKOFF_MAX: u32 = 8;

/// Runs `problem`'s heuristic beside the exact search, once it has gone
/// on for 50 ms: calls of [`RACE_SLICE`] effort, seeds from
/// `first_seed` up, each followed by a sleep seven times its length (an
/// eighth of a core) for [`RACE_EAGER`] from the first call or the last
/// improvement, then twice as long after each fruitless call, up to
/// [`RACE_BACKOFF_MAX`] times, until `effort` is spent, the heuristic finds
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
    let mut backoff = Backoff::new();
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
        let improved = value > best;
        if improved {
            best = value;
            found(value, text);
        }
        spent += slice;
        seed += 1;
        pause = t.elapsed() * RACE_SLEEP_PER_RUN * backoff.after_call(t, improved);
    }
}

/// How much longer than the eager sleep the race sleeps after a call.
struct Backoff {
    /// The start of the eager time: the first call, or the last
    /// improvement.
    eager_since: Option<Instant>,
    factor: u32,
}

impl Backoff {
    fn new() -> Backoff {
        Backoff {
            eager_since: None,
            factor: 1,
        }
    }

    /// The sleep's factor after a call that started at `started` and
    /// `improved` on the best or not.
    fn after_call(&mut self, started: Instant, improved: bool) -> u32 {
        let since = *self.eager_since.get_or_insert(started);
        if improved {
            self.eager_since = Some(started);
            self.factor = 1;
        } else if started.duration_since(since) >= RACE_EAGER {
            self.factor = (self.factor * 2).min(RACE_BACKOFF_MAX);
        }
        self.factor
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

    #[test]
    fn a_fruitless_race_backs_off_after_its_eager_second_and_an_improvement_restores_it() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut b = Backoff::new();
        // Eager for a second from the first call, fruitless or not.
        assert_eq!(b.after_call(at(0), false), 1);
        assert_eq!(b.after_call(at(999), false), 1);
        // Then doubled by each fruitless call, up to the most.
        assert_eq!(b.after_call(at(1_000), false), 2);
        assert_eq!(b.after_call(at(1_100), false), 4);
        assert_eq!(b.after_call(at(1_300), false), 8);
        assert_eq!(b.after_call(at(1_700), false), RACE_BACKOFF_MAX);
        assert_eq!(b.after_call(at(5_000), false), RACE_BACKOFF_MAX);
        // An improvement: eager again, for a second from it.
        assert_eq!(b.after_call(at(6_000), true), 1);
        assert_eq!(b.after_call(at(6_500), false), 1);
        assert_eq!(b.after_call(at(7_000), false), 2);
    }
}
