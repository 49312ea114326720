//! Exact cover from files in Knuth's DLX format, ranks as threads: N-Queens,
//! Langford pairings and a Sudoku written as exact cover by this test, and
//! every packing of tests/data exported with `--export-xc`; counts equal to
//! the published ones and to the packing solver's, in every configuration
//! and on both search structures; every solution of `all` mode through the
//! independent verifier; colours against a brute force over subsets.

use crate::common;

use common::{CONFIGS, blocks, queens_xc as queens, run_threads as run};
use hysolve::Mode;
use hysolve_puzzles::pack::export::export_xc;
use hysolve_puzzles::pack::figure::Figure;
use hysolve_puzzles::pack::pieces::PieceSet;
use hysolve_puzzles::pack::{Layout, Pack};
use hysolve_puzzles::xc::Xc;
use hysolve_puzzles::xc::cursor::Engine;
use hysolve_puzzles::xc::format::Instance;
use hysolve_puzzles::xc::verify::verify;
use proptest::prelude::*;
use std::collections::HashSet;
use std::sync::Arc;

/// Langford pairings of 1..n: number k at slots j and j + k + 1 (each
/// pairing and its reversal counted).
fn langford(n: usize) -> String {
    let items: Vec<String> = (1..=n)
        .map(|k| k.to_string())
        .chain((0..2 * n).map(|j| format!("s{j}")))
        .collect();
    let mut s = items.join(" ") + "\n";
    for k in 1..=n {
        for j in 0..2 * n - k - 1 {
            s += &format!("{k} s{j} s{}\n", j + k + 1);
        }
    }
    s
}

/// A Sudoku: cell, row-value, column-value and box-value items; a given
/// is its cell's only option.
fn sudoku(grid: &[&str]) -> String {
    let mut s = String::new();
    for a in ["p", "r", "c", "b"] {
        for i in 0..9 {
            for j in 0..9 {
                s += &format!("{a}{i}{} ", if a == "p" { j } else { j + 1 });
            }
        }
    }
    s.push('\n');
    for (r, row) in grid.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            let b = r / 3 * 3 + c / 3;
            let values = match ch.to_digit(10) {
                Some(v) => v..=v,
                None => 1..=9,
            };
            for v in values {
                s += &format!("p{r}{c} r{r}{v} c{c}{v} b{b}{v}\n");
            }
        }
    }
    s
}

fn xc(text: &str, engine: Engine) -> Arc<Xc> {
    Arc::new(Xc::new(
        "test".into(),
        Instance::parse("test", text).unwrap(),
        engine,
    ))
}

#[test]
fn queens_and_langford_counts_in_every_configuration_on_both_structures() {
    // Langford: OEIS A014552 (7: 26, 8: 150, 11: 17,792), doubled for reversals.
    for (text, count) in [
        (queens(8), 92),
        (queens(12), 14_200),
        (langford(7), 52),
        (langford(8), 300),
        (langford(11), 35_584),
    ] {
        let mut nodes = None;
        for engine in [Engine::Links, Engine::Bits] {
            let problem = xc(&text, engine);
            assert_eq!(problem.engine(), engine);
            for (ranks, threads) in CONFIGS {
                let o = run(&problem, Mode::Count, ranks, threads).0;
                assert_eq!(o.solutions, count, "{engine:?} {ranks}x{threads}");
                // Both structures search the same tree, node for node.
                assert_eq!(*nodes.get_or_insert(o.nodes), o.nodes, "{engine:?}");
            }
            // The count's kernel below the cut-off visits the tree that a
            // listing walks by the moves alone.
            let listed = run(&problem, Mode::All, 1, 1).0;
            assert_eq!(
                (listed.solutions, Some(listed.nodes)),
                (count, nodes),
                "{engine:?}: the kernel against the walk"
            );
        }
    }
}

fn layout(pieces: &str, board: &str) -> Layout {
    let set = PieceSet::load(&crate::common::at_root(pieces)).unwrap();
    let figure = if board.chars().all(|c| c.is_ascii_digit() || c == 'x') {
        Figure::parse_box(board).unwrap()
    } else {
        Figure::load(&crate::common::at_root(board)).unwrap()
    };
    Layout::new(set, figure).unwrap()
}

