//! `make sim-validate`: the simulator against real runs on this machine,
//! before any of its predictions is quoted. For each workload and
//! configuration it runs `hysolve` (mpirun for more than one rank), then
//! `hysolve-sim` with the node cost measured just after, and writes both
//! figures and the error: times (`wall_s` against `predicted_s`) where the
//! machine has a core for every worker, master message counts where ranks
//! are oversubscribed (their times measure the oversubscription). A
//! configuration may name groups (`16x1g4`: 16 ranks of one thread in
//! groups of 4, `--group-size 4`); then the group masters' messages are
//! compared too (`group_messages`).

use clap::Parser;
use hysolve_tools::{command_line, commit, machine, open_csv, parse_config, run_json};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(about = "The simulator's predictions against real runs on this machine")]
struct Opts {
    /// Workloads: hysolve arguments, one string each
    #[arg(
        long = "workload",
        default_values = ["uts --tree T1L", "uts --tree T3L", "queens 17"]
    )]
    workloads: Vec<String>,
    /// Configurations whose time is compared (RANKSxTHREADS, or
    /// RANKSxTHREADSgGROUP for groups)
    #[arg(long, value_delimiter = ',', default_value = "1x1,1x2,2x1")]
    times: Vec<String>,
    /// Oversubscribed configurations whose master message count is compared
    #[arg(long, value_delimiter = ',', default_value = "64x1,128x1")]
    counts: Vec<String>,
    /// The hysolve binary
    #[arg(long, default_value = "target/release/hysolve")]
    bin: String,
    /// The hysolve-sim binary
    #[arg(long, default_value = "target/release/hysolve-sim")]
    sim: String,
    /// CSV to write (appended to if it exists)
    #[arg(long, default_value = "bench-results/sim-validation.csv")]
    out: PathBuf,
}

fn main() -> std::process::ExitCode {
    let opts = Opts::parse();
    match validate(&opts) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sim-validate: error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// The processors this machine has online.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn validate(opts: &Opts) -> Result<(), String> {
    let mut csv = open_csv(
        &opts.out,
        "commit,machine,command,workload,config,figure,real,simulated,error,node_ns",
    )?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let (commit, machine) = (commit(), machine());
    let sets = [("wall_s", &opts.times), ("master_messages", &opts.counts)];
    println!(
        "{:<16} {:>7} {:>16} {:>12} {:>12} {:>8}",
        "workload", "config", "figure", "real", "simulated", "error"
    );
    for workload in &opts.workloads {
        let args: Vec<String> = workload.split_whitespace().map(String::from).collect();
        for (figure, configs) in sets {
            for config in configs {
                let (shape, group) = match config.split_once('g') {
                    Some((shape, g)) => (
                        shape,
                        Some(
                            g.parse::<usize>()
                                .map_err(|_| format!("bad group size in {config}"))?,
                        ),
                    ),
                    None => (config.as_str(), None),
                };
                let (ranks, threads) = parse_config(shape)?;
                let mut args = args.clone();
                if let Some(g) = group {
                    args.splice(0..0, ["--group-size".to_string(), g.to_string()]);
                }
                let real = run_json(&command_line(&opts.bin, ranks, threads, &args))?;
                let mut sim = vec![
                    opts.sim.clone(),
                    "--json".into(),
                    format!("--ranks={ranks}"),
                    format!("--threads={threads}"),
                ];
                if figure == "master_messages" {
                    // The real run shared this machine's cores.
                    sim.push(format!("--cores={}", cores()));
                }
                sim.extend(args.iter().cloned());
                let predicted = run_json(&sim)?;
                let (r, s) = match figure {
                    "wall_s" => (real["wall_s"].as_f64(), predicted["predicted_s"].as_f64()),
                    _ => (
                        real["master"]["messages_sent"].as_f64(),
                        predicted["master_messages"].as_f64(),
                    ),
                };
                let (Some(r), Some(s)) = (r, s) else {
                    return Err(format!("{workload} {config}: a figure is missing"));
                };
                for (what, value) in [("nodes", "nodes"), ("solutions", "solutions")] {
                    if real[value] != predicted[value] {
                        return Err(format!(
                            "{workload} {config}: real and simulated {what} differ: {} against {}",
                            real[value], predicted[value]
                        ));
                    }
                }
                let mut figures = vec![(figure, r, s)];
                if group.is_some() && figure == "master_messages" {
                    let real_groups: f64 = real["rank_stats"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|r| r["group"]["messages_sent"].as_f64())
                        .sum();
                    let sim_groups = predicted["group_messages"].as_f64().unwrap_or(0.0);
                    figures.push(("group_messages", real_groups, sim_groups));
                }
                let node_ns = &predicted["costs"]["node_ns"];
                for (figure, r, s) in figures {
                    let error = (s - r) / r.max(f64::MIN_POSITIVE);
                    println!(
                        "{workload:<16} {config:>7} {figure:>16} {r:>12.4} {s:>12.4} {:>7.1}%",
                        error * 100.0
                    );
                    writeln!(
                        csv,
                        "{commit},\"{machine}\",\"{command}\",\"{workload}\",{config},{figure},{r},{s},{error:.4},{node_ns}"
                    )
                    .map_err(|e| e.to_string())?;
                }
            }
        }
    }
    Ok(())
}
