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
/// (`cluster/manager.rs`: the pause doubles from the one to the other while
/// nothing happens; with no rank oversubscribed the longest is 1 ms).
pub(super) const POLL_MIN: Ns = 20_000;
pub(super) const POLL_MAX: Ns = 1_000_000;

/// The first poll at or after `t` of a manager last active at `active`:
/// it polls again at once, then after 20 µs, 40 µs, ... up to 1 ms apart.
pub(super) fn next_poll(active: Ns, t: Ns) -> Ns {
    if t <= active {
        return active;
    }
    let mut at = active;
    let mut pause = POLL_MIN;
    while at < t {
        if pause == POLL_MAX {
            // Whole periods at once.
            let periods = (t - at).div_ceil(POLL_MAX);
            return at + periods * POLL_MAX;
        }
        at += pause;
        pause = (pause * 2).min(POLL_MAX);
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
        assert_eq!(next_poll(100, 50), 100);
        assert_eq!(next_poll(0, 1), 20_000);
        assert_eq!(next_poll(0, 20_000), 20_000);
        assert_eq!(next_poll(0, 20_001), 60_000);
        // 20+40+80+160+320+640 = 1,260 µs, then 1 ms apart.
        assert_eq!(next_poll(0, 1_000_000), 1_260_000);
        assert_eq!(next_poll(0, 1_260_001), 2_260_000);
        assert_eq!(next_poll(0, 10_000_000), 10_260_000);
    }
}
