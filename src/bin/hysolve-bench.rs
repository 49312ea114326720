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
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

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
    /// The problem and its arguments, as given to hysolve; `{}` in one of
    /// them is replaced by each value of --values
    #[arg(long, default_value = "queens {}", allow_hyphen_values = true)]
    problem: String,
    /// Values substituted for `{}` in --problem
    #[arg(long, value_delimiter = ',', default_value = "14,15,16,17")]
    values: Vec<String>,
}

struct Sample {
    /// Reading and preparing the input plus the search (MPI start-up excluded).
    wall_s: f64,
    solutions: u64,
    nodes: u64,
    /// Highest manager CPU share among ranks other than the master's (%).
    manager_cpu_pct: f64,
}

fn parse_config(s: &str) -> Result<(usize, usize), String> {
    let (r, t) = s
        .split_once('x')
        .ok_or_else(|| format!("configuration '{s}' is not RANKSxTHREADS"))?;
    let ranks = r.parse().map_err(|_| format!("bad rank count in '{s}'"))?;
    let threads = t
        .parse()
        .map_err(|_| format!("bad thread count in '{s}'"))?;
    Ok((ranks, threads))
}

fn command_line(bin: &str, ranks: usize, threads: usize, problem: &[String]) -> Vec<String> {
    let mut cmd = Vec::new();
    if ranks > 1 {
        cmd.extend(["mpirun", "--oversubscribe", "-np"].map(String::from));
        cmd.push(ranks.to_string());
    }
    cmd.push(bin.to_string());
    cmd.extend(["--threads".to_string(), threads.to_string()]);
    cmd.extend(problem.iter().cloned());
    cmd.extend(["--json", "--quiet"].map(String::from));
    cmd
}

fn run_once(cmd: &[String]) -> Result<Sample, String> {
    let out = Command::new(&cmd[0])
        .args(&cmd[1..])
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output()
        .map_err(|e| format!("{}: {e}", cmd[0]))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "{} failed: {}",
            cmd.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let last = stdout.lines().last().unwrap_or_default();
    let v: serde_json::Value =
        serde_json::from_str(last).map_err(|e| format!("bad JSON from {}: {e}", cmd.join(" ")))?;
    let get = |k: &str| v[k].as_f64().ok_or_else(|| format!("no '{k}' in {last}"));
    let manager_cpu_pct = v["rank_stats"]
        .as_array()
        .map(|ranks| {
            ranks
                .iter()
                .filter(|r| r["rank"].as_u64() != Some(0))
                .filter_map(|r| Some(100.0 * r["manager_cpu_s"].as_f64()? / r["wall_s"].as_f64()?))
                .fold(0.0, f64::max)
        })
        .unwrap_or(0.0);
    Ok(Sample {
        wall_s: get("wall_s")? + v["prepare_s"].as_f64().unwrap_or(0.0),
        solutions: get("solutions")? as u64,
        nodes: get("nodes")? as u64,
        manager_cpu_pct,
    })
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn sh(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!("{} ({cpu}, {cores} cores)", sh("hostname", &[]))
}

fn commit() -> String {
    let head = sh("git", &["rev-parse", "--short", "HEAD"]);
    let dirty = !sh("git", &["status", "--porcelain", "--untracked-files=no"]).is_empty();
    format!("{head}{}", if dirty { "-dirty" } else { "" })
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
    let new_file = !opts.out.exists();
    if let Some(dir) = opts.out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut csv = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&opts.out)
        .map_err(|e| format!("{}: {e}", opts.out.display()))?;
    if new_file {
        writeln!(
            csv,
            "commit,machine,cores,problem,ranks,threads,oversubscribed,reps,median_s,min_s,max_s,speedup_vs_1x1,solutions,nodes,max_manager_cpu_pct,command"
        )
        .map_err(|e| e.to_string())?;
    }
    for value in &opts.values {
        let problem: Vec<String> = opts
            .problem
            .split_whitespace()
            .map(|w| w.replace("{}", value))
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
