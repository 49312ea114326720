//! The virtual clock: events ordered by time, ties by the order they were
//! scheduled (so a run depends on nothing but its inputs and seed), and
//! the managers' poll schedule.

use super::pool::Ns;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

struct Entry<E> {
    at: Ns,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        (self.at, self.seq) == (o.at, o.seq)
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Entry<E> {
    /// Reversed: the heap's top is the earliest.
    fn cmp(&self, o: &Self) -> Ordering {
        (o.at, o.seq).cmp(&(self.at, self.seq))
    }
}

/// Events to come.
pub(super) struct Clock<E> {
    heap: BinaryHeap<Entry<E>>,
    seq: u64,
    /// Events taken so far.
    pub(super) taken: u64,
}

impl<E> Clock<E> {
    pub(super) fn new() -> Self {
        Clock {
            heap: BinaryHeap::new(),
            seq: 0,
            taken: 0,
        }
    }

    pub(super) fn at(&mut self, at: Ns, event: E) {
        self.seq += 1;
        self.heap.push(Entry {
            at,
            seq: self.seq,
            event,
        });
    }

    /// The earliest event, with its time.
    pub(super) fn next(&mut self) -> Option<(Ns, E)> {
        let e = self.heap.pop()?;
        self.taken += 1;
        Some((e.at, e.event))
    }
}

/// A manager's shortest pause between polls, and the longest
/// (`cluster/rank/manager.rs`: the pause doubles from the one to the other while
/// nothing happens; with no rank oversubscribed the longest is 1 ms, and
/// it grows with the oversubscription up to 64 ms, rank 0's excepted).
pub(super) const POLL_MIN: Ns = 20_000;
pub(super) const POLL_MAX: Ns = 1_000_000;
const POLL_MAX_OVERSUBSCRIBED: Ns = 64_000_000;
/// How often a busy rank's workers look at its messages where every
/// thread has a core (`cluster/rank/manager.rs`'s `WORKER_POLL`); with `load`
/// threads a core, `load` times less often.
pub(super) const WORKER_POLL: Ns = crate::cluster::rank::manager::WORKER_POLL.as_nanos() as Ns;
/// A rank that waits for an answer where every thread has a core spins,
/// yielding its core at each turn: it sees a message within a turn.
pub(super) const SPIN_POLL: Ns = 1_000;

/// The longest pause of the polls of `rank` waiting for work, with `load`
/// threads a core: it spins where it has cores to itself (`spins`,
/// `manager.rs`).
pub(super) fn idle_poll_max(rank: usize, load: u64) -> Ns {
    if load <= 1 {
        SPIN_POLL
    } else {
        manager_poll_max(rank, load)
    }
}

/// The longest pause between two looks at `rank`'s messages while it
/// works, with `threads` workers and `load` workers a core: each worker
/// looks on a clock of its own (`engine/pool/poll.rs`), so the rank looks
/// `threads` times an interval, more often than its manager's longest
/// pause.
pub(super) fn poll_max(rank: usize, load: u64, threads: usize) -> Ns {
    (WORKER_POLL * load.max(1))
        .div_ceil(threads.max(1) as Ns)
        .min(manager_poll_max(rank, load))
}

/// The longest pause of `rank`'s manager alone, with `load` workers a core.
fn manager_poll_max(rank: usize, load: u64) -> Ns {
    if rank == 0 {
        POLL_MAX
    } else {
        (POLL_MAX * load.max(1)).min(POLL_MAX_OVERSUBSCRIBED)
    }
}

/// The first poll at or after `t` of a manager last active at `active`
/// whose pauses grow to `max`: it polls again at once, then after 20 µs,
/// 40 µs, ... up to `max` apart.
pub(super) fn next_poll(active: Ns, t: Ns, max: Ns) -> Ns {
    if t <= active {
        return active;
    }
    let mut at = active;
    let mut pause = POLL_MIN.min(max);
    while at < t {
        if pause == max {
            // Whole periods at once.
            let periods = (t - at).div_ceil(max);
            return at + periods * max;
        }
        at += pause;
        pause = (pause * 2).min(max);
    }
    at
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn events_come_in_time_order_and_ties_in_scheduling_order() {
        let mut c = Clock::new();
        c.at(5, 'a');
        c.at(3, 'b');
        c.at(5, 'c');
        c.at(0, 'd');
        let order: Vec<char> = std::iter::from_fn(|| c.next().map(|e| e.1)).collect();
        assert_eq!(order, ['d', 'b', 'a', 'c']);
    }

    #[test]
    fn polls_back_off_from_the_last_activity() {
        assert_eq!(next_poll(100, 50, POLL_MAX), 100);
        assert_eq!(next_poll(0, 1, POLL_MAX), 20_000);
        assert_eq!(next_poll(0, 20_000, POLL_MAX), 20_000);
        assert_eq!(next_poll(0, 20_001, POLL_MAX), 60_000);
        // 20+40+80+160+320+640 = 1,260 µs, then 1 ms apart.
        assert_eq!(next_poll(0, 1_000_000, POLL_MAX), 1_260_000);
        assert_eq!(next_poll(0, 1_260_001, POLL_MAX), 2_260_000);
        assert_eq!(next_poll(0, 10_000_000, POLL_MAX), 10_260_000);
        // Oversubscribed 32 times: the manager's pauses grow to 32 ms,
        // and the workers look every 640 µs.
        assert_eq!(manager_poll_max(3, 32), 32_000_000);
        assert_eq!(manager_poll_max(3, 1_000), 64_000_000);
        assert_eq!(manager_poll_max(0, 32), POLL_MAX);
        assert_eq!(poll_max(3, 32, 1), 640_000);
        assert_eq!(poll_max(3, 32, 16), 40_000);
        assert_eq!(poll_max(0, 1, 1), WORKER_POLL);
        assert_eq!(poll_max(0, 1, 16), WORKER_POLL / 16);
        // 20 + 40 + ... + 20,480 µs = 40,940 µs, then 32 ms apart.
        assert_eq!(next_poll(0, 100_000_000, 32_000_000), 104_940_000);
        // Busy workers look every 20 µs; a rank that waits spins.
        assert_eq!(next_poll(0, 30_000, WORKER_POLL), 40_000);
        assert_eq!(next_poll(0, 2_500, SPIN_POLL), 3_000);
        assert_eq!(idle_poll_max(5, 1), SPIN_POLL);
        assert_eq!(idle_poll_max(5, 2), manager_poll_max(5, 2));
    }
}
