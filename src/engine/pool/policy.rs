//! The pool's policy: when a rank is hungry, when a walking worker splits,
//! where an idle worker looks for a task, and what a donation request
//! takes. The real pool (`mod.rs`, threads and crossbeam deques) and the
//! simulator's virtual pool (`cluster/sim/pool.rs`, one worker step at a
//! time on a virtual clock) both decide by these functions, so a
//! prediction cannot drift from the run it predicts. Each pool reads its
//! own counters and takes from its own queues: the functions take the
//! values, and a `take` that reaches the queue a [`Source`] names.

use crate::engine::mode::Mode;
use crossbeam_deque::Steal;

/// A queue of the rank's pool a task can be taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// The worker's own deque, at its newest end (LIFO: the task it split
    /// off last, the deepest).
    Own,
    /// The rank's injector (what the manager received): for a worker, a
    /// batch moved onto its own deque and the first of them (one task
    /// where the pool [keeps order](keeps_order)); for a donation, one
    /// task from its front.
    Injector,
    /// Worker `w`'s deque, at its oldest end (the shallowest task: what a
    /// thief takes).
    Deque(usize),
}

/// What a donation request for another rank gets.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Donation<T> {
    /// Queued tasks, given whole at once.
    Queued(Vec<T>),
    /// Nothing queued: the next walk that looks splits for the other rank
    /// (the pool raises its `remote_wanted` flag).
    Split,
}

/// Whether the pool keeps the order of the tasks it was given: an idle
/// worker takes the injector's tasks one at a time, the first first,
/// instead of a batch onto its own deque. A branch and bound does
/// (`Mode::Optimise`): what a worker walks is then what a walk of one
/// thread would walk next, so the incumbent it meets prunes as much as
/// it would there. With batches, each of two workers took its own run of
/// a rank's prefixes, the second far ahead of the first: `brock400_4` on
/// 2 threads walked 29.9M nodes before the optimum was met and proven,
/// 18.9M on one (`problems/clique/README.md`). A count has no order to
/// keep, and takes batches (fewer looks at the shared injector).
#[inline]
pub(crate) fn keeps_order(mode: Mode) -> bool {
    mode == Mode::Optimise
}

/// The rank is hungry: a worker found nothing to take while at least
/// `threshold` workers are `idle` (0: never) and `pending` tasks are still
/// walked. The pool says so once until work is next injected.
#[inline]
pub(crate) fn hungry(threshold: usize, idle: usize, pending: usize) -> bool {
    threshold > 0 && idle >= threshold && pending > 0
}

/// A walking worker splits its walk when a worker of its rank is `idle`
/// and its own deque is empty (a thief would take from it first), or
/// another rank wants work (`remote_wanted`). Read every
/// [`POLL_EVERY`](crate::engine::walk::POLL_EVERY) nodes: the last two
/// are read only when needed, as the hot loop's plain `&&` and `||` would.
#[inline(always)]
pub(crate) fn wants_work(
    idle: usize,
    own_empty: impl FnOnce() -> bool,
    remote_wanted: impl FnOnce() -> bool,
) -> bool {
    (idle > 0 && own_empty()) || remote_wanted()
}

/// Where worker `index` of `workers` looks for a task, in order: its own
/// deque, then the injector (a batch, or one task where the pool keeps
/// order), then the other workers' deques from the next one round; again from the injector while a `take` had to be
/// retried (a race with another thief). Returns the task and where it came
/// from (a [`Source::Deque`] is a steal).
pub(crate) fn find_task<T>(
    index: usize,
    workers: usize,
    mut take: impl FnMut(Source) -> Steal<T>,
) -> Option<(T, Source)> {
    if let Steal::Success(task) = take(Source::Own) {
        return Some((task, Source::Own));
    }
    loop {
        let mut retry = false;
        let others = (1..workers).map(|k| Source::Deque((index + k) % workers));
        for source in std::iter::once(Source::Injector).chain(others) {
            match take(source) {
                Steal::Success(task) => return Some((task, source)),
                Steal::Retry => retry = true,
                Steal::Empty => {}
            }
        }
        if !retry {
            return None;
        }
    }
}

/// A donation request of the manager for another rank: the first
/// [`donation_share`] of the `queued` tasks (`idle` of the rank's
/// `workers` idle), the injector's first, then each worker's deque's
/// oldest in worker order; with none to take, a split.
pub(crate) fn donation<T>(
    queued: usize,
    workers: usize,
    idle: usize,
    mut take: impl FnMut(Source) -> Steal<T>,
) -> Donation<T> {
    let mut taken = Vec::new();
    let share = donation_share(queued, workers, idle);
    for source in std::iter::once(Source::Injector).chain((0..workers).map(Source::Deque)) {
        while taken.len() < share {
            match take(source) {
                Steal::Success(task) => taken.push(task),
                Steal::Retry => continue,
                Steal::Empty => break,
            }
        }
    }
    if taken.is_empty() {
        Donation::Split
    } else {
        Donation::Queued(taken)
    }
}

