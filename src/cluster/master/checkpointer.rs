//! The master's checkpoints: the account of units (see `units.rs`) and
//! writing it, every so often, as a [`Checkpoint`].

use crate::cluster::RunError;
use crate::cluster::checkpoint::{Checkpoint, CheckpointError};
use crate::cluster::config::CheckpointPlan;
use crate::cluster::master::units::UnitBook;
use crate::cluster::sink::SolutionSink;
use crate::engine::{Count, Prefix};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

pub(in crate::cluster) struct Checkpointer {
    plan: Arc<CheckpointPlan>,
    /// Which units are complete, with their totals.
    pub(crate) book: UnitBook,
    last: Instant,
    /// Seconds of search before this run (resumed runs).
    elapsed_before: f64,
    /// Checkpoints written, and the seconds they took.
    count: u64,
    seconds: f64,
}

impl Checkpointer {
    /// The account of a run whose units are `initial`: those left of the
    /// run `plan` resumes, or the master's frontier (above which its
    /// expansion counted `expansion`).
    pub(in crate::cluster) fn new(
        plan: Arc<CheckpointPlan>,
        initial: &[Prefix],
        expansion: Count,
        now: Instant,
    ) -> Self {
        let book = match &plan.resume {
            Some(c) => UnitBook::new(initial, c.units, c.count()),
            None => UnitBook::new(initial, initial.len() as u64, expansion),
        };
        Checkpointer {
            elapsed_before: plan.resume.as_ref().map_or(0.0, |c| c.elapsed_s),
            plan,
            book,
            last: now,
            count: 0,
            seconds: 0.0,
        }
    }

    pub(in crate::cluster) fn path(&self) -> &Path {
        &self.plan.path
    }

    /// Whether a checkpoint is due at `now`.
    pub(in crate::cluster) fn due(&self, now: Instant) -> bool {
        now.saturating_duration_since(self.last) >= self.plan.every
    }

    /// Writes a checkpoint: the output made durable first, so that the
    /// length recorded (`out_bytes`) is on disk.
    pub(in crate::cluster) fn write(
        &mut self,
        sink: &mut dyn SolutionSink,
        written: u64,
        out_bytes: u64,
        incumbent: Option<&(u64, String)>,
        started: Instant,
        now: Instant,
    ) -> Result<(), RunError> {
        let t = Instant::now();
        sink.persist()?;
        let c = Checkpoint {
            remaining: self.book.remaining(),
            units: self.book.units,
            nodes: self.book.done.nodes,
            solutions: self.book.done.solutions,
            depth: self.book.done.depth,
            written,
            out_bytes,
            incumbent: incumbent.cloned(),
            elapsed_s: self.elapsed_before + now.saturating_duration_since(started).as_secs_f64(),
            ..self.plan.identity.clone()
        };
        c.store(&self.plan.path)?;
        self.count += 1;
        self.seconds += t.elapsed().as_secs_f64();
        self.last = now;
        Ok(())
    }

    /// The run is complete: its checkpoint would only repeat the answer.
    pub(in crate::cluster) fn remove(&self) -> Result<(), RunError> {
        match std::fs::remove_file(&self.plan.path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(CheckpointError::Write {
                    path: self.plan.path.display().to_string(),
                    source: e,
                }
                .into());
            }
        }
        tracing::info!(
            "{} checkpoint(s) written in {:.3} s",
            self.count,
            self.seconds
        );
        Ok(())
    }
}
