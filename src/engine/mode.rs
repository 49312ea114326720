//! Search modes and what a finished search reports.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What the search is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The number of solutions.
    Count,
    /// Every solution, streamed to an output.
    All,
    /// Any one solution; the search stops as soon as one is known.
    First,
    /// Up to two solutions: none, unique or multiple.
    Unique,
    /// The best solution: the greatest [`Optimise::objective`], proved by
    /// walking the whole tree under pruning by [`Optimise::bound`]
    /// (branch and bound with an incumbent shared by every worker and
    /// rank). With a target (`RunConfig::at_least`), the first solution
    /// that reaches it.
    ///
    /// A problem with an objective (an [`Optimise`]) runs in it by
    /// [`optimise`](crate::optimise), which wraps it in an
    /// [`Optimising`](crate::advanced::Optimising); [`run`](crate::run)
    /// refuses it for a problem without one.
    ///
    /// [`Optimise`]: crate::Optimise
    /// [`Optimise::objective`]: crate::Optimise::objective
    /// [`Optimise::bound`]: crate::Optimise::bound
    Optimise,
}

impl Mode {
    /// How many solutions end the search early, if any.
    pub(crate) fn stop_after(self) -> Option<u64> {
        match self {
            Mode::Count | Mode::All | Mode::Optimise => None,
            Mode::First => Some(1),
            Mode::Unique => Some(2),
        }
    }

    /// Whether solutions are rendered and sent to the master.
    pub(crate) fn keeps_solutions(self) -> bool {
        self != Mode::Count
    }

    /// The mode's name, as `--mode` takes it.
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Mode::Count => "count",
            Mode::All => "all",
            Mode::First => "first",
            Mode::Unique => "unique",
            Mode::Optimise => "optimise",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Mode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "count" => Ok(Mode::Count),
            "all" => Ok(Mode::All),
            "first" => Ok(Mode::First),
            "unique" => Ok(Mode::Unique),
            "optimise" | "optimize" => Ok(Mode::Optimise),
            other => Err(format!(
                "unknown mode '{other}' (expected count, all, first, unique or optimise)"
            )),
        }
    }
}

/// The verdict of a `unique` search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Uniqueness {
    /// No solution.
    None,
    /// Exactly one solution.
    Unique,
    /// Two or more.
    Multiple,
}

impl Uniqueness {
    /// The answer of a unique-mode search that found `found` solutions (it stops at two).
    pub fn from_found(found: u64) -> Self {
        match found {
            0 => Uniqueness::None,
            1 => Uniqueness::Unique,
            _ => Uniqueness::Multiple,
        }
    }
}
