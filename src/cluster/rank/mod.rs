//! One rank's side of the protocol, free of I/O: what the rank does with
//! its pool when the master writes, and what it tells the master when its
//! workers run dry, donate or find solutions. Every rank has one, rank 0
//! too (its messages to the master go to its own inbox).
//!
//! It keeps the pool, whether the rank holds work (`busy`: it has not
//! asked for work since it last got some), whether it said it is hungry
//! (some workers idle while it holds work) and the deals it received, the
//! thief it owes a donation,
//! the donations it received, with direct steals its own `StealRequest`
//! out, whether it has terminated, and the rank's report. Its inputs are
//! the master's messages, donations, steal requests and their refusals
//! from other ranks and the pool's events; its outputs are messages to the
//! master, donations to thieves and steal requests to ranks of its group,
//! pushed on a list the caller sends. The pool is
//! reached through [`Workers`], so that tests drive the state machine with
//! a pool of their own, and no thread, clock or transport is touched here
//! (times come in as arguments).

pub(in crate::cluster) mod link;
pub(in crate::cluster) mod manager;
pub(in crate::cluster) mod route;
pub(in crate::cluster) mod trips;

use crate::cluster::config::RunConfig;
use crate::cluster::layout::Layout;
use crate::cluster::outcome::RunError;
use crate::cluster::protocol::{DecodeError, Message, RankReport, Received};
use crate::engine::{
    Mode, Parcel, Parcels, PoolEvent, Problem, RankPool, Tally, Task, Unpacked, WorkerStats,
};
use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;
use std::ops::Range;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a working rank tells the master its running totals.
pub(crate) const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// A rank's workers, as its state machine uses them (the real one is the
/// work-stealing [`RankPool`]).
pub(crate) trait Workers<N> {
    /// Adds tasks for the workers.
    fn inject(&self, tasks: Vec<Task<N>>);
    /// The depth of the initial prefixes (the units of checkpoints).
    fn set_initial_depth(&self, depth: usize);
    /// What the workers can spare, for another rank (`policy::donation`):
    /// the queued tasks taken now (possibly none: a worker will donate half
    /// of its walk by a [`PoolEvent::Donated`]), and whether the pool is
    /// idle after it.
    fn request_donation(&self) -> (Vec<Task<N>>, bool);
    /// Takes back a donation request no worker answered.
    fn withdraw_donation_request(&self);
    /// Whether every task given to the workers is finished.
    fn idle(&self) -> bool;
    /// Optimisation: objectives below `floor` no longer improve on the
    /// best known.
    fn raise_floor(&self, floor: u64);
    /// The running totals.
    fn progress(&self) -> Tally;
    /// Stops the workers; their statistics.
    fn stop(self) -> Vec<WorkerStats>;
}

impl<N: Clone + Send + 'static> Workers<N> for RankPool<N> {
    fn inject(&self, tasks: Vec<Task<N>>) {
        RankPool::inject(self, tasks);
    }
    fn set_initial_depth(&self, depth: usize) {
        RankPool::set_initial_depth(self, depth);
    }
    fn request_donation(&self) -> (Vec<Task<N>>, bool) {
        RankPool::request_donation(self)
    }
    fn withdraw_donation_request(&self) {
        RankPool::withdraw_donation_request(self);
    }
    fn idle(&self) -> bool {
        RankPool::idle(self)
    }
    fn raise_floor(&self, floor: u64) {
        RankPool::raise_floor(self, floor);
    }
    fn progress(&self) -> Tally {
        RankPool::progress(self)
    }
    fn stop(self) -> Vec<WorkerStats> {
        RankPool::stop(self)
    }
}

/// Messages a rank sends, in order: (destination rank, message). They go
/// to the rank's master (rank 0, or its group's master in a run of
/// groups), but for a donation, which goes to its thief, and the `Donated`
/// of a donation to a rank of another group, which goes to that group's
/// master too.
pub(crate) type Sends = Vec<(usize, Message)>;

/// A donation this rank was asked for and has not made: to whom, and
/// whether the thief asked itself (`StealRequest`) or the master did.
#[derive(Debug, Clone, Copy)]
struct Owed {
    thief: usize,
    direct: bool,
    /// When the request came.
    since: Instant,
}

/// One rank's state machine.
pub(crate) struct RankState<P: Problem, W: Workers<P::Node>> {
    problem: Arc<P>,
    /// The run's mode, in which prefixes are replayed.
    mode: Mode,
    rank: usize,
    /// Who serves whom: this rank's master, and a thief's.
    layout: Layout,
    /// This rank's master: rank 0, or its group's master.
    master: usize,
    /// `None` once terminated.
    workers: Option<W>,
    /// Holds tasks: has not sent `AskForWork` since it last got work.
    busy: bool,
    /// Sent `Hungry` and has received no work since (nor asked).
    hungry: bool,
    /// `Work` and `Donation` messages received. Of those, the direct
    /// donations (`report.stolen`) its master never hears of: its
    /// `AskForWork` counts the rest, the deals the master made it.
    dealt: u64,
    /// `Donation`s received, by where their victims were: what its
    /// messages to the master come after (`master/causal.rs`).
    received: Received,
    /// The thief this rank was asked to donate to and has not yet: its
    /// pool's next `Donated` answers, or (the master's request) its
    /// `AskForWork`, or (a thief's own) a `NoWork`.
    owes_donation: Option<Owed>,
    /// Direct steals: ranks of its group a dry or hungry rank asks itself
    /// before it asks its master (0: none).
    direct_steals: u32,
    /// The ranks of its group (itself among them).
    group: Range<usize>,
    /// Picks the rank a steal asks.
    rng: XorShiftRng,
    /// A `StealRequest` of this rank's is out, and after a `NoWork` it
    /// asks this many more ranks. It asks its master only once the answer
    /// came, so no steal of its is in flight when its master hears it.
    stealing: Option<u32>,
    /// Its pool ran dry and it has not asked: a steal is out.
    dry: bool,
    /// `dealt` when its hungry pool began to steal: work that came since
    /// ends the steal.
    hungry_since: u64,
    /// The depth of the initial prefixes, from the last work received.
    initial_depth: u32,
    /// With checkpoints: a `Donated` names the unit of each parcel.
    track_units: bool,
    terminated: bool,
    report: RankReport,
    /// When this rank last told the master its totals.
    last_progress: Instant,
    /// When its request for work (an ask after its first, a `Hungry`, a
    /// `StealRequest`) went out, until work comes: the steal's round trip.
    asked_at: Option<Instant>,
    /// When the request that work just answered went out: its round trip
    /// ends once the work's tasks are in the pool
    /// ([`RankState::work_in_pool`]), and a request made meanwhile (the
    /// work handed on at once) starts a trip of its own.
    answered_at: Option<Instant>,
}

