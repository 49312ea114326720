//! The front door: what the command line knows about one puzzle. A puzzle
//! is a search in `hysolve_puzzles`, a type here implementing [`Puzzle`]
//! (its file in `doors/`), and one line in the list of registered puzzles
//! ([`PUZZLES`](crate::doors::PUZZLES)). From that line the command line
//! gets its subcommand, the checkpoint its identity and the viewer its
//! format.

use crate::view::Format;
use clap::{ArgMatches, FromArgMatches};
use hysolve::advanced::Optimising;
#[cfg(feature = "sim")]
use hysolve::advanced::sim::{self, SimConfig, SimError, SimReport};
use hysolve::{Mode, Optimise, Problem};
use hysolve::{Outcome, RunConfig, RunError, Solutions};
use hysolve_puzzles::PuzzleError;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::Arc;
#[cfg(feature = "sim")]
use std::time::Duration;

/// One puzzle, as the command line, the checkpoints and the viewer see it.
pub trait Puzzle: 'static {
    /// Its subcommand (`hysolve NAME ...`).
    const NAME: &'static str;
    /// One line of help for the subcommand.
    const ABOUT: &'static str;
    /// The revision of the puzzle's tree. A checkpoint names the work
    /// left by paths of moves from the root, so a change to the moves or
    /// their order bumps it: checkpoints of the older tree are then
    /// refused as another run's (`fingerprint` hashes it when not 0).
    const TREE: u32 = 0;
    /// Whether its problem has an objective (its job is an [`optimiser`]):
    /// `--mode optimise` is refused for a puzzle without one.
    const OPTIMISES: bool = false;
    /// Its arguments, declared with clap's derive.
    type Args: clap::Args + FromArgMatches;

    /// The mode when `--mode` is not given.
    fn default_mode(args: &Self::Args) -> Mode {
        let _ = args;
        Mode::Count
    }

    /// The files whose contents, with the arguments, identify a run (a
    /// checkpoint resumes only the run it came from).
    fn inputs(args: &Self::Args) -> Vec<PathBuf>;

    /// The problem to solve in `mode`. Generic code stays behind
    /// [`job`]: the search is compiled for each problem type.
    fn build(args: Self::Args, mode: Mode) -> Result<Box<dyn Job>, PuzzleError>;

    /// How the viewer reads and draws its solutions (`None`: it does not).
    fn format() -> Option<Format> {
        None
    }

    /// `hysolve generate NAME ...`, when the puzzle can make new instances.
    fn generator() -> Option<Generator> {
        None
    }
}

/// A problem ready to run, its type erased: what [`Puzzle::build`] makes.
pub trait Job {
    /// The problem's name and instance, as reports show them.
    fn name(&self) -> &'static str;
    fn instance(&self) -> String;
    /// Something the user should know before the search (an instance
    /// proved to have no solution, say).
    fn note(&self) -> Option<String>;
    /// Runs the search as this process's rank (see [`hysolve::run`]).
    fn run(
        &self,
        config: &RunConfig,
        solutions: Solutions<'_>,
    ) -> Result<Option<Outcome>, RunError>;
    /// The nodes of the search in `mode` on the calling thread alone, a
    /// branch and bound from the ramp-up of `ramp_up` effort with one
    /// racer, as a run of one thread starts: the reference of a run's
    /// anomaly (`--anomaly`). `mode` is optimise, first or unique.
    fn sequential_nodes(&self, mode: Mode, ramp_up: u64) -> u64;
    /// A solution drawn for a terminal, when the problem has a richer
    /// picture than its file format.
    fn pretty(&self, text: &str) -> Option<String>;
    #[cfg(feature = "sim")]
    /// Simulates the search on a virtual clock (see
    /// [`hysolve::advanced::sim`]); with `calibrate`, the cost of a node is
    /// first measured on this machine for about that long, and `adjust`
    /// is applied to the costs after it (the caller's own figures).
    fn simulate(
        &self,
        config: SimConfig,
        calibrate: Option<Duration>,
        adjust: &dyn Fn(&mut sim::Costs),
    ) -> Result<SimReport, SimError>;
    #[cfg(feature = "sim")]
    /// The cost of a node in `mode` in whole nanoseconds (at least 1),
    /// measured on this machine for about `budget`, as [`Job::simulate`]
    /// measures it; `None` for a job that searches nothing.
    fn node_ns(&self, _mode: hysolve::Mode, _budget: Duration) -> Option<u64> {
        None
    }
}

/// `problem` as a [`Job`], with an optional note for the user.
pub fn job<P: Problem>(problem: P, note: Option<String>) -> Box<dyn Job> {
    Box::new(Typed {
        problem: Arc::new(problem),
        note,
        draw: None,
        reference: sequential_nodes::<P>,
    })
}

