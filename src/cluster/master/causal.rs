//! The order in which the master handles what ranks tell it.
//!
//! A donation goes from its victim straight to its thief, and the victim
//! tells the master with a `Donated`. Nothing orders messages of different
//! senders, so a thief's `AskForWork` or `UnitDone`, sent after it walked
//! the donation, can reach the master before the victim's `Donated`: the
//! master would take the thief for idle while it had not yet counted the
//! work dealt to it, or close a unit the victim still holds part of.
//!
//! So each rank counts the `Donation`s it has received, and the messages
//! that depend on them carry that count (`Message::after`). The master holds
//! a rank's messages back, in their order, until it has handled as many
//! `Donated` naming that rank; every message it handles then comes after
//! the donations its sender had received, as when donations went through
//! the master. Every `Donated` a held message waits for was sent before it
//! (its victim sent the `Donation` first), so none waits forever.
//!
//! A count stands for the donations it counts only if the master hears of
//! them in the order the thief received them. A master pairs a thief with
//! one victim at a time (it waits for the `Donated` before it pairs the
//! thief again), so donations it paired reach the thief in that order. In
//! a run of groups, a rank of a group can also be the receiver the root
//! named for a donation from another group, paired by the root while its
//! own group's master pairs it with a victim of the group: the two may
//! cross. Counted together, a thief that had received the group's
//! donation sent a `UnitDone` the master admitted on the other's
//! `Donated`, before the one that carried its unit; the unit closed while
//! the victim still held a parcel of it (the simulator, 16 ranks in groups
//! of 4 with checkpoints, seed 8 of `tests/sim.rs`'s resumed groups, once
//! idle workers looked at once). So the two kinds are counted apart
//! ([`Received`]): each is paired one at a time.

use crate::cluster::protocol::{Message, Received};
use std::collections::VecDeque;

/// Messages from ranks, in an order the master may handle them.
pub(in crate::cluster) struct CausalOrder {
    /// Per rank: the `Donated` naming it handled so far, by kind.
    announced: Vec<Received>,
    /// Per rank: its messages held back, oldest first.
    held: Vec<VecDeque<Message>>,
}

impl CausalOrder {
    pub(in crate::cluster) fn new(ranks: usize) -> CausalOrder {
        CausalOrder {
            announced: vec![Received::default(); ranks],
            held: (0..ranks).map(|_| VecDeque::new()).collect(),
        }
    }

    /// A message from `from`: returned when the master may handle it now;
    /// otherwise kept until the donations it depends on are handled (and
    /// so is every later message of `from`, to keep their order).
    pub(in crate::cluster) fn admit(&mut self, from: usize, msg: Message) -> Option<Message> {
        let waits = msg.after().is_some_and(|a| !a.within(self.announced[from]));
        if waits || !self.held[from].is_empty() {
            self.held[from].push_back(msg);
            return None;
        }
        Some(msg)
    }

    /// The master has handled a `Donated` naming `thief`, of a victim
    /// `outside` its group or in it: the messages of `thief` this
    /// releases, in order.
    pub(in crate::cluster) fn announced(&mut self, thief: usize, outside: bool) -> Vec<Message> {
        self.announced[thief].add(outside);
        let mut released = Vec::new();
        let held = &mut self.held[thief];
        while let Some(msg) = held.front() {
            if msg
                .after()
                .is_some_and(|a| !a.within(self.announced[thief]))
            {
                break;
            }
            released.extend(held.pop_front());
        }
        released
    }

    /// The ranks it orders.
    pub(in crate::cluster) fn ranks(&self) -> usize {
        self.announced.len()
    }

    /// Messages held back now, over all ranks.
    #[cfg(test)]
    pub(in crate::cluster) fn held(&self) -> usize {
        self.held.iter().map(VecDeque::len).sum()
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use crate::engine::Tally;

    fn ask(in_group: u64) -> Message {
        asked(in_group, 0)
    }

    fn asked(in_group: u64, outside: u64) -> Message {
        Message::AskForWork {
            tally: Tally::default(),
            after: Received { in_group, outside },
            dealt: 0,
        }
    }

    #[test]
    fn a_message_waits_for_the_donations_its_sender_had_received() {
        let mut order = CausalOrder::new(3);
        // Rank 1 has received nothing: its ask goes through.
        assert_eq!(order.admit(1, ask(0)), Some(ask(0)));
        // Rank 2 walked one donation and asks before its victim's
        // `Donated` arrived: held, and so is what follows it.
        assert_eq!(order.admit(2, ask(1)), None);
        assert_eq!(order.admit(2, Message::Progress(Tally::default())), None);
        assert_eq!(order.held(), 2);
        // Other ranks are not held up.
        assert_eq!(order.admit(1, ask(0)), Some(ask(0)));
        // The `Donated` naming rank 2 releases both, in order.
        assert_eq!(
            order.announced(2, false),
            vec![ask(1), Message::Progress(Tally::default())]
        );
        assert_eq!(order.held(), 0);
        assert_eq!(order.admit(2, ask(1)), Some(ask(1)));
    }

    #[test]
    fn each_donated_releases_only_what_it_allows() {
        let mut order = CausalOrder::new(2);
        assert_eq!(order.admit(1, ask(1)), None);
        assert_eq!(order.admit(1, ask(2)), None);
        assert_eq!(order.announced(1, false), vec![ask(1)]);
        assert_eq!(order.held(), 1);
        assert_eq!(order.announced(1, false), vec![ask(2)]);
        // A donation announced before its thief's messages arrive holds
        // nothing back.
        assert!(order.announced(0, false).is_empty());
        assert_eq!(order.admit(0, ask(1)), Some(ask(1)));
    }

    #[test]
    fn donations_of_the_two_kinds_release_only_their_own() {
        let mut order = CausalOrder::new(2);
        // Rank 1 walked a donation of its group and sent its ask; the
        // `Donated` of another group's victim, still on its way to rank 1,
        // reaches the master first: it releases nothing.
        assert_eq!(order.admit(1, asked(1, 0)), None);
        assert!(order.announced(1, true).is_empty());
        assert_eq!(order.held(), 1);
        // Its own group's `Donated` does.
        assert_eq!(order.announced(1, false), vec![asked(1, 0)]);
        // Then rank 1 received the other group's donation too.
        assert_eq!(order.admit(1, asked(1, 1)), Some(asked(1, 1)));
        assert_eq!(order.admit(1, asked(2, 1)), None);
        assert_eq!(order.announced(1, false), vec![asked(2, 1)]);
    }
}
