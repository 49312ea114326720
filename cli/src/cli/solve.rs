//! `hysolve PUZZLE ARGS`: build the puzzle through its door, run it on this
//! rank with the options of the command line, print the answer on rank 0.

use super::progress::Bar;
use super::{CliError, Global, report, signals};
use crate::door::Entry;
use clap::ArgMatches;
use hysolve::Mode;
use hysolve::advanced::{self, Checkpoint, CheckpointPlan};
use hysolve::{Outcome, RunConfig, RunError, Solutions};
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::Instant;

pub(super) fn solve(puzzle: &dyn Entry, args: &ArgMatches, g: &Global) -> Result<(), CliError> {
    let input = Instant::now();
    let mode = match g.search.mode {
        Some(mode) => mode,
        None => puzzle.default_mode(args)?,
    };
    if mode == Mode::Optimise && !puzzle.optimises() {
        let with: Vec<&str> = crate::doors::PUZZLES
            .iter()
            .filter(|p| p.optimises())
            .map(|p| p.name())
            .collect();
        return Err(CliError::Usage(format!(
            "{}: --mode optimise needs an objective, and this puzzle has none (those with one: {})",
            puzzle.name(),
            with.join(", ")
        )));
    }
    if g.search.anomaly {
        check_anomaly(g, mode)?;
    }
    // Only a checkpointed run needs it: it reads the input files again.
    let fingerprint = if g.search.checkpoint.is_some() || g.search.resume.is_some() {
        fingerprint(puzzle, args)?
    } else {
        String::new()
    };
    let job = puzzle.build(args, mode)?;
    if let Some(note) = job.note()
        && !g.common.quiet
    {
        eprintln!("hysolve: note: {note}");
    }
    let started = Instant::now();
    let prepare_s = (started - input).as_secs_f64();
    let mut config = RunConfig::new(mode)
        .threads(
            g.search
                .threads
                .map_or_else(default_threads, |t| t as usize),
        )
        .prefixes_per_worker(g.prefixes_per_worker())
        .started(started);
    if let Some(workers) = g.search.hunger {
        config = config.hunger(workers as usize);
    }
    if let Some(ranks) = g.search.group_size {
        config = config.group_size(ranks as usize);
    }
    if let Some(tries) = g.search.direct_steals {
        config = config.direct_steals(tries);
    }
    if let Some(n) = g.search.limit {
        config = config.limit(n);
    }
    if let Some(target) = g.search.at_least {
        config = config.at_least(target);
    }
    if let Some(effort) = g.search.ramp_up {
        config = config.ramp_up(effort);
    }
    if let Some(effort) = g.search.race {
        config = config.race(effort);
    }
    let solutions = match (mode, &g.search.out) {
        (_, Some(path)) => Solutions::File(path.clone()),
        (Mode::All, None) => Solutions::Stdout,
        (_, None) => Solutions::Discard,
    };
    let plan = || checkpoint_plan(g, mode, job.name(), &job.instance(), &fingerprint);
    // The library's rules, checked before a checkpoint to resume is read
    // (the plan without it is enough for them).
    if let Some(plan) = plan() {
        config.clone().checkpoint(plan).validate(&solutions)
    } else {
        config.validate(&solutions)
    }
    .map_err(RunError::from)?;
    if let Some(mut plan) = plan() {
        if let Some(file) = &g.search.resume {
            plan.resume = Some(Checkpoint::load(file, &plan.identity).map_err(RunError::from)?);
        }
        config = config.checkpoint(plan);
    }
    if let Some(flag) = signals::interrupt_flag() {
        config = config.interrupt(flag);
    }
    // Under mpirun stderr is a pipe to the launcher, and a rank cannot tell
    // whether the launcher's own output is a terminal: --progress.
    if !g.common.quiet && (g.search.progress || std::io::stderr().is_terminal()) {
        config = config.observer(Arc::new(Bar::default()));
    }
    let Some(mut outcome) = job.run(&config, solutions)? else {
        return Ok(());
    };
    // OpenMPI hands rank 0 a pseudo-terminal for stdout even when mpirun's
    // own stdout is a file, so under MPI the picture is never drawn.
    if std::io::stdout().is_terminal() && !advanced::launched_by_mpi() {
        for text in &mut outcome.found {
            if let Some(picture) = job.pretty(text) {
                *text = picture;
            }
        }
    }
    // The reference of the anomaly: the same search on this thread alone,
    // once the run's answer is out (it may take as long as the run on
    // one thread).
    let measure = || {
        g.search.anomaly.then(|| {
            if !g.common.quiet {
                eprintln!("hysolve: --anomaly: the same search again, on one thread alone");
            }
            report::Anomaly {
                nodes: outcome.nodes,
                sequential: job
                    .sequential_nodes(mode, g.search.ramp_up.unwrap_or(advanced::DEFAULT_RAMP_UP)),
            }
        })
    };
    print_outcome(job.name(), &job.instance(), &outcome, g, prepare_s, measure)
}

