//! The master's account of units (its initial prefixes) for checkpoints:
//! how many parcels of each are still out, what the finished parcels counted,
//! and, in `all` mode, their solutions, held back until the unit completes.
//!
//! A unit starts as one parcel in the master's pool. A `Donated` adds a
//! parcel per subtree a victim gave its thief (split off a walk, or queued
//! and untouched); a `UnitDone` from a rank takes away the parcels that rank
//! received. A rank sends the `Donated` of its donations of a unit before its
//! `UnitDone` of that unit, over the same ordered channel, and the master
//! handles a thief's `UnitDone` only after the `Donated` of what it received
//! (`causal.rs`), so the count reaches zero exactly when no parcel of the
//! unit is anywhere: then the unit is complete.

use crate::engine::{Count, Prefix, UnitReport};
use std::collections::HashMap;

#[derive(Debug, Default)]
struct Open {
    parcels: u64,
    count: Count,
    texts: Vec<String>,
}

/// A unit that has just completed: its totals and held-back solutions.
#[derive(Debug, Default, PartialEq)]
pub(in crate::cluster) struct Completed {
    pub(crate) count: Count,
    pub(crate) texts: Vec<String>,
}

#[derive(Debug)]
pub(in crate::cluster) struct UnitBook {
    depth: usize,
    open: HashMap<Prefix, Open>,
    /// Units in the whole run (over resumes).
    pub(crate) units: u64,
    /// What the complete units counted (and what came before them: the
    /// expansion, earlier runs).
    pub(crate) done: Count,
}

/// A message that does not fit the account: a protocol error.
#[derive(Debug, PartialEq)]
pub(in crate::cluster) struct Unknown(pub Prefix);

impl UnitBook {
    /// `initial`: the units to walk (all of the same depth); `units`: the
    /// run's unit count; `done`: what is already counted.
    pub(in crate::cluster) fn new(initial: &[Prefix], units: u64, done: Count) -> UnitBook {
        UnitBook {
            depth: initial.first().map_or(0, Prefix::depth),
            open: initial
                .iter()
                .map(|p| {
                    let open = Open {
                        parcels: 1,
                        ..Open::default()
                    };
                    (p.clone(), open)
                })
                .collect(),
            units,
            done,
        }
    }

    fn get(&mut self, prefix: &Prefix) -> Result<&mut Open, Unknown> {
        let unit = prefix.truncated(self.depth);
        match self.open.get_mut(&unit) {
            Some(open) => Ok(open),
            None => Err(Unknown(unit)),
        }
    }

    /// A donation of one parcel of each of `units` (a unit may repeat).
    pub(in crate::cluster) fn on_donated(&mut self, units: &[Prefix]) -> Result<(), Unknown> {
        for unit in units {
            self.get(unit)?.parcels += 1;
        }
        Ok(())
    }

    pub(in crate::cluster) fn hold_texts(
        &mut self,
        unit: &Prefix,
        texts: Vec<String>,
    ) -> Result<(), Unknown> {
        self.get(unit)?.texts.extend(texts);
        Ok(())
    }

    /// A rank finished its parcels of a unit; returns the unit's totals and
    /// solutions when that completes it.
    pub(in crate::cluster) fn on_done(
        &mut self,
        r: UnitReport,
    ) -> Result<Option<Completed>, Unknown> {
        let open = self.get(&r.unit)?;
        if r.received > open.parcels {
            return Err(Unknown(r.unit));
        }
        open.parcels -= r.received;
        open.count += r.count;
        if open.parcels > 0 {
            return Ok(None);
        }
        let unit = r.unit.truncated(self.depth);
        let done = self.open.remove(&unit).expect("just seen");
        self.done += done.count;
        Ok(Some(Completed {
            count: done.count,
            texts: done.texts,
        }))
    }

    /// Units not complete, in order.
    pub(in crate::cluster) fn remaining(&self) -> Vec<Prefix> {
        let mut v: Vec<Prefix> = self.open.keys().cloned().collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v
    }
}

#[cfg(test)]
mod test {
    use super::*;

    fn p(v: &[u32]) -> Prefix {
        Prefix(v.to_vec())
    }

    fn done(unit: &[u32], received: u64, solutions: u64) -> UnitReport {
        UnitReport {
            unit: p(unit),
            received,
            count: Count {
                nodes: 10 * solutions,
                solutions,
                depth: Some(3),
            },
        }
    }

    #[test]
    fn a_unit_completes_when_its_last_parcel_does() {
        let mut b = UnitBook::new(
            &[p(&[0]), p(&[1])],
            2,
            Count {
                nodes: 5,
                solutions: 1,
                depth: Some(1),
            },
        );
        // Rank 1 walks unit 0, splits two parcels off to the master, finishes.
        b.on_donated(&[p(&[0, 3]), p(&[0, 4, 1])]).unwrap();
        b.hold_texts(&p(&[0]), vec!["a".into()]).unwrap();
        assert_eq!(b.on_done(done(&[0], 1, 2)).unwrap(), None);
        // Rank 2 gets both parcels, finishes them.
        b.hold_texts(&p(&[0]), vec!["b".into()]).unwrap();
        let c = b.on_done(done(&[0], 2, 3)).unwrap().unwrap();
        assert_eq!(c.texts, vec!["a", "b"]);
        assert_eq!(
            (c.count.solutions, b.done.solutions, b.done.nodes),
            (5, 6, 55)
        );
        assert_eq!(b.done.depth, Some(3));
        assert_eq!(b.remaining(), vec![p(&[1])]);
        // A queued parcel given back whole, then walked elsewhere.
        b.on_donated(&[p(&[1])]).unwrap();
        assert_eq!(b.on_done(done(&[1], 1, 0)).unwrap(), None);
        assert!(b.on_done(done(&[1], 1, 4)).unwrap().is_some());
        assert!(b.remaining().is_empty());
        assert_eq!(b.done.solutions, 10);
        assert_eq!(b.on_done(done(&[1], 1, 0)), Err(Unknown(p(&[1]))));
    }
}
