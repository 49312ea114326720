//! The per-rank pool of worker threads: crossbeam-deque work stealing with
//! donation of unexplored siblings. The protocol and its invariants are in
//! `README.md` beside this file.

pub(crate) mod policy;
mod poll;
mod sleep;
pub(crate) mod stats;
pub(crate) mod units;

use crate::engine::mode::Mode;
use crate::engine::prefix::Prefix;
use crate::engine::problem::Problem;
use crate::engine::{Context, Count, Searcher, Task};
use crossbeam_channel::Sender;
use crossbeam_deque::{Injector, Steal, Stealer, Worker};
use policy::{Donation, Source};
use poll::PollClock;
pub(crate) use poll::{Poller, SILENT};
use sleep::{Look, Sleep};
use stats::{Tally, WorkerStats};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use units::Units;

/// What the pool tells the thread that owns it (the rank's manager).
#[derive(Debug)]
pub(crate) enum PoolEvent<N> {
    /// Rendered solutions, in the order a worker found them; with unit
    /// tracking, the unit they belong to.
    Solutions {
        unit: Option<Prefix>,
        texts: Vec<String>,
    },
    /// Unit tracking: this rank has finished every parcel of a unit it held.
    UnitDone(UnitReport),
    /// Every task given to the pool is finished: the rank is idle. (Sent
    /// when the count of tasks reaches zero; work injected since, before
    /// the owner read this, makes it stale: [`RankPool::idle`] says.)
    Idle,
    /// The pool still holds tasks, but at least its hunger threshold of
    /// workers are idle and found nothing to steal: it would take more
    /// work. Sent once until work is next injected.
    Hungry,
    /// A worker answered [`RankPool::request_donation`] with these subtrees.
    Donated(Vec<Task<N>>),
    /// Optimisation: a solution better than any this rank knew, its
    /// objective and its text.
    Improved { value: u64, text: String },
}

/// What a rank did on one unit (an initial prefix of the master's) since
/// it last reported it: the parcels of it the rank received, and what
/// their walks counted (encoded as the fields of both in order).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct UnitReport {
    pub(crate) unit: Prefix,
    pub(crate) received: u64,
    pub(crate) count: Count,
}

/// Solutions a worker buffers in `all` mode before handing them over.
pub(crate) const SOLUTION_BATCH: usize = 512;

struct Shared<N> {
    injector: Injector<Task<N>>,
    stealers: Vec<Stealer<Task<N>>>,
    /// Tasks given to this pool and not yet finished (queued or running).
    pending: AtomicUsize,
    /// Workers currently without a task (looking or parked).
    idle: AtomicUsize,
    /// Idle workers with nothing to steal at which the pool reports
    /// [`PoolEvent::Hungry`] (0: never).
    hunger: usize,
    /// A `Hungry` was sent and no work injected since.
    hungry_sent: AtomicBool,
    /// The manager wants a donation for another rank.
    remote_wanted: AtomicBool,
    stop: AtomicBool,
    /// Solutions reported by this rank's workers (modes with a limit).
    found: AtomicU64,
    /// Optimisation: the least objective that improves on the best known
    /// on this rank (found here, or told by the master).
    floor: AtomicU64,
    limit: Option<u64>,
    /// Live progress, summed over workers at task ends.
    live_nodes: AtomicU64,
    live_solutions: AtomicU64,
    /// Depth of the master's initial prefixes (`usize::MAX`: not known
    /// yet). Subtrees split off a walk are always deeper, so a finished
    /// task at exactly this depth is one initial prefix walked.
    initial_depth: AtomicUsize,
    /// The problem encodes its nodes: split-off tasks keep their prefixes
    /// only down to the initial depth.
    encodes: bool,
    /// Idle workers take the injector's tasks one at a time
    /// ([`policy::keeps_order`]).
    keeps_order: bool,
    initial_done: AtomicU64,
    /// Unit tracking (for checkpoints): each unit's open tasks and totals.
    units: Option<parking_lot::Mutex<Units>>,
    sleep: Sleep,
    events: Sender<PoolEvent<N>>,
    /// The owner's messages, which busy workers look at on their clock
    /// (`poll.rs`), and how often; unset: the owner alone looks.
    poller: OnceLock<(Arc<dyn Poller>, Duration)>,
    /// A worker is looking at the owner's messages while it waits for work.
    spinning: AtomicBool,
}

