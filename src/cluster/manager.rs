//! The rank manager: the one thread of a rank that talks to other ranks. It
//! feeds the rank's pool, answers the master, and on rank 0 also runs the
//! [`Master`].

use super::SolutionSink;
use super::checkpoint::{Checkpoint, CheckpointError};
use super::master::{Master, MasterStats, Outbox};
use super::protocol::{Message, RankReport};
use super::transport::Transport;
use super::units::UnitBook;
use crate::engine::{
    Counters, Mode, PoolEvent, Prefix, Problem, RankPool, Tally, Task, expand, replay,
};
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::VecDeque;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How a run is set up; the same on every rank.
#[derive(Debug, Clone)]
pub struct RunConfig {
    pub mode: Mode,
    /// Worker threads per rank.
    pub threads: usize,
    /// Initial prefixes the master aims for, per worker in the whole job.
    pub prefixes_per_worker: usize,
    /// When the input was parsed: `wall_s` counts from here.
    pub started: Instant,
    /// Show a progress bar on stderr (master only, runs over a second).
    pub progress: bool,
    /// Stop after this many solutions (modes that send solutions: all,
    /// first, unique); `None`: as the mode says.
    pub limit: Option<u64>,
    /// Checkpoints (count and all modes): where, how often, of what run,
    /// and the checkpoint this run resumes.
    pub checkpoint: Option<Arc<CheckpointPlan>>,
    /// Set on SIGTERM or SIGINT: the master stops every rank, writes a last
    /// checkpoint and the run ends with [`RunError::Interrupted`].
    pub interrupt: Option<Arc<AtomicBool>>,
}

/// Where and how often to checkpoint.
#[derive(Debug)]
pub struct CheckpointPlan {
    pub path: PathBuf,
    pub every: Duration,
    /// The run: problem, instance, mode and fingerprint (the other fields
    /// are filled in when a checkpoint is taken).
    pub identity: Checkpoint,
    /// The checkpoint this run continues.
    pub resume: Option<Checkpoint>,
}

