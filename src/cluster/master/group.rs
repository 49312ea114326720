//! A group's master, in a run of groups: what the first rank of each group
//! runs besides its own workers (its head). Towards the ranks of its group it is a
//! [`Master`] (the same decisions as rank 0's in a run of one group: it
//! deals the work the root gave the group, and matches the group's thieves
//! with its victims); towards the root it behaves as one rank does towards
//! its master: it asks for work when the group holds none (`AskForWork`),
//! says when a rank of it waits for work the group cannot give (`Hungry`),
//! answers the root's donation requests by asking one of its ranks to
//! donate to the rank the root named, and passes up what the root keeps:
//! solutions, improvements, unit completions, and each rank's `Final`.
//!
//! Free of I/O, like the master: it takes messages and the clock's ticks,
//! and answers with messages in a [`Sends`]. `README.md`, "Groups", argues
//! why the run still ends exactly when all work is done.

use crate::cluster::layout::Layout;
use crate::cluster::master::causal::CausalOrder;
use crate::cluster::master::{Master, Outbox};
use crate::cluster::protocol::{Message, Received};
use crate::cluster::rank::{PROGRESS_EVERY, Sends};
use crate::engine::pool::policy;
use crate::engine::{Count, Mode, Prefix, UnitReport};
use std::collections::HashMap;
use std::time::Instant;

/// A unit's account in a group (checkpoints): parcels of it held in the
/// group, and those of them that came from outside (from the root, or
/// donated by a rank of another group): the group's `UnitDone` closes
/// that many of the root's.
#[derive(Debug, Default)]
struct GroupUnit {
    parcels: u64,
    on_outside: u64,
    count: Count,
}

/// The group's units; a unit completes in the group when no parcel of it
/// is left there. The same argument as the root's `UnitBook`: a rank sends
/// the `Donated` of what it split off a unit before its `UnitDone` of it,
/// and the group's master handles a thief's messages after the `Donated`
/// of what it received (`causal.rs`).
///
/// Keyed by the units as the messages name them: a parcel of the root's
/// `Work` is a whole unit, and a rank names the units of what it donated
/// and finished, never deeper prefixes (`rank.rs`, the pool). The group
/// does not know the unit depth: its first work may come from a rank of
/// another group, in a `Donation` whose `Donated` does not carry it.
#[derive(Debug, Default)]
struct GroupUnits {
    open: HashMap<Prefix, GroupUnit>,
}

impl GroupUnits {
    fn unit(&mut self, unit: &Prefix) -> &mut GroupUnit {
        self.open.entry(unit.clone()).or_default()
    }

    /// Parcels of `units` (one each) came into the group from outside.
    fn came_in<'p>(&mut self, units: impl IntoIterator<Item = &'p Prefix>) {
        for u in units {
            let g = self.unit(u);
            g.parcels += 1;
            g.on_outside += 1;
        }
    }

    /// A rank of the group donated parcels of `units` to another of it.
    fn moved(&mut self, units: &[Prefix]) {
        for u in units {
            self.unit(u).parcels += 1;
        }
    }

    /// A rank finished its parcels of a unit: the group's report of the
    /// unit once no parcel of it is left in the group.
    fn done(&mut self, r: UnitReport) -> Result<Option<UnitReport>, Prefix> {
        let unit = r.unit;
        let Some(g) = self.open.get_mut(&unit) else {
            return Err(unit);
        };
        if r.received > g.parcels {
            return Err(unit);
        }
        g.parcels -= r.received;
        g.count += r.count;
        if g.parcels > 0 {
            return Ok(None);
        }
        let g = self.open.remove(&unit).expect("just seen");
        Ok(Some(UnitReport {
            unit,
            received: g.on_outside,
            count: g.count,
        }))
    }
}

