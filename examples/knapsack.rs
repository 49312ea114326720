//! Your own optimisation on hysolve's engine: the 0/1 knapsack by branch
//! and bound, with Dantzig's bound.
//!
//! Items have a value and a weight; the best packing is the subset of
//! greatest value whose weight fits the capacity. The items are sorted by
//! value per unit of weight, and a node decides them in that order: take
//! the next one (when it fits), or leave it. Dantzig's bound on a subtree
//! is the value packed so far plus the greedy fractional filling of the
//! room left with the items not yet decided (the linear relaxation's
//! optimum). The tree is a [`Problem`]; its objective, bound and heuristic
//! are an [`Optimise`], and [`optimise`] runs the engine's optimise mode
//! ([`Mode::Optimise`]): it prunes every move whose bound cannot beat the
//! best packing known on any worker of any rank ([`Optimise::bound`]),
//! shares each improvement ([`Optimise::objective`]) with every worker at
//! once and with the other ranks through the master, and proves the
//! optimum when the tree is exhausted. `--at-least K` stops at the first
//! packing worth K. Before the search, the engine's ramp-up takes the
//! greedy packing by ratio ([`Optimise::heuristic`]) as its first
//! incumbent (`--ramp-up 0`: none).
//!
//! The instance is made from a seed: `n` items of weight 1 to 1,000 whose
//! value is their weight plus 100 (Pisinger's strongly correlated
//! instances, the hard kind for this bound), and a capacity of half the
//! total weight. The random numbers are splitmix64's.
//!
//! ```text
//! cargo run --release --example knapsack                     # 40 items, seed 1
//! cargo run --release --example knapsack -- 60 --seed 3 --json
//! cargo run --release --example knapsack -- 60 --at-least 20000
//! cargo build --release -p hysolve --example knapsack --features mpi
//! mpirun -np 2 target/release/examples/knapsack 60 --threads 1
//! ```

use hysolve::{Mode, Optimise, Problem, RunConfig, Solutions, optimise};
use std::sync::Arc;

/// The most items (a packing is a 128-bit mask).
const MAX_ITEMS: usize = 128;

/// An instance: items sorted by value per unit of weight, falling.
struct Knapsack {
    value: Vec<u64>,
    weight: Vec<u64>,
    /// Each sorted item's number in the instance as made (from 1).
    number: Vec<usize>,
    capacity: u64,
    /// Prefix sums of the sorted items' values and weights: `sum_value[i]`
    /// is the value of items `0..i`.
    sum_value: Vec<u64>,
    sum_weight: Vec<u64>,
    seed: u64,
}

/// splitmix64: the instance's random numbers.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Knapsack {
    /// `n` strongly correlated items from `seed`, in the order made.
    fn items(n: usize, seed: u64) -> Vec<(u64, u64)> {
        let mut state = seed;
        (0..n)
            .map(|_| {
                let weight = 1 + splitmix(&mut state) % 1000;
                (weight + 100, weight)
            })
            .collect()
    }

    fn new(n: usize, seed: u64) -> Knapsack {
        let items = Knapsack::items(n, seed);
        let capacity = items.iter().map(|&(_, w)| w).sum::<u64>() / 2;
        let mut order: Vec<usize> = (0..n).collect();
        // Value per weight, falling: a/b > c/d as a*d > c*b.
        order.sort_by(|&i, &j| (items[j].0 * items[i].1).cmp(&(items[i].0 * items[j].1)));
        let value: Vec<u64> = order.iter().map(|&i| items[i].0).collect();
        let weight: Vec<u64> = order.iter().map(|&i| items[i].1).collect();
        let sums = |v: &[u64]| {
            std::iter::once(0)
                .chain(v.iter().scan(0, |s, &x| {
                    *s += x;
                    Some(*s)
                }))
                .collect()
        };
        Knapsack {
            sum_value: sums(&value),
            sum_weight: sums(&weight),
            value,
            weight,
            number: order.iter().map(|&i| i + 1).collect(),
            capacity,
            seed,
        }
    }

    /// Dantzig's bound on what items `from..` can add in `room`: whole
    /// items in order while they fit, then a fraction of the next
    /// (rounded down: the objective is a whole number).
    fn dantzig(&self, from: usize, room: u64) -> u64 {
        // The last item `j` such that items `from..j` fit whole.
        let base = self.sum_weight[from];
        let j = self.sum_weight[from..].partition_point(|&w| w - base <= room) + from - 1;
        let whole = self.sum_value[j] - self.sum_value[from];
        let left = room - (self.sum_weight[j] - base);
        let part = match self.weight.get(j) {
            Some(&w) => left * self.value[j] / w,
            None => 0,
        };
        whole + part
    }
}

