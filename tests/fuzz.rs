//! Hostile input for every parser: random bytes, and random mutations of
//! valid files (characters inserted, deleted, replaced, lines duplicated or
//! cut, numbers blown up). Each input goes through the whole preparation a
//! run would do (parse, then build the problem, or load the checkpoint, or
//! read the solutions file); the result may be an error but never a panic,
//! and never takes long. Bounded: a few thousand inputs per parser.

use hysolve::cluster::Checkpoint;
use hysolve::problems::hitori::{Hitori, grid::Grid};
use hysolve::problems::magic::{Magic, square::Given};
use hysolve::problems::pack::{Layout, figure::Figure, pieces::PieceSet};
use hysolve::view::{self, Kind, Picture};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::time::{Duration, Instant};

const CASES: u32 = 10_000;

/// A valid file and the characters its format is made of.
struct Seed {
    text: String,
    alphabet: &'static str,
}

fn seeds(files: &[&str], alphabet: &'static str) -> Vec<Seed> {
    files
        .iter()
        .map(|f| Seed {
            text: std::fs::read_to_string(f).unwrap_or_else(|e| panic!("{f}: {e}")),
            alphabet,
        })
        .collect()
}

#[derive(Debug, Clone)]
enum Edit {
    Insert(usize, usize, u8),
    Delete(usize, usize),
    Replace(usize, usize),
    DuplicateLine(usize),
    Truncate(usize),
    BigNumber(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<usize>(), 1u8..4).prop_map(|(a, b, n)| Edit::Insert(a, b, n)),
        (any::<usize>(), 1usize..40).prop_map(|(a, n)| Edit::Delete(a, n)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Replace(a, b)),
        any::<usize>().prop_map(Edit::DuplicateLine),
        any::<usize>().prop_map(Edit::Truncate),
        any::<usize>().prop_map(Edit::BigNumber),
    ]
}

fn mutate(seed: &Seed, edits: &[Edit]) -> String {
    let mut t: Vec<char> = seed.text.chars().collect();
    let alpha: Vec<char> = seed.alphabet.chars().collect();
    for e in edits {
        let at = |a: usize, len: usize| if len == 0 { 0 } else { a % (len + 1) };
        match *e {
            Edit::Insert(a, b, n) => {
                let p = at(a, t.len());
                for k in 0..n as usize {
                    t.insert(p, alpha[(b + k) % alpha.len()]);
                }
            }
            Edit::Delete(a, n) => {
                let p = at(a, t.len());
                let end = (p + n).min(t.len());
                t.drain(p..end);
            }
            Edit::Replace(a, b) if !t.is_empty() => {
                let p = a % t.len();
                t[p] = alpha[b % alpha.len()];
            }
            Edit::DuplicateLine(a) => {
                let s: String = t.iter().collect();
                let lines: Vec<&str> = s.lines().collect();
                if !lines.is_empty() {
                    let k = a % lines.len();
                    let mut out = lines[..=k].join("\n");
                    out.push('\n');
                    out.push_str(&lines[k..].join("\n"));
                    t = out.chars().collect();
                }
            }
            Edit::Truncate(a) => {
                let p = at(a, t.len());
                t.truncate(p);
            }
            Edit::BigNumber(a) => {
                let p = at(a, t.len());
                let big = ["99999999999999999999", "4294967296", "-1", "0", "65536"][a % 5];
                for (k, c) in big.chars().enumerate() {
                    t.insert(p + k, c);
                }
            }
            Edit::Replace(..) => {}
        }
    }
    t.into_iter().collect()
}

/// Feeds `inputs` from `strategy` to `check`, counting them; panics in
/// `check` fail the test with the input that caused them.
fn fuzz<S: Strategy<Value = String>>(name: &str, strategy: S, check: impl Fn(&str)) -> u32 {
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let count = std::cell::Cell::new(0u32);
    runner
        .run(&strategy, |input| {
            count.set(count.get() + 1);
            let t = Instant::now();
            check(&input);
            prop_assert!(
                t.elapsed() < Duration::from_secs(2),
                "{name}: {:?} took {:?}",
                input,
                t.elapsed()
            );
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    eprintln!("{name}: {} inputs, no panic", count.get());
    count.get()
}

/// Random bytes (as the parsers see them, lossily decoded) and mutations of
/// the seeds, half and half.
fn inputs(seeds: Vec<Seed>) -> impl Strategy<Value = String> {
    let seeds = std::sync::Arc::new(seeds);
    let n = seeds.len();
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..600)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        (0..n, proptest::collection::vec(edit(), 1..6))
            .prop_map(move |(i, edits)| mutate(&seeds[i], &edits)),
    ]
}

