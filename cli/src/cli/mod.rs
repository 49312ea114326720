//! The command line: parse, build the puzzle through its door, run it,
//! print the answer. The puzzles' subcommands come from the list of
//! registered puzzles ([`PUZZLES`]); nothing here names one.
//!
//! `hysolve [--threads N] [--mode count|all|first|unique|optimise] [--out FILE] [--json]
//! [--stats] [--quiet] <problem> <args>`

mod generate;
mod progress;
mod reference;
mod report;
mod signals;
mod solve;

pub use solve::fingerprint;
mod view;

pub use reference::reference;

use crate::door::BuildError;
use crate::doors::PUZZLES;
use clap::{Args, Command, FromArgMatches};
use hysolve::Mode;
use hysolve::RunError;
use hysolve::advanced::FileError;
use hysolve::advanced::input::InputError;
use hysolve_puzzles::PuzzleError;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

// Options every command takes (`json`, `quiet`), anywhere on the line. (A
// plain comment: a doc comment would become the about of every command
// these options are added to.)
#[derive(Debug, Args)]
pub struct Common {
    /// Print one JSON object as the last line of stdout
    #[arg(long, global = true)]
    pub json: bool,
    /// No progress bar, no human-readable summary on stderr
    #[arg(long, global = true)]
    pub quiet: bool,
}

// The options of a search (`hysolve PUZZLE ...`), before or after the
// puzzle's name; `generate` and `view` take none of them. (A plain comment,
// as above.)
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Worker threads per rank [default: OMP_NUM_THREADS, else the cores
    /// divided among the ranks on this node]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=hysolve::advanced::MAX_THREADS as i64))]
    pub threads: Option<u32>,
    /// What to search for [default: the puzzle's own: count, or first for
    /// a puzzle that asks for its solution]
    #[arg(long, value_parser = parse_mode)]
    pub mode: Option<Mode>,
    /// Write solutions to FILE (all: every solution; first/unique: those found)
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Stop after N solutions (modes all, first and unique)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Optimise mode: stop at the first solution whose objective is at
    /// least K (the decision variant)
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub at_least: Option<u64>,
    /// Optimise mode: the effort of the ramp-up, the puzzle's heuristic
    /// raced on rank 0's threads before the exact search (units of about
    /// a nanosecond); 0: none [default: 20000000]
    #[arg(long, value_name = "EFFORT")]
    pub ramp_up: Option<u64>,
    /// Optimise mode: the effort of the race, the puzzle's heuristic run
    /// beside the exact search on one more thread of rank 0, at an eighth
    /// of a core, from 50 ms into the search until it ends (units of about
    /// a nanosecond); 0, or --ramp-up 0: none [default: 2000000000]
    #[arg(long, value_name = "EFFORT")]
    pub race: Option<u64>,
    /// Record the run's progress in FILE (atomically) so that it can be
    /// resumed after its job dies (count, all and optimise modes)
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints [default: 60]
    #[arg(long, value_name = "SECONDS", value_parser = parse_interval)]
    pub checkpoint_every: Option<f64>,
    /// Continue the run recorded in FILE (give the same problem and
    /// arguments; ranks and threads may differ); checkpoints go on in FILE
    /// unless --checkpoint names another
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Print per-rank and per-worker statistics on stderr
    #[arg(long)]
    pub stats: bool,
    /// Optimise, first and unique modes: after the run's answer, search
    /// again on one thread (rank 0, from a ramp-up of one racer) and report
    /// the run's nodes over that search's, the search anomaly (stderr,
    /// --stats, --json)
    #[arg(long)]
    pub anomaly: bool,
    /// Show the progress bar even when stderr is not a terminal (under
    /// mpirun, which passes stderr on to its own terminal)
    #[arg(long)]
    pub progress: bool,
    /// Initial prefixes per worker that the master deals (a rank of T
    /// threads counts as ceil(sqrt(T)) workers; at most 32,768 in all)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000), hide = true)]
    pub prefixes_per_worker: Option<u32>,
    /// Idle workers (with nothing to steal) at which a rank that still
    /// holds work asks for more; 0: only when it runs dry [default: a
    /// quarter of the threads, on ranks of 4 or more]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=4096), hide = true)]
    pub hunger: Option<u32>,
    /// Ranks per group under mpirun: rank 0 serves the groups' masters,
    /// each of which serves its group's ranks; 0: one group [default: one
    /// group up to 64 ranks, then about the square root of the ranks]
    #[arg(long, value_name = "G")]
    pub group_size: Option<u32>,
    /// Ranks of its group that a rank whose work runs out asks for work
    /// itself, one at a time, before it asks its master; 0: none [default:
    /// 2 in one group, 0 in a run of groups or with --checkpoint or
    /// --resume]
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(0..=64))]
    pub direct_steals: Option<u32>,
}