/// `--anomaly`'s rules: a mode whose nodes a parallel run may change, and
/// a search the reference can repeat whole.
fn check_anomaly(g: &Global, mode: Mode) -> Result<(), CliError> {
    if !matches!(mode, Mode::Optimise | Mode::First | Mode::Unique) {
        return Err(CliError::Usage(format!(
            "--anomaly compares a run's nodes with one thread's: use it with --mode optimise, first or unique, not {mode}"
        )));
    }
    if g.search.at_least.is_some() || g.search.resume.is_some() {
        return Err(CliError::Usage(
            "--anomaly searches again from the start to the end: not with --at-least or --resume"
                .into(),
        ));
    }
    Ok(())
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
    (cores / advanced::local_ranks().max(1)).max(1)
}

/// A digest of what is solved: the puzzle's name, its arguments as it
/// declares them (each by its name, with its value as given or its
/// default), and the contents of its input files. A checkpoint only
/// resumes the run it came from.
/// The identity of a run's inputs, as checkpoints record it: the puzzle,
/// its arguments and the contents of its input files, hashed.
pub fn fingerprint(puzzle: &dyn Entry, args: &ArgMatches) -> Result<String, CliError> {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(puzzle.name().as_bytes());
    h.update([0]);
    if puzzle.tree() != 0 {
        h.update(b"tree");
        h.update(puzzle.tree().to_le_bytes());
    }
    let command = puzzle.command();
    let mut ids: Vec<&str> = command
        .get_arguments()
        .map(|a| a.get_id().as_str())
        .collect();
    ids.sort_unstable();
    for id in ids {
        let Ok(Some(values)) = args.try_get_raw(id) else {
            continue;
        };
        h.update(id.as_bytes());
        for v in values {
            h.update([1]);
            h.update(v.as_encoded_bytes());
        }
        h.update([0]);
    }
    for file in puzzle.inputs(args)? {
        if let Ok(bytes) = std::fs::read(&file) {
            h.update(&bytes);
        }
    }
    Ok(h.finalize()
        .iter()
        .take(12)
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The checkpoint plan of a run, from --checkpoint and --resume (the
/// checkpoint to resume not yet read: `resume` is `None`).
fn checkpoint_plan(
    g: &Global,
    mode: Mode,
    name: &str,
    instance: &str,
    fingerprint: &str,
) -> Option<CheckpointPlan> {
    let path = g
        .search
        .checkpoint
        .clone()
        .or_else(|| g.search.resume.clone())?;
    Some(CheckpointPlan {
        path,
        every: std::time::Duration::from_secs_f64(g.checkpoint_every()),
        identity: Checkpoint::identity(name, instance, &mode.to_string(), fingerprint),
        resume: None,
    })
}

fn print_outcome(
    name: &str,
    instance: &str,
    outcome: &Outcome,
    g: &Global,
    prepare_s: f64,
    anomaly: impl FnOnce() -> Option<report::Anomaly>,
) -> Result<(), CliError> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let io = |source| advanced::FileError {
        path: "<stdout>".into(),
        source,
    };
    if outcome.mode != Mode::All || g.search.out.is_some() {
        // In `all` mode without --out the solutions themselves are on stdout.
        for (i, text) in outcome.found.iter().enumerate() {
            if i > 0 {
                writeln!(out).map_err(io)?;
            }
            writeln!(out, "{text}").map_err(io)?;
        }
    }
    if outcome.mode == Mode::All && g.search.out.is_none() && outcome.written > 0 {
        writeln!(out).map_err(io)?; // a blank line after the last solution
    }
    if !g.common.quiet || !g.common.json {
        writeln!(
            out,
            "{}",
            report::summary(name, instance, outcome, prepare_s)
        )
        .map_err(io)?;
    }
    // The answer first: what comes after may take a while (`--anomaly`).
    out.flush().map_err(io)?;
    let anomaly = anomaly();
    if g.search.stats {
        eprint!("{}", report::stats_table(outcome, anomaly));
    } else if let Some(a) = anomaly
        && !g.common.json
    {
        eprintln!("{}", a.line());
    }
    if g.common.json {
        writeln!(
            out,
            "{}",
            report::json(name, instance, outcome, prepare_s, anomaly)
        )
        .map_err(io)?;
    }
    out.flush().map_err(io)?;
    Ok(())
}