/// A node: the items decided (`0..next`), the value and weight packed, and
/// which items are in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Packing {
    next: usize,
    value: u64,
    weight: u64,
    taken: u128,
}

/// A move: take item `next`, or leave it.
#[derive(Clone, Copy)]
enum Decision {
    Take,
    Leave,
}

impl Problem for Knapsack {
    type Node = Packing;
    type State = Packing;
    type Move = Decision;
    /// The decisions left to list: 2 (take, then leave), 1 (leave), 0.
    type Cursor = u8;

    fn name(&self) -> &'static str {
        "knapsack"
    }

    fn instance(&self) -> String {
        format!("{} items (seed {})", self.value.len(), self.seed)
    }

    fn root(&self) -> Packing {
        Packing { next: 0, value: 0, weight: 0, taken: 0 }
    }

    fn state(&self, _: Mode) -> Packing {
        self.root()
    }

    fn load(&self, p: &mut Packing, node: &Packing) {
        *p = *node;
    }

    fn save(&self, p: &Packing) -> Packing {
        *p
    }

    fn moves(&self, p: &mut Packing) -> u8 {
        if p.next == self.value.len() {
            0
        } else if p.weight + self.weight[p.next] <= self.capacity {
            2
        } else {
            1
        }
    }

    fn next_move(&self, _: &Packing, left: &mut u8) -> Option<Decision> {
        let m = match *left {
            0 => return None,
            2 => Decision::Take,
            _ => Decision::Leave,
        };
        *left -= 1;
        Some(m)
    }

    fn apply(&self, p: &mut Packing, m: &Decision) {
        if let Decision::Take = m {
            p.value += self.value[p.next];
            p.weight += self.weight[p.next];
            p.taken |= 1 << p.next;
        }
        p.next += 1;
    }

    fn undo(&self, p: &mut Packing, m: &Decision) {
        p.next -= 1;
        if let Decision::Take = m {
            p.value -= self.value[p.next];
            p.weight -= self.weight[p.next];
            p.taken &= !(1 << p.next);
        }
    }

    /// Counting: every packing that fits.
    fn solution_weight(&self, p: &Packing) -> u64 {
        u64::from(p.next == self.value.len())
    }

    /// The items packed, by their number in the instance as made, rising.
    fn render(&self, p: &Packing, out: &mut String) {
        let mut items: Vec<usize> = (0..self.value.len())
            .filter(|&i| p.taken >> i & 1 == 1)
            .map(|i| self.number[i])
            .collect();
        items.sort_unstable();
        let words: Vec<String> = items.iter().map(usize::to_string).collect();
        out.push_str(&words.join(" "));
    }
}

/// The optimisation: a full packing's value, bounded by Dantzig's bound.
impl Optimise for Knapsack {
    /// A packing with every item decided (the best one is such a leaf).
    fn objective(&self, p: &Packing) -> Option<u64> {
        (p.next == self.value.len()).then_some(p.value)
    }

    /// Dantzig's bound on the child `m` leads to.
    fn bound(&self, p: &Packing, m: &Decision) -> u64 {
        let i = p.next;
        match m {
            Decision::Take => {
                let weight = p.weight + self.weight[i];
                p.value + self.value[i] + self.dantzig(i + 1, self.capacity - weight)
            }
            Decision::Leave => p.value + self.dantzig(i + 1, self.capacity - p.weight),
        }
    }

