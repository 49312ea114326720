//! What rank 0 runs besides its own workers (its head): the [`Master`] (the
//! protocol's decisions), the delivery of solutions to the sink, the
//! checkpoints, the observer, and the interrupt flag; and, at the end, the
//! run's [`Outcome`].
//!
//! It takes the master-side messages (`AskForWork`, `Progress`,
//! `Donated`, `Solutions`, `UnitDone`, `Improved`, `Final`), in the order
//! of [`CausalOrder`], and the clock's ticks, and
//! answers with messages to ranks in an [`Outbox`]: it sends nothing itself
//! (the manager does). Its only I/O is the output it is given: solutions
//! written to the sink, checkpoints to their file.
//!
//! In a run of groups ([`Layout`]) its master is the *root*: its children
//! are the groups, each served through its master (`group.rs`), which
//! wraps what it sends the root in `Up` and takes the root's messages in
//! `Down`.

use crate::cluster::config::RunConfig;
use crate::cluster::layout::Layout;
use crate::cluster::master::causal::CausalOrder;
use crate::cluster::master::checkpointer::Checkpointer;
use crate::cluster::master::delivery::Delivery;
use crate::cluster::master::{Master, Outbox};
use crate::cluster::observer::{OBSERVE_EVERY, Progress};
use crate::cluster::outcome::{Improvement, Outcome, RunError};
use crate::cluster::protocol::{Message, RankReport};
use crate::engine::pool::policy;
use crate::engine::{
    Count, Mode, Parcel, Prefix, Problem, Spread, Tally, UnitReport, expand, ramp,
};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Rank 0's head: what it runs besides its workers.
pub(crate) struct Head<'a> {
    config: &'a RunConfig,
    /// Who the master's children are: ranks, or groups.
    layout: Layout,
    /// In a run of groups, the rank of each group that a donation for it
    /// goes to (as its last message to the root named).
    receivers: Vec<u32>,
    master: Master,
    /// Holds back a thief's messages until its donations are handled.
    order: CausalOrder,
    /// Every rank's final report, once sent.
    finals: Vec<Option<RankReport>>,
    /// What expanding the root counted.
    expansion: Count,
    /// How the expansion's work was shared among rank 0's threads.
    #[cfg_attr(not(feature = "sim"), allow(dead_code))]
    spread: Spread,
    /// Where solutions go.
    delivery: Delivery<'a>,
    checkpointer: Option<Checkpointer>,
    /// Optimisation: the incumbent, and its improvements in order.
    best: Option<(u64, String)>,
    history: Vec<Improvement>,
    interrupted: bool,
    /// When the observer was last told of the progress.
    last_observed: Instant,
}

