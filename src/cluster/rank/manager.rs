//! The rank manager: the one thread of a rank that talks to other ranks.
//! It moves messages and events between the transport, the rank's state
//! machine ([`RankState`], free of I/O), on rank 0 its head (the
//! master, the solutions' delivery, the checkpoints and the observer:
//! [`Head`]), and on the first rank of each group in a run of groups the
//! group's master ([`GroupHead`]). It decides nothing itself: it polls,
//! routes and sends.

use crate::cluster::config::RunConfig;
use crate::cluster::host::{host_name, online_cpus, thread_cpu_seconds};
use crate::cluster::layout::Layout;
use crate::cluster::master::Outbox;
use crate::cluster::master::delivery::Delivery;
use crate::cluster::master::group::{GroupError, GroupHead};
use crate::cluster::master::head::Head;
use crate::cluster::master::race::Race;
use crate::cluster::outcome::{Outcome, RunError};
use crate::cluster::protocol::RankReport;
use crate::cluster::rank::RankState;
use crate::cluster::rank::link::{ForManager, Link, WorkerPoll};
use crate::cluster::sink::SolutionSink;
use crate::cluster::transport::Transport;
use crate::engine::{Mode, PoolEvent, Problem, RankPool, Threads};
use crossbeam_channel::{Receiver, Select, Sender, bounded, unbounded};
use parking_lot::{Mutex, MutexGuard};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Shortest and longest pause of the manager's poll loop when nothing happens.
const POLL_MIN: Duration = Duration::from_micros(20);
const POLL_MAX: Duration = Duration::from_millis(1);
/// The longest pause on a machine with more threads than processors.
const POLL_MAX_OVERSUBSCRIBED: Duration = Duration::from_millis(64);
/// With no other rank, worker events are all there is: sleep until one comes.
const SOLO_POLL: Duration = Duration::from_millis(100);
/// How often a busy worker looks at its rank's messages, where every
/// thread has a core (`cluster/README.md`, "Noticing a message").
pub(crate) const WORKER_POLL: Duration = Duration::from_micros(20);

/// The longest the manager serves messages before it turns to its duties
/// (rank 0's clockwork and checkpoints, the observer, the rank's progress)
/// and then serves again: a rank that is sent messages faster than it
/// takes them would otherwise never leave [`serve`](Manager::serve). Rank
/// 0 of 16 oversubscribed ranks in groups (`queens 16`) served for 380 to
/// 580 ms at a stretch, so its checkpoint, due every 10 ms, was first
/// written near the run's end.
const SERVE_MOST: Duration = POLL_MAX;

struct Manager<'a, P: Problem, T: Transport> {
    config: &'a RunConfig,
    rank: usize,
    size: usize,
    /// The transport and the rank's state machine, shared with the workers.
    link: Arc<Mutex<Link<P, T>>>,
    /// The pool's events (the manager waits for one; the link takes them).
    events: Receiver<PoolEvent<P::Node>>,
    /// Rung by a worker that left the manager something.
    bell: Receiver<()>,
    /// Keeps the bell open once the workers, who ring it, are gone.
    _ring: Sender<()>,
    /// The workers have stopped (`Terminate`): no event will come.
    stopped: bool,
    /// Rank 0 only, once started.
    head: Option<Head<'a>>,
    /// Rank 0 in optimise mode: the heuristic's race beside the search.
    race: Option<Race>,
    /// The first rank of each group, in a run of groups.
    group: Option<GroupHead>,
    /// This thread's CPU time when the rank started.
    cpu_start: f64,
    /// The longest pause of the poll loop while the rank holds work (see
    /// [`poll_max`]), and while it waits for work or is hungry
    /// ([`idle_poll_max`]).
    poll_max: Duration,
    idle_poll_max: Duration,
}

/// The longest pause of a rank's poll loop. A poll costs about 6 µs of CPU
/// (a wake-up and an `MPI_Improbe`); at 1 ms that is 0.6 % of a core. When
/// the launcher put more ranks x threads on this machine than it has
/// processors, each rank gets only a share of one, and polling as often
/// would take the same CPU from the busy workers next to it: the pause
/// grows with the oversubscription, so that polls keep the same share of
/// the rank's own CPU (measured: `bench-results/log/2026-11-ranks-and-the-master.md`, "Many
/// ranks"). The master (rank 0) serves everyone and keeps 1 ms.
fn poll_max(rank: usize, threads: usize, local_ranks: usize, cpus: usize) -> Duration {
    if rank == 0 {
        return POLL_MAX;
    }
    (POLL_MAX * load(threads, local_ranks, cpus)).min(POLL_MAX_OVERSUBSCRIBED)
}