impl SearchArgs {
    /// The options given after the puzzle's name, else those before it.
    fn or(self, before: SearchArgs) -> SearchArgs {
        SearchArgs {
            threads: self.threads.or(before.threads),
            mode: self.mode.or(before.mode),
            out: self.out.or(before.out),
            limit: self.limit.or(before.limit),
            at_least: self.at_least.or(before.at_least),
            ramp_up: self.ramp_up.or(before.ramp_up),
            race: self.race.or(before.race),
            checkpoint: self.checkpoint.or(before.checkpoint),
            checkpoint_every: self.checkpoint_every.or(before.checkpoint_every),
            resume: self.resume.or(before.resume),
            stats: self.stats || before.stats,
            anomaly: self.anomaly || before.anomaly,
            progress: self.progress || before.progress,
            prefixes_per_worker: self.prefixes_per_worker.or(before.prefixes_per_worker),
            hunger: self.hunger.or(before.hunger),
            group_size: self.group_size.or(before.group_size),
            direct_steals: self.direct_steals.or(before.direct_steals),
        }
    }
}

/// Seconds between checkpoints when `--checkpoint-every` is not given.
const CHECKPOINT_EVERY_S: f64 = 60.0;

/// What a search was asked for: the common options and the search's own
/// (after the puzzle's name, else before it).
#[derive(Debug)]
pub struct Global {
    /// `--json`, `--quiet`.
    pub common: Common,
    /// The search's options.
    pub search: SearchArgs,
}

impl Global {
    /// `--checkpoint-every`, in seconds, or its default.
    pub fn checkpoint_every(&self) -> f64 {
        self.search.checkpoint_every.unwrap_or(CHECKPOINT_EVERY_S)
    }

    /// `--prefixes-per-worker`, or its default.
    pub fn prefixes_per_worker(&self) -> usize {
        self.search
            .prefixes_per_worker
            .map_or(hysolve::advanced::DEFAULT_PREFIXES_PER_WORKER, |n| {
                n as usize
            })
    }
}

/// The search options given before a command that takes none (`generate`,
/// `view`), as an error naming the first.
fn refuse_search_options(matches: &clap::ArgMatches, command: &str) -> Result<(), CliError> {
    use clap::parser::ValueSource;
    let search = SearchArgs::augment_args(Command::new("search"));
    for arg in search.get_arguments() {
        let id = arg.get_id().as_str();
        if matches.value_source(id) == Some(ValueSource::CommandLine) {
            let long = arg.get_long().unwrap_or(id);
            return Err(CliError::Usage(format!(
                "--{long} is an option of a search, not of {command}"
            )));
        }
    }
    Ok(())
}

fn parse_mode(s: &str) -> Result<Mode, String> {
    s.parse()
}

fn parse_interval(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && (0.01..=1e7).contains(&v) => Ok(v),
        _ => Err(format!(
            "'{s}' is not a number of seconds from 0.01 to 10000000"
        )),
    }
}

/// The whole command line: the global options, one subcommand per
/// registered puzzle, `generate` with one per puzzle that has a generator,
/// and `view`.
pub fn command() -> Command {
    let root = Common::augment_args(Command::new("hysolve"));
    let mut cmd = SearchArgs::augment_args(root)
        .version(env!("CARGO_PKG_VERSION"))
        .about("Hybrid MPI + threads solver for exhaustive combinatorial search")
        .subcommand_required(true);
    let mut generate = Command::new("generate")
        .about("Make a new puzzle")
        .subcommand_required(true);
    for puzzle in PUZZLES {
        cmd = cmd.subcommand(SearchArgs::augment_args(puzzle.command()));
        if let Some(g) = puzzle.generator() {
            let leaf = (g.args)(GenerateArgs::augment_args(Command::new(puzzle.name())));
            generate = generate.subcommand(leaf.about(g.about));
        }
    }
    cmd.subcommand(generate)
        .subcommand(view::ViewArgs::augment_args(Command::new("view")).about(
            "Pictures of the solutions in a solutions file: a self-contained HTML \
             page, or one solution as SVG",
        ))
}

