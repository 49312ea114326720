//! Strong-scaling sweeps with tables and plots.
//!
//! - `hysolve-sweep run`: on this machine, every workload over a grid of
//!   ranks x threads (mpirun for more than one rank), repetitions
//!   interleaved, up to the core count and one step beyond it
//!   (oversubscribed, marked as such). `make sweep` calls it.
//! - `hysolve-sweep gather DIR`: the same tables and plots from the JSON
//!   lines that cluster jobs wrote (`pbs/sweep.sh` calls it).
//!
//! Both write `<out-dir>/<name>.csv`, `<name>-runs.jsonl` (every run's JSON
//! summary, the raw data), `<name>-time.svg`, `<name>-speedup.svg`,
//! `<name>-efficiency.svg`, `<name>-balance.svg`, and replace the sweep's
//! section of `<out-dir>/README.md`.

use clap::{Args, Parser, Subcommand};
use hysolve_tools::plot::{self, Metric};
use hysolve_tools::sweep::{self, Meta, Run};
use hysolve_tools::{command_line, commit, machine, run_json};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Debug, Parser)]
#[command(about = "Strong-scaling sweeps of hysolve: CSV, Markdown tables, SVG plots")]
struct Opts {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the sweep on this machine
    Run(RunOpts),
    /// Reduce the JSON lines of finished cluster jobs (files in DIR)
    Gather(GatherOpts),
}

#[derive(Debug, Args)]
struct Output {
    /// Folder for the CSV, the plots and README.md
    #[arg(long, default_value = "bench-results")]
    out_dir: PathBuf,
    /// Name of the sweep: file names and README section
    #[arg(long, default_value = "sweep")]
    name: String,
    /// Title of the README section (when it is new)
    #[arg(long, default_value = "Strong scaling, `make sweep`")]
    title: String,
    /// Machine description for the CSV and README (default: host name, CPU
    /// model and core count)
    #[arg(long)]
    machine: Option<String>,
}

#[derive(Debug, Args)]
struct RunOpts {
    /// The hysolve binary
    #[arg(long, default_value = "target/release/hysolve")]
    bin: PathBuf,
    /// A workload: hysolve's arguments (mode and problem), e.g.
    /// "--mode count queens 16"; repeat for several
    #[arg(long = "workload", required = true, allow_hyphen_values = true)]
    workloads: Vec<String>,
    /// Repetitions of each configuration
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// Most workers (ranks x threads) to run; default: twice the cores, so
    /// that one oversubscribed step shows
    #[arg(long)]
    max_workers: Option<usize>,
    /// Configurations RANKSxTHREADS instead of the power-of-two grid
    #[arg(long, value_delimiter = ',')]
    configs: Vec<String>,
    #[command(flatten)]
    output: Output,
}

#[derive(Debug, Args)]
struct GatherOpts {
    /// Folder of results: every line of its `.json` files that is a hysolve
    /// JSON summary counts (pbs/hybrid.sh writes one per job with RESULT)
    dir: PathBuf,
    /// Read every file in DIR, not only `.json` ones (job logs that hold the
    /// JSON lines themselves); a run found twice counts twice
    #[arg(long)]
    all_files: bool,
    /// Cores of one cluster node (for the oversubscribed band of the plots)
    #[arg(long)]
    cores: Option<usize>,
    /// The command that made the runs, for the record
    #[arg(long, default_value = "pbs/sweep.sh")]
    command: String,
    #[command(flatten)]
    output: Output,
}

