//! The only code in hysolve that calls MPI.
//!
//! Sends are non-blocking (`MPI_Isend`): two managers sending large messages
//! to each other at once would deadlock with blocking sends under the
//! rendezvous protocol. Receives are `MPI_Improbe` + matched receive, polled
//! by the rank's busy workers on their clock and by its manager with an
//! adaptive sleep (`link.rs`), because OpenMPI's blocking receive
//! busy-waits and would burn a core. Any thread of the rank may call MPI,
//! one at a time (the link's lock): MPI must grant `Serialized`.
//!
//! The ranks of one machine share their doorbells (`doorbell.rs`) in an
//! MPI-3 shared-memory window (`mpi_doorbells.rs`): a send to a rank of
//! the same machine rings its bell.

use super::doorbell::Doorbell;
use super::mpi_doorbells::Bells;
use super::transport::Transport;
use mpi::Threading;
use mpi::environment::Universe;
use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
use mpi::request::{Request, StaticScope};
use mpi::topology::{Communicator, SimpleCommunicator};

/// A send in flight and the buffer it reads from.
struct InFlight {
    request: Request<'static, [u8], StaticScope>,
    /// The buffer, leaked from a `Box` so that MPI may read it while the
    /// request runs; given back to a `Box` once the request has completed.
    buffer: *mut [u8],
}

/// MPI_COMM_WORLD as a [`Transport`].
pub(super) struct MpiTransport {
    world: SimpleCommunicator,
    in_flight: Vec<InFlight>,
    /// The doorbells of this machine's ranks; taken when the window is
    /// freed, or forgotten when the run is abandoned.
    bells: Option<Bells>,
    /// Finalizes MPI when dropped, last; taken and forgotten when the run
    /// failed here ([`Transport::abandon`]).
    universe: Option<Universe>,
}

impl MpiTransport {
    /// Initializes MPI, on the main thread, which finalizes it too (the
    /// manager's: the transport is dropped there once the workers have
    /// stopped). The rank's threads take turns at MPI (the link's lock),
    /// so `Serialized` suffices.
    pub(super) fn init() -> Result<Self, String> {
        let (universe, level) = mpi::initialize_with_threading(Threading::Serialized)
            .ok_or_else(|| "MPI was already initialized".to_string())?;
        if level < Threading::Serialized {
            return Err(format!(
                "the MPI library grants only {level:?} threading; hysolve needs Serialized"
            ));
        }
        let world = universe.world();
        let bells = Some(Bells::new(&world)?);
        Ok(MpiTransport {
            world,
            in_flight: Vec::new(),
            bells,
            universe: Some(universe),
        })
    }

    /// Completes finished sends and frees their buffers.
    fn reap(&mut self) {
        let mut still = Vec::with_capacity(self.in_flight.len());
        for f in self.in_flight.drain(..) {
            match f.request.test() {
                Ok(_) => {
                    // SAFETY: `buffer` came from `Box::into_raw` in `send`
                    // and is freed only here, once. The request that read it
                    // has completed (MPI_Test returned true), so MPI no
                    // longer touches it, and the only other reference to it,
                    // the `&'static [u8]` given to `immediate_send`, went
                    // away with the request.
                    drop(unsafe { Box::from_raw(f.buffer) });
                }
                Err(request) => still.push(InFlight {
                    request,
                    buffer: f.buffer,
                }),
            }
        }
        self.in_flight = still;
    }
}

// SAFETY: the transport moves to no other thread than the rank's own:
// it lives in the rank's link (`link.rs`), behind a lock, and is used
// only through `&mut self`, so MPI is called by one thread at a time, as
// `Threading::Serialized` (which `init` demands) allows from any thread.
// The raw buffers of sends in flight are owned by the transport alone
// (see `send` and `reap`) and go with it. It is dropped, and MPI
// finalized, on the main thread: the manager drops the link after every
// worker has stopped (`RankPool::stop` joins them on `Terminate`), and
// workers hold the link only weakly (an abandoned run finalizes nothing).
unsafe impl Send for MpiTransport {}

impl Transport for MpiTransport {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn send(&mut self, to: usize, bytes: Vec<u8>) {
        self.reap();
        let buffer: *mut [u8] = Box::into_raw(bytes.into_boxed_slice());
        // SAFETY: `buffer` is a valid, uniquely owned allocation; it is
        // neither written nor freed until `reap` sees this request complete.
        let data: &'static [u8] = unsafe { &*buffer };
        let request = self
            .world
            .process_at_rank(to as i32)
            .immediate_send(StaticScope, data);
        self.in_flight.push(InFlight { request, buffer });
        if let Some(bell) = self.bells.as_ref().and_then(|b| b.of(to)) {
            bell.ring();
        }
    }

    fn try_recv(&mut self) -> Option<(usize, Vec<u8>)> {
        self.reap();
        // A second probe where the first found nothing: Open MPI's probe
        // looks for a match before it progresses the shared-memory queues,
        // not after, so a message that arrived while the rank was busy is
        // pulled in by one probe and matched only by the next. A worker
        // polls every 20 µs, so one probe a poll saw each message a poll
        // late: a 64-byte message took 30 µs one way, median, to a
        // receiver that probes every 20 µs between busy spells, and 10 µs
        // with the second probe (`tools/c/mpi-busy-poll.c`, `make
        // pingpong`; `cluster/README.md`, "Noticing a message").
        let world = &self.world;
        let probe = || world.any_process().immediate_matched_probe();
        let (message, status) = probe().or_else(probe)?;
        let (bytes, _) = (message, status).matched_receive_vec::<u8>();
        Some((status.source_rank() as usize, bytes))
    }

    fn abandon(&mut self) {
        // Without MPI_Finalize, which would wait for the other ranks, who
        // wait for this one: the process exits with its error, and the
        // launcher (mpirun: a process that exits without finalizing, or
        // with a non-zero status) ends the job. The doorbells' window and
        // communicator are left alone as well (freeing them is collective),
        // and stay valid for any worker still looking.
        std::mem::forget(self.bells.take());
        std::mem::forget(self.universe.take());
    }

    unsafe fn doorbell(&self) -> Doorbell {
        match &self.bells {
            // SAFETY: the window lives until this transport is dropped
            // (`Bells::free`), after which this function's caller
            // guarantees the doorbell is not read.
            Some(bells) => unsafe { bells.doorbell() },
            None => Doorbell::none(),
        }
    }

    fn flush(&mut self) {
        while !self.in_flight.is_empty() {
            self.reap();
            if !self.in_flight.is_empty() {
                std::thread::sleep(std::time::Duration::from_micros(50));
            }
        }
    }
}

impl Drop for MpiTransport {
    fn drop(&mut self) {
        if self.universe.is_none() {
            // Abandoned: MPI is never finalized, and the buffers of sends
            // still in flight stay allocated (MPI may still read them)
            // until the process exits, moments later.
            return;
        }
        // Finalizing with sends in flight would free buffers MPI still reads.
        self.flush();
        if std::thread::panicking() {
            // Unwinding from a panic, the workers may still be looking at
            // the bell: leave the window as an abandoned run does.
            std::mem::forget(self.bells.take());
        } else if let Some(bells) = self.bells.take() {
            bells.free();
        }
    }
}
