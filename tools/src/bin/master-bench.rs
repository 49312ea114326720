//! `make bench`: the master's bookkeeping alone (no MPI, no encoding), in
//! the steal phase, at 2 to 4,096 ranks: requests served per second, the
//! median of several runs. Writes a CSV row per rank count with the commit,
//! the machine and the command. `bench-results/log/2026-11-ranks-and-the-master.md`
//! ("Projection: how many ranks one master feeds")
//! turns the figures into the number of ranks one master can feed.

use clap::Parser;
use hysolve::advanced::master_bench;
use hysolve_tools::{commit, machine, median, open_csv};
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(about = "Requests per second the master's bookkeeping serves")]
struct Opts {
    /// Rank counts
    #[arg(long, value_delimiter = ',', default_value = "2,16,128,1024,4096")]
    ranks: Vec<usize>,
    /// Requests a run
    #[arg(long, default_value_t = 200_000)]
    requests: u64,
    /// Runs of each rank count (the median is kept)
    #[arg(long, default_value_t = 5)]
    reps: usize,
    /// CSV to write (appended to if it exists)
    #[arg(long, default_value = "bench-results/master.csv")]
    out: PathBuf,
}

fn main() -> std::process::ExitCode {
    let opts = Opts::parse();
    match bench(&opts) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("master-bench: error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn bench(opts: &Opts) -> Result<(), String> {
    if let Some(bad) = opts.ranks.iter().find(|&&r| r < 2) {
        return Err(format!(
            "--ranks: {bad}: the steal phase needs at least 2 ranks"
        ));
    }
    let mut csv = open_csv(
        &opts.out,
        "commit,machine,command,ranks,requests,reps,median_requests_per_s,median_ns_per_request",
    )?;
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let (commit, machine) = (commit(), machine());
    println!("{:>6} {:>14} {:>12}", "ranks", "requests/s", "ns/request");
    for &ranks in &opts.ranks {
        let mut rates: Vec<f64> = (0..opts.reps.max(1))
            .map(|rep| master_bench::run(ranks, opts.requests, rep as u64).requests_per_s())
            .collect();
        let rate = median(&mut rates);
        println!("{ranks:>6} {rate:>14.0} {:>12.0}", 1e9 / rate);
        writeln!(
            csv,
            "{commit},\"{machine}\",\"{command}\",{ranks},{},{},{rate:.0},{:.0}",
            opts.requests,
            opts.reps,
            1e9 / rate
        )
        .map_err(|e| format!("{}: {e}", opts.out.display()))?;
    }
    Ok(())
}
