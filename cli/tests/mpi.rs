//! Real multi-process runs under mpirun: every configuration, every count.

#![cfg(feature = "mpi")]

use crate::common;

use common::{A000170, CONFIGS, json_of, mpirun, read_solutions};
use std::collections::HashSet;
use std::time::{Duration, Instant};

#[test]
fn queens_of_ten_sizes_match_oeis_in_every_configuration() {
    // The small boards (no solution, fewer subtrees than workers) and a
    // spread of larger ones; every n up to 15 is checked in-process (the
    // queens unit tests), so over mpirun a sample suffices. The long runs
    // over mpirun are 17 below and the checkpoint tests' 16.
    for (ranks, threads) in CONFIGS {
        for n in [1usize, 2, 3, 4, 5, 6, 8, 11, 13, 14] {
            let v = json_of(&mpirun(
                ranks,
                threads,
                &["queens", &n.to_string(), "--json", "--quiet"],
            ));
            assert_eq!(v["solutions"], A000170[n - 1], "n={n} {ranks}x{threads}");
            assert_eq!(v["ranks"], ranks);
            assert_eq!(v["threads"], threads);
        }
    }
}

/// n = 17, the largest count the suite can afford (11 s of CPU a run):
/// 4 ranks, oversubscribed on 2 cores.
#[test]
fn queens_17_matches_oeis_on_ranks() {
    let v = json_of(&mpirun(4, 1, &["queens", "17", "--json", "--quiet"]));
    assert_eq!(v["solutions"], A000170[16], "4x1");
}

