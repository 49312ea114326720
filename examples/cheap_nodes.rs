//! A search of cheap nodes, written three ways over the same tree: on
//! [`Problem`] (a state in place, with its children also given by value,
//! or not), on [`Tree`] (nodes as values), and as a plain Rust recursion,
//! the peer a generic walk is measured against (issue 48; `make bench`,
//! `bench-results/cheap-nodes.csv`).
//!
//! The tree: the subsets of {0, ..., n-1} with no two adjacent elements,
//! each subset a node, grown by adding an element above its largest. A
//! node is two bitmasks and a child costs a few bit operations, as in most
//! puzzle searches. There are F(n+2) nodes (Fibonacci, F(1) = F(2) = 1),
//! 102,334,155 for n = 38; the solutions are the subsets of exactly n/4
//! elements, C(n - n/4 + 1, n/4) of them.
//!
//! ```text
//! cargo run --release --example cheap_nodes -- problem 38   # the walk (children by value)
//! cargo run --release --example cheap_nodes -- apply 38     # the walk, moves applied
//! cargo run --release --example cheap_nodes -- tree 38      # Tree
//! cargo run --release --example cheap_nodes -- plain 38     # the recursion
//! cargo run --release --example cheap_nodes -- cutoff 38    # count_cutoff(Some(3))
//! cargo run --release --example cheap_nodes -- tree 12 --all  # lists the solutions
//! ```

use hysolve::Tree;
use hysolve::{Mode, Problem, RunConfig, Solutions, run};
use std::sync::Arc;
use std::time::Instant;

/// The instance: subsets of `n` elements, solutions of `k` elements.
#[derive(Clone, Copy)]
struct Spec {
    n: u32,
    k: u32,
}

/// A node: the chosen elements, and the elements that may still be added
/// (above the largest chosen one and not next to it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Set {
    chosen: u64,
    free: u64,
}

impl Spec {
    fn root(&self) -> Set {
        Set { chosen: 0, free: (1u64 << self.n) - 1 }
    }

    /// The child that adds element `i` to `set`.
    #[inline(always)]
    fn child(set: &Set, i: u32) -> Set {
        Set {
            chosen: set.chosen | 1 << i,
            // Elements above i + 1 only (n <= 60: no overflow).
            free: set.free & !((4u64 << i) - 1),
        }
    }

    #[inline(always)]
    fn weight(&self, set: &Set) -> u64 {
        u64::from(set.chosen.count_ones() == self.k)
    }

    fn render(set: &Set, out: &mut String) {
        let elements: Vec<String> =
            (0..64).filter(|i| set.chosen & 1 << i != 0).map(|i: u32| i.to_string()).collect();
        out.push_str(&elements.join(" "));
    }

    /// The plain recursion: adds the nodes and the solutions under `set`
    /// (`set` included) to `total`, and hands each solution to `found`.
    fn plain(&self, set: &Set, total: &mut (u64, u64), found: &mut impl FnMut(&Set)) {
        total.0 += 1;
        let weight = self.weight(set);
        if weight != 0 {
            total.1 += weight;
            found(set);
        }
        let mut free = set.free;
        while free != 0 {
            let i = free.trailing_zeros();
            free &= free - 1;
            self.plain(&Self::child(set, i), total, found);
        }
    }
}

/// The search on [`Problem`]: one `Set` per worker, changed in place;
/// with `BY_VALUE`, each child also given as a value of its own
/// ([`Problem::child`]).
struct InPlace<const BY_VALUE: bool> {
    spec: Spec,
    cutoff: Option<usize>,
}

/// A move: add element `i`; `free` is the parent's, for the undo.
#[derive(Clone, Copy)]
struct Add {
    i: u32,
    free: u64,
}

impl<const BY_VALUE: bool> Problem for InPlace<BY_VALUE> {
    type Node = Set;
    type State = Set;
    type Move = Add;
    /// The elements not yet tried.
    type Cursor = u64;

