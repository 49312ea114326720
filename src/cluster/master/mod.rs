//! The master's bookkeeping, free of any transport: which of its children
//! wait for work, which owe a donation, what is left in the pool, and when
//! the answer is known. Its children are ranks (rank 0's master in a run
//! of one group, and each group's master) or groups (the root, above group
//! masters): it calls them ranks. `README.md` beside this file argues why
//! it terminates exactly when all work is done, at one level and two.

pub(in crate::cluster) mod causal;
pub(in crate::cluster) mod checkpointer;
pub(in crate::cluster) mod delivery;
pub(in crate::cluster) mod group;
pub(in crate::cluster) mod head;
#[cfg(feature = "sim")]
pub mod master_bench;
pub(in crate::cluster) mod race;
pub(in crate::cluster) mod units;

use crate::cluster::protocol::Message;
use crate::engine::{Parcel, Tally};
use std::collections::{BTreeSet, VecDeque};
use std::time::{Duration, Instant};

/// Messages the master wants sent: (destination rank, message).
pub(super) type Outbox = Vec<(usize, Message)>;

#[derive(Debug, Clone, Default)]
struct RankState {
    /// Sent `AskForWork` and has not been served since.
    waiting: bool,
    /// Sent `Hungry` (it holds work, but would take more) and has been
    /// neither served since nor become waiting.
    hungry: bool,
    /// `Work` sent to it, and `Donated` handled naming it: the deals it
    /// will have received (an `AskForWork` that says fewer crossed one).
    deals_to: u64,
    /// Was asked to donate and has answered neither with a `Donated` nor
    /// with an `AskForWork` (which says it has nothing left to give).
    owes_donation: bool,
    /// Its `AskForWork` messages handled so far (a donation request
    /// carries it, so that the rank can tell a request that its own ask
    /// answered).
    asks: u64,
    /// The thief this rank's owed donation goes to.
    thief: Option<Thief>,
    /// A donation request is out on this rank's behalf (it is some busy
    /// rank's thief).
    has_victim: bool,
    /// Running totals from its last `AskForWork` or `Progress`.
    tally: Tally,
    /// When it was last dealt work (the master's count of deals then).
    served_at: u64,
    /// The same moment on the clock (none before its first deal).
    served_time: Option<Instant>,
    /// When the donation it owes was asked for.
    asked_time: Option<Instant>,
    /// In the master's queue of waiting ranks to serve.
    queued: bool,
    /// In the master's queue of hungry ranks to serve.
    fed_queued: bool,
}

/// A victim must have worked for this many donation round trips since it
/// was dealt its work before it is asked to donate (see `ask_victims`).
pub(super) const VICTIM_MIN_AGE_IN_ROUND_TRIPS: u32 = 8;

/// The same rule in a group's master: its ranks are few, and its round
/// trip, measured on its own donations, is short, so a quarter of the age.
/// (Simulated UTS T1XXL on 1,024 ranks of 16 threads in groups of 32:
/// 0.875 efficiency at 8 round trips, 0.894 at 2, the tail's idle time
/// from 6.6 % to 3.1 %; at 1, 0.858, more donations of less. At 2 in the
/// root of groups alone, 0.875: the tail is the groups' own.)
pub(super) const GROUP_VICTIM_MIN_AGE_IN_ROUND_TRIPS: u32 = 2;

/// What the master itself did, for `--stats` (its `Display`) and `--json`
/// (`Serialize`).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MasterStats {
    /// Initial prefixes (units) the root was cut into.
    pub(crate) initial_prefixes: u64,
    /// Messages the master sent to other ranks (work, donation requests,
    /// terminate).
    pub(crate) messages_sent: u64,
    /// `Work` messages sent.
    pub(crate) work_messages: u64,
    /// Prefixes those messages carried.
    pub(crate) prefixes_dealt: u64,
    /// `DonateRequest` messages sent.
    pub(crate) donation_requests: u64,
    /// Prefixes ranks donated in answer (sent victim to thief).
    pub(crate) prefixes_returned: u64,
    /// Donations victims made (each sent whole to its thief, and announced
    /// to the master by a `Donated`).
    pub(crate) donations_routed: u64,
    /// Messages from a thief held back until the `Donated` of a donation
    /// it had received (they overtook it; see `causal.rs`).
    pub(crate) held_back: u64,
    /// `Hungry` messages handled (from ranks that still held work).
    pub(crate) hungers: u64,
    /// Direct steals: donations ranks made at a thief's own request
    /// (`StealRequest`), which the master is never told of: at the end of
    /// the run, the sum of the thieves' reports (rank 0's master; a group's
    /// master counts none).
    #[serde(default)]
    pub(crate) steals: u64,
    /// Prefixes those donations carried.
    #[serde(default)]
    pub(crate) prefixes_stolen: u64,
    /// Optimisation: `Improved` messages received that improved on the
    /// incumbent (the others came too late to).
    pub(crate) improvements: u64,
    /// Optimisation: `Incumbent` messages sent to other ranks.
    pub(crate) incumbent_messages: u64,
}

impl std::fmt::Display for MasterStats {
    /// The master's account as `--stats` prints it: rank 0's (the root's)
    /// by default, a group master's with `{:#}` (what it sent goes to its
    /// ranks and the root, and its `Hungry` messages to the root); with
    /// the incumbent's messages where the run had any.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let m = self;
        if f.alternate() {
            write!(
                f,
                "{} messages sent to its ranks and the root, {} work messages ({} prefixes dealt), {} Hungry sent to the root",
                m.messages_sent, m.work_messages, m.prefixes_dealt, m.hungers
            )?;
        } else {
            write!(
                f,
                "{} initial prefixes, {} messages sent to other ranks, {} work messages ({} prefixes dealt), {} Hungry handled",
                m.initial_prefixes, m.messages_sent, m.work_messages, m.prefixes_dealt, m.hungers
            )?;
        }
        let to = if f.alternate() {
            ""
        } else {
            ", victim to thief"
        };
        write!(
            f,
            ", {} donation requests ({} donations of {} prefixes{to}; {} messages held back behind one), {} direct steals ({} prefixes)",
            m.donation_requests,
            m.donations_routed,
            m.prefixes_returned,
            m.held_back,
            m.steals,
            m.prefixes_stolen
        )?;
        if m.improvements > 0 || m.incumbent_messages > 0 {
            write!(
                f,
                "; incumbent: {} improvements, {} Incumbent messages to other ranks",
                m.improvements, m.incumbent_messages
            )?;
        }
        Ok(())
    }
}

