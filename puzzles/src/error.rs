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
}
