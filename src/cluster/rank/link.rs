//! A rank's link: its transport and its state machine behind one lock,
//! pumped by whichever thread of the rank gets there first. Busy workers
//! pump it on their clock (`engine/pool/poll.rs`), so a busy rank sees a
//! message within microseconds without a thread of its own waiting for
//! a core; the manager pumps it when it wakes (an event of the pool, a
//! bell, its pause). A worker handles the rank's side of the protocol
//! (work, donations, requests to donate, steals, incumbents) and leaves
//! the rest to the manager (`ForManager`): the master's and the group
//! master's messages, which it serves with what only it holds, and
//! `Terminate`, which stops the workers themselves.
//!
//! Order: the link takes its own messages, then the transport's, then the
//! pool's events, each in the order they came, under the lock, so the
//! state machine sees every sender's messages and the pool's events in
//! order whoever pumps. What is left for the manager keeps its order too;
//! the rank's side and the masters' sides are different receivers (in a
//! run of groups they are often on different ranks), and the protocol
//! orders nothing between two receivers.

use crate::cluster::doorbell::Doorbell;
use crate::cluster::outcome::RunError;
use crate::cluster::protocol::Message;
use crate::cluster::rank::RankState;
use crate::cluster::rank::route::{Side, side};
use crate::cluster::transport::Transport;
use crate::engine::{Poller, PoolEvent, Prefix, Problem, RankPool};
use crossbeam_channel::{Receiver, Sender};
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::sync::Weak;
use std::time::Instant;

/// What the link leaves to the manager.
#[derive(Debug)]
pub(in crate::cluster) enum ForManager {
    /// `Terminate` (the link takes nothing more until the manager has run it).
    Terminate,
    /// The root's message to this rank's group master.
    Root(Message),
    /// A rank's message to this rank's group master.
    Group(usize, Message),
    /// A rank's message to rank 0's head.
    Head(usize, Message),
    /// Rank 0's own solutions, for its head.
    Solutions {
        unit: Option<Prefix>,
        texts: Vec<String>,
    },
}

pub(in crate::cluster) struct Link<P: Problem, T> {
    pub(in crate::cluster) transport: T,
    pub(in crate::cluster) state: RankState<P, RankPool<P::Node>>,
    events: Receiver<PoolEvent<P::Node>>,
    rank: usize,
    /// This rank runs its group's master.
    group_master: bool,
    /// Messages this rank sent itself (rank 0: between its master and its pool).
    inbox: VecDeque<(usize, Message)>,
    /// What the manager has to do, in order.
    for_manager: VecDeque<ForManager>,
    /// A `Terminate` waits for the manager: take nothing more.
    terminating: bool,
    /// A worker's pump failed: the manager returns the error.
    failed: Option<RunError>,
    /// The rank's doorbell, answered at each pump.
    doorbell: Doorbell,
}

impl<P: Problem, T: Transport> Link<P, T> {
    pub(in crate::cluster) fn new(
        transport: T,
        state: RankState<P, RankPool<P::Node>>,
        events: Receiver<PoolEvent<P::Node>>,
        group_master: bool,
        doorbell: Doorbell,
    ) -> Self {
        Link {
            doorbell,
            rank: transport.rank(),
            transport,
            state,
            events,
            group_master,
            inbox: VecDeque::new(),
            for_manager: VecDeque::new(),
            terminating: false,
            failed: None,
        }
    }

    /// Takes what has come, as far as the rank's side goes; returns how
    /// many messages and events it took.
    pub(in crate::cluster) fn pump(&mut self) -> Result<usize, RunError> {
        // Whoever pumps takes the ring first: a message sent after this
        // rings again, and no worker polls again for what this pump sees.
        self.doorbell.answer();
        let mut taken = 0;
        while !self.terminating {
            let (from, msg) = if let Some(m) = self.inbox.pop_front() {
                m
            } else if let Some((from, bytes)) = self.transport.try_recv() {
                (from, Message::decode(&bytes)?)
            } else if let Ok(event) = self.events.try_recv() {
                self.on_event(event);
                taken += 1;
                continue;
            } else {
                break;
            };
            taken += 1;
            self.take(from, msg)?;
        }
        Ok(taken)
    }

