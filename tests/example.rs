//! The examples of the library, written as a user would, run on threads
//! and on MPI ranks: `examples/custom_problem.rs` counts right (Langford
//! pairings, OEIS A014552: 26 of order 7 and 150 of order 8 up to
//! reversal), and `examples/knapsack.rs` finds the optimum a dynamic
//! programme of this file finds; `examples/cheap_nodes.rs`'s three ways
//! (`Problem`, `Tree`, a plain recursion) walk the same tree.

use crate::common;

#[cfg(feature = "mpi")]
use common::mpi_env;
use common::run_with_timeout;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::Duration;

/// `examples/custom_problem.rs`, built once.
fn example() -> &'static PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| build("custom_problem"))
}

/// `examples/knapsack.rs`, built once.
fn knapsack() -> &'static PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| build("knapsack"))
}

/// Builds an example as `make test` builds it (`--bins --examples`): on
/// the whole workspace, so with the features this test's library has
/// (`mpi` from the command line, `sim` from the tools). A `-p hysolve`
/// would build the library again without `sim`, 25 s of CPU.
fn build(name: &str) -> PathBuf {
    {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut cmd = Command::new(env!("CARGO"));
        cmd.current_dir(root)
            .args(["build", "--profile", &common::profile()])
            .args(["--workspace", "--example", name]);
        let out = run_with_timeout(cmd, Duration::from_secs(600));
        assert!(
            out.status.success(),
            "building the example: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        common::profile_dir().join("examples").join(name)
    }
}

/// The count on the last line of a run's stdout (`L(2,n) = COUNT ...`).
fn count(out: &Output) -> u64 {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the example failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last = stdout.lines().last().unwrap_or_default();
    let count = last
        .split(" = ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no count in {last:?}"));
    count.parse().unwrap()
}

fn threads(args: &[&str]) -> Output {
    let mut cmd = Command::new(example());
    cmd.args(args);
    run_with_timeout(cmd, Duration::from_secs(120))
}

/// An independent check of one pairing: each of 1..=n twice, the two
/// copies of k with k numbers between them.
fn is_langford(n: usize, line: &str) -> bool {
    let row: Vec<usize> = line.split(' ').map(|w| w.parse().unwrap()).collect();
    row.len() == 2 * n
        && (1..=n).all(|k| {
            let at: Vec<usize> = (0..row.len()).filter(|&i| row[i] == k).collect();
            at.len() == 2 && at[1] - at[0] == k + 1
        })
}

#[test]
fn counts_on_threads() {
    let default = threads(&[]);
    assert!(String::from_utf8_lossy(&default.stdout).contains("L(2,7) = 52 "));
    assert_eq!(count(&default), 52);
    assert_eq!(count(&threads(&["7", "--distinct", "--threads", "1"])), 26);
    assert_eq!(count(&threads(&["8", "--distinct", "--threads", "2"])), 150);
    assert_eq!(count(&threads(&["8", "--threads", "2"])), 300);
    assert_eq!(count(&threads(&["5"])), 0);
}

/// The tree `make bench` times against `tools/c/langford.c`: its nodes
/// are a property of the instance, whoever walks them.
#[test]
fn order_12_walks_the_tree_the_c_peer_walks() {
    let out = threads(&["12", "--threads", "2", "--json", "--quiet"]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["solutions"], 216_288);
    assert_eq!(summary["nodes"], 17_896_497);
}

#[test]
fn every_pairing_listed_is_one() {
    let out = threads(&["7", "--all", "--distinct", "--threads", "2"]);
    assert_eq!(count(&out), 26);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = stdout.lines().filter(|l| !l.is_empty()).collect();
    let pairings = &rows[..rows.len() - 1];
    assert_eq!(pairings.len(), 26);
    for p in pairings {
        assert!(is_langford(7, p), "{p}");
    }
    // Up to reversal: no pairing listed is the reverse of another.
    let set: std::collections::HashSet<String> = pairings.iter().map(|p| p.to_string()).collect();
    for p in pairings {
        let reversed: Vec<&str> = p.split(' ').rev().collect();
        assert!(!set.contains(&reversed.join(" ")), "{p} and its reverse");
    }
}

