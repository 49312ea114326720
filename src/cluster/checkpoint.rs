//! Checkpoints: what the master writes so that a run can continue after its
//! job dies (walltime, node failure, SIGTERM), with the same or another
//! number of ranks and threads.
//!
//! The work is cut into *units*, the master's initial prefixes. A unit is
//! complete when every parcel of it, wherever it was walked, has finished;
//! only complete units count. A checkpoint holds the units not complete, the
//! totals of the complete ones (and of the master's expansion above them),
//! and, in `all` mode, how long the solutions file was when the checkpoint
//! was taken: solutions are written a unit at a time, when the unit
//! completes, so the file up to that length holds exactly the complete
//! units' solutions. Resuming truncates the file there and walks the units
//! left.
//!
//! The file is JSON, written to a temporary name, synced, and renamed over
//! the old checkpoint, so a crash leaves either the old or the new one.

use crate::engine::{Count, Prefix};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The format tag, checked on load. Format 2 identifies a run by its
/// puzzle's declared arguments (format 1 hashed a debug string).
pub(crate) const FORMAT: &str = "hysolve-checkpoint-2";
/// The largest checkpoint file read (units are short prefixes).
const MAX_BYTES: u64 = 1 << 30;

/// A run's progress, as written to its checkpoint file (JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The file format's name and version (`FORMAT`).
    pub(crate) format: String,
    /// What was being solved: problem name, instance, mode, and a digest of
    /// the problem's arguments and input files. A resume must match.
    pub(crate) problem: String,
    /// The instance, as the problem names it.
    pub(crate) instance: String,
    /// The mode (`count` or `all`).
    pub(crate) mode: String,
    /// A digest of the problem's arguments and input files.
    pub(crate) fingerprint: String,
    /// Units not complete when the checkpoint was taken.
    pub(crate) remaining: Vec<Prefix>,
    /// Units in the whole run.
    pub(crate) units: u64,
    /// Nodes and solutions of the complete units and of the expansion.
    pub(crate) nodes: u64,
    /// Their solutions.
    pub(crate) solutions: u64,
    /// The deepest node of the complete units, when the search knows it.
    #[serde(default)]
    pub(crate) depth: Option<u64>,
    /// `all` mode: solutions written, and the length of the solutions file
    /// (its `.partial` while the run goes on) holding exactly them.
    pub(crate) written: u64,
    /// The length of the solutions file that holds them.
    pub(crate) out_bytes: u64,
    /// Seconds of search before this checkpoint, over all resumed runs.
    pub(crate) elapsed_s: f64,
    /// Optimise mode: the best solution known when the checkpoint was
    /// taken (its objective and text); a resumed run prunes with it from
    /// the start and reports it if nothing beats it.
    #[serde(default)]
    pub(crate) incumbent: Option<(u64, String)>,
}

impl Checkpoint {
    /// What the complete units and the expansion counted.
    pub(crate) fn count(&self) -> Count {
        Count {
            nodes: self.nodes,
            solutions: self.solutions,
            depth: self.depth,
        }
    }
}

/// A checkpoint that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file cannot be read (missing, a folder, too large).
    #[error("{path}: {reason}")]
    Unreadable {
        /// The checkpoint's path.
        path: String,
        /// Why, as the system says.
        reason: String,
    },
    /// The file is not a checkpoint of this format.
    #[error("{path}: not a hysolve checkpoint: {reason}")]
    Malformed {
        /// The checkpoint's path.
        path: String,
        /// What is wrong in it.
        reason: String,
    },
    /// A checkpoint of another run (problem, instance, mode or input).
    #[error("{path}: a checkpoint of {found}, not of {expected}")]
    Mismatch {
        /// The checkpoint's path.
        path: String,
        /// The run it records.
        found: String,
        /// The run asked for.
        expected: String,
    },
    /// Writing or renaming the checkpoint failed.
    #[error("{path}: writing the checkpoint: {source}")]
    Write {
        /// The checkpoint's path.
        path: String,
        /// The system's error.
        source: std::io::Error,
    },
}

impl Checkpoint {
    /// The checkpoint of a run before any work: what it solves, nothing done.
    pub fn identity(problem: &str, instance: &str, mode: &str, fingerprint: &str) -> Checkpoint {
        Checkpoint {
            format: FORMAT.into(),
            problem: problem.into(),
            instance: instance.into(),
            mode: mode.into(),
            fingerprint: fingerprint.into(),
            remaining: Vec::new(),
            units: 0,
            nodes: 0,
            solutions: 0,
            depth: Some(0),
            written: 0,
            out_bytes: 0,
            elapsed_s: 0.0,
            incumbent: None,
        }
    }

