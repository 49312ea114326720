//! `hysolve-bench` end to end: two binaries side by side (one after an
//! environment assignment), rows appended to a CSV with the commit, the
//! machine with its features, and the exact command of each.

use std::path::Path;
use std::process::Command;

/// The `hysolve` binary of the workspace, beside this package's own.
fn hysolve() -> String {
    let bench = Path::new(env!("CARGO_BIN_EXE_hysolve-bench"));
    let bin = bench.with_file_name("hysolve");
    assert!(
        bin.exists(),
        "{} is not built: build the workspace with this test's profile \
         (make test builds it with --profile testing)",
        bin.display()
    );
    bin.to_string_lossy().into_owned()
}

#[test]
fn two_paths_side_by_side_make_two_rows() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("q.csv");
    let bin = hysolve();
    let out = Command::new(env!("CARGO_BIN_EXE_hysolve-bench"))
        .args(["--reps", "2", "--configs", "1x1", "--values", "8"])
        .arg("--bin")
        .arg(format!("{bin},HYSOLVE_SIMD=none {bin}"))
        .arg("--out")
        .arg(&csv)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("commit,machine,"));
    for row in &lines[1..] {
        // 92 solutions of N-Queens 8, and the processor's features named.
        assert!(row.contains(",92,"), "{row}");
        assert!(row.contains("AVX"), "{row}");
    }
    assert!(
        lines[2].contains("\"env HYSOLVE_SIMD=none "),
        "{}",
        lines[2]
    );
    assert!(!lines[1].contains("HYSOLVE_SIMD"), "{}", lines[1]);
}
