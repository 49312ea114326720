//! The master's microbenchmark: how many requests per second its
//! bookkeeping serves, free of any transport (the master is sans-I/O).
//!
//! A simulated run of `ranks` ranks in the steal phase, the master's
//! hardest: its pool is dealt out, every rank works, and one after another
//! a random busy rank runs dry and asks. Its `AskForWork` makes the master
//! ask a victim, who sends its thief a donation (eight parcels) and tells the
//! master with a `Donated`. Each `AskForWork` and each `Donated` handled is
//! one request.
//! Encoding, MPI and the network are left out: this is the ceiling the
//! master's decisions put on the ranks one master can feed.

use crate::cluster::master::{Master, Outbox};
use crate::cluster::protocol::Message;
use crate::engine::{Parcel, Prefix, Tally};
use rand::{RngExt, SeedableRng};
use rand_xorshift::XorShiftRng;
use std::time::Instant;

/// What [`run`] measured.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Throughput {
    /// Ranks the master served.
    pub(crate) ranks: usize,
    /// `AskForWork` and `Donated` messages handled.
    pub(crate) requests: u64,
    /// Seconds the requests took.
    pub(crate) seconds: f64,
    /// Master messages sent (work and donation requests).
    pub(crate) messages_sent: u64,
}

impl Throughput {
    /// Requests served per second.
    pub fn requests_per_s(&self) -> f64 {
        self.requests as f64 / self.seconds
    }
}

/// Drives a master of `ranks` ranks through `requests` requests of the
/// steal phase (see the module's text); deterministic for a `seed`.
pub fn run(ranks: usize, requests: u64, seed: u64) -> Throughput {
    assert!(ranks >= 2, "the steal phase needs a thief and a victim");
    let parcel = |i: usize| Parcel::named(Prefix(vec![i as u32 % 7, 1, 2]));
    let mut master = Master::new(ranks, (0..ranks).map(parcel).collect(), None);
    let mut busy = vec![false; ranks];
    // Deals each rank received (`Work` and donations).
    let mut dealt = vec![0u64; ranks];
    let mut out = Outbox::new();
    let mut rng = XorShiftRng::seed_from_u64(seed);
    let mut handled = 0;
    let start = Instant::now();
    // One instant for every request: every donation's round trip is then
    // zero, and no victim is too young to be asked (the rule that waits
    // for one is not what this measures).
    let now = start;
    for rank in 0..ranks {
        master.on_ask(rank, Tally::default(), 0, now, &mut out);
    }
    while handled < requests {
        // Victims answer at once with a donation; work makes a rank busy.
        while let Some((to, msg)) = out.pop() {
            match msg {
                Message::Work { .. } => {
                    busy[to] = true;
                    dealt[to] += 1;
                }
                Message::DonateRequest { thief, .. } => {
                    let mut more = Outbox::new();
                    busy[thief as usize] = true;
                    dealt[thief as usize] += 1;
                    master.on_donated(to, Some(thief as usize), 8, now, &mut more);
                    handled += 1;
                    out.extend(more);
                }
                _ => {}
            }
        }
        let rank = loop {
            let r = rng.random_range(0..ranks);
            if busy[r] {
                break r;
            }
        };
        busy[rank] = false;
        master.on_ask(rank, Tally::default(), dealt[rank], now, &mut out);
        handled += 1;
        assert!(!master.terminated(), "victims always donate");
    }
    Throughput {
        ranks,
        requests: handled,
        seconds: start.elapsed().as_secs_f64(),
        messages_sent: master.stats.messages_sent,
    }
}

#[cfg(test)]
mod test {
    #[test]
    fn every_ask_of_the_steal_phase_is_answered_by_a_steal() {
        let t = super::run(16, 2_000, 1);
        assert!(t.requests >= 2_000);
        // Each ask: one donation request (the donation goes from victim to
        // thief; rank 0's own messages are not counted).
        let per_ask = t.messages_sent as f64 / (t.requests as f64 / 2.0);
        assert!((0.75..=1.0).contains(&per_ask), "{per_ask}");
    }
}
