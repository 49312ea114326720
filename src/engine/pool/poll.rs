//! The workers' turn at the rank's messages: a busy rank notices a
//! message within microseconds because its own workers look, at node
//! boundaries, on a cheap clock, instead of a manager thread that sleeps
//! between polls and then waits for a core its workers hold.
//!
//! The pool knows nothing of messages: its owner (the cluster's rank)
//! gives it a [`Poller`] and an interval, and each worker calls
//! [`Poller::poll`] about that often while it walks, and at once after it
//! hands the owner an event that another rank waits for (a donation, its
//! pool gone idle).

use std::cell::Cell;
use std::time::{Duration, Instant};

/// Whoever owns the pool and wants its workers' help with its messages.
pub(crate) trait Poller: Send + Sync {
    /// A worker's turn: handle what has arrived, if no other thread is
    /// at it already (then return at once: that thread sees it). Returns
    /// whether an idle worker should go on looking: the owner waits for
    /// an answer (work), and its threads have cores of their own.
    fn poll(&self) -> bool;
}

/// How long an idle worker looks at the owner's messages while the owner
/// waits for work, before it parks (`cluster/README.md`, "Noticing a
/// message").
pub(crate) const SPIN: Duration = Duration::from_millis(2);

/// Most looks at the context between two reads of the clock.
const MOST_LOOKS: u32 = 1 << 16;

/// A worker's cheap clock: it reads the time only every `looks` looks at
/// its context, and adapts `looks` so that it reads it about four times
/// an interval: in a walk of a few nanoseconds a node, a clock read at
/// every look (every 16 nodes) would cost more than the walk.
pub(crate) struct PollClock<'a> {
    poller: &'a dyn Poller,
    every: Duration,
    looks: Cell<u32>,
    countdown: Cell<u32>,
    last: Cell<Instant>,
}

impl<'a> PollClock<'a> {
    pub(crate) fn new(poller: &'a dyn Poller, every: Duration) -> Self {
        PollClock {
            poller,
            every,
            looks: Cell::new(1),
            countdown: Cell::new(1),
            last: Cell::new(Instant::now()),
        }
    }

    /// One look at the context: polls when the interval has passed.
    #[inline(always)]
    pub(crate) fn tick(&self) {
        let left = self.countdown.get();
        if left > 1 {
            self.countdown.set(left - 1);
        } else {
            self.read();
        }
    }

    /// Polls now (a worker handed the owner an event someone waits for).
    pub(crate) fn poll_now(&self) {
        self.last.set(Instant::now());
        let _ = self.poller.poll();
    }

    #[cold]
    #[inline(never)]
    fn read(&self) {
        let now = Instant::now();
        let since = now.saturating_duration_since(self.last.get());
        let mut looks = self.looks.get();
        if since < self.every / 4 {
            looks = (looks * 2).min(MOST_LOOKS);
        } else if since > self.every {
            looks = (looks / 2).max(1);
        }
        self.looks.set(looks);
        self.countdown.set(looks);
        if since >= self.every {
            self.last.set(now);
            let _ = self.poller.poll();
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Counted(AtomicUsize);

    impl Poller for Counted {
        fn poll(&self) -> bool {
            self.0.fetch_add(1, Ordering::Relaxed);
            false
        }
    }

    /// Ticks for `wall`, returns the polls made and the clock's looks a read.
    fn ticks(every: Duration, wall: Duration) -> (usize, u32) {
        let counted = Counted(AtomicUsize::new(0));
        let clock = PollClock::new(&counted, every);
        let start = Instant::now();
        while start.elapsed() < wall {
            for _ in 0..64 {
                clock.tick();
                std::hint::black_box(&clock);
            }
        }
        (counted.0.load(Ordering::Relaxed), clock.looks.get())
    }

    #[test]
    fn the_clock_polls_about_once_an_interval_and_reads_the_time_rarely() {
        let (polls, looks) = ticks(Duration::from_millis(2), Duration::from_millis(100));
        // 50 intervals; a busy test machine may stretch some.
        assert!((10..=60).contains(&polls), "{polls} polls");
        assert!(looks > 1, "the clock is read at every look");
    }

    #[test]
    fn poll_now_polls_and_restarts_the_interval() {
        let counted = Counted(AtomicUsize::new(0));
        let clock = PollClock::new(&counted, Duration::from_secs(60));
        clock.poll_now();
        clock.tick();
        assert_eq!(counted.0.load(Ordering::Relaxed), 1);
    }
}
