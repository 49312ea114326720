//! Projects the time of the full 5x5 magic-square count (2,202,441,792
//! squares) from a random sample of its slices, measured on 1 and 2 workers.
//!
//! The search fills the main diagonal first, so fixing its first three cells
//! (a, b, c), all distinct, cuts the full count into 25 x 24 x 23 = 13,800
//! slices that together are the whole count. A uniform random sample of
//! slices, each counted by `hysolve magic` in 1x1, 1x2 and 2x1 (interleaved),
//! gives the mean core-seconds of a slice; the full count costs 13,800 times
//! that on one core. The sample's mean solution count, times 13,800, must
//! land near the published total: that checks that the sample represents the
//! whole. Projections for one 16-core node and for 16 such nodes divide the
//! one-core time by the workers and by the parallel efficiency measured here
//! on 2 workers (an assumption the text of the result states).

use clap::Parser;
use hysolve_tools::{command_line, commit, machine, open_csv, run_once};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_xorshift::XorShiftRng;
use std::io::Write;
use std::path::PathBuf;

/// All 5x5 normal magic squares (Schroeppel 1973; OEIS A006052 times 8).
const PUBLISHED: f64 = 2_202_441_792.0;
const SLICES: usize = 25 * 24 * 23;

#[derive(Debug, Parser)]
#[command(about = "Project the full 5x5 magic-square count from a sample of slices")]
struct Opts {
    /// The hysolve binary
    #[arg(long, default_value = "target/release/hysolve")]
    bin: PathBuf,
    /// Slices in the sample
    #[arg(long, default_value_t = 24)]
    samples: usize,
    /// Random seed of the sample
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// CSV to append the per-slice figures to
    #[arg(long, default_value = "bench-results/magic5-slices.csv")]
    out: PathBuf,
}

fn main() -> std::process::ExitCode {
    match project(&Opts::parse()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("magic5-projection: error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn project(opts: &Opts) -> Result<(), String> {
    let mut triples: Vec<(u32, u32, u32)> = Vec::with_capacity(SLICES);
    for a in 1..=25 {
        for b in (1..=25).filter(|&b| b != a) {
            for c in (1..=25).filter(|&c| c != a && c != b) {
                triples.push((a, b, c));
            }
        }
    }
    let mut rng = XorShiftRng::seed_from_u64(opts.seed);
    triples.shuffle(&mut rng);
    let sample = &triples[..opts.samples.min(SLICES)];
    let dir = tempfile_dir()?;
    let bin = opts.bin.to_string_lossy().to_string();
    let configs = [(1usize, 1usize), (1, 2), (2, 1)];
    let (machine, commit) = (machine(), commit());
    let mut csv = open_csv(
        &opts.out,
        "commit,machine,seed,a,b,c,ranks,threads,time_s,solutions,nodes",
    )?;
    let mut totals = [0.0f64; 3];
    let mut solutions = 0u64;
    for &(a, b, c) in sample {
        let path = dir.join(format!("slice_{a}_{b}_{c}.txt"));
        let mut rows = vec![vec![-1i32; 5]; 5];
        rows[0][0] = a as i32;
        rows[1][1] = b as i32;
        rows[2][2] = c as i32;
        let text: String = rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|v| v.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        std::fs::write(&path, text).map_err(|e| e.to_string())?;
        let problem = vec![
            "--quiet".to_owned(),
            "magic".to_owned(),
            path.display().to_string(),
        ];
        for (i, &(ranks, threads)) in configs.iter().enumerate() {
            let s = run_once(&command_line(&bin, ranks, threads, &problem))?;
            if i == 0 {
                solutions += s.solutions;
            }
            totals[i] += s.wall_s;
            writeln!(
                csv,
                "{commit},\"{machine}\",{},{a},{b},{c},{ranks},{threads},{:.4},{},{}",
                opts.seed, s.wall_s, s.solutions, s.nodes
            )
            .map_err(|e| e.to_string())?;
            eprintln!(
                "slice ({a},{b},{c}) {ranks}x{threads}: {:.3} s, {} squares",
                s.wall_s, s.solutions
            );
        }
    }
    let k = sample.len() as f64;
    let one_core = totals[0] / k * SLICES as f64;
    let estimate = solutions as f64 / k * SLICES as f64;
    let eff = |i: usize| totals[0] / totals[i] / 2.0;
    let e = eff(1).min(eff(2));
    println!(
        "sample: {} of {SLICES} slices (seed {}), {solutions} squares",
        sample.len(),
        opts.seed
    );
    println!(
        "estimated total squares: {estimate:.4e} (published {PUBLISHED:.4e}, ratio {:.3})",
        estimate / PUBLISHED
    );
    println!(
        "sample time: 1x1 {:.2} s, 1x2 {:.2} s (efficiency {:.3}), 2x1 {:.2} s (efficiency {:.3})",
        totals[0],
        totals[1],
        eff(1),
        totals[2],
        eff(2)
    );
    println!(
        "projected full count: {:.1} core-hours on this machine",
        one_core / 3600.0
    );
    println!(
        "projected on one 16-core node at efficiency {e:.3}: {:.1} min",
        one_core / (16.0 * e) / 60.0
    );
    println!(
        "projected on 16 such nodes (256 workers) at efficiency {e:.3}: {:.1} min",
        one_core / (256.0 * e) / 60.0
    );
    Ok(())
}

fn tempfile_dir() -> Result<PathBuf, String> {
    let dir = std::env::temp_dir().join(format!("magic5-projection-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}
