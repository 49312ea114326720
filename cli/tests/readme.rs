//! `README.md`'s `make run` sample is what the command line prints. The
//! jobs of the Makefile's `run` target run under mpirun as `make run` runs
//! them, and every line of the README's sample is held to the line the run
//! printed in its place: the summary lines whole but for their timings (so
//! their counts exactly), and of `--stats` the vector line, the master's
//! fields, the hosts line, the table's column names and its rows' shape,
//! with no line missing or added. Hosts, the vector path, timings and how
//! the work fell between ranks are the machine's, and are not compared;
//! the ranks' solutions are, through their sum.

#![cfg(feature = "mpi")]

use crate::common;

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn read(name: &str) -> String {
    std::fs::read_to_string(root().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// What a line of a run's output is, for the lines the sample shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Summary,
    Vector,
    Master,
    Incumbent,
    Hosts,
    Header,
    Row,
}

/// The summary line a run prints last: `... (MODE mode, R ranks x T threads, ...`.
fn summary_shape(line: &str) -> Option<(usize, usize)> {
    let (_, rest) = line.split_once(" mode, ")?;
    let mut words = rest.split_whitespace();
    let ranks = words.next()?.parse().ok()?;
    words.next().filter(|w| w.starts_with("rank"))?;
    words.next().filter(|w| *w == "x")?;
    let threads = words.next()?.parse().ok()?;
    words.next().filter(|w| w.starts_with("thread"))?;
    Some((ranks, threads))
}

fn kind(line: &str) -> Option<Kind> {
    let t = line.trim_start();
    let mut words = t.split_whitespace();
    let first_two = (words.next(), words.next());
    if summary_shape(line).is_some() {
        Some(Kind::Summary)
    } else if t.starts_with("vector instructions: ") {
        Some(Kind::Vector)
    } else if t.starts_with("master: ") {
        Some(Kind::Master)
    } else if t.starts_with("incumbent: ") {
        Some(Kind::Incumbent)
    } else if t.starts_with("rank 0 on ") {
        Some(Kind::Hosts)
    } else if first_two == (Some("rank"), Some("worker")) {
        Some(Kind::Header)
    } else if let (Some(rank), Some(worker)) = first_two
        && rank.parse::<u32>().is_ok()
        && (worker == "all" || worker.parse::<u32>().is_ok())
    {
        Some(Kind::Row)
    } else {
        None
    }
}

/// A figure as the output prints it: `12`, `0.455`, `0.63%`, or `-` (too
/// short to measure).
fn is_number(word: &str) -> bool {
    let w = word.trim_end_matches('%');
    word == "-" || (!w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// A line with what belongs to the machine and the moment taken out.
fn normalise(kind: Kind, line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let out: Vec<String> = match kind {
        // Timings only: "5.453 s search + 0.000 s input".
        Kind::Summary => words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                let timing = words.get(i + 1).is_some_and(|n| *n == "s" || *n == "s,");
                if timing && w.contains('.') && is_number(w) {
                    "T".to_string()
                } else {
                    w.to_string()
                }
            })
            .collect(),
        // The path taken and the widest the processor has.
        Kind::Vector => words
            .iter()
            .enumerate()
            .map(|(i, w)| match i {
                2 => "LEVEL".to_string(),
                _ if i == words.len() - 1 => "LEVEL)".to_string(),
                _ => w.to_string(),
            })
            .collect(),
        // The fields' names and order, not their values.
        Kind::Master | Kind::Incumbent => words
            .iter()
            .map(|w| {
                let digits = w.trim_start_matches('(').trim_end_matches([',', ')', ';']);
                if is_number(digits) {
                    w.replace(digits, "#")
                } else {
                    w.to_string()
                }
            })
            .collect(),
        // "rank 0 on vm (2 usable cores), rank 1 on ...": the ranks in order.
        Kind::Hosts => line
            .split(", ")
            .filter_map(|part| part.strip_prefix("rank "))
            .map(|part| format!("rank {} on HOST", part.split(' ').next().unwrap_or("")))
            .collect(),
        Kind::Header => words.iter().map(|w| w.to_string()).collect(),
        // Rank and worker kept; every figure a placeholder.
        Kind::Row => words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                if i >= 2 && is_number(w) {
                    "#".to_string()
                } else {
                    w.to_string()
                }
            })
            .collect(),
    };
    out.join(" ")
}

