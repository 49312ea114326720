//! The conformance check (`hysolve::check`) on small instances of
//! every built-in puzzle: each walks its whole tree (but where said), node
//! by node, in every mode, split over and over, and below its count
//! cut-off against its kernel, and finds the known number of solutions.

use crate::common;

use common::queens_xc;
use hysolve::advanced::{Optimising, check_up_to, sequential};
use hysolve::{Checked, Mode, Problem, check};
use hysolve_puzzles::clique::{Clique, Graph, dimacs, families};
use hysolve_puzzles::hitori::Hitori;
use hysolve_puzzles::magic::Magic;
use hysolve_puzzles::magic::lines::Lines;
use hysolve_puzzles::magic::square::Given;
use hysolve_puzzles::pack::figure::Figure;
use hysolve_puzzles::pack::pieces::PieceSet;
use hysolve_puzzles::pack::{Layout, Pack};
use hysolve_puzzles::queens::Queens;
use hysolve_puzzles::synthetic::Synthetic;
use hysolve_puzzles::uts::Uts;
use hysolve_puzzles::uts::params::{Params, Shape};
use hysolve_puzzles::xc::Xc;
use hysolve_puzzles::xc::cursor::Engine;
use hysolve_puzzles::xc::format::Instance;
use std::fmt::Debug;
use std::path::PathBuf;

/// A file of the repository.
fn data(path: &str) -> PathBuf {
    crate::common::root().join(path)
}