impl RunConfig {
    /// How many solutions end the search: the mode's own limit and `limit`, whichever is smaller.
    pub fn stop_after(&self) -> Option<u64> {
        match (self.mode.stop_after(), self.limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// The answer, as the master knows it at the end.
#[derive(Debug)]
pub struct Outcome {
    pub mode: Mode,
    /// count/all: every solution, weighted; first/unique: solutions kept (at most 1 or 2).
    pub solutions: u64,
    /// first/unique: the solutions kept, rendered.
    pub found: Vec<String>,
    /// all: solutions written to the output.
    pub written: u64,
    pub nodes: u64,
    pub wall_s: f64,
    pub ranks: usize,
    pub threads: usize,
    pub reports: Vec<RankReport>,
    pub master: MasterStats,
}

/// Errors that end a run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Decode(#[from] super::protocol::DecodeError),
    #[error("rank {rank} got a {what} it should never receive")]
    Protocol { rank: usize, what: &'static str },
    #[error("rank {rank} got a prefix that names no subtree of this instance: {prefix:?}")]
    BadPrefix { rank: usize, prefix: Prefix },
    #[error("MPI: {0}")]
    Mpi(String),
    #[error("writing solutions: {0}")]
    Output(#[from] std::io::Error),
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    #[error("rank {rank} reported a unit the master does not hold open: {unit:?}")]
    Unit { rank: usize, unit: Prefix },
    #[error("{}", interrupted_message(.checkpoint))]
    Interrupted { checkpoint: Option<PathBuf> },
}

fn interrupted_message(checkpoint: &Option<PathBuf>) -> String {
    match checkpoint {
        Some(p) => format!(
            "interrupted by a signal; checkpoint written to {0}: continue with --resume {0} and the same problem arguments",
            p.display()
        ),
        None => "interrupted by a signal (with --checkpoint FILE a run can be resumed)".into(),
    }
}

/// How often a working rank tells the master its running totals.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Shortest and longest pause of the manager's poll loop when nothing happens.
const POLL_MIN: Duration = Duration::from_micros(20);
const POLL_MAX: Duration = Duration::from_millis(1);
/// With no other rank, worker events are all there is: sleep until one comes.
const SOLO_POLL: Duration = Duration::from_millis(100);

struct Manager<'a, P: Problem, T: Transport> {
    problem: Arc<P>,
    config: &'a RunConfig,
    transport: T,
    rank: usize,
    pool: Option<RankPool<P::Node>>,
    events: Receiver<PoolEvent>,
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
    found: Vec<String>,
    written: u64,
    /// Bytes written to the sink (over resumes).
    out_bytes: u64,
    sink: &'a mut dyn SolutionSink,
    /// Master with checkpoints: the account of units.
    book: Option<UnitBook>,
    last_checkpoint: Instant,
    /// Seconds of search before this run (resumed runs).
    elapsed_before: f64,
    interrupted: bool,
    /// Checkpoints written, and the seconds they took.
    pub checkpoints: u64,
    pub checkpoint_s: f64,
    progress: Option<ProgressBar>,
    last_tick: Instant,
    /// When this rank last sent the master a `Progress` message.
    last_progress: Instant,
    /// This thread's CPU time when the rank started.
    cpu_start: f64,
}

/// Runs this rank's part of the search. Returns the outcome on the master
/// (rank 0) and `None` elsewhere. In `all` mode the master writes each
/// solution to `sink` as it arrives, a blank line between solutions.
pub fn run_rank<P: Problem, T: Transport>(
    problem: Arc<P>,
    config: &RunConfig,
    transport: T,
    sink: &mut dyn SolutionSink,
) -> Result<Option<Outcome>, RunError> {
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
    let size = transport.size();
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
    let mut m = Manager {
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
        found: Vec::new(),
        written: resume.map_or(0, |c| c.written),
        out_bytes: resume.map_or(0, |c| c.out_bytes),
        sink,
        book: None,
        last_checkpoint: Instant::now(),
        elapsed_before: resume.map_or(0.0, |c| c.elapsed_s),
        interrupted: false,
        checkpoints: 0,
        checkpoint_s: 0.0,
        progress: None,
        last_tick: Instant::now(),
        last_progress: Instant::now(),
        cpu_start,
    };
    if rank == 0 {
        m.start_master(size)?;
    }
    m.go_idle();
    m.poll_loop(size)?;
    m.transport.flush();
    if let Some(bar) = m.progress.take() {
        bar.finish_and_clear();
    }
    if m.master.is_none() {
        return Ok(None);
    }
    if m.interrupted {
        let checkpoint = match &config.checkpoint {
            Some(plan) => {
                m.write_checkpoint()?;
                Some(plan.path.clone())
            }
            None => {
                m.sink.persist()?;
                None
            }
        };
        return Err(RunError::Interrupted { checkpoint });
    }
    if let Some(plan) = &config.checkpoint {
        // The run is complete: its checkpoint would only repeat the answer.
        m.sink.persist()?;
        match std::fs::remove_file(&plan.path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(CheckpointError::Write {
                    path: plan.path.display().to_string(),
                    source: e,
                }
                .into());
            }
        }
        tracing::info!(
            "{} checkpoint(s) written in {:.3} s",
            m.checkpoints,
            m.checkpoint_s
        );
    }
    let master = m.master.take().expect("checked above");
    let answered = master.terminated_at().unwrap_or_else(Instant::now);
    let (reports, master_stats) = master.into_reports();
    let mut nodes = m.expansion.nodes;
    let mut solutions = m.expansion.solutions;
    for r in &reports {
        nodes += r.nodes;
        solutions += r.solutions;
    }
    if let Some(book) = &m.book {
        // Every unit is complete: the book holds this run's totals and
        // those of the runs it resumes.
        debug_assert!(book.remaining().is_empty());
        nodes = book.nodes;
        solutions = book.solutions;
    }
    if config.mode.stop_after().is_some() {
        solutions = m.found.len() as u64;
    } else if config.mode == Mode::All && config.limit.is_some() {
        solutions = m.written;
    }
    Ok(Some(Outcome {
        mode: config.mode,
        solutions,
        found: m.found,
        written: m.written,
        nodes,
        wall_s: answered.duration_since(config.started).as_secs_f64(),
        ranks: size,
        threads: config.threads,
        reports,
        master: master_stats,
    }))
}

impl<P: Problem, T: Transport> Manager<'_, P, T> {
    fn start_master(&mut self, size: usize) -> Result<(), RunError> {
        let resume = self
            .config
            .checkpoint
            .as_ref()
            .and_then(|c| c.resume.as_ref());
        let (initial, found): (Vec<Prefix>, Vec<String>) = match resume {
            // The units left, as the checkpoint has them: the same units
            // whatever the number of ranks and threads now.
            Some(c) => (c.remaining.clone(), Vec::new()),
            None => {
                let target =
                    self.config.prefixes_per_worker.max(1) * self.config.threads.max(1) * size;
                let (frontier, counted, found) = expand(&*self.problem, self.config.mode, target);
                self.expansion = counted;
                (frontier.into_iter().map(|t| t.prefix).collect(), found)
            }
        };
        if self.config.checkpoint.is_some() {
            self.book = Some(match resume {
                Some(c) => UnitBook::new(&initial, c.units, c.nodes, c.solutions),
                None => UnitBook::new(
                    &initial,
                    initial.len() as u64,
                    self.expansion.nodes,
                    self.expansion.solutions,
                ),
            });
        }
        self.master = Some(Master::new(size, initial, self.config.stop_after()));
        let mut out = Outbox::new();
        self.accept_solutions(0, None, found, &mut out)?;
        self.dispatch(out);
        if self.config.progress {
            self.progress = Some(progress_bar(
                self.master.as_ref().map_or(0, |m| m.stats.initial_prefixes),
            ));
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
                Err(RecvTimeoutError::Timeout) => pause = (pause * 2).min(POLL_MAX),
                Err(RecvTimeoutError::Disconnected) => pause = POLL_MAX,
            }
        }
    }

