//! Every clique number of `examples/clique/README.md`, and hysolve's
//! answers on random graphs, by a reader of the DIMACS format and a
//! maximum-clique search of this file's own: no code shared with
//! `hysolve_puzzles::clique` (neither its reader, its bitsets nor its
//! colouring bound).
//!
//! The search is Carraghan and Pardalos's: vertices in file order, a
//! clique grows by a candidate and keeps the later candidates adjacent to
//! it, and a branch is cut when the clique plus every candidate left
//! cannot beat the best. Cliques are checked pair by pair on the file's
//! edge list.

use super::common;
use hysolve::Mode;
use hysolve::RunConfig;
use hysolve::advanced::{Optimising, run_threaded};
use std::collections::HashSet;
use std::sync::Arc;

/// A graph as the file states it: its vertex count and its edges as a
/// matrix of pairs, vertices counted from 1.
struct Edges {
    n: usize,
    matrix: Vec<bool>,
}

impl Edges {
    fn adjacent(&self, u: usize, v: usize) -> bool {
        self.matrix[u * (self.n + 1) + v]
    }

    /// Whether `vertices` (from 1) are distinct and pairwise adjacent.
    fn is_clique(&self, vertices: &[usize]) -> bool {
        vertices.iter().all(|&v| (1..=self.n).contains(&v))
            && vertices
                .iter()
                .enumerate()
                .all(|(i, &u)| vertices[i + 1..].iter().all(|&v| self.adjacent(u, v)))
    }
}

fn read(text: &str) -> Edges {
    let mut g = Edges {
        n: 0,
        matrix: Vec::new(),
    };
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.first() {
            Some(&"p") => {
                g.n = w[2].parse().unwrap();
                g.matrix = vec![false; (g.n + 1) * (g.n + 1)];
            }
            Some(&"e") => {
                let (u, v): (usize, usize) = (w[1].parse().unwrap(), w[2].parse().unwrap());
                g.matrix[u * (g.n + 1) + v] = true;
                g.matrix[v * (g.n + 1) + u] = true;
            }
            _ => {}
        }
    }
    g
}

/// The clique number, by Carraghan and Pardalos.
fn clique_number(g: &Edges) -> usize {
    fn grow(g: &Edges, size: usize, candidates: &[usize], best: &mut usize) {
        if size > *best {
            *best = size;
        }
        for (i, &v) in candidates.iter().enumerate() {
            if size + candidates.len() - i <= *best {
                return;
            }
            let next: Vec<usize> = candidates[i + 1..]
                .iter()
                .copied()
                .filter(|&u| g.adjacent(u, v))
                .collect();
            grow(g, size + 1, &next, best);
        }
    }
    let all: Vec<usize> = (1..=g.n).collect();
    let mut best = 0;
    grow(g, 0, &all, &mut best);
    best
}

/// Every nonempty clique, counted one by one.
fn cliques(g: &Edges) -> u64 {
    fn grow(g: &Edges, candidates: &[usize]) -> u64 {
        candidates
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let next: Vec<usize> = candidates[i + 1..]
                    .iter()
                    .copied()
                    .filter(|&u| g.adjacent(u, v))
                    .collect();
                1 + grow(g, &next)
            })
            .sum()
    }
    grow(g, &(1..=g.n).collect::<Vec<_>>())
}

/// hysolve's answer on a DIMACS text: the objective and its clique, in
/// `ranks` ranks (threads) of `threads` workers.
fn hysolve_optimum(text: &str, ranks: usize, threads: usize) -> (u64, Vec<usize>, u64) {
    let graph = hysolve_puzzles::clique::dimacs::parse("graph.col", text)
        .unwrap()
        .graph;
    let problem = Arc::new(Optimising(hysolve_puzzles::clique::Clique::new(
        &graph,
        "graph.col",
    )));
    let config = RunConfig::new(Mode::Optimise)
        .threads(threads)
        .prefixes_per_worker(4);
    let outcome = run_threaded(problem, &config, ranks, &mut Vec::new()).unwrap();
    let clique: Vec<usize> = outcome.found[0]
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    (outcome.objective.unwrap(), clique, outcome.nodes)
}