    fn name(&self) -> &'static str {
        "cheap-nodes"
    }

    fn instance(&self) -> String {
        format!("{} choose {}", self.spec.n, self.spec.k)
    }

    fn root(&self) -> Set {
        self.spec.root()
    }

    fn state(&self, _: Mode) -> Set {
        self.spec.root()
    }

    fn load(&self, state: &mut Set, node: &Set) {
        *state = *node;
    }

    fn save(&self, state: &Set) -> Set {
        *state
    }

    #[inline]
    fn moves(&self, state: &mut Set) -> u64 {
        state.free
    }

    #[inline]
    fn next_move(&self, state: &Set, left: &mut u64) -> Option<Add> {
        (*left != 0).then(|| {
            let i = left.trailing_zeros();
            *left &= *left - 1;
            Add { i, free: state.free }
        })
    }

    #[inline]
    fn apply(&self, state: &mut Set, m: &Add) {
        *state = Spec::child(state, m.i);
    }

    #[inline]
    fn undo(&self, state: &mut Set, m: &Add) {
        state.chosen &= !(1 << m.i);
        state.free = m.free;
    }

    /// The child as a value (two words): a count keeps it in registers.
    #[inline]
    fn child(&self, state: &Set, m: &Add) -> Option<Set> {
        BY_VALUE.then(|| Spec::child(state, m.i))
    }

    #[inline]
    fn solution_weight(&self, state: &Set) -> u64 {
        self.spec.weight(state)
    }

    fn render(&self, state: &Set, out: &mut String) {
        Spec::render(state, out);
    }

    fn count_cutoff(&self) -> Option<usize> {
        self.cutoff
    }
}

/// The search on [`Tree`]: each child a new `Set`.
struct Values(Spec);

impl Tree for Values {
    type Node = Set;

    fn name(&self) -> &'static str {
        "cheap-nodes"
    }

    fn instance(&self) -> String {
        format!("{} choose {}", self.0.n, self.0.k)
    }

    fn root(&self) -> Set {
        self.0.root()
    }

    #[inline]
    fn children(&self, node: &Set, out: &mut Vec<Set>) {
        let mut free = node.free;
        while free != 0 {
            let i = free.trailing_zeros();
            free &= free - 1;
            out.push(Spec::child(node, i));
        }
    }

    #[inline]
    fn solution_weight(&self, node: &Set) -> u64 {
        self.0.weight(node)
    }

    fn render(&self, node: &Set, out: &mut String) {
        Spec::render(node, out);
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut way, mut n, mut threads, mut json) = (String::from("problem"), 38, None, false);
    let mut mode = Mode::Count;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "problem" | "apply" | "tree" | "plain" | "cutoff" => way = arg,
            "--json" => json = true,
            "--all" => mode = Mode::All,
            "--quiet" => {}
            "--threads" => threads = Some(args.next().ok_or("--threads needs a number")?.parse()?),
            _ => {
                n = arg.parse().map_err(|_| {
                    format!("'{arg}': expected problem, apply, tree, plain, cutoff or n")
                })?
            }
        }
    }
    if !(1..=60).contains(&n) {
        return Err(format!("n must be 1 to 60, got {n}").into());
    }
    let spec = Spec { n, k: n / 4 };
    let mut config = RunConfig::new(mode);
    let listing = || match mode {
        Mode::All => Solutions::Stdout,
        _ => Solutions::Discard,
    };
    if let Some(t) = threads {
        config = config.threads(t);
    }
    let (solutions, nodes, wall_s, ranks, threads) = match way.as_str() {
        "plain" => {
            let start = Instant::now();
            let mut total = (0, 0);
            if mode == Mode::All {
                // As the engine lists them: a blank line between two.
                let mut line = String::new();
                spec.plain(&spec.root(), &mut total, &mut |set| {
                    if !line.is_empty() {
                        println!();
                    }
                    line.clear();
                    Spec::render(set, &mut line);
                    println!("{line}");
                });
            } else {
                spec.plain(&spec.root(), &mut total, &mut |_| {});
            }
            let wall = start.elapsed().as_secs_f64();
            (total.1, total.0, wall, 1, 1)
        }
        "tree" => match run(Arc::new(Values(spec)), &config, listing())? {
            Some(o) => (o.solutions, o.nodes, o.wall_s, o.ranks, o.threads),
            None => return Ok(()),
        },
        "apply" => {
            let problem = InPlace::<false> { spec, cutoff: None };
            match run(Arc::new(problem), &config, listing())? {
                Some(o) => (o.solutions, o.nodes, o.wall_s, o.ranks, o.threads),
                None => return Ok(()),
            }
        }
        _ => {
            let cutoff = (way == "cutoff").then_some(3);
            match run(Arc::new(InPlace::<true> { spec, cutoff }), &config, listing())? {
                Some(o) => (o.solutions, o.nodes, o.wall_s, o.ranks, o.threads),
                None => return Ok(()),
            }
        }
    };
    if json {
        // The fields `hysolve --json` has, for `make bench`.
        println!(
            "{{\"solutions\":{solutions},\"nodes\":{nodes},\"wall_s\":{wall_s},\"ranks\":{ranks},\"threads\":{threads}}}"
        );
    } else {
        println!(
            "{way}: {solutions} subsets of {} among {n} ({ranks} ranks x {threads} threads, {nodes} nodes, {wall_s:.3} s)",
            spec.k
        );
    }
    Ok(())
}

