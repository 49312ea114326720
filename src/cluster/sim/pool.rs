//! A rank's pool of workers on the virtual clock: the same walks as
//! [`RankPool`](crate::engine::RankPool)'s threads, the same deques,
//! injector, counters, flags and unit ledger (`engine/pool/README.md`,
//! `engine/pool/units.rs`), run one worker
//! step at a time by the simulator instead of by threads.
//!
//! A step walks one worker's task for a quantum of nodes, then hands the
//! clock back: the simulator charges the nodes at the calibrated cost and
//! schedules the worker's next step then. Inside a step the worker sees
//! the pool as it was when the step began, so a hungry neighbour is
//! noticed at the next step (at most a quantum late) instead of at the
//! next node. Everything else is the real pool's policy, by the same
//! functions (`engine/pool/policy.rs`): when the rank is hungry, when a
//! walk splits, where an idle worker looks (own deque, LIFO; the injector,
//! a batch; the other workers' deques, FIFO end), what a donation request
//! takes; splits for the rank's threads go on the splitter's deque and
//! wake the parked workers, splits for another rank leave as a `Donated`
//! event.

use super::model::Costs;
use crate::cluster::rank::Workers;
use crate::engine::policy::{self, Donation, Source};
use crate::engine::pool::units::Units;
use crate::engine::{
    Context, Count, Mode, PoolEvent, Prefix, Problem, SOLUTION_BATCH, Searcher, Tally, Task,
    Threads, WorkerStats,
};
use crossbeam_deque::Steal;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

/// Virtual nanoseconds.
pub(super) type Ns = u64;

/// What a worker is doing.
enum State<N> {
    /// Without a task, asleep until work is added.
    Parked,
    /// Woken (a step is scheduled): it will look for work.
    Waking,
    /// Walking a task (its next step is scheduled).
    Walking(Task<N>),
    /// Has walked the whole task, and is charged until its next step,
    /// where the task is finished: a worker's pool accounts change at the
    /// virtual time its work ends, not at the step that charged the work
    /// (a walk that ends in one step can be a whole subtree counted by a
    /// specialised counter: finished at once, the pool would count it done
    /// before its time, and report the rank idle early).
    Walked(Task<N>),
}

struct Worker<'p, P: Problem> {
    searcher: Searcher<'p, P>,
    state: State<P::Node>,
    stats: WorkerStats,
    /// The searcher's node and solution counts already added to the pool's
    /// live totals.
    reported: Count,
    /// When it last went without a task, and when it first and last had one.
    idle_since: Ns,
    first_task: Option<Ns>,
    last_task_end: Ns,
    busy_ns: Ns,
}

/// The pool's shared state: what the walks' context reads and writes.
struct Shared<N> {
    injector: VecDeque<Task<N>>,
    /// Each worker's deque: the owner pushes and pops at the back, thieves
    /// take from the front.
    deques: Vec<VecDeque<Task<N>>>,
    pending: usize,
    /// Workers without a task (parked or waking).
    idle: usize,
    /// Idle workers with nothing to steal at which the pool reports
    /// `Hungry` (0: never), and whether it has since the last injection.
    hunger: usize,
    hungry_sent: bool,
    remote_wanted: bool,
    /// Idle workers take the injector's tasks one at a time
    /// ([`policy::keeps_order`]).
    keeps_order: bool,
    stop: bool,
    found: u64,
    limit: Option<u64>,
    /// Optimisation: the least objective that improves on the best known
    /// on this rank.
    floor: u64,
    live: Tally,
    initial_depth: usize,
    encodes: bool,
    /// Events for the manager, with the virtual time each happened.
    events: Vec<(Ns, PoolEvent<N>)>,
    /// Work was added: parked workers must be woken.
    notify: bool,
    /// With checkpoints: the units here.
    units: Option<Units>,
}

impl<N> Shared<N> {
    /// The unit of a task named `prefix`.
    fn unit_of(&self, prefix: &Prefix) -> Prefix {
        prefix.truncated(self.initial_depth)
    }

    /// Unit tracking: a task named `prefix` is done here at `at`.
    fn close_task(&mut self, prefix: &Prefix, counted: Count, at: Ns) {
        let unit = self.unit_of(prefix);
        let Some(units) = &mut self.units else { return };
        if let Some(report) = units.close(&unit, counted) {
            self.events.push((at, PoolEvent::UnitDone(report)));
        }
    }
}