#[test]
fn exported_packings_count_as_the_packing_solver() {
    // tests/data/packing/README.md.
    for (pieces, board, count) in [
        ("pentominoes", "12x5", 4040),
        ("pentominoes", "10x6", 9356),
        ("pentominoes", "20x3", 8),
        ("pentominoes", "8x8-hole", 520),
        ("soma", "3x3x3", 11_520),
    ] {
        let text = export_xc(&layout(pieces, board)).unwrap();
        let ours = xc(&text, Engine::Auto);
        let pack = Arc::new(Pack::<2>::new(layout(pieces, board), false).unwrap());
        assert_eq!(run(&pack, Mode::Count, 1, 2).0.solutions, count);
        // One rank, and three of two threads: the exports are what this
        // checks; exact cover's counts in every configuration are
        // `queens_and_langford_counts_in_every_configuration_on_both_structures`'s
        // (and over mpirun, `mpi::exact_cover_over_mpi_in_every_configuration`'s).
        for (ranks, threads) in [(1, 1), (3, 2)] {
            let o = run(&ours, Mode::Count, ranks, threads).0;
            assert_eq!(o.solutions, count, "{pieces} {board} {ranks}x{threads}");
        }
    }
    // IQ Fit, once: 371,020 tilings of the 11x5 board.
    let text = export_xc(&layout("puzzles/src/pack/sets/iqfit-11x5.pieces", "11x5")).unwrap();
    let o = run(&xc(&text, Engine::Auto), Mode::Count, 2, 1).0;
    assert_eq!(o.solutions, 371_020);
}

#[test]
fn export_refuses_repeated_pieces() {
    let l = layout("double-soma", "6x3x3");
    let e = export_xc(&l).unwrap_err().to_string();
    assert!(e.contains("is used 2 times"), "{e}");
}

