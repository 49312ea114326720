//! The workers' turn at the rank's messages: a busy rank notices a
//! message within microseconds because its own workers look, at node
//! boundaries, on a cheap clock, instead of a manager thread that sleeps
//! between polls and then waits for a core its workers hold.
//!
//! The pool knows nothing of messages: its owner (the cluster's rank)
//! gives it a [`Poller`] and an interval, and each worker calls
//! [`Poller::poll`] about that often while it walks, and at once after it
//! hands the owner an event that another rank waits for (a donation, its
//! pool gone idle). The owner may also give it a doorbell, a flag that
//! others set when they send it a message: a worker looks at it at every
//! look, a load of a cache line, and polls at once when it is set.

use std::cell::Cell;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// The bell of an owner without one: never rung (the owner's side uses
/// it too, for a rank nobody rings).
pub(crate) static SILENT: AtomicU32 = AtomicU32::new(0);

/// Whoever owns the pool and wants its workers' help with its messages.
pub(crate) trait Poller: Send + Sync {
    /// A worker's turn: handle what has arrived, if no other thread is
    /// at it already (then return at once: that thread sees it). Returns
    /// whether an idle worker should go on looking: the owner waits for
    /// an answer (work), and its threads have cores of their own.
    fn poll(&self) -> bool;

    /// The owner's doorbell: non-zero once someone has sent the owner a
    /// message it has not looked for yet. `poll` clears it before it
    /// looks, so a bell rung during a poll is heard at the next look.
    fn doorbell(&self) -> &AtomicU32 {
        &SILENT
    }
}

/// How long an idle worker looks at the owner's messages while the owner
/// waits for work, before it parks (`cluster/README.md`, "Noticing a
/// message").
pub(crate) const SPIN: Duration = Duration::from_millis(2);

/// Most looks at the context between two reads of the clock.
const MOST_LOOKS: u32 = 1 << 16;

/// A worker's cheap clock: it reads the time only every so many looks at
/// its context (in a walk of a few nanoseconds a node, a clock read at
/// every look, every 16 nodes, would cost more than the walk), and polls
/// at the first read an interval after the last poll.
///
/// So that the polls keep to the interval, not to a multiple of the reads,
/// each read measures what a look took since the last read and counts
/// down to the next read by that: half an interval's looks, but no more
/// than the looks left until the interval is up, so that the next
/// read falls on it. A poll then comes about an interval after the last
/// (two reads an interval). The clock before read every quarter to whole
/// interval and polled at the first read past it, so its polls came
/// later: with looks of 0.86 µs (UTS, 16 nodes of 54 ns) and an interval
/// of 20 µs, every 24 µs on average, where this one polls every 20.6
/// (modelled; the test below measures a coarser case).
pub(crate) struct PollClock<'a> {
    poller: &'a dyn Poller,
    bell: &'a AtomicU32,
    /// The bell rang on after a poll for it (another thread held the
    /// owner's messages): heard again from the next read of the clock.
    deaf: Cell<bool>,
    every: Duration,
    /// Looks left until the next read.
    countdown: Cell<u32>,
    /// The looks counted down to this read.
    counted: Cell<u32>,
    /// When the clock was read last, and when it last polled.
    read_at: Cell<Instant>,
    polled_at: Cell<Instant>,
}

impl<'a> PollClock<'a> {
    pub(crate) fn new(poller: &'a dyn Poller, every: Duration) -> Self {
        let now = Instant::now();
        PollClock {
            poller,
            bell: poller.doorbell(),
            deaf: Cell::new(false),
            every,
            countdown: Cell::new(1),
            counted: Cell::new(1),
            read_at: Cell::new(now),
            polled_at: Cell::new(now),
        }
    }

    /// One look at the context: polls when the doorbell rang or the
    /// interval has passed.
    #[inline(always)]
    pub(crate) fn tick(&self) {
        // Relaxed: the bell is a hint to look now; what it announces is
        // read through the owner's transport, which orders it.
        if !self.deaf.get() && self.bell.load(Ordering::Relaxed) != 0 {
            self.rung();
            return;
        }
        let left = self.countdown.get();
        if left > 1 {
            self.countdown.set(left - 1);
        } else {
            self.read();
        }
    }

    /// Polls now (a worker handed the owner an event someone waits for).
    pub(crate) fn poll_now(&self) {
        let _ = self.poller.poll();
        let now = Instant::now();
        self.polled_at.set(now);
        self.read_at.set(now);
        self.counted.set(self.countdown.get().max(1));
    }

    /// The doorbell rang: poll now, and count the interval from here.
    /// Still rung after the poll, the bell waits for the clock's next
    /// read: another thread is at the owner's messages (and answers the
    /// bell when it next pumps), and a worker that tried again at every
    /// look would spend its walk on it.
    #[cold]
    #[inline(never)]
    fn rung(&self) {
        self.poll_now();
        if self.bell.load(Ordering::Relaxed) != 0 {
            self.deaf.set(true);
        }
    }

