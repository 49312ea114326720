//! The plain Rust peer of `examples/custom_problem N` in count mode, and
//! the twin of `tools/c/langford.c`: a recursion of the same tree
//! (Langford pairings of order N, both ways; a node is a partial row, its
//! children the numbers k, rising, that fit in the first free place p and
//! in p + k + 1), for `make bench` to run beside the example and the C.
//!
//! It takes the example's command line as `make bench` gives it
//! (`--threads 1 N --json --quiet`; every word but N is ignored) and
//! prints the example's JSON summary: solutions, nodes and wall_s (the
//! search alone). Threads: one.

use std::process::ExitCode;
use std::time::Instant;

/// The search's constants and totals.
struct Walk {
    n: u32,
    places: u32,
    full: u32,
    nodes: u64,
    solutions: u64,
}

impl Walk {
    /// Counts the node of places `taken` and numbers `placed`, and its
    /// subtree.
    fn walk(&mut self, taken: u32, placed: u32) {
        self.nodes += 1;
        if taken == self.full {
            self.solutions += 1;
            return;
        }
        let p = taken.trailing_ones();
        // k's second place, p + k + 1, must lie in the row.
        let last = (self.places - p).saturating_sub(2).min(self.n);
        for k in 1..last + 1 {
            let q = p + k + 1;
            // Both bits in one test: one branch, as gcc makes of the C
            // peer's `||` (LLVM kept `||` as two branches, and this
            // recursion took 1.23 to 1.28 of the C's time).
            if (placed >> k | taken >> q) & 1 != 0 {
                continue;
            }
            self.walk(taken | 1 << p | 1 << q, placed | 1 << k);
        }
    }
}

fn main() -> ExitCode {
    let mut n = 0;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--threads" {
            args.next();
        } else if !a.starts_with('-') {
            n = a.parse().unwrap_or(0);
        }
    }
    if !(1..=16).contains(&n) {
        eprintln!("langford-plain: the order must be 1 to 16");
        return ExitCode::from(2);
    }
    let places = 2 * n;
    let mut w = Walk {
        n,
        places,
        full: if places == 32 {
            u32::MAX
        } else {
            (1 << places) - 1
        },
        nodes: 0,
        solutions: 0,
    };
    let t0 = Instant::now();
    w.walk(0, 0);
    let wall = t0.elapsed().as_secs_f64();
    let (s, nodes) = (w.solutions, w.nodes);
    println!("L(2,{n}) = {s} ({nodes} nodes, {wall:.3} s)");
    println!("{{\"solutions\":{s},\"nodes\":{nodes},\"wall_s\":{wall:.6}}}");
    ExitCode::SUCCESS
}