/// Orders victims: dealt work longest ago first, then lowest.
type VictimKey = (u64, usize);

/// Who a donation is asked for: a child, or (a group's master) a rank of
/// another group, for which the root asked this group to donate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Thief {
    Child(usize),
    Foreign,
}

/// A group's master: the root's request that the group donate to `receiver`,
/// a rank of another group.
#[derive(Debug, Clone, Copy)]
struct ForeignThief {
    receiver: u32,
    /// A child of this group owes the donation.
    has_victim: bool,
}

/// Every structure the master consults per request is indexed, so that a
/// request costs O(log ranks), not O(ranks) (see `master_bench.rs`).
pub(super) struct Master {
    /// The work not yet dealt, each parcel with its place in the order the
    /// master received it (see [`Master::take`]).
    pool: VecDeque<(u64, Parcel)>,
    /// The place the next parcel received takes.
    received: u64,
    /// Deals keep the pool's order across the children
    /// ([`Master::keeping_order`]).
    keeps_order: bool,
    ranks: Vec<RankState>,
    /// Waiting ranks with no donation asked for them, in the order they
    /// asked (entries of ranks since served or given a victim are skipped).
    to_serve: VecDeque<usize>,
    /// Hungry ranks with no donation asked for them, in the order they
    /// said so: served after every waiting rank.
    to_feed: VecDeque<usize>,
    waiting: usize,
    /// Busy ranks that owe no donation: the possible victims of a
    /// waiting thief.
    victims: BTreeSet<VictimKey>,
    /// Those of them that are not hungry: the possible victims of a
    /// hungry thief.
    sated: BTreeSet<VictimKey>,
    /// A group's master: when every child waits and the pool is empty, the
    /// group asks its parent for work instead of ending the run.
    upward: bool,
    /// A group's master: the root's open request for a donation.
    foreign: Option<ForeignThief>,
    /// What a `DonateRequest` adds to a child's index to name it: a
    /// group's master names the thief by its rank (its group's first rank
    /// plus its index); the root names a group by its index.
    offset: usize,
    limit: Option<u64>,
    found: u64,
    /// Optimisation: the least objective that improves on the incumbent.
    floor: u64,
    terminated_at: Option<Instant>,
    /// Depth of the initial prefixes (they all have the same).
    initial_depth: u32,
    /// A moving average of the time from a `DonateRequest` to its
    /// `Donated` (none before the first).
    round_trip: Option<Duration>,
    /// Ranks dealt work so far, from the pool or by a donation (orders
    /// victims by the age of their work).
    deals: u64,
    /// The root of groups: each child's ranks (its share of a deal is its
    /// share of them); empty where every child is one rank.
    weights: Vec<usize>,
    /// Their sum (the children's count where unweighted).
    total_weight: usize,
    pub(crate) stats: MasterStats,
    /// Round trips a victim must have worked before it is asked
    /// (`VICTIM_MIN_AGE_IN_ROUND_TRIPS`, or the group's).
    min_age: u32,
}

impl Master {
    /// A master for `ranks` children with the initial prefixes. Every
    /// child, the master's own rank (or group) included, starts busy and
    /// announces itself with an `AskForWork`.
    pub(super) fn new(ranks: usize, initial: Vec<Parcel>, limit: Option<u64>) -> Self {
        let initial_depth = initial.first().map_or(0, |p| p.depth);
        Master {
            initial_depth,
            stats: MasterStats {
                initial_prefixes: initial.len() as u64,
                ..MasterStats::default()
            },
            received: initial.len() as u64,
            pool: (0..).zip(initial).collect(),
            keeps_order: false,
            ranks: vec![RankState::default(); ranks],
            to_serve: VecDeque::new(),
            to_feed: VecDeque::new(),
            waiting: 0,
            // Every rank starts busy (see above).
            victims: (0..ranks).map(|r| (0, r)).collect(),
            sated: (0..ranks).map(|r| (0, r)).collect(),
            upward: false,
            foreign: None,
            offset: 0,
            limit,
            found: 0,
            floor: 0,
            terminated_at: None,
            round_trip: None,
            deals: 0,
            weights: Vec::new(),
            total_weight: ranks,
            min_age: VICTIM_MIN_AGE_IN_ROUND_TRIPS,
        }
    }

    /// The root of groups: child `c` is a group of `ranks[c]` ranks, and a
    /// deal from the pool gives it that share. (Dealt alike, rank 0's
    /// group of one rank got as many units as a group of 32 and held the
    /// run's tail: simulated UTS T1XL on 1,024 ranks of 16 threads, 82 %
    /// of the workers idle in the tail.)
    pub(super) fn weighted(mut self, ranks: Vec<usize>) -> Self {
        assert_eq!(ranks.len(), self.ranks.len(), "a weight per child");
        self.total_weight = ranks.iter().sum::<usize>().max(1);
        self.weights = ranks;
        self
    }

    /// Deals keep the order of the pool across the children, for a branch
    /// and bound (`engine::policy::keeps_order`): a deal of `b` parcels
    /// to a child holding one share of `s` is the pool's first parcel and
    /// every `s`-th after it, not the first `b`, so that children dealt
    /// side by side walk the front of the order side by side, as the
    /// threads of a rank take its tasks one at a time. Dealt in runs, the
    /// second of 2 ranks walked the second quarter of `brock400_4`'s
    /// prefixes while the first walked the first, with the incumbent of
    /// the start: 31.3M nodes where one rank walks 18.9M.
    pub(super) fn keeping_order(mut self, on: bool) -> Self {
        self.keeps_order = on;
        self
    }

