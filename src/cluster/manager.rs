//! The rank manager: the one thread of a rank that talks to other ranks.
//! It moves messages and events between the transport, the rank's state
//! machine ([`RankState`], free of I/O), on rank 0 the host of the
//! master, the solutions' delivery, the checkpoints and the observer
//! ([`Head`]), and on the first rank of each group in a run of groups the
//! group's master ([`GroupHost`]). It decides nothing itself: it polls,
//! routes and sends.

use super::config::RunConfig;
use super::delivery::Delivery;
use super::group::{GroupError, GroupHost};
use super::head::Head;
use super::host::{host_name, online_cpus, thread_cpu_seconds};
use super::layout::Layout;
use super::master::Outbox;
use super::outcome::{Outcome, RunError};
use super::protocol::{Message, RankReport};
use super::race::Race;
use super::rank::RankState;
use super::sink::SolutionSink;
use super::transport::Transport;
use crate::engine::{Mode, PoolEvent, Problem, RankPool, Threads};
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Shortest and longest pause of the manager's poll loop when nothing happens.
const POLL_MIN: Duration = Duration::from_micros(20);
const POLL_MAX: Duration = Duration::from_millis(1);
/// The longest pause on a machine with more threads than processors.
const POLL_MAX_OVERSUBSCRIBED: Duration = Duration::from_millis(64);
/// With no other rank, worker events are all there is: sleep until one comes.
const SOLO_POLL: Duration = Duration::from_millis(100);

struct Manager<'a, P: Problem, T: Transport> {
    config: &'a RunConfig,
    transport: T,
    rank: usize,
    state: RankState<P, RankPool<P::Node>>,
    events: Receiver<PoolEvent<P::Node>>,
    /// Rank 0 only, once started.
    head: Option<Head<'a>>,
    /// Rank 0 in optimise mode: the heuristic's race beside the search.
    race: Option<Race>,
    /// The first rank of each group, in a run of groups.
    group: Option<GroupHost>,
    /// Messages this rank sends itself (rank 0: between its master and its pool).
    inbox: VecDeque<(usize, Message)>,
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
/// the rank's own CPU (measured: `bench-results/README.md`, "Many
/// ranks"). The master (rank 0) serves everyone and keeps 1 ms.
fn poll_max(rank: usize, threads: usize, local_ranks: usize, cpus: usize) -> Duration {
    if rank == 0 {
        return POLL_MAX;
    }
    let load = (local_ranks * threads).div_ceil(cpus.max(1)).max(1);
    (POLL_MAX * load as u32).min(POLL_MAX_OVERSUBSCRIBED)
}

/// The longest pause of the poll loop of a rank waiting for work (or
/// hungry: `RankState::awaits_answer`). Its workers are parked (some of
/// them, when hungry), so where every thread has a core of its own its
/// manager polls at the shortest pause: the work it waits for is seen
/// within 20 µs, not a millisecond (the about 30 % of a core this costs is
/// the parked workers' own). Simulated (`hysolve-sim`), this took UTS T3L
/// on 16 ranks of one thread from efficiency 0.785 to 0.816, and on 64
/// from 0.342 to 0.376. Oversubscribed, the idle rank's core is someone
/// else's: it keeps [`poll_max`].
fn idle_poll_max(rank: usize, threads: usize, local_ranks: usize, cpus: usize) -> Duration {
    if local_ranks * threads <= cpus.max(1) {
        POLL_MIN
    } else {
        poll_max(rank, threads, local_ranks, cpus)
    }
}

/// Runs this rank's part of the search. Returns the outcome on the master
/// (rank 0) and `None` elsewhere. In `all` mode the master hands each
/// solution to `sink` as it arrives.
pub(super) fn run_rank<P: Problem, T: Transport>(
    problem: Arc<P>,
    config: &RunConfig,
    transport: T,
    sink: &mut dyn SolutionSink,
) -> Result<Option<Outcome>, RunError> {
    let size = transport.size();
    let layout = config.layout(size, super::launcher::ranks_per_node());
    let mut m = Manager::new(problem.clone(), config, transport, layout);
    let outcome = m.run(&problem, layout, sink);
    if outcome.is_err() {
        m.transport.abandon();
    }
    outcome
}

