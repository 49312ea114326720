//! The simulated run: each rank's manager, with its [`RankState`] and
//! virtual pool, rank 0's [`Head`], and the messages between them, on the
//! virtual clock.
//!
//! A manager is one core's worth of work: it handles what it has, one
//! thing after another, each at its cost, and sends at the end of each;
//! a message that arrives while it is busy waits, one that arrives while
//! it waits is seen at its next poll (`clock::next_poll`), and a pool
//! event wakes it at once, as `recv_timeout` on the event channel does.
//! Rank 0 also runs the head's duties at every poll, and in a run of
//! groups each group's first rank its group master's.

use super::clock::{Clock, SPIN_POLL, idle_poll_max, next_poll, poll_max};
use super::model::{Costs, Wires};
use super::pool::{Handle, Ns, VirtualPool};
use super::{IdleShares, OverheadShares, SimConfig, SimError, SimReport};
use crate::cluster::layout::Layout;
use crate::cluster::master::Outbox;
use crate::cluster::master::delivery::Delivery;
use crate::cluster::master::group::GroupHead;
use crate::cluster::master::head::Head;
use crate::cluster::protocol::{Message, RankReport};
use crate::cluster::rank::manager::{group_error, serves};
use crate::cluster::rank::route::{Side, side};
use crate::cluster::rank::{RankState, Sends};
use crate::cluster::sink::Discard;
use crate::engine::{PoolEvent, Problem, Threads};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

enum Event {
    /// A worker's next step.
    Step { rank: usize, worker: usize },
    /// A message reaches its rank.
    Arrive {
        from: usize,
        to: usize,
        msg: Message,
    },
    /// A manager polls.
    Poll { rank: usize },
    /// A rank dies.
    Kill { rank: usize },
}

struct Rank<'p, P: Problem> {
    state: RankState<P, Handle<'p, P>>,
    /// The group's master, on the first rank of each group.
    group: Option<GroupHead>,
    pool: Rc<RefCell<VirtualPool<'p, P>>>,
    /// Messages it sends itself (rank 0: between its master and its pool).
    inbox: VecDeque<(usize, Message)>,
    /// Messages arrived and not yet handled.
    mailbox: VecDeque<(usize, Message)>,
    /// Pool events not yet handled, with when they happened.
    events: VecDeque<(Ns, PoolEvent<P::Node>)>,
    /// The manager is busy until then.
    busy_until: Ns,
    /// When it was last active (its poll schedule starts there).
    active: Ns,
    /// Its next poll, when one is scheduled.
    poll_at: Option<Ns>,
    /// Its CPU so far.
    cpu: Ns,
    /// The longest pause between its polls, while it holds work and
    /// while it waits for work.
    poll_max: Ns,
    idle_poll_max: Ns,
}

impl<P: Problem> Rank<'_, P> {
    /// The longest pause now (`manager.rs`'s `pause_max`).
    fn pause_max(&self) -> Ns {
        if !self.state.awaits_answer() {
            self.poll_max
        } else {
            self.idle_poll_max
        }
    }
}

struct Sim<'p, 'h, P: Problem> {
    config: &'h SimConfig,
    /// The costs inside a rank.
    costs: Costs,
    /// Workers walking a task, over all ranks (counted with `cores` only:
    /// how many share them).
    walking: usize,
    base: Instant,
    head: Head<'h>,
    layout: Layout,
    ranks: Vec<Rank<'p, P>>,
    clock: Clock<Event>,
    wires: Wires,
    /// When the master knew the answer.
    answered: Option<Ns>,
    master_received: u64,
    messages: u64,
    /// The problem's name and instance.
    names: (String, String),
}

