//! Hostile input for every parser: random bytes, and random mutations of
//! valid files (characters inserted, deleted, replaced, lines duplicated or
//! cut, numbers blown up). Each input goes through the whole preparation a
//! run would do (parse, then build the problem, or load the checkpoint, or
//! read the solutions file, draw its page); the result may be an error but
//! never a panic, and never takes long. Inputs are bytes, read back through
//! the real file reader (`read_text`: invalid UTF-8 and byte-order marks
//! included). Each target counts how many inputs get past parsing, and how
//! many past each later stage, and fails if a stage is never reached.
//! Bounded: 10,000 inputs per target.

use hysolve::advanced::Checkpoint;
use hysolve::advanced::input::{MAX_INPUT_BYTES, read_text};
use hysolve_cli::doors::formats;
use hysolve_cli::view;
use hysolve_puzzles::hitori::{Hitori, grid::Grid};
use hysolve_puzzles::magic::lines::Lines;
use hysolve_puzzles::magic::{Magic, square::Given};
use hysolve_puzzles::pack::{Layout, Pack, figure::Figure, pieces::PieceSet};
use hysolve_puzzles::xc::Xc;
use hysolve_puzzles::xc::cursor::Engine;
use hysolve_puzzles::xc::format::Instance;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const CASES: u32 = 10_000;

/// A valid file and the characters its format is made of.
struct Seed {
    text: String,
    alphabet: &'static str,
}