/// A group's master.
pub(crate) struct GroupHead {
    layout: Layout,
    group: usize,
    /// The first rank of the group: this head's, and its rank 0 of
    /// `master`'s children.
    first: usize,
    members: usize,
    master: Master,
    order: CausalOrder,
    units: Option<GroupUnits>,
    /// Sent `AskForWork` to the root and received no work since.
    asked: bool,
    /// Sent `Hungry` to the root and received no work since (nor asked).
    hungry: bool,
    /// `Work` from the root and donations from other groups received.
    dealt: u64,
    /// Donations from other groups handled (the `after` of what the group
    /// sends the root: the root orders it after their `Donated`).
    received: u64,
    /// `AskForWork`s sent to the root.
    asks: u64,
    last_progress: Instant,
    /// Finals passed up.
    finals: usize,
}

impl GroupHead {
    /// The master of group `group` of `layout`, tracking units when
    /// checkpointing.
    pub(crate) fn new(
        layout: Layout,
        group: usize,
        mode: Mode,
        track_units: bool,
        now: Instant,
    ) -> GroupHead {
        let members = layout.members(group);
        let first = members.start;
        let n = members.len();
        GroupHead {
            layout,
            group,
            first,
            members: n,
            master: Master::for_group(n, first).keeping_order(policy::keeps_order(mode)),
            order: CausalOrder::new(n),
            units: track_units.then(GroupUnits::default),
            asked: false,
            hungry: false,
            dealt: 0,
            received: 0,
            asks: 0,
            last_progress: now,
            finals: 0,
        }
    }

    /// Every rank of the group has ended and its `Final` went up.
    pub(crate) fn finished(&self) -> bool {
        self.master.terminated() && self.finals == self.members
    }

    fn local(&self, rank: usize) -> Option<usize> {
        (self.layout.group_of(rank) == self.group).then(|| rank - self.first)
    }

    /// Sends up to the root, naming the rank a donation for the group
    /// should go to: one that waits (or is hungry) for work the group
    /// cannot give, else one that waits, else this one.
    fn up(&mut self, msg: Message, out: &mut Sends) {
        if self.first != 0 {
            // Rank 0's group talks to the root through the local inbox.
            self.master.stats.messages_sent += 1;
        }
        let receiver = self
            .master
            .starved()
            .or_else(|| self.master.a_waiting_rank())
            .map_or(self.first, |r| r + self.first);
        out.push((
            0,
            Message::Up {
                receiver: receiver as u32,
                msg: Box::new(msg),
            },
        ));
    }

    /// The master's messages, to the group's ranks.
    fn down(&self, from: Outbox, out: &mut Sends) {
        out.extend(from.into_iter().map(|(r, m)| (r + self.first, m)));
    }

    /// After any change: the group asks the root for work when it holds
    /// none, or says it is hungry when a rank waits for work the group
    /// cannot give.
    fn after(&mut self, out: &mut Sends) {
        if self.master.terminated() || self.asked {
            return;
        }
        if self.master.dry() {
            self.asked = true;
            self.hungry = false;
            self.asks += 1;
            let ask = Message::AskForWork {
                tally: self.master.progress(),
                after: Received::outside(self.received),
                dealt: self.dealt,
            };
            self.up(ask, out);
        } else if !self.hungry && self.master.starved().is_some() {
            self.hungry = true;
            self.master.stats.hungers += 1;
            self.up(
                Message::Hungry {
                    after: Received::outside(self.received),
                },
                out,
            );
        }
    }

    /// The group was dealt work (by the root, or by a rank of another
    /// group): it neither waits nor hungers.
    fn dealt_work(&mut self) {
        self.dealt += 1;
        self.asked = false;
        self.hungry = false;
    }

    /// A message from the root (`Down`).
    pub(crate) fn on_root(
        &mut self,
        msg: Message,
        now: Instant,
        out: &mut Sends,
    ) -> Result<(), GroupError> {
        let mut o = Outbox::new();
        match msg {
            Message::Work {
                parcels,
                initial_depth,
            } => {
                if self.master.terminated() {
                    return Ok(());
                }
                self.dealt_work();
                if let Some(u) = &mut self.units {
                    u.came_in(parcels.iter().map(|p| &p.prefix));
                }
                self.master.refill(parcels, initial_depth, now, &mut o);
            }
            Message::DonateRequest { thief, asks } => {
                // A request older than the group's latest ask is void: the
                // ask answered it.
                if !self.master.terminated() && asks >= self.asks && !self.asked {
                    self.master.on_foreign_request(thief, now, &mut o);
                }
            }
            // To every rank of the group (none is its finder).
            Message::Incumbent(value) => {
                self.master.on_incumbent(usize::MAX, value, &mut o);
            }
            Message::Terminate => self.master.interrupt(&mut o),
            other => return Err(GroupError::Protocol(0, other.kind())),
        }
        self.down(o, out);
        self.after(out);
        Ok(())
    }