impl<'a> Head<'a> {
    /// Rank 0 starts the run: the initial prefixes from the root (or the
    /// units a checkpoint left), the master over the ranks or groups of
    /// `layout`, the checkpoints; the solutions found while expanding the
    /// root are delivered, and the first messages are in `out`.
    pub(crate) fn start<P: Problem>(
        problem: &P,
        config: &'a RunConfig,
        layout: Layout,
        delivery: Delivery<'a>,
        out: &mut Outbox,
    ) -> Result<Head<'a>, RunError> {
        let size = layout.ranks();
        let children = layout.root_children();
        let resume = config.checkpoint.as_ref().and_then(|c| c.resume.as_ref());
        let mut expansion = Count::default();
        let mut spread = Spread::default();
        let mut expanded_best = None;
        // Optimisation: the heuristic first, so that the expansion lists
        // the root and its first levels under its incumbent, as the
        // workers will (with a floor of 0 every child of the root was a
        // node: keller4 171 at depth 1, 109 of them with no move left).
        let ramped = if config.mode == Mode::Optimise {
            ramp(problem, config.ramp_up, config.threads)
        } else {
            None
        };
        if let Some(found) = &ramped {
            tracing::debug!("ramp-up: {} (seed {})", found.value, found.seed);
        }
        let (initial, found): (Vec<Parcel>, Vec<String>) = match resume {
            // The units left, as the checkpoint has them: the same units
            // whatever the number of ranks and threads now.
            Some(c) => (
                c.remaining.iter().cloned().map(Parcel::named).collect(),
                Vec::new(),
            ),
            None => {
                let target = config.initial_prefixes(size);
                let workers = size * config.threads.max(1);
                let known = ramped.as_ref().map(|f| (f.value, f.text.clone()));
                let e = expand(problem, config.mode, target, config.threads, workers, known);
                expansion = e.counted;
                spread = e.spread;
                expanded_best = e.best;
                let parcels = e.frontier.iter().map(|t| Parcel::of(problem, t));
                (parcels.collect(), e.found)
            }
        };
        let checkpointer = config.checkpoint.as_ref().map(|plan| {
            let units: Vec<Prefix> = initial.iter().map(|p| p.prefix.clone()).collect();
            Checkpointer::new(plan.clone(), &units, expansion, config.started)
        });
        let mut head = Head {
            config,
            layout,
            receivers: (0..children)
                .map(|c| layout.rank_of_child(c) as u32)
                .collect(),
            master: {
                let master = Master::new(children, initial, config.stop_after())
                    .keeping_order(policy::keeps_order(config.mode));
                if layout.grouped() {
                    let ranks = (0..children).map(|g| layout.members(g).len());
                    master.weighted(ranks.collect())
                } else {
                    master
                }
            },
            order: CausalOrder::new(children),
            finals: vec![None; size],
            expansion,
            spread,
            delivery,
            checkpointer,
            best: None,
            history: Vec::new(),
            interrupted: false,
            last_observed: Instant::now(),
        };
        let mut first = Outbox::new();
        if config.mode == Mode::Optimise {
            // A resumed run starts from the checkpoint's incumbent, every
            // run from its target; the expansion's best is an improvement
            // like any (rank 0's pool learns it too).
            let resumed = resume.and_then(|c| c.incumbent.clone());
            let floor = resumed.as_ref().map_or(0, |(v, _)| v + 1);
            let floor = floor.max(config.at_least.unwrap_or(0));
            let told = resumed.as_ref().map(|(v, _)| *v);
            head.master.start_floor(floor, told, &mut first);
            if let Some((value, _)) = &resumed {
                head.history.push(Improvement {
                    s: 0.0,
                    value: *value,
                    rank: 0,
                    heuristic: false,
                });
            }
            head.best = resumed;
            if let Some(found) = ramped {
                head.heuristic_found(found.value, found.text, &mut first);
            }
            if let Some((value, text)) = expanded_best {
                head.improve(None, value, text, &mut first);
            }
        }
        // `first` is the master's outbox, to its children; `down` below
        // turns its messages into messages to ranks. `accept_solutions`
        // would do so twice: in a run of groups an answer the expansion
        // found went as `Down(Down(Terminate))` to the ranks whose numbers
        // are the group masters' ranks, some past the run's last rank.
        head.solutions(0, None, found, &mut first)?;
        head.down(first, out);
        if let Some(observer) = &config.observer {
            observer.started(head.master.stats.initial_prefixes);
        }
        Ok(head)
    }

    /// How the expansion's work was shared among rank 0's threads (for
    /// the simulator).
    #[cfg(feature = "sim")]
    pub(crate) fn spread(&self) -> Spread {
        self.spread
    }

    /// Whether every rank has sent its final report.
    pub(crate) fn finished(&self) -> bool {
        self.finals.iter().all(Option::is_some)
    }

    /// The master's messages to its children, as messages to ranks: in a
    /// run of groups, to each group's master, in `Down`, a donation
    /// request naming the rank of the thief group that receives.
    fn down(&self, from: Outbox, out: &mut Outbox) {
        if !self.layout.grouped() {
            out.extend(from);
            return;
        }
        for (group, msg) in from {
            let msg = match msg {
                Message::DonateRequest { thief, asks } => Message::DonateRequest {
                    thief: self.receivers[thief as usize],
                    asks,
                },
                msg => msg,
            };
            out.push((
                self.layout.master_of_group(group),
                Message::Down(Box::new(msg)),
            ));
        }
    }

    /// A master-side message from rank `from` (rank 0's own included),
    /// handled now or, when it depends on donations not yet announced,
    /// once they are (see `causal.rs`). In a run of groups, only group
    /// masters talk to the root, in `Up`.
    pub(crate) fn handle(
        &mut self,
        from: usize,
        msg: Message,
        now: Instant,
        out: &mut Outbox,
    ) -> Result<(), RunError> {
        self.through(out, |head, local| {
            head.handle_in_order(from, msg, now, local)
        })
    }

    /// Runs `step` on an outbox of the master's (to its children) and
    /// passes what it sent on to `out` as messages to ranks.
    fn through(
        &mut self,
        out: &mut Outbox,
        step: impl FnOnce(&mut Self, &mut Outbox) -> Result<(), RunError>,
    ) -> Result<(), RunError> {
        let mut local = Outbox::new();
        let r = step(self, &mut local);
        self.down(local, out);
        r
    }

    fn handle_in_order(
        &mut self,
        from: usize,
        msg: Message,
        now: Instant,
        out: &mut Outbox,
    ) -> Result<(), RunError> {
        let (from, msg) = if self.layout.grouped() {
            match msg {
                Message::Up { receiver, msg } if self.layout.is_group_master(from) => {
                    let group = self.layout.group_of(from);
                    if self.layout.group_of(receiver as usize) != group {
                        return Err(RunError::Protocol {
                            rank: from,
                            what: "receiver outside its group",
                        });
                    }
                    self.receivers[group] = receiver;
                    (group, *msg)
                }
                msg => {
                    return Err(RunError::Protocol {
                        rank: from,
                        what: msg.kind(),
                    });
                }
            }
        } else {
            (from, msg)
        };
        let Some(msg) = self.order.admit(from, msg) else {
            self.master.stats.held_back += 1;
            return Ok(());
        };
        let mut ready = vec![(from, msg)];
        while let Some((from, msg)) = ready.pop() {
            if let Some(thief) = self.handle_now(from, msg, now, out)? {
                // Released in order; `pop` takes the last first. The root
                // of a run of groups orders each group's messages after
                // the donations it had from other groups.
                let released = self.order.announced(thief, self.layout.grouped());
                ready.extend(released.into_iter().rev().map(|m| (thief, m)));
            }
        }
        Ok(())
    }

    /// Handles a message in its turn; a `Donated` returns its thief.
    fn handle_now(
        &mut self,
        from: usize,
        msg: Message,
        now: Instant,
        out: &mut Outbox,
    ) -> Result<Option<usize>, RunError> {
        match msg {
            Message::AskForWork { tally, dealt, .. } => {
                self.master.on_ask(from, tally, dealt, now, out);
            }
            Message::Hungry { .. } => self.master.on_hungry(from, now, out),
            Message::Progress(tally) => self.master.on_progress(from, tally),
            Message::Donated {
                thief,
                parcels,
                units,
                ..
            } => {
                // In a run of groups, the thief is a rank of another group.
                let thief = match thief as usize {
                    t if t < self.layout.ranks() => self.layout.child_of_root(t),
                    _ => usize::MAX,
                };
                if thief >= self.order.ranks() || thief == from {
                    return Err(RunError::Protocol {
                        rank: from,
                        what: "donation to no other rank",
                    });
                }
                if let Some(c) = &mut self.checkpointer {
                    c.book.on_donated(&units).map_err(|e| RunError::Unit {
                        rank: from,
                        unit: e.0,
                    })?;
                }
                self.master
                    .on_donated(from, Some(thief), u64::from(parcels), now, out);
                return Ok(Some(thief));
            }
            Message::Solutions { unit, texts } => self.solutions(from, unit, texts, out)?,
            Message::Improved { value, text } => self.improve(Some(from), value, text, out),
            Message::UnitDone { report, .. } => self.on_unit_done(from, report)?,
            Message::Final(report) => {
                let rank = report.rank;
                // A rank's own, or (in a run of groups) passed up by its
                // group's master.
                if rank >= self.finals.len() || self.layout.child_of_root(rank) != from {
                    return Err(RunError::Protocol {
                        rank: from,
                        what: "final report of another rank",
                    });
                }
                self.finals[rank] = Some(*report);
            }
            Message::Work { .. }
            | Message::DonateRequest { .. }
            | Message::Donation { .. }
            | Message::StealRequest
            | Message::NoWork
            | Message::Incumbent(_)
            | Message::Up { .. }
            | Message::Down(_)
            | Message::Terminate => {
                return Err(RunError::Protocol {
                    rank: 0,
                    what: msg.kind(),
                });
            }
        }
        Ok(None)
    }

    /// Optimisation: a solution of objective `value` found by rank `from`
    /// (`None`: by the master's expansion); kept, and told to the other
    /// ranks, when it improves on the incumbent.
    fn improve(&mut self, from: Option<usize>, value: u64, text: String, out: &mut Outbox) {
        if self
            .master
            .on_improved(from.unwrap_or(usize::MAX), value, out)
        {
            self.history.push(Improvement {
                s: self.config.started.elapsed().as_secs_f64(),
                value,
                rank: from.map_or(0, |c| self.layout.rank_of_child(c)),
                heuristic: false,
            });
            self.best = Some((value, text));
        }
    }

    /// An improvement found by the heuristic, marked as its.
    fn heuristic_found(&mut self, value: u64, text: String, out: &mut Outbox) {
        let before = self.history.len();
        self.improve(None, value, text, out);
        if let Some(improvement) = self.history.get_mut(before) {
            improvement.heuristic = true;
        }
    }

    /// Optimisation: a solution found by the race beside the search
    /// (`race.rs`), an improvement if it beats the incumbent.
    pub(crate) fn raced(
        &mut self,
        value: u64,
        text: String,
        out: &mut Outbox,
    ) -> Result<(), RunError> {
        if self.answered() {
            return Ok(());
        }
        tracing::debug!("race: {value}");
        self.through(out, |head, local| {
            head.heuristic_found(value, text, local);
            Ok(())
        })
    }

    /// Whether the run's answer is known (the ramp-up met the target, or
    /// the expansion walked the whole tree).
    pub(crate) fn answered(&self) -> bool {
        self.master.terminated()
    }

    /// Optimisation: the incumbent's objective (0 when there is none).
    pub(crate) fn best_value(&self) -> u64 {
        self.best.as_ref().map_or(0, |(v, _)| *v)
    }

    /// Solutions found by rank `from` (in `unit`, when checkpointing): rank
    /// 0's own, handed over without a message.
    pub(crate) fn accept_solutions(
        &mut self,
        from: usize,
        unit: Option<Prefix>,
        texts: Vec<String>,
        out: &mut Outbox,
    ) -> Result<(), RunError> {
        self.through(out, |head, local| head.solutions(from, unit, texts, local))
    }

    fn solutions(
        &mut self,
        from: usize,
        unit: Option<Prefix>,
        texts: Vec<String>,
        out: &mut Outbox,
    ) -> Result<(), RunError> {
        let keep = self.master.on_solutions(texts.len(), out);
        if let (Some(c), Some(unit)) = (&mut self.checkpointer, unit) {
            // Held back until the unit completes (see `units`).
            return c.book.hold_texts(&unit, texts).map_err(|e| RunError::Unit {
                rank: from,
                unit: e.0,
            });
        }
        self.delivery.accept(texts, keep)
    }

    fn on_unit_done(&mut self, from: usize, report: UnitReport) -> Result<(), RunError> {
        let Some(c) = &mut self.checkpointer else {
            return Err(RunError::Protocol {
                rank: 0,
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

    /// The clockwork between messages: thieves waiting for a victim old
    /// enough, a signal, a checkpoint due.
    pub(crate) fn duties(&mut self, now: Instant, out: &mut Outbox) -> Result<(), RunError> {
        self.through(out, |head, local| head.clockwork(now, local))
    }

    fn clockwork(&mut self, now: Instant, out: &mut Outbox) -> Result<(), RunError> {
        self.master.on_tick(now, out);
        let signalled = self
            .config
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed));
        if signalled && !self.interrupted {
            self.interrupted = true;
            if !self.master.terminated() {
                self.master.interrupt(out);
            }
        }
        if !self.interrupted && self.checkpointer.as_ref().is_some_and(|c| c.due(now)) {
            self.write_checkpoint(now)?;
        }
        Ok(())
    }

    /// Tells the observer how the run goes, every [`OBSERVE_EVERY`]; `own`
    /// is rank 0's pool's live totals (the master's entry for rank 0 dates
    /// from its last `AskForWork`).
    pub(crate) fn observe(&mut self, own: Tally, now: Instant) {
        let Some(observer) = &self.config.observer else {
            return;
        };
        if now.duration_since(self.last_observed) < OBSERVE_EVERY {
            return;
        }
        self.last_observed = now;
        // Rank 0's entry (in a run of groups, its group's) is replaced by
        // its pool's live totals only where it is rank 0's alone.
        let t = if self.layout.grouped() {
            self.master.progress()
        } else {
            self.master.progress() - self.master.rank_progress(0) + own
        };
        observer.progress(&Progress {
            elapsed: now.duration_since(self.config.started),
            initial: self.master.stats.initial_prefixes,
            initial_done: t.initial_done,
            solutions: t.solutions,
            nodes: t.nodes,
        });
    }

    fn write_checkpoint(&mut self, now: Instant) -> Result<(), RunError> {
        match &mut self.checkpointer {
            Some(c) => {
                let (written, bytes) = (self.delivery.written, self.delivery.out_bytes);
                c.write(
                    self.delivery.sink(),
                    written,
                    bytes,
                    self.best.as_ref(),
                    self.config.started,
                    now,
                )
            }
            None => Ok(()),
        }
    }

    /// The end of the run over `size` ranks: the last checkpoint of an
    /// interrupted run, or the outcome.
    pub(crate) fn finish(mut self, size: usize) -> Result<Outcome, RunError> {
        let config = self.config;
        if let Some(observer) = &config.observer {
            observer.finished();
        }
        if self.interrupted {
            let checkpoint = self.checkpointer.as_ref().map(|c| c.path().to_path_buf());
            if checkpoint.is_some() {
                self.write_checkpoint(Instant::now())?;
            } else {
                self.delivery.persist()?;
            }
            return Err(RunError::Interrupted { checkpoint });
        }
        if let Some(checkpointer) = &self.checkpointer {
            self.delivery.persist()?;
            checkpointer.remove()?;
        }
        let answered = self.master.terminated_at().unwrap_or_else(Instant::now);
        let mut master_stats = self.master.stats;
        let reports: Vec<RankReport> = self.finals.into_iter().flatten().collect();
        // The master is told of no direct steal: the thieves' reports count them.
        master_stats.steals = reports.iter().map(|r| r.stolen).sum();
        master_stats.prefixes_stolen = reports.iter().map(|r| r.prefixes_stolen).sum();
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
            (nodes, solutions, depth) = (book.done.nodes, book.done.solutions, book.done.depth);
        }
        let mut d = self.delivery;
        let objective = self.best.as_ref().map(|(v, _)| *v);
        if config.mode == Mode::Optimise {
            d.found = self.best.map(|(_, text)| text).into_iter().collect();
            solutions = d.found.len() as u64;
        } else if config.mode.stop_after().is_some() {
            solutions = d.found.len() as u64;
        } else if config.mode == Mode::All && config.limit.is_some() {
            solutions = d.written;
        }
        Ok(Outcome {
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
            objective,
            improvements: self.history,
        })
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::cluster::protocol::{RankReport, Received};
    use crate::cluster::sink::Callback;
    use crate::engine::Parcels;
    use crate::engine::fixtures::Queens;
    use crate::engine::sequential;
    use std::collections::VecDeque;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    /// Runs the head against `size` ranks that each search one parcel a
    /// step, and donate half of the parcels they hold when asked (straight
    /// to the thief, announced by a `Donated`). Messages travel on one
    /// ordered channel per pair of ranks, and each step delivers the head
    /// of a channel drawn from `seed`: across pairs, any order. The
    /// protocol's master side and the ranks' donations, no thread, no
    /// transport. With `steals`, a rank that runs dry (and is not hungry)
    /// first asks a rank drawn at random for work (`StealRequest`), and
    /// asks the master once it is refused. Returns the outcome, the
    /// solutions delivered, how many messages the head held back, and how
    /// many direct steals the ranks made (the master is told of none).
    fn drive(
        size: usize,
        config: &RunConfig,
        seed: u64,
        steals: bool,
    ) -> (Result<Outcome, RunError>, Vec<String>, u64, u64) {
        let q = Queens::new(7);
        let mut found = Vec::new();
        let mut sink = Callback(|t: &str| found.push(t.to_owned()));
        let delivery = Delivery::new(&mut sink, config.mode, None);
        let mut out = Outbox::new();
        let mut head = Head::start(&q, config, Layout::flat(size), delivery, &mut out).unwrap();
        // Channels by (from, to); `send` appends.
        let mut wires: Vec<VecDeque<Message>> = vec![VecDeque::new(); size * size];
        let send = |wires: &mut Vec<VecDeque<Message>>, from: usize, to: usize, m: Message| {
            wires[from * size + to].push_back(m)
        };
        let ask = |after: Received, dealt: u64| Message::AskForWork {
            tally: Tally::default(),
            after,
            dealt,
        };
        for r in 0..size {
            send(&mut wires, r, 0, ask(Received::default(), 0));
        }
        for (to, m) in out.drain(..) {
            send(&mut wires, 0, to, m);
        }
        // Per rank: parcels held, donations received, asks sent, totals.
        let mut held: Vec<VecDeque<Parcel>> = vec![VecDeque::new(); size];
        let mut received = vec![Received::default(); size];
        let mut asks = vec![1u64; size];
        let mut stolen = 0u64;
        // `Work` and `Donation` messages received; a `Hungry` is out.
        let mut dealt = vec![0u64; size];
        let mut hungry = vec![false; size];
        // A `StealRequest` of the rank's is out.
        let mut stealing = vec![false; size];
        let mut done = vec![SubtreeTotals::default(); size];
        let mut rng = seed.max(1);
        let mut steps = 0;
        while !head.finished() {
            steps += 1;
            assert!(steps < 1_000_000, "no end");
            let now = Instant::now();
            head.duties(now, &mut out).unwrap();
            for (to, m) in out.drain(..) {
                send(&mut wires, 0, to, m);
            }
            // xorshift64: a channel to deliver from, or a rank's step.
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let pick = (rng % (2 * size * size) as u64) as usize;
            if pick >= size * size {
                // A rank searches one parcel; with none left, it asks. Or,
                // holding some (one draw in 8), it says it is hungry.
                let r = pick % size;
                if rng >> 61 == 0 && !held[r].is_empty() && !hungry[r] {
                    hungry[r] = true;
                    let after = received[r];
                    send(&mut wires, r, 0, Message::Hungry { after });
                    continue;
                }
                if let Some(parcel) = held[r].pop_front() {
                    let task = parcel.task(&q, Mode::Count).unwrap();
                    let mut state = q.state(Mode::Count);
                    q.load(&mut state, &task.node);
                    let c = q.count_subtree(&mut state);
                    done[r].nodes += c.nodes;
                    done[r].solutions += c.solutions;
                    if held[r].is_empty() && steals && size > 1 && !hungry[r] {
                        let victim = (r + 1 + (rng >> 32) as usize % (size - 1)) % size;
                        stealing[r] = true;
                        send(&mut wires, r, victim, Message::StealRequest);
                    } else if held[r].is_empty() {
                        asks[r] += 1;
                        hungry[r] = false;
                        send(&mut wires, r, 0, ask(received[r], dealt[r]));
                    }
                }
                continue;
            }
            let (from, to) = (pick / size, pick % size);
            let Some(msg) = wires[pick].pop_front() else {
                continue;
            };
            // A rank that holds parcels gives half to the master's thief
            // (unless its ask answered the request) or to one that asks
            // itself; with none left, it asks.
            let gift = match msg {
                Message::DonateRequest { thief, asks: seen } if seen >= asks[to] => {
                    Some((thief as usize, false))
                }
                Message::StealRequest => Some((from, true)),
                _ => None,
            };
            if let Some((thief, direct)) = gift.filter(|_| !held[to].is_empty()) {
                let (donation, donated) = give_half(&mut held[to], thief, received[to], direct);
                send(&mut wires, to, thief, donation);
                // A direct donation is not announced.
                if direct {
                    stolen += 1;
                } else {
                    send(&mut wires, to, 0, donated);
                }
                if held[to].is_empty() {
                    asks[to] += 1;
                    hungry[to] = false;
                    send(&mut wires, to, 0, ask(received[to], dealt[to]));
                }
                continue;
            }
            match msg {
                Message::Work { parcels, .. } => {
                    dealt[to] += 1;
                    hungry[to] = false;
                    held[to].extend(parcels);
                }
                Message::Donation {
                    parcels, direct, ..
                } => {
                    // Its asks and what its messages come after count only
                    // the donations the master arranged.
                    if direct {
                        stealing[to] = false;
                    } else {
                        received[to].add(false);
                        dealt[to] += 1;
                    }
                    hungry[to] = false;
                    held[to].extend(parcels.parcels().expect("packed here"));
                }
                // Otherwise its ask, sent or to come, answers.
                Message::DonateRequest { .. } => {}
                // One that holds none (it waits, or steals itself) refuses.
                Message::StealRequest => send(&mut wires, to, from, Message::NoWork),
                Message::NoWork => {
                    stealing[to] = false;
                    if held[to].is_empty() {
                        asks[to] += 1;
                        hungry[to] = false;
                        send(&mut wires, to, 0, ask(received[to], dealt[to]));
                    }
                }
                Message::Terminate => {
                    let report = RankReport {
                        rank: to,
                        nodes: done[to].nodes,
                        solutions: done[to].solutions,
                        ..RankReport::default()
                    };
                    send(&mut wires, to, 0, Message::Final(Box::new(report)));
                }
                msg => {
                    assert_eq!(to, 0);
                    head.handle(from, msg, now, &mut out).unwrap();
                    for (to, m) in out.drain(..) {
                        send(&mut wires, 0, to, m);
                    }
                }
            }
        }
        let held_back = head.master.stats.held_back;
        assert!(stealing.iter().all(|s| !s), "a steal in flight at the end");
        let outcome = head.finish(size);
        (outcome, found, held_back, stolen)
    }

    /// A rank of `drive` gives `thief` the second half of what it holds
    /// (`direct`: at the thief's own request): the donation, and its
    /// announcement to the master (not sent for a direct one).
    fn give_half(
        held: &mut VecDeque<Parcel>,
        thief: usize,
        after: Received,
        direct: bool,
    ) -> (Message, Message) {
        let parcels: Vec<Parcel> = held.drain(held.len() / 2..).collect();
        let donated = Message::Donated {
            thief: thief as u32,
            parcels: parcels.len() as u32,
            units: Vec::new(),
            after,
        };
        let donation = Message::Donation {
            parcels: Parcels::from_parcels(&parcels),
            initial_depth: 0,
            direct,
        };
        (donation, donated)
    }

    #[derive(Clone, Default)]
    struct SubtreeTotals {
        nodes: u64,
        solutions: u64,
    }

    #[test]
    fn the_head_counts_the_whole_tree_over_any_number_of_ranks_and_orders() {
        let q = Queens::new(7);
        let (whole, _) = sequential(&q, Mode::Count);
        let (mut held_back, mut stolen) = (0, 0);
        for steals in [false, true] {
            for size in [1, 2, 3, 8] {
                for seed in 1..=20 {
                    let config = RunConfig::new(Mode::Count).threads(1);
                    let (outcome, _, held, s) = drive(size, &config, seed, steals);
                    let o = outcome.unwrap();
                    let at = format!("{size} ranks, seed {seed}, steals {steals}");
                    assert_eq!((o.solutions, o.nodes), (40, whole.nodes), "{at}");
                    assert_eq!((o.ranks, o.reports.len()), (size, size));
                    held_back += held;
                    stolen += s;
                }
            }
        }
        // Some thief's ask did overtake its victim's `Donated`, and ranks
        // stole from each other.
        assert!(
            held_back > 0 && stolen > 0,
            "{held_back} held, {stolen} stolen"
        );
    }

    #[test]
    fn a_signal_ends_the_run_as_interrupted() {
        let flag = Arc::new(AtomicBool::new(true));
        let config = RunConfig::new(Mode::Count).threads(1).interrupt(flag);
        match drive(3, &config, 1, false).0 {
            Err(RunError::Interrupted { checkpoint: None }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn rank_side_messages_are_refused_by_the_head() {
        let q = Queens::new(5);
        let config = RunConfig::new(Mode::Count).threads(1);
        let mut sink = Callback(|_: &str| {});
        let delivery = Delivery::new(&mut sink, Mode::Count, None);
        let mut out = Outbox::new();
        let mut head = Head::start(&q, &config, Layout::flat(2), delivery, &mut out).unwrap();
        let r = head.handle(1, Message::Terminate, Instant::now(), &mut out);
        assert!(matches!(
            r,
            Err(RunError::Protocol {
                what: "Terminate",
                ..
            })
        ));
    }

    /// When rank 0's expansion of the root finds the answer (N-Queens 6
    /// in first and unique mode), the head's first messages end the run:
    /// in a run of groups, one `Terminate` to each group's master, in one
    /// `Down` (they were once wrapped twice and sent to ranks by group
    /// numbers).
    #[test]
    fn an_answer_of_the_expansion_terminates_each_group_through_one_down() {
        let q = Queens::new(6);
        let layout = Layout::groups_of(8, 3, 1);
        let masters: Vec<usize> = (0..layout.groups())
            .map(|g| layout.master_of_group(g))
            .collect();
        assert_eq!(masters, vec![0, 1, 4, 7]);
        for mode in [Mode::First, Mode::Unique] {
            let config = RunConfig::new(mode).threads(1);
            let mut sink = Callback(|_: &str| {});
            let delivery = Delivery::new(&mut sink, mode, None);
            let mut out = Outbox::new();
            let head = Head::start(&q, &config, layout, delivery, &mut out).unwrap();
            assert!(
                head.master.terminated(),
                "{mode:?}: the expansion found no answer"
            );
            // Nothing but the `Terminate`s: no work is dealt.
            let mut told: Vec<usize> = out
                .iter()
                .map(|(to, m)| match m {
                    Message::Down(inner) => match **inner {
                        Message::Terminate => *to,
                        Message::Down(_) => panic!("{mode:?}: a Down in a Down to {to}"),
                        ref other => panic!("{mode:?}: {other:?} to {to}"),
                    },
                    other => panic!("{mode:?}: {other:?} to rank {to} outside a Down"),
                })
                .collect();
            told.sort_unstable();
            assert_eq!(told, masters, "{mode:?}");
        }
    }
}