/// The lines of a text that the sample shows, with their kinds.
fn shown(text: &str) -> Vec<(Kind, String)> {
    text.lines()
        .filter_map(|l| kind(l).map(|k| (k, l.to_string())))
        .collect()
}

/// README's `make run` sample: its text blocks from where the section
/// quotes `make run`'s output to the next section, split into jobs at each
/// summary line.
fn readme_jobs() -> Vec<Vec<(Kind, String)>> {
    let readme = read("README.md");
    let start = readme
        .find("`make run` first proves")
        .expect("README.md has the make run sample");
    let end = start + readme[start..].find("\n## ").expect("a section after it");
    let mut blocks = String::new();
    let mut inside = false;
    for line in readme[start..end].lines() {
        if line.starts_with("```") {
            inside = !inside && line == "```text";
        } else if inside {
            blocks.push_str(line);
            blocks.push('\n');
        }
    }
    let mut jobs: Vec<Vec<(Kind, String)>> = Vec::new();
    for (k, line) in shown(&blocks) {
        match (k, jobs.last_mut()) {
            (Kind::Summary, _) | (_, None) => jobs.push(vec![(k, line)]),
            (_, Some(job)) => job.push((k, line)),
        }
    }
    jobs
}

/// The Makefile's `run` jobs: ranks, threads and arguments, with its
/// defaults for `RANKS` and `RUN_ARGS` (`THREADS` depends on the machine:
/// `None`, taken from the README's sample).
fn makefile_jobs() -> Vec<(usize, Option<usize>, Vec<String>)> {
    let makefile = read("Makefile");
    let default = |name: &str| {
        let prefix = format!("{name} ?= ");
        makefile
            .lines()
            .find_map(|l| l.strip_prefix(&prefix))
            .unwrap_or_else(|| panic!("the Makefile sets {name}"))
            .trim()
            .to_string()
    };
    let recipe = makefile
        .split("\nrun: ")
        .nth(1)
        .expect("the Makefile has a run target");
    let mut jobs = Vec::new();
    for line in recipe.lines().skip(1) {
        if line.is_empty()
            || !(line.starts_with('\t') || line.starts_with("if") || line.starts_with("endif"))
        {
            break;
        }
        let Some(rest) = line.trim().strip_prefix("$(MPIRUN) -np ") else {
            continue;
        };
        let mut words: Vec<String> = rest
            .replace("$(RUN_ARGS)", &default("RUN_ARGS"))
            .split_whitespace()
            .map(String::from)
            .collect();
        let ranks = match words.remove(0).as_str() {
            "$(RANKS)" => default("RANKS").parse().unwrap(),
            n => n.parse().expect("ranks"),
        };
        assert_eq!(words.remove(0), "$(BIN)", "{line}");
        assert_eq!(words.remove(0), "--threads", "{line}");
        let threads = match words.remove(0).as_str() {
            "$(THREADS)" => None,
            n => Some(n.parse().expect("threads")),
        };
        jobs.push((ranks, threads, words));
    }
    jobs
}

