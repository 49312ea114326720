//! The engine and the protocol with ranks as threads joined by channels:
//! the same managers, master and pool as over MPI, many configurations.

use crate::common;

use common::{A000170, CONFIGS, blocks};
use hysolve::advanced::run_threaded;
use hysolve::advanced::{Optimising, sequential};
use hysolve::{Mode, Problem};
use hysolve::{Outcome, RunConfig};
use hysolve_puzzles::queens::{self, Queens};
use hysolve_puzzles::synthetic::Synthetic;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn config(mode: Mode, threads: usize, prefixes_per_worker: usize) -> RunConfig {
    RunConfig::new(mode)
        .threads(threads)
        .prefixes_per_worker(prefixes_per_worker)
}

fn run<P: Problem>(
    p: P,
    mode: Mode,
    ranks: usize,
    threads: usize,
    ppw: usize,
) -> (Outcome, Vec<u8>) {
    let mut sink = Vec::new();
    let outcome = run_threaded(Arc::new(p), &config(mode, threads, ppw), ranks, &mut sink).unwrap();
    (outcome, sink)
}

fn tree(seed: u64, leaves: u64) -> Synthetic {
    Synthetic {
        seed,
        leaves,
        min_depth: 3,
        dead_depth: 7,
        needle: false,
        work: 0,
    }
}

#[test]
fn queens_counts_in_every_configuration() {
    for n in 1..=13u32 {
        let mut nodes = None;
        for (ranks, threads) in CONFIGS {
            let (o, _) = run(
                Queens::new(n, true).unwrap(),
                Mode::Count,
                ranks,
                threads,
                4,
            );
            assert_eq!(
                o.solutions,
                A000170[n as usize - 1],
                "n={n} {ranks}x{threads}"
            );
            // One symmetry class search, whoever walks which part of it.
            assert_eq!(
                *nodes.get_or_insert(o.nodes),
                o.nodes,
                "n={n} {ranks}x{threads}"
            );
        }
    }
}

/// Identical counts and identical node counts (no subtree lost or walked
/// twice) for many irregular trees, with few initial prefixes so that
/// donation between ranks and threads does the balancing.
#[test]
fn synthetic_counts_and_nodes_identical_everywhere() {
    for seed in 0..24u64 {
        let t = tree(seed, 50 + seed * 397);
        let (seq, _) = sequential(&t, Mode::Count);
        assert_eq!(seq.solutions, t.leaves);
        for (ranks, threads) in CONFIGS {
            for ppw in [1, 8] {
                let (o, _) = run(t.clone(), Mode::Count, ranks, threads, ppw);
                assert_eq!(
                    o.solutions, t.leaves,
                    "seed {seed} {ranks}x{threads} ppw {ppw}"
                );
                assert_eq!(
                    o.nodes, seq.nodes,
                    "seed {seed} {ranks}x{threads} ppw {ppw}"
                );
            }
        }
    }
}

#[test]
fn work_is_donated_between_ranks() {
    let t = Synthetic {
        work: 20,
        ..tree(7, 40_000)
    };
    // Through the master: no direct steals.
    let config = config(Mode::Count, 2, 1).direct_steals(0);
    let o = run_threaded(Arc::new(t), &config, 3, &mut Vec::new()).unwrap();
    assert_eq!(o.solutions, 40_000);
    // The master's account, as `--json` gives it.
    let json = serde_json::to_value(&o.master).unwrap();
    let master = |field: &str| json[field].as_u64().unwrap();
    assert!(master("donation_requests") > 0, "{:?}", o.master);
    assert!(master("prefixes_returned") > 0, "{:?}", o.master);
    let donated: u64 = o.reports.iter().map(|r| r.prefixes_donated).sum();
    assert_eq!(donated, master("prefixes_returned"));
    // Ranks receive the master's prefixes and the donations, which go
    // straight from victim to thief.
    let received: u64 = o.reports.iter().map(|r| r.prefixes_received).sum();
    assert_eq!(
        received,
        master("prefixes_dealt") + master("prefixes_returned")
    );
    let donations: u64 = o.reports.iter().map(|r| r.donations_received).sum();
    assert_eq!(donations, master("donations_routed"));
    assert!(
        received > master("initial_prefixes"),
        "donated prefixes were dealt again"
    );
}

