//! `examples/custom_problem.rs`, a search written as a user would, counted
//! right on threads and on MPI ranks (Langford pairings, OEIS A014552:
//! 26 of order 7 and 150 of order 8 up to reversal).

mod common;

use common::{mpi_env, run_with_timeout};
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::Duration;

/// The example, built once (with the same features as this test).
fn example() -> &'static PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut cmd = Command::new(env!("CARGO"));
        cmd.current_dir(root).args([
            "build",
            "--release",
            "-p",
            "hysolve",
            "--example",
            "custom_problem",
        ]);
        if cfg!(feature = "mpi") {
            cmd.args(["--features", "mpi"]);
        }
        let out = run_with_timeout(cmd, Duration::from_secs(600));
        assert!(
            out.status.success(),
            "building the example: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        PathBuf::from(root).join("target/release/examples/custom_problem")
    })
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