#[test]
#[cfg(feature = "mpi")]
fn counts_on_two_ranks() {
    let run = |args: &[&str]| {
        let mut cmd = Command::new("mpirun");
        cmd.args(["--oversubscribe", "--bind-to", "none", "-np", "2"])
            .arg(example())
            .args(args);
        mpi_env(&mut cmd);
        run_with_timeout(cmd, Duration::from_secs(180))
    };
    let out = run(&["7", "--distinct", "--threads", "1"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("(2 ranks x 1 threads"));
    assert_eq!(count(&out), 26);
    assert_eq!(count(&run(&["8", "--threads", "2"])), 300);
    // Order 11: 17,792 up to reversal (OEIS A014552), both ways.
    assert_eq!(count(&run(&["11", "--threads", "1"])), 35_584);
}

/// The knapsack example's instance, made here as its documentation says:
/// splitmix64 from the seed, weights 1 to 1,000, values weight + 100, a
/// capacity of half the total weight. Items as (value, weight).
fn knapsack_instance(n: usize, seed: u64) -> (Vec<(u64, u64)>, u64) {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let items: Vec<(u64, u64)> = (0..n)
        .map(|_| {
            let w = 1 + next() % 1000;
            (w + 100, w)
        })
        .collect();
    let capacity = items.iter().map(|i| i.1).sum::<u64>() / 2;
    (items, capacity)
}

/// The optimum by dynamic programming over capacities.
fn knapsack_optimum(items: &[(u64, u64)], capacity: u64) -> u64 {
    let mut best = vec![0u64; capacity as usize + 1];
    for &(v, w) in items {
        for c in (w as usize..=capacity as usize).rev() {
            best[c] = best[c].max(best[c - w as usize] + v);
        }
    }
    best[capacity as usize]
}

/// Checks a run's JSON summary against the instance: the objective is the
/// optimum, and the items listed fit and are worth it.
fn check_knapsack(out: &Output, n: usize, seed: u64, want: Option<u64>) -> u64 {
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    let (items, capacity) = knapsack_instance(n, seed);
    let best = v["objective"].as_u64().unwrap();
    if let Some(want) = want {
        assert_eq!(best, want, "{n} items, seed {seed}");
    }
    let chosen: Vec<usize> = v["items"]
        .as_str()
        .unwrap()
        .split_whitespace()
        .map(|i| i.parse().unwrap())
        .collect();
    let value: u64 = chosen.iter().map(|&i| items[i - 1].0).sum();
    let weight: u64 = chosen.iter().map(|&i| items[i - 1].1).sum();
    assert_eq!(value, best, "the items are worth the objective");
    assert!(weight <= capacity, "the items fit");
    best
}

#[test]
fn knapsack_finds_the_optimum_of_dynamic_programming() {
    for (n, seed) in [(1, 5), (20, 1), (40, 1), (40, 2), (60, 3), (80, 4)] {
        let (items, capacity) = knapsack_instance(n, seed);
        let optimum = knapsack_optimum(&items, capacity);
        for t in ["1", "2"] {
            let args = [
                &n.to_string(),
                "--seed",
                &seed.to_string(),
                "--threads",
                t,
                "--json",
            ];
            let mut cmd = Command::new(knapsack());
            cmd.args(args);
            check_knapsack(
                &run_with_timeout(cmd, Duration::from_secs(60)),
                n,
                seed,
                Some(optimum),
            );
        }
    }
}

#[test]
fn knapsack_at_least_stops_at_a_packing_worth_the_target() {
    let (items, capacity) = knapsack_instance(60, 1);
    let optimum = knapsack_optimum(&items, capacity);
    let mut cmd = Command::new(knapsack());
    cmd.args(["60", "--at-least", &(optimum - 300).to_string(), "--json"]);
    let found = check_knapsack(&run_with_timeout(cmd, Duration::from_secs(60)), 60, 1, None);
    assert!(found >= optimum - 300);
    let mut cmd = Command::new(knapsack());
    cmd.args(["60", "--at-least", &(optimum + 1).to_string()]);
    let out = run_with_timeout(cmd, Duration::from_secs(60));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("no packing worth"),
        "{out:?}"
    );
}

#[test]
#[cfg(feature = "mpi")]
fn knapsack_on_ranks() {
    for (ranks, threads) in [(2, 1), (3, 2)] {
        let (items, capacity) = knapsack_instance(70, 5);
        let mut cmd = Command::new("mpirun");
        cmd.args([
            "--oversubscribe",
            "--bind-to",
            "none",
            "-np",
            &ranks.to_string(),
        ])
        .arg(knapsack())
        .args([
            "70",
            "--seed",
            "5",
            "--threads",
            &threads.to_string(),
            "--json",
        ]);
        mpi_env(&mut cmd);
        let out = run_with_timeout(cmd, Duration::from_secs(180));
        check_knapsack(&out, 70, 5, Some(knapsack_optimum(&items, capacity)));
    }
}