impl<P: Problem, W: Workers<P::Node>> RankState<P, W> {
    /// A rank whose workers hold nothing yet; `report` carries its host.
    /// Call [`RankState::start`] next.
    pub(crate) fn new(
        problem: Arc<P>,
        mode: Mode,
        rank: usize,
        layout: Layout,
        workers: W,
        report: RankReport,
        track_units: bool,
    ) -> Self {
        RankState {
            problem,
            mode,
            rank,
            layout,
            master: layout.master_of(rank),
            workers: Some(workers),
            busy: true,
            hungry: false,
            dealt: 0,
            received: Received::default(),
            owes_donation: None,
            direct_steals: 0,
            group: layout.members(layout.group_of(rank)),
            rng: XorShiftRng::seed_from_u64(0x5eed ^ rank as u64),
            stealing: None,
            dry: false,
            hungry_since: 0,
            initial_depth: 0,
            track_units,
            terminated: false,
            report,
            last_progress: Instant::now(),
            asked_at: None,
            answered_at: None,
        }
    }

    /// Rank `rank` of a run of `config`: its mode, whether it tracks
    /// units (checkpoints) and its direct steals
    /// ([`RunConfig::steal_tries`]) as the run says, for a real rank and
    /// a simulated one alike.
    pub(crate) fn for_run(
        problem: Arc<P>,
        config: &RunConfig,
        rank: usize,
        layout: Layout,
        workers: W,
        report: RankReport,
    ) -> Self {
        let track_units = config.checkpoint.is_some();
        RankState::new(
            problem,
            config.mode,
            rank,
            layout,
            workers,
            report,
            track_units,
        )
        .with_direct_steals(config.steal_tries(layout.grouped()))
    }

    /// With direct steals: ranks of its group this rank asks for work
    /// itself, one at a time, before it asks its master.
    pub(crate) fn with_direct_steals(mut self, tries: u32) -> Self {
        self.direct_steals = tries;
        self
    }

    /// The rank starts with nothing: it asks the master for work.
    pub(crate) fn start(&mut self, now: Instant, out: &mut Sends) {
        self.go_idle(now, out);
    }

    /// Whether this rank has ended (after `Terminate`).
    pub(crate) fn terminated(&self) -> bool {
        self.terminated
    }

    /// Whether this rank holds work (it has not asked since it got some).
    #[cfg(test)]
    pub(crate) fn busy(&self) -> bool {
        self.busy
    }

    /// Whether this rank waits for an answer: for work (it asked its
    /// master, or its pool is idle while it steals, or it said it is
    /// hungry: idle workers leave it a core) or to a steal of its own
    /// (its manager then polls as a rank without work does).
    pub(crate) fn awaits_answer(&self) -> bool {
        !self.busy || self.dry || self.hungry || self.stealing.is_some()
    }

    /// Whether the master asked for a donation this rank has not yet made.
    #[cfg(test)]
    pub(crate) fn owes_donation(&self) -> bool {
        self.owes_donation.is_some()
    }

    /// The workers' running totals (zero once terminated).
    pub(crate) fn progress(&self) -> Tally {
        self.workers
            .as_ref()
            .map_or(Tally::default(), Workers::progress)
    }

    /// One more message went to another rank (the caller sends them).
    pub(crate) fn count_sent(&mut self) {
        self.report.messages_sent += 1;
    }

    /// The report so far (final after `Terminate`).
    #[cfg(test)]
    pub(crate) fn report(&self) -> &RankReport {
        &self.report
    }

    /// Takes back from the pool the donation request this rank owes (no
    /// worker took it up: one that did sent its `Donated` before the pool
    /// could go idle, and that was handled). A thief that asked itself is
    /// told there is nothing; the master's request stays owed, answered by
    /// the ask, or by what a steal brings.
    fn withdraw_owed(&mut self, out: &mut Sends) {
        let Some(owed) = self.owes_donation else {
            return;
        };
        if let Some(w) = &self.workers {
            w.withdraw_donation_request();
        }
        if owed.direct {
            self.owes_donation = None;
            out.push((owed.thief, Message::NoWork));
        }
    }

    /// Asks a rank of its group, picked at random, for work, with `left`
    /// more to ask after a refusal; false when it has none to ask.
    fn steal(&mut self, left: u32, now: Instant, out: &mut Sends) -> bool {
        let others = self.group.len().saturating_sub(1);
        if others == 0 {
            return false;
        }
        let mut victim = self.group.start + self.rng.random_range(0..others);
        if victim >= self.rank {
            victim += 1;
        }
        self.stealing = Some(left);
        self.report.steal_requests += 1;
        self.asking(now);
        out.push((victim, Message::StealRequest));
        true
    }

    /// The workers have finished everything they were given. With direct
    /// steals the rank first asks ranks of its group (unless its master
    /// knows it is hungry and finds it work already); then, or at once, it
    /// asks its master.
    fn run_dry(&mut self, now: Instant, out: &mut Sends) {
        self.withdraw_owed(out);
        self.dry = true;
        if self.stealing.is_some() {
            // A hungry rank's steal is out: its answer decides.
            return;
        }
        if self.direct_steals > 0 && !self.hungry && self.steal(self.direct_steals - 1, now, out) {
            return;
        }
        self.go_idle(now, out);
    }