    fn done(&self) -> bool {
        match &self.master {
            Some(master) => master.finished(),
            None => self.terminated,
        }
    }

    /// The master's clockwork between messages: a signal, a checkpoint due.
    fn master_duties(&mut self) -> Result<(), RunError> {
        let Some(master) = &mut self.master else {
            return Ok(());
        };
        if !self.interrupted
            && self
                .config
                .interrupt
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            self.interrupted = true;
            if !master.terminated() {
                let mut out = Outbox::new();
                master.interrupt(&mut out);
                self.dispatch(out);
            }
        }
        if !self.interrupted
            && let Some(plan) = &self.config.checkpoint
            && self.last_checkpoint.elapsed() >= plan.every
        {
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
        let Some(bar) = &self.progress else { return };
        if self.last_tick.elapsed() < Duration::from_millis(200) {
            return;
        }
        self.last_tick = Instant::now();
        let elapsed = self.config.started.elapsed().as_secs_f64();
        if elapsed < 1.0 {
            return;
        }
        if let (Some(master), Some(pool)) = (&self.master, &self.pool) {
            // Rank 0's totals are live in its pool; the master's entry for
            // it dates from its last `AskForWork`.
            let t = master.progress() - master.rank_progress(0) + pool.progress();
            bar.set_position(t.initial_done);
            bar.set_message(format!(
                "{} solutions, {:.2} M nodes/s",
                t.solutions,
                t.nodes as f64 / elapsed / 1e6,
            ));
        }
    }

    /// Appends one solution to the output, a blank line between solutions.
    fn write_solution(&mut self, text: &str) -> Result<(), RunError> {
        if self.written > 0 {
            self.sink.write_all(b"\n")?;
            self.out_bytes += 1;
        }
        self.sink.write_all(text.as_bytes())?;
        self.sink.write_all(b"\n")?;
        self.out_bytes += text.len() as u64 + 1;
        self.written += 1;
        Ok(())
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
        if let (Some(book), Some(unit)) = (&mut self.book, unit) {
            // Held back until the unit completes (see `units`).
            return book.hold_texts(&unit, texts).map_err(|e| RunError::Unit {
                rank: from,
                unit: e.0,
            });
        }
        if self.config.mode == Mode::All {
            for text in texts.into_iter().take(keep) {
                self.write_solution(&text)?;
            }
        } else if self.config.mode.stop_after().is_some() {
            self.found.extend(texts.into_iter().take(keep));
        }
        Ok(())
    }