#[test]
fn all_mode_streams_each_solution_once() {
    for seed in [3u64, 11, 19] {
        let t = tree(seed, 700);
        let (_, expected) = sequential(&t, Mode::All);
        let expected: HashSet<String> = expected.into_iter().collect();
        assert_eq!(expected.len(), 700);
        for (ranks, threads) in CONFIGS {
            let (o, sink) = run(t.clone(), Mode::All, ranks, threads, 2);
            let text = String::from_utf8(sink).unwrap();
            let got: Vec<&str> = text
                .split("\n\n")
                .map(|s| s.trim_end_matches('\n'))
                .collect();
            let set: HashSet<String> = got.iter().map(|s| s.to_string()).collect();
            assert_eq!(got.len(), 700, "duplicates or losses, {ranks}x{threads}");
            assert_eq!(set, expected, "{ranks}x{threads}");
            assert_eq!(o.written, 700);
            assert_eq!(o.solutions, 700);
        }
    }
}

#[test]
fn queens_boards_verify() {
    let (o, sink) = run(Queens::new(7, false).unwrap(), Mode::All, 2, 2, 4);
    let text = String::from_utf8(sink).unwrap();
    let boards: Vec<&str> = text.split("\n\n").collect();
    assert_eq!(boards.len(), 40);
    assert_eq!(o.solutions, 40);
    for b in boards {
        queens::verify(7, b.trim_end()).unwrap();
    }
}

/// A solution behind every other leaf: `first` still ends, finds it, and
/// stops every rank.
#[test]
fn first_mode_finds_the_last_leaf_and_stops() {
    let t = Synthetic {
        needle: true,
        min_depth: 10,
        dead_depth: 9,
        ..tree(5, 1)
    };
    let (_, found) = sequential(&t, Mode::All);
    for (ranks, threads) in CONFIGS {
        let started = Instant::now();
        let (o, _) = run(t.clone(), Mode::First, ranks, threads, 2);
        assert_eq!(o.solutions, 1, "{ranks}x{threads}");
        assert_eq!(o.found, found);
        assert!(started.elapsed() < Duration::from_secs(30));
    }
}

/// Many solutions: `first` stops early, far short of walking the tree.
#[test]
fn first_mode_stops_early() {
    let t = Synthetic {
        work: 50,
        ..tree(9, 1_000_000)
    };
    for (ranks, threads) in CONFIGS {
        let (o, _) = run(t.clone(), Mode::First, ranks, threads, 4);
        assert_eq!(o.solutions, 1);
        assert_eq!(o.found.len(), 1);
        assert!(
            o.nodes < 500_000,
            "{ranks}x{threads}: walked {} nodes",
            o.nodes
        );
    }
}

#[test]
fn no_solution_exhausts_the_tree() {
    let t = Synthetic {
        dead_depth: 12,
        ..tree(2, 0)
    };
    let (seq, _) = sequential(&t, Mode::Count);
    assert!(seq.nodes > 1000);
    for mode in [Mode::First, Mode::Unique] {
        for (ranks, threads) in CONFIGS {
            let (o, _) = run(t.clone(), mode, ranks, threads, 2);
            assert_eq!(o.solutions, 0);
            assert!(o.found.is_empty());
            assert_eq!(
                o.nodes, seq.nodes,
                "{mode} {ranks}x{threads}: the whole tree is walked"
            );
        }
    }
}