#[test]
fn readme_make_run_sample_is_what_the_cli_prints() {
    let sample = readme_jobs();
    let jobs = makefile_jobs();
    assert_eq!(
        sample.len(),
        jobs.len(),
        "README.md shows {} jobs of make run, the Makefile runs {}",
        sample.len(),
        jobs.len()
    );
    for (shown_lines, (ranks, threads, args)) in sample.iter().zip(&jobs) {
        let (k, summary) = &shown_lines[0];
        assert_eq!(*k, Kind::Summary, "a job's sample starts with its summary");
        let (shown_ranks, shown_threads) = summary_shape(summary).unwrap();
        assert_eq!(shown_ranks, *ranks, "{summary}");
        if let Some(t) = threads {
            assert_eq!(shown_threads, *t, "{summary}");
        }
        let mut cmd = Command::new("mpirun");
        cmd.current_dir(root())
            .args(["--oversubscribe", "--bind-to", "none", "-np"])
            .arg(ranks.to_string())
            .arg(&*common::BIN)
            .args(["--threads", &shown_threads.to_string()])
            .args(args);
        common::mpi_env(&mut cmd).env_remove("HYSOLVE_SIMD");
        let out = common::run_with_timeout(cmd, Duration::from_secs(300));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        // The summary is the last of stdout; --stats goes to stderr.
        let printed: Vec<(Kind, String)> = shown(&stdout)
            .into_iter()
            .filter(|(k, _)| *k == Kind::Summary)
            .chain(
                shown(&stderr)
                    .into_iter()
                    .filter(|(k, _)| *k != Kind::Summary),
            )
            .collect();
        let kinds = |v: &[(Kind, String)]| v.iter().map(|(k, _)| *k).collect::<Vec<_>>();
        assert_eq!(
            kinds(shown_lines),
            kinds(&printed),
            "{args:?}: README.md shows these lines:\n{}\nthe run printed:\n{}",
            shown_lines
                .iter()
                .map(|(_, l)| l.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            printed
                .iter()
                .map(|(_, l)| l.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
        );
        for ((k, readme_line), (_, printed_line)) in shown_lines.iter().zip(&printed) {
            assert_eq!(
                normalise(*k, readme_line),
                normalise(*k, printed_line),
                "{args:?}: README.md's line\n  {readme_line}\nagainst the printed\n  {printed_line}"
            );
        }
        // The ranks' solutions add up to the run's (these trees have none
        // above the master's initial prefixes), in the sample and printed.
        for lines in [shown_lines, &printed] {
            let total: u64 = lines[0]
                .1
                .split(": ")
                .nth(1)
                .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()))
                .unwrap_or(0);
            let rows: Vec<Vec<&str>> = lines
                .iter()
                .filter(|(k, _)| *k == Kind::Row)
                .map(|(_, l)| l.split_whitespace().collect())
                .filter(|w: &Vec<&str>| w[1] == "all")
                .collect();
            if !rows.is_empty() {
                let sum: u64 = rows.iter().map(|w| w[3].parse::<u64>().unwrap()).sum();
                assert_eq!(sum, total, "{args:?}: {}", lines[0].1);
                assert_eq!(rows.len(), *ranks, "{args:?}: a row per rank");
            }
        }
    }
}

#[test]
fn a_changed_column_or_count_is_told_apart() {
    let row = "   0    all        2338542      1169280       23        0        0       23        5      9      0    5.428    0.024    0.63%";
    let fewer = "   0    all        2338542      1169280       23        0        0       23        5      9    5.428    0.024    0.63%";
    assert_ne!(normalise(Kind::Row, row), normalise(Kind::Row, fewer));
    let s = "queens 16: 14772512 solutions (count mode, 2 ranks x 2 threads, 0.455 s search + 0.000 s input, 66631282 nodes)";
    let t = "queens 16: 14772512 solutions (count mode, 2 ranks x 2 threads, 1.942 s search + 0.001 s input, 66631282 nodes)";
    let other = "queens 16: 14772513 solutions (count mode, 2 ranks x 2 threads, 0.455 s search + 0.000 s input, 66631282 nodes)";
    assert_eq!(normalise(Kind::Summary, s), normalise(Kind::Summary, t));
    assert_ne!(normalise(Kind::Summary, s), normalise(Kind::Summary, other));
    let m = "master: 32 initial prefixes, 9 messages sent to other ranks, 10 work messages (32 prefixes dealt), 0 Hungry handled, 4 donation requests (4 donations of 11 prefixes, victim to thief; 0 messages held back behind one)";
    let old = "master: 32 initial prefixes, 9 messages sent to other ranks, 10 work messages (32 prefixes dealt), 4 donation requests (4 donations of 11 prefixes, victim to thief; 0 messages held back behind one)";
    assert_ne!(normalise(Kind::Master, m), normalise(Kind::Master, old));
    assert_eq!(kind(s), Some(Kind::Summary));
    assert_eq!(kind(row), Some(Kind::Row));
    assert_eq!(kind("#..#..#.#"), None);
}
