//! Magic squares through the engine, ranks as threads: the published counts
//! of tests/data/magic, in every configuration, every completion verified.

mod common;

use common::{CONFIGS, blocks, run_threads as run};
use hysolve::engine::Mode;
use hysolve::problems::magic::Magic;
use hysolve::problems::magic::square::Given;
use hysolve::problems::magic::verify::{parse_square, verify};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/magic")
}

/// Every instance with its published count (`NAME.count`).
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
fn published_counts_in_every_configuration() {
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