/// Runs `config` on `problem` (see [`simulate`](super::simulate), which
/// adds the efficiency).
pub(super) fn run<P: Problem>(problem: &Arc<P>, config: &SimConfig) -> Result<SimReport, SimError> {
    let p: &P = problem;
    let size = config.ranks;
    let costs = config.costs;
    let base = Instant::now();
    let run_config = config.run.clone().started(base);
    let layout = run_config.layout(size, 1);
    let resume = run_config
        .checkpoint
        .as_ref()
        .and_then(|c| c.resume.as_ref());
    let mut sink = Discard;
    let delivery = Delivery::new(&mut sink, config.mode(), resume);
    let mut first = Outbox::new();
    let head = Head::start(p, &run_config, layout, delivery, &mut first)?;
    let expansion = costs.expansion_ns(&head.spread());
    let ranks = (0..size)
        .map(|r| {
            let pool = Rc::new(RefCell::new(VirtualPool::new(
                p,
                config.mode(),
                config.mode().stop_after(),
                Threads {
                    here: config.threads(),
                    run: size * config.threads().max(1),
                },
                costs,
                run_config.checkpoint.is_some(),
                run_config.hunger_threshold(layout.grouped()),
            )));
            let report = RankReport {
                rank: r,
                host: "simulated".into(),
                cores: config.threads(),
                host_cpus: config.threads(),
                ..RankReport::default()
            };
            let state = RankState::for_run(
                problem.clone(),
                &run_config,
                r,
                layout,
                Handle(pool.clone()),
                report,
            );
            let group = layout.is_group_master(r).then(|| {
                GroupHead::new(
                    layout,
                    layout.group_of(r),
                    config.mode(),
                    run_config.checkpoint.is_some(),
                    base,
                )
            });
            let serves = serves(r, layout);
            Rank {
                state,
                group,
                pool,
                inbox: VecDeque::new(),
                mailbox: VecDeque::new(),
                events: VecDeque::new(),
                busy_until: 0,
                active: 0,
                poll_at: None,
                cpu: 0,
                poll_max: poll_max(serves, load(config), config.threads()),
                idle_poll_max: idle_poll_max(serves, load(config)),
            }
        })
        .collect();
    let mut sim = Sim {
        config,
        costs,
        walking: 0,
        base,
        head,
        layout,
        ranks,
        clock: Clock::new(),
        wires: Wires::new(config.network, config.jitter, config.seed),
        answered: None,
        master_received: 0,
        messages: 0,
        names: (p.name().to_string(), p.instance()),
    };
    if let Some((rank, at_s)) = config.kill {
        sim.clock.at((at_s * 1e9) as Ns, Event::Kill { rank });
    }
    // Rank 0 expands the root before anything else (its larger levels on
    // all its threads); every other rank asks for work at once.
    sim.ranks[0].busy_until = expansion;
    sim.ranks[0].cpu = expansion;
    sim.route(0, first, &mut { expansion });
    for r in 0..size {
        let mut asks = Sends::new();
        let now = if r == 0 { expansion } else { 0 };
        let i = sim.instant(now);
        sim.ranks[r].state.start(i, &mut asks);
        let mut t = now;
        sim.send_all(r, asks, &mut t);
        sim.ranks[r].busy_until = sim.ranks[r].busy_until.max(t);
        sim.ranks[r].active = t;
    }
    sim.schedule_poll(0, expansion);
    // Every other group's master polls from the start (one group: none).
    for g in 1..layout.groups() {
        sim.schedule_poll(layout.master_of_group(g), 0);
    }
    while !sim.head.finished() {
        let Some((t, event)) = sim.clock.next() else {
            return Err(SimError::Stalled {
                at_s: sim.ranks[0].busy_until as f64 * 1e-9,
            });
        };
        match event {
            Event::Step { rank, worker } => sim.step(rank, worker, t),
            Event::Arrive { from, to, msg } => {
                sim.ranks[to].mailbox.push_back((from, msg));
                let rung = sim.doorbell(from, to);
                let r = &sim.ranks[to];
                let at = if r.busy_until >= t {
                    r.busy_until
                } else {
                    let polled = next_poll(r.active, t, r.pause_max());
                    // A walking worker of the rank hears its doorbell.
                    rung.map_or(polled, |look| polled.min(t + look))
                };
                sim.schedule_poll(to, at);
            }
            Event::Poll { rank } => sim.poll(rank, t)?,
            Event::Kill { rank } => {
                if sim.answered.is_none() {
                    return Err(SimError::RankDied {
                        rank,
                        at_s: t as f64 * 1e-9,
                        checkpoint: config
                            .run
                            .checkpoint
                            .as_ref()
                            .map(|c| c.path.clone())
                            .filter(|p| p.exists()),
                    });
                }
            }
        }
    }
    sim.report()
}

/// Threads a core when every worker of `config` wants one.
fn load(config: &SimConfig) -> u64 {
    config.cores.map_or(1, |c| {
        (config.ranks * config.threads()).div_ceil(c.max(1)).max(1) as u64
    })
}

/// The time slice Linux's scheduler (CFS) gives each of `load` busy
/// threads on a core of a machine of `cores`: its latency target, 6 ms
/// times 1 + log2 of the cores, shared among them, but no less than its
/// minimum granularity, 0.75 ms times the same factor.
fn time_slice(load: u64, cores: usize) -> Ns {
    let factor = 1 + cores.max(1).ilog2() as u64;
    (6_000_000 * factor / load.max(1)).max(750_000 * factor)
}

