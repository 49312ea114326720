//! The doorbells (`doorbell.rs`) of one machine's ranks over MPI: an MPI-3
//! shared-memory window, allocated collectively over the machine's ranks
//! (`MPI_Comm_split_type`'s shared communicator) when MPI starts, each
//! rank's bell on cache lines of its own, and freed collectively at the
//! orderly finish. With `mpi_transport.rs`, the only code that calls MPI.
//!
//! The bells are read and written as atomics straight in the window, with
//! no `MPI_Win_lock_all` or `MPI_Win_sync`: MPI's unified memory model for
//! shared windows, which Open MPI and MPICH give on every machine they
//! share memory on, makes a store visible to the other processes as the
//! processor's own coherence does. A bell is only a hint besides: a ring
//! that came late or never is made up by the next timed poll.

use super::doorbell::{BELL_BYTES, Bell, Doorbell};
use mpi::collective::CommunicatorCollectives;
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::topology::{Communicator, SimpleCommunicator};
use std::ptr::NonNull;

/// The doorbells of this machine's ranks.
pub(super) struct Bells {
    /// The ranks of this machine.
    node: SimpleCommunicator,
    window: ffi::MPI_Win,
    /// Each rank's bell by its rank in the world, where it is on this
    /// machine.
    of_rank: Vec<Option<NonNull<Bell>>>,
    /// This rank's own.
    mine: NonNull<Bell>,
}

/// The first place for a bell in a rank's part of the window, which MPI
/// aligns less strictly than a bell. Each process rounds the address in
/// its own mapping of the window; all of them pick the same bytes because
/// the window is mapped at a page boundary in each (`mmap`), so that an
/// address's remainder by a bell's alignment (128 bytes, under a page) is
/// its offset's in the window, the same in every process.
fn aligned(base: *mut Bell) -> *mut Bell {
    let skip = (base as usize).next_multiple_of(std::mem::align_of::<Bell>()) - base as usize;
    base.cast::<u8>().wrapping_add(skip).cast()
}

impl Bells {
    /// Allocates this machine's bells, collectively over the world's ranks
    /// (each machine's among themselves), when MPI starts.
    pub(super) fn new(world: &SimpleCommunicator) -> Result<Bells, String> {
        let node = world.split_shared(world.rank());
        let mut world_ranks = vec![0i32; node.size() as usize];
        node.all_gather_into(&world.rank(), &mut world_ranks[..]);
        let mut base: *mut Bell = std::ptr::null_mut();
        // SAFETY: a null handle for MPI to fill.
        let mut window: ffi::MPI_Win = unsafe { ffi::RSMPI_WIN_NULL };
        // SAFETY: MPI_Win_allocate_shared is collective over `node`, which
        // every rank of this machine reaches here, once each (`init` runs
        // once a process, before any message); `base` and `window` are
        // valid places for its results. Two bells' bytes, so that one
        // aligned bell fits whatever MPI's alignment.
        let code = unsafe {
            ffi::MPI_Win_allocate_shared(
                (2 * BELL_BYTES) as ffi::MPI_Aint,
                1,
                ffi::RSMPI_INFO_NULL,
                node.as_raw(),
                &mut base as *mut *mut Bell as *mut std::ffi::c_void,
                &mut window,
            )
        };
        // MPI's default handler ends the job on a failure; an MPI whose
        // handler returns fails the run here, on every rank alike.
        if code != ffi::MPI_SUCCESS as i32 || base.is_null() {
            return Err(format!(
                "MPI could not allocate the ranks' shared doorbells (error {code})"
            ));
        }
        let mut of_rank = vec![None; world.size() as usize];
        for (local, &world_rank) in world_ranks.iter().enumerate() {
            let mut size: ffi::MPI_Aint = 0;
            let mut unit = 0;
            let mut at: *mut Bell = std::ptr::null_mut();
            // SAFETY: `window` is the shared window just allocated over
            // `node`, `local` one of its ranks, and the out-parameters are
            // valid places for its size, unit and base.
            let code = unsafe {
                ffi::MPI_Win_shared_query(
                    window,
                    local as i32,
                    &mut size,
                    &mut unit,
                    &mut at as *mut *mut Bell as *mut std::ffi::c_void,
                )
            };
            if code == ffi::MPI_SUCCESS as i32 && size as usize >= 2 * BELL_BYTES {
                of_rank[world_rank as usize] = NonNull::new(aligned(at));
            }
        }
        let mine = NonNull::new(aligned(base)).expect("a non-null base rounded up");
        // SAFETY: a bell's place in the window's memory for this rank (two
        // bells long: one aligned bell fits), which no rank touches before
        // the barrier below: a silent bell is written before anyone rings.
        unsafe { mine.as_ptr().write(Bell::default()) };
        node.barrier();
        Ok(Bells {
            node,
            window,
            of_rank,
            mine,
        })
    }

    /// Rank `rank`'s bell, where it is on this machine.
    pub(super) fn of(&self, rank: usize) -> Option<&Bell> {
        // SAFETY: the pointers are into the window, which lives as long as
        // `self`; a bell is only ever used as an atomic.
        self.of_rank[rank].map(|bell| unsafe { bell.as_ref() })
    }

    /// This rank's own bell, for its link and workers.
    ///
    /// # Safety
    /// The doorbell and its clones must not be read once `self` is freed
    /// ([`free`](Bells::free)).
    pub(super) unsafe fn doorbell(&self) -> Doorbell {
        // SAFETY: the window lives as long as `self`, and this function's
        // caller keeps the doorbell within that.
        unsafe { Doorbell::shared(self.mine) }
    }

    /// Frees the window, collectively over this machine's ranks, each at
    /// its orderly finish, after its workers stopped.
    pub(super) fn free(mut self) {
        self.node.barrier();
        // SAFETY: `window` was allocated by `new` and is freed once, here;
        // no thread of this rank reads a bell any more (its workers have
        // stopped: `MpiTransport`'s drop), and the barrier above waits
        // until no rank of this machine rings one.
        unsafe { ffi::MPI_Win_free(&mut self.window) };
    }
}