/// One worker's view of the pool during a step.
struct StepContext<'a, N> {
    shared: &'a mut Shared<N>,
    index: usize,
    stats: &'a mut WorkerStats,
    buffer: Vec<String>,
    /// When the step began (events are stamped with it).
    at: Ns,
    /// Tasks split off during the step (charged by the simulator).
    split_tasks: u64,
    /// Unit tracking: the unit of the task walked.
    unit: Option<Prefix>,
}

impl<'a, N> StepContext<'a, N> {
    /// Worker `index`'s view of the pool for a step at `at` on the task
    /// named `prefix`.
    fn new(
        shared: &'a mut Shared<N>,
        index: usize,
        stats: &'a mut WorkerStats,
        at: Ns,
        prefix: &Prefix,
    ) -> Self {
        let unit = shared.units.is_some().then(|| shared.unit_of(prefix));
        StepContext {
            shared,
            index,
            stats,
            buffer: Vec::new(),
            at,
            split_tasks: 0,
            unit,
        }
    }

    fn flush(&mut self) {
        if !self.buffer.is_empty() {
            let texts = std::mem::take(&mut self.buffer);
            let unit = self.unit.clone();
            self.shared
                .events
                .push((self.at, PoolEvent::Solutions { unit, texts }));
        }
    }
}

impl<N> Context<N> for StepContext<'_, N> {
    fn stop(&self) -> bool {
        self.shared.stop
    }
    fn wants_work(&self) -> bool {
        policy::wants_work(
            self.shared.idle,
            || self.shared.deques[self.index].is_empty(),
            || self.shared.remote_wanted,
        )
    }
    fn prefix_depth(&self) -> usize {
        if self.shared.encodes {
            self.shared.initial_depth
        } else {
            usize::MAX
        }
    }
    fn donate(&mut self, tasks: Vec<Task<N>>) {
        self.split_tasks += tasks.len() as u64;
        if std::mem::take(&mut self.shared.remote_wanted) {
            self.stats.prefixes_donated += tasks.len() as u64;
            self.shared
                .events
                .push((self.at, PoolEvent::Donated(tasks)));
            return;
        }
        self.stats.local_donations += tasks.len() as u64;
        self.shared.pending += tasks.len();
        if let (Some(units), Some(unit)) = (&mut self.shared.units, &self.unit) {
            units.open(unit, tasks.len(), false);
        }
        self.shared.deques[self.index].extend(tasks);
        self.shared.notify = true;
    }
    fn floor(&self) -> u64 {
        self.shared.floor
    }
    fn improved(&mut self, value: u64, text: &str) {
        if value < self.shared.floor {
            return;
        }
        self.shared.floor = value + 1;
        self.stats.improvements += 1;
        let event = PoolEvent::Improved {
            value,
            text: text.to_owned(),
        };
        self.shared.events.push((self.at, event));
        if self.shared.limit.is_some() {
            self.shared.stop = true;
        }
    }
    fn found(&mut self, text: &str) {
        self.buffer.push(text.to_owned());
        if let Some(limit) = self.shared.limit {
            self.shared.found += 1;
            self.flush();
            if self.shared.found >= limit {
                self.shared.stop = true;
            }
        } else if self.buffer.len() >= SOLUTION_BATCH {
            self.flush();
        }
    }
}

/// A rank's virtual pool.
pub(super) struct VirtualPool<'p, P: Problem> {
    workers: Vec<Worker<'p, P>>,
    shared: Shared<P::Node>,
    costs: Costs,
    /// Worker time charged to other than nodes: splits (the moves a split
    /// applies and the tasks it makes) and steals (a task taken from a
    /// deque or the injector), nanoseconds summed over workers.
    overhead: Overhead,
}

/// Worker time spent on other than nodes, nanoseconds summed over workers.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Overhead {
    pub(super) splits: Ns,
    pub(super) steals: Ns,
}

