//! What can be wrong with a puzzle's input, typed, with the one-line text
//! users see (`file:line:col: what`, or the argument at fault).

use hysolve::advanced::input::InputError;

/// Why a puzzle cannot be built from its arguments.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// A bad input file, located as precisely as its parser can.
    #[error(transparent)]
    Input(#[from] InputError),
    /// An argument out of range or malformed (`queens: N must be between 1
    /// and 32, got 40`).
    #[error("{0}")]
    Argument(String),
    /// Arguments and files that are each well formed but make no instance
    /// (pieces that cannot cover the figure, a symmetry option that does
    /// not apply).
    #[error("{0}")]
    Instance(String),
    /// A parameter of a puzzle's constructor out of range, or one that
    /// does not apply to the instance, named as the library names it
    /// (`dead_depth`, `distinct`, `box`): a front end names its own option
    /// for it with [`PuzzleError::option`].
    #[error("{puzzle}: {param} {problem}")]
    Parameter {
        /// The puzzle (`synthetic`).
        puzzle: &'static str,
        /// The parameter, as the constructor or the field that takes it
        /// is named (`dead_depth`), or the solver the instance does not
        /// suit, by its type (`Lines`).
        param: &'static str,
        /// What is wrong with it (`must be at most 40, got 50`).
        problem: String,
    },
}

impl PuzzleError {
    /// This error with the parameter `param` named `option` and, where
    /// `hint` is not empty, the hint after it in brackets: how a front end
    /// words the error in its own options. Any other error comes back as
    /// it is.
    ///
    /// ```
    /// use hysolve_puzzles::PuzzleError;
    ///
    /// let e = PuzzleError::Parameter {
    ///     puzzle: "synthetic",
    ///     param: "dead_depth",
    ///     problem: "must be at most 40, got 50".into(),
    /// };
    /// assert_eq!(e.to_string(), "synthetic: dead_depth must be at most 40, got 50");
    /// let e = e.option("dead_depth", "--dead-depth", "");
    /// assert_eq!(e.to_string(), "synthetic: --dead-depth must be at most 40, got 50");
    /// ```
    pub fn option(self, param: &str, option: &str, hint: &str) -> PuzzleError {
        match self {
            PuzzleError::Parameter {
                puzzle,
                param: named,
                problem,
            } if named == param => {
                let hint = match hint {
                    "" => String::new(),
                    hint => format!(" ({hint})"),
                };
                PuzzleError::Argument(format!("{puzzle}: {option} {problem}{hint}"))
            }
            other => other,
        }
    }
}