/// A rank's worker threads.
pub(crate) struct RankPool<N: Send + 'static> {
    shared: Arc<Shared<N>>,
    handles: Vec<JoinHandle<WorkerStats>>,
}

/// A rank's worker threads (`here`), and the workers of the whole run
/// (`run`, every rank's): a worker's count cut-off may depend on them
/// ([`Problem::count_cutoff_for`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Threads {
    pub(crate) here: usize,
    pub(crate) run: usize,
}

impl<N: Clone + Send + 'static> RankPool<N> {
    /// Starts `threads.here` workers on `problem`. They park until tasks arrive;
    /// they stop on their own once `limit` solutions are found on this rank.
    /// With `track_units`, the pool also accounts for every unit (initial
    /// prefix, see [`RankPool::set_initial_depth`]) and sends a
    /// [`PoolEvent::UnitDone`] when it holds no more of one. With `hunger`
    /// above 0, it sends [`PoolEvent::Hungry`] when that many workers are
    /// idle with nothing to steal while it still holds tasks.
    pub(crate) fn start<P: Problem<Node = N>>(
        problem: Arc<P>,
        mode: Mode,
        limit: Option<u64>,
        threads: Threads,
        events: Sender<PoolEvent<N>>,
        track_units: bool,
        hunger: usize,
    ) -> Self {
        let run_workers = threads.run;
        let workers: Vec<Worker<Task<N>>> = (0..threads.here.max(1))
            .map(|_| Worker::new_lifo())
            .collect();
        let shared = Arc::new(Shared {
            injector: Injector::new(),
            stealers: workers.iter().map(Worker::stealer).collect(),
            pending: AtomicUsize::new(0),
            idle: AtomicUsize::new(0),
            hunger,
            hungry_sent: AtomicBool::new(false),
            remote_wanted: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            found: AtomicU64::new(0),
            floor: AtomicU64::new(0),
            limit,
            live_nodes: AtomicU64::new(0),
            live_solutions: AtomicU64::new(0),
            initial_depth: AtomicUsize::new(usize::MAX),
            encodes: P::ENCODES,
            keeps_order: policy::keeps_order(mode),
            initial_done: AtomicU64::new(0),
            units: track_units.then(|| parking_lot::Mutex::new(Units::default())),
            sleep: Sleep::default(),
            events,
            poller: OnceLock::new(),
            spinning: AtomicBool::new(false),
        });
        let handles = workers
            .into_iter()
            .enumerate()
            .map(|(index, local)| {
                let shared = shared.clone();
                let problem = problem.clone();
                std::thread::Builder::new()
                    .name(format!("worker-{index}"))
                    .spawn(move || worker_main(index, &*problem, mode, run_workers, &shared, local))
                    .expect("spawning a worker thread")
            })
            .collect();
        RankPool { shared, handles }
    }

    /// Hands tasks to the pool.
    pub(crate) fn inject(&self, tasks: Vec<Task<N>>) {
        if tasks.is_empty() {
            return;
        }
        self.shared.pending.fetch_add(tasks.len(), Ordering::SeqCst);
        if let Some(units) = &self.shared.units {
            let depth = self.shared.initial_depth.load(Ordering::Relaxed);
            let mut units = units.lock();
            for task in &tasks {
                units.open(&task.prefix.truncated(depth), 1, true);
            }
        }
        for task in tasks {
            self.shared.injector.push(task);
        }
        // A hunger after this one is a new one.
        self.shared.hungry_sent.store(false, Ordering::SeqCst);
        self.shared.sleep.notify();
    }

    /// Has the workers look at the owner's messages (`poller`) about
    /// every `every` while they walk, and at once after they hand it a
    /// donation or report the pool idle. Set once, before work comes.
    pub(crate) fn set_poller(&self, poller: Arc<dyn Poller>, every: Duration) {
        let _ = self.shared.poller.set((poller, every));
    }

    /// Whether every task given to the pool is finished (see
    /// [`PoolEvent::Idle`]).
    pub(crate) fn idle(&self) -> bool {
        self.shared.pending.load(Ordering::SeqCst) == 0
    }

    /// Asks for subtrees to give to another rank: the queued tasks at
    /// once, as `policy::donation_share` bounds them; when none are
    /// queued, the next worker that can split its walk answers with a
    /// [`PoolEvent::Donated`]. Returns the tasks taken at once (possibly
    /// none) and whether that left the pool idle.
    pub(crate) fn request_donation(&self) -> (Vec<Task<N>>, bool) {
        let sh = &self.shared;
        let queued: usize = sh.injector.len() + sh.stealers.iter().map(Stealer::len).sum::<usize>();
        let idle = sh.idle.load(Ordering::SeqCst);
        let taken = match policy::donation(queued, sh.stealers.len(), idle, |source| match source {
            Source::Injector => sh.injector.steal(),
            Source::Deque(w) => sh.stealers[w].steal(),
            Source::Own => unreachable!("the manager has no deque"),
        }) {
            Donation::Queued(taken) => taken,
            Donation::Split => {
                sh.remote_wanted.store(true, Ordering::SeqCst);
                return (Vec::new(), false);
            }
        };
        // Queued tasks leave whole: their units count them as finished
        // here (the master counts them again as parcels in its pool).
        for task in &taken {
            self.shared.close_task(&task.prefix, Count::default());
        }
        let before = self.shared.pending.fetch_sub(taken.len(), Ordering::SeqCst);
        let now_idle = before == taken.len();
        (taken, now_idle)
    }

    /// Optimisation: solutions below `floor` no longer improve on the best
    /// known (the master's incumbent, or a target), and subtrees whose
    /// bound is below it are pruned.
    pub(crate) fn raise_floor(&self, floor: u64) {
        self.shared.floor.fetch_max(floor, Ordering::SeqCst);
    }

    /// Withdraws a donation request that no worker has taken up.
    pub(crate) fn withdraw_donation_request(&self) {
        self.shared.remote_wanted.store(false, Ordering::SeqCst);
    }

    /// Tells the pool how deep the master's initial prefixes are, so that
    /// [`RankPool::progress`] can count them.
    pub(crate) fn set_initial_depth(&self, depth: usize) {
        self.shared.initial_depth.store(depth, Ordering::Relaxed);
    }

    /// Nodes, solutions and initial prefixes finished so far (updated at
    /// task ends).
    pub(crate) fn progress(&self) -> Tally {
        Tally {
            nodes: self.shared.live_nodes.load(Ordering::Relaxed),
            solutions: self.shared.live_solutions.load(Ordering::Relaxed),
            initial_done: self.shared.initial_done.load(Ordering::Relaxed),
        }
    }

    /// Stops every worker and returns their statistics.
    pub(crate) fn stop(self) -> Vec<WorkerStats> {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.shared.sleep.notify();
        self.handles
            .into_iter()
            .map(|h| h.join().expect("a worker thread panicked"))
            .collect()
    }
}