    /// Asks the master for work (no steal of its own is out). The ask also
    /// answers a donation request still open (nothing to give).
    fn go_idle(&mut self, now: Instant, out: &mut Sends) {
        if !self.dry {
            // (A dry rank withdrew it when its pool ran dry.)
            self.withdraw_owed(out);
        }
        self.owes_donation = None;
        self.dry = false;
        self.busy = false;
        self.hungry = false;
        if self.report.asks > 0 {
            // (Its first ask waits for the master's expansion, not a steal.)
            self.asking(now);
        }
        self.report.asks += 1;
        self.last_progress = now;
        let ask = Message::AskForWork {
            tally: self.progress(),
            after: self.received,
            dealt: self.dealt - self.report.stolen,
        };
        out.push((self.master, ask));
    }

    /// Sends `tasks` to `thief` (`direct`: at its own request) and, if
    /// the master asked for them, tells the master.
    fn donate(&mut self, thief: usize, tasks: &[Task<P::Node>], direct: bool, out: &mut Sends) {
        let parcels = Parcels::of(&*self.problem, tasks);
        let count = parcels.len() as u32;
        self.report.prefixes_donated += u64::from(count);
        out.push((
            thief,
            Message::Donation {
                parcels,
                initial_depth: self.initial_depth,
                direct,
            },
        ));
        // The master hears only of what it asked for (`README.md`,
        // "Direct steals").
        if direct {
            return;
        }
        let units = if self.track_units {
            let depth = self.initial_depth as usize;
            tasks.iter().map(|t| t.prefix.truncated(depth)).collect()
        } else {
            Vec::new()
        };
        let donated = Message::Donated {
            thief: thief as u32,
            parcels: count,
            units,
            after: self.received,
        };
        // A thief of another group (the root asked for it): its group's
        // master counts it as dealt, as this one counts the victim free.
        let theirs = self.layout.master_of(thief);
        if theirs != self.master {
            out.push((theirs, donated.clone()));
        }
        out.push((self.master, donated));
    }

    /// An event of the pool. Solutions go to the master as a message: on
    /// rank 0 the caller hands them to the master directly instead.
    pub(crate) fn on_event(&mut self, event: PoolEvent<P::Node>, now: Instant, out: &mut Sends) {
        if self.terminated {
            return;
        }
        match event {
            PoolEvent::Solutions { unit, texts } => {
                out.push((self.master, Message::Solutions { unit, texts }));
            }
            PoolEvent::UnitDone(report) => {
                let after = self.received;
                out.push((self.master, Message::UnitDone { report, after }));
            }
            // The pool's count of tasks reached zero when it sent this;
            // work that came since (an answer to `Hungry`) makes it stale,
            // and the pool tells again when that work is done.
            PoolEvent::Idle => {
                if self.busy && !self.dry && self.workers.as_ref().is_some_and(Workers::idle) {
                    self.run_dry(now, out);
                }
            }
            PoolEvent::Hungry => {
                if !self.busy || self.dry || self.hungry || self.stealing.is_some() {
                    return;
                }
                if self.direct_steals > 0 && self.steal(self.direct_steals - 1, now, out) {
                    self.hungry_since = self.dealt;
                    return;
                }
                self.say_hungry(now, out);
            }
            PoolEvent::Donated(tasks) => {
                // A worker answers the request this rank owes (the pool
                // raises its flag for one request at a time).
                if let Some(owed) = self.owes_donation.take() {
                    self.report
                        .split_waits
                        .record(now.saturating_duration_since(owed.since));
                    self.donate(owed.thief, &tasks, owed.direct, out);
                } else if let Some(w) = &self.workers {
                    // Cannot happen: a split nobody asked for stays here.
                    w.inject(tasks);
                }
            }
            PoolEvent::Improved { value, text } => {
                self.report.improvements_sent += 1;
                out.push((self.master, Message::Improved { value, text }));
            }
        }
    }

    /// Tells the master the rank would take more work while it holds some.
    fn say_hungry(&mut self, now: Instant, out: &mut Sends) {
        self.asking(now);
        self.hungry = true;
        self.report.hungers += 1;
        let after = self.received;
        out.push((self.master, Message::Hungry { after }));
    }

    /// `NoWork`: the rank this one asked has nothing to give. A dry rank
    /// asks the next, or its master after the last; a hungry one likewise
    /// says so to its master, unless work came since it began.
    pub(crate) fn on_no_work(&mut self, now: Instant, out: &mut Sends) {
        let Some(left) = self.stealing.take() else {
            return;
        };
        if self.terminated || !self.busy {
            return;
        }
        if left > 0
            && (self.dry || self.dealt == self.hungry_since)
            && self.steal(left - 1, now, out)
        {
            return;
        }
        if self.dry {
            self.go_idle(now, out);
        } else if self.dealt == self.hungry_since && !self.hungry {
            self.say_hungry(now, out);
        }
    }

    /// `StealRequest` from `thief`, a rank of this group: what this rank
    /// can spare, as for the master's request, or `NoWork` when it
    /// holds nothing or owes a donation already (its pool gives one at a
    /// time).
    pub(crate) fn on_steal_request(&mut self, thief: usize, now: Instant, out: &mut Sends) {
        if self.terminated {
            return;
        }
        if !self.busy || self.dry || self.owes_donation.is_some() || self.workers.is_none() {
            out.push((thief, Message::NoWork));
            return;
        }
        self.give(thief, true, now, out);
    }

    /// Gives `thief` what the pool has queued (all of a short queue, half
    /// of a long one but at least the bound: `policy::donation_share`), or
    /// owes it half of a walk until a worker splits one.
    fn give(&mut self, thief: usize, direct: bool, now: Instant, out: &mut Sends) {
        let Some(w) = &self.workers else { return };
        let (taken, now_idle) = w.request_donation();
        if taken.is_empty() {
            self.owes_donation = Some(Owed {
                thief,
                direct,
                since: now,
            });
            return;
        }
        self.donate(thief, &taken, direct, out);
        if now_idle {
            self.run_dry(now, out);
        }
    }