#[test]
fn unique_mode_tells_one_from_two() {
    for (leaves, expect) in [(1u64, 1u64), (2, 2), (500, 2)] {
        for (ranks, threads) in CONFIGS {
            let (o, _) = run(tree(4, leaves), Mode::Unique, ranks, threads, 2);
            assert_eq!(o.solutions, expect, "leaves {leaves} {ranks}x{threads}");
            assert_eq!(o.found.len() as u64, expect);
        }
    }
}

/// Interrupts a run (the flag SIGTERM sets) at many moments, resumes it from
/// its checkpoint in another configuration, perhaps several times: the count
/// and, in `all` mode, the solutions written are exactly an uninterrupted
/// run's.
#[test]
fn interrupted_runs_resume_exactly_in_other_configurations() {
    use hysolve::RunError;
    use hysolve::advanced::{Checkpoint, CheckpointPlan};
    use rand::{RngExt, SeedableRng};
    use std::sync::atomic::{AtomicBool, Ordering};
    let t = Synthetic {
        work: 2,
        ..tree(11, 40_000)
    };
    let clock = Instant::now();
    let (reference, ref_sink) = run(t.clone(), Mode::All, 1, 1, 4);
    let span_ms = (clock.elapsed().as_millis() as u64).max(20);
    let mut want = blocks(&ref_sink);
    want.sort();
    assert_eq!(want.len(), 40_000);
    let dir = tempfile::tempdir().unwrap();
    let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(7);
    let mut interrupted = 0;
    for trial in 0..8 {
        let mode = if trial % 2 == 0 {
            Mode::All
        } else {
            Mode::Count
        };
        let path = dir.path().join(format!("trial{trial}.ckpt"));
        let identity = Checkpoint::identity("synthetic", "t", &mode.to_string(), "f");
        let mut sink: Vec<u8> = Vec::new();
        let mut resume: Option<Checkpoint> = None;
        let mut stops = 0;
        let outcome = loop {
            let (ranks, threads) = CONFIGS[rng.random_range(0..CONFIGS.len())];
            let flag = Arc::new(AtomicBool::new(false));
            let resuming = resume.take();
            if let Some(r) = &resuming {
                // As the CLI does: the output cut back to what the
                // checkpoint vouches for.
                let json = serde_json::to_value(r).unwrap();
                sink.truncate(json["out_bytes"].as_u64().unwrap() as usize);
            }
            let c = config(mode, threads, 4)
                .checkpoint(CheckpointPlan {
                    path: path.clone(),
                    every: Duration::from_millis(rng.random_range(1..30)),
                    identity: identity.clone(),
                    resume: resuming,
                })
                .interrupt(flag.clone());
            // Up to three interruptions at random moments of the run, then
            // one that runs to the end.
            let delay = Duration::from_millis(rng.random_range(0..span_ms));
            stops += 1;
            let stopper = {
                let flag = flag.clone();
                let last = stops > 3;
                std::thread::spawn(move || {
                    std::thread::sleep(delay);
                    if !last {
                        flag.store(true, Ordering::SeqCst);
                    }
                })
            };
            let result = run_threaded(Arc::new(t.clone()), &c, ranks, &mut sink);
            stopper.join().unwrap();
            match result {
                Ok(o) => break o,
                Err(RunError::Interrupted { checkpoint }) => {
                    interrupted += 1;
                    let p = checkpoint.expect("a checkpoint path");
                    resume = Some(Checkpoint::load(&p, &identity).unwrap());
                }
                Err(e) => panic!("trial {trial}: {e}"),
            }
        };
        assert_eq!(outcome.solutions, 40_000, "trial {trial}");
        assert_eq!(outcome.nodes, reference.nodes, "trial {trial}");
        assert!(!path.exists(), "a finished run removes its checkpoint");
        if mode == Mode::All {
            let mut got = blocks(&sink);
            got.sort();
            assert_eq!(got.len(), want.len(), "trial {trial}: duplicates or losses");
            assert!(got == want, "trial {trial}: other solutions");
            assert_eq!(outcome.written, 40_000);
        }
    }
    assert!(interrupted >= 4, "only {interrupted} interruptions");
}

