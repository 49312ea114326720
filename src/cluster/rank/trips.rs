//! The steal round trip, as a rank measures it: from its request for work
//! (an `AskForWork` after its first, a `Hungry`, a `StealRequest`) to the
//! `Work` or `Donation` that answers it, its tasks in the pool (a large
//! donation's parcels take a while to become tasks; builds up to
//! `35984e8` ended the trip before they did). The first ask waits for the
//! master's expansion and is no steal; a request the run's end leaves
//! unanswered is not counted.

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Samples a rank keeps; past them it counts only.
const MOST_SAMPLES: usize = 1 << 16;

/// One rank's round trips (or a run's, [`RoundTrips::merged`]), in tenths
/// of a microsecond, as they ended.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundTrips {
    /// Round trips measured (all of them, past the samples kept too).
    pub count: u64,
    /// The first [`MOST_SAMPLES`], in tenths of a microsecond.
    tenths_us: Vec<u32>,
}

/// Percentiles of round trips, in microseconds: what `--stats` prints and
/// `--json` gives as `steal_round_trip_us`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TripSummary {
    /// Round trips measured.
    pub(crate) count: u64,
    /// Their median, in microseconds.
    pub(crate) p50: f64,
    /// Their 90th percentile (nearest rank), in microseconds.
    pub(crate) p90: f64,
    /// The longest, in microseconds.
    pub(crate) max: f64,
}

impl std::fmt::Display for TripSummary {
    /// `COUNT (median P50 us, 90th percentile P90 us, longest MAX us)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (median {:.1} us, 90th percentile {:.1} us, longest {:.1} us)",
            self.count, self.p50, self.p90, self.max
        )
    }
}

impl RoundTrips {
    pub(crate) fn record(&mut self, trip: Duration) {
        self.count += 1;
        if self.tenths_us.len() < MOST_SAMPLES {
            let tenths = trip.as_nanos() / 100;
            self.tenths_us
                .push(u32::try_from(tenths).unwrap_or(u32::MAX));
        }
    }

    /// The round trips of several ranks together.
    pub fn merged<'a>(all: impl IntoIterator<Item = &'a RoundTrips>) -> RoundTrips {
        let mut merged = RoundTrips::default();
        for t in all {
            merged.count += t.count;
            merged.tenths_us.extend_from_slice(&t.tenths_us);
        }
        merged
    }

    /// Median, 90th percentile (nearest rank) and longest; `None` when
    /// there was none.
    pub fn summary(&self) -> Option<TripSummary> {
        let mut sorted = self.tenths_us.clone();
        sorted.sort_unstable();
        let last = *sorted.last()?;
        let at = |q: f64| {
            let rank = (q * sorted.len() as f64).ceil() as usize;
            sorted[rank.clamp(1, sorted.len()) - 1] as f64 / 10.0
        };
        Some(TripSummary {
            count: self.count,
            p50: at(0.5),
            p90: at(0.9),
            max: last as f64 / 10.0,
        })
    }
}

#[cfg(test)]
mod test {
    use super::*;

    fn trips(us: &[u64]) -> RoundTrips {
        let mut t = RoundTrips::default();
        for &u in us {
            t.record(Duration::from_micros(u));
        }
        t
    }

    #[test]
    fn percentiles_are_nearest_rank_and_runs_merge() {
        let t = trips(&[30, 10, 20, 40, 50, 60, 70, 80, 90, 1000]);
        let s = t.summary().unwrap();
        assert_eq!((s.count, s.p50, s.p90, s.max), (10, 50.0, 90.0, 1000.0));
        let m = RoundTrips::merged([&trips(&[5]), &trips(&[7, 9])]);
        let s = m.summary().unwrap();
        assert_eq!((s.count, s.p50, s.max), (3, 7.0, 9.0));
        assert_eq!(RoundTrips::default().summary(), None);
        // Tenths of a microsecond are kept.
        let mut t = RoundTrips::default();
        t.record(Duration::from_nanos(12_345));
        assert_eq!(t.summary().unwrap().max, 12.3);
    }
}