#[test]
fn hitori_grids() {
    let seeds = seeds(
        &[
            "tests/data/hitori/input-5x5.txt",
            "tests/data/hitori/input-8x8.txt",
            "examples/hitori/gen-10x10.txt",
        ],
        "0123456789 \n\t-x#",
    );
    fuzz("hitori", inputs(seeds), |text| {
        if let Ok(grid) = Grid::parse(text, "fuzz.txt") {
            let _ = Hitori::new(grid, "fuzz");
        }
    });
}

#[test]
fn magic_squares() {
    let seeds = seeds(
        &[
            "examples/magic/seed_4x4_br15.txt",
            "examples/magic/5x5_siamese_13blank.txt",
            "examples/magic/empty_3x3.txt",
        ],
        "0123456789 -\n1",
    );
    fuzz("magic", inputs(seeds), |text| {
        if let Ok(given) = Given::parse(text, "fuzz.txt") {
            let _ = Magic::new(given, "fuzz", false);
        }
    });
}

#[test]
fn piece_sets_and_figures() {
    let pieces = seeds(
        &[
            "src/problems/pack/sets/pentominoes.pieces",
            "src/problems/pack/sets/soma.pieces",
            "examples/packing/tetrominoes.pieces",
        ],
        "#.ABCxyz \n-:|0123456789",
    );
    let pentominoes = PieceSet::load("pentominoes").unwrap();
    fuzz("pieces", inputs(pieces), |text| {
        if let Ok(set) = PieceSet::parse(text, "fuzz.pieces") {
            let _ = Layout::new(set, Figure::parse_box("10x6").unwrap());
        }
    });
    let figures = seeds(
        &["examples/packing/steps.fig", "examples/packing/ring.fig"],
        "#. \n-|xX",
    );
    fuzz("figures", inputs(figures), |text| {
        if let Ok(figure) = Figure::parse(text, "fuzz.fig") {
            let _ = Layout::new(pentominoes.clone(), figure);
        }
    });
    let boxes = "[0-9x]{0,12}".prop_map(|s: String| s);
    fuzz("box specs", boxes, |spec| {
        if let Ok(figure) = Figure::parse_box(spec) {
            let _ = Layout::new(pentominoes.clone(), figure);
        }
    });
}

#[test]
fn checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let identity = Checkpoint::identity("queens", "12", "count", "abc");
    let valid = Checkpoint {
        remaining: vec![
            hysolve::engine::Prefix(vec![1, 2]),
            hysolve::engine::Prefix(vec![3, 4]),
        ],
        units: 40,
        nodes: 123,
        solutions: 7,
        elapsed_s: 2.5,
        ..identity.clone()
    };
    let path = dir.path().join("seed.ckpt");
    valid.store(&path).unwrap();
    let seed = Seed {
        text: std::fs::read_to_string(&path).unwrap(),
        alphabet: "{}[]\":,0123456789-e.abcqnu",
    };
    let file = dir.path().join("fuzz.ckpt");
    fuzz("checkpoints", inputs(vec![seed]), |text| {
        std::fs::write(&file, text).unwrap();
        let _ = Checkpoint::load(&file, &identity);
    });
}

#[test]
fn solutions_files_for_the_viewer() {
    let dir = tempfile::tempdir().unwrap();
    let queens = "Q...\n..Q.\n\n.Q..\n...Q\n";
    let pack = "AAB\nCCB\n\nab ba\ncc cc\n";
    let seeds = vec![
        Seed {
            text: queens.repeat(3),
            alphabet: "Q.\n #",
        },
        Seed {
            text: pack.to_string(),
            alphabet: "ABab. \n",
        },
        Seed {
            text: std::fs::read_to_string("examples/hitori/gen-10x10.solution").unwrap(),
            alphabet: "#.\n 5",
        },
    ];
    let file = dir.path().join("fuzz.txt");
    fuzz("solutions files", inputs(seeds), |text| {
        for kind in [None, Some(Kind::Magic), Some(Kind::Queens)] {
            let _ = Picture::parse(kind.unwrap_or_else(|| Kind::guess(text)), text);
        }
        std::fs::write(&file, text).unwrap();
        if let Ok(s) = view::read(&file, None, 1, 5) {
            let style = view::svg::Style::for_pictures(&s.pictures);
            for p in &s.pictures {
                let _ = view::svg::draw(p, &style, true);
            }
        }
    });
}