    /// A group's master over `ranks` ranks: it starts with an empty pool,
    /// is dealt work by the root, and never ends the run itself (the root
    /// does, and counts solutions towards a limit).
    pub(super) fn for_group(ranks: usize, first: usize) -> Self {
        Master {
            upward: true,
            offset: first,
            min_age: GROUP_VICTIM_MIN_AGE_IN_ROUND_TRIPS,
            ..Master::new(ranks, Vec::new(), None)
        }
    }

    /// A group's master: whether the group holds no work (its pool is
    /// empty and every rank of it waits). Its `AskForWork` to the root
    /// says so.
    pub(super) fn dry(&self) -> bool {
        self.pool.is_empty() && self.waiting == self.ranks.len()
    }

    /// A group's master: whether a rank of the group waits, or is hungry,
    /// for work that the group cannot give (the pool is empty and no rank
    /// of the group was found to donate for it): the group would take
    /// work from another (`Hungry`). Returns that rank, to name as the
    /// receiver: a waiting one first.
    pub(super) fn starved(&self) -> Option<usize> {
        if !self.pool.is_empty() {
            return None;
        }
        let unserved = |&r: &usize| {
            let s = &self.ranks[r];
            (s.waiting || s.hungry) && !s.has_victim
        };
        let waiting = self.to_serve.iter().copied().find(unserved);
        waiting.or_else(|| self.to_feed.iter().copied().find(unserved))
    }

    /// A rank that waits (to receive a donation for the group), if any.
    pub(super) fn a_waiting_rank(&self) -> Option<usize> {
        self.to_serve
            .iter()
            .copied()
            .find(|&r| self.ranks[r].waiting)
    }

    /// A group's master: work the root dealt the group.
    pub(super) fn refill(
        &mut self,
        parcels: Vec<Parcel>,
        initial_depth: u32,
        now: Instant,
        out: &mut Outbox,
    ) {
        self.initial_depth = initial_depth;
        for parcel in parcels {
            self.pool.push_back((self.received, parcel));
            self.received += 1;
        }
        self.serve(now, out);
    }

    /// A group's master: the root asks the group to donate to `receiver`,
    /// a rank of another group. One request at a time; a later one
    /// replaces it (the root asks again only once the first was answered).
    pub(super) fn on_foreign_request(&mut self, receiver: u32, now: Instant, out: &mut Outbox) {
        if let Some(f) = self.foreign.as_mut().filter(|f| f.has_victim) {
            // Still owed by a child: keep that, for the new receiver.
            f.receiver = receiver;
            return;
        }
        self.foreign = Some(ForeignThief {
            receiver,
            has_victim: false,
        });
        self.serve(now, out);
    }

    /// A group's master: rank `thief` of the group received a donation
    /// from a rank of another group (it was dealt work).
    pub(super) fn on_received(&mut self, thief: usize, now: Instant, out: &mut Outbox) {
        self.dealt(thief, now);
        self.serve(now, out);
    }

    pub(super) fn terminated(&self) -> bool {
        self.terminated_at.is_some()
    }

    /// When the answer became known.
    pub(super) fn terminated_at(&self) -> Option<Instant> {
        self.terminated_at
    }

    /// Running totals the ranks last reported.
    pub(super) fn progress(&self) -> Tally {
        self.ranks.iter().fold(Tally::default(), |t, r| t + r.tally)
    }

    /// Running totals one rank last reported.
    pub(super) fn rank_progress(&self, rank: usize) -> Tally {
        self.ranks[rank].tally
    }

    pub(super) fn on_progress(&mut self, from: usize, tally: Tally) {
        self.ranks[from].tally = tally;
    }

    #[cfg(test)]
    fn pool_len(&self) -> usize {
        self.pool.len()
    }

    /// `AskForWork` from `from`, which had received `dealt` deals (`Work`
    /// and `Donation`) when it asked.
    pub(super) fn on_ask(
        &mut self,
        from: usize,
        tally: Tally,
        dealt: u64,
        now: Instant,
        out: &mut Outbox,
    ) {
        // An `AskForWork` also answers a donation request: the rank has
        // nothing left, and any donation it made arrived before this.
        self.release_thief(from);
        // An ask that crossed work dealt to a hungry rank is not its last:
        // that work reaches it after the ask, and it asks again once it
        // is done (see README.md, "Hunger").
        let crossed = dealt < self.ranks[from].deals_to;
        if !crossed && !self.ranks[from].waiting {
            self.waiting += 1;
        }
        self.update(from, |r| {
            if !crossed {
                r.waiting = true;
                r.hungry = false;
            }
            r.tally = tally;
            r.asks += 1;
        });
        self.enqueue(from);
        self.serve(now, out);
    }

    /// `Hungry` from `from`: it holds work but would take more. Served,
    /// from the pool or by a donation from a rank that is not hungry, after
    /// every waiting rank; a hungry rank is a victim only for a waiting
    /// one, and after every rank that is not hungry.
    pub(super) fn on_hungry(&mut self, from: usize, now: Instant, out: &mut Outbox) {
        if self.ranks[from].waiting || self.terminated() {
            return;
        }
        self.stats.hungers += 1;
        self.update(from, |r| r.hungry = true);
        self.enqueue(from);
        self.serve(now, out);
    }

    /// The master's clock: thieves left waiting for a victim old enough
    /// (see `ask_victims`) are given one once it is, and so is the root's
    /// request for a rank of another group, which is never served from
    /// the pool. Called between messages, about once a millisecond.
    /// (Looked at again only when the group's master next handled an
    /// `AskForWork`, `Hungry` or `Donated` of a rank, or work for the
    /// group, the root's request waited while the group's ranks walked or
    /// waited for donations already asked: simulated UTS T3L on 256 ranks
    /// of one thread in groups of 16, with the root asking victim groups
    /// at once, idled three quarters of the run in its tail;
    /// `bench-results/log/2026-11-to-12-groups.md`, "The root's request on the tick".)
    pub(super) fn on_tick(&mut self, now: Instant, out: &mut Outbox) {
        let thieves = !self.to_serve.is_empty() || !self.to_feed.is_empty();
        let foreign = self.foreign.is_some_and(|f| !f.has_victim);
        if !self.terminated() && ((self.pool.is_empty() && thieves) || foreign) {
            self.ask_victims(now, out);
        }
    }

