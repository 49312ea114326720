//! Magic squares through the engine, ranks as threads: the expected counts
//! of examples/magic (published for the empty 3x3 and 4x4, reproduced by
//! `tests/independent/magic.rs` for every file), in every configuration,
//! every completion verified.

use crate::common;

use common::{CONFIGS, blocks, run_threads as run};
use hysolve::Mode;
use hysolve_puzzles::magic::Magic;
use hysolve_puzzles::magic::lines::Lines;
use hysolve_puzzles::magic::square::Given;
use hysolve_puzzles::magic::verify::{parse_square, verify};
use std::path::PathBuf;
use std::sync::Arc;

fn data() -> PathBuf {
    crate::common::root().join("examples/magic")
}

/// Every instance with its expected count (`NAME.count`; its source in
/// `examples/magic/README.md`).
fn instances() -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = std::fs::read_dir(data())
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            let name = path
                .file_name()?
                .to_str()?
                .strip_suffix(".count")?
                .to_owned();
            let count = std::fs::read_to_string(&path).ok()?.trim().parse().ok()?;
            Some((name, count))
        })
        .collect();
    v.sort();
    v
}

#[test]
fn expected_counts_in_every_configuration() {
    let all = instances();
    assert_eq!(all.len(), 9);
    for (name, count) in all {
        let m = Arc::new(Magic::from_file(&data().join(format!("{name}.txt")), false).unwrap());
        for (ranks, threads) in CONFIGS {
            let (o, _) = run(&m, Mode::Count, ranks, threads);
            assert_eq!(o.solutions, count, "{name} in {ranks}x{threads}");
        }
    }
}

#[test]
fn every_completion_written_is_a_distinct_magic_square() {
    for (name, count) in instances() {
        let m = Arc::new(Magic::from_file(&data().join(format!("{name}.txt")), false).unwrap());
        for (ranks, threads) in [(1, 1), (2, 2), (3, 2)] {
            let (o, sink) = run(&m, Mode::All, ranks, threads);
            let mut squares = blocks(&sink);
            assert_eq!(
                squares.len() as u64,
                count,
                "{name} all in {ranks}x{threads}"
            );
            assert_eq!(o.written, count);
            for text in &squares {
                let sq = parse_square(text, m.given().n).unwrap();
                verify(m.given(), &sq).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
            }
            squares.sort();
            squares.dedup();
            assert_eq!(squares.len() as u64, count, "{name}: duplicates");
            let (o, _) = run(&m, Mode::Unique, ranks, threads);
            assert_eq!(o.found.len() as u64, count.min(2), "{name} unique");
            for text in &o.found {
                verify(m.given(), &parse_square(text, m.given().n).unwrap()).unwrap();
            }
        }
    }
}

#[test]
fn distinct_counts_up_to_symmetry() {
    for (n, all, distinct) in [(1, 1, 1), (2, 0, 0), (3, 8, 1), (4, 7040, 880)] {
        let plain = Arc::new(Magic::new(Given::empty(n).unwrap(), "e", false).unwrap());
        let sym = Arc::new(Magic::new(Given::empty(n).unwrap(), "e", true).unwrap());
        for (ranks, threads) in CONFIGS {
            assert_eq!(
                run(&plain, Mode::Count, ranks, threads).0.solutions,
                all,
                "{n}x{n}"
            );
            assert_eq!(
                run(&sym, Mode::Count, ranks, threads).0.solutions,
                distinct,
                "{n}x{n} distinct"
            );
        }
    }
    // The 880 distinct 4x4 squares, each mapped to all 8 images, give the 7040.
    let sym = Arc::new(Magic::new(Given::empty(4).unwrap(), "e", true).unwrap());
    let (_, sink) = run(&sym, Mode::All, 2, 2);
    let mut images = std::collections::HashSet::new();
    for text in blocks(&sink) {
        let mut sq = parse_square(&text, 4).unwrap();
        for _ in 0..4 {
            sq = (0..16).map(|i| sq[(3 - i % 4) * 4 + i / 4]).collect(); // rotate
            images.insert(sq.clone());
            images.insert(
                (0..16)
                    .map(|i| sq[(i % 4) * 4 + i / 4])
                    .collect::<Vec<u16>>(),
            ); // transpose
        }
    }
    assert_eq!(images.len(), 7040);
}

/// The order-5 instances through the line solver (the default for 5x5):
/// the same counts in every configuration, and every completion listed
/// checked, in both the counting tree and the listing one.
#[test]
fn five_by_five_by_lines_in_every_configuration() {
    let fives: Vec<(String, u64)> = instances()
        .into_iter()
        .filter(|(name, _)| name.starts_with("5x5"))
        .collect();
    assert_eq!(fives.len(), 3);
    for (name, count) in fives {
        let given = Magic::from_file(&data().join(format!("{name}.txt")), false)
            .unwrap()
            .given()
            .clone();
        let counting = Arc::new(Lines::new(given.clone(), &name, false).unwrap());
        let listing = Arc::new(Lines::new(given.clone(), &name, false).unwrap());
        for (ranks, threads) in CONFIGS {
            let (o, _) = run(&counting, Mode::Count, ranks, threads);
            assert_eq!(o.solutions, count, "{name} in {ranks}x{threads}");
        }
        for (ranks, threads) in [(1, 1), (2, 2), (3, 2)] {
            let (o, sink) = run(&listing, Mode::All, ranks, threads);
            let mut squares = blocks(&sink);
            assert_eq!(o.written, count, "{name} all in {ranks}x{threads}");
            for text in &squares {
                verify(&given, &parse_square(text, 5).unwrap())
                    .unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
            }
            squares.sort();
            squares.dedup();
            assert_eq!(squares.len() as u64, count, "{name}: duplicates");
            let (o, _) = run(&listing, Mode::Unique, ranks, threads);
            assert_eq!(o.found.len() as u64, count.min(2), "{name} unique");
        }
    }
}

/// The empty 5x5 square by lines: a first square, and the first squares
/// listed up to symmetry are distinct, canonical and magic.
#[test]
fn empty_five_by_five_by_lines() {
    let empty = Given::empty(5).unwrap();
    let first = Arc::new(Lines::new(empty.clone(), "e", false).unwrap());
    let distinct = Arc::new(Lines::new(empty.clone(), "e", true).unwrap());
    for (ranks, threads) in [(1, 1), (2, 2)] {
        let (o, _) = run(&first, Mode::First, ranks, threads);
        assert_eq!(o.found.len(), 1);
        verify(&empty, &parse_square(&o.found[0], 5).unwrap()).unwrap();
    }
    let config = hysolve::RunConfig::new(Mode::All).threads(2).limit(2000);
    let mut sink = Vec::new();
    let o = hysolve::advanced::run_threaded(distinct, &config, 2, &mut sink).unwrap();
    assert_eq!(o.written, 2000);
    let mut seen = std::collections::HashSet::new();
    for text in blocks(&sink) {
        let sq = parse_square(&text, 5).unwrap();
        verify(&empty, &sq).unwrap();
        assert!(sq[0] < sq[4] && sq[0] < sq[20] && sq[0] < sq[24] && sq[4] < sq[20]);
        assert!(seen.insert(sq));
    }
    assert_eq!(seen.len(), 2000);
}