/// A donation takes the whole queue while it holds at most this many
/// tasks a worker of the rank (a thief's ranks have as many threads), and
/// half of a longer one, but never fewer than that many.
pub(crate) const WHOLE_QUEUE_PER_WORKER: usize = 16;

/// How many of the `queued` tasks of a rank of `workers` threads, `idle`
/// of them idle, a donation takes: all of them up to
/// [`WHOLE_QUEUE_PER_WORKER`] a worker, half of a longer queue, and never
/// fewer than that bound; but where a worker is idle, half, rounded down
/// (none of one task: the walk that takes it splits instead).
///
/// All, not half: a task is queued only where no worker of this rank
/// wanted it (an idle one would have taken it), and a donation crosses
/// the network and the master, so it should carry what it can (simulated
/// UTS T3XXL on 64 ranks of 16 threads, efficiency 0.637 with half, 0.666
/// with all, and a sixth fewer donations). But not without bound: a
/// hungry thief (one idle worker among walking ones) leaves nearly all it
/// gets queued, and the next request takes that whole again. In groups,
/// where hunger is the rule, piles of queued tasks went rank to rank,
/// coded and decoded at every hop: a simulation of T3XXL on 64 ranks of 16
/// in groups of 8 had not ended after 51 minutes (6.6 with this bound; in
/// one group, the same efficiency as whole queues). With the bound, the
/// rest of a long queue stays at the rank it was given to
/// (`bench-results/log/2026-11-to-12-groups.md`, "A bound on whole queues").
///
/// Half where a worker is idle: then the queue is not what no worker
/// wanted but what an idle worker is about to take. A donation and a
/// request to donate often come in one pump of the link: a rank of one
/// thread that waited for work took a `Donation`, then a `StealRequest`,
/// and gave the whole donation on before its worker took a task of it;
/// dry again, it stole it back. On T3L and T1L on 2 ranks of one thread
/// the same few tasks went back and forth unwalked (a run of T1L made
/// 840,295 steals and idled 8.3 s a worker, once steals took 10 µs, not
/// 30; `cluster/README.md`, "Noticing a message").
pub(crate) fn donation_share(queued: usize, workers: usize, idle: usize) -> usize {
    if idle > 0 {
        return queued / 2;
    }
    let whole = WHOLE_QUEUE_PER_WORKER * workers;
    if queued <= whole {
        queued
    } else {
        whole.max(queued.div_ceil(2))
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use std::collections::VecDeque;

    /// An injector and three deques of numbered tasks.
    struct Queues {
        injector: VecDeque<u32>,
        deques: Vec<VecDeque<u32>>,
        retries: u32,
    }

    impl Queues {
        fn new(injector: &[u32], deques: [&[u32]; 3]) -> Queues {
            Queues {
                injector: injector.iter().copied().collect(),
                deques: deques.iter().map(|d| d.iter().copied().collect()).collect(),
                retries: 0,
            }
        }

        /// Takes as worker `index` would (`None`: as the manager); the
        /// first `retries` looks at another's deque must be retried.
        fn take(&mut self, index: Option<usize>, source: Source) -> Steal<u32> {
            let got = match source {
                Source::Own => self.deques[index.expect("a worker's")].pop_back(),
                Source::Injector => self.injector.pop_front(),
                Source::Deque(w) => {
                    if self.retries > 0 {
                        self.retries -= 1;
                        return Steal::Retry;
                    }
                    self.deques[w].pop_front()
                }
            };
            got.map_or(Steal::Empty, Steal::Success)
        }
    }

    #[test]
    fn hunger_needs_the_threshold_and_work_still_walked() {
        assert!(hungry(2, 2, 1));
        assert!(hungry(2, 3, 1));
        assert!(!hungry(2, 1, 1));
        assert!(!hungry(2, 2, 0));
        assert!(!hungry(0, 4, 1));
    }

    #[test]
    fn a_split_is_wanted_by_an_idle_worker_only_when_the_own_deque_is_empty() {
        assert!(wants_work(1, || true, || false));
        assert!(!wants_work(1, || false, || false));
        assert!(wants_work(1, || false, || true));
        // Nobody idle: the own deque is not even read.
        assert!(!wants_work(0, || panic!("read"), || false));
        assert!(wants_work(0, || panic!("read"), || true));
    }

    #[test]
    fn a_worker_looks_in_its_deque_then_the_injector_then_the_next_workers() {
        let mut q = Queues::new(&[7], [&[], &[1, 2], &[3, 4]]);
        let find = |q: &mut Queues, i| find_task(i, 3, |s| q.take(Some(i), s));
        assert_eq!(find(&mut q, 1), Some((2, Source::Own)));
        assert_eq!(find(&mut q, 1), Some((1, Source::Own)));
        assert_eq!(find(&mut q, 1), Some((7, Source::Injector)));
        // Worker 1's next is worker 2, and a thief takes the oldest.
        assert_eq!(find(&mut q, 1), Some((3, Source::Deque(2))));
        assert_eq!(find(&mut q, 0), Some((4, Source::Deque(2))));
        assert_eq!(find(&mut q, 0), None);
        // A retry looks again.
        let mut q = Queues::new(&[], [&[], &[], &[5]]);
        q.retries = 2;
        assert_eq!(find(&mut q, 0), Some((5, Source::Deque(2))));
    }

    #[test]
    fn a_donation_takes_the_queue_injector_first_or_asks_for_a_split() {
        let mut q = Queues::new(&[1, 2], [&[3, 4], &[], &[5]]);
        let taken = donation(5, 3, 0, |s| q.take(None, s));
        assert_eq!(taken, Donation::Queued(vec![1, 2, 3, 4, 5]));
        // No more than was counted (a task queued since stays).
        let mut q = Queues::new(&[], [&[], &[8], &[9]]);
        assert_eq!(
            donation(1, 3, 0, |s| q.take(None, s)),
            Donation::Queued(vec![8])
        );
        let mut q = Queues::new(&[], [&[], &[], &[]]);
        assert_eq!(donation(0, 3, 0, |s| q.take(None, s)), Donation::Split);
        // A long queue: half of it, the injector's first.
        let whole = WHOLE_QUEUE_PER_WORKER * 3;
        let long: Vec<u32> = (0..4 * whole as u32).collect();
        let (injector, deque) = long.split_at(3 * whole);
        let mut q = Queues::new(injector, [&[], deque, &[]]);
        let taken = donation(long.len(), 3, 0, |s| q.take(None, s));
        assert_eq!(taken, Donation::Queued(long[..2 * whole].to_vec()));
        assert_eq!(q.injector.len() + q.deques[1].len(), 2 * whole);
        // Half that runs on from the injector into the deques, in order.
        let (injector, deque) = long.split_at(whole);
        let mut q = Queues::new(injector, [deque, &[], &[]]);
        let taken = donation(long.len(), 3, 0, |s| q.take(None, s));
        assert_eq!(taken, Donation::Queued(long[..2 * whole].to_vec()));
        assert!(q.deques[0].iter().eq(&long[2 * whole..]));
    }

    #[test]
    fn a_donation_takes_a_short_queue_whole_and_half_of_a_long_one_at_least_the_bound() {
        let whole = WHOLE_QUEUE_PER_WORKER * 16;
        assert_eq!(donation_share(0, 16, 0), 0);
        assert_eq!(donation_share(1, 16, 0), 1);
        assert_eq!(donation_share(whole, 16, 0), whole);
        // Just over the bound: the bound, not half.
        assert_eq!(donation_share(whole + 1, 16, 0), whole);
        assert_eq!(donation_share(2 * whole, 16, 0), whole);
        assert_eq!(donation_share(2 * whole + 1, 16, 0), whole + 1);
        assert_eq!(donation_share(10 * whole, 16, 0), 5 * whole);
        // A rank of one thread: a bound of its own.
        let one = WHOLE_QUEUE_PER_WORKER;
        assert_eq!(donation_share(one + 2, 1, 0), one);
        assert_eq!(donation_share(3 * one, 1, 0), (3 * one).div_ceil(2));
    }

    #[test]
    fn a_rank_with_an_idle_worker_keeps_half_its_queue_and_one_task_whole() {
        // A rank of one thread that was given 10 tasks and asked for work
        // before its idle worker took any: 5 go, 5 stay.
        assert_eq!(donation_share(10, 1, 1), 5);
        assert_eq!(donation_share(11, 1, 1), 5);
        // One task stays with the idle worker, and a split is asked for.
        assert_eq!(donation_share(1, 1, 1), 0);
        let mut q = Queues::new(&[7], [&[], &[], &[]]);
        assert_eq!(donation(1, 3, 2, |s| q.take(None, s)), Donation::Split);
        assert_eq!(q.injector, [7]);
        // Many threads, some idle: half, not the whole short queue.
        assert_eq!(donation_share(40, 16, 3), 20);
    }
}