    /// Rank `from` sent `thief` a donation of `parcels` subtrees, straight
    /// to it: the thief was dealt work, as if the master had dealt it. (The
    /// thief is the one the master asked for, which still waits: a thief
    /// with a victim is not served from the pool, and its later messages
    /// are handled after this one, see `causal.rs`.) `thief` is `None`
    /// when the donation went to a rank of another group (a group's
    /// master answering the root's request).
    pub(super) fn on_donated(
        &mut self,
        from: usize,
        thief: Option<usize>,
        parcels: u64,
        now: Instant,
        out: &mut Outbox,
    ) {
        self.stats.prefixes_returned += parcels;
        self.stats.donations_routed += 1;
        if let Some(asked) = self.ranks[from].asked_time.take() {
            // A moving average over about the last 8 donations.
            let trip = now.saturating_duration_since(asked);
            self.round_trip = Some(self.round_trip.map_or(trip, |t| (t * 7 + trip) / 8));
        }
        match thief {
            Some(thief) => self.dealt(thief, now),
            None => self.foreign = None,
        }
        self.release_thief(from);
        self.serve(now, out);
    }

    /// `rank` no longer owes a donation: the rank it was meant for may be
    /// given a victim again (if it still waits).
    fn release_thief(&mut self, rank: usize) {
        let mut thief = None;
        self.update(rank, |r| {
            r.owes_donation = false;
            thief = r.thief.take();
        });
        match thief {
            Some(Thief::Child(thief)) => {
                self.ranks[thief].has_victim = false;
                self.enqueue(thief);
            }
            Some(Thief::Foreign) => {
                if let Some(f) = &mut self.foreign {
                    f.has_victim = false;
                }
            }
            None => {}
        }
    }

    /// Whether `rank` has worked for fewer than the master's minimum age
    /// in round trips since it was dealt work.
    fn too_young(&self, rank: usize, now: Instant) -> bool {
        match (self.round_trip, self.ranks[rank].served_time) {
            (Some(trip), Some(served)) => {
                now.saturating_duration_since(served) < trip * self.min_age
            }
            _ => false,
        }
    }

    /// The rank's key among the victims, and whether it is sated.
    fn victim_key(&self, rank: usize) -> Option<(VictimKey, bool)> {
        let r = &self.ranks[rank];
        (!r.waiting && !r.owes_donation).then_some(((r.served_at, rank), !r.hungry))
    }

    /// Changes a rank's state, keeping the sets of victims up to date.
    fn update(&mut self, rank: usize, change: impl FnOnce(&mut RankState)) {
        if let Some((key, sated)) = self.victim_key(rank) {
            self.victims.remove(&key);
            if sated {
                self.sated.remove(&key);
            }
        }
        change(&mut self.ranks[rank]);
        if let Some((key, sated)) = self.victim_key(rank) {
            self.victims.insert(key);
            if sated {
                self.sated.insert(key);
            }
        }
    }

    /// The next thief in line, and its victim: the rank dealt work
    /// longest ago among the busy ranks that owe nothing, and for a hungry
    /// thief, among those that are not hungry themselves. `None` when no
    /// thief waits, or when the next has no victim old enough (it stays
    /// first in line).
    fn next_pair(&mut self, now: Instant) -> Option<(Thief, usize)> {
        // The root's request for another group's rank comes after this
        // group's waiting ranks, before its hungry ones.
        let foreign_first = self.foreign.is_some_and(|f| !f.has_victim)
            && !self
                .to_serve
                .iter()
                .any(|&r| self.ranks[r].waiting && !self.ranks[r].has_victim);
        if foreign_first {
            // The rank of another group is served by a rank that is not
            // hungry itself, where one is: it has the most to give.
            let set = if self.sated.is_empty() {
                &self.victims
            } else {
                &self.sated
            };
            return match set.first() {
                Some(&(_, victim)) if !self.too_young(victim, now) => {
                    Some((Thief::Foreign, victim))
                }
                _ => None,
            };
        }
        let thief = self.next_to_serve()?;
        let hungry = self.ranks[thief].hungry && !self.ranks[thief].waiting;
        let set = if hungry { &self.sated } else { &self.victims };
        match set.first() {
            Some(&(_, victim)) if !self.too_young(victim, now) => {
                Some((Thief::Child(thief), victim))
            }
            _ => {
                // Put back, first in its line.
                if hungry {
                    self.ranks[thief].fed_queued = true;
                    self.to_feed.push_front(thief);
                } else {
                    self.ranks[thief].queued = true;
                    self.to_serve.push_front(thief);
                }
                None
            }
        }
    }

    /// Queues a waiting or hungry rank with no victim to be served.
    fn enqueue(&mut self, rank: usize) {
        let r = &mut self.ranks[rank];
        if r.has_victim {
            return;
        }
        if r.waiting && !r.queued {
            r.queued = true;
            self.to_serve.push_back(rank);
        } else if r.hungry && !r.fed_queued {
            r.fed_queued = true;
            self.to_feed.push_back(rank);
        }
    }

    /// The next rank to serve: waiting ranks with no victim, in the order
    /// they asked, then hungry ones, in the order they said so.
    fn next_to_serve(&mut self) -> Option<usize> {
        while let Some(rank) = self.to_serve.pop_front() {
            let r = &mut self.ranks[rank];
            r.queued = false;
            if r.waiting && !r.has_victim {
                return Some(rank);
            }
        }
        while let Some(rank) = self.to_feed.pop_front() {
            let r = &mut self.ranks[rank];
            r.fed_queued = false;
            if r.hungry && !r.waiting && !r.has_victim {
                return Some(rank);
            }
            // Waiting since: it is in the other queue.
        }
        None
    }