/// The grid of a packing solution written as options (`L x.y ...`).
fn grid_of(solution: &str, w: usize, h: usize) -> String {
    let mut g = vec![vec!['.'; w]; h];
    for line in solution.lines() {
        let mut words = line.split(' ');
        let label = words.next().unwrap().chars().next().unwrap();
        for cell in words {
            let (x, y) = cell.split_once('.').unwrap();
            g[y.parse::<usize>().unwrap()][x.parse::<usize>().unwrap()] = label;
        }
    }
    g.iter()
        .map(|r| r.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_solution_is_verified_and_packings_agree_solution_for_solution() {
    for (text, count) in [(queens(8), 92), (langford(8), 300), (sudoku(&SUDOKU), 1)] {
        let problem = xc(&text, Engine::Auto);
        for (ranks, threads) in [(1, 1), (2, 2), (3, 2)] {
            let (o, out) = run(&problem, Mode::All, ranks, threads);
            let found = blocks(&out);
            assert_eq!(o.solutions, count);
            assert_eq!(found.len() as u64, count);
            assert_eq!(found.iter().collect::<HashSet<_>>().len() as u64, count);
            for s in &found {
                verify(&problem.instance, s).unwrap_or_else(|e| panic!("{e}:\n{s}"));
            }
        }
    }
    // The 4,040 tilings of 12x5 by pentominoes, as exact cover and as packing.
    let l = layout("pentominoes", "12x5");
    let problem = xc(&export_xc(&l).unwrap(), Engine::Auto);
    let (_, out) = run(&problem, Mode::All, 2, 2);
    let ours: HashSet<String> = blocks(&out)
        .iter()
        .inspect(|s| verify(&problem.instance, s).unwrap())
        .map(|s| grid_of(s, 12, 5))
        .collect();
    let pack = Arc::new(Pack::<1>::new(l, false).unwrap());
    let theirs: HashSet<String> = blocks(&run(&pack, Mode::All, 1, 2).1).into_iter().collect();
    assert_eq!(ours.len(), 4040);
    assert_eq!(ours, theirs);
}

/// A Sudoku with one solution (examples/xc/README.md says how it was made).
const SUDOKU: [&str; 9] = [
    ".......19",
    "...3..5..",
    "57...92.6",
    ".27......",
    "64.28....",
    "..1.6...7",
    "7..8.5..4",
    "1.....7.2",
    ".9.......",
];
const SOLVED: [&str; 9] = [
    "236758419",
    "419326578",
    "578149236",
    "827591643",
    "643287951",
    "951463827",
    "762815394",
    "185934762",
    "394672185",
];

#[test]
fn sudoku_is_proved_unique() {
    for engine in [Engine::Links, Engine::Bits] {
        let problem = xc(&sudoku(&SUDOKU), engine);
        for (ranks, threads) in CONFIGS {
            let (o, _) = run(&problem, Mode::Unique, ranks, threads);
            assert_eq!(o.solutions, 1, "{ranks}x{threads}");
            let mut grid = [[0u8; 9]; 9];
            for line in o.found[0].lines() {
                // p<r><c> r<r><v> ...
                let b = line.as_bytes();
                grid[(b[1] - b'0') as usize][(b[2] - b'0') as usize] = b[6];
            }
            let rows: Vec<String> = grid
                .iter()
                .map(|r| String::from_utf8_lossy(r).into())
                .collect();
            assert_eq!(rows, SOLVED);
        }
    }
}

/// Solutions of a small instance by trying every subset of its options,
/// each checked by the verifier.
fn brute_force(x: &Instance) -> u64 {
    let n = x.options.len();
    (0u32..1 << n)
        .filter(|&set| {
            let text: Vec<&str> = (0..n)
                .filter(|&k| set >> k & 1 == 1)
                .map(|k| x.options[k].text.as_str())
                .collect();
            verify(x, &text.join("\n")).is_ok()
        })
        .count() as u64
}

/// A random instance: 1 to 5 primary items, up to 3 secondary ones, up to
/// 12 options, secondary items coloured now and then.
fn instance() -> impl Strategy<Value = String> {
    (1usize..6, 0usize..4).prop_flat_map(|(p, s)| {
        let option = prop::collection::vec((0..p + s, 0u8..3), 1..5);
        prop::collection::vec(option, 1..13).prop_map(move |options| {
            let names: Vec<String> = (0..p + s).map(|i| format!("i{i}")).collect();
            let mut text = names[..p].join(" ");
            if s > 0 {
                text += " | ";
                text += &names[p..].join(" ");
            }
            text.push('\n');
            for o in options {
                let mut seen = HashSet::new();
                let words: Vec<String> = o
                    .into_iter()
                    .filter(|(i, _)| seen.insert(*i))
                    .map(|(i, c)| match c {
                        1 | 2 if i >= p => format!("{}:{}", names[i], ["x", "y"][c as usize - 1]),
                        _ => names[i].clone(),
                    })
                    .collect();
                text += &words.join(" ");
                text.push('\n');
            }
            text
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn colours_count_as_a_brute_force(text in instance()) {
        let x = Instance::parse("random", &text).unwrap();
        let want = brute_force(&x);
        for engine in [Engine::Links, Engine::Bits] {
            let problem = xc(&text, engine);
            for (ranks, threads) in [(1, 1), (2, 2)] {
                let (o, out) = run(&problem, Mode::All, ranks, threads);
                prop_assert_eq!(o.solutions, want, "{:?} {}x{}\n{}", engine, ranks, threads, text);
                for s in blocks(&out) {
                    prop_assert!(verify(&x, &s).is_ok());
                }
                let c = run(&problem, Mode::Count, ranks, threads).0;
                prop_assert_eq!(c.solutions, want);
            }
        }
    }
}

#[test]
fn shipped_examples_are_what_the_generators_write() {
    let read = |f: &str| std::fs::read_to_string(crate::common::root().join(f)).unwrap();
    assert_eq!(read("examples/xc/langford-12.xc"), langford(12));
    assert_eq!(read("examples/xc/queens-13.xc"), queens(13));
    assert_eq!(read("examples/xc/sudoku.xc"), sudoku(&SUDOKU));
    let pent = export_xc(&layout("pentominoes", "6x10")).unwrap();
    assert_eq!(read("examples/xc/pentominoes-6x10.xc"), pent);
    let soma = export_xc(&layout("soma", "3x3x3")).unwrap();
    assert_eq!(read("examples/xc/soma.xc"), soma);
}