impl<'p, P: Problem> VirtualPool<'p, P> {
    pub(super) fn new(
        problem: &'p P,
        mode: Mode,
        limit: Option<u64>,
        threads: Threads,
        costs: Costs,
        track_units: bool,
        hunger: usize,
    ) -> Self {
        let run_workers = threads.run;
        let threads = threads.here.max(1);
        VirtualPool {
            workers: (0..threads)
                .map(|_| Worker {
                    searcher: Searcher::in_run(problem, mode, run_workers),
                    state: State::Parked,
                    stats: WorkerStats::default(),
                    reported: Count::default(),
                    idle_since: 0,
                    first_task: None,
                    last_task_end: 0,
                    busy_ns: 0,
                })
                .collect(),
            shared: Shared {
                injector: VecDeque::new(),
                deques: (0..threads).map(|_| VecDeque::new()).collect(),
                pending: 0,
                idle: threads,
                hunger,
                hungry_sent: false,
                remote_wanted: false,
                keeps_order: policy::keeps_order(mode),
                stop: false,
                found: 0,
                floor: 0,
                limit,
                live: Tally::default(),
                initial_depth: usize::MAX,
                encodes: P::ENCODES,
                events: Vec::new(),
                notify: false,
                units: track_units.then(Units::default),
            },
            costs,
            overhead: Overhead::default(),
        }
    }

    /// Workers walking a task (those that want a core). Only a step
    /// changes it.
    pub(super) fn walking(&self) -> usize {
        self.workers
            .iter()
            .filter(|w| matches!(w.state, State::Walking(_) | State::Walked(_)))
            .count()
    }

    /// Sets the nodes of a step (the clock's grain, or a time slice).
    pub(super) fn set_quantum(&mut self, nodes: u64) {
        self.costs.quantum_nodes = nodes.max(1);
    }

    /// The events since the last call, in the order they happened.
    pub(super) fn take_events(&mut self) -> Vec<(Ns, PoolEvent<P::Node>)> {
        std::mem::take(&mut self.shared.events)
    }

    /// The parked workers to wake now, if work was added (each is marked
    /// waking: the caller schedules its step).
    pub(super) fn take_woken(&mut self) -> Vec<usize> {
        if !std::mem::take(&mut self.shared.notify) {
            return Vec::new();
        }
        let mut woken = Vec::new();
        for (i, w) in self.workers.iter_mut().enumerate() {
            if matches!(w.state, State::Parked) {
                w.state = State::Waking;
                woken.push(i);
            }
        }
        woken
    }

    /// Runs worker `index` from `now` for at most a quantum. Returns when
    /// its next step is due (`None`: it parked).
    pub(super) fn step(&mut self, index: usize, now: Ns) -> Option<Ns> {
        if self.shared.stop {
            self.park(index);
            return None;
        }
        let mut cost: Ns = 0;
        let state = std::mem::replace(&mut self.workers[index].state, State::Parked);
        let task = match state {
            State::Walking(task) => task,
            State::Walked(task) => return self.finish(index, task, now),
            State::Parked | State::Waking => {
                let Some((task, stolen)) = self.find_task(index) else {
                    // As the real worker: enough idle ones while tasks are
                    // still walked make the rank hungry.
                    let sh = &mut self.shared;
                    if policy::hungry(sh.hunger, sh.idle, sh.pending) && !sh.hungry_sent {
                        sh.hungry_sent = true;
                        sh.events.push((now, PoolEvent::Hungry));
                    }
                    self.park(index);
                    return None;
                };
                let steal = self.costs.steal_ns * (1 + u64::from(stolen));
                self.overhead.steals += steal;
                cost += steal;
                let w = &mut self.workers[index];
                self.shared.idle -= 1;
                w.stats.idle_s += (now - w.idle_since) as f64 * 1e-9;
                w.first_task.get_or_insert(now);
                let (more, walked) = self.walk(index, &task, now, true);
                cost += walked;
                if !more {
                    return Some(self.charge(index, State::Walked(task), now, cost));
                }
                task
            }
        };
        let (more, walked) = self.walk(index, &task, now, false);
        cost += walked.max(1);
        let next = if more {
            State::Walking(task)
        } else {
            State::Walked(task)
        };
        Some(self.charge(index, next, now, cost))
    }

    /// Worker `index` is busy from `now` for `cost`, then goes on in
    /// `state`: returns when its next step is due.
    fn charge(&mut self, index: usize, state: State<P::Node>, now: Ns, cost: Ns) -> Ns {
        let w = &mut self.workers[index];
        w.busy_ns += cost;
        w.state = state;
        now + cost.max(1)
    }