/// `problem`, which has an objective, as a [`Job`] that optimises in
/// optimise mode (and searches as [`job`]'s in the others), with an
/// optional note for the user. Its puzzle says [`Puzzle::OPTIMISES`].
pub fn optimiser<P: Optimise>(problem: P, note: Option<String>) -> Box<dyn Job> {
    Box::new(Typed {
        problem: Arc::new(Optimising(problem)),
        note,
        draw: None,
        reference: optimum_nodes::<P>,
    })
}

/// `problem` as a [`Job`] whose solutions `draw` pictures for a terminal
/// (see [`Job::pretty`]): presentation is the door's, not the problem's.
pub fn drawn<P: Problem>(
    problem: P,
    draw: impl Fn(&str) -> Option<String> + Send + Sync + 'static,
) -> Box<dyn Job> {
    Box::new(Typed {
        problem: Arc::new(problem),
        note: None,
        draw: Some(Box::new(draw)),
        reference: sequential_nodes::<P>,
    })
}

/// Draws a solution's text for a terminal.
type Draw = Box<dyn Fn(&str) -> Option<String> + Send + Sync>;

struct Typed<P> {
    problem: Arc<P>,
    note: Option<String>,
    draw: Option<Draw>,
    /// [`Job::sequential_nodes`]: what the problem's type can search on
    /// the calling thread.
    reference: fn(&P, Mode, u64) -> u64,
}

/// The nodes of the search in `mode` on the calling thread.
fn sequential_nodes<P: Problem>(p: &P, mode: Mode, _ramp_up: u64) -> u64 {
    hysolve::advanced::sequential(p, mode).0.nodes
}

/// [`sequential_nodes`], but a branch and bound from the ramp-up of
/// `ramp_up` effort with one racer, as a run of one thread starts.
fn optimum_nodes<P: Optimise>(p: &Optimising<P>, mode: Mode, ramp_up: u64) -> u64 {
    if mode != Mode::Optimise {
        return sequential_nodes(p, mode, ramp_up);
    }
    let known = hysolve::advanced::ramp_up(&p.0, ramp_up, 1);
    hysolve::advanced::optimum(&p.0, known).0.nodes
}

impl<P: Problem> Job for Typed<P> {
    fn name(&self) -> &'static str {
        self.problem.name()
    }
    fn instance(&self) -> String {
        self.problem.instance()
    }
    fn note(&self) -> Option<String> {
        self.note.clone()
    }
    fn run(
        &self,
        config: &RunConfig,
        solutions: Solutions<'_>,
    ) -> Result<Option<Outcome>, RunError> {
        hysolve::run(self.problem.clone(), config, solutions)
    }
    fn sequential_nodes(&self, mode: Mode, ramp_up: u64) -> u64 {
        (self.reference)(&self.problem, mode, ramp_up)
    }
    fn pretty(&self, text: &str) -> Option<String> {
        self.draw.as_ref().and_then(|draw| draw(text))
    }
    #[cfg(feature = "sim")]
    fn simulate(
        &self,
        mut config: SimConfig,
        calibrate: Option<Duration>,
        adjust: &dyn Fn(&mut sim::Costs),
    ) -> Result<SimReport, SimError> {
        if let Some(budget) = calibrate {
            let ns = self.node_ns(config.mode(), budget).expect("a search");
            config.costs = sim::Costs::with_node_ns(ns);
            adjust(&mut config.costs);
        }
        sim::simulate(&self.problem, &config)
    }
    #[cfg(feature = "sim")]
    fn node_ns(&self, mode: hysolve::Mode, budget: Duration) -> Option<u64> {
        let ns = sim::calibrate(&*self.problem, mode, budget);
        Some(ns.round().max(1.0) as u64)
    }
}

/// A job that searches nothing: it writes `text` to `path` (on rank 0,
/// atomically) and says so on stdout (`wrote FILE: WHAT`). For a door's
/// options that turn an instance into a file.
pub fn written(path: PathBuf, text: String, what: String) -> Box<dyn Job> {
    Box::new(NoSearch {
        file: Some(path),
        text,
        what,
    })
}

/// A job that searches nothing: it prints `text` on stdout (on rank 0).
/// For a door's options that report on an instance (`hitori --grade`).
pub fn printed(text: String) -> Box<dyn Job> {
    Box::new(NoSearch {
        file: None,
        text,
        what: String::new(),
    })
}

/// [`written`] (with a file) or [`printed`] (without).
struct NoSearch {
    file: Option<PathBuf>,
    text: String,
    what: String,
}

