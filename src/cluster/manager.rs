//! The rank manager: the one thread of a rank that talks to other ranks. It
//! feeds the rank's pool, answers the master, and on rank 0 also runs the
//! [`Master`], delivers solutions to the sink, keeps the checkpoints and
//! tells the observer how the run goes.

use super::checkpointer::Checkpointer;
use super::config::RunConfig;
use super::delivery::Delivery;
use super::host::{host_name, online_cpus, thread_cpu_seconds};
use super::master::{Master, Outbox};
use super::observer::{OBSERVE_EVERY, Progress};
use super::outcome::{Outcome, RunError};
use super::protocol::{Message, RankReport};
use super::sink::SolutionSink;
use super::transport::Transport;
use crate::engine::{
    Counters, Mode, Piece, PoolEvent, Prefix, Problem, RankPool, Tally, Task, expand,
};
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// How often a working rank tells the master its running totals.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Shortest and longest pause of the manager's poll loop when nothing happens.
const POLL_MIN: Duration = Duration::from_micros(20);
const POLL_MAX: Duration = Duration::from_millis(1);
/// The longest pause on a machine with more threads than processors.
const POLL_MAX_OVERSUBSCRIBED: Duration = Duration::from_millis(64);
/// With no other rank, worker events are all there is: sleep until one comes.
const SOLO_POLL: Duration = Duration::from_millis(100);

struct Manager<'a, P: Problem, T: Transport> {
    problem: Arc<P>,
    config: &'a RunConfig,
    transport: T,
    rank: usize,
    pool: Option<RankPool<P::Node>>,
    events: Receiver<PoolEvent<P::Node>>,
    master: Option<Master>,
    /// Messages this rank sends itself (rank 0: between its master and its pool).
    inbox: VecDeque<(usize, Message)>,
    /// Holds tasks (has not sent `AskForWork` since it last got work).
    busy: bool,
    owes_donation: bool,
    terminated: bool,
    report: RankReport,
    /// Master only: what expanding the root counted.
    expansion: Counters,
    /// Master: where solutions go.
    delivery: Delivery<'a>,
    /// Master with checkpoints.
    checkpointer: Option<Checkpointer>,
    interrupted: bool,
    /// When the observer was last told of the progress.
    last_observed: Instant,
    /// When this rank last sent the master a `Progress` message.
    last_progress: Instant,
    /// This thread's CPU time when the rank started.
    cpu_start: f64,
    /// The longest pause of the poll loop (see [`poll_max`]).
    poll_max: Duration,
}

/// The longest pause of a rank's poll loop. A poll costs about 6 µs of CPU
/// (a wake-up and an `MPI_Improbe`); at 1 ms that is 0.6 % of a core. When
/// the launcher put more ranks x threads on this machine than it has
/// processors, each rank gets only a share of one, and polling as often
/// would take the same CPU from the busy workers next to it: the pause
/// grows with the oversubscription, so that polls keep the same share of
/// the rank's own CPU. Measured with 128 ranks of one thread on 2 cores,
/// N-Queens 17: at 1 ms (and with the protocol before routed donations)
/// the managers used 24.6 CPU seconds of the 62 the run had; now 1.5. The
/// master (rank 0) serves everyone and keeps 1 ms.
fn poll_max(rank: usize, threads: usize, local_ranks: usize, cpus: usize) -> Duration {
    if rank == 0 {
        return POLL_MAX;
    }
    let load = (local_ranks * threads).div_ceil(cpus.max(1)).max(1);
    (POLL_MAX * load as u32).min(POLL_MAX_OVERSUBSCRIBED)
}

/// Runs this rank's part of the search. Returns the outcome on the master
/// (rank 0) and `None` elsewhere. In `all` mode the master hands each
/// solution to `sink` as it arrives.
pub fn run_rank<P: Problem, T: Transport>(
    problem: Arc<P>,
    config: &RunConfig,
    transport: T,
    sink: &mut dyn SolutionSink,
) -> Result<Option<Outcome>, RunError> {
    let mut m = Manager::new(problem, config, transport, sink);
    let size = m.transport.size();
    if m.rank == 0 {
        m.start_master(size)?;
    }
    m.go_idle();
    m.poll_loop(size)?;
    m.transport.flush();
    m.finish(size)
}