    fn take(&mut self, from: usize, msg: Message) -> Result<(), RunError> {
        tracing::trace!(rank = self.rank, from, msg = ?msg.logged(), "handle");
        match side(self.rank, from, msg, self.group_master)? {
            Side::Rank(msg) => {
                let mut sends = Vec::new();
                let r = self.state.on_message(from, msg, Instant::now(), &mut sends);
                self.state.work_in_pool(Instant::now());
                self.send_all(sends);
                r?;
            }
            Side::Terminate => {
                self.terminating = true;
                self.for_manager.push_back(ForManager::Terminate);
            }
            Side::Root(msg) => self.for_manager.push_back(ForManager::Root(msg)),
            Side::Group(msg) => self.for_manager.push_back(ForManager::Group(from, msg)),
            Side::Head(msg) => self.for_manager.push_back(ForManager::Head(from, msg)),
        }
        Ok(())
    }

    fn on_event(&mut self, event: PoolEvent<P::Node>) {
        if self.state.terminated() {
            return;
        }
        match event {
            // Rank 0's own solutions go to the master without a message.
            PoolEvent::Solutions { unit, texts } if self.rank == 0 => {
                self.for_manager
                    .push_back(ForManager::Solutions { unit, texts });
            }
            event => {
                let mut sends = Vec::new();
                self.state.on_event(event, Instant::now(), &mut sends);
                self.send_all(sends);
            }
        }
    }

    /// Sends messages, delivering the ones for this rank to its own inbox.
    pub(in crate::cluster) fn send_all(
        &mut self,
        sends: impl IntoIterator<Item = (usize, Message)>,
    ) {
        for (to, msg) in sends {
            self.send(to, msg);
        }
    }

    fn send(&mut self, to: usize, msg: Message) {
        tracing::trace!(rank = self.rank, to, msg = ?msg.logged(), "send");
        if to == self.rank {
            self.inbox.push_back((self.rank, msg));
        } else {
            self.state.count_sent();
            self.transport.send(to, msg.encode());
        }
    }

    /// The manager's next task, if any.
    pub(in crate::cluster) fn for_manager(&mut self) -> Option<ForManager> {
        self.for_manager.pop_front()
    }

    /// The manager has run the `Terminate`: the link takes messages again
    /// (rank 0's head and a group's master still hear the ranks' reports).
    pub(in crate::cluster) fn terminated(&mut self) {
        self.terminating = false;
    }

    /// Whether something waits for the manager.
    pub(in crate::cluster) fn wants_manager(&self) -> bool {
        !self.for_manager.is_empty() || self.failed.is_some()
    }

    /// Whether messages to itself wait to be taken.
    pub(in crate::cluster) fn has_inbox(&self) -> bool {
        !self.inbox.is_empty()
    }

    /// The error a worker's pump met, once.
    pub(in crate::cluster) fn failure(&mut self) -> Option<RunError> {
        self.failed.take()
    }
}

/// A worker's turn at its rank's link ([`Poller`]): it pumps it if no
/// other thread is at it, and rings the manager's bell when something is
/// left for the manager.
pub(in crate::cluster) struct WorkerPoll<P: Problem, T> {
    pub(in crate::cluster) link: Weak<Mutex<Link<P, T>>>,
    pub(in crate::cluster) bell: Sender<()>,
    /// Every thread of this machine's ranks has a processor: an idle
    /// worker may look at the link while the rank waits for work.
    pub(in crate::cluster) spin: bool,
    /// The rank's doorbell, which senders on this machine ring (the
    /// link's pump answers it).
    pub(in crate::cluster) doorbell: Doorbell,
}

impl<P: Problem, T: Transport + Send + 'static> Poller for WorkerPoll<P, T> {
    fn poll(&self) -> bool {
        let Some(link) = self.link.upgrade() else {
            self.doorbell.answer();
            return false;
        };
        let Some(mut link) = link.try_lock() else {
            // Another thread is at it (and leaves a ring that came after
            // it answered the doorbell to this worker's clock).
            return self.spin;
        };
        if let Err(e) = link.pump() {
            link.failed.get_or_insert(e);
        }
        let awaits = link.state.awaits_answer() && !link.state.terminated();
        if link.wants_manager() {
            let _ = self.bell.try_send(());
        }
        self.spin && awaits
    }

    fn doorbell(&self) -> &std::sync::atomic::AtomicU32 {
        self.doorbell.flag()
    }
}