/// Threads of this machine's ranks a processor, rounded up (1 where
/// every thread has a core).
fn load(threads: usize, local_ranks: usize, cpus: usize) -> u32 {
    (local_ranks * threads.max(1)).div_ceil(cpus.max(1)).max(1) as u32
}

/// How often a busy worker looks at its rank's messages: [`WORKER_POLL`]
/// where every thread has a core; oversubscribed, as much less often as
/// the threads share a processor, so that the looks keep the same share
/// of the CPU the rank gets.
fn worker_poll(threads: usize, local_ranks: usize, cpus: usize) -> Duration {
    WORKER_POLL * load(threads, local_ranks, cpus)
}

/// The longest pause of the poll loop of a rank waiting for work (or
/// hungry: `RankState::awaits_answer`), once its idle worker has stopped
/// looking (`engine/pool/poll.rs`, `SPIN`). Its workers are parked (some
/// of them, when hungry), so where every thread has a core of its own its
/// manager polls at the shortest pause. Oversubscribed, the idle rank's
/// core is someone else's: it keeps [`poll_max`].
fn idle_poll_max(rank: usize, threads: usize, local_ranks: usize, cpus: usize) -> Duration {
    if load(threads, local_ranks, cpus) == 1 {
        POLL_MIN
    } else {
        poll_max(rank, threads, local_ranks, cpus)
    }
}

/// Whether an idle worker may look at the rank's messages while the rank
/// waits for work (`engine/pool/mod.rs`, `await_answer`): where every
/// thread of this machine's ranks has a processor.
fn spins(config: &RunConfig, local_ranks: usize, cpus: usize) -> bool {
    load(config.threads, local_ranks, cpus) == 1
}

/// Runs this rank's part of the search. Returns the outcome on the master
/// (rank 0) and `None` elsewhere. In `all` mode the master hands each
/// solution to `sink` as it arrives.
pub(in crate::cluster) fn run_rank<P: Problem, T: Transport + Send + 'static>(
    problem: Arc<P>,
    config: &RunConfig,
    transport: T,
    sink: &mut dyn SolutionSink,
) -> Result<Option<Outcome>, RunError> {
    let size = transport.size();
    let layout = config.layout(size, crate::cluster::launcher::ranks_per_node());
    let mut m = Manager::new(problem.clone(), config, transport, layout);
    let outcome = m.run(&problem, layout, sink);
    if outcome.is_err() {
        m.link.lock().transport.abandon();
    }
    outcome
}