/// Langford pairings of order `n`, written twice: in place (a row that
/// moves, `ENCODES` as `E` says) and as a tree of cloned rows.
mod langford {
    use hysolve::{Mode, Problem, Tree};

    #[derive(Clone, Copy, Debug)]
    pub struct Row {
        taken: u32,
        placed: u32,
        at: [u8; 24],
    }

    const EMPTY: Row = Row {
        taken: 0,
        placed: 0,
        at: [0; 24],
    };

    fn fits(n: usize, row: &Row) -> impl Iterator<Item = (u8, u8)> + '_ {
        let p = row.taken.trailing_ones() as usize;
        (1..=n)
            .filter(move |&k| {
                let q = p + k + 1;
                row.placed & (1 << k) == 0 && q < 2 * n && row.taken & (1 << q) == 0
            })
            .map(move |k| (p as u8, k as u8))
    }

    fn place(row: &mut Row, (p, k): (u8, u8)) {
        let q = p + k + 1;
        row.taken |= 1 << p | 1 << q;
        row.placed |= 1 << k;
        row.at[p as usize] = k;
        row.at[q as usize] = k;
    }

    fn render(n: usize, row: &Row, out: &mut String) {
        let words: Vec<String> = row.at[..2 * n].iter().map(u8::to_string).collect();
        out.push_str(&words.join(" "));
    }

    pub struct InPlace<const E: bool>(pub usize);
    pub struct Cloned(pub usize);

    impl<const E: bool> Problem for InPlace<E> {
        type Node = Row;
        type State = Row;
        type Move = (u8, u8);
        type Cursor = u8;
        const ENCODES: bool = E;
        fn encode(&self, row: &Row, out: &mut Vec<u8>) {
            out.extend_from_slice(&row.taken.to_le_bytes());
            out.extend_from_slice(&row.placed.to_le_bytes());
            out.extend_from_slice(&row.at);
        }
        fn decode(&self, bytes: &[u8]) -> Option<Row> {
            (bytes.len() == 32).then(|| Row {
                taken: u32::from_le_bytes(bytes[..4].try_into().unwrap()),
                placed: u32::from_le_bytes(bytes[4..8].try_into().unwrap()),
                at: bytes[8..].try_into().unwrap(),
            })
        }
        fn name(&self) -> &'static str {
            "langford"
        }
        fn instance(&self) -> String {
            self.0.to_string()
        }
        fn root(&self) -> Row {
            EMPTY
        }
        fn state(&self, _: Mode) -> Row {
            // Anything: the engine loads a node first.
            Row {
                taken: u32::MAX,
                ..EMPTY
            }
        }
        fn load(&self, row: &mut Row, node: &Row) {
            *row = *node;
        }
        fn save(&self, row: &Row) -> Row {
            *row
        }
        /// How many of the moves `fits` lists were given.
        fn moves(&self, _: &mut Row) -> u8 {
            0
        }
        fn next_move(&self, row: &Row, given: &mut u8) -> Option<(u8, u8)> {
            let m = fits(self.0, row).nth(*given as usize)?;
            *given += 1;
            Some(m)
        }
        fn apply(&self, row: &mut Row, &m: &(u8, u8)) {
            place(row, m);
        }
        fn undo(&self, row: &mut Row, &(p, k): &(u8, u8)) {
            row.taken &= !(1 << p | 1 << (p + k + 1));
            row.placed &= !(1 << k);
            // A state left exactly as before, `at` too: a split builds
            // the siblings' nodes from it.
            row.at[p as usize] = 0;
            row.at[(p + k + 1) as usize] = 0;
        }
        fn solution_weight(&self, row: &Row) -> u64 {
            u64::from(row.taken.count_ones() as usize == 2 * self.0)
        }
        fn render(&self, row: &Row, out: &mut String) {
            render(self.0, row, out)
        }
    }

    impl Tree for Cloned {
        type Node = Row;
        fn name(&self) -> &'static str {
            "langford"
        }
        fn instance(&self) -> String {
            self.0.to_string()
        }
        fn root(&self) -> Row {
            EMPTY
        }
        fn children(&self, row: &Row, out: &mut Vec<Row>) {
            out.extend(fits(self.0, row).map(|m| {
                let mut child = *row;
                place(&mut child, m);
                child
            }));
        }
        fn solution_weight(&self, row: &Row) -> u64 {
            u64::from(row.taken.count_ones() as usize == 2 * self.0)
        }
        fn render(&self, row: &Row, out: &mut String) {
            render(self.0, row, out)
        }
    }
}

