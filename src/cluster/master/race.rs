//! Rank 0's race: the problem's heuristic on a thread of its own beside
//! the exact search (`engine::race`), its improvements handed to the head
//! between messages as incumbents found by the heuristic.

use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, bounded, unbounded};

use crate::engine::{Problem, race};

/// The race under way: its thread, what it found, and the channel whose
/// closing stops it.
pub(in crate::cluster) struct Race {
    found: Receiver<(u64, String)>,
    stop: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Race {
    /// Starts the race of `effort` from seed `first_seed` (the ramp-up's
    /// seeds are below it), to beat `best`.
    pub(in crate::cluster) fn start<P: Problem>(
        problem: Arc<P>,
        effort: u64,
        first_seed: u64,
        best: u64,
    ) -> std::io::Result<Race> {
        let (found_tx, found) = unbounded();
        let (stop, stopped) = bounded(0);
        let thread = std::thread::Builder::new()
            .name("race".into())
            .spawn(move || {
                race(
                    &*problem,
                    effort,
                    first_seed,
                    best,
                    &stopped,
                    |value, text| {
                        // The head may have ended: what comes late is not wanted.
                        let _ = found_tx.send((value, text));
                    },
                );
            })?;
        Ok(Race {
            found,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The improvements found since the last call.
    pub(in crate::cluster) fn found(&self) -> impl Iterator<Item = (u64, String)> + '_ {
        self.found.try_iter()
    }

    /// Stops the race and waits for its thread (at most one call of the
    /// heuristic, [`RACE_SLICE`](crate::engine::RACE_SLICE) effort).
    pub(in crate::cluster) fn end(&mut self) {
        self.stop.take();
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            tracing::warn!("the race's heuristic panicked");
        }
    }
}

impl Drop for Race {
    fn drop(&mut self) {
        self.end();
    }
}

#[cfg(test)]
mod test {
    use crate::cluster::{RunConfig, run_threaded};
    use crate::engine::{Mode, OptimiseTree, Optimising, Tree};
    use std::sync::Arc;
    use std::time::Duration;

    /// 32 leaves worth 1 each under 8 nodes, each leaf taking 20 ms to
    /// walk (beyond the root's expansion, which stops at the leaves); the
    /// heuristic finds 7 from seed 3 up (a ramp-up of one thread tries
    /// seed 1 alone, so only the race can meet it).
    struct Slow;

    impl Tree for Slow {
        type Node = u32;
        fn root(&self) -> u32 {
            0
        }
        fn children(&self, &v: &u32, out: &mut Vec<u32>) {
            match v {
                0 => out.extend(1..=8),
                1..=8 => out.extend((0..4).map(|i| 10 * v + i)),
                _ => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        fn solution_weight(&self, _: &u32) -> u64 {
            0
        }
        fn render(&self, v: &u32, out: &mut String) {
            out.push_str(&v.to_string());
        }
    }

    impl OptimiseTree for Slow {
        fn objective(&self, v: &u32) -> Option<u64> {
            (*v >= 10).then_some(1)
        }
        fn heuristic(&self, _: u64, seed: u64) -> Option<(u64, String)> {
            Some(if seed >= 3 {
                (7, "seven".into())
            } else {
                (1, "one".into())
            })
        }
    }

    #[test]
    fn the_race_beside_the_search_gives_the_incumbent() {
        for (race, best) in [(crate::cluster::config::DEFAULT_RACE, 7), (0, 1)] {
            let config = RunConfig::new(Mode::Optimise).threads(1).race(race);
            let outcome =
                run_threaded(Arc::new(Optimising(Slow)), &config, 1, &mut Vec::new()).unwrap();
            assert_eq!(outcome.objective, Some(best), "race {race}");
            let raced: Vec<_> = outcome
                .improvements
                .iter()
                .filter(|i| i.heuristic && i.value == 7)
                .collect();
            if race == 0 {
                assert!(raced.is_empty(), "{:?}", outcome.improvements);
            } else {
                // Found by the race, 50 ms in, while the search went on.
                assert_eq!(raced.len(), 1, "{:?}", outcome.improvements);
                assert!(raced[0].s >= 0.05 && raced[0].s < outcome.wall_s);
                assert_eq!(outcome.found, ["seven"]);
            }
        }
    }
}