impl<N> Shared<N> {
    /// A worker found nothing to steal: when enough are idle while the
    /// pool still holds tasks (being walked), the rank would take more
    /// work. Once until the next injection.
    fn report_hunger(&self) {
        let (idle, pending) = (&self.idle, &self.pending);
        if policy::hungry(
            self.hunger,
            idle.load(Ordering::SeqCst),
            pending.load(Ordering::SeqCst),
        ) && !self.hungry_sent.swap(true, Ordering::SeqCst)
        {
            let _ = self.events.send(PoolEvent::Hungry);
        }
    }

    /// Unit tracking: a task of `prefix` is done here (walked, counting
    /// `counted`, or given away whole). Reports the unit when this rank
    /// holds no more of it.
    fn close_task(&self, prefix: &Prefix, counted: Count) {
        let Some(units) = &self.units else { return };
        let unit = prefix.truncated(self.initial_depth.load(Ordering::Relaxed));
        let report = units.lock().close(&unit, counted);
        if let Some(report) = report {
            let _ = self.events.send(PoolEvent::UnitDone(report));
        }
    }
}

/// The walk's view of the pool, for one worker.
struct WorkerContext<'a, N> {
    shared: &'a Shared<N>,
    local: &'a Worker<Task<N>>,
    buffer: Vec<String>,
    stats: &'a mut WorkerStats,
    /// Unit tracking: the unit of the task being walked.
    unit: Option<Prefix>,
    /// The worker's clock for the owner's messages, when it looks at them.
    clock: Option<&'a PollClock<'a>>,
}

