//! How managers reach each other: MPI in production, channels in tests, nothing
//! for a one-rank run. Messages between one pair of ranks arrive in the order
//! they were sent (MPI's non-overtaking rule; a channel's FIFO order): the
//! termination argument relies on it.

use super::doorbell::{Bell, Doorbell, local_bells};
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::sync::Arc;

/// A point-to-point byte transport between ranks.
pub(super) trait Transport {
    fn rank(&self) -> usize;
    fn size(&self) -> usize;
    /// Sends without blocking on the receiver, and rings its doorbell
    /// where it has one this rank can reach (`doorbell.rs`).
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
    /// This rank's doorbell, which the ranks that share its memory ring
    /// when they send it a message.
    ///
    /// # Safety
    /// The doorbell and its clones must not be read once the transport is
    /// dropped: over MPI the bell lies in a window that the transport frees
    /// then (`mpi_doorbells.rs`).
    unsafe fn doorbell(&self) -> Doorbell {
        Doorbell::none()
    }
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
    bells: Arc<[Bell]>,
}

impl ChannelTransport {
    /// `size` transports, fully connected.
    pub(super) fn mesh(size: usize) -> Vec<ChannelTransport> {
        let (senders, receivers): (Vec<_>, Vec<_>) = (0..size).map(|_| unbounded()).unzip();
        let bells = local_bells(size);
        receivers
            .into_iter()
            .enumerate()
            .map(|(rank, inbox)| ChannelTransport {
                rank,
                peers: senders.clone(),
                inbox,
                bells: bells.clone(),
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
        self.bells[to].ring();
    }
    fn try_recv(&mut self) -> Option<(usize, Vec<u8>)> {
        self.inbox.try_recv().ok()
    }
    fn flush(&mut self) {}
    /// Every rank is a thread of this process.
    fn local_ranks(&self) -> usize {
        self.peers.len()
    }
    unsafe fn doorbell(&self) -> Doorbell {
        Doorbell::local(self.bells.clone(), self.rank)
    }
}

#[cfg(test)]
mod test {
    use super::*;
    use std::sync::atomic::Ordering;

    #[test]
    fn a_send_rings_the_receivers_doorbell_alone() {
        let mut mesh = ChannelTransport::mesh(3);
        // SAFETY: a channel transport's doorbell holds its bells itself.
        let bell = |t: &ChannelTransport| unsafe { t.doorbell() };
        let rung = |t: &ChannelTransport| bell(t).flag().load(Ordering::Relaxed);
        assert!(mesh.iter().all(|t| rung(t) == 0));
        mesh[0].send(2, vec![7]);
        assert_eq!(mesh.iter().map(rung).collect::<Vec<_>>(), [0, 0, 1]);
        // Answered before the look, as a worker's poll does: the message is there.
        bell(&mesh[2]).answer();
        assert_eq!(mesh[2].try_recv(), Some((0, vec![7])));
        assert_eq!(rung(&mesh[2]), 0);
    }
}