/// One tree, walked in place (its nodes encoded or replayed from the root
/// on other ranks) or cloned: the same nodes and the same solutions in
/// every configuration, with one initial prefix a worker so that most of
/// the tree moves by splits of walks in progress.
#[test]
fn in_place_and_cloned_walks_visit_the_same_tree_everywhere() {
    use langford::{Cloned, InPlace};
    let n = 8;
    let (reference, _) = sequential(&Cloned(n), Mode::Count);
    assert_eq!(reference.solutions, 300); // OEIS A014552: 150, both ways
    let listed = |sink: &[u8]| {
        let mut rows: Vec<String> = String::from_utf8_lossy(sink)
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect();
        rows.sort();
        rows
    };
    let (_, all) = run(Cloned(n), Mode::All, 1, 1, 1);
    let all = listed(&all);
    assert_eq!(all.len(), 300);
    for (ranks, threads) in CONFIGS {
        let at = format!("{ranks}x{threads}");
        for mode in [Mode::Count, Mode::All] {
            let outcomes = [
                run(InPlace::<false>(n), mode, ranks, threads, 1),
                run(InPlace::<true>(n), mode, ranks, threads, 1),
                run(Cloned(n), mode, ranks, threads, 1),
            ];
            for (which, (o, sink)) in outcomes.iter().enumerate() {
                let at = format!("{at} {mode} variant {which}");
                assert_eq!(o.solutions, 300, "{at}");
                assert_eq!(o.nodes, reference.nodes, "{at}");
                if mode == Mode::All {
                    assert_eq!(listed(sink), all, "{at}");
                }
            }
        }
    }
}

/// A branch and bound written on [`Tree`]: the heaviest load of a few
/// weights under a capacity (a subset sum). A node is the weights taken
/// and how far the choice has gone; the bound, the load plus every weight
/// still to choose. The optimum is brute force's in every configuration,
/// the bound cuts the tree, and the check of the trait's promises holds.
mod subset_sum {
    use hysolve::{OptimiseTree, Tree};

    pub const WEIGHTS: [u64; 16] = [30, 46, 12, 82, 8, 58, 70, 26, 44, 16, 94, 38, 62, 20, 52, 6];
    pub const CAPACITY: u64 = 301;

    /// Even weights under an odd capacity: no load fills it, so the bound
    /// must do more than stop at the first full load.
    /// `bounded`: with [`OptimiseTree::bound`]; without, the same tree
    /// unpruned.
    pub struct Load {
        pub bounded: bool,
    }

    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct Chosen {
        pub next: usize,
        pub load: u64,
        pub taken: u32,
    }

    impl Tree for Load {
        type Node = Chosen;
        fn root(&self) -> Chosen {
            Chosen {
                next: 0,
                load: 0,
                taken: 0,
            }
        }
        fn children(&self, at: &Chosen, out: &mut Vec<Chosen>) {
            let Some(&w) = WEIGHTS.get(at.next) else {
                return;
            };
            let next = at.next + 1;
            if at.load + w <= CAPACITY {
                out.push(Chosen {
                    next,
                    load: at.load + w,
                    taken: at.taken | 1 << at.next,
                });
            }
            out.push(Chosen { next, ..*at });
        }
        fn solution_weight(&self, at: &Chosen) -> u64 {
            u64::from(at.next == WEIGHTS.len())
        }
        fn render(&self, at: &Chosen, out: &mut String) {
            out.push_str(&format!("{:016b}", at.taken));
        }
    }