impl<'a, P: Problem, T: Transport> Manager<'a, P, T> {
    fn new(
        problem: Arc<P>,
        config: &'a RunConfig,
        transport: T,
        sink: &'a mut dyn SolutionSink,
    ) -> Self {
        let cpu_start = thread_cpu_seconds();
        let rank = transport.rank();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let host_cpus = online_cpus();
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
            config.threads,
            tx,
            config.checkpoint.is_some(),
        );
        let resume = config.checkpoint.as_ref().and_then(|c| c.resume.as_ref());
        Manager {
            problem,
            config,
            transport,
            rank,
            pool: Some(pool),
            events,
            master: None,
            inbox: VecDeque::new(),
            busy: true,
            owes_donation: false,
            terminated: false,
            report: RankReport {
                rank,
                host: host_name(),
                cores,
                host_cpus,
                ..RankReport::default()
            },
            expansion: Counters::default(),
            delivery: Delivery::new(sink, config.mode, resume),
            checkpointer: None,
            interrupted: false,
            last_observed: Instant::now(),
            last_progress: Instant::now(),
            cpu_start,
            poll_max: poll_max(
                rank,
                config.threads,
                super::launcher::local_ranks(),
                host_cpus,
            ),
        }
    }

    /// The end of the run on this rank: on the master, the last checkpoint
    /// of an interrupted run, or the outcome.
    fn finish(mut self, size: usize) -> Result<Option<Outcome>, RunError> {
        let config = self.config;
        let Some(master) = self.master.take() else {
            return Ok(None);
        };
        if let Some(observer) = &config.observer {
            observer.finished();
        }
        if self.interrupted {
            let checkpoint = self.checkpointer.as_ref().map(|c| c.path().to_path_buf());
            if checkpoint.is_some() {
                self.write_checkpoint()?;
            } else {
                self.delivery.persist()?;
            }
            return Err(RunError::Interrupted { checkpoint });
        }
        if let Some(checkpointer) = &self.checkpointer {
            self.delivery.persist()?;
            checkpointer.remove()?;
        }
        let answered = master.terminated_at().unwrap_or_else(Instant::now);
        let (reports, master_stats) = master.into_reports();
        let mut nodes = self.expansion.nodes;
        let mut solutions = self.expansion.solutions;
        let mut depth = self.expansion.depth;
        for r in &reports {
            nodes += r.nodes;
            solutions += r.solutions;
            depth = crate::engine::deeper(depth, r.depth);
        }
        if let Some(book) = self.checkpointer.as_ref().map(|c| &c.book) {
            // Every unit is complete: the book holds this run's totals and
            // those of the runs it resumes.
            debug_assert!(book.remaining().is_empty());
            nodes = book.nodes;
            solutions = book.solutions;
            depth = book.tree_depth;
        }
        let d = self.delivery;
        if config.mode.stop_after().is_some() {
            solutions = d.found.len() as u64;
        } else if config.mode == Mode::All && config.limit.is_some() {
            solutions = d.written;
        }
        Ok(Some(Outcome {
            mode: config.mode,
            solutions,
            found: d.found,
            written: d.written,
            nodes,
            depth,
            wall_s: answered.duration_since(config.started).as_secs_f64(),
            ranks: size,
            threads: config.threads,
            reports,
            master: master_stats,
        }))
    }

    fn start_master(&mut self, size: usize) -> Result<(), RunError> {
        let resume = self
            .config
            .checkpoint
            .as_ref()
            .and_then(|c| c.resume.as_ref());
        let (initial, found): (Vec<Piece>, Vec<String>) = match resume {
            // The units left, as the checkpoint has them: the same units
            // whatever the number of ranks and threads now.
            Some(c) => (
                c.remaining.iter().cloned().map(Piece::named).collect(),
                Vec::new(),
            ),
            None => {
                let target =
                    self.config.prefixes_per_worker.max(1) * self.config.threads.max(1) * size;
                let (frontier, counted, found) = expand(&*self.problem, self.config.mode, target);
                self.expansion = counted;
                let pieces = frontier.iter().map(|t| Piece::of(&*self.problem, t));
                (pieces.collect(), found)
            }
        };
        if let Some(plan) = &self.config.checkpoint {
            let units: Vec<Prefix> = initial.iter().map(|p| p.prefix.clone()).collect();
            self.checkpointer = Some(Checkpointer::new(plan.clone(), &units, self.expansion));
        }
        self.master = Some(Master::new(size, initial, self.config.stop_after()));
        let mut out = Outbox::new();
        self.accept_solutions(0, None, found, &mut out)?;
        self.dispatch(out);
        if let (Some(observer), Some(master)) = (&self.config.observer, &self.master) {
            observer.started(master.stats.initial_prefixes);
        }
        Ok(())
    }

    /// Sends messages, delivering the ones for this rank to its own inbox.
    fn dispatch(&mut self, out: Outbox) {
        for (to, msg) in out {
            self.send(to, msg);
        }
    }

    fn send(&mut self, to: usize, msg: Message) {
        if to == self.rank {
            self.inbox.push_back((self.rank, msg));
        } else {
            self.report.messages_sent += 1;
            self.transport.send(to, msg.encode());
        }
    }

    /// The pool has finished everything it was given: ask for work. The
    /// ask also answers a donation request still open (nothing to give).
    fn go_idle(&mut self) {
        if self.owes_donation {
            self.owes_donation = false;
            // No worker took the request up: one that did sent its
            // `Donated` before the pool could go idle, and we handled that.
            if let Some(pool) = &self.pool {
                pool.withdraw_donation_request();
            }
        }
        self.busy = false;
        self.report.asks += 1;
        let tally = self
            .pool
            .as_ref()
            .map_or(Tally::default(), |p| p.progress());
        self.last_progress = Instant::now();
        self.send(0, Message::AskForWork(tally));
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
            self.master_duties()?;
            self.tick();
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
                Err(RecvTimeoutError::Timeout) => pause = (pause * 2).min(self.poll_max),
                Err(RecvTimeoutError::Disconnected) => pause = self.poll_max,
            }
        }
    }

    fn done(&self) -> bool {
        match &self.master {
            Some(master) => master.finished(),
            None => self.terminated,
        }
    }

    /// The master's clockwork between messages: thieves waiting for a
    /// victim old enough, a signal, a checkpoint due.
    fn master_duties(&mut self) -> Result<(), RunError> {
        let Some(master) = &mut self.master else {
            return Ok(());
        };
        let mut out = Outbox::new();
        master.on_tick(Instant::now(), &mut out);
        if !self.interrupted
            && self
                .config
                .interrupt
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            self.interrupted = true;
            if !master.terminated() {
                master.interrupt(&mut out);
            }
        }
        self.dispatch(out);
        if !self.interrupted && self.checkpointer.as_ref().is_some_and(Checkpointer::due) {
            self.write_checkpoint()?;
        }
        Ok(())
    }

    fn tick(&mut self) {
        if self.rank != 0 && self.busy && !self.terminated {
            if self.last_progress.elapsed() >= PROGRESS_EVERY {
                self.last_progress = Instant::now();
                if let Some(pool) = &self.pool {
                    let tally = pool.progress();
                    self.send(0, Message::Progress(tally));
                }
            }
            return;
        }
        let Some(observer) = &self.config.observer else {
            return;
        };
        if self.last_observed.elapsed() < OBSERVE_EVERY {
            return;
        }
        self.last_observed = Instant::now();
        if let (Some(master), Some(pool)) = (&self.master, &self.pool) {
            // Rank 0's totals are live in its pool; the master's entry for
            // it dates from its last `AskForWork`.
            let t = master.progress() - master.rank_progress(0) + pool.progress();
            observer.progress(&Progress {
                elapsed: self.config.started.elapsed(),
                initial: master.stats.initial_prefixes,
                initial_done: t.initial_done,
                solutions: t.solutions,
                nodes: t.nodes,
            });
        }
    }

    fn accept_solutions(
        &mut self,
        from: usize,
        unit: Option<Prefix>,
        texts: Vec<String>,
        out: &mut Outbox,
    ) -> Result<(), RunError> {
        let Some(master) = &mut self.master else {
            return Err(RunError::Protocol {
                rank: self.rank,
                what: "solutions message",
            });
        };
        let keep = master.on_solutions(texts.len(), out);
        if let (Some(c), Some(unit)) = (&mut self.checkpointer, unit) {
            // Held back until the unit completes (see `units`).
            return c.book.hold_texts(&unit, texts).map_err(|e| RunError::Unit {
                rank: from,
                unit: e.0,
            });
        }
        self.delivery.accept(texts, keep)
    }

    fn on_event(&mut self, event: PoolEvent<P::Node>) -> Result<(), RunError> {
        if self.terminated {
            return Ok(());
        }
        match event {
            PoolEvent::Solutions { unit, texts } => {
                if self.rank == 0 {
                    let mut out = Outbox::new();
                    self.accept_solutions(0, unit, texts, &mut out)?;
                    self.dispatch(out);
                } else {
                    self.send(0, Message::Solutions { unit, texts });
                }
            }
            PoolEvent::UnitDone(report) => self.send(0, Message::UnitDone(report)),
            PoolEvent::Idle => self.go_idle(),
            PoolEvent::Donated(tasks) => {
                let pieces = self.pieces(&tasks);
                self.owes_donation = false;
                self.report.prefixes_donated += pieces.len() as u64;
                self.send(0, Message::Donation { pieces });
            }
        }
        Ok(())
    }

    fn handle(&mut self, from: usize, msg: Message) -> Result<(), RunError> {
        let mut out = Outbox::new();
        match msg {
            // Master side.
            Message::AskForWork(tally) => {
                self.master_mut("AskForWork")?
                    .on_ask(from, tally, Instant::now(), &mut out)
            }
            Message::Progress(tally) => self.master_mut("Progress")?.on_progress(from, tally),
            Message::Donation { pieces: prefixes } => {
                if let Some(c) = &mut self.checkpointer {
                    c.book.on_donation(&prefixes).map_err(|e| RunError::Unit {
                        rank: from,
                        unit: e.0,
                    })?;
                }
                self.master_mut("Donation")?
                    .on_donation(from, prefixes, Instant::now(), &mut out)
            }
            Message::Solutions { unit, texts } => {
                self.accept_solutions(from, unit, texts, &mut out)?
            }
            Message::UnitDone(report) => self.on_unit_done(from, report)?,
            Message::Final(report) => self.master_mut("Final")?.on_final(*report),
            // Rank side.
            Message::Work {
                pieces,
                initial_depth,
            } => self.on_work(pieces, initial_depth)?,
            Message::DonateRequest => self.on_donate_request(),
            Message::Terminate => self.on_terminate(),
        }
        self.dispatch(out);
        Ok(())
    }

    fn on_unit_done(
        &mut self,
        from: usize,
        report: crate::engine::UnitReport,
    ) -> Result<(), RunError> {
        let Some(c) = &mut self.checkpointer else {
            return Err(RunError::Protocol {
                rank: self.rank,
                what: "unit report",
            });
        };
        let done = c.book.on_done(report).map_err(|e| RunError::Unit {
            rank: from,
            unit: e.0,
        })?;
        if let Some(done) = done {
            for text in &done.texts {
                self.delivery.write(text)?;
            }
        }
        Ok(())
    }

    fn write_checkpoint(&mut self) -> Result<(), RunError> {
        match &mut self.checkpointer {
            Some(c) => {
                let (written, bytes) = (self.delivery.written, self.delivery.out_bytes);
                c.write(self.delivery.sink(), written, bytes, self.config.started)
            }
            None => Ok(()),
        }
    }

    fn master_mut(&mut self, what: &'static str) -> Result<&mut Master, RunError> {
        let rank = self.rank;
        self.master
            .as_mut()
            .ok_or(RunError::Protocol { rank, what })
    }

    fn on_work(&mut self, pieces: Vec<Piece>, initial_depth: u32) -> Result<(), RunError> {
        if self.terminated {
            return Ok(());
        }
        self.report.prefixes_received += pieces.len() as u64;
        let mut tasks = Vec::with_capacity(pieces.len());
        for piece in pieces {
            let Some(task) = piece.task(&*self.problem) else {
                return Err(RunError::BadPrefix {
                    rank: self.rank,
                    prefix: piece.prefix,
                });
            };
            tasks.push(task);
        }
        self.busy = true;
        if let Some(pool) = &self.pool {
            pool.set_initial_depth(initial_depth as usize);
            pool.inject(tasks);
        }
        Ok(())
    }

    /// Tasks as they travel to the master.
    fn pieces(&self, tasks: &[Task<P::Node>]) -> Vec<Piece> {
        tasks.iter().map(|t| Piece::of(&*self.problem, t)).collect()
    }

    /// Gives half of what this rank holds to a waiting rank: half of its
    /// queued tasks at once, or else half of a running walk's unexplored
    /// subtrees. Only one of the two: a second donation would find no rank
    /// waiting for it; measured on UTS T3L with 64 ranks, queued tasks then
    /// a split gave 247 master messages a rank against 75, in 6.65 s
    /// against 6.18 s.
    fn on_donate_request(&mut self) {
        if self.terminated {
            return;
        }
        let Some(pool) = &self.pool else { return };
        if !self.busy {
            // Already idle: our `AskForWork`, on its way, is the answer.
            return;
        }
        let (taken, now_idle) = pool.request_donation();
        if taken.is_empty() {
            self.owes_donation = true;
            return;
        }
        self.report.prefixes_donated += taken.len() as u64;
        let pieces = self.pieces(&taken);
        self.send(0, Message::Donation { pieces });
        if now_idle {
            self.go_idle();
        }
    }

    fn on_terminate(&mut self) {
        if self.terminated {
            return;
        }
        self.terminated = true;
        if let Some(pool) = self.pool.take() {
            let workers = pool.stop();
            self.report.nodes = workers.iter().map(|w| w.nodes).sum();
            self.report.solutions = workers.iter().map(|w| w.solutions).sum();
            self.report.depth = workers.iter().try_fold(0, |d, w| Some(d.max(w.depth?)));
            self.report.workers = workers;
        }
        self.report.wall_s = self.config.started.elapsed().as_secs_f64();
        self.report.manager_cpu_s = thread_cpu_seconds() - self.cpu_start;
        let report = Box::new(self.report.clone());
        self.send(0, Message::Final(report));
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
    }
}
