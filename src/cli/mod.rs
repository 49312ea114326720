//! The command line: parse, build the problem, run it, print the answer.
//!
//! `hysolve [--threads N] [--mode count|all|first|unique] [--out FILE] [--json]
//! [--stats] [--quiet] <problem> <args>`

mod report;

use crate::cluster::{self, Outcome, RunConfig};
use crate::engine::{Mode, Problem};
use crate::problems::hitori::{self, Hitori};
use crate::problems::magic::Magic;
use crate::problems::magic::square::{Given, MAX_N as MAGIC_MAX_N};
use crate::problems::pack::figure::Figure;
use crate::problems::pack::pieces::PieceSet;
use crate::problems::pack::{Layout, Pack};
use crate::problems::queens::Queens;
use crate::problems::synthetic::Synthetic;
use clap::{Args, Parser, Subcommand};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

#[derive(Debug, Parser)]
#[command(
    name = "hysolve",
    version,
    about = "Hybrid MPI + threads solver for exhaustive combinatorial search"
)]
pub struct Cli {
    #[command(flatten)]
    pub global: Global,
    #[command(subcommand)]
    pub problem: ProblemCmd,
}

/// Options every problem takes (before or after the problem's name).
#[derive(Debug, Args)]
pub struct Global {
    /// Worker threads per rank [default: OMP_NUM_THREADS, else the cores
    /// divided among the ranks on this node]
    #[arg(long, global = true, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub threads: Option<u32>,
    /// What to search for [default: first for hitori, count otherwise]
    #[arg(long, global = true, value_parser = parse_mode)]
    pub mode: Option<Mode>,
    /// Write solutions to FILE (all: every solution; first/unique: those found)
    #[arg(long, global = true, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Stop after N solutions (modes all, first and unique)
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// Record the run's progress in FILE (atomically) so that it can be
    /// resumed after its job dies (count and all modes)
    #[arg(long, global = true, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints
    #[arg(long, global = true, value_name = "SECONDS", default_value_t = 60.0, value_parser = parse_interval)]
    pub checkpoint_every: f64,
    /// Continue the run recorded in FILE (give the same problem and
    /// arguments; ranks and threads may differ); checkpoints go on in FILE
    /// unless --checkpoint names another
    #[arg(long, global = true, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Print one JSON object as the last line of stdout
    #[arg(long, global = true)]
    pub json: bool,
    /// Print per-rank and per-worker statistics on stderr
    #[arg(long, global = true)]
    pub stats: bool,
    /// No progress bar, no human-readable summary on stderr
    #[arg(long, global = true)]
    pub quiet: bool,
    /// Show the progress bar even when stderr is not a terminal (under
    /// mpirun, which passes stderr on to its own terminal)
    #[arg(long, global = true)]
    pub progress: bool,
    /// Set from the problem's arguments before solving (see `fingerprint`)
    #[arg(skip)]
    pub fingerprint: String,
    /// Initial prefixes per worker that the master deals
    #[arg(long, global = true, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=100_000), hide = true)]
    pub prefixes_per_worker: u32,
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

/// A digest of what is solved: the problem's arguments and the contents of
/// the files they name. A checkpoint only resumes the run it came from.
fn fingerprint(cmd: &ProblemCmd) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(format!("{cmd:?}").as_bytes());
    let files: Vec<PathBuf> = match cmd {
        ProblemCmd::Hitori { file } => vec![file.clone()],
        ProblemCmd::Magic { file, .. } => file.iter().cloned().collect(),
        ProblemCmd::Pack { pieces, figure, .. } => std::iter::once(pieces)
            .chain(figure)
            .map(PathBuf::from)
            .collect(),
        _ => Vec::new(),
    };
    for f in files.iter().filter(|f| f.is_file()) {
        if let Ok(bytes) = std::fs::read(f) {
            h.update(&bytes);
        }
    }
    h.finalize()
        .iter()
        .take(12)
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[derive(Debug, Subcommand)]
pub enum ProblemCmd {
    /// Count (or list) the placements of N non-attacking queens on an N x N board
    Queens {
        /// Board size, 1 to 32
        #[arg(value_parser = clap::value_parser!(u32))]
        n: u32,
    },
    /// Shade a Hitori grid (one row per line, whitespace-separated positive numbers)
    Hitori {
        /// The puzzle file
        file: PathBuf,
    },
    /// Complete a partially filled magic square (n rows of n numbers, -1 for empty)
    Magic {
        /// The square file (or --empty N)
        #[arg(required_unless_present = "empty", conflicts_with = "empty")]
        file: Option<PathBuf>,
        /// Start from the empty N x N square instead of a file
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAGIC_MAX_N as i64))]
        empty: Option<u32>,
        /// Count squares up to rotation and reflection (empty squares only)
        #[arg(long)]
        distinct: bool,
    },
    /// Pack a figure with a set of pieces, each used once
    Pack {
        /// The pieces: iqfit, pentominoes, soma, double-soma, bedlam, or a .pieces file
        #[arg(long)]
        pieces: String,
        /// A box to fill: WxH or WxHxD
        #[arg(long, required_unless_present = "figure", conflicts_with = "figure")]
        board: Option<String>,
        /// A figure: a built-in name (8x8-hole) or a figure file
        #[arg(long)]
        figure: Option<String>,
        /// Count solutions up to the symmetries of the figure that map the piece set onto itself
        #[arg(long)]
        distinct: bool,
    },
    /// Make a new puzzle
    #[command(subcommand)]
    Generate(GenerateCmd),
    /// A pseudo-random irregular tree with exactly LEAVES solutions (for testing the engine)
    Synthetic(Synthetic),
    /// Pictures of the solutions in a solutions file: a self-contained HTML
    /// page, or one solution as SVG
    View(ViewArgs),
}

