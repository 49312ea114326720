//! How managers reach each other: MPI in production, channels in tests, nothing
//! for a one-rank run. Messages between one pair of ranks arrive in the order
//! they were sent (MPI's non-overtaking rule; a channel's FIFO order): the
//! termination argument relies on it.

use crossbeam_channel::{Receiver, Sender, unbounded};

/// A point-to-point byte transport between ranks.
pub(super) trait Transport {
    fn rank(&self) -> usize;
    fn size(&self) -> usize;
    /// Sends without blocking on the receiver.
    fn send(&mut self, to: usize, bytes: Vec<u8>);
    /// A message, if one has arrived.
    fn try_recv(&mut self) -> Option<(usize, Vec<u8>)>;
    /// Waits until every message sent has left this rank.
    fn flush(&mut self);
    /// The ranks on this machine, this one among them (the launcher's
    /// word): how many threads share its processors.
    fn local_ranks(&self) -> usize {
        super::launcher::local_ranks()
    }
    /// The run failed on this rank: leave without the orderly goodbye
    /// (`MPI_Finalize` waits for every rank, and the others wait for this
    /// one's messages forever), so that the process exits with its error
    /// and the launcher ends the job.
    fn abandon(&mut self) {}
}

/// The transport of a one-rank run: there is nobody to talk to.
pub(super) struct Solo;

impl Transport for Solo {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn send(&mut self, to: usize, _bytes: Vec<u8>) {
        unreachable!("a one-rank run sends nothing (to rank {to})")
    }
    fn try_recv(&mut self) -> Option<(usize, Vec<u8>)> {
        None
    }
    fn flush(&mut self) {}
}

/// In-process ranks joined by channels: one thread per rank stands in for
/// one process per rank, so the protocol can be tested without mpirun.
pub(super) struct ChannelTransport {
    rank: usize,
    peers: Vec<Sender<(usize, Vec<u8>)>>,
    inbox: Receiver<(usize, Vec<u8>)>,
}

impl ChannelTransport {
    /// `size` transports, fully connected.
    pub(super) fn mesh(size: usize) -> Vec<ChannelTransport> {
        let (senders, receivers): (Vec<_>, Vec<_>) = (0..size).map(|_| unbounded()).unzip();
        receivers
            .into_iter()
            .enumerate()
            .map(|(rank, inbox)| ChannelTransport {
                rank,
                peers: senders.clone(),
                inbox,
            })
            .collect()
    }
}

impl Transport for ChannelTransport {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.peers.len()
    }
    fn send(&mut self, to: usize, bytes: Vec<u8>) {
        // A peer that has finished may have dropped its inbox; its last
        // messages were already answered, so losing these is harmless.
        let _ = self.peers[to].send((self.rank, bytes));
    }
    fn try_recv(&mut self) -> Option<(usize, Vec<u8>)> {
        self.inbox.try_recv().ok()
    }
    fn flush(&mut self) {}
    /// Every rank is a thread of this process.
    fn local_ranks(&self) -> usize {
        self.peers.len()
    }
}