impl<'p, 'h, P: Problem> Sim<'p, 'h, P> {
    fn instant(&self, t: Ns) -> Instant {
        self.base + Duration::from_nanos(t)
    }

    fn ns(&self, i: Instant) -> Ns {
        i.saturating_duration_since(self.base).as_nanos() as Ns
    }

    /// How soon `to` hears a message from `from` by its doorbell: where
    /// the two share a machine and `to` has workers walking, at their next
    /// look at their context, every `POLL_EVERY` nodes of each (half that
    /// gap on average, shared by the walking workers, and stretched by the
    /// threads a core). `None` between machines, which have no bell, and
    /// on a rank whose workers all wait or have stopped (its manager or
    /// its idle worker takes the message on their schedule).
    fn doorbell(&self, from: usize, to: usize) -> Option<Ns> {
        let host = self.config.ranks_per_host.max(1);
        let r = &self.ranks[to];
        let walking = r.pool.borrow().walking() as Ns;
        (from / host == to / host && walking > 0 && !r.state.terminated()).then(|| {
            let gap = crate::engine::POLL_EVERY * self.costs.node_ns * load(self.config);
            gap.div_ceil(2 * walking)
        })
    }

    /// Schedules a poll of `rank` at `at`, unless one comes sooner.
    fn schedule_poll(&mut self, rank: usize, at: Ns) {
        let r = &mut self.ranks[rank];
        if r.poll_at.is_none_or(|p| at < p) {
            r.poll_at = Some(at);
            self.clock.at(at, Event::Poll { rank });
        }
    }

    /// A worker's step, and what it set off: events for the manager,
    /// parked workers to wake.
    fn step(&mut self, rank: usize, worker: usize, t: Ns) {
        let r = &mut self.ranks[rank];
        let mut pool = r.pool.borrow_mut();
        let cores = self.config.cores;
        let before = if cores.is_some() { pool.walking() } else { 0 };
        let next = pool.step(worker, t);
        if cores.is_some() {
            self.walking = self.walking + pool.walking() - before;
        }
        if let Some(mut next) = next {
            if let Some(cores) = cores {
                // Fewer cores than walking workers: the kernel gives each
                // a time slice at full speed, then runs the others' slices
                // (a request is seen only in the worker's own slice).
                let share = self.walking.div_ceil(cores).max(1) as u64;
                if share > 1 {
                    pool.set_quantum(time_slice(share, cores) / self.costs.node_ns);
                    next = t + (next - t) * share;
                } else {
                    pool.set_quantum(self.costs.quantum_nodes);
                }
            }
            self.clock.at(next, Event::Step { rank, worker });
        }
        drop(pool);
        self.after_pool(rank, t, self.costs.wake_ns);
    }

    /// Moves the pool's events to the manager (waking it) and wakes the
    /// workers new work is for, `wake_ns` later.
    fn after_pool(&mut self, rank: usize, t: Ns, wake_ns: Ns) {
        let r = &mut self.ranks[rank];
        let (events, woken) = {
            let mut pool = r.pool.borrow_mut();
            (pool.take_events(), pool.take_woken())
        };
        for worker in woken {
            self.clock.at(t + wake_ns, Event::Step { rank, worker });
        }
        if events.is_empty() {
            return;
        }
        // In time order: a donation is stamped after its split
        // (`pool.rs`, `walk`), later than what the pool's next steps
        // report, which must not wait behind it.
        let mut first = Ns::MAX;
        let queue = &mut self.ranks[rank].events;
        for (at, event) in events {
            first = first.min(at);
            let i = queue.partition_point(|e| e.0 <= at);
            queue.insert(i, (at, event));
        }
        let at = first.max(self.ranks[rank].busy_until);
        self.schedule_poll(rank, at);
    }

