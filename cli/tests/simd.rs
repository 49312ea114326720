//! `HYSOLVE_SIMD`: every path this processor has is forced and checked
//! (counts, the path `--json` reports, the boards visited); a path it
//! lacks and an unknown value are refused in one line. No path passes by
//! being skipped: a level the processor lacks is checked to be refused.

use crate::common;

use common::{A000170, BIN, json_of, run_with_timeout};
use hysolve::advanced::simd::{self, Level};
use std::process::{Command, Output};
use std::time::Duration;

fn with_simd(value: &str, args: &[&str]) -> Output {
    let mut cmd = Command::new(&*BIN);
    cmd.args(args).env(simd::VAR, value).env_remove("RUST_LOG");
    run_with_timeout(cmd, Duration::from_secs(120))
}

fn refused_in_one_line(out: &Output, needle: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(stderr.contains(needle), "{stderr}");
}

#[test]
fn every_path_of_this_processor_counts_the_queens_and_says_which_ran() {
    let mut nodes = Vec::new();
    for level in [Level::None, Level::Avx2, Level::Avx512] {
        let args = ["--threads", "2", "--json", "--quiet", "queens", "13"];
        let out = with_simd(level.name(), &args);
        if level > simd::detected() {
            refused_in_one_line(&out, "this processor lacks it");
            eprintln!("{level}: refused, as this processor lacks it");
            continue;
        }
        let v = json_of(&out);
        assert_eq!(v["solutions"], A000170[12], "{level}");
        assert_eq!(v["simd"], level.name());
        nodes.push((level, v["nodes"].as_u64().unwrap()));
        eprintln!("{level}: {} boards", v["nodes"]);
    }
    // Every path visits the same boards.
    for &(level, n) in &nodes {
        assert_eq!(n, nodes[0].1, "{level}: {n} boards, none {}", nodes[0].1);
    }
}

#[test]
fn unknown_values_are_refused_in_one_line() {
    for bad in ["bogus", "AVX512", "sse4"] {
        let out = with_simd(bad, &["queens", "8"]);
        refused_in_one_line(&out, &format!("HYSOLVE_SIMD={bad}: unknown value"));
    }
}