    /// Counts `n` solutions towards the mode's limit and returns how many of
    /// them the answer keeps (all of them in modes without a limit).
    pub(super) fn on_solutions(&mut self, n: usize, out: &mut Outbox) -> usize {
        if self.terminated() {
            return 0;
        }
        let keep = match self.limit {
            Some(limit) => (limit.saturating_sub(self.found) as usize).min(n),
            None => n,
        };
        self.found += keep as u64;
        if self.limit.is_some_and(|l| self.found >= l) {
            self.terminate(out);
        }
        keep
    }

    /// Optimisation: starts with `floor` (a target or a checkpoint's
    /// incumbent plus one), and tells every rank of `incumbent` when there
    /// is one.
    pub(super) fn start_floor(&mut self, floor: u64, incumbent: Option<u64>, out: &mut Outbox) {
        self.floor = self.floor.max(floor);
        if let Some(value) = incumbent {
            for rank in 0..self.ranks.len() {
                self.send_incumbent(out, rank, value);
            }
        }
    }

    /// Optimisation: rank `from` found a solution of objective `value`.
    /// Returns whether it improves on the incumbent; then every other rank
    /// is told, and a run with a target ends (the target is the first
    /// floor, so any improvement reaches it).
    pub(super) fn on_improved(&mut self, from: usize, value: u64, out: &mut Outbox) -> bool {
        if !self.on_incumbent(from, value, out) {
            return false;
        }
        self.stats.improvements += 1;
        self.on_solutions(1, out);
        true
    }

    /// Optimisation: `value` is known somewhere; if it improves on the
    /// incumbent, every child but `from` is told (a group's master, of the
    /// root's `Incumbent`: `from` is no child). Returns whether it did.
    pub(super) fn on_incumbent(&mut self, from: usize, value: u64, out: &mut Outbox) -> bool {
        if self.terminated() || value < self.floor {
            return false;
        }
        self.floor = value + 1;
        for rank in (0..self.ranks.len()).filter(|&r| r != from) {
            self.send_incumbent(out, rank, value);
        }
        true
    }

    fn send_incumbent(&mut self, out: &mut Outbox, rank: usize, value: u64) {
        if rank != 0 {
            self.stats.incumbent_messages += 1;
        }
        self.push(out, rank, Message::Incumbent(value));
    }

    /// Stops the run now (a signal, or at a group's master the root's
    /// `Terminate`): every child is told to terminate.
    pub(super) fn interrupt(&mut self, out: &mut Outbox) {
        if !self.terminated() {
            self.terminate(out);
        }
    }

    fn terminate(&mut self, out: &mut Outbox) {
        self.terminated_at = Some(Instant::now());
        for rank in 0..self.ranks.len() {
            self.push(out, rank, Message::Terminate);
        }
    }

    fn push(&mut self, out: &mut Outbox, rank: usize, msg: Message) {
        if rank != 0 {
            self.stats.messages_sent += 1;
        }
        out.push((rank, msg));
    }

    /// Sends `parcels` to a waiting `rank`.
    fn deal(&mut self, out: &mut Outbox, rank: usize, parcels: Vec<Parcel>, now: Instant) {
        self.stats.work_messages += 1;
        self.stats.prefixes_dealt += parcels.len() as u64;
        self.dealt(rank, now);
        let initial_depth = self.initial_depth;
        self.push(
            out,
            rank,
            Message::Work {
                parcels,
                initial_depth,
            },
        );
    }

    /// `rank` holds work from now (dealt by the master or by a victim).
    fn dealt(&mut self, rank: usize, now: Instant) {
        if self.ranks[rank].waiting {
            self.waiting -= 1;
        }
        self.deals += 1;
        let served_at = self.deals;
        self.update(rank, |r| {
            r.waiting = false;
            r.hungry = false;
            r.deals_to += 1;
            r.served_at = served_at;
            r.served_time = Some(now);
        });
    }

    /// Serves waiting ranks from the pool; when the pool runs dry, asks a
    /// busy rank to donate for each waiting rank that has none asked for
    /// it; when nothing is left anywhere, terminates.
    fn serve(&mut self, now: Instant, out: &mut Outbox) {
        if self.terminated() {
            return;
        }
        let n = self.ranks.len();
        while !self.pool.is_empty() {
            let Some(rank) = self.next_to_serve() else {
                // Nobody to serve: only the root's request for another
                // group may want a victim (it is not served from the pool).
                if self.foreign.is_some() {
                    self.ask_victims(now, out);
                }
                return;
            };
            // Half the pool spread over the ranks: big batches while there
            // is plenty, single prefixes near the end. A group takes its
            // ranks' share.
            let weight = self.weights.get(rank).copied().unwrap_or(1);
            let batch = (self.pool.len() * weight)
                .div_ceil(2 * self.total_weight)
                .clamp(1, self.pool.len());
            let parcels = self.take(batch, weight);
            self.deal(out, rank, parcels, now);
        }
        if self.waiting == n {
            if self.upward {
                // The group holds nothing: it asks the root for work, and
                // that ask answers the root's request, if one is open.
                self.foreign = None;
            } else {
                // Pool empty and every rank idle: done (see README.md).
                self.terminate(out);
            }
            return;
        }
        self.ask_victims(now, out);
    }

    /// `batch` parcels of the pool for a child of `weight` (its share of
    /// the children's `total_weight`): the first ones, or, keeping order,
    /// the first and every `stride`-th after it by their places, where
    /// `stride` is how many such shares the children hold. Places, not
    /// positions: after an earlier deal took every other parcel, the next
    /// child takes the ones it left, in order. The pool is scanned only as
    /// far as the batch reaches.
    fn take(&mut self, batch: usize, weight: usize) -> Vec<Parcel> {
        if !self.keeps_order {
            return self.pool.drain(..batch).map(|(_, p)| p).collect();
        }
        let stride = (self.total_weight / weight.max(1)).max(1) as u64;
        let first = self.pool.front().map_or(0, |&(at, _)| at);
        let mut taken = Vec::with_capacity(batch);
        let mut passed = Vec::new();
        while taken.len() < batch {
            let Some((at, parcel)) = self.pool.pop_front() else {
                break;
            };
            if (at - first).is_multiple_of(stride) {
                taken.push(parcel);
            } else {
                passed.push((at, parcel));
            }
        }
        for kept in passed.into_iter().rev() {
            self.pool.push_front(kept);
        }
        taken
    }