    /// A manager's poll at `t`: its own messages, those arrived, its
    /// pool's events, then its duties.
    fn poll(&mut self, rank: usize, t: Ns) -> Result<(), SimError> {
        if self.ranks[rank].poll_at != Some(t) {
            return Ok(()); // superseded by an earlier poll
        }
        self.ranks[rank].poll_at = None;
        if self.ranks[rank].busy_until > t {
            let at = self.ranks[rank].busy_until;
            self.schedule_poll(rank, at);
            return Ok(());
        }
        let costs = self.costs;
        let mut now = t;
        let mut active = false;
        // A rank that waits for work where every thread has a core has an
        // idle worker looking at its messages (`engine/pool/mod.rs`,
        // `await_answer`): the work it takes in is that worker's at once,
        // with no wake-up.
        let r = &self.ranks[rank];
        let spinning = r.idle_poll_max == SPIN_POLL && r.state.awaits_answer();
        let wake_ns = if spinning { 0 } else { costs.wake_ns };
        loop {
            if let Some((from, msg)) = self.ranks[rank].inbox.pop_front() {
                self.handle(rank, from, msg, &mut now)?;
            } else if let Some((from, msg)) = self.ranks[rank].mailbox.pop_front() {
                now += costs.message_cpu_ns;
                self.handle(rank, from, msg, &mut now)?;
            } else if self.ranks[rank].events.front().is_some_and(|e| e.0 <= t) {
                let (_, event) = self.ranks[rank].events.pop_front().expect("seen");
                self.on_event(rank, event, &mut now)?;
            } else {
                break;
            }
            active = true;
        }
        if rank == 0 {
            let mut out = Outbox::new();
            let i = self.instant(now);
            self.head.duties(i, &mut out)?;
            self.route(0, out, &mut now);
        }
        let i = self.instant(now);
        if let Some(group) = &mut self.ranks[rank].group {
            let mut out = Sends::new();
            group.tick(i, &mut out);
            self.route(rank, out, &mut now);
        }
        let mut progress = Sends::new();
        let i = self.instant(now);
        self.ranks[rank].state.tick(i, &mut progress);
        self.send_all(rank, progress, &mut now);
        let r = &mut self.ranks[rank];
        r.cpu += now - t;
        r.busy_until = now;
        if active {
            r.active = now;
        }
        self.after_pool(rank, now, wake_ns);
        // What comes next: pool events held back, a progress report due,
        // and rank 0's clockwork.
        if let Some(&(at, _)) = self.ranks[rank].events.front() {
            self.schedule_poll(rank, at.max(now));
        }
        if let Some(due) = self.ranks[rank].state.progress_due() {
            let at = self.ns(due).max(now);
            let at = next_poll(self.ranks[rank].active, at, self.ranks[rank].pause_max());
            self.schedule_poll(rank, at);
        }
        let master = rank == 0 && !self.head.finished()
            || self.ranks[rank]
                .group
                .as_ref()
                .is_some_and(|g| !g.finished());
        if master {
            let at = if active {
                now
            } else {
                next_poll(
                    self.ranks[rank].active,
                    now + 1,
                    self.ranks[rank].pause_max(),
                )
            };
            self.schedule_poll(rank, at);
        }
        Ok(())
    }

    /// A message for `rank`'s manager.
    fn handle(
        &mut self,
        rank: usize,
        from: usize,
        msg: Message,
        now: &mut Ns,
    ) -> Result<(), SimError> {
        // As a real rank's link logs what it takes, with the simulated time.
        tracing::trace!(rank, from, sim_ns = *now, msg = ?msg.logged(), "handle");
        let mut sends = Sends::new();
        let group_master = self.ranks[rank].group.is_some();
        match side(rank, from, msg, group_master)? {
            Side::Rank(msg) => {
                match &msg {
                    Message::Work { parcels, .. } => *now += self.costs.parcels_ns(parcels),
                    Message::Donation { parcels, .. } => {
                        // A malformed donation fails in `on_message`.
                        *now += self
                            .costs
                            .parcels_ns(&parcels.parcels().unwrap_or_default());
                    }
                    _ => {}
                }
                let i = self.instant(*now);
                let state = &mut self.ranks[rank].state;
                state.on_message(from, msg, i, &mut sends)?;
                state.work_in_pool(i);
            }
            Side::Terminate => {
                let wall = *now as f64 * 1e-9;
                let cpu = self.ranks[rank].cpu as f64 * 1e-9;
                self.ranks[rank].state.on_terminate(wall, cpu, &mut sends);
            }
            Side::Root(msg) => {
                *now += self.costs.master_ns;
                let i = self.instant(*now);
                let mut out = Sends::new();
                let group = self.ranks[rank]
                    .group
                    .as_mut()
                    .expect("routed to a group master");
                group.on_root(msg, i, &mut out).map_err(group_error)?;
                self.route(rank, out, now);
            }
            Side::Group(msg) => {
                *now += self.costs.master_ns;
                let i = self.instant(*now);
                let mut out = Sends::new();
                let group = self.ranks[rank]
                    .group
                    .as_mut()
                    .expect("routed to a group master");
                group.on_rank(from, msg, i, &mut out).map_err(group_error)?;
                self.route(rank, out, now);
            }
            Side::Head(msg) => {
                *now += self.costs.master_ns;
                let mut out = Outbox::new();
                let i = self.instant(*now);
                self.head.handle(from, msg, i, &mut out)?;
                self.route(0, out, now);
            }
        }
        self.send_all(rank, sends, now);
        Ok(())
    }

