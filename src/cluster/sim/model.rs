//! The simulator's cost model: what a node, a steal, a split, a message
//! and the master's bookkeeping cost on the virtual clock, and what the
//! network adds to a message in flight.

use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;
use serde::Serialize;
use std::collections::HashMap;

/// Costs inside a rank, in nanoseconds of one core.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Costs {
    /// One node of the search (calibrated per puzzle, see
    /// [`calibrate`](super::calibrate)).
    pub node_ns: u64,
    /// Taking a task from a deque or the injector (a steal from another
    /// worker costs twice: the look through the deques before it).
    pub(crate) steal_ns: u64,
    /// Each task a split hands out (its node cloned, a deque push).
    pub(crate) split_ns: u64,
    /// A parked worker woken by new work (a futex wake and a reschedule).
    pub(crate) wake_ns: u64,
    /// Nodes a worker walks between two looks at the rest of the
    /// simulation (the clock's grain: a hungry neighbour is noticed at
    /// most this many nodes late).
    pub quantum_nodes: u64,
    /// A manager's CPU for each message sent or received (MPI's matching
    /// and copy, the encoding): the sender's and the receiver's cost.
    pub message_cpu_ns: u64,
    /// The master's bookkeeping for one message it handles (master-bench).
    pub master_ns: u64,
    /// Starting one helper thread of rank 0's expansion of the root (a
    /// thread spawned, on the spawning thread).
    pub(crate) spawn_ns: u64,
}

impl Costs {
    /// The defaults, with the node cost `node_ns`. Steals, splits and
    /// wake-ups are crossbeam and futex costs on a current x86 core;
    /// `message_cpu_ns` is an MPI send or receive with its encoding (the
    /// managers' CPU over their messages, `--stats`, on 2 ranks here);
    /// `master_ns` is master-bench's time a request at 1,024 ranks.
    pub fn with_node_ns(node_ns: u64) -> Costs {
        let node_ns = node_ns.max(1);
        Costs {
            node_ns,
            steal_ns: 200,
            split_ns: 100,
            wake_ns: 5_000,
            // About 10 µs of walking per step.
            quantum_nodes: (10_000 / node_ns).clamp(16, 100_000),
            message_cpu_ns: 2_000,
            master_ns: 300,
            // Measured: 23 µs for one helper, 48 µs for three, spawned and
            // started on this 2-core VM (AMD EPYC).
            spawn_ns: 16_000,
        }
    }

    /// Rank 0's time to expand the root as `spread` says it was shared:
    /// the nodes on its longest path of work, the helpers' starts (as a
    /// tree: ceil(log2(helpers + 1)) starts in a row, each with the
    /// wake-up of the helper that makes the next), and for each level
    /// shared, each run sent (a microsecond) and a wake-up out and one
    /// back.
    pub(crate) fn expansion_ns(&self, spread: &crate::engine::Spread) -> u64 {
        let helpers = spread.helpers as u64;
        let shared = u64::from(spread.shared_levels);
        let starts = u64::from(crate::engine::start_depth(spread.helpers));
        spread.span * self.node_ns
            + starts * (self.spawn_ns + self.wake_ns)
            + shared * (helpers * 1_000 + 2 * self.wake_ns)
    }

    /// A rank's cost to take in `parcels` (`Work` or a `Donation`): each
    /// parcel decoded (a node), or replayed from the root (a node a level).
    pub(crate) fn parcels_ns(&self, parcels: &[crate::engine::Parcel]) -> u64 {
        parcels
            .iter()
            .map(|p| match p.node {
                Some(_) => self.node_ns,
                None => self.node_ns * u64::from(p.depth).max(1),
            })
            .sum()
    }
}

/// The network between ranks.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Network {
    /// The profile's name (`cluster`, `ethernet`, or `custom`).
    pub name: &'static str,
    /// One-way latency, nanoseconds.
    pub latency_ns: u64,
    /// Bytes a second.
    pub bandwidth: f64,
}

impl Network {
    /// A cluster interconnect (InfiniBand class): 1.5 µs, 10 GB/s.
    pub(crate) const CLUSTER: Network = Network {
        name: "cluster",
        latency_ns: 1_500,
        bandwidth: 10e9,
    };
    /// Ethernet between nodes through the kernel's TCP stack: 50 µs,
    /// 1.25 GB/s (10 GbE).
    pub const ETHERNET: Network = Network {
        name: "ethernet",
        latency_ns: 50_000,
        bandwidth: 1.25e9,
    };

    /// The profile named `name`.
    pub fn named(name: &str) -> Option<Network> {
        match name {
            "cluster" => Some(Network::CLUSTER),
            "ethernet" => Some(Network::ETHERNET),
            _ => None,
        }
    }

    /// The time a message of `bytes` spends in flight.
    pub(crate) fn delay_ns(&self, bytes: usize) -> u64 {
        self.latency_ns + (bytes as f64 / self.bandwidth * 1e9) as u64
    }
}

/// Messages in flight: the model's delay, stretched by a seeded jitter,
/// and MPI's order between each pair of ranks (no message overtakes an
/// earlier one on the same channel).
pub(super) struct Wires {
    network: Network,
    jitter: f64,
    rng: XorShiftRng,
    /// The latest arrival on each (from, to) channel.
    last: HashMap<(usize, usize), u64>,
}

impl Wires {
    pub(super) fn new(network: Network, jitter: f64, seed: u64) -> Wires {
        Wires {
            network,
            jitter,
            rng: XorShiftRng::seed_from_u64(seed),
            last: HashMap::new(),
        }
    }

    /// When a message of `bytes` sent at `at` from `from` reaches `to`.
    pub(super) fn arrival(&mut self, from: usize, to: usize, bytes: usize, at: u64) -> u64 {
        let mut delay = self.network.delay_ns(bytes);
        if self.jitter > 0.0 {
            let stretch: f64 = self.rng.random::<f64>() * self.jitter;
            delay += (delay as f64 * stretch) as u64;
        }
        let last = self.last.entry((from, to)).or_insert(0);
        let arrival = (at + delay).max(*last);
        *last = arrival;
        arrival
    }
}