/// An error for the user: one line, then a non-zero exit.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    #[error("{}", run_message(.0))]
    Run(#[from] RunError),
    #[error(transparent)]
    File(#[from] FileError),
}

/// A run's error as the command line says it: the library names its
/// settings (`RunConfig::limit`), the command line its flags (`--limit`).
fn run_message(e: &RunError) -> String {
    use hysolve::ConfigError as C;
    match e {
        RunError::Config(c) => match c {
            C::Threads(n) => format!(
                "--threads must be from 1 to {}, got {n}",
                hysolve::advanced::MAX_THREADS
            ),
            C::LimitInCount => {
                "--limit stops after N solutions found: use it with --mode all, first or unique"
                    .into()
            }
            C::ZeroLimit => "--limit must be at least 1".into(),
            C::AtLeastMode(m) => format!("--at-least is for --mode optimise, not {m}"),
            C::CheckpointMode(m) => {
                format!("--checkpoint and --resume are for count, all and optimise modes, not {m}")
            }
            C::CheckpointLimit => "--checkpoint and --resume cannot be used with --limit".into(),
            C::CheckpointDirectSteals => {
                "--checkpoint and --resume cannot be used with --direct-steals (a checkpoint's units would not be exact)".into()
            }
            C::CheckpointStream => {
                "--checkpoint and --resume in all mode need --out FILE (stdout cannot be rewound)"
                    .into()
            }
            other => other.to_string(),
        },
        RunError::Interrupted { checkpoint } => match checkpoint {
            Some(p) => format!(
                "interrupted by a signal; checkpoint written to {0}: continue with --resume {0} and the same problem arguments",
                p.display()
            ),
            None => "interrupted by a signal (with --checkpoint FILE a run can be resumed)".into(),
        },
        other => other.to_string(),
    }
}

impl From<BuildError> for CliError {
    fn from(e: BuildError) -> Self {
        match e {
            BuildError::Args(e) => CliError::Usage(first_line(&e.render().to_string())),
            BuildError::Puzzle(e) => CliError::Puzzle(e),
        }
    }
}

impl From<clap::Error> for CliError {
    fn from(e: clap::Error) -> Self {
        CliError::Usage(first_line(&e.render().to_string()))
    }
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    init_logging();
    // HYSOLVE_SIMD is refused before anything runs, in one line.
    if let Err(e) = hysolve::advanced::simd::from_env() {
        eprintln!("hysolve: error: {e}");
        return ExitCode::from(2);
    }
    let matches = match command().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            eprintln!("hysolve: {}", first_line(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    match run(&matches) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hysolve: error: {e}");
            ExitCode::FAILURE
        }
    }
}

// `generate`'s own options. (A plain comment, as above.)
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Write the puzzle to FILE, and its solution beside it (FILE with the
    /// extension .solution) [default: the puzzle on stdout]
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// Runs a parsed command line.
pub fn run(matches: &clap::ArgMatches) -> Result<(), CliError> {
    let common = Common::from_arg_matches(matches)?;
    let Some((name, sub)) = matches.subcommand() else {
        return Err(CliError::Usage(
            "no problem given: see hysolve --help".into(),
        ));
    };
    match name {
        "view" => {
            refuse_search_options(matches, "view")?;
            view::view(&view::ViewArgs::from_arg_matches(sub)?)
        }
        "generate" => {
            refuse_search_options(matches, "generate")?;
            generate::generate(sub, &common)
        }
        _ => match crate::doors::find(name) {
            Some(puzzle) => {
                let before = SearchArgs::from_arg_matches(matches)?;
                let after = SearchArgs::from_arg_matches(sub)?;
                let g = Global {
                    common,
                    search: after.or(before),
                };
                solve::solve(puzzle, sub, &g)
            }
            None => Err(CliError::Usage(format!("unknown problem '{name}'"))),
        },
    }
}

/// The first non-empty line of clap's message, which says what was wrong,
/// with the line after it when it ends in a colon (the missing argument).
fn first_line(message: &str) -> String {
    let mut lines = message.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("invalid command line");
    match (first.strip_suffix(':'), lines.next()) {
        (Some(head), Some(next)) => format!("{head}: {next}"),
        _ => first.to_string(),
    }
}

fn init_logging() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .try_init();
}
