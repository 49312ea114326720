//! UTS, the Unbalanced Tree Search benchmark: the published node, leaf and
//! depth counts of T1, T2 and T3 (Olivier et al., LCPC 2006; restated in
//! `puzzles/src/uts/params.rs`) in every configuration, with ranks as
//! threads (under mpirun: `cli/tests/mpi.rs`), and one-line errors for bad
//! parameters.

use crate::common;

use common::{CONFIGS, hysolve, json_of, run_threads};
use hysolve::Mode;
use hysolve_puzzles::uts::Uts;
use hysolve_puzzles::uts::params::Params;
use std::sync::Arc;

#[test]
fn published_trees_in_every_configuration() {
    for name in ["T1", "T2", "T3"] {
        let (p, published) = Params::named(name).unwrap();
        let tree = Arc::new(Uts::new(p, name));
        for &(ranks, threads) in &CONFIGS {
            let (o, _) = run_threads(&tree, Mode::Count, ranks, threads);
            assert_eq!(
                (o.nodes, o.solutions, o.depth),
                (published.nodes, published.leaves, Some(published.depth)),
                "{name} on {ranks}x{threads}"
            );
        }
    }
}

#[test]
fn parameters_by_hand_and_bad_ones() {
    // T1 given by its parameters instead of its name.
    let v = json_of(&hysolve(&[
        "--threads",
        "2",
        "--json",
        "uts",
        "-t",
        "1",
        "-a",
        "3",
        "-d",
        "10",
        "-b",
        "4",
        "-r",
        "19",
    ]));
    assert_eq!(
        (v["nodes"].as_u64(), v["depth"].as_u64()),
        (Some(4_130_071), Some(10))
    );
    assert_eq!(v["instance"], "-t 1 -b 4 -r 19 -a 3 -d 10");
    for (args, needle) in [
        (vec!["uts", "--tree", "T9"], "no published tree 'T9'"),
        (vec!["uts", "-q", "-0.5"], "-q -0.5: expected a probability"),
        (
            vec!["uts", "-m", "0"],
            "-m 0: expected a whole number of children",
        ),
        (vec!["uts", "-t", "5"], "-t 5: expected 0 (binomial)"),
        (
            vec!["uts", "-t", "1", "-a", "1", "-d", "1"],
            "needs -d 2 or more",
        ),
    ] {
        let out = hysolve(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
    // A binomial tree with q*m >= 1 runs, with a warning first (here it
    // stops at once: its root has no children).
    let out = hysolve(&["uts", "-t", "0", "-b", "0.5", "-q", "0.5", "-m", "2"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("may never end"), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 solution"));
}
