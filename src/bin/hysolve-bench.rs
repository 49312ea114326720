//! `make bench`: runs hysolve in several rank x thread configurations,
//! repeats each run, and writes the median, min and max wall time to a CSV
//! under bench-results/, with the commit, the machine and the command.
//!
//! The time of a run is its input preparation plus its search, as the run
//! reports them (`prepare_s + wall_s`): process and MPI start-up are left out.
//!
//! Runs of one instance are interleaved (1x1, 1x2, 2x1, 1x1, ...) so that
//! the noise of a shared machine falls on every configuration alike.

use clap::Parser;
use hysolve::bench::{
    Sample, command_line, commit, machine, median, open_csv, parse_config, run_once,
};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(about = "Benchmark hysolve configurations side by side")]
struct Opts {
    /// The hysolve binary
    #[arg(long, default_value = "target/release/hysolve")]
    bin: PathBuf,
    /// Configurations RANKSxTHREADS
    #[arg(long, value_delimiter = ',', default_value = "1x1,1x2,2x1")]
    configs: Vec<String>,
    /// Repetitions of each configuration
    #[arg(long, default_value_t = 3)]
    reps: usize,
    /// CSV to write (appended to if it exists)
    #[arg(long, default_value = "bench-results/queens.csv")]
    out: PathBuf,
    /// The problem and its arguments, as given to hysolve; `{}` is replaced
    /// by each value of --values (which may hold several words)
    #[arg(long, default_value = "queens {}", allow_hyphen_values = true)]
    problem: String,
    /// Values substituted for `{}` in --problem
    #[arg(long, value_delimiter = ',', default_value = "14,15,16,17")]
    values: Vec<String>,
}

fn main() -> std::process::ExitCode {
    let opts = Opts::parse();
    match bench(&opts) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hysolve-bench: error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn bench(opts: &Opts) -> Result<(), String> {
    let configs: Vec<(usize, usize)> = opts
        .configs
        .iter()
        .map(|c| parse_config(c))
        .collect::<Result<_, _>>()?;
    let bin = opts.bin.to_string_lossy().to_string();
    let (machine, commit) = (machine(), commit());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut csv = open_csv(
        &opts.out,
        "commit,machine,cores,problem,ranks,threads,oversubscribed,reps,median_s,min_s,max_s,speedup_vs_1x1,solutions,nodes,max_manager_cpu_pct,command",
    )?;
    for value in &opts.values {
        // Substituted first: a value may hold several words ("iqfit --board 11x5").
        let problem: Vec<String> = opts
            .problem
            .replace("{}", value)
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        let cmds: Vec<Vec<String>> = configs
            .iter()
            .map(|&(r, t)| command_line(&bin, r, t, &problem))
            .collect();
        let mut samples: Vec<Vec<Sample>> = configs.iter().map(|_| Vec::new()).collect();
        for _ in 0..opts.reps {
            for (i, cmd) in cmds.iter().enumerate() {
                samples[i].push(run_once(cmd)?);
            }
        }
        let mut base = None;
        for (i, &(ranks, threads)) in configs.iter().enumerate() {
            let s = &samples[i];
            let solutions = s[0].solutions;
            if s.iter().any(|x| x.solutions != solutions) {
                return Err(format!(
                    "{}: solution counts differ between repetitions",
                    cmds[i].join(" ")
                ));
            }
            let mut walls: Vec<f64> = s.iter().map(|x| x.wall_s).collect();
            let med = median(&mut walls);
            if (ranks, threads) == (1, 1) {
                base = Some(med);
            }
            let speedup = base.map_or(String::new(), |b| format!("{:.3}", b / med));
            let mgr = s.iter().map(|x| x.manager_cpu_pct).fold(0.0, f64::max);
            let line = format!(
                "{commit},\"{machine}\",{cores},\"{}\",{ranks},{threads},{},{},{med:.4},{:.4},{:.4},{speedup},{solutions},{},{mgr:.3},\"{}\"",
                problem.join(" "),
                ranks * threads > cores,
                opts.reps,
                walls[0],
                walls[walls.len() - 1],
                s[0].nodes,
                cmds[i].join(" ")
            );
            println!("{line}");
            writeln!(csv, "{line}").map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