impl<N> WorkerContext<'_, N> {
    fn flush(&mut self) {
        if !self.buffer.is_empty() {
            let texts = std::mem::take(&mut self.buffer);
            // The manager outlives the workers; a send can only fail while
            // the process is already tearing down.
            let _ = self.shared.events.send(PoolEvent::Solutions {
                unit: self.unit.clone(),
                texts,
            });
        }
    }
}

impl<N> Context<N> for WorkerContext<'_, N> {
    #[inline]
    fn stop(&self) -> bool {
        if let Some(clock) = self.clock {
            clock.tick();
        }
        self.shared.stop.load(Ordering::Relaxed)
    }

    #[inline]
    fn wants_work(&self) -> bool {
        policy::wants_work(
            self.shared.idle.load(Ordering::Relaxed),
            || self.local.is_empty(),
            || self.shared.remote_wanted.load(Ordering::Relaxed),
        )
    }

    #[inline]
    fn prefix_depth(&self) -> usize {
        if self.shared.encodes {
            self.shared.initial_depth.load(Ordering::Relaxed)
        } else {
            usize::MAX
        }
    }

    fn donate(&mut self, tasks: Vec<Task<N>>) {
        let remote = self.shared.remote_wanted.load(Ordering::Relaxed)
            && self.shared.remote_wanted.swap(false, Ordering::SeqCst);
        if remote {
            self.stats.prefixes_donated += tasks.len() as u64;
            let _ = self.shared.events.send(PoolEvent::Donated(tasks));
            // The thief waits: the donation leaves now, not at the next poll.
            if let Some(clock) = self.clock {
                clock.poll_now();
            }
            return;
        }
        self.stats.local_donations += tasks.len() as u64;
        self.shared.pending.fetch_add(tasks.len(), Ordering::SeqCst);
        if let (Some(units), Some(unit)) = (&self.shared.units, &self.unit) {
            units.lock().open(unit, tasks.len(), false);
        }
        for task in tasks {
            self.local.push(task);
        }
        self.shared.sleep.notify();
    }

    #[inline]
    fn floor(&self) -> u64 {
        self.shared.floor.load(Ordering::Relaxed)
    }

    /// Only an improvement on the rank's best leaves the rank, so a rank
    /// sends at most as many as the objective has values.
    fn improved(&mut self, value: u64, text: &str) {
        let before = self.shared.floor.fetch_max(value + 1, Ordering::SeqCst);
        if before > value {
            return;
        }
        self.stats.improvements += 1;
        let _ = self.shared.events.send(PoolEvent::Improved {
            value,
            text: text.to_owned(),
        });
        // A target (`--at-least`): the first solution that reaches it ends
        // the search.
        if self.shared.limit.is_some() {
            self.shared.stop.store(true, Ordering::SeqCst);
            self.shared.sleep.notify();
        }
    }

    fn found(&mut self, text: &str) {
        self.buffer.push(text.to_owned());
        if let Some(limit) = self.shared.limit {
            let total = self.shared.found.fetch_add(1, Ordering::SeqCst) + 1;
            self.flush();
            if total >= limit {
                self.shared.stop.store(true, Ordering::SeqCst);
                self.shared.sleep.notify();
            }
        } else if self.buffer.len() >= SOLUTION_BATCH {
            self.flush();
        }
    }
}

