//! Hitori through the engine, ranks as threads: the seed's grids against
//! their published counts and solutions, random small grids against brute
//! force, every solution through the independent verifier.

use crate::common;

use common::{CONFIGS, blocks, run_threads as run};
use hysolve::Mode;
use hysolve::advanced::sequential;
use hysolve_puzzles::hitori::Hitori;
use hysolve_puzzles::hitori::grid::Grid;
use hysolve_puzzles::hitori::verify::{parse_solution, verify};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use std::path::PathBuf;
use std::sync::Arc;

fn data() -> PathBuf {
    crate::common::root().join("examples/hitori/seed")
}

/// (name, count) from counts.tsv.
fn published_counts() -> Vec<(String, u64)> {
    let text = std::fs::read_to_string(data().join("counts.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let (name, count) = l.split_once(char::is_whitespace).unwrap();
            (name.to_owned(), count.trim().parse().unwrap())
        })
        .collect()
}

fn check_all_verified(grid: &Grid, texts: &[String]) {
    for text in texts {
        let shaded = parse_solution(text, grid.rows, grid.cols).unwrap();
        verify(grid, &shaded).unwrap_or_else(|e| panic!("invalid solution ({e}):\n{text}"));
    }
}

#[test]
fn seed_grids_match_published_counts_and_solutions() {
    let counts = published_counts();
    assert_eq!(counts.len(), 18);
    for (name, count) in counts {
        let h = Arc::new(Hitori::from_file(&data().join(format!("{name}.txt"))).unwrap());
        let published = std::fs::read_to_string(data().join(format!("{name}.solution"))).ok();
        assert_eq!(
            published.is_some(),
            count == 1,
            "{name}: a .solution file iff unique"
        );
        for (ranks, threads) in CONFIGS {
            let what = format!("{name} in {ranks}x{threads}");
            let (o, _) = run(&h, Mode::Count, ranks, threads);
            assert_eq!(o.solutions, count, "count of {what}");

            let (o, sink) = run(&h, Mode::All, ranks, threads);
            let mut all = blocks(&sink);
            assert_eq!(all.len() as u64, count, "all of {what}");
            check_all_verified(h.grid(), &all);
            all.sort();
            all.dedup();
            assert_eq!(all.len() as u64, count, "distinct solutions of {what}");
            assert_eq!(o.written, count);

            let (o, _) = run(&h, Mode::Unique, ranks, threads);
            check_all_verified(h.grid(), &o.found);
            assert_eq!(o.found.len() as u64, count.min(2), "unique of {what}");
            if let Some(solution) = &published {
                assert_eq!(
                    o.found[0].trim(),
                    solution.trim(),
                    "{what} against {name}.solution"
                );
            }

            let (o, _) = run(&h, Mode::First, ranks, threads);
            assert_eq!(o.found.len(), 1, "first of {what}");
            check_all_verified(h.grid(), &o.found);
        }
    }
}

/// Every valid shading by brute force: shadings without touching shaded
/// cells, row by row, each checked by the verifier. A finished row whose
/// unshaded cells repeat a number is cut there: the verifier would reject
/// every shading that holds it (the cut makes the 6x6 grids affordable).
fn brute_force(grid: &Grid) -> u64 {
    fn go(grid: &Grid, i: usize, shaded: &mut Vec<bool>, count: &mut u64) {
        if i > 0 && i.is_multiple_of(grid.cols) {
            let row = i - grid.cols..i;
            let mut unshaded: Vec<u32> = row
                .filter(|&j| !shaded[j])
                .map(|j| grid.values[j])
                .collect();
            let n = unshaded.len();
            unshaded.sort_unstable();
            unshaded.dedup();
            if unshaded.len() < n {
                return;
            }
        }
        if i == grid.len() {
            *count += verify(grid, shaded).is_ok() as u64;
            return;
        }
        shaded.push(false);
        go(grid, i + 1, shaded, count);
        shaded.pop();
        let (r, c) = (i / grid.cols, i % grid.cols);
        let left = c > 0 && shaded[i - 1];
        let up = r > 0 && shaded[i - grid.cols];
        if !left && !up {
            shaded.push(true);
            go(grid, i + 1, shaded, count);
            shaded.pop();
        }
    }
    let mut count = 0;
    go(grid, 0, &mut Vec::with_capacity(grid.len()), &mut count);
    count
}