    /// `Incumbent`: the best objective known anywhere.
    pub(crate) fn on_incumbent(&mut self, value: u64) {
        self.report.incumbents_received += 1;
        if let Some(w) = &self.workers {
            w.raise_floor(value.saturating_add(1));
        }
    }

    /// `Donation`: subtrees from a victim asked for this rank (`direct`:
    /// asked by this rank's `StealRequest`, which it answers), as `Work`.
    /// A dry rank that owes its master a donation gives from them at once.
    pub(crate) fn on_donation(
        &mut self,
        from: usize,
        parcels: Parcels,
        initial_depth: u32,
        direct: bool,
        now: Instant,
        out: &mut Sends,
    ) -> Result<(), RunError> {
        if self.terminated {
            return Ok(());
        }
        self.report.donations_received += 1;
        self.answered();
        if direct {
            // Its master never hears of it: nothing of the rank's waits
            // for it (`master/causal.rs`), and its asks do not count it.
            self.stealing = None;
            self.report.stolen += 1;
            self.report.prefixes_stolen += parcels.len() as u64;
        } else {
            self.received.add(!self.group.contains(&from));
        }
        let was_dry = self.dry;
        let tasks = parcels
            .tasks(&*self.problem, self.mode)
            .map_err(|e| match e {
                Unpacked::Malformed(source) => {
                    RunError::Decode(DecodeError::new(parcels.bytes(), source))
                }
                Unpacked::NoSubtree(prefix) => RunError::BadPrefix {
                    rank: self.rank,
                    prefix,
                },
            })?;
        self.take_tasks(tasks, initial_depth);
        if let Some(owed) = self.owes_donation.filter(|_| was_dry) {
            self.owes_donation = None;
            self.give(owed.thief, owed.direct, now, out);
        }
        Ok(())
    }

    /// A request for work went out at `now` (the first of several, until
    /// work comes, counts).
    fn asking(&mut self, now: Instant) {
        self.asked_at.get_or_insert(now);
    }

    /// Work came: the round trip of the request out, if any, ends once
    /// its tasks are in the pool.
    fn answered(&mut self) {
        self.answered_at = self.asked_at.take();
    }

    /// The work the message just handled brought is in the workers' pool
    /// at `now` (its parcels made tasks, a while for a large donation):
    /// the round trip of the request out, if any, ends. Called after
    /// [`RankState::on_message`] by the real rank's link and the
    /// simulator alike.
    pub(crate) fn work_in_pool(&mut self, now: Instant) {
        if let Some(at) = self.answered_at.take() {
            self.report
                .steal_round_trips
                .record(now.saturating_duration_since(at));
        }
    }

    /// A message for the rank's side of the protocol (`route.rs` says
    /// which), but `Terminate`, whose caller knows the rank's times
    /// ([`RankState::on_terminate`]).
    pub(crate) fn on_message(
        &mut self,
        from: usize,
        msg: Message,
        now: Instant,
        out: &mut Sends,
    ) -> Result<(), RunError> {
        match msg {
            Message::Work {
                parcels,
                initial_depth,
            } => {
                if !self.terminated {
                    self.answered();
                }
                self.on_work(parcels, initial_depth)
            }
            Message::Donation {
                parcels,
                initial_depth,
                direct,
            } => self.on_donation(from, parcels, initial_depth, direct, now, out),
            Message::DonateRequest { thief, asks } => {
                self.on_donate_request(thief as usize, asks, now, out);
                Ok(())
            }
            Message::StealRequest => {
                self.on_steal_request(from, now, out);
                Ok(())
            }
            Message::NoWork => {
                self.on_no_work(now, out);
                Ok(())
            }
            Message::Incumbent(value) => {
                self.on_incumbent(value);
                Ok(())
            }
            msg => Err(RunError::Protocol {
                rank: from,
                what: msg.kind(),
            }),
        }
    }

    /// `Work`: subtrees for the workers.
    pub(crate) fn on_work(
        &mut self,
        parcels: Vec<Parcel>,
        initial_depth: u32,
    ) -> Result<(), RunError> {
        if self.terminated {
            return Ok(());
        }
        let mut tasks = Vec::with_capacity(parcels.len());
        for parcel in parcels {
            let Some(task) = parcel.task(&*self.problem, self.mode) else {
                return Err(RunError::BadPrefix {
                    rank: self.rank,
                    prefix: parcel.prefix,
                });
            };
            tasks.push(task);
        }
        self.take_tasks(tasks, initial_depth);
        Ok(())
    }

    /// Work taken in (`Work` or a `Donation`): the workers' tasks.
    fn take_tasks(&mut self, tasks: Vec<Task<P::Node>>, initial_depth: u32) {
        self.report.prefixes_received += tasks.len() as u64;
        self.busy = true;
        self.dry = false;
        self.hungry = false;
        self.dealt += 1;
        self.initial_depth = initial_depth;
        if let Some(w) = &self.workers {
            w.set_initial_depth(initial_depth as usize);
            w.inject(tasks);
        }
    }

    /// `DonateRequest`: gives what this rank can spare to `thief`, a
    /// waiting or hungry rank: its queued tasks at once (as
    /// `policy::donation_share` bounds them), or else half of a running
    /// walk's unexplored subtrees. Only one of the two: a second donation
    /// would find no rank waiting for it; measured on UTS T3L with 64
    /// ranks, queued tasks then a split gave 247 master messages a rank
    /// against 75, in 6.65 s against 6.18 s. `asks`: the `AskForWork`s of
    /// this rank the master had handled when it asked; a request made
    /// before the master heard this rank's latest ask is void (the ask
    /// answered it), even if the rank holds work again by now.
    pub(crate) fn on_donate_request(
        &mut self,
        thief: usize,
        asks: u64,
        now: Instant,
        out: &mut Sends,
    ) {
        if self.terminated || !self.busy || asks < self.report.asks {
            return;
        }
        if self.dry {
            // Its pool is idle and a steal of its own is out: the ask
            // after it, or what it brings, answers.
            self.owes_donation = Some(Owed {
                thief,
                direct: false,
                since: now,
            });
            return;
        }
        if let Some(owed) = self.owes_donation.filter(|o| o.direct) {
            // The pool's one request is up for a thief that asked itself:
            // the master's thief takes it, the other is refused.
            out.push((owed.thief, Message::NoWork));
            self.owes_donation = Some(Owed {
                thief,
                direct: false,
                since: now,
            });
            return;
        }
        self.give(thief, false, now, out);
    }