/// Finds a task where the policy looks ([`policy::find_task`]): own
/// deque, then the rank's injector, then the other workers.
fn find_task<N>(
    index: usize,
    shared: &Shared<N>,
    local: &Worker<Task<N>>,
    stats: &mut WorkerStats,
) -> Option<Task<N>> {
    let (task, source) = policy::find_task(index, shared.stealers.len(), |source| match source {
        Source::Own => local.pop().map_or(Steal::Empty, Steal::Success),
        Source::Injector if shared.keeps_order => shared.injector.steal(),
        Source::Injector => shared.injector.steal_batch_and_pop(local),
        Source::Deque(w) => shared.stealers[w].steal(),
    })?;
    if let Source::Deque(_) = source {
        stats.local_steals += 1;
    }
    Some(task)
}

/// An idle worker of a rank that waits for an answer (its request for
/// work is out) looks at the rank's messages itself, yielding its core at
/// each turn, for up to [`poll::SPIN`], before it parks: the answer is
/// taken by a thread already running, and its work is this worker's at
/// once. Waking a parked thread (the manager, or this worker) takes tens
/// to hundreds of microseconds on a virtual machine whose idle processor
/// halted. One worker of a rank does it at a time; none where threads
/// share processors (the poller says so).
fn await_answer<N>(
    index: usize,
    shared: &Shared<N>,
    local: &Worker<Task<N>>,
    stats: &mut WorkerStats,
) -> Option<Task<N>> {
    let (poller, _) = shared.poller.get()?;
    if shared.spinning.swap(true, Ordering::SeqCst) {
        return None;
    }
    let start = Instant::now();
    let mut found = None;
    while poller.poll() && start.elapsed() < poll::SPIN && !shared.stop.load(Ordering::SeqCst) {
        if let Some(task) = find_task(index, shared, local, stats) {
            found = Some(task);
            break;
        }
        std::thread::yield_now();
    }
    shared.spinning.store(false, Ordering::SeqCst);
    // What the last poll brought.
    found.or_else(|| find_task(index, shared, local, stats))
}