    /// What a resume must match: "queens 16 (count mode, fingerprint ...)".
    pub(crate) fn describe(&self) -> String {
        format!(
            "{} {} ({} mode, input digest {})",
            self.problem, self.instance, self.mode, self.fingerprint
        )
    }

    /// Reads and checks a checkpoint file; `expected` is the run that wants
    /// to resume from it (its `remaining`, totals and output are ignored).
    pub fn load(path: &Path, expected: &Checkpoint) -> Result<Checkpoint, CheckpointError> {
        let name = path.display().to_string();
        let unreadable = |reason: String| CheckpointError::Unreadable {
            path: name.clone(),
            reason,
        };
        let meta = std::fs::metadata(path).map_err(|e| unreadable(e.to_string()))?;
        if meta.is_dir() {
            return Err(unreadable("is a directory, not a file".into()));
        }
        if meta.len() > MAX_BYTES {
            return Err(unreadable(format!("larger than {} bytes", MAX_BYTES)));
        }
        let text = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
        let c: Checkpoint =
            serde_json::from_slice(&text).map_err(|e| CheckpointError::Malformed {
                path: name.clone(),
                reason: e.to_string(),
            })?;
        let malformed = |reason: &str| CheckpointError::Malformed {
            path: name.clone(),
            reason: reason.to_string(),
        };
        if c.format == "hysolve-checkpoint-1" {
            return Err(unreadable(
                "a checkpoint of an older hysolve (format 1), which this one cannot resume: \
                 run the job again from the start"
                    .into(),
            ));
        }
        if c.format != FORMAT {
            return Err(malformed(&format!(
                "format '{}', expected '{FORMAT}'",
                c.format
            )));
        }
        if c.remaining.len() as u64 > c.units {
            return Err(malformed("more units remaining than in the run"));
        }
        if let Some(d) = c.remaining.first().map(Prefix::depth)
            && c.remaining.iter().any(|p| p.depth() != d)
        {
            return Err(malformed("units of different depths"));
        }
        if !c.elapsed_s.is_finite() || c.elapsed_s < 0.0 {
            return Err(malformed("a negative or infinite elapsed time"));
        }
        if (&c.problem, &c.instance, &c.mode, &c.fingerprint)
            != (
                &expected.problem,
                &expected.instance,
                &expected.mode,
                &expected.fingerprint,
            )
        {
            return Err(CheckpointError::Mismatch {
                path: name,
                found: c.describe(),
                expected: expected.describe(),
            });
        }
        Ok(c)
    }

    /// Writes the checkpoint atomically ([`output::write_atomically`](crate::output::write_atomically):
    /// a temporary file beside it, synced, renamed over the old one, and
    /// the folder synced).
    pub fn store(&self, path: &Path) -> Result<(), CheckpointError> {
        let bytes = serde_json::to_vec(self).expect("a checkpoint always serializes");
        crate::output::write_atomically(path, &bytes).map_err(|e| CheckpointError::Write {
            path: path.display().to_string(),
            source: e.source,
        })
    }
}

#[cfg(test)]
mod test {
    use super::*;

    fn sample() -> Checkpoint {
        Checkpoint {
            format: FORMAT.into(),
            problem: "queens".into(),
            instance: "12".into(),
            mode: "count".into(),
            fingerprint: "abc".into(),
            remaining: vec![Prefix(vec![1, 2]), Prefix(vec![3, 0])],
            units: 90,
            nodes: 1000,
            solutions: 77,
            depth: Some(4),
            written: 0,
            out_bytes: 0,
            elapsed_s: 1.5,
            incumbent: Some((11, "1 2 3".into())),
        }
    }

    #[test]
    fn round_trip_and_refusals() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        let c = sample();
        c.store(&path).unwrap();
        assert_eq!(Checkpoint::load(&path, &c).unwrap(), c);
        let mut other = c.clone();
        other.instance = "13".into();
        let err = Checkpoint::load(&path, &other).unwrap_err().to_string();
        assert!(err.contains("a checkpoint of queens 12"), "{err}");
        let mut bad = c.clone();
        bad.remaining.push(Prefix(vec![1]));
        bad.store(&path).unwrap();
        assert!(Checkpoint::load(&path, &c).is_err());
        std::fs::write(&path, b"{\"format\":").unwrap();
        let err = Checkpoint::load(&path, &c).unwrap_err().to_string();
        assert!(err.contains("not a hysolve checkpoint"), "{err}");
        assert!(Checkpoint::load(dir.path(), &c).is_err());
        let old = Checkpoint {
            format: "hysolve-checkpoint-1".into(),
            ..c.clone()
        };
        old.store(&path).unwrap();
        let err = Checkpoint::load(&path, &c).unwrap_err().to_string();
        assert!(err.contains("older hysolve (format 1)"), "{err}");
        assert_eq!(err.lines().count(), 1);
    }
}