/// The repository's root, where the seed files are (this test is the
/// command-line package's, in `cli/`).
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn seeds(files: &[&str], alphabet: &'static str) -> Vec<Seed> {
    files
        .iter()
        .map(|f| Seed {
            text: std::fs::read_to_string(Path::new(ROOT).join(f))
                .unwrap_or_else(|e| panic!("{f}: {e}")),
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

/// How far the inputs of one target got: stage name, inputs that reached it.
struct Reach(Vec<(&'static str, Cell<u32>)>);

impl Reach {
    fn new(stages: &[&'static str]) -> Self {
        Reach(stages.iter().map(|&s| (s, Cell::new(0))).collect())
    }

    /// Marks stage `name` reached by one more input.
    fn at(&self, name: &str) {
        let (_, c) = self.0.iter().find(|(s, _)| *s == name).expect("a stage");
        c.set(c.get() + 1);
    }

    /// Prints the counts and fails if some stage was never reached.
    fn report(&self, target: &str, inputs: u32) {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(s, c)| format!("{} {s}", c.get()))
            .collect();
        eprintln!("{target}: {inputs} inputs, no panic; {}", parts.join(", "));
        for (s, c) in &self.0 {
            assert!(c.get() > 0, "{target}: no input reached '{s}'");
        }
    }
}

/// Feeds `inputs` from `strategy` to `check`, counting them; panics in
/// `check` fail the test with the input that caused them.
fn fuzz<S: Strategy<Value = Vec<u8>>>(name: &str, strategy: S, check: impl Fn(&[u8])) -> u32 {
    let mut runner = TestRunner::new(Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    });
    let count = Cell::new(0u32);
    runner
        .run(&strategy, |input| {
            count.set(count.get() + 1);
            let t = Instant::now();
            check(&input);
            prop_assert!(
                t.elapsed() < Duration::from_secs(2),
                "{name}: {:?} took {:?}",
                String::from_utf8_lossy(&input),
                t.elapsed()
            );
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    count.get()
}

/// Random bytes (invalid UTF-8 among them) and mutations of the seeds,
/// half and half.
fn inputs(seeds: Vec<Seed>) -> impl Strategy<Value = Vec<u8>> {
    let seeds = std::sync::Arc::new(seeds);
    let n = seeds.len();
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..600),
        (0..n, proptest::collection::vec(edit(), 1..6))
            .prop_map(move |(i, edits)| mutate(&seeds[i], &edits).into_bytes()),
    ]
}

/// Writes `bytes` to `file` and reads them back as the parsers' callers do.
fn through_file(file: &Path, bytes: &[u8]) -> Option<String> {
    std::fs::write(file, bytes).unwrap();
    read_text(file, MAX_INPUT_BYTES).ok()
}

fn scratch(dir: &tempfile::TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

#[test]
fn hitori_grids() {
    let seeds = seeds(
        &[
            "examples/hitori/seed/input-5x5.txt",
            "examples/hitori/seed/input-8x8.txt",
            "examples/hitori/gen-10x10.txt",
        ],
        "0123456789 \n\t-x#",
    );
    let dir = tempfile::tempdir().unwrap();
    let file = scratch(&dir, "fuzz.txt");
    let reach = Reach::new(&["text", "grids", "problems"]);
    let n = fuzz("hitori", inputs(seeds), |bytes| {
        let Some(text) = through_file(&file, bytes) else {
            return;
        };
        reach.at("text");
        if let Ok(grid) = Grid::parse(&text, "fuzz.txt") {
            reach.at("grids");
            let _ = Hitori::new(grid, "fuzz");
            reach.at("problems");
        }
    });
    reach.report("hitori", n);
}

#[test]
fn magic_squares() {
    let seeds = seeds(
        &[
            "examples/magic/seed_4x4_br15.txt",
            "examples/magic/5x5_siamese_13blank.txt",
            "examples/magic/empty_3x3.txt",
            "examples/magic/empty_4x4.txt",
        ],
        "0123456789 -\n1",
    );
    let dir = tempfile::tempdir().unwrap();
    let file = scratch(&dir, "fuzz.txt");
    let reach = Reach::new(&[
        "text",
        "squares",
        "problems",
        "5x5 by lines",
        "distinct problems",
    ]);
    let n = fuzz("magic", inputs(seeds), |bytes| {
        let Some(text) = through_file(&file, bytes) else {
            return;
        };
        reach.at("text");
        if let Ok(given) = Given::parse(&text, "fuzz.txt") {
            reach.at("squares");
            if Magic::new(given.clone(), "fuzz", false).is_ok() {
                reach.at("problems");
            }
            if given.n == 5 && Lines::new(given.clone(), "fuzz", false).is_ok() {
                reach.at("5x5 by lines");
            }
            if Magic::new(given, "fuzz", true).is_ok() {
                reach.at("distinct problems");
            }
        }
    });
    reach.report("magic", n);
}

#[test]
fn exact_cover_files() {
    let seeds = seeds(
        &[
            "examples/xc/colours.xc",
            "examples/xc/langford-12.xc",
            "examples/xc/queens-13.xc",
        ],
        "abcxys0123456789 |:\n",
    );
    let dir = tempfile::tempdir().unwrap();
    let file = scratch(&dir, "fuzz.xc");
    let reach = Reach::new(&["text", "instances", "problems"]);
    let n = fuzz("xc", inputs(seeds), |bytes| {
        let Some(text) = through_file(&file, bytes) else {
            return;
        };
        reach.at("text");
        if let Ok(instance) = Instance::parse("fuzz.xc", &text) {
            reach.at("instances");
            let _ = Xc::new("fuzz.xc".into(), instance, Engine::Auto);
            reach.at("problems");
        }
    });
    reach.report("xc", n);
}

/// A box of `cells` cells, as near a cube (3D) or a square as it divides.
fn box_of(cells: usize, three_d: bool) -> Figure {
    let mut best = (cells, 1, 1);
    let spread = |(a, b, c): (usize, usize, usize)| a.max(b).max(c) - a.min(b).min(c);
    for a in 1..=cells {
        for b in 1..=cells / a {
            let c = cells / (a * b);
            if a * b * c == cells && (three_d || c == 1) && spread((a, b, c)) < spread(best) {
                best = (a, b, c);
            }
        }
    }
    let spec = if three_d {
        format!("{}x{}x{}", best.0, best.1, best.2)
    } else {
        format!("{}x{}", best.0, best.1)
    };
    Figure::parse_box(&spec).unwrap()
}

/// Builds the search for `set` on `figure` with and without `--distinct`,
/// as the CLI does (the board's words chosen by its size).
fn prepare_pack(set: PieceSet, figure: Figure, reach: &Reach) {
    let Ok(layout) = Layout::new(set, figure) else {
        return;
    };
    reach.at("layouts");
    for distinct in [false, true] {
        let built = match layout.words() {
            1 => Pack::<1>::new(layout.clone(), distinct).map(drop),
            2 => Pack::<2>::new(layout.clone(), distinct).map(drop),
            3 | 4 => Pack::<4>::new(layout.clone(), distinct).map(drop),
            _ => Pack::<8>::new(layout.clone(), distinct).map(drop),
        };
        if built.is_ok() {
            reach.at(if distinct {
                "distinct searches"
            } else {
                "searches"
            });
        }
    }
}

#[test]
fn piece_sets_and_figures() {
    let dir = tempfile::tempdir().unwrap();
    let file = scratch(&dir, "fuzz.txt");
    let pieces = seeds(
        &[
            "puzzles/src/pack/sets/pentominoes.pieces",
            "puzzles/src/pack/sets/soma.pieces",
            "examples/packing/tetrominoes.pieces",
        ],
        "#.ABCxyz \n-:|0123456789",
    );
    // Each piece set on a box of its own cell count.
    let reach = Reach::new(&["sets", "layouts", "searches", "distinct searches"]);
    let n = fuzz("pieces", inputs(pieces), |bytes| {
        let Some(text) = through_file(&file, bytes) else {
            return;
        };
        if let Ok(set) = PieceSet::parse(&text, "fuzz.pieces") {
            reach.at("sets");
            if (1..=512).contains(&set.cells()) {
                let figure = box_of(set.cells(), set.three_d);
                prepare_pack(set, figure, &reach);
            }
        }
    });
    reach.report("pieces", n);
    // Each figure with a set of its own cell count: dominoes, and one
    // monomino for an odd count (flat or solid as the figure is).
    let figures = seeds(
        &["examples/packing/steps.fig", "examples/packing/ring.fig"],
        "#. \n-|xX%",
    );
    let reach = Reach::new(&["figures", "layouts", "searches", "distinct searches"]);
    let n = fuzz("figures", inputs(figures), |bytes| {
        let Some(text) = through_file(&file, bytes) else {
            return;
        };
        if let Ok(figure) = Figure::parse(&text, "fuzz.fig") {
            reach.at("figures");
            let cells = figure.cells();
            if (1..=128).contains(&cells) {
                let (domino, mono) = if figure.d > 1 {
                    ("D 0,0,0 1,0,0\n", "M 0,0,0\n")
                } else {
                    ("D 0,0 1,0\n", "M 0,0\n")
                };
                let text = domino.repeat(cells / 2) + if cells % 2 == 1 { mono } else { "" };
                let set = PieceSet::parse(&text, "dominoes").unwrap();
                prepare_pack(set, figure, &reach);
            }
        }
    });
    reach.report("figures", n);
    let pentominoes = PieceSet::load("pentominoes").unwrap();
    // Random specs, and boxes of 60 cells (the pentominoes' count) in 2D
    // and 3D with a digit or an `x` sometimes thrown in.
    let sixty = [1usize, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60];
    let boxes = prop_oneof![
        "[0-9x]{0,12}".prop_map(|s: String| s.into_bytes()),
        (
            proptest::sample::select(sixty.to_vec()),
            proptest::sample::select(sixty.to_vec()),
            "[0-9x]{0,1}",
        )
            .prop_map(|(a, b, noise): (usize, usize, String)| {
                let spec = if 60 % (a * b) == 0 && a * b < 60 {
                    format!("{a}x{b}x{}", 60 / (a * b))
                } else {
                    format!("{a}x{}", 60 / a)
                };
                (spec + &noise).into_bytes()
            }),
    ];
    let reach = Reach::new(&["boxes", "layouts", "searches", "distinct searches"]);
    let n = fuzz("box specs", boxes, |spec| {
        if let Ok(figure) = Figure::parse_box(std::str::from_utf8(spec).unwrap()) {
            reach.at("boxes");
            prepare_pack(pentominoes.clone(), figure, &reach);
        }
    });
    reach.report("box specs", n);
}

#[test]
fn checkpoints() {
    let dir = tempfile::tempdir().unwrap();
    let identity = Checkpoint::identity("queens", "12", "count", "abc");
    // A checkpoint as a run writes it: the identity's fields and a run's.
    let mut json = serde_json::to_value(&identity).unwrap();
    json["remaining"] = serde_json::to_value([
        hysolve::advanced::Prefix::root().join(&[1, 2]),
        hysolve::advanced::Prefix::root().join(&[3, 4]),
    ])
    .unwrap();
    json["units"] = 40.into();
    json["nodes"] = 123.into();
    json["solutions"] = 7.into();
    json["elapsed_s"] = 2.5.into();
    let valid: Checkpoint = serde_json::from_value(json).unwrap();
    let path = dir.path().join("seed.ckpt");
    valid.store(&path).unwrap();
    let seed = Seed {
        text: std::fs::read_to_string(&path).unwrap(),
        alphabet: "{}[]\":,0123456789-e.abcqnu",
    };
    let file = dir.path().join("fuzz.ckpt");
    let reach = Reach::new(&["loaded"]);
    let n = fuzz("checkpoints", inputs(vec![seed]), |bytes| {
        std::fs::write(&file, bytes).unwrap();
        if Checkpoint::load(&file, &identity).is_ok() {
            reach.at("loaded");
        }
    });
    reach.report("checkpoints", n);
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
            text: std::fs::read_to_string(
                Path::new(ROOT).join("examples/hitori/gen-10x10.solution"),
            )
            .unwrap(),
            alphabet: "#.\n 5",
        },
    ];
    let seeds = seeds
        .into_iter()
        .chain([Seed {
            text: "2 7 6\n9 5 1\n4 3 8\n\n8 1 6\n3 5 7\n4 9 2\n".to_string(),
            alphabet: "0123456789 \n",
        }])
        .collect();
    let file = dir.path().join("fuzz.txt");
    let reach = Reach::new(&["pictures", "files", "pages"]);
    let n = fuzz("solutions files", inputs(seeds), |bytes| {
        if let Some(text) = through_file(&file, bytes) {
            let formats = formats();
            let named = |name: &str| formats.iter().find(|f| f.name == name).copied();
            for format in [
                view::guess(&formats, &text),
                named("magic"),
                named("queens"),
            ] {
                if format.is_some_and(|f| (f.picture)(&text).is_ok()) {
                    reach.at("pictures");
                }
            }
        }
        std::fs::write(&file, bytes).unwrap();
        if let Ok(s) = view::read(&file, &formats(), None, 1, 5) {
            reach.at("files");
            let style = view::svg::Style::for_pictures(&s.pictures);
            for p in &s.pictures {
                let _ = view::svg::draw(p, &style, true);
            }
            let page = view::html::page("fuzz.txt", &s, &style);
            assert!(page.ends_with("</html>\n"));
            reach.at("pages");
        }
    });
    reach.report("solutions files", n);
}