    /// An event of `rank`'s pool.
    fn on_event(
        &mut self,
        rank: usize,
        event: PoolEvent<P::Node>,
        now: &mut Ns,
    ) -> Result<(), SimError> {
        if self.ranks[rank].state.terminated() {
            return Ok(());
        }
        if rank == 0
            && let PoolEvent::Solutions { unit, texts } = event
        {
            *now += self.costs.master_ns;
            let mut out = Outbox::new();
            self.head.accept_solutions(0, unit, texts, &mut out)?;
            self.route(0, out, now);
            return Ok(());
        }
        let mut sends = Sends::new();
        let i = self.instant(*now);
        self.ranks[rank].state.on_event(event, i, &mut sends);
        self.send_all(rank, sends, now);
        Ok(())
    }

    /// What `rank`'s state machine sends (to the master, or a donation to
    /// its thief).
    fn send_all(&mut self, rank: usize, msgs: Sends, now: &mut Ns) {
        for (to, msg) in msgs {
            self.send(rank, to, msg, now);
        }
    }

    /// A master's messages: the root's from rank 0, a group master's from
    /// its rank.
    fn route(&mut self, from: usize, out: Outbox, now: &mut Ns) {
        for (to, msg) in out {
            if matches!(msg, Message::Terminate) && self.answered.is_none() {
                self.answered = Some(*now);
            }
            self.send(from, to, msg, now);
        }
    }

    /// Sends `msg`: to the own inbox, or over the wire at the sender's cost.
    fn send(&mut self, from: usize, to: usize, msg: Message, now: &mut Ns) {
        tracing::trace!(rank = from, to, sim_ns = *now, msg = ?msg.logged(), "send");
        if from == to {
            self.ranks[from].inbox.push_back((from, msg));
            return;
        }
        *now += self.costs.message_cpu_ns;
        self.ranks[from].state.count_sent();
        self.messages += 1;
        if to == 0 {
            self.master_received += 1;
        }
        let bytes = msg.encode().len();
        let at = self.wires.arrival(from, to, bytes, *now);
        self.clock.at(at, Event::Arrive { from, to, msg });
    }

    fn report(self) -> Result<SimReport, SimError> {
        let config = self.config;
        let answered = self.answered.unwrap_or(self.ranks[0].busy_until).max(1);
        let mut idle = [0u64; 3];
        let mut overhead = [0u64; 2];
        for r in &self.ranks {
            let o = r.pool.borrow().overhead();
            overhead[0] += o.splits;
            overhead[1] += o.steals;
            let split = r.pool.borrow().idle_split(answered);
            for (a, b) in idle.iter_mut().zip(split) {
                *a += b;
            }
        }
        let master_cpu = self.ranks[0].cpu;
        let group_cpu = self
            .ranks
            .iter()
            .skip(1)
            .filter(|r| r.group.is_some())
            .map(|r| r.cpu)
            .max()
            .unwrap_or(0);
        let groups = self.layout.groups();
        let events = self.clock.taken;
        let (messages, master_received) = (self.messages, self.master_received);
        let problem = self.names;
        let outcome = self.head.finish(config.ranks)?;
        let group_messages = outcome
            .reports
            .iter()
            .filter_map(|r| r.group.as_ref())
            .map(|g| g.messages_sent)
            .sum();
        let workers = config.ranks * config.threads();
        let total = (workers as u64 * answered) as f64;
        Ok(SimReport {
            problem: problem.0,
            instance: problem.1,
            mode: config.mode().to_string(),
            ranks: config.ranks,
            threads: config.threads(),
            workers,
            seed: config.seed,
            jitter: config.jitter,
            network: config.network,
            costs: config.costs,
            cores: config.cores,
            ranks_per_host: config.ranks_per_host,
            solutions: outcome.solutions,
            objective: outcome.objective,
            nodes: outcome.nodes,
            predicted_s: answered as f64 * 1e-9,
            efficiency: 0.0,
            one_worker_s: 0.0,
            master_messages: outcome.master.messages_sent,
            master_received,
            master: outcome.master.clone(),
            master_busy: master_cpu.min(answered) as f64 / answered as f64,
            groups,
            group_master_busy: group_cpu.min(answered) as f64 / answered as f64,
            group_messages,
            idle: IdleShares {
                start: idle[0] as f64 / total,
                steady: idle[1] as f64 / total,
                tail: idle[2] as f64 / total,
            },
            overhead: OverheadShares {
                splits: overhead[0] as f64 / total,
                steals: overhead[1] as f64 / total,
            },
            messages,
            steal_round_trip_us: outcome.steal_round_trips(),
            events,
            simulated_in_s: 0.0,
        })
    }
}
