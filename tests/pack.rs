//! Packing through the engine, ranks as threads: the published counts of
//! the piece sets (tests/data/packing/README.md), plain and up to symmetry,
//! in every configuration; every solution written by `all` through the
//! independent verifier.

mod common;

use common::{CONFIGS, blocks, run_threads as run};
use hysolve::engine::Mode;
use hysolve::problems::pack::figure::Figure;
use hysolve::problems::pack::pieces::PieceSet;
use hysolve::problems::pack::verify::{parse_packing, verify};
use hysolve::problems::pack::{Layout, Pack};
use std::collections::HashSet;
use std::sync::Arc;

fn layout(pieces: &str, figure: &str) -> Layout {
    let set = PieceSet::load(pieces).unwrap();
    let fig = if figure.contains('x') && figure.chars().all(|c| c.is_ascii_digit() || c == 'x') {
        Figure::parse_box(figure).unwrap()
    } else {
        Figure::load(figure).unwrap()
    };
    Layout::new(set, fig).unwrap()
}

/// (pieces, figure, all, distinct): tests/data/packing/README.md.
const PUBLISHED: [(&str, &str, u64, u64); 6] = [
    ("pentominoes", "10x6", 9356, 2339),
    ("pentominoes", "12x5", 4040, 1010),
    ("pentominoes", "15x4", 1472, 368),
    ("pentominoes", "20x3", 8, 2),
    ("pentominoes", "8x8-hole", 520, 65),
    ("soma", "3x3x3", 11_520, 240),
];

/// The packings listed (the plain tree), the count (folded by symmetry
/// where a piece can be restricted) and the `--distinct` count of
/// `pieces` on `figure` in every configuration (the listing where
/// `plain_in` says, as it walks the whole plain tree).
fn counts_everywhere(
    pieces: &str,
    figure: &str,
    (all, distinct): (u64, u64),
    plain_in: impl Fn(usize, usize) -> bool,
) {
    let plain = Arc::new(Pack::<1>::new(layout(pieces, figure), false).unwrap());
    let sym = Arc::new(Pack::<1>::new(layout(pieces, figure), true).unwrap());
    for (ranks, threads) in CONFIGS {
        let what = format!("{pieces} on {figure} in {ranks}x{threads}");
        let count = |p: &Arc<Pack<1>>| run(p, Mode::Count, ranks, threads).0.solutions;
        if plain_in(ranks, threads) {
            let listed = run(&plain, Mode::All, ranks, threads).0.solutions;
            assert_eq!(listed, all, "{what}, listed");
        }
        assert_eq!(count(&plain), all, "{what}, counted");
        assert_eq!(count(&sym), distinct, "{what}, distinct");
    }
}

#[test]
fn published_counts_in_every_configuration() {
    for (pieces, figure, all, distinct) in PUBLISHED {
        counts_everywhere(pieces, figure, (all, distinct), |_, _| true);
    }
}

/// Every solution written is a legal packing, and there are as many
/// distinct ones as the count says.
fn check_all(
    pieces: &str,
    figure: &str,
    distinct: bool,
    expected: u64,
    configs: &[(usize, usize)],
) {
    let l = layout(pieces, figure);
    let (set, shown, labels) = (l.set.clone(), l.shown.clone(), l.labels.clone());
    let p = Arc::new(Pack::<1>::new(l, distinct).unwrap());
    for &(ranks, threads) in configs {
        let (o, sink) = run(&p, Mode::All, ranks, threads);
        let texts = blocks(&sink);
        assert_eq!(
            o.written, expected,
            "{pieces} on {figure} in {ranks}x{threads}"
        );
        assert_eq!(texts.len() as u64, expected);
        let unique: HashSet<&String> = texts.iter().collect();
        assert_eq!(unique.len() as u64, expected, "duplicates");
        for text in &texts {
            let cells = parse_packing(text, &shown).unwrap();
            verify(&set, &labels, &shown, &cells).unwrap_or_else(|e| panic!("{e}:\n{text}"));
        }
    }
}

/// The pentominoes as solid pieces in boxes (3D: the search branches on
/// the cell with the fewest placements), published distinct counts.
#[test]
fn solid_pentominoes_fill_boxes_in_every_configuration() {
    let pieces = "tests/data/packing/solid-pentominoes.pieces";
    counts_everywhere(pieces, "10x3x2", (96, 12), |_, _| true);
    counts_everywhere(pieces, "6x5x2", (2112, 264), |r, t| (r, t) == (2, 2));
    check_all(pieces, "10x3x2", true, 12, &[(1, 1), (3, 2)]);
}

#[test]
fn every_written_solution_is_a_legal_packing() {
    check_all("pentominoes", "10x6", false, 9356, &[(1, 2), (3, 2)]);
    check_all("pentominoes", "8x8-hole", true, 65, &[(2, 2)]);
    check_all("soma", "3x3x3", false, 11_520, &[(2, 1)]);
    check_all("soma", "3x3x3", true, 240, &[(1, 1), (2, 2)]);
}