#[derive(Debug, Args)]
pub struct ViewArgs {
    /// A solutions file hysolve wrote (--mode all --out FILE, or a .solution file)
    file: PathBuf,
    /// Where to write the page or picture (default: FILE.html, or FILE-N.svg)
    #[arg(short = 'o', long = "output")]
    output: Option<PathBuf>,
    /// Number of the first solution on the page (from 1)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    from: u64,
    /// How many solutions the page holds
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=crate::view::MAX_PAGE as u64))]
    count: u64,
    /// Write solution N alone as an SVG picture instead of a page
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    svg: Option<u64>,
    /// The problem the file comes from (default: told from its first solution)
    #[arg(long, value_enum)]
    kind: Option<crate::view::Kind>,
    /// Hitori: the puzzle, to print its numbers in the cells
    #[arg(long)]
    puzzle: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum GenerateCmd {
    /// A Hitori puzzle with exactly one solution
    Hitori {
        /// Rows and columns of a square grid
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=hitori::generate::MAX_SIDE as i64))]
        size: Option<u32>,
        /// Rows (with --cols, for a rectangle)
        #[arg(long, requires = "cols", conflicts_with = "size", value_parser = clap::value_parser!(u32).range(2..=hitori::generate::MAX_SIDE as i64))]
        rows: Option<u32>,
        /// Columns (with --rows)
        #[arg(long, requires = "rows", conflicts_with = "size", value_parser = clap::value_parser!(u32).range(2..=hitori::generate::MAX_SIDE as i64))]
        cols: Option<u32>,
        /// Random seed: the same seed and size give the same puzzle
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Instead of a puzzle, a grid with many solutions for counting
        /// workloads: distinct numbers but GROUPS groups of 2 or 3 equal ones
        #[arg(long, value_name = "GROUPS")]
        open: Option<usize>,
    },
}