    /// A master-side message from rank `from`: a rank of the group, or
    /// (a `Donated` only) a rank of another group that donated to one of
    /// this group's. Handled in the order of [`CausalOrder`].
    pub(crate) fn on_rank(
        &mut self,
        from: usize,
        msg: Message,
        now: Instant,
        out: &mut Sends,
    ) -> Result<(), GroupError> {
        let Some(local) = self.local(from) else {
            return self.on_outside(from, msg, now, out);
        };
        let Some(msg) = self.order.admit(local, msg) else {
            self.master.stats.held_back += 1;
            return Ok(());
        };
        self.in_order(vec![(local, msg)], now, out)
    }

    /// Handles `ready` (taken from its end) and what each `Donated` to a
    /// rank of the group releases of that rank's held messages, in order.
    fn in_order(
        &mut self,
        mut ready: Vec<(usize, Message)>,
        now: Instant,
        out: &mut Sends,
    ) -> Result<(), GroupError> {
        while let Some((local, msg)) = ready.pop() {
            if let Some(thief) = self.handle_now(local, msg, now, out)? {
                let released = self.order.announced(thief, false);
                ready.extend(released.into_iter().rev().map(|m| (thief, m)));
            }
        }
        self.after(out);
        Ok(())
    }

    /// A `Donated` from a rank of another group: one of this group's
    /// ranks received a donation (the root asked that group for it).
    fn on_outside(
        &mut self,
        from: usize,
        msg: Message,
        now: Instant,
        out: &mut Sends,
    ) -> Result<(), GroupError> {
        let Message::Donated { thief, units, .. } = msg else {
            return Err(GroupError::Protocol(from, msg.kind()));
        };
        let Some(thief) = self.local(thief as usize) else {
            return Err(GroupError::Protocol(
                from,
                "donation to no rank of the group",
            ));
        };
        self.received += 1;
        if self.master.terminated() {
            return Ok(());
        }
        self.dealt_work();
        if let Some(u) = &mut self.units {
            u.came_in(&units);
        }
        let mut o = Outbox::new();
        self.master.on_received(thief, now, &mut o);
        self.down(o, out);
        let released = self.order.announced(thief, true);
        let ready = released.into_iter().rev().map(|m| (thief, m)).collect();
        self.in_order(ready, now, out)
    }

    /// Handles a rank's message in its turn; a `Donated` to a rank of the
    /// group returns that rank.
    fn handle_now(
        &mut self,
        local: usize,
        msg: Message,
        now: Instant,
        out: &mut Sends,
    ) -> Result<Option<usize>, GroupError> {
        let from = local + self.first;
        let mut o = Outbox::new();
        let mut thief_here = None;
        match msg {
            Message::AskForWork { tally, dealt, .. } => {
                self.master.on_ask(local, tally, dealt, now, &mut o);
            }
            Message::Hungry { .. } => self.master.on_hungry(local, now, &mut o),
            Message::Progress(tally) => self.master.on_progress(local, tally),
            Message::Donated {
                thief,
                parcels,
                units,
                after,
            } => {
                let thief_rank = thief as usize;
                if thief_rank == from || thief_rank >= self.layout.ranks() {
                    return Err(GroupError::Protocol(from, "donation to no other rank"));
                }
                match self.local(thief_rank) {
                    Some(t) => {
                        if let Some(u) = &mut self.units {
                            u.moved(&units);
                        }
                        self.master
                            .on_donated(local, Some(t), u64::from(parcels), now, &mut o);
                        thief_here = Some(t);
                    }
                    None => {
                        // To another group, as the root asked: the root
                        // counts it (the parcels left this group).
                        self.master
                            .on_donated(local, None, u64::from(parcels), now, &mut o);
                        let _ = after;
                        self.up(
                            Message::Donated {
                                thief,
                                parcels,
                                units,
                                after: Received::outside(self.received),
                            },
                            out,
                        );
                    }
                }
            }
            msg @ Message::Solutions { .. } => self.up(msg, out),
            Message::UnitDone { report, .. } => {
                let Some(u) = &mut self.units else {
                    return Err(GroupError::Protocol(from, "unit report"));
                };
                match u.done(report) {
                    Ok(Some(report)) => {
                        let after = Received::outside(self.received);
                        self.up(Message::UnitDone { report, after }, out);
                    }
                    Ok(None) => {}
                    Err(unit) => return Err(GroupError::Unit(from, unit)),
                }
            }
            // Only an improvement on what the group knew goes up.
            Message::Improved { value, text } => {
                if self.master.on_improved(local, value, &mut o) {
                    self.up(Message::Improved { value, text }, out);
                }
            }
            Message::Final(mut report) => {
                if report.rank == self.first {
                    report.group = Some(self.master.stats.clone());
                }
                self.finals += 1;
                self.up(Message::Final(report), out);
            }
            other => return Err(GroupError::Protocol(from, other.kind())),
        }
        self.down(o, out);
        Ok(thief_here)
    }

