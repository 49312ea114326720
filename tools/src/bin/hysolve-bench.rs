//! `make bench`: runs hysolve in several rank x thread configurations,
//! repeats each run, and writes the median, min and max wall time to a CSV
//! under bench-results/, with the commit, the machine and the command.
//!
//! The time of a run is its input preparation plus its search, as the run
//! reports them (`prepare_s + wall_s`): process and MPI start-up are left out.
//!
//! Runs are interleaved (each repetition runs every value in every
//! configuration once) so that the noise of a shared machine falls on every
//! configuration and every value alike.

use clap::Parser;
use hysolve_tools::{
    Sample, command_line, commit, machine, median, open_csv, parse_config, run_once,
};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(about = "Benchmark hysolve configurations side by side")]
struct Opts {
    /// The hysolve binary; several (comma-separated) run side by side,
    /// interleaved like values, to compare two builds or two paths (the
    /// command column names the binary). A binary may follow environment
    /// assignments: "HYSOLVE_SIMD=none target/release/hysolve"
    #[arg(long, value_delimiter = ',', default_value = "target/release/hysolve")]
    bin: Vec<PathBuf>,
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
    /// Also record the master's messages to other ranks (the median over
    /// repetitions, and per rank): a last column, for a CSV of its own
    #[arg(long)]
    messages: bool,
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
    let (machine, commit) = (machine(), commit());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let header = "commit,machine,cores,problem,ranks,threads,oversubscribed,reps,median_s,min_s,max_s,speedup_vs_1x1,solutions,nodes,max_manager_cpu_pct,command";
    let messages_header = format!("{header},median_master_messages,master_messages_per_rank");
    let mut csv = open_csv(
        &opts.out,
        if opts.messages {
            &messages_header
        } else {
            header
        },
    )?;
    // Every run of every value and configuration, interleaved: each
    // repetition runs them all once, so a noisy machine's noise falls on
    // all of them alike (and variants given as values compare side by side).
    let problems: Vec<Vec<String>> = opts
        .values
        .iter()
        .map(|value| {
            // Substituted first: a value may hold several words ("iqfit --board 11x5").
            opts.problem
                .replace("{}", value)
                .split_whitespace()
                .map(str::to_owned)
                .collect()
        })
        .collect();
    // Each problem with each binary.
    let problems: Vec<(String, Vec<String>)> = problems
        .iter()
        .flat_map(|problem| {
            opts.bin
                .iter()
                .map(move |bin| (bin.to_string_lossy().to_string(), problem.clone()))
        })
        .collect();
    let cmds: Vec<Vec<Vec<String>>> = problems
        .iter()
        .map(|(bin, problem)| {
            configs
                .iter()
                .map(|&(r, t)| command_line(bin, r, t, problem))
                .collect()
        })
        .collect();
    let mut all_samples: Vec<Vec<Vec<Sample>>> = cmds
        .iter()
        .map(|c| c.iter().map(|_| Vec::new()).collect())
        .collect();
    for _ in 0..opts.reps {
        for (v, value_cmds) in cmds.iter().enumerate() {
            for (i, cmd) in value_cmds.iter().enumerate() {
                all_samples[v][i].push(run_once(cmd)?);
            }
        }
    }
    for (((_, problem), cmds), samples) in problems.iter().zip(&cmds).zip(&all_samples) {
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
            let mut line = format!(
                "{commit},\"{machine}\",{cores},\"{}\",{ranks},{threads},{},{},{med:.4},{:.4},{:.4},{speedup},{solutions},{},{mgr:.3},\"{}\"",
                problem.join(" "),
                ranks * threads > cores,
                opts.reps,
                walls[0],
                walls[walls.len() - 1],
                s[0].nodes,
                cmds[i].join(" ")
            );
            if opts.messages {
                let mut counts: Vec<f64> = s.iter().map(|x| x.master_messages as f64).collect();
                let m = median(&mut counts);
                line += &format!(",{m:.0},{:.1}", m / ranks as f64);
            }
            println!("{line}");
            writeln!(csv, "{line}").map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}