    /// Asks busy ranks to donate for the waiting ranks that have no request
    /// out on their behalf, one victim for each thief, thieves in the order
    /// they asked. Victims are busy ranks that owe nothing, those dealt work
    /// longest ago first: in a tree of heavy-tailed subtrees (UTS), a rank
    /// busy for long is likely in a big subtree. (Preferring the ranks that
    /// said they kept most drained one victim's queue a parcel at a time:
    /// N-Queens 17 on 128 ranks, 1,050 master messages a rank, not 89.) A
    /// thief left without a victim waits for one to free up: asking one
    /// victim for several thieves at once, each a share of its work, gave
    /// more and smaller donations (UTS T3L, 64 ranks: 93 master messages a
    /// rank, not 75).
    ///
    /// A victim is asked only once it has worked for
    /// `VICTIM_MIN_AGE_IN_ROUND_TRIPS` donation round trips since it was
    /// dealt its work (`GROUP_VICTIM_MIN_AGE_IN_ROUND_TRIPS` in a group's
    /// master); until then the thief waits (`on_tick` looks again).
    /// A younger rank more often runs dry before the request reaches it (its
    /// `AskForWork` then answers, and the request was a wasted message), and
    /// what it would give is a share of a share, which sends its thief back
    /// soon. With many ranks nearly every busy rank owes a donation, so
    /// without this rule each rank dealt a handful of small subtrees was
    /// asked at once: on UTS T3L at 64 ranks 46 % of requests found the
    /// victim dry. The rule costs nothing where a round trip is short (2
    /// ranks: a millisecond or less).
    fn ask_victims(&mut self, now: Instant, out: &mut Outbox) {
        while let Some((thief, victim)) = self.next_pair(now) {
            let named = match thief {
                Thief::Child(t) => {
                    self.ranks[t].has_victim = true;
                    (t + self.offset) as u32
                }
                Thief::Foreign => {
                    let f = self.foreign.as_mut().expect("paired with a victim");
                    f.has_victim = true;
                    f.receiver
                }
            };
            self.update(victim, |v| {
                v.owes_donation = true;
                v.thief = Some(thief);
                v.asked_time = Some(now);
            });
            self.stats.donation_requests += 1;
            let request = Message::DonateRequest {
                thief: named,
                asks: self.ranks[victim].asks,
            };
            self.push(out, victim, request);
        }
    }
}

#[cfg(test)]
mod test {
    use super::*;

    /// A fixed clock: `at(ms)` is `ms` milliseconds after one instant.
    fn at(ms: u64) -> Instant {
        static ZERO: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        *ZERO.get_or_init(Instant::now) + Duration::from_millis(ms)
    }

    fn p(i: u32) -> Parcel {
        Parcel::named(crate::engine::Prefix(vec![i]))
    }

    fn kinds(out: &Outbox) -> Vec<(usize, &'static str)> {
        out.iter()
            .map(|(r, m)| {
                (
                    *r,
                    match m {
                        Message::Work { .. } => "work",
                        Message::DonateRequest { .. } => "donate",
                        Message::Terminate => "terminate",
                        _ => "other",
                    },
                )
            })
            .collect()
    }

    #[test]
    fn empty_pool_and_all_idle_terminates() {
        let mut m = Master::new(2, vec![], None);
        let mut out = Outbox::new();
        m.on_ask(0, Tally::default(), m.ranks[0].deals_to, at(0), &mut out);
        assert_eq!(kinds(&out), vec![(1, "donate")]);
        assert!(!m.terminated());
        out.clear();
        // Rank 1 runs dry: its ask answers the request.
        m.on_ask(1, Tally::default(), m.ranks[1].deals_to, at(0), &mut out);
        assert!(m.terminated());
        assert_eq!(kinds(&out), vec![(0, "terminate"), (1, "terminate")]);
    }

    /// The root of groups deals each group its ranks' share: rank 0's
    /// group of one rank a sliver, a group of 31 ranks most of the half.
    #[test]
    fn a_group_is_dealt_its_ranks_share() {
        let pool: Vec<Parcel> = (0..640).map(p).collect();
        let mut m = Master::new(2, pool, None).weighted(vec![1, 31]);
        let mut out = Outbox::new();
        m.on_ask(0, Tally::default(), m.ranks[0].deals_to, at(0), &mut out);
        m.on_ask(1, Tally::default(), m.ranks[1].deals_to, at(0), &mut out);
        let dealt: Vec<(usize, usize)> = out
            .iter()
            .filter_map(|(r, msg)| match msg {
                Message::Work { parcels, .. } => Some((*r, parcels.len())),
                _ => None,
            })
            .collect();
        // 640 x 1/64, then 630 x 31/64.
        assert_eq!(dealt, vec![(0, 10), (1, 306)]);
    }

    /// The first prefix of each parcel of each `Work` in `out`, by rank.
    fn dealt_prefixes(out: &Outbox) -> Vec<(usize, Vec<u32>)> {
        out.iter()
            .filter_map(|(r, msg)| match msg {
                Message::Work { parcels, .. } => {
                    Some((*r, parcels.iter().map(|p| p.prefix.0[0]).collect()))
                }
                _ => None,
            })
            .collect()
    }

