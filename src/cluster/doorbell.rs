//! Doorbells: a flag per rank, in memory that the ranks of one machine
//! share, which a sender sets when it has sent the rank a message. The
//! rank's busy workers load their own flag at every look at their context
//! (every 16 nodes, `engine/pool/poll.rs`) and poll the transport at once
//! when it is set, where without it they poll only on their clock, every
//! 20 µs. So a request for work reaches a busy victim on the same machine
//! within a look, and the workers pay a load of a cache line a look, not
//! the transport's probes.
//!
//! A bell is only a hint: the message itself still travels by the
//! transport, and a rank whose bell was missed (rung between a poll's
//! clearing it and its probe, or by a rank on another machine, which has
//! no bell to ring) sees the message at its next timed poll, as before
//! (`cluster/README.md`, "Noticing a message").
//!
//! Over MPI the flags are an MPI-3 shared-memory window on each machine's
//! ranks (`mpi_doorbells.rs`); between ranks that are threads of one
//! process (tests, `run_threaded`), an array of them.

use crate::engine::SILENT;
#[cfg(feature = "mpi")]
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

/// One rank's flag, alone on its cache lines, so that ringing one rank
/// does not disturb the looks of another.
#[repr(align(128))]
#[derive(Default)]
pub(super) struct Bell(AtomicU32);

/// The bytes of one rank's flag in shared memory.
#[cfg(feature = "mpi")]
pub(super) const BELL_BYTES: usize = std::mem::size_of::<Bell>();

impl Bell {
    /// Tells the rank that a message has been sent to it. Release: the
    /// ring comes after the send in every thread's view.
    pub(super) fn ring(&self) {
        self.0.store(1, Ordering::Release);
    }
}

/// A rank's own bell, as its link and its workers hold it.
#[derive(Clone)]
pub(crate) struct Doorbell(Own);

#[derive(Clone)]
enum Own {
    /// No bell: nobody rings this rank (a one-rank run, a transport
    /// without shared memory); the engine's silent flag.
    None,
    /// One of the bells of ranks that are threads of one process.
    Local(Arc<[Bell]>, usize),
    /// A bell in an MPI shared-memory window.
    #[cfg(feature = "mpi")]
    Shared(NonNull<Bell>),
}

// SAFETY: a `Shared` bell points into an MPI shared-memory window, which
// `Doorbell::shared`'s caller guarantees is not freed while the doorbell
// or a clone of it is read; the flag is an atomic, which any thread (of
// any process) may load and store at once. The other kinds are `Send` of
// themselves.
#[cfg(feature = "mpi")]
unsafe impl Send for Doorbell {}
// SAFETY: as for `Send`: the bell is only read and written as an atomic.
#[cfg(feature = "mpi")]
unsafe impl Sync for Doorbell {}

impl Doorbell {
    /// A bell nobody rings.
    pub(crate) fn none() -> Doorbell {
        Doorbell(Own::None)
    }

    /// Bell `index` of `bells`.
    pub(super) fn local(bells: Arc<[Bell]>, index: usize) -> Doorbell {
        assert!(index < bells.len());
        Doorbell(Own::Local(bells, index))
    }

    /// The bell at `bell`, in a shared-memory window.
    ///
    /// # Safety
    /// `bell` must stay valid while the doorbell or a clone of it is read
    /// (a reference taken from one included).
    #[cfg(feature = "mpi")]
    pub(super) unsafe fn shared(bell: NonNull<Bell>) -> Doorbell {
        Doorbell(Own::Shared(bell))
    }

    /// The flag the workers look at.
    pub(crate) fn flag(&self) -> &AtomicU32 {
        match &self.0 {
            Own::None => &SILENT,
            Own::Local(bells, index) => &bells[*index].0,
            // SAFETY: valid while `self` is read (`Doorbell::shared`'s
            // contract), and only ever used as an atomic.
            #[cfg(feature = "mpi")]
            Own::Shared(bell) => unsafe { &bell.as_ref().0 },
        }
    }

    /// Takes the ring, before the transport is looked at: a message sent
    /// after this rings again. A silent bell is only read, so that the
    /// rank's threads share its cache line until someone rings; a rung
    /// one is cleared by a swap, SeqCst, so that the probes that follow
    /// are not read before it is cleared. A ring after the load stays.
    pub(crate) fn answer(&self) {
        let flag = self.flag();
        if flag.load(Ordering::Relaxed) != 0 {
            flag.swap(0, Ordering::SeqCst);
        }
    }
}

/// The bells of `ranks` ranks that are threads of one process.
pub(super) fn local_bells(ranks: usize) -> Arc<[Bell]> {
    (0..ranks).map(|_| Bell::default()).collect()
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn a_ring_is_seen_once_answered_it_is_silent() {
        let bells = local_bells(3);
        let mine = Doorbell::local(bells.clone(), 1);
        assert_eq!(mine.flag().load(Ordering::Relaxed), 0);
        bells[1].ring();
        assert_eq!(bells[0].0.load(Ordering::Relaxed), 0, "the wrong rank rang");
        assert_eq!(mine.flag().load(Ordering::Relaxed), 1);
        mine.answer();
        assert_eq!(mine.flag().load(Ordering::Relaxed), 0);
        assert_eq!(Doorbell::none().flag().load(Ordering::Relaxed), 0);
    }

    #[test]
    fn bells_sit_on_cache_lines_of_their_own() {
        let bells = local_bells(2);
        let a = &bells[0] as *const Bell as usize;
        let b = &bells[1] as *const Bell as usize;
        assert!(b - a >= 128 && a.is_multiple_of(128), "{a:#x} {b:#x}");
    }
}