    /// Begins (`first`) or resumes the walk of `task` for a quantum.
    /// Returns whether the walk goes on, and what the nodes walked and the
    /// tasks split off cost.
    fn walk(&mut self, index: usize, task: &Task<P::Node>, now: Ns, first: bool) -> (bool, Ns) {
        let w = &mut self.workers[index];
        let before = w.searcher.counters().nodes;
        let applies = w.searcher.split_applies();
        let events = self.shared.events.len();
        let mut ctx = StepContext::new(&mut self.shared, index, &mut w.stats, now, &task.prefix);
        let more = if first {
            w.searcher.begin(task, &mut ctx)
        } else {
            !w.searcher.resume(task, &mut ctx, self.costs.quantum_nodes)
        };
        ctx.flush();
        let nodes = w.searcher.counters().nodes - before;
        // A split's moves on the scratch state cost what a node's do.
        let applied = w.searcher.split_applies() - applies;
        let split = applied * self.costs.node_ns + ctx.split_tasks * self.costs.split_ns;
        let cost = nodes * self.costs.node_ns + split;
        self.overhead.splits += split;
        // A donation leaves once its split is made: a worker splits at its
        // first look of the step (a thief's request set the flag before
        // it), so at the step's start plus the split's cost.
        for (at, event) in &mut self.shared.events[events..] {
            if matches!(event, PoolEvent::Donated(_)) {
                *at = now + split;
            }
        }
        (more, cost)
    }

    /// Worker `index` finishes `task` at `now`, the end of the steps that
    /// walked it (charged already): the pool's accounts, then its own
    /// deque's next task, or a look for work, from the clock's next
    /// nanosecond.
    fn finish(&mut self, index: usize, task: Task<P::Node>, now: Ns) -> Option<Ns> {
        let end = now + 1;
        let w = &mut self.workers[index];
        w.stats.tasks += 1;
        let counted = w.searcher.task_count(w.reported);
        self.shared.live.nodes += counted.nodes;
        self.shared.live.solutions += counted.solutions;
        w.reported = w.searcher.counters();
        // A walk cut short by a stop is not finished: its unit stays open.
        if !self.shared.stop {
            self.shared.close_task(&task.prefix, counted, end);
        }
        w.last_task_end = end;
        if task.depth == self.shared.initial_depth {
            self.shared.live.initial_done += 1;
        }
        self.shared.pending -= 1;
        if self.shared.pending == 0 {
            self.shared.events.push((end, PoolEvent::Idle));
        }
        // The next task is looked for at the next step (its own deque
        // first, as the real worker does without going idle).
        match self.shared.deques[index].pop_back() {
            Some(next) if !self.shared.stop => {
                // Begun now; walked on at the next step (or, a leaf or a
                // subtree counted whole, finished there).
                let (more, cost) = self.walk(index, &next, end, true);
                let state = if more {
                    State::Walking(next)
                } else {
                    State::Walked(next)
                };
                Some(self.charge(index, state, end, cost))
            }
            Some(next) => {
                self.shared.deques[index].push_back(next);
                self.park(index);
                None
            }
            None => {
                // Goes idle and looks for work at `end`.
                self.shared.idle += 1;
                let w = &mut self.workers[index];
                w.idle_since = end;
                w.state = State::Waking;
                Some(end)
            }
        }
    }

    /// Worker `index` finds nothing to do: it parks (it was already idle).
    fn park(&mut self, index: usize) {
        self.workers[index].state = State::Parked;
    }

    /// Where the policy looks ([`policy::find_task`]): own deque, then the
    /// injector (a batch, or one task where the pool keeps order), then
    /// the others' deques. Returns the task and whether it was stolen
    /// from another worker.
    fn find_task(&mut self, index: usize) -> Option<(Task<P::Node>, bool)> {
        let sh = &mut self.shared;
        let (task, source) = policy::find_task(index, sh.deques.len(), |source| {
            let got = match source {
                Source::Own => sh.deques[index].pop_back(),
                Source::Injector if sh.injector.is_empty() => None,
                Source::Injector if sh.keeps_order => sh.injector.pop_front(),
                Source::Injector => {
                    // crossbeam's batch: about half of the injector, at most 32.
                    let batch = sh.injector.len().div_ceil(2).min(32);
                    let first = sh.injector.pop_front().expect("not empty");
                    for _ in 1..batch {
                        let t = sh.injector.pop_front().expect("counted");
                        sh.deques[index].push_back(t);
                    }
                    Some(first)
                }
                Source::Deque(w) => sh.deques[w].pop_front(),
            };
            got.map_or(Steal::Empty, Steal::Success)
        })?;
        let stolen = matches!(source, Source::Deque(_));
        if stolen {
            self.workers[index].stats.local_steals += 1;
        }
        Some((task, stolen))
    }

