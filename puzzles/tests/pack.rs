//! Packing through the engine, ranks as threads: the published counts of
//! the piece sets (tests/data/packing/README.md), plain and up to symmetry,
//! in every configuration; every solution written by `all` through the
//! independent verifier.

use crate::common;

use common::{CONFIGS, blocks, run_threads as run};
use hysolve::Mode;
use hysolve::advanced::sequential;
use hysolve_puzzles::pack::figure::Figure;
use hysolve_puzzles::pack::pieces::PieceSet;
use hysolve_puzzles::pack::verify::{parse_packing, verify};
use hysolve_puzzles::pack::{Layout, Pack, WithPack};
use proptest::prelude::*;
use std::collections::HashSet;
use std::sync::Arc;

fn layout(pieces: &str, figure: &str) -> Layout {
    let set = PieceSet::load(&crate::common::at_root(pieces)).unwrap();
    let fig = if figure.contains('x') && figure.chars().all(|c| c.is_ascii_digit() || c == 'x') {
        Figure::parse_box(figure).unwrap()
    } else {
        Figure::load(&crate::common::at_root(figure)).unwrap()
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
    // Counted in every configuration, listed in 1x1 and in 3x2 (three
    // ranks of two threads, oversubscribed): a listing walks the plain
    // tree, 15 times the count's CPU on 10x6 (1.9 s against 0.13).
    // `every_written_solution_is_a_legal_packing` lists 10x6 in 1x2 too.
    for (pieces, figure, all, distinct) in PUBLISHED {
        counts_everywhere(pieces, figure, (all, distinct), |r, t| {
            [(1, 1), (3, 2)].contains(&(r, t))
        });
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
    // Counted and counted up to symmetry everywhere, not listed: listing
    // walks its plain tree, unfolded, 25 s of CPU against 0.4 s for the
    // count; 10x3x2 above is listed in every configuration.
    counts_everywhere(pieces, "6x5x2", (2112, 264), |_, _| false);
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

/// A figure's text as [`Figure::parse`] reads it, written with margins of
/// holes (`lo` before and `hi` after the cells along x, y and z), some
/// trailing holes of rows and trailing hole rows of layers left out
/// (`trim`: one choice a row, as many as it takes), and comment lines.
fn with_margins(f: &Figure, lo: [usize; 3], hi: [usize; 3], trim: &[u8]) -> String {
    let (w, h, d) = (
        lo[0] + f.w + hi[0],
        lo[1] + f.h + hi[1],
        lo[2] + f.d + hi[2],
    );
    let cell = |x: usize, y: usize, z: usize| {
        let inside = (lo[0]..lo[0] + f.w).contains(&x)
            && (lo[1]..lo[1] + f.h).contains(&y)
            && (lo[2]..lo[2] + f.d).contains(&z);
        inside && f.filled[(x - lo[0]) + f.w * ((y - lo[1]) + f.h * (z - lo[2]))]
    };
    let mut choices = trim.iter().cycle();
    let mut text = String::from("% written with margins\n");
    for z in 0..d {
        let mut rows: Vec<String> = (0..h)
            .map(|y| {
                let mut row: String = (0..w)
                    .map(|x| if cell(x, y, z) { '#' } else { '.' })
                    .collect();
                // Leave out some of the row's trailing holes, keeping one
                // character (an empty line would end the layer).
                let holes = row.len() - row.trim_end_matches('.').len();
                let cut = (*choices.next().unwrap() as usize % (holes + 1)).min(row.len() - 1);
                row.truncate(row.len() - cut);
                row
            })
            .collect();
        // Leave out some trailing rows of holes, keeping one row.
        while rows.len() > 1
            && !rows.last().unwrap().contains('#')
            && choices.next().unwrap().is_multiple_of(2)
        {
            rows.pop();
        }
        if z > 0 {
            text.push('\n');
        }
        for row in rows {
            text.push_str(&row);
            text.push('\n');
            if choices.next().unwrap().is_multiple_of(7) {
                text.push_str("% a comment line\n");
            }
        }
    }
    text
}

/// A search's count (when `.0`) and its number of symmetries.
struct Counted(bool);

impl WithPack for Counted {
    type Output = (u64, usize);
    fn with<const W: usize>(self, p: Pack<W>) -> (u64, usize) {
        let n = if self.0 {
            sequential(&p, Mode::Count).0.solutions
        } else {
            0
        };
        (n, p.symmetries())
    }
}

/// `pieces` on `figure`: every packing and the packings up to symmetry
/// (counted when `count`), the number of symmetries, and the layout.
fn counted(pieces: &str, figure: Figure, count: bool) -> (u64, u64, usize, Layout) {
    let l = Layout::new(
        PieceSet::load(&crate::common::at_root(pieces)).unwrap(),
        figure,
    )
    .unwrap();
    let (all, _) = l.clone().search(false, Counted(count)).unwrap();
    let (distinct, symmetries) = l.clone().search(true, Counted(count)).unwrap();
    (all, distinct, symmetries, l)
}

/// The shipped figures and boards cheap enough to count in every case:
/// (pieces, figure).
const CHEAP: [(&str, &str); 7] = [
    ("soma", "3x3x3"),
    ("soma", "examples/packing/steps.fig"),
    ("pentominoes", "20x3"),
    ("pentominoes", "8x8-hole"),
    ("examples/packing/tetrominoes.pieces", "8x5"),
    (
        "examples/packing/tetrominoes.pieces",
        "examples/packing/ring.fig",
    ),
    ("tests/data/packing/solid-pentominoes.pieces", "10x3x2"),
];

/// Those too long to count in a property test: their symmetries and the
/// search's instance (figure and placements, which decide every count)
/// are compared instead; 10x6 is counted, up to symmetry only.
const DEAR: [(&str, &str); 5] = [
    ("pentominoes", "10x6"),
    ("pentominoes", "12x5"),
    ("iqfit", "11x5"),
    ("bedlam", "4x4x4"),
    ("double-soma", "6x3x3"),
];

fn figure_of(spec: &str) -> Figure {
    Figure::parse_box(spec)
        .or_else(|_| Figure::load(&crate::common::at_root(spec)).map_err(|e| e.to_string()))
        .unwrap()
}

/// Margins before and after the cells on each axis, and the choices that
/// trim rows and layers and place comment lines.
fn margins() -> impl Strategy<Value = ([usize; 3], [usize; 3], Vec<u8>)> {
    (
        [0..3usize, 0..3usize, 0..3usize],
        [0..3usize, 0..3usize, 0..3usize],
        proptest::collection::vec(any::<u8>(), 1..16),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 28, ..ProptestConfig::default() })]

    /// Every count of a shipped figure or board, written with margins of
    /// holes on every side and rows and layers padded unevenly, is the
    /// count of the figure written tight (issue 50).
    #[test]
    fn margins_change_no_count(which in 0..CHEAP.len(), (lo, hi, trim) in margins()) {
        let (pieces, spec) = CHEAP[which];
        let tight = figure_of(spec);
        let text = with_margins(&tight, lo, hi, &trim);
        let written = Figure::parse(&text, "margins.fig").unwrap();
        prop_assert_eq!(written.cells(), tight.cells());
        let (all, distinct, symmetries, _) = counted(pieces, tight, true);
        let (m_all, m_distinct, m_symmetries, _) = counted(pieces, written, true);
        prop_assert_eq!((m_all, m_distinct, m_symmetries), (all, distinct, symmetries), "{}", text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    #[test]
    fn margins_change_no_search(which in 0..DEAR.len(), (lo, hi, trim) in margins()) {
        let (pieces, spec) = DEAR[which];
        let tight = figure_of(spec);
        let text = with_margins(&tight, lo, hi, &trim);
        let written = Figure::parse(&text, "margins.fig").unwrap();
        let (_, _, symmetries, l) = counted(pieces, tight, false);
        let (_, _, m_symmetries, m) = counted(pieces, written, false);
        prop_assert_eq!(m_symmetries, symmetries);
        prop_assert_eq!(&m.figure.filled, &l.figure.filled);
        prop_assert_eq!(&m.placements, &l.placements);
        if spec == "10x6" {
            let sym = |l: Layout| l.search(true, Counted(true)).unwrap().0;
            prop_assert_eq!(sym(m), 2339);
        }
    }
}

/// The figures of issue 50: the Soma cube with one column of holes and
/// with holes on every side, the pentomino 8x8-with-hole and the Bedlam
/// cube with margins: the counts and symmetries of the tight figures.
#[test]
fn figures_with_margins_count_as_written_tight() {
    // Three layers of three rows; `around`: a row of holes above each
    // layer and a layer of holes before and after.
    let cube = |row: &str, around: bool| {
        let top = if around { "......\n" } else { "" };
        let mut layers = vec![format!("{top}{row}\n{row}\n{row}\n"); 3];
        if around {
            layers.insert(0, ".\n".to_owned());
            layers.push("..\n".to_owned());
        }
        Figure::parse(&layers.join("\n"), "cube.fig").unwrap()
    };
    let column = cube(".###", false);
    assert_eq!((column.w, column.h, column.d), (4, 3, 3));
    let (all, distinct, symmetries, _) = counted("soma", column, true);
    assert_eq!((all, distinct, symmetries), (11_520, 240, 48));
    let around = cube("..###.", true);
    assert_eq!((around.w, around.h, around.d), (6, 4, 5));
    let (all, distinct, symmetries, _) = counted("soma", around, true);
    assert_eq!((all, distinct, symmetries), (11_520, 240, 48));
    let hole = Figure::load("8x8-hole").unwrap();
    let framed = with_margins(&hole, [1, 2, 0], [3, 0, 1], &[1, 2, 3]);
    let (all, distinct, symmetries, _) =
        counted("pentominoes", Figure::parse(&framed, "f").unwrap(), true);
    assert_eq!((all, distinct, symmetries), (520, 65, 8));
    // Bedlam: 19,186 up to the 24 rotations (its pieces are chiral), too
    // long to count here; the search is the tight cube's.
    let bedlam = Figure::parse_box("4x4x4").unwrap();
    let framed = with_margins(&bedlam, [1, 0, 2], [0, 1, 1], &[5, 0, 2]);
    let (_, _, symmetries, l) = counted("bedlam", Figure::parse(&framed, "f").unwrap(), false);
    let (_, _, _, tight) = counted("bedlam", bedlam, false);
    assert_eq!(symmetries, 24);
    assert_eq!(
        (l.figure.filled, l.placements),
        (tight.figure.filled, tight.placements)
    );
}

/// With margins, `--distinct` lists one packing of each class, drawn on
/// the figure as written (margins included), every one legal.
#[test]
fn distinct_listing_is_drawn_on_the_figure_as_written() {
    let text = "% the cube, one column of holes on the left\n.###\n.###\n.###\n\n.###\n.###\n.###\n\n.###\n.###\n.###\n";
    let l = Layout::new(
        PieceSet::load("soma").unwrap(),
        Figure::parse(text, "cube.fig").unwrap(),
    )
    .unwrap();
    let (set, shown, labels) = (l.set.clone(), l.shown.clone(), l.labels.clone());
    let p = Arc::new(Pack::<1>::new(l, true).unwrap());
    let (o, sink) = run(&p, Mode::All, 2, 1);
    let texts = blocks(&sink);
    assert_eq!((o.written, texts.len()), (240, 240));
    for text in &texts {
        assert!(text.lines().all(|r| {
            r.split(' ')
                .all(|layer| layer.starts_with('.') && layer.len() == 4)
        }));
        let cells = parse_packing(text, &shown).unwrap();
        verify(&set, &labels, &shown, &cells).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    }
}

/// SOMA+Plus (BCSolve's fourth set): its pieces pack the one solution
/// published with the set, figure 001 "The 2,4,5 Base" of T. Bundgaard's
/// SOMA News of 14 Aug 2000, in that page's notation (one line per row,
/// back to front, the two levels side by side, top first), as our
/// independent verifier checks it; with its mirror pieces A and B
/// swapped it is not a packing.
#[test]
fn soma_plus_packs_its_published_figure() {
    let l = layout("soma-plus", "5x4x2");
    let published = "BSSTP BZZPP\nDSSTT BBZZP\nDVVTL AALLL\nAVIII AQQQQ\n";
    let check = |text: &str| {
        let cells = parse_packing(text, &l.shown).unwrap();
        verify(&l.set, &l.labels, &l.shown, &cells)
    };
    check(published).unwrap();
    let mirrored: String = published
        .chars()
        .map(|c| match c {
            'A' => 'B',
            'B' => 'A',
            c => c,
        })
        .collect();
    assert!(check(&mirrored).is_err());
}

/// The eight tetracubes of SOMA+Plus in a 2x4x4 box: 1,390 packings up to
/// the box's 8 rotations (M. Beeler, HAKMEM, 1972, as MathWorld's
/// "Polycube" cites it; tests/data/packing/README.md): 11,120 in all, 695
/// up to its 16 rotations and reflections, none of them symmetric.
#[test]
fn the_tetracubes_of_soma_plus_fill_a_box_as_published() {
    let pieces = "tests/data/packing/tetracubes.pieces";
    counts_everywhere(pieces, "4x4x2", (11_120, 695), |r, t| (r, t) == (2, 2));
}

/// SOMA+Plus in a 10x2x2 box: 3,897,024 packings, as the C counter
/// tools/c/pack3.c (no code shared) counts them; 243,564 up to the box's
/// 16 symmetries. Not a published count (tests/data/packing/README.md).
#[test]
fn soma_plus_fills_a_long_box_as_the_c_counter_counts() {
    let plain = Arc::new(Pack::<1>::new(layout("soma-plus", "10x2x2"), false).unwrap());
    let sym = Arc::new(Pack::<1>::new(layout("soma-plus", "10x2x2"), true).unwrap());
    assert_eq!(run(&plain, Mode::Count, 1, 2).0.solutions, 3_897_024);
    assert_eq!(run(&sym, Mode::Count, 2, 1).0.solutions, 243_564);
}
