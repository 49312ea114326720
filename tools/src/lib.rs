//! What the benchmark programs (`src/bin/`) share: running hysolve in a
//! configuration and reading its JSON line, medians, and naming the commit
//! and the machine a figure was measured on.
//!
//! The time of a run is its input preparation plus its search, as the run
//! reports them (`prepare_s + wall_s`): process and MPI start-up are left out.
//!
//! [`sweep`] turns many runs into a strong-scaling table; [`plot`] draws it.

#[cfg(feature = "plots")]
pub mod plot;
pub mod sweep;

use std::process::Command;

/// One run's figures.
pub struct Sample {
    /// Reading and preparing the input plus the search (MPI start-up excluded).
    pub wall_s: f64,
    pub solutions: u64,
    pub nodes: u64,
    /// Highest manager CPU share among ranks other than the master's (%).
    pub manager_cpu_pct: f64,
    /// Messages the master sent to other ranks.
    pub master_messages: u64,
}

pub fn parse_config(s: &str) -> Result<(usize, usize), String> {
    let (r, t) = s
        .split_once('x')
        .ok_or_else(|| format!("configuration '{s}' is not RANKSxTHREADS"))?;
    let ranks = r.parse().map_err(|_| format!("bad rank count in '{s}'"))?;
    let threads = t
        .parse()
        .map_err(|_| format!("bad thread count in '{s}'"))?;
    Ok((ranks, threads))
}

/// The command line of one run. `bin` is a program, optionally after
/// environment assignments (`HYSOLVE_SIMD=none target/release/hysolve`),
/// which run through `env` on every rank and stay in the command column.
pub fn command_line(bin: &str, ranks: usize, threads: usize, problem: &[String]) -> Vec<String> {
    let mut cmd = Vec::new();
    if ranks > 1 {
        cmd.extend(["mpirun", "--oversubscribe", "--bind-to", "none", "-np"].map(String::from));
        cmd.push(ranks.to_string());
    }
    let words: Vec<&str> = bin.split_whitespace().collect();
    let env = words
        .iter()
        .take_while(|w| w.contains('=') && !w.starts_with('-'))
        .count();
    if env > 0 {
        cmd.push("env".to_string());
    }
    cmd.extend(words.iter().map(|w| w.to_string()));
    // `generate` takes no search options (and runs on one thread).
    if problem.first().map(String::as_str) != Some("generate") {
        cmd.extend(["--threads".to_string(), threads.to_string()]);
    }
    cmd.extend(problem.iter().cloned());
    cmd.extend(["--json", "--quiet"].map(String::from));
    cmd
}

/// Runs a hysolve command line and returns its JSON summary (the last line
/// of its output).
pub fn run_json(cmd: &[String]) -> Result<serde_json::Value, String> {
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
    serde_json::from_str(last).map_err(|e| format!("bad JSON from {}: {e}", cmd.join(" ")))
}

pub fn run_once(cmd: &[String]) -> Result<Sample, String> {
    let v = run_json(cmd)?;
    let last = v.to_string();
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
        // An optimisation's answer is its objective (the clique number):
        // what a peer must agree on.
        solutions: match v["objective"].as_u64() {
            Some(objective) => objective,
            None => get("solutions")? as u64,
        },
        nodes: get("nodes")? as u64,
        manager_cpu_pct,
        master_messages: v["master"]["messages_sent"].as_u64().unwrap_or(0),
    })
}

pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

pub(crate) fn sh(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!(
        "{} ({cpu}, {cores} cores, {})",
        sh("hostname", &[]),
        features()
    )
}

/// The processor features a kernel's path depends on, as a machine column
/// names them: the widest `HYSOLVE_SIMD` level it has.
pub fn features() -> String {
    use hysolve::advanced::simd::{Level, detected};
    match detected() {
        Level::Avx512 => "AVX-512 F+VPOPCNTDQ and AVX2",
        Level::Avx2 => "AVX2, no AVX-512",
        Level::None => "no AVX2, no AVX-512",
    }
    .to_string()
}

/// The commit the binaries were built from: `-dirty` when the sources
/// (src/, Cargo.toml, Cargo.lock) differ from it.
pub fn commit() -> String {
    let head = sh("git", &["rev-parse", "--short", "HEAD"]);
    let changed = sh(
        "git",
        &[
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            "src",
            "Cargo.toml",
            "Cargo.lock",
        ],
    );
    format!("{head}{}", if changed.is_empty() { "" } else { "-dirty" })
}

/// Opens a CSV to append rows to, writing `header` first when the file is
/// new (and its folder when missing).
pub fn open_csv(path: &std::path::Path, header: &str) -> Result<std::fs::File, String> {
    use std::io::Write;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let new_file = !path.exists();
    let mut csv = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if new_file {
        writeln!(csv, "{header}").map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(csv)
}