#[cfg(test)]
mod test {
    use super::{InPlace, Spec, Values};
    use hysolve::check;

    /// F(i), F(1) = F(2) = 1.
    fn fibonacci(i: u32) -> u64 {
        (1..i).fold((0, 1), |(a, b), _| (b, a + b)).1
    }

    /// C(n, k).
    fn binomial(n: u64, k: u64) -> u64 {
        (0..k).fold(1, |c, i| c * (n - i) / (i + 1))
    }

    /// The engine's conformance check on each way written on the engine
    /// (in place, with and without a count cut-off and children by value,
    /// and as a `Tree`): every
    /// promise of `Problem` holds, the tree has F(n+2) nodes and
    /// C(n - k + 1, k) solutions, and below the cut-off the kernel (here
    /// the default, the moves' own count) agrees.
    #[test]
    fn every_way_conforms_and_counts() {
        assert_eq!((fibonacci(1), fibonacci(2), fibonacci(10)), (1, 1, 55));
        for n in [1, 4, 12, 20] {
            let spec = Spec { n, k: n / 4 };
            let (nodes, solutions) =
                (fibonacci(n + 2), binomial(u64::from(n - n / 4 + 1), u64::from(n / 4)));
            for cutoff in [None, Some(3)] {
                for by_value in [false, true] {
                    let what =
                        format!("in place, n = {n}, cut-off {cutoff:?}, by value {by_value}");
                    let checked = if by_value {
                        check(&InPlace::<true> { spec, cutoff })
                    } else {
                        check(&InPlace::<false> { spec, cutoff })
                    };
                    let checked = checked.unwrap_or_else(|v| panic!("{what}: {v}"));
                    assert!(checked.whole, "{what}: {checked:?}");
                    assert_eq!((checked.nodes, checked.solutions), (nodes, solutions), "{what}");
                    // Subsets of 3 elements exist from n = 5 on.
                    assert_eq!(checked.kernel_subtrees > 0, cutoff.is_some() && n >= 5, "{what}");
                }
            }
            let what = format!("tree, n = {n}");
            let checked = check(&Values(spec)).unwrap_or_else(|v| panic!("{what}: {v}"));
            assert!(checked.whole, "{what}: {checked:?}");
            assert_eq!((checked.nodes, checked.solutions), (nodes, solutions), "{what}");
            assert_eq!(checked.kernel_subtrees, 0, "{what}");
        }
    }
}