/// An error for the user: one line, then a non-zero exit.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("{0}")]
    Input(String),
    #[error(transparent)]
    Run(#[from] cluster::RunError),
    #[error("{path}: {source}")]
    File {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Entry point of the binary.
pub fn main() -> ExitCode {
    init_logging();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
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
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hysolve: error: {e}");
            ExitCode::FAILURE
        }
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

/// Threads per rank when `--threads` is not given.
fn default_threads() -> usize {
    if let Some(n) = std::env::var("OMP_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        return n.max(1);
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let local_ranks = [
        "OMPI_COMM_WORLD_LOCAL_SIZE",
        "MPI_LOCALNRANKS",
        "SLURM_NTASKS_PER_NODE",
    ]
    .iter()
    .find_map(|v| std::env::var(v).ok()?.trim().parse::<usize>().ok())
    .unwrap_or(1);
    (cores / local_ranks.max(1)).max(1)
}

pub fn run(mut cli: Cli) -> Result<(), CliError> {
    // Only a checkpointed run needs it: it reads the input files again.
    if cli.global.checkpoint.is_some() || cli.global.resume.is_some() {
        cli.global.fingerprint = fingerprint(&cli.problem);
    }
    let g = &cli.global;
    let input = Instant::now();
    match cli.problem {
        ProblemCmd::Hitori { file } => {
            let problem = Hitori::from_file(&file).map_err(|e| CliError::Input(e.to_string()))?;
            solve(problem, g, g.mode.unwrap_or(Mode::First), input)
        }
        ProblemCmd::Generate(what) => generate(what, g),
        ProblemCmd::Pack {
            pieces,
            board,
            figure,
            distinct,
        } => {
            let set = PieceSet::load(&pieces).map_err(|e| CliError::Input(e.to_string()))?;
            let figure = match (board, figure) {
                (Some(spec), _) => Figure::parse_box(&spec).map_err(CliError::Input)?,
                (None, Some(spec)) => {
                    Figure::load(&spec).map_err(|e| CliError::Input(e.to_string()))?
                }
                (None, None) => unreachable!("clap requires --board or --figure"),
            };
            let layout =
                Layout::new(set, figure).map_err(|e| CliError::Input(format!("pack: {e}")))?;
            let mode = g.mode.unwrap_or(Mode::Count);
            // One board size per word count, each compiled separately.
            match layout.words() {
                1 => solve_pack::<1>(layout, distinct, g, mode, input),
                2 => solve_pack::<2>(layout, distinct, g, mode, input),
                3 | 4 => solve_pack::<4>(layout, distinct, g, mode, input),
                _ => solve_pack::<8>(layout, distinct, g, mode, input),
            }
        }
        ProblemCmd::Magic {
            file,
            empty,
            distinct,
        } => {
            let problem = match (file, empty) {
                (Some(path), _) => Magic::from_file(&path, distinct),
                (None, Some(n)) => Given::empty(n as usize)
                    .and_then(|given| Magic::new(given, format!("empty-{n}"), distinct)),
                (None, None) => unreachable!("clap requires a file or --empty"),
            }
            .map_err(CliError::Input)?;
            if let Some(why) = problem.contradiction()
                && !g.quiet
            {
                eprintln!("hysolve: note: no completion: {why}");
            }
            solve(problem, g, g.mode.unwrap_or(Mode::Count), input)
        }
        ProblemCmd::Queens { n } => {
            let mode = g.mode.unwrap_or(Mode::Count);
            let problem = Queens::new(n, mode == Mode::Count).map_err(CliError::Input)?;
            solve(problem, g, mode, input)
        }
        ProblemCmd::View(args) => view(&args),
        ProblemCmd::Synthetic(problem) => {
            problem.validate().map_err(CliError::Input)?;
            solve(problem, g, g.mode.unwrap_or(Mode::Count), input)
        }
    }
}

fn solve_pack<const W: usize>(
    layout: Layout,
    distinct: bool,
    g: &Global,
    mode: Mode,
    input: Instant,
) -> Result<(), CliError> {
    let problem = Pack::<W>::new(layout, distinct).map_err(CliError::Input)?;
    solve(problem, g, mode, input)
}

/// `hysolve generate ...`: the puzzle on stdout, or in `--out FILE` with its
/// solution beside it (`FILE` with the extension `.solution`).
fn generate(what: GenerateCmd, g: &Global) -> Result<(), CliError> {
    let GenerateCmd::Hitori {
        size,
        rows,
        cols,
        seed,
        open,
    } = what;
    let (rows, cols) = match (size, rows, cols) {
        (Some(n), _, _) => (n as usize, n as usize),
        (None, Some(r), Some(c)) => (r as usize, c as usize),
        _ => {
            return Err(CliError::Input(
                "generate hitori: give --size N, or --rows R --cols C".to_owned(),
            ));
        }
    };
    let started = Instant::now();
    if let Some(groups) = open {
        let grid =
            hitori::generate::open_grid(rows, cols, groups, seed).map_err(CliError::Input)?;
        return match &g.out {
            Some(path) => write_atomically(path, grid.to_text().as_bytes()),
            None => {
                print!("{}", grid.to_text());
                Ok(())
            }
        };
    }
    let puzzle = hitori::generate::generate(rows, cols, seed).map_err(CliError::Input)?;
    let mut solution = String::new();
    for row in puzzle.solution.chunks(cols) {
        solution.extend(row.iter().map(|&b| if b { '#' } else { '.' }));
        solution.push('\n');
    }
    match &g.out {
        Some(path) => {
            write_atomically(path, puzzle.grid.to_text().as_bytes())?;
            write_atomically(&path.with_extension("solution"), solution.as_bytes())?;
        }
        None => print!("{}", puzzle.grid.to_text()),
    }
    let elapsed = started.elapsed().as_secs_f64();
    if !g.quiet {
        eprintln!(
            "generated a {rows}x{cols} Hitori with one solution (seed {seed}) in {elapsed:.3} s: {} second solutions ruled out, {} restarts",
            puzzle.repairs, puzzle.restarts
        );
    }
    if g.json {
        // The fields hysolve-bench reads, so that generation can be benchmarked too.
        let v = serde_json::json!({
            "problem": "generate hitori",
            "instance": format!("{rows}x{cols} seed {seed}"),
            "wall_s": elapsed,
            "prepare_s": 0.0,
            "solutions": 1,
            "nodes": puzzle.repairs,
            "repairs": puzzle.repairs,
            "restarts": puzzle.restarts,
        });
        println!("{v}");
    }
    Ok(())
}

/// Where `all` mode streams solutions: a file written beside its final
/// name and renamed into place on success (a failed run leaves any earlier
/// file untouched), or stdout.
enum Output {
    File {
        tmp: PathBuf,
        path: PathBuf,
        file: std::io::BufWriter<std::fs::File>,
    },
    Stdout(std::io::BufWriter<std::io::Stdout>),
}

impl Output {
    fn open(path: Option<&Path>) -> Result<Output, CliError> {
        let Some(path) = path else {
            return Ok(Output::Stdout(std::io::BufWriter::new(std::io::stdout())));
        };
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".partial");
        let tmp = path.with_file_name(name);
        let file = std::fs::File::create(&tmp).map_err(|source| CliError::File {
            path: tmp.clone(),
            source,
        })?;
        Ok(Output::File {
            tmp,
            path: path.to_path_buf(),
            file: std::io::BufWriter::new(file),
        })
    }

    /// Continues the `.partial` file of an interrupted run, cut back to
    /// the `len` bytes its checkpoint vouches for.
    fn resume(path: &Path, len: u64) -> Result<Output, CliError> {
        use std::io::Seek;
        let mut name = path.file_name().unwrap_or_default().to_os_string();
        name.push(".partial");
        let tmp = path.with_file_name(name);
        let err = |source| CliError::File {
            path: tmp.clone(),
            source,
        };
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&tmp)
            .map_err(err)?;
        let have = file.metadata().map_err(err)?.len();
        if have < len {
            return Err(CliError::Input(format!(
                "{}: {have} bytes, but the checkpoint recorded {len}: it is not this run's solutions file",
                tmp.display()
            )));
        }
        file.set_len(len).map_err(err)?;
        file.seek(std::io::SeekFrom::End(0)).map_err(err)?;
        Ok(Output::File {
            tmp: tmp.clone(),
            path: path.to_path_buf(),
            file: std::io::BufWriter::new(file),
        })
    }

    fn writer(&mut self) -> &mut dyn cluster::SolutionSink {
        self
    }

    fn finish(self) -> Result<(), CliError> {
        match self {
            Output::File { tmp, path, file } => {
                let file = file.into_inner().map_err(|e| CliError::File {
                    path: tmp.clone(),
                    source: e.into_error(),
                })?;
                file.sync_all().map_err(|source| CliError::File {
                    path: tmp.clone(),
                    source,
                })?;
                std::fs::rename(&tmp, &path).map_err(|source| CliError::File { path, source })
            }
            Output::Stdout(mut w) => w.flush().map_err(|source| CliError::File {
                path: "<stdout>".into(),
                source,
            }),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Output::File { file, .. } => file.write(buf),
            Output::Stdout(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            Output::File { file, .. } => file.write_all(buf),
            Output::Stdout(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Output::File { file, .. } => file.flush(),
            Output::Stdout(w) => w.flush(),
        }
    }
}

impl cluster::SolutionSink for Output {
    fn persist(&mut self) -> std::io::Result<()> {
        self.flush()?;
        match self {
            Output::File { file, .. } => file.get_ref().sync_data(),
            Output::Stdout(_) => Ok(()),
        }
    }
}

/// The checkpoint plan of a run, from --checkpoint and --resume.
fn checkpoint_plan(
    g: &Global,
    mode: Mode,
    name: &str,
    instance: &str,
) -> Result<Option<Arc<cluster::CheckpointPlan>>, CliError> {
    let Some(path) = g.checkpoint.clone().or_else(|| g.resume.clone()) else {
        return Ok(None);
    };
    if !matches!(mode, Mode::Count | Mode::All) {
        return Err(CliError::Input(format!(
            "--checkpoint and --resume are for count and all modes, not {mode}"
        )));
    }
    if g.limit.is_some() {
        return Err(CliError::Input(
            "--checkpoint and --resume cannot be used with --limit".into(),
        ));
    }
    if mode == Mode::All && g.out.is_none() {
        return Err(CliError::Input(
            "--checkpoint and --resume in all mode need --out FILE (stdout cannot be rewound)"
                .into(),
        ));
    }
    let identity = cluster::Checkpoint::identity(name, instance, &mode.to_string(), &g.fingerprint);
    let resume = match &g.resume {
        Some(file) => Some(
            cluster::Checkpoint::load(file, &identity)
                .map_err(|e| CliError::Input(e.to_string()))?,
        ),
        None => None,
    };
    Ok(Some(Arc::new(cluster::CheckpointPlan {
        path,
        every: std::time::Duration::from_secs_f64(g.checkpoint_every),
        identity,
        resume,
    })))
}

/// SIGTERM (a scheduler's walltime) and SIGINT (Ctrl-C) set the flag the
/// master watches; a second one ends the process at once. Under an MPI
/// launcher, the launcher's death sets it too.
fn interrupt_flag() -> Option<Arc<std::sync::atomic::AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let flag = Arc::new(std::sync::atomic::AtomicBool::new(false));
    for sig in [SIGTERM, SIGINT] {
        signal_hook::flag::register_conditional_shutdown(sig, 1, flag.clone()).ok()?;
        signal_hook::flag::register(sig, flag.clone()).ok()?;
    }
    if cluster::launched_by_mpi() {
        watch_launcher(flag.clone());
    }
    Some(flag)
}

/// A rank whose launcher dies (mpirun killed by hand or by a scheduler) is
/// handed to another parent. The master then stops as on SIGTERM, writing
/// its checkpoint, instead of running on with no one to report to (and
/// perhaps finishing, so that a count is lost with the launcher's output).
fn watch_launcher(flag: Arc<std::sync::atomic::AtomicBool>) {
    let launcher = std::os::unix::process::parent_id();
    let _ = std::thread::Builder::new()
        .name("launcher-watch".into())
        .spawn(move || {
            while std::os::unix::process::parent_id() == launcher {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        });
}

/// `input`: when reading the input began (reported apart from the search).
fn solve<P: Problem>(problem: P, g: &Global, mode: Mode, input: Instant) -> Result<(), CliError> {
    if g.limit.is_some() && mode == Mode::Count {
        return Err(CliError::Input(
            "--limit stops after N solutions found: use it with --mode all, first or unique"
                .to_owned(),
        ));
    }
    let started = Instant::now();
    let prepare_s = (started - input).as_secs_f64();
    let config = RunConfig {
        mode,
        threads: g.threads.map_or_else(default_threads, |t| t as usize),
        prefixes_per_worker: g.prefixes_per_worker as usize,
        started,
        // Under mpirun stderr is a pipe to the launcher, and a rank cannot
        // tell whether the launcher's own output is a terminal: --progress.
        progress: !g.quiet && (g.progress || std::io::stderr().is_terminal()),
        limit: g.limit,
        checkpoint: checkpoint_plan(g, mode, problem.name(), &problem.instance())?,
        interrupt: interrupt_flag(),
    };
    let name = problem.name();
    let instance = problem.instance();
    let problem = Arc::new(problem);
    let master = !cluster::launched_by_mpi() || is_rank_zero();
    let resumed = config.checkpoint.as_ref().and_then(|c| c.resume.as_ref());
    let mut output = match (master && mode == Mode::All, resumed, g.out.as_deref()) {
        (false, ..) => None,
        (true, Some(c), Some(path)) => Some(Output::resume(path, c.out_bytes)?),
        (true, ..) => Some(Output::open(g.out.as_deref())?),
    };
    let mut discard = std::io::sink();
    let sink: &mut dyn cluster::SolutionSink = match &mut output {
        Some(o) => o.writer(),
        None => &mut discard,
    };
    let Some(mut outcome) = cluster::run(problem.clone(), &config, sink)? else {
        return Ok(());
    };
    if let Some(o) = output {
        o.finish()?;
    }
    if mode.stop_after().is_some()
        && let Some(path) = &g.out
    {
        let mut text = outcome.found.join("\n\n");
        text.push('\n');
        write_atomically(path, text.as_bytes())?;
    }
    // OpenMPI hands rank 0 a pseudo-terminal for stdout even when mpirun's
    // own stdout is a file, so under MPI the picture is never drawn.
    if std::io::stdout().is_terminal() && !cluster::launched_by_mpi() {
        for text in &mut outcome.found {
            if let Some(picture) = problem.pretty(text) {
                *text = picture;
            }
        }
    }
    print_outcome(name, &instance, &outcome, g, prepare_s)
}

/// Whether this MPI process is rank 0, from the launcher's environment
/// (known before MPI is initialised).
fn is_rank_zero() -> bool {
    ["OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"]
        .iter()
        .find_map(|v| std::env::var(v).ok())
        .is_none_or(|r| r.trim() == "0")
}

/// `hysolve view`: the page (or with --svg, one picture) for a solutions file.
fn view(a: &ViewArgs) -> Result<(), CliError> {
    use crate::view::{self, Kind, Picture, svg::Style};
    let input = |e: crate::problems::input::InputError| CliError::Input(e.to_string());
    let (from, count) = match a.svg {
        Some(n) => (n as usize, 1),
        None => (a.from as usize, a.count as usize),
    };
    let solutions = view::read(&a.file, a.kind, from, count).map_err(input)?;
    let mut style = Style::for_pictures(&solutions.pictures);
    if let Some(puzzle) = &a.puzzle {
        if solutions.kind != Kind::Hitori {
            return Err(CliError::Input(format!(
                "--puzzle is for Hitori solutions; {} holds {} solutions",
                a.file.display(),
                solutions.kind.name()
            )));
        }
        let text =
            crate::problems::input::read_text(puzzle, crate::problems::input::MAX_INPUT_BYTES)
                .map_err(input)?;
        let grid =
            hitori::grid::Grid::parse(&text, &puzzle.display().to_string()).map_err(input)?;
        for (i, p) in solutions.pictures.iter().enumerate() {
            if let Picture::Hitori { rows, cols, .. } = p
                && (*rows, *cols) != (grid.rows, grid.cols)
            {
                return Err(CliError::Input(format!(
                    "{}: solution {} is {rows}x{cols} but the puzzle {} is {}x{}",
                    a.file.display(),
                    from + i,
                    puzzle.display(),
                    grid.rows,
                    grid.cols
                )));
            }
        }
        style.numbers = Some(grid.values.iter().map(|&v| u64::from(v)).collect());
    }
    // The default output: the solutions file's name with `suffix` added.
    let beside = |suffix: &str| {
        let mut p = a.file.clone().into_os_string();
        p.push(suffix);
        PathBuf::from(p)
    };
    let (path, bytes) = match a.svg {
        Some(n) => {
            let path = a
                .output
                .clone()
                .unwrap_or_else(|| beside(&format!("-{n}.svg")));
            let svg = view::svg::draw(&solutions.pictures[0], &style, true);
            (
                path,
                format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{svg}\n"),
            )
        }
        None => {
            let path = a.output.clone().unwrap_or_else(|| beside(".html"));
            let name = a.file.file_name().map_or_else(
                || a.file.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            (path, view::html::page(&name, &solutions, &style))
        }
    };
    write_atomically(&path, bytes.as_bytes())?;
    eprintln!(
        "hysolve: wrote {} ({} of the {} {} solutions in {}, from solution {from})",
        path.display(),
        solutions.pictures.len(),
        solutions.total,
        solutions.kind.name(),
        a.file.display()
    );
    Ok(())
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let mut output = Output::open(Some(path))?;
    output
        .writer()
        .write_all(bytes)
        .map_err(|source| CliError::File {
            path: path.to_path_buf(),
            source,
        })?;
    output.finish()
}

fn print_outcome(
    name: &str,
    instance: &str,
    outcome: &Outcome,
    g: &Global,
    prepare_s: f64,
) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let io = |source| CliError::File {
        path: "<stdout>".into(),
        source,
    };
    if outcome.mode != Mode::All || g.out.is_some() {
        // In `all` mode without --out the solutions themselves are on stdout.
        for (i, text) in outcome.found.iter().enumerate() {
            if i > 0 {
                writeln!(out).map_err(io)?;
            }
            writeln!(out, "{text}").map_err(io)?;
        }
    }
    if outcome.mode == Mode::All && g.out.is_none() && outcome.written > 0 {
        writeln!(out).map_err(io)?; // a blank line after the last solution
    }
    if !g.quiet || !g.json {
        writeln!(
            out,
            "{}",
            report::summary(name, instance, outcome, prepare_s)
        )
        .map_err(io)?;
    }
    if g.stats {
        eprint!("{}", report::stats_table(outcome));
    }
    if g.json {
        writeln!(out, "{}", report::json(name, instance, outcome, prepare_s)).map_err(io)?;
    }
    out.flush().map_err(io)
}