impl Job for NoSearch {
    fn name(&self) -> &'static str {
        if self.file.is_some() {
            "export"
        } else {
            "report"
        }
    }
    fn instance(&self) -> String {
        self.file
            .as_ref()
            .map_or_else(String::new, |p| p.display().to_string())
    }
    fn note(&self) -> Option<String> {
        None
    }
    fn run(&self, _: &RunConfig, _: Solutions<'_>) -> Result<Option<Outcome>, RunError> {
        if hysolve::advanced::is_rank_zero() {
            match &self.file {
                Some(path) => {
                    hysolve::advanced::output::write_atomically(path, self.text.as_bytes())?;
                    println!("wrote {}: {}", path.display(), self.what);
                }
                None => println!("{}", self.text),
            }
        }
        Ok(None)
    }
    fn sequential_nodes(&self, _: Mode, _: u64) -> u64 {
        0
    }
    fn pretty(&self, _: &str) -> Option<String> {
        None
    }
    #[cfg(feature = "sim")]
    fn simulate(
        &self,
        _: SimConfig,
        _: Option<Duration>,
        _: &dyn Fn(&mut sim::Costs),
    ) -> Result<SimReport, SimError> {
        Err(SimError::Config(match &self.file {
            Some(path) => format!(
                "nothing to simulate: this command writes {}",
                path.display()
            ),
            None => "nothing to simulate: this command only reports".into(),
        }))
    }
}

/// A puzzle's generator of new instances.
#[derive(Clone, Copy)]
pub struct Generator {
    /// One line of help.
    pub about: &'static str,
    /// Adds its arguments to the `generate NAME` subcommand.
    pub args: fn(clap::Command) -> clap::Command,
    /// Makes an instance from the parsed arguments.
    pub make: fn(&ArgMatches) -> Result<Generated, PuzzleError>,
}

/// A generated instance.
#[derive(Debug)]
pub struct Generated {
    /// The instance in its input format.
    pub text: String,
    /// Its solution, written beside it (`FILE.solution`) when it goes to a file.
    pub solution: Option<String>,
    /// What was made, in one line for stderr ("generated a 10x10 Hitori
    /// with one solution ...").
    pub summary: Option<String>,
    /// The figures of `--json` (with at least `problem`, `instance`,
    /// `wall_s`, `solutions` and `nodes`, which hysolve-bench reads).
    pub json: Option<serde_json::Value>,
}

/// A registered puzzle, its type erased: what the list of puzzles holds.
pub trait Entry: Sync {
    fn name(&self) -> &'static str;
    /// The subcommand with its arguments.
    fn command(&self) -> clap::Command;
    fn default_mode(&self, matches: &ArgMatches) -> Result<Mode, clap::Error>;
    fn inputs(&self, matches: &ArgMatches) -> Result<Vec<PathBuf>, clap::Error>;
    fn build(&self, matches: &ArgMatches, mode: Mode) -> Result<Box<dyn Job>, BuildError>;
    fn format(&self) -> Option<Format>;
    fn generator(&self) -> Option<Generator>;
    fn tree(&self) -> u32;
    fn optimises(&self) -> bool;
}

/// Why [`Entry::build`] failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Args(#[from] clap::Error),
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
}

/// The entry of puzzle `P` in the list of puzzles.
pub struct Registered<P>(PhantomData<fn() -> P>);

/// Registers `P`: `&register::<MyPuzzle>()` in [`PUZZLES`](crate::doors::PUZZLES).
pub const fn register<P: Puzzle>() -> Registered<P> {
    Registered(PhantomData)
}

impl<P: Puzzle> Entry for Registered<P> {
    fn name(&self) -> &'static str {
        P::NAME
    }
    fn command(&self) -> clap::Command {
        // The about last: a derived `Args` may bring its own doc comment.
        <P::Args as clap::Args>::augment_args(clap::Command::new(P::NAME)).about(P::ABOUT)
    }
    fn default_mode(&self, matches: &ArgMatches) -> Result<Mode, clap::Error> {
        Ok(P::default_mode(&P::Args::from_arg_matches(matches)?))
    }
    fn inputs(&self, matches: &ArgMatches) -> Result<Vec<PathBuf>, clap::Error> {
        Ok(P::inputs(&P::Args::from_arg_matches(matches)?))
    }
    fn build(&self, matches: &ArgMatches, mode: Mode) -> Result<Box<dyn Job>, BuildError> {
        Ok(P::build(P::Args::from_arg_matches(matches)?, mode)?)
    }
    fn format(&self) -> Option<Format> {
        P::format()
    }
    fn generator(&self) -> Option<Generator> {
        P::generator()
    }
    fn tree(&self) -> u32 {
        P::TREE
    }
    fn optimises(&self) -> bool {
        P::OPTIMISES
    }
}