impl<'a, P: Problem, T: Transport> Manager<'a, P, T> {
    /// The rank's part of the run, from the head's start (rank 0) to the
    /// outcome (rank 0) or the end of the poll loop.
    fn run(
        &mut self,
        problem: &Arc<P>,
        layout: Layout,
        sink: &'a mut dyn SolutionSink,
    ) -> Result<Option<Outcome>, RunError> {
        let config = self.config;
        let size = self.transport.size();
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
            self.dispatch(out);
        }
        let mut asks = Vec::new();
        self.state.start(Instant::now(), &mut asks);
        self.dispatch(asks);
        let polled = self.poll_loop(size);
        if let Some(race) = &mut self.race {
            race.end();
        }
        polled?;
        self.transport.flush();
        match self.head.take() {
            Some(head) => head.finish(size).map(Some),
            None => Ok(None),
        }
    }

    fn new(problem: Arc<P>, config: &'a RunConfig, transport: T, layout: Layout) -> Self {
        let cpu_start = thread_cpu_seconds();
        let rank = transport.rank();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let host_cpus = online_cpus();
        let local_ranks = super::launcher::local_ranks();
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
                run: transport.size() * config.threads.max(1),
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
        Manager {
            config,
            transport,
            rank,
            state: RankState::new(
                problem,
                config.mode,
                rank,
                layout,
                pool,
                report,
                config.checkpoint.is_some(),
            )
            .with_direct_steals(config.direct_steals),
            events,
            head: None,
            race: None,
            group: layout.is_group_master(rank).then(|| {
                GroupHost::new(
                    layout,
                    layout.group_of(rank),
                    config.mode,
                    config.checkpoint.is_some(),
                    Instant::now(),
                )
            }),
            inbox: VecDeque::new(),
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

    /// Sends messages, delivering the ones for this rank to its own inbox.
    fn dispatch(&mut self, out: Outbox) {
        for (to, msg) in out {
            self.send(to, msg);
        }
    }

    fn send(&mut self, to: usize, msg: Message) {
        tracing::trace!(rank = self.rank, to, ?msg, "send");
        if to == self.rank {
            self.inbox.push_back((self.rank, msg));
        } else {
            self.state.count_sent();
            self.transport.send(to, msg.encode());
        }
    }

    fn poll_loop(&mut self, size: usize) -> Result<(), RunError> {
        let mut pause = POLL_MIN;
        loop {
            let mut active = false;
            while let Some((from, msg)) = self.inbox.pop_front() {
                self.handle(from, msg)?;
                active = true;
            }
            while let Some((from, bytes)) = self.transport.try_recv() {
                self.handle(from, Message::decode(&bytes)?)?;
                active = true;
            }
            while let Ok(event) = self.events.try_recv() {
                self.on_event(event)?;
                active = true;
            }
            if self.done() {
                return Ok(());
            }
            self.duties()?;
            if active || !self.inbox.is_empty() {
                pause = POLL_MIN;
                continue;
            }
            let wait = if size == 1 { SOLO_POLL } else { pause };
            match self.events.recv_timeout(wait) {
                Ok(event) => {
                    self.on_event(event)?;
                    pause = POLL_MIN;
                }
                Err(RecvTimeoutError::Timeout) => pause = (pause * 2).min(self.pause_max()),
                Err(RecvTimeoutError::Disconnected) => pause = self.pause_max(),
            }
        }
    }

    /// The longest pause now: shorter while the rank waits for work or
    /// for the answer to a steal of its own.
    fn pause_max(&self) -> Duration {
        if !self.state.awaits_answer() {
            self.poll_max
        } else {
            self.idle_poll_max
        }
    }

    fn done(&self) -> bool {
        match (&self.head, &self.group) {
            (Some(head), _) => head.finished(),
            (None, Some(group)) => group.finished(),
            (None, None) => self.state.terminated(),
        }
    }

    /// Between messages: the head's clockwork and observer, the rank's
    /// progress report.
    fn duties(&mut self) -> Result<(), RunError> {
        let now = Instant::now();
        if let Some(head) = &mut self.head {
            let mut out = Outbox::new();
            if let Some(race) = &self.race {
                for (value, text) in race.found() {
                    head.raced(value, text, &mut out)?;
                }
            }
            head.duties(now, &mut out)?;
            if !self.state.terminated() {
                head.observe(self.state.progress(), now);
            }
            self.dispatch(out);
        }
        if let Some(group) = &mut self.group {
            let mut out = Outbox::new();
            group.tick(now, &mut out);
            self.dispatch(out);
        }
        let mut progress = Vec::new();
        self.state.tick(now, &mut progress);
        self.dispatch(progress);
        Ok(())
    }

    fn on_event(&mut self, event: PoolEvent<P::Node>) -> Result<(), RunError> {
        if self.state.terminated() {
            return Ok(());
        }
        let event = match (event, &mut self.head) {
            // Rank 0's own solutions go to the master without a message.
            (PoolEvent::Solutions { unit, texts }, Some(head)) => {
                let mut out = Outbox::new();
                head.accept_solutions(0, unit, texts, &mut out)?;
                self.dispatch(out);
                return Ok(());
            }
            (event, _) => event,
        };
        let mut out = Vec::new();
        self.state.on_event(event, Instant::now(), &mut out);
        self.dispatch(out);
        Ok(())
    }

    fn handle(&mut self, from: usize, msg: Message) -> Result<(), RunError> {
        tracing::trace!(rank = self.rank, from, ?msg, "handle");
        let now = Instant::now();
        let mut sends = Vec::new();
        match msg {
            // Rank side.
            Message::Work {
                pieces,
                initial_depth,
            } => self.state.on_work(pieces, initial_depth)?,
            Message::Donation {
                pieces,
                initial_depth,
                direct,
            } => self
                .state
                .on_donation(pieces, initial_depth, direct, now, &mut sends)?,
            Message::DonateRequest { thief, asks } => {
                self.state
                    .on_donate_request(thief as usize, asks, now, &mut sends);
            }
            Message::StealRequest => self.state.on_steal_request(from, now, &mut sends),
            Message::NoWork => self.state.on_no_work(now, &mut sends),
            Message::Incumbent(value) => self.state.on_incumbent(value),
            Message::Terminate => {
                let wall_s = self.config.started.elapsed().as_secs_f64();
                let cpu_s = thread_cpu_seconds() - self.cpu_start;
                self.state.on_terminate(wall_s, cpu_s, &mut sends);
            }
            // A group's master's side.
            Message::Down(msg) => {
                let Some(group) = &mut self.group else {
                    return Err(RunError::Protocol {
                        rank: from,
                        what: "Down",
                    });
                };
                group.on_root(*msg, now, &mut sends).map_err(group_error)?;
            }
            msg if self.group.is_some() && !matches!(msg, Message::Up { .. }) => {
                let group = self.group.as_mut().expect("just seen");
                group
                    .on_rank(from, msg, now, &mut sends)
                    .map_err(group_error)?;
            }
            // Master side.
            msg => {
                let Some(head) = &mut self.head else {
                    return Err(RunError::Protocol {
                        rank: self.rank,
                        what: msg.kind(),
                    });
                };
                let mut out = Outbox::new();
                head.handle(from, msg, now, &mut out)?;
                self.dispatch(out);
            }
        }
        self.dispatch(sends);
        Ok(())
    }
}

/// The rank as `poll_max` sees it: 0 for any rank that runs a master
/// (rank 0, and each group's master), which polls as rank 0 does.
pub(crate) fn serves(rank: usize, layout: Layout) -> usize {
    if layout.runs_master(rank) { 0 } else { rank }
}

/// A group's master's refusal, as the run's error.
pub(super) fn group_error(e: GroupError) -> RunError {
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
    }
}