    /// Between messages: thieves waiting for a victim old enough, and the
    /// group's running totals for the root, about once a second.
    pub(crate) fn tick(&mut self, now: Instant, out: &mut Sends) {
        if self.master.terminated() {
            return;
        }
        let mut o = Outbox::new();
        self.master.on_tick(now, &mut o);
        self.down(o, out);
        if !self.asked && now.duration_since(self.last_progress) >= PROGRESS_EVERY {
            self.last_progress = now;
            self.up(Message::Progress(self.master.progress()), out);
        }
        self.after(out);
    }
}

/// A message a group's master cannot take: a protocol error, naming the
/// rank that sent it.
#[derive(Debug)]
pub(crate) enum GroupError {
    Protocol(usize, &'static str),
    Unit(usize, Prefix),
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::cluster::protocol::RankReport;
    use crate::engine::{Parcel, Tally};

    /// 8 ranks in groups of 3: rank 0 alone, then 1 to 3, 4 to 6, and 7.
    /// The head of the group of ranks 1 to 3.
    fn head(mode: Mode) -> GroupHead {
        let layout = Layout::groups_of(8, 3, 1);
        assert_eq!(layout.members(1), 1..4);
        GroupHead::new(layout, 1, mode, false, Instant::now())
    }

    fn ask() -> Message {
        Message::AskForWork {
            tally: Tally::default(),
            after: Received::default(),
            dealt: 0,
        }
    }

    /// What went up to the root, by kind; what went to ranks, by rank.
    fn split(out: &Sends) -> (Vec<&'static str>, Vec<(usize, &'static str)>) {
        let mut up = Vec::new();
        let mut down = Vec::new();
        for (to, m) in out {
            match m {
                Message::Up { msg, .. } => {
                    assert_eq!(*to, 0, "an Up to rank {to}");
                    up.push(msg.kind());
                }
                m => down.push((*to, m.kind())),
            }
        }
        (up, down)
    }

    /// A group none of whose ranks holds work asks the root once, when
    /// the last of them asks. Before any was dealt work, rank 1's ask has
    /// rank 2 asked to donate to it; rank 2's ask ends that pairing, so
    /// rank 3 is asked for rank 1, and rank 2, with no victim left, makes
    /// the group hungry; rank 3's ask leaves the group dry. The requests
    /// name rank 1 by its rank in the run, not its place in the group.
    /// The root's work is dealt to the group's ranks alone.
    #[test]
    fn a_dry_group_asks_the_root_once_and_deals_what_it_gets() {
        let mut g = head(Mode::Count);
        let now = Instant::now();
        let mut out = Sends::new();
        for r in 1..4 {
            g.on_rank(r, ask(), now, &mut out).unwrap();
        }
        let (up, down) = split(&out);
        assert_eq!(up, vec!["Hungry", "AskForWork"], "{out:?}");
        assert_eq!(down, vec![(2, "DonateRequest"), (3, "DonateRequest")]);
        for (_, m) in &out {
            if let Message::DonateRequest { thief, .. } = m {
                assert_eq!(*thief, 1, "{out:?}");
            }
        }
        out.clear();
        let parcels = (0..30)
            .map(|i| Parcel::named(crate::engine::Prefix(vec![i])))
            .collect();
        let work = Message::Work {
            parcels,
            initial_depth: 1,
        };
        g.on_root(work, now, &mut out).unwrap();
        let (up, down) = split(&out);
        assert!(up.is_empty(), "{up:?}");
        let mut dealt: Vec<usize> = down.iter().map(|&(r, _)| r).collect();
        dealt.sort_unstable();
        assert_eq!(dealt, vec![1, 2, 3], "{down:?}");
        assert!(down.iter().all(|&(_, k)| k == "Work"), "{down:?}");
    }

