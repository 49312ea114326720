//! Your own search on hysolve's engine: the Langford pairings of 2n numbers.
//!
//! A Langford pairing of order n puts the numbers 1, 1, 2, 2, ..., n, n in a
//! row so that the two copies of k have exactly k numbers between them
//! (`4 1 3 1 2 4 3 2` for n = 4). They exist when n is 0 or 3 mod 4, and
//! there are 26 of order 7 up to reversal, 150 of order 8 (OEIS A014552).
//!
//! The whole problem is the `Problem` impl below, in place: each worker
//! owns a `Row` that moves down the tree as a number is placed
//! ([`Problem::apply`]) and back up as it is taken away
//! ([`Problem::undo`]); the moves from a row are listed lazily, one at a
//! time ([`Problem::next_move`]), as a plain recursion tries them. Nothing is cloned between nodes, so the search
//! runs at the speed of a plain recursion (`tools/c/langford.c`, side by
//! side in `make bench`). hysolve adds the threads, the work stealing, the
//! MPI ranks and the modes. (A problem that prefers values to a state
//! implements `hysolve::engine::Tree` instead: a node and its children.)
//!
//! ```text
//! cargo run --release --example custom_problem                 # order 7: 52 (both ways)
//! cargo run --release --example custom_problem -- 8 --distinct # 150
//! cargo run --release --example custom_problem -- 4 --all      # lists both pairings
//! cargo run --release --example custom_problem -- 12 --json    # the summary as JSON
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
/// the number in each place. A worker's state, and, copied, what a task
/// carries when work is split.
#[derive(Debug, Clone, Copy)]
struct Row {
    taken: u32,
    placed: u32,
    at: [u8; 32],
}

/// Rows are equal when the same places hold the same numbers: a free
/// place's entry in `at` is whatever was last there (`undo` leaves it), so
/// it is not compared (`hysolve::engine::check` compares nodes with `==`).
impl PartialEq for Row {
    fn eq(&self, other: &Row) -> bool {
        self.taken == other.taken
            && self.placed == other.placed
            && (0..32).all(|p| self.taken & 1 << p == 0 || self.at[p] == other.at[p])
    }
}

impl Eq for Row {}

/// A move: number `k` into the first free place `p` and into `p + k + 1`.
#[derive(Clone, Copy)]
struct Place {
    p: u8,
    k: u8,
}

/// Where the listing of a row's moves stands: its first free place `p`,
/// the next number `k` to try there, and the largest that fits.
#[derive(Clone, Copy)]
struct Numbers {
    p: u8,
    k: u8,
    last: u8,
}

impl Problem for Langford {
    type Node = Row;
    type State = Row;
    type Move = Place;
    type Moves = Numbers;

    // A worker's state is a copy of a node: the macro writes `state`,
    // `load` and `save`.
    hysolve::state_is_node!();

    fn root(&self) -> Row {
        Row {
            taken: 0,
            placed: 0,
            at: [0; 32],
        }
    }

    /// Starts listing the moves of a row: every number k not yet placed
    /// whose two places, the first free place p and p + k + 1, are both
    /// free, k rising (always the same order, as the engine requires).
    #[inline]
    fn moves(&self, row: &mut Row) -> Numbers {
        let p = row.taken.trailing_ones() as usize;
        // k's second place, p + k + 1, must lie in the row.
        let last = self.n.min((2 * self.n).saturating_sub(p + 2));
        Numbers {
            p: p as u8,
            k: 1,
            last: last as u8,
        }
    }

    #[inline]
    fn next_move(&self, row: &Row, at: &mut Numbers) -> Option<Place> {
        while at.k <= at.last {
            let (p, k) = (at.p, at.k);
            at.k += 1;
            if row.placed & (1 << k) != 0 || row.taken & (1 << (p + k + 1)) != 0 {
                continue;
            }
            // Mirror images: the reversal moves 1's first place p to
            // 2n - 3 - p, never to p itself; keep the smaller of the two.
            if self.distinct && k == 1 && usize::from(p) + 2 > self.n {
                continue;
            }
            return Some(Place { p, k });
        }
        None
    }

    #[inline]
    fn apply(&self, row: &mut Row, &Place { p, k }: &Place) {
        let q = p + k + 1;
        row.taken |= 1 << p | 1 << q;
        row.placed |= 1 << k;
        row.at[p as usize] = k;
        row.at[q as usize] = k;
    }

    /// Frees the two places again (`at` is read only where `taken` says).
    #[inline]
    fn undo(&self, row: &mut Row, &Place { p, k }: &Place) {
        row.taken &= !(1 << p | 1 << (p + k + 1));
        row.placed &= !(1 << k);
    }

    #[inline]
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
    let (mut distinct, mut mode, mut threads, mut json) = (false, Mode::Count, None, false);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--distinct" => distinct = true,
            "--all" => mode = Mode::All,
            "--json" => json = true,
            "--quiet" => {}
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
        if json {
            // The fields `hysolve --json` has, for `make bench`.
            println!(
                "{{\"solutions\":{},\"nodes\":{},\"wall_s\":{},\"ranks\":{},\"threads\":{}}}",
                outcome.solutions, outcome.nodes, outcome.wall_s, outcome.ranks, outcome.threads
            );
            return Ok(());
        }
        let up_to = if distinct { " up to reversal" } else { "" };
        println!(
            "L(2,{n}) = {}{up_to} ({} ranks x {} threads, {} nodes, {:.3} s)",
            outcome.solutions, outcome.ranks, outcome.threads, outcome.nodes, outcome.wall_s
        );
    }
    Ok(())
}

#[cfg(test)]
mod test {
    use super::Langford;
    use hysolve::engine::check;

    /// The engine's conformance check on small orders: every promise of
    /// `Problem` holds, and the counts are OEIS A014552's (each pairing
    /// and its reversal; half of it up to reversal).
    #[test]
    fn conforms_and_counts_the_pairings() {
        for (n, both_ways) in [(1, 0), (3, 2), (4, 2), (5, 0), (7, 52), (8, 300)] {
            for distinct in [false, true] {
                let what = format!("order {n}, distinct {distinct}");
                let checked =
                    check(&Langford { n, distinct }).unwrap_or_else(|v| panic!("{what}: {v}"));
                assert!(checked.whole, "{what}: {checked:?}");
                let expected = if distinct { both_ways / 2 } else { both_ways };
                assert_eq!(checked.solutions, expected, "{what}");
            }
        }
    }
}
