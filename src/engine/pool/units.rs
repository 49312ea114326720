//! A rank's ledger of units (checkpoints): for each unit of which the
//! rank holds tasks, how many it holds (queued or walking), how many
//! came from outside (the manager's `Work` and `Donation`), and what its
//! walks of the unit counted. One ledger for the real pool (`mod.rs`,
//! behind a lock) and the simulator's (`cluster/sim/pool.rs`), so that a
//! prediction reports its units as a run does (`README.md`, "Units").

use super::UnitReport;
use crate::engine::{Count, Prefix};
use std::collections::HashMap;

/// A unit's account on one rank.
#[derive(Debug, Default)]
struct UnitTally {
    /// Tasks of the unit queued or walking here.
    open: usize,
    /// Tasks of it the rank was given.
    received: u64,
    count: Count,
}

/// The units a rank holds tasks of.
#[derive(Debug, Default)]
pub(crate) struct Units(HashMap<Prefix, UnitTally>);

impl Units {
    /// `n` more tasks of `unit` here: given to the rank (`received`), or
    /// split off a walk of the rank's.
    pub(crate) fn open(&mut self, unit: &Prefix, n: usize, received: bool) {
        let t = self.0.entry(unit.clone()).or_default();
        t.open += n;
        if received {
            t.received += n as u64;
        }
    }

    /// A task of `unit` is done here, walked (counting `counted`) or
    /// given away whole: the unit's report when the rank holds no more of
    /// it. `None` too for a unit the rank holds nothing of (a bug: the
    /// debug build stops there).
    pub(crate) fn close(&mut self, unit: &Prefix, counted: Count) -> Option<UnitReport> {
        let Some(t) = self.0.get_mut(unit) else {
            debug_assert!(false, "a task of an untracked unit");
            return None;
        };
        t.count += counted;
        t.open -= 1;
        if t.open > 0 {
            return None;
        }
        let t = self.0.remove(unit).expect("just seen");
        Some(UnitReport {
            unit: unit.clone(),
            received: t.received,
            count: t.count,
        })
    }
}

#[cfg(test)]
mod test {
    use super::*;

    #[test]
    fn a_unit_is_reported_once_its_last_task_here_is_done() {
        let mut units = Units::default();
        let u = Prefix(vec![4]);
        units.open(&u, 2, true);
        // A walk split one more off.
        units.open(&u, 1, false);
        let one = Count {
            nodes: 3,
            solutions: 1,
            depth: Some(2),
        };
        assert_eq!(units.close(&u, one), None);
        assert_eq!(units.close(&u, Count::default()), None);
        let report = units.close(&u, one).expect("the last task");
        assert_eq!(report.received, 2);
        assert_eq!(report.count.nodes, 6);
        assert_eq!(report.count.solutions, 2);
        // Given again later: a new account.
        units.open(&u, 1, true);
        assert_eq!(
            units.close(&u, Count::default()).map(|r| r.received),
            Some(1)
        );
    }
}