    /// Only an improvement on what the group knew goes up to the root.
    #[test]
    fn only_improvements_go_up() {
        let mut g = head(Mode::Optimise);
        let now = Instant::now();
        for (from, value, goes_up) in [(2, 5, true), (3, 4, false), (1, 5, false), (3, 6, true)] {
            let mut out = Sends::new();
            let text = format!("{value}");
            g.on_rank(from, Message::Improved { value, text }, now, &mut out)
                .unwrap();
            let (up, _) = split(&out);
            assert_eq!(
                up.contains(&"Improved"),
                goes_up,
                "{value} from {from}: {out:?}"
            );
        }
    }

    /// The root's `Terminate` reaches every rank of the group, and the
    /// group has finished once each rank's `Final` went up; the first
    /// rank's carries the group's statistics.
    #[test]
    fn terminate_reaches_each_rank_and_every_final_goes_up() {
        let mut g = head(Mode::Count);
        let now = Instant::now();
        let mut out = Sends::new();
        g.on_root(Message::Terminate, now, &mut out).unwrap();
        let (_, down) = split(&out);
        assert_eq!(
            down,
            vec![(1, "Terminate"), (2, "Terminate"), (3, "Terminate")]
        );
        for r in 1..4 {
            assert!(!g.finished());
            let mut out = Sends::new();
            let report = RankReport {
                rank: r,
                ..RankReport::default()
            };
            g.on_rank(r, Message::Final(Box::new(report)), now, &mut out)
                .unwrap();
            match &out[..] {
                [(0, Message::Up { msg, .. })] => match &**msg {
                    Message::Final(f) => assert_eq!(f.group.is_some(), r == 1, "rank {r}"),
                    m => panic!("{m:?}"),
                },
                o => panic!("{o:?}"),
            }
        }
        assert!(g.finished());
    }

    /// What a group's master cannot take is an error naming the sender:
    /// from the root, a rank's message; from a rank of another group,
    /// anything but a `Donated` to this group; a donation to itself; a
    /// unit report in a run without checkpoints.
    #[test]
    fn messages_a_group_cannot_take_are_refused() {
        let now = Instant::now();
        let mut out = Sends::new();
        let mut g = head(Mode::Count);
        assert!(matches!(
            g.on_root(ask(), now, &mut out),
            Err(GroupError::Protocol(0, "AskForWork"))
        ));
        assert!(matches!(
            g.on_rank(5, ask(), now, &mut out),
            Err(GroupError::Protocol(5, "AskForWork"))
        ));
        let donated = |thief: u32| Message::Donated {
            thief,
            parcels: 1,
            units: Vec::new(),
            after: Received::default(),
        };
        assert!(matches!(
            g.on_rank(5, donated(6), now, &mut out),
            Err(GroupError::Protocol(5, "donation to no rank of the group"))
        ));
        assert!(matches!(
            g.on_rank(2, donated(2), now, &mut out),
            Err(GroupError::Protocol(2, "donation to no other rank"))
        ));
        assert!(matches!(
            g.on_rank(
                2,
                Message::UnitDone {
                    report: UnitReport {
                        unit: crate::engine::Prefix(vec![0]),
                        received: 1,
                        count: Count::default(),
                    },
                    after: Received::default(),
                },
                now,
                &mut out
            ),
            Err(GroupError::Protocol(2, "unit report"))
        ));
    }
}