    #[cold]
    #[inline(never)]
    fn read(&self) {
        self.deaf.set(false);
        let mut now = Instant::now();
        // What one look took since the last read (at least a nanosecond).
        let gap = now.saturating_duration_since(self.read_at.get()).as_nanos();
        let per_look = (gap / u128::from(self.counted.get())).max(1);
        let every = self.every.as_nanos();
        // Looks between two reads while the interval is far: half of it.
        let looks = ((every / 2) / per_look).clamp(1, u128::from(MOST_LOOKS)) as u32;
        if now.saturating_duration_since(self.polled_at.get()) >= self.every {
            let _ = self.poller.poll();
            // The poll's own time is no look's: the next gap starts after it.
            now = Instant::now();
            self.polled_at.set(now);
        }
        let left = every.saturating_sub(
            now.saturating_duration_since(self.polled_at.get())
                .as_nanos(),
        );
        let next = u128::from(looks).min(left.div_ceil(per_look)).max(1) as u32;
        self.read_at.set(now);
        self.countdown.set(next);
        self.counted.set(next);
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

    /// Ticks for `wall`, returns the polls made and the most looks the
    /// clock counted down between two reads.
    fn ticks(every: Duration, wall: Duration) -> (usize, u32) {
        let counted = Counted(AtomicUsize::new(0));
        let clock = PollClock::new(&counted, every);
        let start = Instant::now();
        let mut most = 0;
        while start.elapsed() < wall {
            for _ in 0..64 {
                clock.tick();
                std::hint::black_box(&clock);
            }
            most = most.max(clock.counted.get());
        }
        (counted.0.load(Ordering::Relaxed), most)
    }

    #[test]
    fn the_clock_polls_about_once_an_interval_and_reads_the_time_rarely() {
        let (polls, looks) = ticks(Duration::from_millis(2), Duration::from_millis(100));
        // 50 intervals; a busy test machine may stretch some.
        assert!((10..=51).contains(&polls), "{polls} polls");
        assert!(looks > 1, "the clock is read at every look");
    }

    /// Records when it was polled.
    struct Timed(std::sync::Mutex<Vec<Instant>>);

    impl Poller for Timed {
        fn poll(&self) -> bool {
            self.0.lock().unwrap().push(Instant::now());
            false
        }
    }

    #[test]
    fn polls_keep_to_the_interval_not_to_a_multiple_of_the_reads() {
        // Looks of 30 µs (timed by spinning), an interval of 700 µs: a
        // clock that polled at the first read past the interval, reading
        // every quarter to whole interval, polled every 840 µs on average
        // (modelled); this one shortens its countdown so that a read falls
        // on the interval, and polls within a look of it. The median gap
        // between polls is robust to a look the test machine preempts.
        let timed = Timed(std::sync::Mutex::new(Vec::new()));
        let every = Duration::from_micros(700);
        let clock = PollClock::new(&timed, every);
        let look = Duration::from_micros(30);
        for _ in 0..3_000 {
            let t = Instant::now();
            while t.elapsed() < look {
                std::hint::spin_loop();
            }
            clock.tick();
        }
        let polls = timed.0.into_inner().unwrap();
        let mut gaps: Vec<Duration> = polls.windows(2).map(|w| w[1] - w[0]).collect();
        gaps.sort();
        assert!(gaps.len() > 50, "{} polls", polls.len());
        let median = gaps[gaps.len() / 2];
        assert!(median >= every, "a poll came early: {median:?}");
        assert!(
            median <= every + look + look / 2,
            "polls every {median:?} for an interval of {every:?} and looks of {look:?}"
        );
    }

    /// Counts its polls, and clears its bell at each as an owner does,
    /// unless `held` (another thread holds the owner's messages).
    struct Belled {
        polls: AtomicUsize,
        bell: AtomicU32,
        held: bool,
    }

    impl Belled {
        fn new(rung: bool, held: bool) -> Belled {
            Belled {
                polls: AtomicUsize::new(0),
                bell: AtomicU32::new(u32::from(rung)),
                held,
            }
        }
    }

    impl Poller for Belled {
        fn poll(&self) -> bool {
            if !self.held {
                self.bell.store(0, Ordering::Relaxed);
            }
            self.polls.fetch_add(1, Ordering::Relaxed);
            false
        }
        fn doorbell(&self) -> &AtomicU32 {
            &self.bell
        }
    }

    #[test]
    fn a_rung_bell_is_heard_at_the_next_look_and_only_once() {
        let belled = Belled::new(false, false);
        let clock = PollClock::new(&belled, Duration::from_secs(60));
        for _ in 0..1_000 {
            clock.tick();
        }
        assert_eq!(belled.polls.load(Ordering::Relaxed), 0, "polled unrung");
        belled.bell.store(1, Ordering::Relaxed);
        clock.tick();
        assert_eq!(belled.polls.load(Ordering::Relaxed), 1, "the bell unheard");
        for _ in 0..1_000 {
            clock.tick();
        }
        assert_eq!(belled.polls.load(Ordering::Relaxed), 1, "heard twice");
    }

    #[test]
    fn a_bell_left_rung_is_not_polled_at_every_look() {
        let held = Belled::new(true, true);
        let clock = PollClock::new(&held, Duration::from_secs(60));
        for _ in 0..10_000 {
            clock.tick();
        }
        // The first look, and at most a read of the clock or two after it.
        let polls = held.polls.load(Ordering::Relaxed);
        assert!((1..=3).contains(&polls), "{polls} polls");
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