    /// Keeping order (a branch and bound), ranks dealt side by side take
    /// the front of the pool side by side, every other prefix each, and a
    /// later deal takes what the others left at the front, in order.
    #[test]
    fn deals_that_keep_order_interleave_the_front_of_the_pool() {
        let pool: Vec<Parcel> = (0..16).map(p).collect();
        let mut m = Master::new(2, pool, None).keeping_order(true);
        let mut out = Outbox::new();
        m.on_ask(0, Tally::default(), m.ranks[0].deals_to, at(0), &mut out);
        m.on_ask(1, Tally::default(), m.ranks[1].deals_to, at(0), &mut out);
        // 16 x 1/4, then 12 x 1/4.
        assert_eq!(
            dealt_prefixes(&out),
            vec![(0, vec![0, 2, 4, 6]), (1, vec![1, 3, 5])]
        );
        out.clear();
        m.on_ask(1, Tally::default(), m.ranks[1].deals_to, at(1), &mut out);
        // 9 left, the first 7 still interleaved: 9 x 1/4 is 3.
        assert_eq!(dealt_prefixes(&out), vec![(1, vec![7, 9, 11])]);
        out.clear();
        m.on_ask(0, Tally::default(), m.ranks[0].deals_to, at(2), &mut out);
        assert_eq!(dealt_prefixes(&out), vec![(0, vec![8, 10])]);
        // Without order, runs.
        let pool: Vec<Parcel> = (0..16).map(p).collect();
        let mut m = Master::new(2, pool, None);
        let mut out = Outbox::new();
        m.on_ask(0, Tally::default(), m.ranks[0].deals_to, at(0), &mut out);
        m.on_ask(1, Tally::default(), m.ranks[1].deals_to, at(0), &mut out);
        assert_eq!(
            dealt_prefixes(&out),
            vec![(0, vec![0, 1, 2, 3]), (1, vec![4, 5, 6])]
        );
    }

    /// Two ranks at time 0: rank 0 is dealt the one prefix, then asked to
    /// donate for rank 1.
    fn one_victim_one_thief() -> (Master, Outbox) {
        let mut m = Master::new(2, vec![p(0)], None);
        let mut out = Outbox::new();
        m.on_ask(0, Tally::default(), m.ranks[0].deals_to, at(0), &mut out);
        m.on_ask(1, Tally::default(), m.ranks[1].deals_to, at(0), &mut out);
        assert_eq!(kinds(&out), vec![(0, "work"), (0, "donate")]);
        out.clear();
        (m, out)
    }

    #[test]
    fn a_donation_deals_its_thief_and_frees_the_victim() {
        let (mut m, mut out) = one_victim_one_thief();
        // Rank 0 sent rank 1 two subtrees: rank 1 holds work, rank 0 owes
        // nothing, and nobody waits.
        m.on_donated(0, Some(1), 2, at(0), &mut out);
        assert!(out.is_empty(), "{out:?}");
        assert_eq!(m.pool_len(), 0);
        assert_eq!(m.stats.donations_routed, 1);
        assert_eq!(m.stats.prefixes_returned, 2);
        // Rank 0 runs dry: rank 1 is asked for it, naming the thief and
        // the asks of rank 1 the master has handled (one, at the start).
        m.on_ask(0, Tally::default(), m.ranks[0].deals_to, at(0), &mut out);
        assert_eq!(out, vec![(1, Message::DonateRequest { thief: 0, asks: 1 })]);
        out.clear();
        m.on_ask(1, Tally::default(), m.ranks[1].deals_to, at(0), &mut out);
        assert!(m.terminated());
    }

    #[test]
    fn a_victim_that_runs_dry_frees_its_thief_for_another_victim() {
        let mut m = Master::new(4, vec![], None);
        let mut out = Outbox::new();
        // Ranks 1..3 busy; rank 0 waits and rank 1 is asked for it.
        m.on_ask(0, Tally::default(), m.ranks[0].deals_to, at(0), &mut out);
        assert_eq!(kinds(&out), vec![(1, "donate")]);
        out.clear();
        // Rank 1 had nothing: both wait now, and each gets a victim.
        m.on_ask(1, Tally::default(), m.ranks[1].deals_to, at(0), &mut out);
        assert_eq!(kinds(&out), vec![(2, "donate"), (3, "donate")]);
        let thieves: Vec<_> = out
            .iter()
            .map(|(_, m)| match m {
                Message::DonateRequest { thief, .. } => *thief,
                _ => unreachable!(),
            })
            .collect();
        assert_eq!(thieves, vec![0, 1]);
        out.clear();
        // Both donate, then rank 3 runs dry: the victim for it is rank 2,
        // whose work is the oldest.
        m.on_donated(3, Some(1), 1, at(0), &mut out);
        m.on_donated(2, Some(0), 1, at(0), &mut out);
        assert!(out.is_empty(), "{out:?}");
        m.on_ask(3, Tally::default(), m.ranks[3].deals_to, at(0), &mut out);
        assert_eq!(kinds(&out), vec![(2, "donate")]);
    }

    #[test]
    fn no_termination_while_donated_work_runs() {
        let mut m = Master::new(2, vec![], None);
        let mut out = Outbox::new();
        m.on_ask(1, Tally::default(), m.ranks[1].deals_to, at(0), &mut out); // rank 0 busy, asked to donate
        assert_eq!(kinds(&out), vec![(0, "donate")]);
        out.clear();
        // rank 0 sends rank 1 work, then runs dry.
        m.on_donated(0, Some(1), 1, at(0), &mut out);
        assert!(out.is_empty(), "{out:?}");
        m.on_ask(0, Tally::default(), m.ranks[0].deals_to, at(0), &mut out);
        assert!(!m.terminated(), "rank 1 still works on the donated prefix");
        assert_eq!(kinds(&out), vec![(1, "donate")]);
        out.clear();
        m.on_ask(1, Tally::default(), m.ranks[1].deals_to, at(0), &mut out);
        assert!(m.terminated());
    }