/// Small grids with few distinct numbers (many constraints), and nearly
/// distinct ones with a few equal groups (many solutions).
fn small_grid() -> impl Strategy<Value = Grid> {
    (1usize..=6, 1usize..=6, 2u32..=9, any::<u64>()).prop_map(|(rows, cols, k, salt)| {
        let n = rows * cols;
        let mut state = salt | 1;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let values = if k <= 6 {
            (0..n).map(|_| 1 + (next() % k as u64) as u32).collect()
        } else {
            // Distinct numbers, then a few cells copy a line-mate's number.
            let mut v: Vec<u32> = (1..=n as u32).collect();
            for _ in 0..(k as usize * n / 9) {
                let i = (next() % n as u64) as usize;
                let j = if next() % 2 == 0 {
                    (i / cols) * cols + (next() % cols as u64) as usize
                } else {
                    (next() % rows as u64) as usize * cols + i % cols
                };
                v[i] = v[j];
            }
            v
        };
        Grid::new(rows, cols, values)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn count_equals_brute_force(grid in small_grid()) {
        let expected = brute_force(&grid);
        let h = Arc::new(Hitori::new(grid.clone(), "random"));
        let (counters, found) = sequential(&*h, Mode::All);
        prop_assert_eq!(counters.solutions, expected);
        check_all_verified(&grid, &found);
        // Ranks and threads only on grids that branch, to keep the suite short.
        if expected > 1 {
            for (ranks, threads) in CONFIGS {
                let (o, _) = run(&h, Mode::Count, ranks, threads);
                prop_assert_eq!(o.solutions, expected, "{}x{}", ranks, threads);
            }
        }
    }
}

#[test]
fn random_grids_are_not_all_trivial() {
    // The property above means little if every random grid had 0 or 1 solution.
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = small_grid();
    let (mut zero, mut one, mut more) = (0, 0, 0);
    for _ in 0..300 {
        let grid = strategy.new_tree(&mut runner).unwrap().current();
        match brute_force(&grid) {
            0 => zero += 1,
            1 => one += 1,
            _ => more += 1,
        }
    }
    assert!(
        zero > 20 && one > 20 && more > 20,
        "{zero} / {one} / {more}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    /// The rules are sound: a grid they decide has exactly the solution
    /// they decided (brute force), one they refute has none.
    #[test]
    fn grading_is_sound(grid in small_grid()) {
        use hysolve_puzzles::hitori::grade::{Grade, grade};
        let r = grade(&grid);
        let count = brute_force(&grid);
        match r.grade {
            Grade::Solved(_) => {
                prop_assert_eq!(count, 1);
                let shaded = r.solution.clone().unwrap();
                prop_assert!(verify(&grid, &shaded).is_ok());
                prop_assert_eq!(r.deductions(), grid.len());
            }
            Grade::NoSolution => prop_assert_eq!(count, 0),
            Grade::NeedsSearch => prop_assert!(r.undecided > 0),
        }
    }
}

#[test]
fn the_readme_examples_have_their_grades() {
    use hysolve_puzzles::hitori::grade::{Difficulty, Grade, grade, grade_up_to};
    let read = |name: &str| {
        Grid::parse(&std::fs::read_to_string(data().join(name)).unwrap(), name).unwrap()
    };
    // easy: the seed's 5x5.
    let easy = grade(&read("input-5x5.txt"));
    assert_eq!(
        (easy.grade, easy.lookahead, easy.deductions()),
        (Grade::Solved(Difficulty::Easy), 0, 25)
    );
    // hard: the seed's 8x8, one cell by look-ahead (row 1, column 1, shaded).
    let g = read("input-8x8.txt");
    let hard = grade(&g);
    assert_eq!(hard.grade, Grade::Solved(Difficulty::Hard));
    assert_eq!(hard.lookahead_cells, [(0, true)]);
    let stuck = grade_up_to(&g, Difficulty::Easy);
    assert_eq!(stuck.grade, Grade::NeedsSearch, "the easy rules alone stop");
    // needs search: a timing grid with two solutions.
    assert_eq!(grade(&read("test-20x20.txt")).grade, Grade::NeedsSearch);
}

#[test]
fn generated_puzzles_are_unique_and_have_their_difficulty() {
    use hysolve_puzzles::hitori::generate::generate_graded;
    use hysolve_puzzles::hitori::grade::{Difficulty, Grade, grade, grade_up_to};
    for difficulty in [Difficulty::Easy, Difficulty::Hard] {
        for seed in 1..=3 {
            let g = generate_graded(20, 20, seed, difficulty).unwrap();
            verify(&g.grid, &g.solution).unwrap();
            let h = Hitori::new(g.grid.clone(), "generated");
            let (counters, _) = sequential(&h, Mode::Count);
            assert_eq!(counters.solutions, 1, "{difficulty:?} seed {seed}");
            let r = grade(&g.grid);
            assert_eq!(
                r.grade,
                Grade::Solved(difficulty),
                "{difficulty:?} seed {seed}"
            );
            if difficulty == Difficulty::Hard {
                assert_eq!(
                    grade_up_to(&g.grid, Difficulty::Easy).grade,
                    Grade::NeedsSearch
                );
            }
            // Same seed, same puzzle.
            assert_eq!(
                generate_graded(20, 20, seed, difficulty).unwrap().grid,
                g.grid
            );
        }
    }
    // Rectangles too.
    let g = generate_graded(7, 31, 4, Difficulty::Hard).unwrap();
    assert_eq!(grade(&g.grid).grade, Grade::Solved(Difficulty::Hard));
}