#[test]
fn every_example_has_the_clique_number_its_readme_gives() {
    // examples/clique/README.md: the published clique numbers (DIMACS),
    // found again by the independent search where it takes under a few
    // seconds (the search by hand takes 18 s on hamming8-4 and 99 s on
    // the random graph; cliquer checks that one below).
    for (file, omega, here) in [
        ("hamming6-2.col", 32, true),
        ("johnson8-4-4.col", 14, true),
        ("johnson16-2-4.col", 8, true),
        ("keller4.col", 11, true),
        ("hamming8-4.col", 16, false),
        ("random-150-0.8-1.col", 23, false),
    ] {
        let text =
            std::fs::read_to_string(crate::common::root().join(format!("examples/clique/{file}")))
                .unwrap();
        agrees_everywhere(file, &text, omega, here);
    }
}

/// The graph of `text`, named `file`: its clique number is `omega` by the
/// independent search (when `here`: those it finishes in a moment), and
/// hysolve finds `omega` with a clique of that size in 1x1, 1x2, 2x1 and
/// 3x2.
fn agrees_everywhere(file: &str, text: &str, omega: usize, here: bool) -> Edges {
    let g = read(text);
    if here {
        assert_eq!(
            clique_number(&g),
            omega,
            "{file}, by the independent search"
        );
    }
    for (ranks, threads) in [(1, 1), (1, 2), (2, 1), (3, 2)] {
        let (found, clique, _) = hysolve_optimum(text, ranks, threads);
        assert_eq!(found, omega as u64, "{file} in {ranks}x{threads}");
        assert_eq!(clique.len(), omega, "{file}: the clique reported");
        assert!(g.is_clique(&clique), "{file}: {clique:?} is not a clique");
    }
    g
}

/// G(n, p) as DIMACS text, made here (xorshift64*), independent of
/// hysolve's generator.
fn random_graph(n: usize, p: f64, mut seed: u64) -> String {
    let mut next = || {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut edges = Vec::new();
    for u in 1..=n {
        for v in u + 1..=n {
            if next() < p {
                edges.push(format!("e {u} {v}"));
            }
        }
    }
    format!("p edge {n} {}\n{}\n", edges.len(), edges.join("\n"))
}

#[test]
fn random_graphs_agree_with_the_independent_search_in_every_configuration() {
    for (k, (n, p)) in [
        (40, 0.5),
        (60, 0.7),
        (80, 0.6),
        (90, 0.8),
        (120, 0.4),
        (70, 0.9),
    ]
    .into_iter()
    .enumerate()
    {
        let text = random_graph(n, p, 1000 + k as u64);
        let g = read(&text);
        let omega = clique_number(&g);
        for (ranks, threads) in [(1, 1), (1, 2), (2, 1), (2, 2), (3, 2)] {
            let (found, clique, _) = hysolve_optimum(&text, ranks, threads);
            assert_eq!(found, omega as u64, "G({n}, {p}) in {ranks}x{threads}");
            assert_eq!(clique.len(), omega);
            assert!(
                g.is_clique(&clique),
                "G({n}, {p}): {clique:?} is not a clique"
            );
        }
    }
}

#[test]
fn every_clique_is_counted_once() {
    for (k, (n, p)) in [(12, 0.5), (25, 0.6), (30, 0.75), (1, 0.0), (0, 0.0)]
        .into_iter()
        .enumerate()
    {
        let text = random_graph(n, p, 77 + k as u64);
        let g = read(&text);
        let graph = hysolve_puzzles::clique::dimacs::parse("graph.col", &text)
            .unwrap()
            .graph;
        let problem = Arc::new(hysolve_puzzles::clique::Clique::new(&graph, "graph.col"));
        for (ranks, threads) in [(1, 1), (2, 2)] {
            let config = RunConfig::new(Mode::Count)
                .threads(threads)
                .prefixes_per_worker(4);
            let outcome = run_threaded(problem.clone(), &config, ranks, &mut Vec::new()).unwrap();
            assert_eq!(
                outcome.solutions,
                cliques(&g),
                "G({n}, {p}) in {ranks}x{threads}"
            );
        }
        // Listing: every clique once, each a clique.
        let config = RunConfig::new(Mode::All).threads(2);
        let mut out = Vec::new();
        run_threaded(problem.clone(), &config, 2, &mut out).unwrap();
        let listed: Vec<Vec<usize>> = String::from_utf8(out)
            .unwrap()
            .split("\n\n")
            .map(str::trim)
            .filter(|b| !b.is_empty())
            .map(|b| b.split(' ').map(|v| v.parse().unwrap()).collect())
            .collect();
        assert_eq!(listed.len() as u64, cliques(&g));
        assert!(listed.iter().all(|c| g.is_clique(c)));
        let distinct: HashSet<&Vec<usize>> = listed.iter().collect();
        assert_eq!(distinct.len(), listed.len(), "no clique twice");
    }
}

/// The clique number by cliquer (Debian's `cliquer`, Östergård's
/// algorithm), which `make test` installs.
fn cliquer(file: &std::path::Path) -> usize {
    let out = std::process::Command::new("cliquer")
        .args(["-u", "-q", "-q"])
        .arg(file)
        .output()
        .expect("cliquer is installed (make deps installs it: apt-get install cliquer)");
    assert!(out.status.success(), "cliquer failed on {}", file.display());
    // "size=23, weight=23:   1 9 16 ..."
    let text = String::from_utf8_lossy(&out.stdout);
    let size = text
        .trim()
        .strip_prefix("size=")
        .and_then(|t| t.split(',').next());
    size.and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("cliquer said: {text}"))
}