    /// A hungry rank is served from the pool after the waiting ones; its
    /// ask that crossed the work does not count it as waiting, so the run
    /// does not end while that work is on its way.
    #[test]
    fn a_hungry_rank_is_fed_and_its_crossed_ask_ends_nothing() {
        let mut m = Master::new(2, vec![p(0), p(1), p(2), p(3)], None);
        let mut out = Outbox::new();
        m.on_ask(0, Tally::default(), 0, at(0), &mut out);
        assert_eq!(kinds(&out), vec![(0, "work")]);
        out.clear();
        // Rank 0 holds work and is hungry; rank 1 asks. The waiting rank
        // is served first (half the pool spread over the ranks: one).
        m.on_ask(1, Tally::default(), 0, at(0), &mut out);
        m.on_hungry(0, at(0), &mut out);
        assert_eq!(kinds(&out), vec![(1, "work"), (0, "work")]);
        assert_eq!(m.stats.hungers, 1);
        out.clear();
        // Rank 0 had run dry before the second `Work` reached it: its ask
        // counts one deal of two. It still holds work.
        m.on_ask(0, Tally::default(), 1, at(0), &mut out);
        m.on_ask(1, Tally::default(), 1, at(0), &mut out);
        assert!(!m.terminated());
        assert_eq!(kinds(&out), vec![(1, "work")]);
        out.clear();
        // Its last ask: the pool is empty, rank 1 is asked for it.
        m.on_ask(0, Tally::default(), 2, at(0), &mut out);
        assert_eq!(kinds(&out), vec![(1, "donate")]);
        m.on_ask(1, Tally::default(), 2, at(0), &mut out);
        assert!(m.terminated());
    }

    /// With the pool empty, a hungry thief is given only a victim that is
    /// not hungry; a waiting thief takes a hungry one when nothing else is
    /// left.
    #[test]
    fn a_hungry_thief_does_not_rob_a_hungry_rank() {
        let mut m = Master::new(2, vec![], None);
        let mut out = Outbox::new();
        m.on_hungry(0, at(0), &mut out);
        assert_eq!(out, vec![(1, Message::DonateRequest { thief: 0, asks: 0 })]);
        out.clear();
        // Rank 1 is hungry too: the only other rank is hungry itself.
        m.on_hungry(1, at(0), &mut out);
        assert!(out.is_empty(), "{out:?}");
        // Rank 1 runs dry (its ask answers the request): waiting, it robs
        // rank 0, hungry or not; rank 0, hungry, has nobody to rob.
        m.on_ask(1, Tally::default(), 0, at(0), &mut out);
        assert_eq!(out, vec![(0, Message::DonateRequest { thief: 1, asks: 0 })]);
        assert!(!m.terminated());
    }

    #[test]
    fn a_busy_rank_is_asked_once() {
        let mut m = Master::new(3, vec![], None);
        let mut out = Outbox::new();
        m.on_ask(0, Tally::default(), m.ranks[0].deals_to, at(0), &mut out);
        assert_eq!(kinds(&out), vec![(1, "donate")]);
        out.clear();
        m.on_ask(2, Tally::default(), m.ranks[2].deals_to, at(0), &mut out);
        assert!(out.is_empty(), "rank 1 already owes a donation: {out:?}");
        m.on_ask(1, Tally::default(), m.ranks[1].deals_to, at(0), &mut out);
        assert!(m.terminated());
    }

    #[test]
    fn a_victim_is_asked_only_after_some_round_trips_of_work() {
        // No round trip measured yet: rank 0 is asked at once.
        let (mut m, mut out) = one_victim_one_thief();
        // The donation takes 10 ms; rank 1 is dealt it at 10 ms.
        m.on_donated(0, Some(1), 1, at(10), &mut out);
        assert!(out.is_empty(), "{out:?}");
        // Rank 0 runs dry at 20 ms: its victim, rank 1, has worked 10 ms,
        // less than 8 round trips, so rank 0 waits.
        m.on_ask(0, Tally::default(), m.ranks[0].deals_to, at(20), &mut out);
        m.on_tick(at(89), &mut out);
        assert!(out.is_empty(), "{out:?}");
        m.on_tick(at(90), &mut out);
        assert_eq!(kinds(&out), vec![(1, "donate")]);
        out.clear();
        m.on_tick(at(200), &mut out);
        assert!(out.is_empty(), "asked once: {out:?}");
        // Running dry answers the request: both wait, nothing is left.
        m.on_ask(1, Tally::default(), m.ranks[1].deals_to, at(201), &mut out);
        assert!(m.terminated());
    }

    /// A group's master asks a rank of its own for the root's request
    /// once that rank has worked long enough, on its tick: no message of
    /// the group need come first, whether the group's pool is empty or
    /// still holds work (the root's request is not served from it).
    #[test]
    fn the_roots_request_waits_for_an_old_victim_on_the_tick() {
        for (dealt, left) in [(1, 0), (3, 1)] {
            let mut m = Master::for_group(1, 5);
            let mut out = Outbox::new();
            // Rank 5, busy and never dealt work here, is asked at once.
            m.on_foreign_request(99, at(0), &mut out);
            assert_eq!(
                out,
                vec![(0, Message::DonateRequest { thief: 99, asks: 0 })]
            );
            out.clear();
            // Its donation takes 10 ms: a round trip. It runs dry, and the
            // root deals the group work at 20 ms, which the rank gets all
            // or two thirds of.
            m.on_donated(0, None, 1, at(10), &mut out);
            m.on_ask(0, Tally::default(), m.ranks[0].deals_to, at(11), &mut out);
            assert!(m.dry());
            m.refill((0..dealt).map(p).collect(), 1, at(20), &mut out);
            assert_eq!(kinds(&out), vec![(0, "work")]);
            assert_eq!(m.pool_len(), left);
            out.clear();
            // The root asks again at 25 ms: rank 5 has worked 5 ms, less
            // than the group's 2 round trips, until 40 ms.
            m.on_foreign_request(98, at(25), &mut out);
            m.on_tick(at(39), &mut out);
            assert!(out.is_empty(), "{out:?}");
            m.on_tick(at(40), &mut out);
            assert_eq!(
                out,
                vec![(0, Message::DonateRequest { thief: 98, asks: 1 })]
            );
            out.clear();
            m.on_tick(at(100), &mut out);
            assert!(out.is_empty(), "asked once: {out:?}");
        }
    }

    #[test]
    fn limit_terminates_and_trims() {
        let mut m = Master::new(3, vec![p(0), p(1)], Some(2));
        let mut out = Outbox::new();
        assert_eq!(m.on_solutions(1, &mut out), 1);
        assert!(!m.terminated());
        assert_eq!(m.on_solutions(3, &mut out), 1);
        assert!(m.terminated());
        assert_eq!(out.len(), 3);
        assert_eq!(m.on_solutions(1, &mut out), 0);
    }
}