impl<'a, P: Problem, T: Transport + Send + 'static> Manager<'a, P, T> {
    /// The rank's part of the run, from the head's start (rank 0) to the
    /// outcome (rank 0) or the end of the poll loop.
    fn run(
        &mut self,
        problem: &Arc<P>,
        layout: Layout,
        sink: &'a mut dyn SolutionSink,
    ) -> Result<Option<Outcome>, RunError> {
        let config = self.config;
        let size = self.size;
        if self.rank == 0 {
            let resume = config.checkpoint.as_ref().and_then(|c| c.resume.as_ref());
            let delivery = Delivery::new(sink, config.mode, resume);
            let mut out = Outbox::new();
            let head = Head::start(&**problem, config, layout, delivery, &mut out)?;
            // The race carries the ramp-up on: a run asked for without
            // the heuristic (`--ramp-up 0`, a pure search to time or to
            // test) gets none beside the search either.
            let racing = config.ramp_up > 0 && config.race > 0;
            if config.mode == Mode::Optimise && racing && !head.answered() {
                // Seeds above the ramp-up's, one a thread.
                let first_seed = config.threads.max(1) as u64 + 1;
                match Race::start(problem.clone(), config.race, first_seed, head.best_value()) {
                    Ok(race) => self.race = Some(race),
                    Err(e) => tracing::warn!("no race beside the search: {e}"),
                }
            }
            self.head = Some(head);
            self.link.lock().send_all(out);
        }
        {
            let mut link = self.link.lock();
            let mut asks = Vec::new();
            link.state.start(Instant::now(), &mut asks);
            link.send_all(asks);
        }
        let polled = self.poll_loop(size);
        if let Some(race) = &mut self.race {
            race.end();
        }
        polled?;
        self.link.lock().transport.flush();
        match self.head.take() {
            Some(head) => head.finish(size).map(Some),
            None => Ok(None),
        }
    }

    fn new(problem: Arc<P>, config: &'a RunConfig, transport: T, layout: Layout) -> Self {
        let cpu_start = thread_cpu_seconds();
        let rank = transport.rank();
        let size = transport.size();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let host_cpus = online_cpus();
        let local_ranks = transport.local_ranks();
        if config.threads > cores && cores < host_cpus {
            tracing::warn!(
                "rank {rank}: {} worker threads share {cores} usable core(s) of {host_cpus}: the \
                 launcher bound this rank (with mpirun, add --bind-to none or --map-by slot:PE={})",
                config.threads,
                config.threads
            );
        }
        let (tx, events) = unbounded();
        let pool = RankPool::start(
            problem.clone(),
            config.mode,
            config.stop_after(),
            Threads {
                here: config.threads,
                run: size * config.threads.max(1),
            },
            tx,
            config.checkpoint.is_some(),
            config.hunger_threshold(layout.grouped()),
        );
        if let Some(target) = config.at_least {
            pool.raise_floor(target);
        }
        let report = RankReport {
            rank,
            host: host_name(),
            cores,
            host_cpus,
            ..RankReport::default()
        };
        let (ring, bell) = bounded(1);
        let every = worker_poll(config.threads, local_ranks, host_cpus);
        let group_master = layout.is_group_master(rank);
        // SAFETY: the doorbell is read by the rank's workers and its link's
        // pump alone. The workers stop (`RankPool::stop` joins them, on
        // `Terminate`) before the manager drops the link and the transport
        // with it; a dropped link pumps no more; and an abandoned run, or
        // one unwinding from a panic, never frees the bell's window
        // (`mpi_transport.rs`). So no one reads it after the transport.
        let doorbell = unsafe { transport.doorbell() };
        let link = Arc::new_cyclic(|link| {
            if size > 1 {
                // With no other rank there are no messages to look for.
                pool.set_poller(
                    Arc::new(WorkerPoll {
                        link: link.clone(),
                        bell: ring.clone(),
                        spin: spins(config, local_ranks, host_cpus),
                        doorbell: doorbell.clone(),
                    }),
                    every,
                );
            }
            let state = RankState::for_run(problem, config, rank, layout, pool, report);
            Mutex::new(Link::new(
                transport,
                state,
                events.clone(),
                group_master,
                doorbell,
            ))
        });
        Manager {
            config,
            rank,
            size,
            link,
            events,
            bell,
            _ring: ring,
            stopped: false,
            head: None,
            race: None,
            group: group_master.then(|| {
                GroupHead::new(
                    layout,
                    layout.group_of(rank),
                    config.mode,
                    config.checkpoint.is_some(),
                    Instant::now(),
                )
            }),
            cpu_start,
            // A group's master serves its group as rank 0 serves all.
            poll_max: poll_max(serves(rank, layout), config.threads, local_ranks, host_cpus),
            idle_poll_max: idle_poll_max(
                serves(rank, layout),
                config.threads,
                local_ranks,
                host_cpus,
            ),
        }
    }

    fn poll_loop(&mut self, size: usize) -> Result<(), RunError> {
        let mut pause = POLL_MIN;
        loop {
            let link = self.link.clone();
            let mut link = link.lock();
            let active = self.serve(&mut link)?;
            if self.done(&link) {
                return Ok(());
            }
            self.duties(&mut link)?;
            if active || link.has_inbox() || link.wants_manager() {
                pause = POLL_MIN;
                continue;
            }
            let awaits = link.state.awaits_answer();
            drop(link);
            if size == 1 {
                self.wait(SOLO_POLL);
                continue;
            }
            if self.wait(pause) {
                pause = POLL_MIN;
            } else {
                pause = (pause * 2).min(self.pause_max(awaits));
            }
        }
    }

    /// Sleeps until the pool has an event, a worker rings, or `pause` has
    /// passed; whether something came.
    fn wait(&self, pause: Duration) -> bool {
        let mut select = Select::new();
        if !self.stopped {
            select.recv(&self.events);
        }
        let bell = select.recv(&self.bell);
        match select.ready_timeout(pause) {
            Ok(i) => {
                if i == bell {
                    let _ = self.bell.try_recv();
                }
                true
            }
            Err(_) => false,
        }
    }

    /// Pumps the link and runs what it left the manager until nothing is
    /// left, or for [`SERVE_MOST`]; whether anything was.
    fn serve(&mut self, link: &mut MutexGuard<'_, Link<P, T>>) -> Result<bool, RunError> {
        let mut active = false;
        let start = Instant::now();
        loop {
            if active && start.elapsed() >= SERVE_MOST {
                return Ok(true);
            }
            if let Some(e) = link.failure() {
                return Err(e);
            }
            let taken = link.pump()?;
            let Some(task) = link.for_manager() else {
                if taken == 0 {
                    return Ok(active);
                }
                active = true;
                continue;
            };
            active = true;
            self.run_task(link, task)?;
        }
    }

    /// The longest pause now: shorter while the rank waits for work or
    /// for the answer to a steal of its own.
    fn pause_max(&self, awaits: bool) -> Duration {
        if !awaits {
            self.poll_max
        } else {
            self.idle_poll_max
        }
    }

    fn done(&self, link: &Link<P, T>) -> bool {
        match (&self.head, &self.group) {
            (Some(head), _) => head.finished(),
            (None, Some(group)) => group.finished(),
            (None, None) => link.state.terminated(),
        }
    }

    /// Between messages: the head's clockwork and observer, the rank's
    /// progress report.
    fn duties(&mut self, link: &mut Link<P, T>) -> Result<(), RunError> {
        let now = Instant::now();
        if let Some(head) = &mut self.head {
            let mut out = Outbox::new();
            if let Some(race) = &self.race {
                for (value, text) in race.found() {
                    head.raced(value, text, &mut out)?;
                }
            }
            head.duties(now, &mut out)?;
            if !link.state.terminated() {
                head.observe(link.state.progress(), now);
            }
            link.send_all(out);
        }
        if let Some(group) = &mut self.group {
            let mut out = Outbox::new();
            group.tick(now, &mut out);
            link.send_all(out);
        }
        let mut progress = Vec::new();
        link.state.tick(now, &mut progress);
        link.send_all(progress);
        Ok(())
    }

    /// What the link left the manager: the masters' messages, rank 0's
    /// solutions, `Terminate`.
    fn run_task(&mut self, link: &mut Link<P, T>, task: ForManager) -> Result<(), RunError> {
        let now = Instant::now();
        let mut out = Outbox::new();
        match task {
            ForManager::Terminate => {
                let wall_s = self.config.started.elapsed().as_secs_f64();
                let cpu_s = thread_cpu_seconds() - self.cpu_start;
                link.state.on_terminate(wall_s, cpu_s, &mut out);
                link.terminated();
                self.stopped = true;
            }
            ForManager::Solutions { unit, texts } => {
                if let Some(head) = &mut self.head {
                    head.accept_solutions(0, unit, texts, &mut out)?;
                }
            }
            ForManager::Root(msg) => {
                let group = self.group.as_mut().expect("routed to a group master");
                group.on_root(msg, now, &mut out).map_err(group_error)?;
            }
            ForManager::Group(from, msg) => {
                let group = self.group.as_mut().expect("routed to a group master");
                group
                    .on_rank(from, msg, now, &mut out)
                    .map_err(group_error)?;
            }
            ForManager::Head(from, msg) => {
                let head = self.head.as_mut().expect("routed to rank 0's head");
                head.handle(from, msg, now, &mut out)?;
            }
        }
        link.send_all(out);
        Ok(())
    }
}