#[test]
fn work_crosses_ranks_beyond_the_initial_deal() {
    let v = json_of(&mpirun(
        3,
        2,
        &[
            "synthetic",
            "--seed",
            "7",
            "--leaves",
            "60000",
            "--work",
            "40",
            "--prefixes-per-worker",
            "1",
            "--json",
            "--stats",
        ],
    ));
    assert_eq!(v["solutions"], 60000);
    // Through the master (asked for) or straight (direct steals).
    let returned = v["master"]["prefixes_returned"].as_u64().unwrap();
    let stolen = v["master"]["prefixes_stolen"].as_u64().unwrap();
    assert!(
        returned + stolen > 0,
        "no donation between ranks: {}",
        v["master"]
    );
    let donated: u64 = v["rank_stats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["prefixes_donated"].as_u64().unwrap())
        .sum();
    assert_eq!(donated, returned + stolen);
    // Each steal's round trip is measured.
    assert!(
        v["steal_round_trip_us"]["count"].as_u64() > Some(0),
        "{}",
        v["steal_round_trip_us"]
    );
}

/// Ranks hungry at one idle worker (`--hunger 1`; off by default on ranks
/// of 2 threads) over real MPI: asks that cross work on its way, stale
/// idle reports, hungry thieves. The count stays exact, and the master did
/// serve hungry ranks.
#[test]
fn hungry_ranks_count_exactly_over_mpi() {
    let mut hungers = 0;
    for (ranks, threads) in [(2, 2), (3, 2), (2, 4)] {
        let v = json_of(&mpirun(
            ranks,
            threads,
            &[
                "synthetic",
                "--seed",
                "11",
                "--leaves",
                "40000",
                "--work",
                "20",
                "--prefixes-per-worker",
                "1",
                "--hunger",
                "1",
                // Hungry ranks that ask the master, not their peers.
                "--direct-steals",
                "0",
                "--json",
                "--stats",
            ],
        ));
        assert_eq!(v["solutions"], 40000, "{ranks}x{threads}");
        hungers += v["master"]["hungers"].as_u64().unwrap();
    }
    assert!(hungers > 0, "no rank was ever hungry");
}

#[test]
fn synthetic_counts_identical_over_mpi() {
    for seed in [1u64, 2, 3] {
        let leaves = (seed * 12_345).to_string();
        let s = seed.to_string();
        let args = [
            "synthetic",
            "--seed",
            &s,
            "--leaves",
            &leaves,
            "--prefixes-per-worker",
            "2",
            "--json",
            "--quiet",
        ];
        let mut nodes = HashSet::new();
        for (ranks, threads) in CONFIGS {
            let v = json_of(&mpirun(ranks, threads, &args));
            assert_eq!(
                v["solutions"].as_u64().unwrap(),
                seed * 12_345,
                "{ranks}x{threads}"
            );
            nodes.insert(v["nodes"].as_u64().unwrap());
        }
        assert_eq!(
            nodes.len(),
            1,
            "node counts differ between configurations: {nodes:?}"
        );
    }
}

#[test]
fn first_mode_terminates_every_rank_promptly() {
    // The only solution is the last leaf in child order.
    let started = Instant::now();
    let v = json_of(&mpirun(
        3,
        2,
        &[
            "--mode",
            "first",
            "synthetic",
            "--seed",
            "5",
            "--leaves",
            "1",
            "--needle",
            "--min-depth",
            "12",
            "--dead-depth",
            "12",
            "--json",
        ],
    ));
    assert_eq!(v["solutions"], 1);
    assert!(started.elapsed() < Duration::from_secs(60));
    // Plenty of solutions: found and stopped long before the tree is walked.
    let v = json_of(&mpirun(
        4,
        1,
        &[
            "--mode",
            "first",
            "synthetic",
            "--seed",
            "3",
            "--leaves",
            "100000000",
            "--work",
            "20",
            "--json",
        ],
    ));
    assert_eq!(v["solutions"], 1);
    assert!(v["nodes"].as_u64().unwrap() < 10_000_000);
}

#[test]
fn all_mode_over_ranks_writes_the_same_solutions() {
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.txt");
    let many = dir.path().join("many.txt");
    for (path, ranks, threads) in [(&one, 1, 1), (&many, 3, 2)] {
        let v = json_of(&mpirun(
            ranks,
            threads,
            &[
                "--mode",
                "all",
                "--out",
                path.to_str().unwrap(),
                "queens",
                "9",
                "--json",
            ],
        ));
        assert_eq!(v["solutions"], 352);
        assert_eq!(v["written"], 352);
    }
    let a: Vec<String> = read_solutions(&one);
    let b: Vec<String> = read_solutions(&many);
    assert_eq!(a.len(), 352);
    assert_eq!(b.len(), 352);
    assert_eq!(
        a.iter().collect::<HashSet<_>>(),
        b.iter().collect::<HashSet<_>>()
    );
}

#[test]
fn hitori_over_mpi_counts_and_solves_in_every_configuration() {
    let examples = common::root().join("examples/hitori");
    let examples = examples.display();
    let open = format!("{examples}/open-16x16-small.txt");
    let hard = format!("{examples}/seed/test2-25x25.txt");
    let unique = format!("{examples}/seed/test4-25x25.txt");
    let solution =
        std::fs::read_to_string(format!("{examples}/seed/test4-25x25.solution")).unwrap();
    for (ranks, threads) in CONFIGS {
        let what = format!("{ranks}x{threads}");
        let v = json_of(&mpirun(
            ranks,
            threads,
            &["--mode", "count", "hitori", &open, "--json", "--quiet"],
        ));
        assert_eq!(v["solutions"], 146_880, "open grid in {what}");
        let v = json_of(&mpirun(
            ranks,
            threads,
            &["--mode", "unique", "hitori", &hard, "--json", "--quiet"],
        ));
        assert_eq!(v["answer"], "multiple", "test2-25x25 in {what}");
        let out = mpirun(
            ranks,
            threads,
            &["--mode", "unique", "hitori", &unique, "--json", "--quiet"],
        );
        assert_eq!(json_of(&out)["answer"], "unique", "test4-25x25 in {what}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let shown: Vec<&str> = stdout.lines().take(25).collect();
        assert_eq!(shown.join("\n"), solution.trim(), "test4-25x25 in {what}");
    }
}

#[test]
fn magic_over_mpi_in_every_configuration() {
    let data = common::root().join("examples/magic");
    let data = data.display();
    for (ranks, threads) in CONFIGS {
        let what = format!("{ranks}x{threads}");
        for (file, count) in [
            ("seed_4x4_br15", 400),
            ("5x5_row_1_2_13_24_25", 8016),
            ("5x5_diag_sample00", 22202),
            ("empty_4x4", 7040),
        ] {
            let v = json_of(&mpirun(
                ranks,
                threads,
                &["magic", &format!("{data}/{file}.txt"), "--json", "--quiet"],
            ));
            assert_eq!(v["solutions"], count, "{file} in {what}");
        }
        let v = json_of(&mpirun(
            ranks,
            threads,
            &["magic", "--empty", "4", "--distinct", "--json", "--quiet"],
        ));
        assert_eq!(v["solutions"], 880, "distinct 4x4 in {what}");
    }
}

#[test]
fn packing_over_mpi_in_every_configuration() {
    for (ranks, threads) in CONFIGS {
        let what = format!("{ranks}x{threads}");
        for (args, count) in [
            (
                vec!["pack", "--pieces", "pentominoes", "--board", "12x5"],
                4040,
            ),
            (
                vec![
                    "pack",
                    "--pieces",
                    "pentominoes",
                    "--board",
                    "10x6",
                    "--distinct",
                ],
                2339,
            ),
            (
                vec!["pack", "--pieces", "soma", "--board", "3x3x3", "--distinct"],
                240,
            ),
        ] {
            let mut args = args.clone();
            args.extend(["--json", "--quiet"]);
            let v = json_of(&mpirun(ranks, threads, &args));
            assert_eq!(v["solutions"], count, "{args:?} in {what}");
        }
    }
}

#[test]
fn exact_cover_over_mpi_in_every_configuration() {
    for (ranks, threads) in CONFIGS {
        let what = format!("{ranks}x{threads}");
        for (args, count) in [
            (vec!["xc", "examples/xc/langford-12.xc"], 216_288),
            (vec!["xc", "examples/xc/soma.xc"], 11_520),
            (
                vec!["xc", "--engine", "links", "examples/xc/queens-13.xc"],
                73_712,
            ),
            (vec!["--mode", "unique", "xc", "examples/xc/sudoku.xc"], 1),
        ] {
            let mut args = args.clone();
            args.extend(["--json", "--quiet"]);
            let v = json_of(&mpirun(ranks, threads, &args));
            assert_eq!(v["solutions"], count, "{args:?} in {what}");
            // Every rank says how many it found (the sudoku's one solution
            // turns up in the master's first expansion, before any rank).
            let per_rank: u64 = v["rank_stats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["solutions"].as_u64().unwrap())
                .sum();
            if count > 1 {
                assert_eq!(per_rank, count, "{args:?} in {what}");
            }
        }
    }
}

#[test]
fn clique_over_mpi_in_every_configuration() {
    for (ranks, threads) in CONFIGS {
        for (file, omega) in [
            ("hamming8-4", 16),
            ("keller4", 11),
            ("johnson16-2-4", 8),
            ("random-150-0.8-1", 23),
        ] {
            let path = format!("examples/clique/{file}.col");
            let v = json_of(&mpirun(
                ranks,
                threads,
                &["clique", &path, "--json", "--quiet"],
            ));
            assert_eq!(v["objective"], omega, "{file} in {ranks}x{threads}");
            let clique =
                hysolve_puzzles::clique::parse_solution(v["solution"].as_str().unwrap()).unwrap();
            assert_eq!(clique.len(), omega as usize);
            // The runs start in the workspace's root; this process does not.
            let graph = hysolve_puzzles::clique::dimacs::read(&crate::common::root().join(&path))
                .unwrap()
                .graph;
            assert!(graph.is_clique(&clique), "{file} in {ranks}x{threads}");
            // Every rank's improvements reached the master, which told the
            // others; the heuristic's (the ramp-up's and the race's) are the
            // master's own.
            let sent: u64 = v["rank_stats"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["improvements_sent"].as_u64().unwrap())
                .sum();
            let ramp_up = v["improvements"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|i| i["heuristic"] == true)
                .count() as u64;
            assert!(sent + ramp_up >= v["master"]["improvements"].as_u64().unwrap());
        }
        let v = json_of(&mpirun(
            ranks,
            threads,
            &[
                "clique",
                "examples/clique/keller4.col",
                "--at-least",
                "10",
                "--json",
                "--quiet",
            ],
        ));
        assert!(
            v["objective"].as_u64().unwrap() >= 10,
            "at-least in {ranks}x{threads}"
        );
    }
}

/// UTS T1 and T3 under mpirun: the published node, leaf and depth counts
/// (`puzzles/tests/uts.rs` has them on threads).
#[test]
fn published_trees_over_mpi() {
    for (name, nodes, leaves, depth) in [
        ("T1", 4_130_071u64, 3_305_118u64, 10u64),
        ("T3", 4_112_897, 3_599_034, 1_572),
    ] {
        for (ranks, threads) in [(2, 1), (3, 2)] {
            let v = json_of(&mpirun(ranks, threads, &["--json", "uts", "--tree", name]));
            assert_eq!(v["nodes"], nodes, "{name} on {ranks}x{threads}");
            assert_eq!(v["solutions"], leaves, "{name} on {ranks}x{threads}");
            assert_eq!(v["depth"], depth, "{name} on {ranks}x{threads}");
        }
    }
}
