//! `clique-estimate FILE --floor K`: how long `hysolve clique FILE` would
//! take to prove that no clique of K vertices exists, for graphs out of
//! reach here (keller5): the size of the branch-and-bound tree under the
//! floor K by Knuth's estimator (random paths from the root, each node's
//! estimate the product of the branching factors above it, the mean over
//! paths unbiased), and the search's rate on this machine, measured by
//! walking the same tree depth-first for a while on one thread.
//!
//! The estimator is the library's (`hysolve_puzzles::clique::estimate`).
//! The tree is the real one: the clique search's moves (as a branch and
//! bound lists them, told the floor: `Optimise::moves_above`), bounds and
//! pruning through the library's `Problem` interface, with the incumbent
//! fixed at K - 1 (the optimum, found at once, as `--at-least` shows).

use clap::Parser;
use hysolve_puzzles::clique::{Clique, dimacs, estimate};
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Debug, Parser)]
#[command(
    about = "Estimate the branch-and-bound tree of hysolve clique under a floor, and its time"
)]
struct Opts {
    /// A DIMACS graph
    file: PathBuf,
    /// The least clique size that would improve on the incumbent (the
    /// optimum plus one, for the proof of optimality)
    #[arg(long)]
    floor: u64,
    /// Random paths for the estimate
    #[arg(long, default_value_t = 100_000)]
    probes: u64,
    /// Seconds of depth-first walk for the rate
    #[arg(long, default_value_t = 20.0)]
    seconds: f64,
    /// Seed of the random paths
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Without the MaxSAT cut (as `hysolve clique --no-maxsat`)
    #[arg(long)]
    no_maxsat: bool,
}

fn main() -> Result<(), String> {
    let o = Opts::parse();
    let graph = dimacs::read(&o.file).map_err(|e| e.to_string())?.graph;
    let clique = Clique::new(&graph, o.file.display().to_string()).maxsat(!o.no_maxsat);
    // Knuth's estimator (the library's, which the numbering uses too).
    let nodes = estimate::tree(&clique, o.floor, o.probes, o.seed).nodes;
    // The rate: the same tree, depth-first, for a while.
    let started = Instant::now();
    let limit = Duration::from_secs_f64(o.seconds);
    let walked = estimate::walk(&clique, o.floor, |walked| {
        !(walked.is_multiple_of(4096) && started.elapsed() > limit)
    });
    let seconds = started.elapsed().as_secs_f64();
    let rate = walked as f64 / seconds;
    println!(
        "{}: tree under floor {}: about {:.3e} nodes (Knuth's estimator, {} paths, seed {}); \
         rate {:.3e} nodes/s on one thread ({} nodes in {:.1} s); projection {:.3e} s on one thread ({:.1} days)",
        o.file.display(),
        o.floor,
        nodes,
        o.probes,
        o.seed,
        rate,
        walked,
        seconds,
        nodes / rate,
        nodes / rate / 86_400.0
    );
    Ok(())
}
