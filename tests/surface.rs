//! The library's surface stays small: the names a program that searches
//! needs at the root, what the command line, the puzzles and the tools
//! need beyond them in `advanced`, everything else `pub(crate)` or
//! narrower (`src/lib.rs`).
//!
//! Counted: the lines of `src/**/*.rs` that start, after their indent,
//! with `pub ` (an item, a field, a re-export or a module open to every
//! crate), not `pub(crate)`, `pub(super)` or `pub(in ..)`; doc comments
//! and test modules included (a `pub` line in a test module is written
//! `pub(super)` or narrower anyway). Twice: the whole library, and the
//! library as a user builds it, without the `sim` feature's files (the
//! simulator, `src/cluster/sim/`, and `master_bench.rs`, for the tools).
//!
//! And the traits a counting problem implements, `Problem` and `Tree`,
//! show no optimisation item in their docs: those are `Optimise`'s.

use std::path::{Path, PathBuf};

/// The most unrestricted `pub` lines the library may have (issue 77: at
/// most 250): 778 before the puzzles left it and the surface was
/// narrowed, 298 before the reports (the simulator's, the master's, a
/// checkpoint's, the round trips') kept their fields to the crate and
/// gave their text (`Display`) and JSON instead; lowered as it narrows.
const MAX_PUB_LINES: usize = 231;

/// The most without the `sim` feature's files.
const MAX_DEFAULT_PUB_LINES: usize = 195;

/// The files only the `sim` feature builds.
fn sim_only(file: &Path) -> bool {
    let file = file.to_string_lossy();
    file.contains("src/cluster/sim/") || file.ends_with("src/cluster/master/master_bench.rs")
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The unrestricted `pub` lines of `text`.
fn pub_lines(text: &str) -> usize {
    text.lines()
        .filter(|line| line.trim_start().starts_with("pub "))
        .count()
}

/// The unrestricted `pub` lines of the library's sources, with or without
/// the `sim` feature's files: their total, and the files with most.
fn count(with_sim: bool) -> (usize, Vec<String>) {
    let mut list = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut list,
    );
    assert!(list.len() > 50, "only {} files read", list.len());
    let mut by_file: Vec<(usize, String)> = list
        .iter()
        .filter(|f| with_sim || !sim_only(f))
        .map(|f| {
            let n = pub_lines(&std::fs::read_to_string(f).unwrap());
            (n, f.display().to_string())
        })
        .filter(|(n, _)| *n > 0)
        .collect();
    let total: usize = by_file.iter().map(|(n, _)| n).sum();
    by_file.sort_by(|a, b| b.cmp(a));
    let top: Vec<String> = by_file
        .iter()
        .take(10)
        .map(|(n, f)| format!("{n:4} {f}"))
        .collect();
    (total, top)
}

#[test]
fn the_library_has_few_unrestricted_pub_lines() {
    let (total, top) = count(true);
    assert!(
        total <= MAX_PUB_LINES,
        "{total} unrestricted pub lines in src/, more than {MAX_PUB_LINES}; the most:\n{}",
        top.join("\n")
    );
    let (default, top) = count(false);
    assert!(
        default <= MAX_DEFAULT_PUB_LINES,
        "{default} unrestricted pub lines in src/ without the sim feature's files, more than \
         {MAX_DEFAULT_PUB_LINES}; the most:\n{}",
        top.join("\n")
    );
    assert!(sim_only(Path::new("src/cluster/sim/mod.rs")) && default < total);
}

#[test]
fn restricted_visibility_is_not_counted() {
    let text = "pub fn a() {}\n    pub struct B;\npub(crate) fn c() {}\n  pub(super) x: u8,\n/// pub d\npub use e::f;\n";
    assert_eq!(pub_lines(text), 3);
}

/// Optimisation's items (an objective, a bound, the listing told a floor,
/// a heuristic) are `Optimise`'s and `OptimiseTree`'s: the items of the
/// trait `name` in `text` that the docs show (those without
/// `#[doc(hidden)]` among their attributes) that name one of them.
fn shown_optimisation_items(text: &str, name: &str) -> Vec<String> {
    let open = format!("pub trait {name}:");
    let start = text
        .find(&open)
        .unwrap_or_else(|| panic!("no trait {name}"));
    // The trait's body ends at the first line that closes it at column 0.
    let body = &text[start..];
    let body = &body[..body.find("\n}\n").expect("the trait's end")];
    // Whether the item whose attributes are being read is hidden.
    let mut hidden = false;
    let mut shown = Vec::new();
    for line in body.lines().skip(1) {
        let line = line.trim_start();
        if line.starts_with("#[doc(hidden)]") {
            hidden = true;
        } else if let Some(item) = ["fn ", "const ", "type "]
            .iter()
            .find_map(|k| line.strip_prefix(k))
        {
            let ident: String = item
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let lower = ident.to_lowercase();
            let optimising = ["objective", "bound", "heuristic", "moves_above", "optimis"]
                .iter()
                .any(|word| lower.contains(word));
            if optimising && !hidden {
                shown.push(ident);
            }
            hidden = false;
        }
    }
    shown
}

#[test]
fn counting_traits_show_no_optimisation_items() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/engine/problem.rs"),
    )
    .unwrap();
    for name in ["Problem", "Tree"] {
        assert_eq!(
            shown_optimisation_items(&text, name),
            Vec::<String>::new(),
            "{name} shows optimisation's items: they belong to Optimise (src/engine/optimise.rs)"
        );
    }
}

#[test]
fn a_shown_optimisation_item_is_caught() {
    let text = "pub trait Problem: Send {\n    /// Docs.\n    #[doc(hidden)]\n    #[inline]\n    fn optimise_bound(&self) -> u64 {\n        0\n    }\n    /// A bound.\n    fn bound(&self) -> u64;\n    const BOUNDS_FALL: bool = false;\n    fn root(&self);\n}\n";
    assert_eq!(
        shown_optimisation_items(text, "Problem"),
        ["bound", "BOUNDS_FALL"]
    );
}