fn worker_main<P: Problem>(
    index: usize,
    problem: &P,
    mode: Mode,
    run_workers: usize,
    shared: &Shared<P::Node>,
    local: Worker<Task<P::Node>>,
) -> WorkerStats {
    let mut stats = WorkerStats::default();
    let mut searcher = Searcher::in_run(problem, mode, run_workers);
    let mut reported = searcher.counters();
    let mut idle_since = Some(Instant::now());
    let mut clock: Option<PollClock<'_>> = None;
    shared.idle.fetch_add(1, Ordering::SeqCst);
    loop {
        let look = match await_answer(index, shared, &local, &mut stats) {
            Some(task) => Look::Found(task),
            None => shared.sleep.look(
                || shared.stop.load(Ordering::SeqCst),
                || find_task(index, shared, &local, &mut stats),
                || shared.report_hunger(),
            ),
        };
        let task = match look {
            Look::Stop => break,
            Look::Found(task) => task,
            Look::Woken => continue,
        };
        shared.idle.fetch_sub(1, Ordering::SeqCst);
        if clock.is_none()
            && let Some((poller, every)) = shared.poller.get()
        {
            clock = Some(PollClock::new(&**poller, *every));
        }
        let started = Instant::now();
        if let Some(since) = idle_since.take() {
            stats.idle_s += started.duration_since(since).as_secs_f64();
        }
        // Keep working from the own deque without announcing idleness in
        // between: only an empty-handed worker is hungry.
        let mut next = Some(task);
        while let Some(task) = next {
            let unit = shared.units.as_ref().map(|_| {
                task.prefix
                    .truncated(shared.initial_depth.load(Ordering::Relaxed))
            });
            let mut ctx = WorkerContext {
                shared,
                local: &local,
                buffer: Vec::new(),
                stats: &mut stats,
                unit,
                clock: clock.as_ref(),
            };
            searcher.run(&task, &mut ctx);
            ctx.flush();
            stats.tasks += 1;
            let counted = searcher.task_count(reported);
            shared
                .live_nodes
                .fetch_add(counted.nodes, Ordering::Relaxed);
            shared
                .live_solutions
                .fetch_add(counted.solutions, Ordering::Relaxed);
            // A walk cut short by a stop is not finished: its unit stays open.
            if !shared.stop.load(Ordering::SeqCst) {
                shared.close_task(&task.prefix, counted);
            }
            reported = searcher.counters();
            if task.depth == shared.initial_depth.load(Ordering::Relaxed) {
                shared.initial_done.fetch_add(1, Ordering::Relaxed);
            }
            if shared.pending.fetch_sub(1, Ordering::SeqCst) == 1 {
                let _ = shared.events.send(PoolEvent::Idle);
                // The rank asks for work now, not at its manager's next poll.
                if let Some(clock) = &clock {
                    clock.poll_now();
                }
            }
            next = if shared.stop.load(Ordering::Relaxed) {
                None
            } else {
                local.pop()
            };
        }
        let now = Instant::now();
        stats.busy_s += now.duration_since(started).as_secs_f64();
        idle_since = Some(now);
        shared.idle.fetch_add(1, Ordering::SeqCst);
    }
    if let Some(since) = idle_since {
        stats.idle_s += since.elapsed().as_secs_f64();
    }
    stats.set_count(searcher.counters());
    stats
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::engine::optimise::{OptimiseTree, Optimising};
    use crate::engine::prefix::Prefix;
    use crate::engine::problem::Tree;
    use std::time::Duration;

    /// Tasks that are leaves, each recording when a worker begins it (as
    /// a branch and bound visits them).
    struct Begun(parking_lot::Mutex<Vec<u32>>);

    impl Tree for Begun {
        type Node = u32;
        fn root(&self) -> u32 {
            0
        }
        fn children(&self, _: &u32, _: &mut Vec<u32>) {}
        fn solution_weight(&self, _: &u32) -> u64 {
            0
        }
        fn render(&self, id: &u32, out: &mut String) {
            out.push_str(&id.to_string());
        }
    }

    impl OptimiseTree for Begun {
        fn objective(&self, &id: &u32) -> Option<u64> {
            self.0.lock().push(id);
            // Long enough for every worker to be taking tasks.
            std::thread::sleep(Duration::from_micros(300));
            None
        }
    }

    /// Walks `tasks` leaves on `threads` workers in `mode`; returns the
    /// order in which the workers began them.
    fn begun(mode: Mode, threads: usize, tasks: u32) -> Vec<u32> {
        let problem = Arc::new(Optimising(Begun(parking_lot::Mutex::new(Vec::new()))));
        let (events, receive) = crossbeam_channel::unbounded();
        let threads = Threads {
            here: threads,
            run: threads,
        };
        let pool = RankPool::start(problem.clone(), mode, None, threads, events, false, 0);
        pool.inject(
            (0..tasks)
                .map(|id| Task {
                    prefix: Prefix::root().child(id),
                    depth: 1,
                    node: id,
                })
                .collect(),
        );
        loop {
            let event = receive.recv_timeout(Duration::from_secs(30));
            if matches!(event.expect("the pool goes idle"), PoolEvent::Idle) && pool.idle() {
                break;
            }
        }
        pool.stop();
        problem.0.0.lock().clone()
    }

    /// A branch and bound's workers take the rank's tasks in the order
    /// the rank received them, one at a time: the k-th begun is one of
    /// the first k + workers (a batch would send a worker half the queue
    /// ahead).
    #[test]
    fn a_branch_and_bound_takes_its_tasks_in_order() {
        let threads = 3;
        let order = begun(Mode::Optimise, threads, 96);
        assert_eq!(order.len(), 96);
        for (k, &id) in order.iter().enumerate() {
            assert!(
                (id as usize) < k + threads,
                "task {id} begun {k}th on {threads} workers: {order:?}"
            );
        }
    }
}