    /// `Terminate`: stops the workers and sends the rank's final report,
    /// with its wall time since `started` and its manager's CPU seconds.
    pub(crate) fn on_terminate(&mut self, wall_s: f64, manager_cpu_s: f64, out: &mut Sends) {
        if self.terminated {
            return;
        }
        self.terminated = true;
        if let Some(w) = self.workers.take() {
            let workers = w.stop();
            self.report.nodes = workers.iter().map(|w| w.nodes).sum();
            self.report.solutions = workers.iter().map(|w| w.solutions).sum();
            self.report.depth = workers.iter().try_fold(0, |d, w| Some(d.max(w.depth?)));
            self.report.workers = workers;
        }
        self.report.wall_s = wall_s;
        self.report.manager_cpu_s = manager_cpu_s;
        out.push((self.master, Message::Final(Box::new(self.report.clone()))));
    }

    /// When this rank next tells the master its running totals: a working
    /// rank other than the master's, every [`PROGRESS_EVERY`].
    pub(crate) fn progress_due(&self) -> Option<Instant> {
        (self.rank != 0 && self.busy && !self.terminated)
            .then(|| self.last_progress + PROGRESS_EVERY)
    }

    /// Between messages: sends the running totals when they are due.
    pub(crate) fn tick(&mut self, now: Instant, out: &mut Sends) {
        if self.progress_due().is_some_and(|due| now >= due) {
            self.last_progress = now;
            out.push((self.master, Message::Progress(self.progress())));
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::engine::Prefix;
    use crate::engine::fixtures::Queens;
    use std::cell::RefCell;

    type Node = <Queens as Problem>::Node;

    /// A pool that records what it is asked and gives what the test says.
    #[derive(Default)]
    struct Fake {
        injected: RefCell<Vec<Task<Node>>>,
        depth: RefCell<Option<usize>>,
        /// What `request_donation` answers, once.
        donation: RefCell<Option<(Vec<Task<Node>>, bool)>>,
        withdrawn: RefCell<u32>,
        /// Its workers still hold tasks (`idle` says no).
        holding: RefCell<bool>,
    }

    impl Workers<Node> for &Fake {
        fn inject(&self, tasks: Vec<Task<Node>>) {
            self.injected.borrow_mut().extend(tasks);
        }
        fn set_initial_depth(&self, depth: usize) {
            *self.depth.borrow_mut() = Some(depth);
        }
        fn request_donation(&self) -> (Vec<Task<Node>>, bool) {
            self.donation.borrow_mut().take().unwrap_or_default()
        }
        fn withdraw_donation_request(&self) {
            *self.withdrawn.borrow_mut() += 1;
        }
        fn idle(&self) -> bool {
            !*self.holding.borrow()
        }
        fn raise_floor(&self, _: u64) {}
        fn progress(&self) -> Tally {
            Tally {
                nodes: self.injected.borrow().len() as u64,
                ..Tally::default()
            }
        }
        fn stop(self) -> Vec<WorkerStats> {
            vec![WorkerStats {
                nodes: 7,
                solutions: 2,
                ..WorkerStats::default()
            }]
        }
    }

    fn rank(fake: &Fake, r: usize) -> RankState<Queens, &Fake> {
        let q = Arc::new(Queens::new(6));
        RankState::new(
            q,
            Mode::Count,
            r,
            Layout::flat(8),
            fake,
            RankReport::default(),
            true,
        )
    }

    /// The subtree under the root's move `i` of 6-Queens, as a worker's
    /// task.
    fn task(i: u32) -> Task<Node> {
        let q = Queens::new(6);
        Parcel::named(Prefix(vec![i]))
            .task(&q, Mode::Count)
            .unwrap()
    }

    /// `n` prefixes of one move, as `Work` of initial depth 1 carries them.
    fn parcels(n: usize) -> Vec<Parcel> {
        (0..n)
            .map(|i| Parcel::named(Prefix(vec![i as u32])))
            .collect()
    }

    /// A donation of `n` such parcels, packed as it travels.
    fn donation(n: usize) -> Parcels {
        Parcels::from_parcels(&parcels(n))
    }

    fn is_ask(m: &(usize, Message)) -> bool {
        matches!(m, (0, Message::AskForWork { .. }))
    }

    #[test]
    fn a_rank_asks_works_and_asks_again_when_its_pool_runs_dry() {
        let fake = Fake::default();
        let mut r = rank(&fake, 1);
        let (now, mut out) = (Instant::now(), Vec::new());
        r.start(now, &mut out);
        assert!(out.len() == 1 && is_ask(&out[0]) && !r.busy());
        r.on_work(parcels(3), 1).unwrap();
        assert!(r.busy());
        assert_eq!(fake.injected.borrow().len(), 3);
        assert_eq!(*fake.depth.borrow(), Some(1));
        r.on_event(PoolEvent::Idle, now, &mut out);
        assert!(out.len() == 2 && is_ask(&out[1]) && !r.busy());
        assert_eq!((r.report().asks, r.report().prefixes_received), (2, 3));
    }

    /// An `Idle` the pool sent before work came in (the answer to a
    /// `Hungry`) is stale: the rank asks only when the pool is idle when it
    /// reads it, once, and its ask says how many deals it had received.
    #[test]
    fn a_stale_idle_is_ignored_and_the_ask_counts_the_deals() {
        let fake = Fake::default();
        let mut r = rank(&fake, 1);
        let (now, mut out) = (Instant::now(), Vec::new());
        r.start(now, &mut out);
        r.on_work(parcels(2), 1).unwrap();
        r.on_donation(0, donation(1), 1, false, now, &mut out)
            .unwrap();
        *fake.holding.borrow_mut() = true;
        r.on_event(PoolEvent::Idle, now, &mut out);
        assert!(out.len() == 1 && r.busy());
        *fake.holding.borrow_mut() = false;
        r.on_event(PoolEvent::Idle, now, &mut out);
        r.on_event(PoolEvent::Idle, now, &mut out);
        assert_eq!(out.len(), 2);
        assert!(matches!(
            &out[1],
            (
                0,
                Message::AskForWork {
                    after: Received {
                        in_group: 1,
                        outside: 0
                    },
                    dealt: 2,
                    ..
                }
            )
        ));
    }

    /// A rank says it is hungry once until work comes or it asks, and never
    /// while it holds nothing.
    #[test]
    fn a_rank_is_hungry_once_until_work_comes() {
        let fake = Fake::default();
        let mut r = rank(&fake, 1);
        let (now, mut out) = (Instant::now(), Vec::new());
        r.start(now, &mut out);
        r.on_event(PoolEvent::Hungry, now, &mut out);
        assert_eq!(out.len(), 1, "idle: its ask is out");
        r.on_work(parcels(2), 1).unwrap();
        assert!(!r.awaits_answer(), "busy and sated: slow polls");
        r.on_event(PoolEvent::Hungry, now, &mut out);
        r.on_event(PoolEvent::Hungry, now, &mut out);
        assert_eq!(out.len(), 2);
        assert!(matches!(
            &out[1],
            (
                0,
                Message::Hungry {
                    after: Received {
                        in_group: 0,
                        outside: 0
                    }
                }
            )
        ));
        // Hungry: idle workers leave a core, its manager polls fast.
        assert!(r.awaits_answer());
        r.on_donation(0, donation(1), 1, false, now, &mut out)
            .unwrap();
        assert!(!r.awaits_answer());
        r.on_event(PoolEvent::Hungry, now, &mut out);
        assert!(matches!(
            &out[2],
            (
                0,
                Message::Hungry {
                    after: Received {
                        in_group: 1,
                        outside: 0
                    }
                }
            )
        ));
        r.on_event(PoolEvent::Idle, now, &mut out);
        assert!(is_ask(&out[3]));
        r.on_event(PoolEvent::Hungry, now, &mut out);
        assert_eq!(out.len(), 4);
        assert_eq!(r.report().hungers, 2);
    }

    #[test]
    fn a_prefix_of_no_subtree_is_refused_naming_the_rank() {
        let fake = Fake::default();
        let mut r = rank(&fake, 2);
        let bad = vec![Parcel::named(Prefix(vec![99]))];
        match r.on_work(bad, 1) {
            Err(RunError::BadPrefix { rank: 2, .. }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_donation_that_names_no_subtree_or_is_no_parcels_is_refused() {
        let fake = Fake::default();
        let now = Instant::now();
        let mut out = Vec::new();
        let mut r = rank(&fake, 2);
        let stray = Parcels::from_parcels(&[Parcel::named(Prefix(vec![99]))]);
        match r.on_donation(1, stray, 1, true, now, &mut out) {
            Err(RunError::BadPrefix { rank: 2, prefix }) => assert_eq!(prefix, Prefix(vec![99])),
            other => panic!("{other:?}"),
        }
        // Three parcels claimed in a buffer of one byte (a struct is its
        // fields in order, in postcard's encoding).
        let wire = postcard::to_stdvec(&(3u32, serde_bytes::Bytes::new(&[1]))).expect("encodes");
        let short: Parcels = postcard::from_bytes(&wire).expect("a count and a buffer");
        match r.on_donation(1, short, 1, true, now, &mut out) {
            Err(RunError::Decode(e)) => assert!(e.to_string().contains("1 bytes"), "{e}"),
            other => panic!("{other:?}"),
        }
        assert!(out.is_empty(), "{out:?}");
    }

    /// Whether `m` is a donation of `n` parcels to `thief`.
    fn is_donation(m: &(usize, Message), thief: usize, n: usize) -> bool {
        matches!(m, (to, Message::Donation { parcels, .. }) if *to == thief && parcels.len() == n)
    }

    /// Whether `m` tells the master of a donation of `n` parcels to `thief`
    /// (units named: checkpoints are on), sent after `after` donations.
    fn is_donated(m: &(usize, Message), thief: usize, n: usize, after: u64) -> bool {
        matches!(m, (0, Message::Donated { thief: t, parcels, units, after: a })
            if *t as usize == thief && *parcels as usize == n && units.len() == n && a.in_group == after)
    }

    #[test]
    fn a_donation_request_is_answered_at_once_later_or_by_the_ask() {
        let fake = Fake::default();
        let mut r = rank(&fake, 1);
        let (now, mut out) = (Instant::now(), Vec::new());
        r.start(now, &mut out);
        // Idle: the ask already on its way answers; nothing is sent.
        r.on_donate_request(2, 1, now, &mut out);
        assert_eq!(out.len(), 1);
        r.on_work(parcels(4), 1).unwrap();
        // Queued tasks taken at once, the pool then idle: the donation to
        // the thief, its announcement to the master, then the ask.
        *fake.donation.borrow_mut() = Some((vec![task(0), task(1)], true));
        r.on_donate_request(2, 1, now, &mut out);
        assert!(is_donation(&out[1], 2, 2) && is_donated(&out[2], 2, 2, 0));
        assert!(is_ask(&out[3]));
        // Busy again, nothing to take now: owed, then made by a worker.
        r.on_work(parcels(1), 1).unwrap();
        r.on_donate_request(3, 2, now, &mut out);
        assert!(r.owes_donation() && out.len() == 4);
        r.on_event(PoolEvent::Donated(vec![task(2)]), now, &mut out);
        assert!(!r.owes_donation());
        assert!(is_donation(&out[4], 3, 1) && is_donated(&out[5], 3, 1, 0));
        // Owed and never made: the ask withdraws the request.
        r.on_donate_request(2, 2, now, &mut out);
        assert!(r.owes_donation());
        r.on_event(PoolEvent::Idle, now, &mut out);
        assert!(!r.owes_donation() && *fake.withdrawn.borrow() == 1);
        assert!(is_ask(&out[6]));
        assert_eq!(r.report().prefixes_donated, 3);
    }

    #[test]
    fn a_request_the_rank_s_ask_answered_is_void_even_once_it_works_again() {
        let fake = Fake::default();
        let mut r = rank(&fake, 1);
        let (now, mut out) = (Instant::now(), Vec::new());
        r.start(now, &mut out);
        // A donation from another rank arrives first: the rank works, and
        // its later messages say it received one.
        r.on_donation(0, donation(2), 1, false, now, &mut out)
            .unwrap();
        assert!(r.busy() && r.report().donations_received == 1);
        // A request the master made before it had heard the rank's ask
        // (it had handled none of its asks) is void.
        r.on_donate_request(3, 0, now, &mut out);
        assert_eq!(out.len(), 1);
        assert!(!r.owes_donation());
        // One made after it is answered, and counts the donation received.
        *fake.donation.borrow_mut() = Some((vec![task(0)], false));
        r.on_donate_request(3, 1, now, &mut out);
        assert!(is_donation(&out[1], 3, 1) && is_donated(&out[2], 3, 1, 1));
        r.on_event(PoolEvent::Idle, now, &mut out);
        assert!(matches!(
            &out[3],
            (
                0,
                Message::AskForWork {
                    after: Received {
                        in_group: 1,
                        outside: 0
                    },
                    ..
                }
            )
        ));
    }

    /// A rank of `fake` that steals from `tries` ranks before it asks,
    /// started (its ask is out), the time, and what it sent.
    fn stealer(fake: &Fake, r: usize, tries: u32) -> (RankState<Queens, &Fake>, Instant, Sends) {
        let mut rank = rank(fake, r).with_direct_steals(tries);
        let (now, mut out) = (Instant::now(), Vec::new());
        rank.start(now, &mut out);
        (rank, now, out)
    }

    /// The rank a steal request in `m` goes to, if it is one.
    fn steal_to(m: &(usize, Message)) -> Option<usize> {
        matches!(m.1, Message::StealRequest).then_some(m.0)
    }

    #[test]
    fn a_dry_rank_asks_ranks_of_its_group_one_at_a_time_then_its_master() {
        let fake = Fake::default();
        let (mut r, now, mut out) = stealer(&fake, 3, 2);
        // Its first work comes from its master.
        assert!(is_ask(&out[0]));
        r.on_work(parcels(2), 1).unwrap();
        r.on_event(PoolEvent::Idle, now, &mut out);
        let first = steal_to(&out[1]).expect("a steal, not an ask");
        assert!(first != 3 && first < 8 && out.len() == 2);
        // It has not asked, but its manager polls as one that waits.
        assert!(r.busy() && r.awaits_answer());
        // Idle again while its steal is out: nothing more goes.
        r.on_event(PoolEvent::Idle, now, &mut out);
        assert_eq!(out.len(), 2);
        r.on_no_work(now, &mut out);
        let second = steal_to(&out[2]).expect("a second steal");
        assert!(second != 3 && second < 8);
        r.on_no_work(now, &mut out);
        assert!(is_ask(&out[3]) && !r.busy());
        // A stray refusal changes nothing.
        r.on_no_work(now, &mut out);
        assert_eq!((out.len(), r.report().steal_requests), (4, 2));
        // Rank 0 alone in its group has no one to steal from.
        let fake0 = Fake::default();
        let mut alone = RankState::new(
            Arc::new(Queens::new(6)),
            Mode::Count,
            0,
            Layout::groups_of(9, 4, 1),
            &fake0,
            RankReport::default(),
            false,
        )
        .with_direct_steals(2);
        let mut out0 = Vec::new();
        alone.start(now, &mut out0);
        alone.on_work(parcels(1), 1).unwrap();
        alone.on_event(PoolEvent::Idle, now, &mut out0);
        assert!(out0.len() == 2 && is_ask(&out0[1]));
    }

    #[test]
    fn a_stolen_donation_ends_the_steal_and_the_rank_works_on() {
        let fake = Fake::default();
        let (mut r, now, mut out) = stealer(&fake, 1, 1);
        r.on_work(parcels(1), 1).unwrap();
        r.on_event(PoolEvent::Idle, now, &mut out);
        assert!(steal_to(&out[1]).is_some());
        r.on_donation(0, donation(3), 1, true, now, &mut out)
            .unwrap();
        assert!(r.busy() && r.report().donations_received == 1);
        assert_eq!((r.report().stolen, r.report().prefixes_stolen), (1, 3));
        assert_eq!(fake.injected.borrow().len(), 4);
        // Dry again: a new steal, and after its one refusal, the ask,
        // which counts neither the stolen donation among its deals nor
        // among what its messages come after: its master never heard of
        // it.
        r.on_event(PoolEvent::Idle, now, &mut out);
        assert!(steal_to(&out[2]).is_some());
        r.on_no_work(now, &mut out);
        assert!(matches!(
            &out[3],
            (
                0,
                Message::AskForWork {
                    after: Received {
                        in_group: 0,
                        outside: 0
                    },
                    dealt: 1,
                    ..
                }
            )
        ));
    }

    /// Whether `out` is a direct donation of `n` parcels to `thief` and
    /// nothing else: the master is not told.
    fn stolen(out: &[(usize, Message)], thief: usize, n: usize) -> bool {
        out.len() == 1
            && matches!(&out[0], (to, Message::Donation { parcels, direct: true, .. })
            if *to == thief && parcels.len() == n)
    }

    #[test]
    fn a_rank_gives_a_thief_that_asks_itself_what_it_can_or_refuses() {
        let fake = Fake::default();
        let (mut r, now, mut out) = stealer(&fake, 1, 1);
        // Waiting for its master: nothing to give.
        r.on_steal_request(4, now, &mut out);
        assert!(matches!(&out[1], (4, Message::NoWork)));
        r.on_work(parcels(4), 1).unwrap();
        // Queued tasks go at once, and the master is not told.
        *fake.donation.borrow_mut() = Some((vec![task(0), task(1)], false));
        r.on_steal_request(4, now, &mut out);
        assert!(stolen(&out[2..], 4, 2));
        // None queued: owed until a worker splits; a second thief is
        // refused meanwhile (the pool gives one at a time).
        r.on_steal_request(5, now, &mut out);
        assert!(r.owes_donation() && out.len() == 3);
        r.on_steal_request(6, now, &mut out);
        assert!(matches!(&out[3], (6, Message::NoWork)));
        r.on_event(PoolEvent::Donated(vec![task(2)]), now, &mut out);
        assert!(stolen(&out[4..], 5, 1));
        // Owed and never made: the pool runs dry, the thief is refused,
        // and the rank steals itself.
        r.on_steal_request(7, now, &mut out);
        r.on_event(PoolEvent::Idle, now, &mut out);
        assert!(matches!(&out[5], (7, Message::NoWork)) && steal_to(&out[6]).is_some());
        assert!(!r.owes_donation() && *fake.withdrawn.borrow() == 1);
    }

    #[test]
    fn the_master_s_request_outranks_a_thief_s_own_and_outlives_a_steal() {
        let fake = Fake::default();
        let (mut r, now, mut out) = stealer(&fake, 1, 1);
        r.on_work(parcels(2), 1).unwrap();
        // Owed to a thief that asked itself; the master's request takes
        // the pool's one request, and that thief is refused.
        r.on_steal_request(4, now, &mut out);
        r.on_donate_request(6, 1, now, &mut out);
        assert!(matches!(&out[1], (4, Message::NoWork)) && r.owes_donation());
        r.on_event(PoolEvent::Donated(vec![task(0)]), now, &mut out);
        assert!(matches!(
            &out[2],
            (6, Message::Donation { direct: false, .. })
        ));
        assert!(is_donated(&out[3], 6, 1, 0));
        // Dry, stealing: the master's request waits for what the steal
        // brings, and gets half of it at once.
        r.on_event(PoolEvent::Idle, now, &mut out);
        assert!(steal_to(&out[4]).is_some());
        r.on_donate_request(2, 1, now, &mut out);
        assert!(r.owes_donation() && out.len() == 5);
        *fake.donation.borrow_mut() = Some((vec![task(1)], false));
        r.on_donation(0, donation(2), 1, true, now, &mut out)
            .unwrap();
        assert!(matches!(
            &out[5],
            (2, Message::Donation { direct: false, .. })
        ));
        // (It comes after no donation the master heard of.)
        assert!(is_donated(&out[6], 2, 1, 0) && !r.owes_donation());
        // Or, when the steal is refused, the ask answers it.
        r.on_event(PoolEvent::Idle, now, &mut out);
        r.on_donate_request(3, 1, now, &mut out);
        r.on_no_work(now, &mut out);
        assert!(is_ask(&out[8]) && !r.owes_donation());
    }

    #[test]
    fn a_hungry_rank_steals_first_and_tells_its_master_after() {
        let fake = Fake::default();
        let (mut r, now, mut out) = stealer(&fake, 1, 1);
        r.on_work(parcels(2), 1).unwrap();
        assert!(!r.awaits_answer());
        r.on_event(PoolEvent::Hungry, now, &mut out);
        assert!(steal_to(&out[1]).is_some() && r.awaits_answer());
        r.on_event(PoolEvent::Hungry, now, &mut out);
        assert_eq!(out.len(), 2);
        r.on_no_work(now, &mut out);
        assert!(matches!(
            &out[2],
            (
                0,
                Message::Hungry {
                    after: Received {
                        in_group: 0,
                        outside: 0
                    }
                }
            )
        ));
        // Its master knows: dry, it asks at once.
        r.on_event(PoolEvent::Idle, now, &mut out);
        assert!(is_ask(&out[3]));
        // Work that came during a hungry steal ends it quietly.
        r.on_work(parcels(1), 1).unwrap();
        r.on_event(PoolEvent::Hungry, now, &mut out);
        assert!(steal_to(&out[4]).is_some());
        r.on_work(parcels(1), 1).unwrap();
        r.on_no_work(now, &mut out);
        assert_eq!((out.len(), r.report().hungers), (5, 1));
    }

    #[test]
    fn terminate_sends_one_final_report_and_ignores_what_follows() {
        let fake = Fake::default();
        let mut r = rank(&fake, 1);
        let (now, mut out) = (Instant::now(), Vec::new());
        r.on_terminate(2.5, 0.1, &mut out);
        r.on_terminate(3.0, 0.2, &mut out);
        r.on_event(PoolEvent::Idle, now, &mut out);
        r.on_donate_request(2, 0, now, &mut out);
        assert_eq!(out.len(), 1);
        let (0, Message::Final(report)) = &out[0] else {
            panic!("{:?}", out[0])
        };
        assert_eq!((report.nodes, report.solutions, report.wall_s), (7, 2, 2.5));
        assert!(r.terminated());
    }

    #[test]
    fn only_a_busy_rank_other_than_the_master_reports_progress() {
        let fake = Fake::default();
        let t0 = Instant::now();
        let later = t0 + PROGRESS_EVERY;
        for (who, busy, sent) in [(1, true, 1), (1, false, 0), (0, true, 0)] {
            let mut r = rank(&fake, who);
            let mut out = Vec::new();
            r.start(t0, &mut out);
            if busy {
                r.on_work(Vec::new(), 1).unwrap();
            }
            out.clear();
            r.tick(t0, &mut out);
            r.tick(later, &mut out);
            r.tick(later, &mut out);
            assert_eq!(out.len(), sent, "rank {who}, busy {busy}");
        }
    }
}