    /// Worker time charged to splits and steals.
    pub(super) fn overhead(&self) -> Overhead {
        self.overhead
    }

    /// Idle time split into before each worker's first task, between its
    /// first and last, and after its last until `end` (nanoseconds summed
    /// over workers).
    pub(super) fn idle_split(&self, end: Ns) -> [Ns; 3] {
        let mut split = [0; 3];
        for w in &self.workers {
            let Some(first) = w.first_task else {
                split[0] += end;
                continue;
            };
            let last = w.last_task_end.max(first).min(end);
            let first = first.min(end);
            let busy = w.busy_ns.min(last - first);
            split[0] += first;
            split[1] += (last - first) - busy;
            split[2] += end - last;
        }
        split
    }
}

/// The pool as the rank's state machine holds it; the simulator holds
/// another handle to step the workers.
pub(super) struct Handle<'p, P: Problem>(pub(super) Rc<RefCell<VirtualPool<'p, P>>>);

impl<'p, P: Problem> Workers<P::Node> for Handle<'p, P> {
    fn inject(&self, tasks: Vec<Task<P::Node>>) {
        if tasks.is_empty() {
            return;
        }
        let mut pool = self.0.borrow_mut();
        pool.shared.pending += tasks.len();
        let sh = &mut pool.shared;
        if let Some(units) = &mut sh.units {
            for task in &tasks {
                units.open(&task.prefix.truncated(sh.initial_depth), 1, true);
            }
        }
        pool.shared.injector.extend(tasks);
        pool.shared.hungry_sent = false;
        pool.shared.notify = true;
    }
    fn idle(&self) -> bool {
        self.0.borrow().shared.pending == 0
    }
    fn set_initial_depth(&self, depth: usize) {
        self.0.borrow_mut().shared.initial_depth = depth;
    }
    fn raise_floor(&self, floor: u64) {
        let sh = &mut self.0.borrow_mut().shared;
        sh.floor = sh.floor.max(floor);
    }
    fn request_donation(&self) -> (Vec<Task<P::Node>>, bool) {
        let mut pool = self.0.borrow_mut();
        let sh = &mut pool.shared;
        let queued = sh.injector.len() + sh.deques.iter().map(VecDeque::len).sum::<usize>();
        let idle = sh.idle;
        let (injector, deques) = (&mut sh.injector, &mut sh.deques);
        let taken = match policy::donation(queued, deques.len(), idle, |source| {
            let got = match source {
                Source::Injector => injector.pop_front(),
                Source::Deque(w) => deques[w].pop_front(),
                Source::Own => unreachable!("the manager has no deque"),
            };
            got.map_or(Steal::Empty, Steal::Success)
        }) {
            Donation::Queued(taken) => taken,
            Donation::Split => {
                sh.remote_wanted = true;
                return (Vec::new(), false);
            }
        };
        // Queued tasks leave whole: their units count them as done here.
        for task in &taken {
            sh.close_task(&task.prefix, Count::default(), 0);
        }
        sh.pending -= taken.len();
        (taken, sh.pending == 0)
    }
    fn withdraw_donation_request(&self) {
        self.0.borrow_mut().shared.remote_wanted = false;
    }
    fn progress(&self) -> Tally {
        self.0.borrow().shared.live
    }
    fn stop(self) -> Vec<WorkerStats> {
        let mut pool = self.0.borrow_mut();
        pool.shared.stop = true;
        pool.workers
            .iter_mut()
            .map(|w| {
                let mut stats = w.stats.clone();
                stats.set_count(w.searcher.counters());
                stats.busy_s = w.busy_ns as f64 * 1e-9;
                stats
            })
            .collect()
    }
}