    impl OptimiseTree for Load {
        fn objective(&self, at: &Chosen) -> Option<u64> {
            (at.next == WEIGHTS.len()).then_some(at.load)
        }
        fn bound(&self, _: &Chosen, child: &Chosen) -> u64 {
            match self.bounded {
                true => (child.load + WEIGHTS[child.next..].iter().sum::<u64>()).min(CAPACITY),
                false => u64::MAX,
            }
        }
    }
}

#[test]
fn a_tree_optimises_with_its_bound_in_every_configuration() {
    use subset_sum::{CAPACITY, Load, WEIGHTS};
    let best = (0u32..1 << WEIGHTS.len())
        .map(|set| {
            (0..WEIGHTS.len())
                .filter(|i| set & 1 << i != 0)
                .map(|i| WEIGHTS[i])
                .sum()
        })
        .filter(|&load: &u64| load <= CAPACITY)
        .max()
        .unwrap();
    assert!(
        best < CAPACITY,
        "an instance the bound must work for: {best}"
    );
    let (_, unbounded) = hysolve::advanced::optimum(&Load { bounded: false }, None);
    let (cut, bounded) = hysolve::advanced::optimum(&Load { bounded: true }, None);
    let (whole, _) = sequential(&Load { bounded: false }, Mode::Count);
    assert_eq!(unbounded.unwrap().0, best);
    assert_eq!(bounded.as_ref().unwrap().0, best);
    assert!(
        cut.nodes * 4 < whole.nodes,
        "the bound cuts: {} of {} nodes",
        cut.nodes,
        whole.nodes
    );
    for (ranks, threads) in CONFIGS {
        let (outcome, _) = run(
            Optimising(Load { bounded: true }),
            Mode::Optimise,
            ranks,
            threads,
            4,
        );
        assert_eq!(outcome.objective, Some(best), "{ranks}x{threads}");
        let set = u32::from_str_radix(&outcome.found[0], 2).unwrap();
        let load: u64 = (0..WEIGHTS.len())
            .filter(|i| set & 1 << i != 0)
            .map(|i| WEIGHTS[i])
            .sum();
        assert_eq!(
            load, best,
            "{ranks}x{threads}: the solution weighs what it claims"
        );
    }
    let checked = hysolve::check(&Optimising(Load { bounded: true })).unwrap();
    assert!(checked.whole);
}

#[test]
fn optimise_mode_is_refused_for_a_problem_without_an_objective() {
    use hysolve::{ConfigError, RunError, Solutions};
    // The same tree, its objective left out: the walk would find nothing.
    let config = RunConfig::new(Mode::Optimise).threads(2);
    let plain = Arc::new(Queens::new(6, false).unwrap());
    for refused in [
        hysolve::run(plain.clone(), &config, Solutions::Discard).map(|_| ()),
        run_threaded(plain, &config, 2, &mut Vec::new()).map(|_| ()),
    ] {
        assert!(
            matches!(refused, Err(RunError::Config(ConfigError::NoObjective))),
            "{refused:?}"
        );
    }
    // And `optimise`, which takes only a problem with one, runs optimise
    // mode alone.
    let load = Arc::new(subset_sum::Load { bounded: true });
    let count = RunConfig::new(Mode::Count);
    let refused = hysolve::optimise(load.clone(), &count, Solutions::Discard);
    assert!(
        matches!(
            refused,
            Err(RunError::Config(ConfigError::OptimiseMode(Mode::Count)))
        ),
        "{refused:?}"
    );
    let (_, best) = hysolve::advanced::optimum(&*load, None);
    let outcome = hysolve::optimise(load, &config, Solutions::Discard)
        .unwrap()
        .unwrap();
    assert_eq!(outcome.objective, best.map(|b| b.0));
}