fn main() -> std::process::ExitCode {
    let opts = Opts::parse();
    let result = match opts.command {
        Command::Run(o) => run(&o),
        Command::Gather(o) => gather(&o),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hysolve-sweep: error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Every power-of-two split of every power-of-two worker count up to `max`:
/// 1x1; 1x2, 2x1; 1x4, 2x2, 4x1; ...
fn grid(max: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut workers = 1;
    while workers <= max {
        let mut ranks = 1;
        while ranks <= workers {
            out.push((ranks, workers / ranks));
            ranks *= 2;
        }
        workers *= 2;
    }
    out
}

fn run(o: &RunOpts) -> Result<(), String> {
    let cores = cores();
    let configs = if o.configs.is_empty() {
        grid(o.max_workers.unwrap_or(2 * cores))
    } else {
        o.configs
            .iter()
            .map(|c| hysolve_tools::parse_config(c))
            .collect::<Result<_, _>>()?
    };
    let bin = o.bin.to_string_lossy().to_string();
    // Before the runs: what the binary was built from.
    let commit = commit();
    // Before the runs too: a folder that cannot be made fails at once.
    std::fs::create_dir_all(&o.output.out_dir)
        .map_err(|e| format!("{}: {e}", o.output.out_dir.display()))?;
    let mut raw = Vec::new();
    let mut runs = Vec::new();
    let total = o.workloads.len() * o.reps * configs.len();
    let mut done = 0;
    for workload in &o.workloads {
        let args: Vec<String> = workload.split_whitespace().map(str::to_owned).collect();
        // Repetitions interleaved: the machine's noise falls on every
        // configuration alike.
        for rep in 0..o.reps {
            for &(ranks, threads) in &configs {
                let cmd = command_line(&bin, ranks, threads, &args);
                let v = run_json(&cmd)?;
                let r = Run::from_json(&v).map_err(|e| format!("{}: {e}", cmd.join(" ")))?;
                done += 1;
                eprintln!(
                    "[{done}/{total}] {} {ranks}x{threads} rep {}: {:.3} s{}",
                    r.workload(),
                    rep + 1,
                    r.time_s,
                    if r.oversubscribed {
                        " (oversubscribed)"
                    } else {
                        ""
                    }
                );
                raw.push(v.to_string());
                runs.push(r);
            }
        }
    }
    let meta = Meta {
        commit,
        machine: o.output.machine.clone().unwrap_or_else(machine),
        cores,
        date: today(),
        command: std::env::args().collect::<Vec<_>>().join(" "),
    };
    publish(&meta, &runs, &raw, &o.output)
}

fn gather(o: &GatherOpts) -> Result<(), String> {
    let mut runs = Vec::new();
    let mut raw = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&o.dir)
        .map_err(|e| format!("{}: {e}", o.dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .filter(|p| o.all_files || p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue; // not text: not a job output
        };
        for (run, line) in sweep::runs_from_text(&text, &path.display().to_string())? {
            runs.push(run);
            raw.push(line);
        }
    }
    if runs.is_empty() {
        return Err(format!(
            "{}: no hysolve JSON summary in any of its {} files",
            o.dir.display(),
            files.len()
        ));
    }
    let cores = o
        .cores
        .unwrap_or_else(|| runs.iter().map(|r| r.host_cpus).max().unwrap_or(1).max(1));
    let meta = Meta {
        commit: commit(),
        machine: o.output.machine.clone().unwrap_or_else(|| {
            let hosts = runs.iter().map(|r| r.hosts).max().unwrap_or(1);
            format!("cluster, runs on up to {hosts} host(s)")
        }),
        cores,
        date: today(),
        command: o.command.clone(),
    };
    publish(&meta, &runs, &raw, &o.output)
}

/// Writes the runs' JSON lines (`raw`), the CSV, the plots and the README
/// section.
fn publish(meta: &Meta, runs: &[Run], raw: &[String], out: &Output) -> Result<(), String> {
    let points = sweep::reduce(runs)?;
    let dir = &out.out_dir;
    let name = &out.name;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let jsonl = dir.join(format!("{name}-runs.jsonl"));
    sweep::write_atomically(&jsonl, (raw.join("\n") + "\n").as_bytes())?;
    let csv = dir.join(format!("{name}.csv"));
    let table = sweep::csv(meta, &points);
    sweep::write_atomically(&csv, table.as_bytes())?;
    let mut plots = Vec::new();
    for metric in [Metric::Time, Metric::Speedup, Metric::Efficiency] {
        let file = format!("{name}-{}.svg", metric.file_suffix());
        draw(&dir.join(&file), |p| {
            plot::scaling(&points, metric, meta.cores, p)
        })?;
        plots.push(file);
    }
    let file = format!("{name}-balance.svg");
    draw(&dir.join(&file), |p| plot::balance(&points, p))?;
    plots.push(file);
    let readme = dir.join("README.md");
    let old = std::fs::read_to_string(&readme).unwrap_or_default();
    let section = sweep::markdown(meta, &points, &plots);
    let new = sweep::splice_readme(&old, name, &out.title, &section);
    sweep::write_atomically(&readme, new.as_bytes())?;
    let mut stdout = std::io::stdout().lock();
    let _ = write!(stdout, "{table}");
    eprintln!(
        "hysolve-sweep: wrote {} ({} points), {} plots and the '{name}' section of {}",
        csv.display(),
        points.len(),
        plots.len(),
        readme.display()
    );
    Ok(())
}

/// Draws into a temporary file and puts it in place atomically.
fn draw(path: &Path, f: impl FnOnce(&Path) -> Result<(), String>) -> Result<(), String> {
    let tmp = path.with_extension("svg.tmp");
    f(&tmp)?;
    hysolve::advanced::output::replace(&tmp, path).map_err(|e| e.to_string())
}

fn today() -> String {
    std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown date".into())
}

#[cfg(test)]
mod test {
    use super::grid;

    #[test]
    fn the_grid_splits_every_power_of_two() {
        assert_eq!(grid(1), vec![(1, 1)]);
        assert_eq!(
            grid(4),
            vec![(1, 1), (1, 2), (2, 1), (1, 4), (2, 2), (4, 1)]
        );
        assert_eq!(grid(16).len(), 15);
        assert_eq!(grid(6).len(), 6, "up to 4, the largest power of two in 6");
    }
}