/// The rank as `poll_max` sees it: 0 for any rank that runs a master
/// (rank 0, and each group's master), which polls as rank 0 does.
pub(crate) fn serves(rank: usize, layout: Layout) -> usize {
    if layout.runs_master(rank) { 0 } else { rank }
}

/// A group's master's refusal, as the run's error.
pub(in crate::cluster) fn group_error(e: GroupError) -> RunError {
    match e {
        GroupError::Protocol(rank, what) => RunError::Protocol { rank, what },
        GroupError::Unit(rank, unit) => RunError::Unit { rank, unit },
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn polls_back_off_with_oversubscription_but_not_on_the_master() {
        let ms = |r, t, l, c| poll_max(r, t, l, c).as_millis();
        assert_eq!(ms(1, 1, 2, 2), 1);
        assert_eq!(ms(1, 2, 2, 2), 2);
        assert_eq!(ms(1, 1, 64, 2), 32);
        assert_eq!(ms(1, 1, 128, 2), 64);
        assert_eq!(ms(1, 1, 1000, 2), 64);
        assert_eq!(ms(0, 1, 128, 2), 1);
        assert_eq!(ms(1, 16, 1, 0), 16);
        // Waiting for work with a core to itself: the shortest pause.
        let idle = |r, t, l, c| idle_poll_max(r, t, l, c).as_micros();
        assert_eq!(idle(1, 1, 2, 2), 20);
        assert_eq!(idle(0, 16, 1, 16), 20);
        assert_eq!(idle(1, 1, 64, 2), 32_000);
        assert_eq!(idle(0, 1, 64, 2), 1_000);
        // Busy workers look every 20 µs where each has a core, less often
        // as they share one.
        let every = |t, l, c| worker_poll(t, l, c).as_micros();
        assert_eq!(every(1, 2, 2), 20);
        assert_eq!(every(16, 1, 16), 20);
        assert_eq!(every(1, 64, 2), 640);
    }
}