    fn on_event(&mut self, event: PoolEvent) -> Result<(), RunError> {
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
            PoolEvent::Donated(prefixes) => {
                self.owes_donation = false;
                self.report.prefixes_donated += prefixes.len() as u64;
                self.send(0, Message::Donation { prefixes });
            }
        }
        Ok(())
    }

    fn handle(&mut self, from: usize, msg: Message) -> Result<(), RunError> {
        let mut out = Outbox::new();
        match msg {
            // Master side.
            Message::AskForWork(tally) => {
                self.master_mut("AskForWork")?.on_ask(from, tally, &mut out)
            }
            Message::Progress(tally) => self.master_mut("Progress")?.on_progress(from, tally),
            Message::Donation { prefixes } => {
                if let Some(book) = &mut self.book {
                    book.on_donation(&prefixes).map_err(|e| RunError::Unit {
                        rank: from,
                        unit: e.0,
                    })?;
                }
                self.master_mut("Donation")?
                    .on_donation(from, prefixes, &mut out)
            }
            Message::Solutions { unit, texts } => {
                self.accept_solutions(from, unit, texts, &mut out)?
            }
            Message::UnitDone(report) => self.on_unit_done(from, report)?,
            Message::Final(report) => self.master_mut("Final")?.on_final(*report),
            // Rank side.
            Message::Work {
                prefixes,
                initial_depth,
            } => self.on_work(prefixes, initial_depth)?,
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
        let Some(book) = &mut self.book else {
            return Err(RunError::Protocol {
                rank: self.rank,
                what: "unit report",
            });
        };
        let done = book.on_done(report).map_err(|e| RunError::Unit {
            rank: from,
            unit: e.0,
        })?;
        if let Some(done) = done {
            for text in &done.texts {
                self.write_solution(text)?;
            }
        }
        Ok(())
    }

    /// Writes a checkpoint: the output made durable first, so that the
    /// length recorded is on disk.
    fn write_checkpoint(&mut self) -> Result<(), RunError> {
        let (Some(plan), Some(book)) = (&self.config.checkpoint, &self.book) else {
            return Ok(());
        };
        let t = Instant::now();
        self.sink.persist()?;
        let c = Checkpoint {
            remaining: book.remaining(),
            units: book.units,
            nodes: book.nodes,
            solutions: book.solutions,
            written: self.written,
            out_bytes: self.out_bytes,
            elapsed_s: self.elapsed_before + self.config.started.elapsed().as_secs_f64(),
            ..plan.identity.clone()
        };
        c.store(&plan.path)?;
        self.checkpoints += 1;
        self.checkpoint_s += t.elapsed().as_secs_f64();
        self.last_checkpoint = Instant::now();
        Ok(())
    }

    fn master_mut(&mut self, what: &'static str) -> Result<&mut Master, RunError> {
        let rank = self.rank;
        self.master
            .as_mut()
            .ok_or(RunError::Protocol { rank, what })
    }

    fn on_work(&mut self, prefixes: Vec<Prefix>, initial_depth: u32) -> Result<(), RunError> {
        if self.terminated {
            return Ok(());
        }
        self.report.prefixes_received += prefixes.len() as u64;
        let mut tasks = Vec::with_capacity(prefixes.len());
        for prefix in prefixes {
            let Some(node) = replay(&*self.problem, &prefix) else {
                return Err(RunError::BadPrefix {
                    rank: self.rank,
                    prefix,
                });
            };
            tasks.push(Task { prefix, node });
        }
        self.busy = true;
        if let Some(pool) = &self.pool {
            pool.set_initial_depth(initial_depth as usize);
            pool.inject(tasks);
        }
        Ok(())
    }

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
        self.send(0, Message::Donation { prefixes: taken });
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
            self.report.workers = workers;
        }
        self.report.wall_s = self.config.started.elapsed().as_secs_f64();
        self.report.manager_cpu_s = thread_cpu_seconds() - self.cpu_start;
        let report = Box::new(self.report.clone());
        self.send(0, Message::Final(report));
    }
}

/// The master's progress bar on stderr: the share of the initial prefixes
/// walked, as a bar and an ETA, with solutions and nodes per second. Under
/// an MPI launcher stderr is a pipe to the launcher's terminal: the bar is
/// drawn there all the same (the CLI asks for it then only with --progress).
fn progress_bar(initial_prefixes: u64) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::term_like_with_hz(Box::new(console::Term::stderr()), 5)
    };
    let bar = ProgressBar::with_draw_target(Some(initial_prefixes.max(1)), target);
    bar.set_style(
        ProgressStyle::with_template(
            "[{elapsed_precise}] {wide_bar} {percent:>3}% of {len} prefixes, eta {eta} | {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// The processors this machine has online, whatever this process may use.
fn online_cpus() -> usize {
    std::fs::read_to_string("/proc/cpuinfo")
        .map(|s| s.lines().filter(|l| l.starts_with("processor")).count())
        .unwrap_or(0)
}

/// This machine's host name, as ranks report it.
fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".into())
}

/// CPU seconds used so far by the calling thread.
fn thread_cpu_seconds() -> f64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a `rusage` into the pointer we pass, which
    // points to a properly sized, writable value; RUSAGE_THREAD is valid on
    // Linux. On failure the zeroed value is kept and we report 0.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_THREAD, usage.as_mut_ptr());
        usage.assume_init()
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}