    /// The ramp-up: the greedy by ratio, every item in the sorted order
    /// that still fits (not only up to the first that does not), so the
    /// search starts with an incumbent near Dantzig's bound. One answer,
    /// whatever the effort and seed.
    fn heuristic(&self, _effort: u64, _seed: u64) -> Option<(u64, String)> {
        let mut p = self.root();
        while p.next < self.value.len() {
            let m = if p.weight + self.weight[p.next] <= self.capacity {
                Decision::Take
            } else {
                Decision::Leave
            };
            self.apply(&mut p, &m);
        }
        let mut text = String::new();
        self.render(&p, &mut text);
        Some((p.value, text))
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut n, mut seed, mut threads, mut json, mut at_least) = (40, 1, None, false, None);
    let mut ramp_up = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| -> Result<u64, String> {
            let v = args.next().ok_or(format!("{name} needs a number"))?;
            v.parse().map_err(|_| format!("{name}: '{v}' is not a whole number"))
        };
        match arg.as_str() {
            "--seed" => seed = value("--seed")?,
            "--threads" => threads = Some(value("--threads")? as usize),
            "--at-least" => at_least = Some(value("--at-least")?),
            "--ramp-up" => ramp_up = Some(value("--ramp-up")?),
            "--json" => json = true,
            "--quiet" => {}
            _ => n = arg.parse().map_err(|_| format!("'{arg}': expected the number of items"))?,
        }
    }
    if !(1..=MAX_ITEMS).contains(&n) {
        return Err(format!("the number of items must be 1 to {MAX_ITEMS}, got {n}").into());
    }
    let mut config = RunConfig::new(Mode::Optimise);
    if let Some(t) = threads {
        config = config.threads(t);
    }
    if let Some(k) = at_least {
        config = config.at_least(k);
    }
    if let Some(effort) = ramp_up {
        config = config.ramp_up(effort);
    }
    let problem = Arc::new(Knapsack::new(n, seed));
    let capacity = problem.capacity;
    // Every rank searches; rank 0 alone gets the outcome.
    if let Some(outcome) = optimise(problem, &config, Solutions::Discard)? {
        let items = outcome.found.first().cloned().unwrap_or_default();
        if json {
            let v = serde_json::json!({
                "problem": "knapsack",
                "objective": outcome.objective,
                "items": items,
                "capacity": capacity,
                "nodes": outcome.nodes,
                "wall_s": outcome.wall_s,
                "ranks": outcome.ranks,
                "threads": outcome.threads,
                "improvements": outcome.improvements,
            });
            println!("{v}");
            return Ok(());
        }
        match outcome.objective {
            Some(best) => println!(
                "knapsack of {n} items (seed {seed}, capacity {capacity}): best value {best} with items {items} ({} ranks x {} threads, {} nodes, {:.3} s)",
                outcome.ranks, outcome.threads, outcome.nodes, outcome.wall_s
            ),
            None => println!(
                "knapsack of {n} items (seed {seed}): no packing worth {}",
                at_least.unwrap_or(0)
            ),
        }
    }
    Ok(())
}

#[cfg(test)]
mod test {
    use super::Knapsack;
    use hysolve::advanced::{Optimising, optimum};
    use hysolve::check;

    /// The engine's conformance check on small instances: every promise of
    /// `Problem` holds, the packings that fit (the leaves, counted in
    /// count and all mode) are those a brute force over the subsets finds,
    /// and optimise mode finds the best value among them.
    #[test]
    fn conforms_and_finds_the_best_packing() {
        for (n, seed) in [(1, 1), (8, 1), (12, 2), (16, 3)] {
            let what = format!("{n} items, seed {seed}");
            let k = Knapsack::new(n, seed);
            let (mut fits, mut best) = (0, 0);
            for subset in 0u32..1 << n {
                let chosen = (0..n).filter(|&i| subset >> i & 1 == 1);
                let weight: u64 = chosen.clone().map(|i| k.weight[i]).sum();
                if weight <= k.capacity {
                    fits += 1;
                    best = best.max(chosen.map(|i| k.value[i]).sum());
                }
            }
            let (_, found) = optimum(&k, None);
            // Checked as the engine optimises it: its bounded listings too.
            let checked = check(&Optimising(k)).unwrap_or_else(|v| panic!("{what}: {v}"));
            assert!(checked.whole, "{what}: {checked:?}");
            assert_eq!(checked.solutions, fits, "{what}");
            assert_eq!(found.map(|(value, _)| value), Some(best), "{what}");
        }
    }
}