#[test]
fn iq_fit_board_all_solutions_and_distinct() {
    // The shipped 11x5 set: 371,020 tilings, 92,755 up to the board's 4 symmetries.
    check_all("iqfit", "11x5", false, 371_020, &[(2, 1)]);
    let sym = Arc::new(Pack::<1>::new(layout("iqfit", "11x5"), true).unwrap());
    assert_eq!(run(&sym, Mode::Count, 1, 2).0.solutions, 92_755);
    // Every tiling counted, folded by symmetry: the same 371,020 as the
    // listing above.
    let plain = Arc::new(Pack::<1>::new(layout("iqfit", "11x5"), false).unwrap());
    assert_eq!(run(&plain, Mode::Count, 2, 1).0.solutions, 371_020);
}

#[test]
fn identical_pieces_count_once_and_big_boards_work() {
    // Two copies of one domino kind on a 2x2: the two tilings (both
    // horizontal, both vertical), not four.
    let set = PieceSet::parse("D 0,0 1,0\nD 0,0 1,0\n", "dominoes").unwrap();
    let p = Arc::new(
        Pack::<1>::new(
            Layout::new(set, Figure::parse_box("2x2").unwrap()).unwrap(),
            false,
        )
        .unwrap(),
    );
    assert_eq!(run(&p, Mode::Count, 1, 1).0.solutions, 2);
    // Double Soma (two of each piece) fills a 3x3x6 box; a 10x10 board of
    // dominoes (100 cells, two words) has the published 258,584,046,368
    // tilings, too many here, so a 2x12 strip: Fibonacci(13) = 233.
    let strip = PieceSet::parse(&"D 0,0 1,0\n".repeat(12), "dominoes").unwrap();
    let l = Layout::new(strip, Figure::parse_box("12x2").unwrap()).unwrap();
    assert_eq!(l.words(), 1);
    let p = Arc::new(Pack::<1>::new(l, false).unwrap());
    assert_eq!(run(&p, Mode::Count, 2, 2).0.solutions, 233);
    let strip = PieceSet::parse(&"D 0,0 1,0\n".repeat(36), "dominoes").unwrap();
    let l = Layout::new(strip, Figure::parse_box("36x2").unwrap()).unwrap();
    assert_eq!(l.words(), 2);
    let p = Arc::new(Pack::<2>::new(l, false).unwrap());
    // Fibonacci(37) = 24,157,817 tilings of a 2x36 strip.
    assert_eq!(run(&p, Mode::Count, 2, 2).0.solutions, 24_157_817);
}

#[test]
fn mismatched_figures_are_errors_or_clean_zeros() {
    let set = PieceSet::load("pentominoes").unwrap();
    let err = Layout::new(set.clone(), Figure::parse_box("8x8").unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("64 cells but the pieces of pentominoes cover 60"),
        "{err}"
    );
    let err = Layout::new(set.clone(), Figure::parse_box("3x4x5").unwrap())
        .unwrap_err()
        .to_string();
    assert!(err.contains("flat"), "{err}");
    // 60 cells in two parts of 31 and 29: no pentomino tiling, known at the root.
    let split = Figure::parse(
        "###########.#########.\n##########..##########\n##########..##########\n",
        "split",
    )
    .unwrap();
    assert_eq!(split.cells(), 60);
    let p = Arc::new(Pack::<2>::new(Layout::new(set, split).unwrap(), false).unwrap());
    let (o, _) = run(&p, Mode::Count, 1, 2);
    assert_eq!(o.solutions, 0);
    assert!(o.nodes <= 1, "the root should be dead: {} nodes", o.nodes);
}

#[test]
fn labels_stay_distinct_up_to_the_most_kinds() {
    // Sets of 26 to 32 kinds whose names all start with 'p': the labels
    // must still tell every kind apart, in the file and to the verifier.
    for kinds in 26..=32 {
        let text: String = (1..=kinds).map(|i| format!("p{i} 0,0\n")).collect();
        let set = PieceSet::parse(&text, "monominoes").unwrap();
        let l = Layout::new(set, Figure::parse_box(&format!("{kinds}x1")).unwrap()).unwrap();
        let labels: HashSet<char> = l.labels.iter().copied().collect();
        assert_eq!(labels.len(), kinds, "{:?}", l.labels);
        let (set, shown, labels) = (l.set.clone(), l.shown.clone(), l.labels.clone());
        let p = Arc::new(Pack::<1>::new(l, false).unwrap());
        let (o, _) = run(&p, Mode::First, 1, 1);
        assert_eq!(o.solutions, 1);
        let text = &o.found[0];
        let cells = parse_packing(text, &shown).unwrap();
        verify(&set, &labels, &shown, &cells)
            .unwrap_or_else(|e| panic!("{kinds} kinds: {e}:\n{text}"));
    }
}
