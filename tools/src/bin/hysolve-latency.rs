//! `hysolve-latency`: a steal's round trip in the real protocol against
//! the simulator's, per configuration (`make latency`).
//!
//! Each configuration runs `--reps` real runs (`mpirun`, `--json`) and
//! one simulated run of the same search (`hysolve-sim --json`, which is
//! deterministic), and prints, for each, the steal round trips (a rank's
//! request for work to the work: `steal_round_trip_us`), the messages
//! between ranks and the time. The real figures are the medians over the
//! runs of each run's median, 90th percentile and count. Rows go to
//! `--out` with the commit, the machine and the command.

use clap::Parser;
use hysolve_tools::{command_line, commit, machine, median, open_csv, parse_config, run_json};
use std::io::Write;
use std::process::{Command, ExitCode};

#[derive(Parser)]
#[command(about = "Steal round trips, real against simulated (make latency)")]
struct Args {
    /// Real runs per configuration.
    #[arg(long, default_value_t = 5)]
    reps: usize,
    /// Configurations, RANKSxTHREADS, comma-separated.
    #[arg(long, default_value = "2x1", value_delimiter = ',')]
    configs: Vec<String>,
    /// The hysolve binary.
    #[arg(long, default_value = "target/release/hysolve")]
    bin: String,
    /// The simulator.
    #[arg(long, default_value = "target/release/hysolve-sim")]
    sim: String,
    /// The search, as hysolve's arguments.
    #[arg(long, default_value = "uts --tree T3L")]
    problem: String,
    /// The CSV the rows are appended to.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
}

/// One run's figures.
struct Trips {
    count: f64,
    p50: f64,
    p90: f64,
    max: f64,
    messages: f64,
    wall_s: f64,
}

fn trips(v: &serde_json::Value, messages: f64, wall_s: f64) -> Trips {
    let t = &v["steal_round_trip_us"];
    let get = |k: &str| t[k].as_f64().unwrap_or(f64::NAN);
    Trips {
        count: t["count"].as_f64().unwrap_or(0.0),
        p50: get("p50"),
        p90: get("p90"),
        max: get("max"),
        messages,
        wall_s,
    }
}

fn real(cmd: &[String]) -> Result<Trips, String> {
    let v = run_json(cmd)?;
    let messages = v["rank_stats"].as_array().map_or(0.0, |ranks| {
        ranks
            .iter()
            .filter_map(|r| r["messages_sent"].as_f64())
            .sum()
    });
    Ok(trips(
        &v,
        messages,
        v["wall_s"].as_f64().unwrap_or(f64::NAN),
    ))
}

fn simulated(
    sim: &str,
    ranks: usize,
    threads: usize,
    problem: &[String],
) -> Result<(Trips, String), String> {
    let mut cmd = vec![
        sim.to_string(),
        "--ranks".into(),
        ranks.to_string(),
        "--threads".into(),
        threads.to_string(),
        // The real run's ranks share this machine, and ring each other.
        "--ranks-per-host".into(),
        ranks.to_string(),
        "--json".into(),
    ];
    cmd.extend(problem.iter().cloned());
    let out = Command::new(&cmd[0])
        .args(&cmd[1..])
        .output()
        .map_err(|e| format!("{}: {e}", cmd[0]))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed: {}",
            cmd.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    let v: serde_json::Value =
        serde_json::from_str(last).map_err(|e| format!("bad JSON from {}: {e}", cmd.join(" ")))?;
    let messages = v["messages"].as_f64().unwrap_or(f64::NAN);
    let wall = v["predicted_s"].as_f64().unwrap_or(f64::NAN);
    Ok((trips(&v, messages, wall), cmd.join(" ")))
}

fn run(args: &Args) -> Result<(), String> {
    let problem: Vec<String> = args.problem.split_whitespace().map(String::from).collect();
    let (commit, machine) = (commit(), machine());
    let header =
        "commit,machine,config,source,runs,trips,p50_us,p90_us,max_us,messages,wall_s,command";
    let mut csv = match &args.out {
        Some(path) => Some(open_csv(path, header)?),
        None => None,
    };
    println!(
        "{:<6} {:<10} {:>5} {:>8} {:>9} {:>9} {:>10} {:>9} {:>8}",
        "config", "source", "runs", "trips", "p50_us", "p90_us", "max_us", "messages", "wall_s"
    );
    for config in &args.configs {
        let (ranks, threads) = parse_config(config)?;
        let cmd = command_line(&args.bin, ranks, threads, &problem);
        let runs: Vec<Trips> = (0..args.reps)
            .map(|_| real(&cmd))
            .collect::<Result<_, _>>()?;
        let med = |f: fn(&Trips) -> f64| median(&mut runs.iter().map(f).collect::<Vec<_>>());
        let real = Trips {
            count: med(|t| t.count),
            p50: med(|t| t.p50),
            p90: med(|t| t.p90),
            max: med(|t| t.max),
            messages: med(|t| t.messages),
            wall_s: med(|t| t.wall_s),
        };
        let (sim, sim_cmd) = simulated(&args.sim, ranks, threads, &problem)?;
        for (source, t, n, command) in [
            ("real", &real, args.reps, cmd.join(" ")),
            ("simulated", &sim, 1, sim_cmd),
        ] {
            println!(
                "{:<6} {:<10} {:>5} {:>8.0} {:>9.1} {:>9.1} {:>10.1} {:>9.0} {:>8.3}",
                config, source, n, t.count, t.p50, t.p90, t.max, t.messages, t.wall_s
            );
            if let Some(csv) = &mut csv {
                writeln!(
                    csv,
                    "{commit},\"{machine}\",{config},{source},{n},{:.0},{:.1},{:.1},{:.1},{:.0},{:.4},{command}",
                    t.count, t.p50, t.p90, t.max, t.messages, t.wall_s
                )
                .map_err(|e| e.to_string())?;
            }
        }
        println!(
            "{config}: simulated median round trip / real: {:.2}",
            sim.p50 / real.p50
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hysolve-latency: {e}");
            ExitCode::FAILURE
        }
    }
}
