//! Your own search on hysolve's engine: the Langford pairings of 2n numbers, each k's two
//! copies k numbers apart (`4 1 3 1 2 4 3 2`; 26 of order 7 up to reversal, OEIS A014552).
//! The whole problem is the `Problem` impl: a worker's `Row` goes down the tree as a number
//! is placed (`apply`) and back up (`undo`), and a count copies its 16 bytes for each child
//! instead (`child`), kept in registers; hysolve adds the threads, the
//! work stealing, the MPI ranks (built with `--features mpi`) and the modes. Run it with
//! `cargo run --release --example custom_problem -- [N] [--distinct] [--all] [--threads T]`.

use hysolve::{Mode, Problem, RunConfig, Solutions, run};

/// Pairings of order `n`; with `distinct`, one of each pair of mirror images. What every node
/// would compute from `n` alone is computed once here: a node costs a few bit operations, and a
/// `popcnt` of its row and a test of `distinct` at each were 6 % of the search's time.
struct Langford {
    n: u8,
    /// The first place `p` at which 1 may no longer go (of two mirror images, the one with 1
    /// first at `p < 2n - 3 - p` is kept); past the row when both are counted.
    mirror: u8,
    /// Every place taken: a full row.
    full: u32,
}

impl Langford {
    fn new(n: u8, distinct: bool) -> Langford {
        let full = if n == 16 { u32::MAX } else { (1 << (2 * n)) - 1 };
        Langford { n, mirror: if distinct { n - 1 } else { u8::MAX }, full }
    }
}

/// A partial row: places taken, numbers placed, and the numbers in the order they were placed,
/// four bits each (the number less 1), the last placed lowest; each went to the first free
/// place, so the order is the row. Sixteen bytes: the engine keeps a row in registers
/// (`child`). `undo` shifts the last number out, so a row comes back exactly as it was.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Row {
    taken: u32,
    placed: u32,
    order: u64,
}

/// A move: `k` into the first free place `p` and `p + k + 1`; as a cursor, `k` next, to `last`.
#[derive(Clone, Copy)]
struct Place {
    p: u8,
    k: u8,
    last: u8,
}

impl Problem for Langford {
    type Node = Row;
    type State = Row;
    type Move = Place;
    type Cursor = Place;
    hysolve::state_is_node!(); // The state is a node: this writes `state`, `load` and `save`.
    fn root(&self) -> Row {
        Row { taken: 0, placed: 0, order: 0 }
    }
    fn moves(&self, row: &mut Row) -> Place {
        let p = row.taken.trailing_ones() as u8;
        let k = 1 + u8::from(p >= self.mirror);
        Place { p, k, last: self.n.min((2 * self.n).saturating_sub(p + 2)) }
    }

    /// Numbers not yet placed whose second place is free, k rising (a fixed order).
    fn next_move(&self, row: &Row, at: &mut Place) -> Option<Place> {
        while at.k <= at.last {
            let (p, k) = (at.p, at.k);
            at.k += 1;
            // Both bits in one test, one branch a number: `&&` made two, and a mispredicted
            // branch is most of a node's time (the count took 8 to 13 % longer).
            if (row.placed >> k | row.taken >> (p + k + 1)) & 1 == 0 {
                return Some(Place { p, k, last: 0 });
            }
        }
        None
    }

    fn apply(&self, row: &mut Row, &Place { p, k, .. }: &Place) {
        row.order = row.order << 4 | u64::from(k - 1);
        row.taken |= 1 << p | 1 << (p + k + 1);
        row.placed |= 1 << k;
    }
    fn undo(&self, row: &mut Row, &Place { p, k, .. }: &Place) {
        row.taken &= !(1 << p | 1 << (p + k + 1));
        row.placed &= !(1 << k);
        row.order >>= 4;
    }
    fn child(&self, row: &Row, m: &Place) -> Option<Row> {
        let mut child = *row; // Sixteen bytes: a count keeps each node's row in its own frame.
        self.apply(&mut child, m);
        Some(child)
    }

    fn solution_weight(&self, row: &Row) -> u64 {
        u64::from(row.taken == self.full)
    }
    fn render(&self, row: &Row, out: &mut String) {
        let mut at = vec![0; 2 * self.n as usize];
        for i in (0..self.n).rev() {
            let (k, p) = ((row.order >> (4 * i) & 15) as u8 + 1, at.iter().position(|&a| a == 0));
            let p = p.expect("a full row");
            (at[p], at[p + k as usize + 1]) = (k, k);
        }
        out.push_str(&at.iter().map(u8::to_string).collect::<Vec<_>>().join(" "));
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let has = |flag: &str| args.iter().position(|a| a == flag);
    let value = has("--threads").map(|i| i + 1);
    let n = (0..args.len()).find(|&i| !args[i].starts_with('-') && Some(i) != value);
    let n = n.map_or(Some(7), |i| args[i].parse().ok()).filter(|n: &u8| (1..=16).contains(n));
    let n = n.ok_or("the order n must be 1 to 16")?;
    let mut config = RunConfig::new(if has("--all").is_some() { Mode::All } else { Mode::Count });
    if let Some(t) = value.and_then(|i| args.get(i)) {
        config = config.threads(t.parse().map_err(|_| format!("--threads {t}: not a number"))?);
    }
    let problem = std::sync::Arc::new(Langford::new(n, has("--distinct").is_some()));
    // Every rank searches; rank 0 alone gets the outcome (and prints, in all mode).
    let Some(o) = run(problem, &config, Solutions::Stdout)? else { return Ok(()) };
    let (s, nodes, r, t, wall) = (o.solutions, o.nodes, o.ranks, o.threads, o.wall_s);
    let json = format!("{{\"solutions\":{s},\"nodes\":{nodes},\"wall_s\":{wall}}}"); // make bench
    let text = format!("L(2,{n}) = {s} ({r} ranks x {t} threads, {nodes} nodes, {wall:.3} s)");
    println!("{}", if has("--json").is_some() { json } else { text });
    Ok(())
}

#[cfg(test)]
mod test {
    #[test]
    fn conforms_and_counts_the_pairings() {
        for (n, both_ways) in [(1, 0), (3, 2), (4, 2), (5, 0), (7, 52), (8, 300)] {
            for distinct in [false, true] {
                let checked = hysolve::check(&super::Langford::new(n, distinct)).unwrap();
                assert!(checked.whole && checked.solutions == both_ways >> u8::from(distinct));
            }
        }
    }
}