#[test]
fn random_dense_graphs_agree_with_cliquer_and_the_out_file_is_a_clique() {
    let dir = tempfile::tempdir().unwrap();
    for seed in 1..=3 {
        // G(150, 0.8) as a user makes it, from hysolve's generator.
        let graph = dir.path().join(format!("g{seed}.col"));
        let out = common::hysolve(&[
            "generate",
            "clique",
            "random",
            "150",
            "0.8",
            "--seed",
            &seed.to_string(),
            "--out",
            graph.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let omega = cliquer(&graph);
        let g = read(&std::fs::read_to_string(&graph).unwrap());
        let found = dir.path().join(format!("g{seed}.clique"));
        let v = common::json_of(&common::hysolve(&[
            "clique",
            graph.to_str().unwrap(),
            "--threads",
            "2",
            "--out",
            found.to_str().unwrap(),
            "--json",
            "--quiet",
        ]));
        assert_eq!(
            v["objective"], omega,
            "seed {seed}: hysolve against cliquer"
        );
        // One line of vertex numbers, counted from 1.
        let line = std::fs::read_to_string(&found).unwrap();
        assert_eq!(line.lines().count(), 1, "{line}");
        let clique: Vec<usize> = line
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(clique.len(), omega);
        assert!(
            g.is_clique(&clique),
            "seed {seed}: {clique:?} is not a clique"
        );
    }
}

/// `g` (read from its ASCII text here) in the challenge's binary format,
/// written bit by bit as the format defines it: the preamble's length, the
/// preamble (the text's `c` and `p` lines), then row `i` of the lower
/// triangle in `i / 8 + 1` bytes, vertex `j`'s bit `0x80 >> j % 8` of byte
/// `j / 8`.
fn binary_of(text: &str, g: &Edges) -> Vec<u8> {
    let preamble: String = text
        .lines()
        .filter(|l| l.starts_with('c') || l.starts_with('p'))
        .map(|l| format!("{l}\n"))
        .collect();
    let mut out = format!("{}\n{preamble}", preamble.len()).into_bytes();
    for i in 1..=g.n {
        let mut row = vec![0u8; (i - 1) / 8 + 1];
        for j in 1..i {
            if g.adjacent(i, j) {
                row[(j - 1) / 8] |= 0x80 >> ((j - 1) % 8);
            }
        }
        out.extend(row);
    }
    out
}

#[test]
fn the_shipped_dimacs_graphs_have_their_clique_numbers_in_ascii_and_binary() {
    // tests/data/clique/README.md: published clique numbers. The
    // independent search confirms those it finishes in a moment.
    let dir = tempfile::tempdir().unwrap();
    for (file, omega, here) in [
        ("brock200_2.clq", 12, true),
        ("p_hat300-1.clq", 8, true),
        ("C125.9.clq", 34, false),
        ("gen200_p0.9_55.clq", 55, false),
    ] {
        let path = crate::common::root().join(format!("tests/data/clique/{file}"));
        let text = std::fs::read_to_string(&path).unwrap();
        let g = agrees_everywhere(file, &text, omega, here);
        // The same graph in the binary format, through the front door:
        // the same answer, and the --out clique is a clique of the text.
        let binary = dir.path().join(format!("{file}.b"));
        std::fs::write(&binary, binary_of(&text, &g)).unwrap();
        let out = dir.path().join(format!("{file}.clique"));
        let v = common::json_of(&common::hysolve(&[
            "clique",
            binary.to_str().unwrap(),
            "--threads",
            "2",
            "--out",
            out.to_str().unwrap(),
            "--json",
            "--quiet",
        ]));
        assert_eq!(v["objective"], omega, "{file} in the binary format");
        if file == "gen200_p0.9_55.clq" {
            // The ramp-up's local search meets the optimum and the exact
            // search cannot beat it: the clique written is the heuristic's.
            let improvements = v["improvements"].as_array().unwrap();
            assert_eq!(improvements.len(), 1, "{improvements:?}");
            assert_eq!(improvements[0]["heuristic"], true);
            assert_eq!(improvements[0]["value"], omega);
        }
        let clique: Vec<usize> = std::fs::read_to_string(&out)
            .unwrap()
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(clique.len(), omega);
        assert!(g.is_clique(&clique), "{file}.b: {clique:?} is not a clique");
        let read_back = hysolve_puzzles::clique::dimacs::read(&binary).unwrap();
        let ascii = hysolve_puzzles::clique::dimacs::parse(file, &text).unwrap();
        assert_eq!(read_back.graph, ascii.graph, "{file}: binary and ASCII");
    }
}

#[test]
fn recolouring_keeps_the_optimum_in_every_configuration() {
    for (k, (n, p)) in [(60, 0.7), (90, 0.8), (70, 0.9)].into_iter().enumerate() {
        let text = random_graph(n, p, 500 + k as u64);
        let g = read(&text);
        let omega = clique_number(&g);
        let graph = hysolve_puzzles::clique::dimacs::parse("graph.col", &text)
            .unwrap()
            .graph;
        for top in [1, 3] {
            let problem = Arc::new(Optimising(
                hysolve_puzzles::clique::Clique::new(&graph, "graph.col").recolouring(top),
            ));
            for (ranks, threads) in [(1, 1), (1, 2), (2, 1), (3, 2)] {
                // Without the ramp-up, so that the search finds the clique.
                let config = RunConfig::new(Mode::Optimise)
                    .threads(threads)
                    .prefixes_per_worker(4)
                    .ramp_up(0);
                let outcome =
                    run_threaded(problem.clone(), &config, ranks, &mut Vec::new()).unwrap();
                assert_eq!(
                    outcome.objective,
                    Some(omega as u64),
                    "G({n}, {p}) top {top} in {ranks}x{threads}"
                );
                let clique: Vec<usize> = outcome.found[0]
                    .split(' ')
                    .map(|v| v.parse().unwrap())
                    .collect();
                assert!(g.is_clique(&clique) && clique.len() == omega);
            }
        }
    }
}
