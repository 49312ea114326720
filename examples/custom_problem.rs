//! Your own search on hysolve's engine: the Langford pairings of 2n numbers.
//!
//! A Langford pairing of order n puts the numbers 1, 1, 2, 2, ..., n, n in a
//! row so that the two copies of k have exactly k numbers between them
//! (`4 1 3 1 2 4 3 2` for n = 4). They exist when n is 0 or 3 mod 4, and
//! there are 26 of order 7 up to reversal, 150 of order 8 (OEIS A014552).
//!
//! The whole problem is the `Problem` impl below: a node is a partial row,
//! its children the ways to cover the first free place. hysolve adds the
//! threads, the work stealing, the MPI ranks and the modes.
//!
//! ```text
//! cargo run --release --example custom_problem                 # order 7: 52 (both ways)
//! cargo run --release --example custom_problem -- 8 --distinct # 150
//! cargo run --release --example custom_problem -- 4 --all      # lists both pairings
//! cargo build --release -p hysolve --example custom_problem --features mpi
//! mpirun -np 2 target/release/examples/custom_problem 11 --distinct --threads 1
//! ```

use hysolve::{Mode, Problem, RunConfig, Solutions, run};
use std::sync::Arc;

/// Pairings of order `n`; with `distinct`, one of each pair of mirror images.
struct Langford {
    n: usize,
    distinct: bool,
}

/// A partial row: which places are taken, which numbers are placed, and
/// the number in each place (0: free). Small and `Copy`: it is cloned
/// whenever work is split.
#[derive(Clone, Copy)]
struct Row {
    taken: u32,
    placed: u16,
    at: [u8; 32],
}

impl Problem for Langford {
    type Node = Row;

    fn name(&self) -> &'static str {
        "langford"
    }

    fn instance(&self) -> String {
        let up_to = if self.distinct { " up to reversal" } else { "" };
        format!("{}{up_to}", self.n)
    }

    fn root(&self) -> Row {
        Row {
            taken: 0,
            placed: 0,
            at: [0; 32],
        }
    }

    /// Every number k not yet placed whose two places, the first free place
    /// p and p + k + 1, are both free. Always in the same order (k rising),
    /// as the engine requires.
    fn children(&self, row: &Row, out: &mut Vec<Row>) {
        let places = 2 * self.n;
        let p = row.taken.trailing_ones() as usize;
        for k in 1..=self.n {
            let q = p + k + 1;
            if row.placed & (1 << k) != 0 || q >= places || row.taken & (1 << q) != 0 {
                continue;
            }
            // Mirror images: the reversal moves 1's first place p to
            // 2n - 3 - p, never to p itself; keep the smaller of the two.
            if self.distinct && k == 1 && p + 2 > self.n {
                continue;
            }
            let mut child = *row;
            child.taken |= 1 << p | 1 << q;
            child.placed |= 1 << k;
            child.at[p] = k as u8;
            child.at[q] = k as u8;
            out.push(child);
        }
    }

    fn solution_weight(&self, row: &Row) -> u64 {
        u64::from(row.taken.count_ones() as usize == 2 * self.n)
    }

    fn render(&self, row: &Row, out: &mut String) {
        let numbers: Vec<String> = row.at[..2 * self.n].iter().map(u8::to_string).collect();
        out.push_str(&numbers.join(" "));
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut n = 7;
    let (mut distinct, mut mode, mut threads) = (false, Mode::Count, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--distinct" => distinct = true,
            "--all" => mode = Mode::All,
            "--threads" => threads = Some(args.next().ok_or("--threads needs a number")?.parse()?),
            _ => {
                n = arg
                    .parse()
                    .map_err(|_| format!("'{arg}': expected the order n"))?
            }
        }
    }
    if !(1..=16).contains(&n) {
        return Err(format!("the order must be 1 to 16 (32 places), got {n}").into());
    }
    let mut config = RunConfig::new(mode);
    if let Some(t) = threads {
        config = config.threads(t);
    }
    let problem = Arc::new(Langford { n, distinct });
    let solutions = match mode {
        Mode::All => Solutions::Stdout,
        _ => Solutions::Discard,
    };
    // Every rank searches; rank 0 alone gets the outcome.
    if let Some(outcome) = run(problem, &config, solutions)? {
        let up_to = if distinct { " up to reversal" } else { "" };
        println!(
            "L(2,{n}) = {}{up_to} ({} ranks x {} threads, {} nodes, {:.3} s)",
            outcome.solutions, outcome.ranks, outcome.threads, outcome.nodes, outcome.wall_s
        );
    }
    Ok(())
}