#[test]
fn knapsack_starts_from_the_greedy_packing_and_proves_the_optimum_with_or_without_it() {
    for (n, seed) in [(40, 1), (60, 3)] {
        let (items, capacity) = knapsack_instance(n, seed);
        let optimum = knapsack_optimum(&items, capacity);
        // The greedy by ratio, computed here: every item, best ratio
        // first (ties in the order made), that still fits.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&i, &j| (items[j].0 * items[i].1).cmp(&(items[i].0 * items[j].1)));
        let (mut value, mut room) = (0, capacity);
        for i in order {
            if items[i].1 <= room {
                room -= items[i].1;
                value += items[i].0;
            }
        }
        for ramp_up in ["20000000", "0"] {
            let mut cmd = Command::new(knapsack());
            cmd.args([
                &n.to_string(),
                "--seed",
                &seed.to_string(),
                "--threads",
                "2",
                "--ramp-up",
                ramp_up,
                "--json",
            ]);
            let out = run_with_timeout(cmd, Duration::from_secs(60));
            check_knapsack(&out, n, seed, Some(optimum));
            let stdout = String::from_utf8_lossy(&out.stdout);
            let v: serde_json::Value =
                serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
            let improvements = v["improvements"].as_array().unwrap();
            let heuristic: Vec<u64> = improvements
                .iter()
                .filter(|i| i["heuristic"] == true)
                .map(|i| i["value"].as_u64().unwrap())
                .collect();
            if ramp_up == "0" {
                assert!(heuristic.is_empty(), "{improvements:?}");
            } else {
                assert_eq!(heuristic, [value], "the greedy's packing comes first");
                assert_eq!(improvements[0]["heuristic"], true);
            }
        }
    }
}

/// `examples/cheap_nodes.rs`, built once.
fn cheap_nodes() -> &'static PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| build("cheap_nodes"))
}

/// Runs `cheap_nodes WAY N --all` and returns its solutions, sorted, and
/// its (solutions, nodes) from the summary line.
fn cheap_listing(way: &str, n: u32, threads: &str) -> (Vec<String>, u64, u64) {
    let mut cmd = Command::new(cheap_nodes());
    cmd.args([way, &n.to_string(), "--all", "--threads", threads]);
    let out = run_with_timeout(cmd, Duration::from_secs(120));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "cheap_nodes {way} {n}: {stdout}");
    let mut lines: Vec<&str> = stdout.lines().collect();
    let summary = lines.pop().expect("a summary line");
    // "WAY: S subsets of K among N (R ranks x T threads, NODES nodes, ...)"
    let solutions = summary
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no count in {summary:?}"));
    let nodes = summary
        .split(", ")
        .nth(1)
        .and_then(|s| s.strip_suffix(" nodes")?.parse().ok())
        .unwrap_or_else(|| panic!("no nodes in {summary:?}"));
    let mut listed: Vec<String> = lines
        .into_iter()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    listed.sort();
    (listed, solutions, nodes)
}

/// The cheap-node benchmark's three searches (and the kernel below a
/// cutoff) walk one tree: the same nodes, F(n+2), and the same solutions,
/// the k-subsets of n with no two adjacent elements, found here by
/// trying every subset.
#[test]
fn cheap_nodes_three_ways_walk_one_tree() {
    let n = 14u32;
    let k = n / 4;
    let mut want: Vec<String> = (0u64..1 << n)
        .filter(|s| s & (s >> 1) == 0 && s.count_ones() == k)
        .map(|s| {
            let elements: Vec<String> = (0..n)
                .filter(|i| s & 1 << i != 0)
                .map(|i| i.to_string())
                .collect();
            elements.join(" ")
        })
        .collect();
    want.sort();
    let fib = |m: u32| (1..m).fold((0u64, 1u64), |(a, b), _| (b, a + b)).1;
    for (way, threads) in [
        ("plain", "1"),
        ("problem", "1"),
        ("problem", "2"),
        ("cutoff", "2"),
        ("tree", "1"),
        ("tree", "2"),
    ] {
        let (listed, solutions, nodes) = cheap_listing(way, n, threads);
        assert_eq!(listed, want, "{way} on {threads} threads");
        assert_eq!(solutions, want.len() as u64, "{way} on {threads} threads");
        assert_eq!(
            nodes,
            fib(n + 2),
            "{way} on {threads} threads: F({})",
            n + 2
        );
    }
    // Count mode, where the cutoff hands subtrees to the kernel.
    for way in ["plain", "problem", "cutoff", "tree"] {
        let mut cmd = Command::new(cheap_nodes());
        cmd.args([way, &n.to_string(), "--threads", "2", "--json"]);
        let out = run_with_timeout(cmd, Duration::from_secs(120));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "cheap_nodes {way}: {stdout}");
        let v: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
        assert_eq!(v["solutions"], want.len() as u64, "{way}");
        assert_eq!(v["nodes"], fib(n + 2), "{way}");
    }
}