fn read(path: &str) -> String {
    std::fs::read_to_string(data(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `check` of a tree small enough to be walked whole: every property
/// holds, and it has `solutions` solutions (weighted).
fn whole<P>(what: &str, problem: &P, solutions: u64) -> Checked
where
    P: Problem,
    P::Node: PartialEq + Debug,
{
    let checked = check(problem).unwrap_or_else(|v| panic!("{what}: {v}"));
    assert!(checked.whole, "{what}: not walked whole: {checked:?}");
    assert_eq!(checked.solutions, solutions, "{what}: {checked:?}");
    if problem.count_cutoff().is_none() {
        assert_eq!(checked.kernel_subtrees, 0, "{what}: {checked:?}");
    }
    checked
}

/// N-Queens, folding mirror images in a count or not, against OEIS
/// A000170; below the count cut-off (one row deep up to n = 12) the
/// constrained kernel against the moves.
#[test]
fn queens() {
    const A000170: [u64; 13] = [1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];
    for n in 1..=12u32 {
        for symmetric in [false, true] {
            let what = format!("queens {n}{}", if symmetric { " folded" } else { "" });
            let q = Queens::new(n, symmetric).unwrap();
            let c = whole(&what, &q, A000170[n as usize]);
            assert!(c.kernel_subtrees > 0, "{what}: {c:?}");
            if n >= 6 {
                assert!(c.splits > 0, "{what}: {c:?}");
            }
        }
    }
    // 6 and 8 walk the same tree folded or not in all mode.
    let c = whole("queens 6", &Queens::new(6, true).unwrap(), 4);
    assert_eq!(c.nodes, 113);
    let c = whole("queens 8", &Queens::new(8, true).unwrap(), 92);
    assert_eq!(c.nodes, 1235);
    // 13: too large to walk whole; the node-by-node checks and the
    // kernel (two rows deep) on its first 200,000 nodes.
    let q = Queens::new(13, true).unwrap();
    assert_eq!(q.count_cutoff(), Some(2));
    let c = check_up_to(&q, 200_000).unwrap_or_else(|v| panic!("queens 13: {v}"));
    assert!(!c.whole);
    assert_eq!((c.nodes, c.solutions), (200_000, 0));
    assert!(c.kernel_subtrees > 0, "queens 13: {c:?}");
}

/// Exact cover on both search structures: the files of examples/xc with
/// their counts (colours, a Sudoku, the Soma cube) and N queens.
#[test]
fn xc() {
    let instances = [
        ("colours.xc", read("examples/xc/colours.xc"), 3),
        ("sudoku.xc", read("examples/xc/sudoku.xc"), 1),
        ("soma.xc", read("examples/xc/soma.xc"), 11_520),
        ("queens 6", queens_xc(6), 4),
        ("queens 8", queens_xc(8), 92),
    ];
    for (name, text, solutions) in instances {
        for engine in [Engine::Links, Engine::Bits] {
            let what = format!("xc {name} on {engine:?}");
            let instance = Instance::parse(name, &text).unwrap();
            let xc = Xc::new(name.to_owned(), instance, engine);
            assert_eq!(xc.engine(), engine, "{what}");
            let c = whole(&what, &xc, solutions);
            assert!(c.kernel_subtrees > 0, "{what}: {c:?}");
        }
    }
}

/// UTS: a balanced tree (3 children down to depth 5: 364 nodes, 243
/// leaves), a binomial one (every inner node but the root has m
/// children) and the reference's default geometric tree.
#[test]
fn uts() {
    let balanced = Params {
        shape: Shape::Balanced,
        b: 3.0,
        d: 5,
        ..Params::default()
    };
    let c = whole("uts balanced", &Uts::new(balanced, "balanced"), 243);
    assert_eq!(c.nodes, 364);
    assert!(c.splits > 0);

    let (b, m) = (10, 4);
    let binomial = Params {
        shape: Shape::Binomial,
        b: b as f64,
        q: 0.2,
        m: m as u32,
        r: 1,
        ..Params::default()
    };
    let tree = Uts::new(binomial, "binomial");
    let (count, _) = sequential(&tree, Mode::Count);
    let c = whole("uts binomial", &tree, count.solutions);
    let inner = c.nodes - c.solutions;
    assert!(inner > 1, "uts binomial: {c:?}");
    assert_eq!(c.nodes, 1 + b + m * (inner - 1), "uts binomial: {c:?}");

    let tree = Uts::new(Params::default(), "default");
    let (count, _) = sequential(&tree, Mode::Count);
    let c = whole("uts default", &tree, count.solutions);
    assert_eq!(c.nodes, count.nodes);
    assert!(c.solutions > 0 && c.splits > 0, "uts default: {c:?}");
}

/// Packing: pentominoes in a 20x3 box (8 tilings, 2 up to its
/// symmetries), the Soma cube (11,520, 240) and two of each tetromino in
/// an 8x5 box (3,106, 783); the count cut-off is two placements deep.

#[test]
fn pack() {
    let cases = [
        ("pentominoes", "20x3", false, 8),
        ("pentominoes", "20x3", true, 2),
        ("soma", "3x3x3", false, 11_520),
        ("soma", "3x3x3", true, 240),
        ("examples/packing/tetrominoes.pieces", "8x5", false, 3_106),
        ("examples/packing/tetrominoes.pieces", "8x5", true, 783),
    ];
    for (pieces, board, distinct, solutions) in cases {
        let what = format!("pack {pieces} on {board}, distinct {distinct}");
        let spec = if pieces.contains('/') {
            data(pieces).display().to_string()
        } else {
            pieces.to_owned()
        };
        let set = PieceSet::load(&spec).unwrap();
        let layout = Layout::new(set, Figure::parse_box(board).unwrap()).unwrap();
        let pack = Pack::<1>::new(layout, distinct).unwrap();
        assert_eq!(pack.count_cutoff(), Some(2));
        let c = whole(&what, &pack, solutions);
        assert!(c.kernel_subtrees > 0 && c.splits > 0, "{what}: {c:?}");
    }
}

/// The square files `names` of examples/magic,
/// with their counts (`NAME.count`).
fn magic_files(names: &[&str]) -> Vec<(String, u64)> {
    names
        .iter()
        .map(|name| {
            let count = read(&format!("examples/magic/{name}.count"));
            (name.to_string(), count.trim().parse().unwrap())
        })
        .collect()
}

/// Magic squares cell by cell: the empty 3x3 (8 squares, no count
/// cut-off) and 4x4 files (cut-off two cells deep), with their counts.
#[test]
fn magic_by_cells() {
    let files = magic_files(&[
        "empty_3x3",
        "4x4_durer_8blank",
        "4x4_durer_12blank",
        "4x4_unsat_row123",
        "seed_4x4_br15",
    ]);
    for (name, count) in files {
        let what = format!("magic by cells {name}");
        let path = data(&format!("examples/magic/{name}.txt"));
        let m = Magic::from_file(&path, false).unwrap();
        let c = whole(&what, &m, count);
        if m.given().n == 4 && count > 0 {
            assert_eq!(m.count_cutoff(), Some(2), "{what}");
            assert!(c.kernel_subtrees > 0, "{what}: {c:?}");
        }
    }
}

/// Magic squares of order 5 by lines, with the counts of the 5x5 files.
#[test]
fn magic_by_lines() {
    let files = magic_files(&[
        "5x5_siamese_13blank",
        "5x5_diag_sample00",
        "5x5_row_1_2_13_24_25",
    ]);
    for (name, count) in files {
        let what = format!("magic by lines {name}");
        let text = read(&format!("examples/magic/{name}.txt"));
        let given = Given::parse(&text, &name).unwrap();
        let lines = Lines::new(given, name.as_str(), false).unwrap();
        let c = whole(&what, &lines, count);
        assert!(lines.count_cutoff().is_some());
        assert!(c.kernel_subtrees > 0, "{what}: {c:?}");
    }
}

/// Hitori: generated puzzles (one solution each) and the seed's grids
/// with their published counts (examples/hitori/seed/counts.tsv), up to
/// 27x27.
#[test]
fn hitori() {
    let mut grids = vec![
        ("gen-5x5".to_owned(), 1),
        ("gen-10x10".to_owned(), 1),
        ("gen-15x15".to_owned(), 1),
    ];
    for line in read("examples/hitori/seed/counts.tsv").lines() {
        if let Some((name, count)) = line.split_once(char::is_whitespace) {
            grids.push((format!("seed/{name}"), count.trim().parse().unwrap()));
        }
    }
    assert!(grids.len() > 18);
    let mut split = false;
    for (name, count) in grids {
        let what = format!("hitori {name}");
        let h = Hitori::from_file(&data(&format!("examples/hitori/{name}.txt"))).unwrap();
        let c = whole(&what, &h, count);
        split |= c.splits > 0;
    }
    assert!(split, "no hitori tree was split");
}

/// Every nonempty clique of `g`, counted by a plain recursion: each
/// clique grown by a larger vertex adjacent to all of it.
fn cliques(g: &Graph) -> u64 {
    fn grow(g: &Graph, clique: &mut Vec<usize>, from: usize) -> u64 {
        let mut total = 0;
        for v in from..g.len() {
            if clique.iter().all(|&u| g.adjacent(u, v)) {
                clique.push(v);
                total += 1 + grow(g, clique, v + 1);
                clique.pop();
            }
        }
        total
    }
    grow(g, &mut Vec::new(), 0)
}

/// Maximum clique, an optimisation problem whose count and all modes
/// count (and list) every nonempty clique once.
///
/// Its first mode counts nothing (`solution_weight` is 0 outside count
/// and all mode; the command line refuses `--mode first` for clique), so
/// `check` holds first mode to its own tree, where there is no solution.
/// Asserted besides the whole check: count mode against a plain count of
/// the cliques, the node-by-node checks on all but the last node of a
/// random graph's tree (`check_up_to`), and on the first 100,000 nodes of
/// hamming6-2 (examples/clique). Checked as the engine optimises it
/// (`Optimising`), so its listings told a floor (`moves_above`) are too.
#[test]
fn clique() {
    for (n, p, seed) in [(20, 0.5, 7), (24, 0.6, 3), (12, 1.0, 0)] {
        let what = format!("clique G({n}, {p}) seed {seed}");
        let graph = families::random(n, p, seed).unwrap();
        let expected = cliques(&graph);
        if p == 1.0 {
            assert_eq!(expected, (1 << n) - 1);
        }
        let clique = Optimising(Clique::new(&graph, what.as_str()));
        assert_eq!(clique.count_cutoff(), None);
        let (count, _) = sequential(&clique, Mode::Count);
        assert_eq!(count.solutions, expected, "{what}");
        // The tree is the empty clique and one node per nonempty clique.
        assert_eq!(count.nodes, expected + 1, "{what}");
        let c = check_up_to(&clique, count.nodes - 1).unwrap_or_else(|v| panic!("{what}: {v}"));
        assert!(!c.whole);
        assert_eq!(c.nodes, count.nodes - 1, "{what}");
        let c = whole(&what, &clique, expected);
        assert!(c.splits > 0, "{what}: {c:?}");
    }
    let read = dimacs::read(&data("examples/clique/hamming6-2.col")).unwrap();
    let clique = Optimising(Clique::new(&read.graph, "hamming6-2"));
    let c = check_up_to(&clique, 100_000).unwrap_or_else(|v| panic!("hamming6-2: {v}"));
    assert!(!c.whole);
    assert_eq!(c.nodes, 100_000);
}

/// The synthetic tree, whose solutions are exactly its `leaves` whatever
/// the seed, with the solutions spread or behind every dead subtree
/// (`needle`).
#[test]
fn synthetic() {
    for (seed, leaves, needle, dead_depth) in [
        (1, 100, false, 8),
        (7, 300, false, 4),
        (3, 1, true, 6),
        (4, 50, true, 4),
        (5, 1, false, 6),
    ] {
        let tree = Synthetic {
            seed,
            leaves,
            needle,
            dead_depth,
            ..Synthetic::default()
        };
        tree.validate().unwrap();
        let what = format!("{tree:?}");
        let c = whole(&what, &tree, leaves);
        assert!(c.nodes > leaves, "{what}: {c:?}");
    }
}
