//! The command-line contract: output, --json, --out, and one-line errors
//! (paths relative to the workspace's root, where the runs start).

use crate::common;

use common::{hysolve, json_of, read_solutions};
use hysolve_puzzles::hitori::grid::Grid;
use hysolve_puzzles::hitori::verify as hitori_verify;
use hysolve_puzzles::pack::figure::Figure;
use hysolve_puzzles::pack::pieces::PieceSet;
use hysolve_puzzles::pack::{Layout, verify as pack_verify};
use hysolve_puzzles::queens;

fn assert_one_line_error(args: &[&str], needle: &str) {
    let out = hysolve(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} should fail");
    assert!(!stderr.contains("panicked"), "{args:?} panicked: {stderr}");
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "{args:?}: not one line: {stderr}"
    );
    assert!(
        stderr.contains(needle),
        "{args:?}: {stderr} lacks '{needle}'"
    );
}

#[test]
fn bad_input_is_one_line_and_nonzero() {
    assert_one_line_error(&["queens", "0"], "between 1 and 32");
    assert_one_line_error(&["queens", "40"], "between 1 and 32");
    assert_one_line_error(&["queens", "abc"], "invalid value 'abc'");
    assert_one_line_error(&["queens", "-3"], "unexpected argument");
    assert_one_line_error(&["queens"], "required");
    assert_one_line_error(&["sudoku", "9"], "unrecognized subcommand 'sudoku'");
    assert_one_line_error(
        &["--frobnicate", "queens", "8"],
        "unexpected argument '--frobnicate'",
    );
    assert_one_line_error(
        &["--mode", "fastest", "queens", "8"],
        "unknown mode 'fastest'",
    );
    assert_one_line_error(&["--threads", "0", "queens", "8"], "--threads");
    assert_one_line_error(&["synthetic", "--dead-depth", "99"], "dead-depth");
    assert_one_line_error(
        &[
            "--mode",
            "all",
            "--out",
            "/nonexistent-dir/x.txt",
            "queens",
            "6",
        ],
        "/nonexistent-dir/x.txt",
    );
}

#[test]
fn json_is_the_last_line_with_the_contract_fields() {
    let out = hysolve(&["--threads", "2", "queens", "10", "--json"]);
    let v = json_of(&out);
    assert_eq!(v["problem"], "queens");
    assert_eq!(v["instance"], "10");
    assert_eq!(v["mode"], "count");
    assert_eq!(v["solutions"], 724);
    assert_eq!(v["ranks"], 1);
    assert_eq!(v["threads"], 2);
    assert!(v["wall_s"].as_f64().unwrap() >= 0.0);
    assert!(v["nodes"].as_u64().unwrap() > 724);
    assert_eq!(v["rank_stats"].as_array().unwrap().len(), 1);
}

#[test]
fn all_mode_writes_every_board_to_out() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("boards.txt");
    std::fs::write(&path, "an older file that a failed run must not destroy\n").unwrap();
    let p = path.to_str().unwrap();
    let out = hysolve(&[
        "--mode",
        "all",
        "--out",
        p,
        "--threads",
        "2",
        "queens",
        "8",
        "--json",
    ]);
    let v = json_of(&out);
    assert_eq!(v["solutions"], 92);
    assert_eq!(v["written"], 92);
    let boards = read_solutions(&path);
    assert_eq!(boards.len(), 92);
    let distinct: std::collections::HashSet<_> = boards.iter().collect();
    assert_eq!(distinct.len(), 92);
    for b in &boards {
        queens::verify(8, b).unwrap();
    }
    assert!(!dir.path().join("boards.txt.partial").exists());
}

/// `--out` to a FIFO (or a terminal, or a device such as `/dev/null`)
/// writes into it: the reader gets every board, and the FIFO stays a FIFO
/// (the atomic rename once put a regular file in its place: as root, over
/// `/dev/null` too). First mode's `--out`, written whole at the end, too.
#[test]
fn out_to_a_fifo_streams_into_it_and_leaves_it_a_fifo() {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("boards.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    for (mode, boards) in [("all", 92), ("first", 1)] {
        let path = fifo.clone();
        let reader = std::thread::spawn(move || std::fs::read_to_string(path).unwrap());
        let out = hysolve(&[
            "--mode",
            mode,
            "--out",
            fifo.to_str().unwrap(),
            "queens",
            "8",
            "--json",
        ]);
        assert_eq!(
            json_of(&out)["solutions"],
            if mode == "all" { 92 } else { 1 }
        );
        // A reader still waiting (the run never opened the FIFO) is let go
        // with nothing, so that the test fails instead of hanging; with no
        // reader left this open fails (ENXIO), as it should.
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(0o4000) // O_NONBLOCK
            .open(&fifo);
        let text = reader.join().unwrap();
        let got = common::blocks(text.as_bytes());
        assert_eq!(got.len(), boards, "{mode}");
        for b in &got {
            queens::verify(8, b).unwrap();
        }
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert!(!dir.path().join("boards.fifo.partial").exists());
        assert!(!dir.path().join("boards.fifo.tmp").exists());
    }
}

#[test]
fn all_mode_without_out_prints_boards_then_summary() {
    let out = hysolve(&["--mode", "all", "queens", "4"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let (boards, summary) = stdout.rsplit_once("\n\n").unwrap();
    assert!(summary.contains("2 solutions"), "{stdout}");
    let boards: Vec<&str> = boards.split("\n\n").collect();
    assert_eq!(boards.len(), 2);
    for b in boards {
        queens::verify(4, b).unwrap();
    }
}

#[test]
fn first_and_unique_modes() {
    let out = hysolve(&["--mode", "first", "queens", "12", "--json"]);
    let v = json_of(&out);
    assert_eq!(v["solutions"], 1);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let board: String = stdout.lines().take(12).collect::<Vec<_>>().join("\n");
    queens::verify(12, &board).unwrap();

    let v = json_of(&hysolve(&["--mode", "unique", "queens", "3", "--json"]));
    assert_eq!(
        (v["solutions"].as_u64(), v["answer"].as_str()),
        (Some(0), Some("none"))
    );
    let v = json_of(&hysolve(&["--mode", "unique", "queens", "1", "--json"]));
    assert_eq!(
        (v["solutions"].as_u64(), v["answer"].as_str()),
        (Some(1), Some("unique"))
    );
    let v = json_of(&hysolve(&["--mode", "unique", "queens", "6", "--json"]));
    assert_eq!(
        (v["solutions"].as_u64(), v["answer"].as_str()),
        (Some(2), Some("multiple"))
    );
}

#[test]
fn stats_go_to_stderr() {
    let out = hysolve(&["--threads", "2", "--stats", "queens", "11"]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("rank worker"), "{stderr}");
    assert!(stderr.contains("mgr_cpu"), "{stderr}");
    assert!(stderr.contains("messages sent to other ranks"), "{stderr}");
    assert!(stderr.contains("rank 0 on "), "{stderr}");
    let v = json_of(&hysolve(&["--threads", "2", "--json", "queens", "11"]));
    let rank = &v["rank_stats"][0];
    assert!(rank["host"].is_string() && rank["cores"].as_u64() >= Some(1));
    assert_eq!(rank["workers"].as_array().unwrap().len(), 2);
    assert!(v["master"]["messages_sent"].is_u64());
}

fn write_temp(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn hitori_bad_input_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let ragged = write_temp(&dir, "ragged.txt", "1 2 3\n3 1\n2 3 1\n");
    assert_one_line_error(
        &["hitori", &ragged],
        &format!("{ragged}:2:4: row 2 has 2 numbers"),
    );
    let word = write_temp(&dir, "word.txt", "1 2\n2 x1\n");
    assert_one_line_error(
        &["hitori", &word],
        &format!("{word}:2:3: expected a positive integer, found 'x1'"),
    );
    let zero = write_temp(&dir, "zero.txt", "1 2\n0 1\n");
    assert_one_line_error(&["hitori", &zero], &format!("{zero}:2:1: 0 is not allowed"));
    let negative = write_temp(&dir, "neg.txt", "1 -2\n2 1\n");
    assert_one_line_error(
        &["hitori", &negative],
        &format!("{negative}:1:3: '-2' is negative"),
    );
    let empty = write_temp(&dir, "empty.txt", "");
    assert_one_line_error(&["hitori", &empty], &format!("{empty}: empty grid"));
    let binary = write_temp(&dir, "bin.txt", "1 2\n\u{0}\u{1}\n");
    assert_one_line_error(
        &["hitori", &binary],
        &format!("{binary}:2:1: expected a positive integer"),
    );
    assert_one_line_error(
        &["hitori", "/nonexistent/grid.txt"],
        "/nonexistent/grid.txt: no such file",
    );
    assert_one_line_error(&["hitori", dir.path().to_str().unwrap()], "is a directory");
    assert_one_line_error(&["generate", "hitori", "--size", "1"], "--size");
    assert_one_line_error(&["generate", "hitori"], "give --size N");
}

#[test]
fn hitori_first_mode_by_default_and_solution_file_format() {
    let dir = tempfile::tempdir().unwrap();
    let grid = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/hitori/seed/input-5x5.txt"
    );
    let expected = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/hitori/seed/input-5x5.solution"
    ))
    .unwrap();
    let out_file = dir.path().join("five.solution");
    let out = hysolve(&[
        "hitori",
        grid,
        "--json",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    let v = json_of(&out);
    assert_eq!(v["mode"], "first");
    assert_eq!(v["solutions"], 1);
    // Not a terminal: the solution in the .solution format, then the summary.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with(expected.trim()), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(&out_file).unwrap().trim(),
        expected.trim()
    );

    // All solutions of a grid with eight: blocks separated by blank lines.
    let grid = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/hitori/seed/test-27x27.txt"
    );
    let all = dir.path().join("all.txt");
    let v = json_of(&hysolve(&[
        "--mode",
        "all",
        "--out",
        all.to_str().unwrap(),
        "hitori",
        grid,
        "--json",
    ]));
    assert_eq!(v["solutions"], 8);
    let mut blocks = read_solutions(&all);
    assert_eq!(blocks.len(), 8);
    let puzzle = Grid::parse(&std::fs::read_to_string(grid).unwrap(), grid).unwrap();
    for b in &blocks {
        let shaded = hitori_verify::parse_solution(b, 27, 27).unwrap();
        hitori_verify::verify(&puzzle, &shaded).unwrap_or_else(|e| panic!("{e}:\n{b}"));
    }
    blocks.sort();
    blocks.dedup();
    assert_eq!(blocks.len(), 8, "a shading written twice");
    let v = json_of(&hysolve(&["--mode", "unique", "hitori", grid, "--json"]));
    assert_eq!(v["answer"], "multiple");
}

#[test]
fn hitori_generate_is_reproducible_and_unique() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    for path in [&a, &b] {
        let out = hysolve(&[
            "--quiet",
            "generate",
            "hitori",
            "--size",
            "12",
            "--seed",
            "7",
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = std::fs::read_to_string(&a).unwrap();
    assert_eq!(text, std::fs::read_to_string(&b).unwrap());
    let solution = std::fs::read_to_string(a.with_extension("solution")).unwrap();
    let v = json_of(&hysolve(&[
        "--mode",
        "unique",
        "hitori",
        a.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["answer"], "unique");
    let out = hysolve(&["hitori", a.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let shown: Vec<&str> = stdout.lines().take(12).collect();
    assert_eq!(shown.join("\n"), solution.trim());
    let other = String::from_utf8_lossy(
        &hysolve(&["generate", "hitori", "--size", "12", "--seed", "8"]).stdout,
    )
    .into_owned();
    assert_ne!(other, text);
}

#[test]
fn magic_input_errors_and_clean_zeros() {
    let dir = tempfile::tempdir().unwrap();
    let twice = write_temp(
        &dir,
        "twice.txt",
        "16 -1 -1 -1\n-1 -1 -1 -1\n-1 16 -1 -1\n-1 -1 -1 -1\n",
    );
    assert_one_line_error(
        &["magic", &twice],
        &format!("{twice}:3:4: 16 is given twice (first at line 1, column 1)"),
    );
    let range = write_temp(&dir, "range.txt", "-1 -1 -1\n-1 10 -1\n-1 -1 -1\n");
    assert_one_line_error(
        &["magic", &range],
        &format!("{range}:2:4: 10 is out of range"),
    );
    let ragged = write_temp(&dir, "ragged.txt", "-1 -1 -1\n-1 -1\n-1 -1 -1\n");
    assert_one_line_error(
        &["magic", &ragged],
        &format!("{ragged}:2:6: row 2 has 2 numbers, expected 3"),
    );
    let word = write_temp(&dir, "word.txt", "-1 -1\n-1 five\n");
    assert_one_line_error(
        &["magic", &word],
        &format!("{word}:2:4: expected an integer, found 'five'"),
    );
    let empty = write_temp(&dir, "empty.txt", "\n\n");
    assert_one_line_error(&["magic", &empty], &format!("{empty}: empty square"));
    assert_one_line_error(
        &["magic", "/nonexistent/sq.txt"],
        "/nonexistent/sq.txt: no such file",
    );
    assert_one_line_error(&["magic", "--empty", "0"], "--empty");
    assert_one_line_error(&["magic", "--empty", "17"], "--empty");
    assert_one_line_error(&["magic"], "required");
    assert_one_line_error(&["magic", "--distinct", &range], "range.txt");
    let seed = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/magic/seed_4x4_br15.txt"
    );
    assert_one_line_error(&["magic", "--distinct", seed], "nothing may be given");

    // A full row with the wrong sum: a clean zero, with the reason on stderr.
    let full = write_temp(
        &dir,
        "full.txt",
        "1 2 3 4\n-1 -1 -1 -1\n-1 -1 -1 -1\n-1 -1 -1 -1\n",
    );
    let out = hysolve(&["magic", &full, "--json"]);
    assert_eq!(json_of(&out)["solutions"], 0);
    assert!(String::from_utf8_lossy(&out.stderr).contains("row 1 is full and sums to 10, not 34"));
}

#[test]
fn magic_modes_and_distinct() {
    let v = json_of(&hysolve(&["magic", "--empty", "4", "--distinct", "--json"]));
    assert_eq!(v["solutions"], 880);
    assert_eq!(v["mode"], "count");
    let seed = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/magic/seed_4x4_br15.txt"
    );
    assert_eq!(
        json_of(&hysolve(&["magic", seed, "--json"]))["solutions"],
        400
    );
    let out = hysolve(&["--mode", "first", "magic", "--empty", "3"]);
    assert_empty_magic(&String::from_utf8_lossy(&out.stdout), 3);
    // 5x5 goes by lines unless told otherwise; both ways agree.
    let row = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/magic/5x5_row_1_2_13_24_25.txt"
    );
    for by in [&[][..], &["--by", "lines"], &["--by", "cells"]] {
        let mut args = vec!["magic", row, "--json"];
        args.extend_from_slice(by);
        let v = json_of(&hysolve(&args));
        assert_eq!(v["solutions"], 8016, "{by:?}");
        let lines = v["instance"].as_str().unwrap().contains("by lines");
        assert_eq!(lines, by != ["--by", "cells"], "{by:?}");
    }
    assert_one_line_error(
        &["magic", "--empty", "4", "--by", "lines"],
        "5x5 squares only, this one is 4x4",
    );
    assert_one_line_error(&["magic", "--empty", "5", "--by", "rows"], "--by");
    // 6x6 is too big to count here, but --limit and first finish at once.
    let out = hysolve(&[
        "--mode", "all", "--limit", "4", "magic", "--empty", "6", "--json",
    ]);
    assert_eq!(json_of(&out)["solutions"], 4);
    let out = hysolve(&["--mode", "first", "magic", "--empty", "6", "--json"]);
    assert_eq!(json_of(&out)["solutions"], 1);
    assert_empty_magic(&String::from_utf8_lossy(&out.stdout), 6);
    let out = hysolve(&[
        "--mode",
        "all",
        "--limit",
        "3",
        "magic",
        "--empty",
        "5",
        "--distinct",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    // Three squares, then the summary.
    let blocks: Vec<&str> = stdout.split("\n\n").collect();
    assert_eq!(blocks.len(), 4, "{stdout}");
    for text in &blocks[..3] {
        assert_empty_magic(text, 5);
    }
}

/// The first `n` lines of `text` are a magic square of order `n`.
fn assert_empty_magic(text: &str, n: usize) {
    use hysolve_puzzles::magic::{square::Given, verify};
    let rows: Vec<&str> = text.lines().take(n).collect();
    let sq = verify::parse_square(&rows.join("\n"), n).unwrap();
    verify::verify(&Given::empty(n).unwrap(), &sq).unwrap();
}

#[test]
fn pack_bad_input_and_limits() {
    let dir = tempfile::tempdir().unwrap();
    assert_one_line_error(
        &["pack", "--pieces", "hexominoes", "--board", "6x10"],
        "hexominoes: no such piece set (built-in: iqfit",
    );
    assert_one_line_error(
        &["pack", "--pieces", "pentominoes", "--board", "6by10"],
        "--board '6by10': expected WxH or WxHxD",
    );
    assert_one_line_error(
        &["pack", "--pieces", "pentominoes", "--board", "8x8"],
        "has 64 cells but the pieces of pentominoes cover 60",
    );
    assert_one_line_error(&["pack", "--pieces", "pentominoes"], "--board");
    let pieces = write_temp(&dir, "bad.pieces", "# two\nA 0,0 1,0\nB 0,0 q,1\n");
    assert_one_line_error(
        &["pack", "--pieces", &pieces, "--board", "2x2"],
        &format!("{pieces}:3:7: cell 'q,1'"),
    );
    let fig = write_temp(&dir, "bad.fig", "##\n#?\n");
    assert_one_line_error(
        &["pack", "--pieces", "soma", "--figure", &fig],
        &format!("{fig}:2:2: unexpected '?'"),
    );
    assert_one_line_error(
        &[
            "pack",
            "--pieces",
            "soma",
            "--figure",
            "/nonexistent/castle.fig",
        ],
        "/nonexistent/castle.fig: no such file",
    );
    assert_one_line_error(
        &[
            "--limit", "3", "pack", "--pieces", "soma", "--board", "3x3x3",
        ],
        "--limit stops after N solutions",
    );
    assert_one_line_error(&["--limit", "0", "--mode", "all", "queens", "6"], "--limit");

    // --limit: exactly N solutions written, in 2D rows of letters and 3D layers.
    let out = dir.path().join("five.txt");
    let v = json_of(&hysolve(&[
        "--mode",
        "all",
        "--limit",
        "5",
        "--out",
        out.to_str().unwrap(),
        "pack",
        "--pieces",
        "iqfit",
        "--board",
        "11x5",
        "--json",
    ]));
    assert_eq!(v["solutions"], 5);
    let boards = read_solutions(&out);
    assert_eq!(boards.len(), 5);
    check_packings(&boards, "iqfit", Figure::parse_box("11x5").unwrap());
    let out = dir.path().join("soma.txt");
    let v = json_of(&hysolve(&[
        "--mode",
        "all",
        "--limit",
        "3",
        "--out",
        out.to_str().unwrap(),
        "pack",
        "--pieces",
        "soma",
        "--board",
        "3x3x3",
        "--json",
    ]));
    assert_eq!(v["solutions"], 3);
    let cubes = read_solutions(&out);
    assert_eq!(cubes.len(), 3);
    check_packings(&cubes, "soma", Figure::parse_box("3x3x3").unwrap());
    let steps = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/packing/steps.fig");
    let v = json_of(&hysolve(&[
        "--mode", "first", "pack", "--pieces", "soma", "--figure", steps, "--json",
    ]));
    assert_eq!(v["solutions"], 1);
}

/// Every block is a legal packing of `pieces` on `figure`, and none repeats.
fn check_packings(blocks: &[String], pieces: &str, figure: Figure) {
    let layout = Layout::new(PieceSet::load(pieces).unwrap(), figure).unwrap();
    for b in blocks {
        let cells = pack_verify::parse_packing(b, &layout.shown).unwrap();
        pack_verify::verify(&layout.set, &layout.labels, &layout.shown, &cells)
            .unwrap_or_else(|e| panic!("{e}:\n{b}"));
    }
    let distinct: std::collections::HashSet<&String> = blocks.iter().collect();
    assert_eq!(distinct.len(), blocks.len(), "a packing written twice");
}

/// Runs `hysolve ARGS` on a pseudo-terminal (util-linux `script`) and
/// returns what the terminal showed.
fn on_a_terminal(args: &str) -> String {
    let mut cmd = std::process::Command::new("script");
    cmd.args(["-qec", &format!("{} {args}", *common::BIN), "/dev/null"])
        .current_dir(common::root())
        .env_remove("RUST_LOG");
    let out = common::run_with_timeout(cmd, std::time::Duration::from_secs(60));
    assert!(out.status.success(), "{args}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn progress_bar_on_a_terminal_only_for_long_runs_and_not_with_quiet() {
    // A run whose length the test sets: 169,474 nodes of the synthetic
    // tree at 8,000 hashing rounds each, about 5 s on one thread here (a
    // machine three times faster still takes more than the bar's second).
    let long = "--threads 1 synthetic --leaves 100 --work 8000";
    let shown = on_a_terminal(long);
    assert!(shown.contains(": 100 solutions"), "{shown}");
    assert!(shown.contains("prefixes, eta"), "no progress bar: {shown}");
    assert!(shown.contains("M nodes/s"), "{shown}");
    assert!(shown.contains("% of"), "{shown}");
    let quiet = on_a_terminal(&format!("--quiet {long}"));
    assert!(
        !quiet.contains("prefixes, eta"),
        "--quiet shows a bar: {quiet}"
    );
    let short = on_a_terminal("--threads 2 queens 10");
    assert!(
        !short.contains("prefixes, eta"),
        "a short run shows a bar: {short}"
    );
    // Not a terminal: never.
    let piped = hysolve(&long.split(' ').collect::<Vec<_>>());
    assert!(!String::from_utf8_lossy(&piped.stderr).contains("prefixes"));
}

/// Files saved by Windows editors start with a UTF-8 byte-order mark and
/// end lines with CRLF: every input format reads them as the plain file.
#[test]
fn byte_order_mark_and_crlf_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let windows = |name: &str, path: &str| {
        let text = std::fs::read_to_string(common::root().join(path))
            .unwrap()
            .replace('\n', "\r\n");
        let mut bytes = b"\xEF\xBB\xBF".to_vec();
        bytes.extend_from_slice(text.as_bytes());
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p.to_str().unwrap().to_string()
    };
    let summary = |args: &[&str]| {
        let out = hysolve(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {stderr}");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .last()
            .unwrap()
            .to_string()
    };
    let grid = windows("grid.txt", "examples/hitori/seed/input-8x8.txt");
    assert!(summary(&["--mode", "count", "hitori", &grid]).contains(": 1 solution ("));
    let square = windows("square.txt", "examples/magic/seed_4x4_br15.txt");
    assert!(summary(&["magic", &square]).contains(": 400 solutions"));
    let pieces = windows("set.pieces", "puzzles/src/pack/sets/soma.pieces");
    let cube = write_temp(&dir, "cube.txt", &["###\n###\n###\n"; 3].join("\n"));
    let figure = windows("cube.fig", &cube);
    assert!(
        summary(&[
            "pack",
            "--pieces",
            &pieces,
            "--figure",
            &figure,
            "--distinct"
        ])
        .contains(": 240 solutions")
    );
}

#[test]
fn xc_bad_input_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, want) in [
        (
            "empty.xc",
            "",
            ": empty file: expected a line naming the items",
        ),
        ("comments.xc", "| just this\n", ": no items line"),
        ("unknown.xc", "a b\na q\n", ":2:3: unknown item 'q'"),
        (
            "twice.xc",
            "a b\nb a b\n",
            ":2:5: item 'b' twice in one option",
        ),
        (
            "colour.xc",
            "a | x\na:1 x\n",
            ":2:1: primary item 'a' cannot have a colour",
        ),
        (
            "long.xc",
            "a abcdefghi\n",
            ":1:3: item name 'abcdefghi' is 9 characters long, more than 8",
        ),
        ("colon.xc", "a b:c\n", ":1:4: item name 'b:c' contains ':'"),
        ("bar.xc", "a b\na b|\n", ":2:4: item name 'b|' contains '|'"),
        (
            "wide.xc",
            "a | x\na x:12\n",
            ":2:5: a colour is one character, got '12'",
        ),
    ] {
        let path = write_temp(&dir, name, text);
        assert_one_line_error(&["xc", &path], &format!("{path}{want}"));
    }
    assert_one_line_error(
        &["xc", "/nonexistent/p.xc"],
        "/nonexistent/p.xc: no such file",
    );
    assert_one_line_error(&["xc"], "FILE");
    assert_one_line_error(&["xc", "--engine", "fast", "p.xc"], "--engine");
}

#[test]
fn xc_counts_lists_and_warns_like_dlx() {
    let dir = tempfile::tempdir().unwrap();
    // Options 3 and 5 have no primary item: dropped, with a warning.
    let path = write_temp(
        &dir,
        "small.xc",
        "| a comment\na b c | x y\na x:1\ny\nb c x:1\nx:2\nb x:2\nc y\na b\n",
    );
    let out = hysolve(&["xc", &path]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!(
            "note: {path}:4: option with no primary item dropped (and 1 more"
        )),
        "{stderr}"
    );
    let v = json_of(&hysolve(&[
        "--threads",
        "2",
        "xc",
        &path,
        "--json",
        "--quiet",
    ]));
    assert_eq!(v["solutions"], 2);
    // Solutions as their options, in the input's order, a blank line between.
    let out = hysolve(&["--mode", "all", "--quiet", "--threads", "1", "xc", &path]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("a x:1\nb c x:1\n\nc y\na b\n"),
        "{stdout}"
    );
    // Each rank's solutions in --stats.
    let out = hysolve(&["--threads", "2", "--stats", "xc", &path]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("solutions"), "{stderr}");
}

#[test]
fn pack_export_xc_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.xc").display().to_string();
    let out = hysolve(&[
        "pack",
        "--pieces",
        "pentominoes",
        "--board",
        "20x3",
        "--export-xc",
        &file,
    ]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.trim(),
        format!("wrote {file}: 1236 options over 72 items")
    );
    let v = json_of(&hysolve(&["xc", &file, "--json", "--quiet"]));
    assert_eq!(v["solutions"], 8);
    assert_one_line_error(
        &[
            "pack",
            "--pieces",
            "double-soma",
            "--board",
            "6x3x3",
            "--export-xc",
            &file,
        ],
        "piece",
    );
    // The refused export left the earlier file as it was.
    let v = json_of(&hysolve(&["xc", &file, "--json", "--quiet"]));
    assert_eq!(v["solutions"], 8);
    assert_one_line_error(
        &[
            "pack",
            "--pieces",
            "soma",
            "--board",
            "3x3x3",
            "--distinct",
            "--export-xc",
            &file,
        ],
        "--distinct",
    );
}

#[test]
fn each_command_offers_only_its_own_options_and_keeps_its_own_help() {
    let help = |args: &[&str]| String::from_utf8_lossy(&hysolve(args).stdout).into_owned();
    // generate takes no search option: none offered, one given is refused.
    let generate = help(&["generate", "hitori", "--help"]);
    assert!(generate.starts_with("A Hitori puzzle"), "{generate}");
    for search_only in ["--checkpoint", "--resume", "--limit", "--mode", "--threads"] {
        assert!(
            !generate.contains(search_only),
            "generate offers {search_only}"
        );
    }
    assert!(generate.contains("--out") && generate.contains("--json"));
    assert_one_line_error(
        &[
            "--checkpoint",
            "x.ckpt",
            "generate",
            "hitori",
            "--size",
            "5",
        ],
        "--checkpoint is an option of a search, not of generate",
    );
    assert_one_line_error(
        &["--mode", "all", "view", "nothing.txt"],
        "--mode is an option of a search, not of view",
    );
    // A search has them, and its own one-line help first.
    let queens = help(&["queens", "--help"]);
    assert!(
        queens.starts_with("Count (or list) the placements"),
        "{queens}"
    );
    for option in [
        "--checkpoint",
        "--resume",
        "--limit",
        "--mode",
        "--threads",
        "--out",
    ] {
        assert!(queens.contains(option), "queens lacks {option}");
    }
    // Before or after the puzzle's name, the same run.
    let before = json_of(&hysolve(&["--mode", "first", "--json", "queens", "8"]));
    let after = json_of(&hysolve(&["queens", "8", "--mode", "first", "--json"]));
    assert_eq!(
        (before["mode"].clone(), before["solutions"].clone()),
        ("first".into(), 1.into())
    );
    assert_eq!(before["mode"], after["mode"]);
}

#[test]
fn clique_bad_input_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, want) in [
        (
            "range.col",
            "p edge 3 1\ne 1 4\n",
            ":2:5: vertex 4 is out of range (the graph has vertices 1 to 3)",
        ),
        (
            "loop.col",
            "p edge 3 1\ne 2 2\n",
            ":2:1: a self-loop on vertex 2",
        ),
        (
            "nop.col",
            "c only comments\n",
            ": no 'p edge V E' line: not a DIMACS graph",
        ),
        (
            "early.col",
            "e 1 2\np edge 2 1\n",
            ":1:1: an edge before the 'p edge V E' line",
        ),
        (
            "word.col",
            "p edge 3 1\ne 1 x\n",
            ":2:5: 'x' is not a vertex number",
        ),
    ] {
        let path = write_temp(&dir, name, text);
        assert_one_line_error(&["clique", &path], &format!("{path}{want}"));
    }
    assert_one_line_error(
        &["clique", "/nonexistent/g.col"],
        "/nonexistent/g.col: no such file",
    );
    // An edge count that disagrees is a note on stderr, not an error.
    let path = write_temp(&dir, "count.col", "p edge 3 9\ne 1 2\ne 2 3\ne 1 3\n");
    let out = hysolve(&["clique", &path, "--json"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("declares 9 edges, the file lists 3"));
    assert_eq!(json_of(&out)["objective"], 3);
    // Modes and targets that make no sense here.
    assert_one_line_error(
        &["--mode", "first", "clique", &path],
        "--mode first has no meaning here",
    );
    assert_one_line_error(
        &["--mode", "optimise", "queens", "8"],
        "--mode optimise needs an objective",
    );
    assert_one_line_error(
        &["--at-least", "3", "queens", "8"],
        "--at-least is for --mode optimise, not count",
    );
    assert_one_line_error(&["--at-least", "0", "clique", &path], "--at-least");
    assert_one_line_error(
        &["generate", "clique", "petersen", "3"],
        "unknown family 'petersen'",
    );
    assert_one_line_error(
        &["generate", "clique", "random", "10", "2"],
        "probability must be from 0 to 1",
    );
}

#[test]
fn clique_json_out_and_at_least() {
    let dir = tempfile::tempdir().unwrap();
    let graph = "examples/clique/keller4.col";
    let out_file = dir.path().join("k4.clique");
    let v = json_of(&hysolve(&[
        "clique",
        graph,
        "--out",
        out_file.to_str().unwrap(),
        "--json",
        "--quiet",
    ]));
    assert_eq!(
        (v["objective"].as_u64(), v["mode"].as_str()),
        (Some(11), Some("optimise"))
    );
    let history = v["improvements"].as_array().unwrap();
    assert_eq!(history.last().unwrap()["value"], 11);
    assert!(history.iter().all(|i| i["s"].as_f64().unwrap() >= 0.0));
    // The ramp-up's local search meets the 11-clique before the search
    // starts.
    assert_eq!(history[0]["heuristic"], true, "{history:?}");
    // Without it (which turns the race off too, whatever --race says)
    // every improvement is the search's.
    for race in ["0", "2000000000"] {
        let w = json_of(&hysolve(&[
            "clique",
            graph,
            "--ramp-up",
            "0",
            "--race",
            race,
            "--json",
            "--quiet",
        ]));
        assert_eq!(w["objective"], 11);
        let history = w["improvements"].as_array().unwrap();
        assert!(
            history.iter().all(|i| i["heuristic"] == false),
            "--race {race}: {history:?}"
        );
    }
    let line = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(line.trim_end(), v["solution"].as_str().unwrap());
    assert_eq!(line.split_whitespace().count(), 11);
    // The decision variant.
    let v = json_of(&hysolve(&[
        "clique",
        graph,
        "--at-least",
        "9",
        "--json",
        "--quiet",
    ]));
    assert!(v["objective"].as_u64().unwrap() >= 9);
    let out = hysolve(&["clique", graph, "--at-least", "12"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("no solution"));
    // Counting cliques: a triangle has 7.
    let triangle = dir.path().join("t.col");
    std::fs::write(&triangle, "p edge 3 3\ne 1 2\ne 2 3\ne 1 3\n").unwrap();
    let v = json_of(&hysolve(&[
        "--mode",
        "count",
        "clique",
        triangle.to_str().unwrap(),
        "--json",
    ]));
    assert_eq!(v["solutions"], 7);
}

#[test]
fn hitori_grade_and_generate_by_difficulty() {
    let dir = tempfile::tempdir().unwrap();
    let out = hysolve(&["hitori", "--grade", "examples/hitori/seed/input-8x8.txt"]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("look-ahead: 1 cells decided (row 1 column 1 shaded)"),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .last()
            .unwrap()
            .starts_with("hard (64 deductions"),
        "{stdout}"
    );
    let last = |args: &[&str]| {
        let out = hysolve(args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .last()
            .unwrap()
            .to_owned()
    };
    assert!(
        last(&["hitori", "--grade", "examples/hitori/seed/test-20x20.txt"])
            .starts_with("needs search")
    );
    for difficulty in ["easy", "hard"] {
        for seed in ["1", "2", "3"] {
            let path = dir.path().join(format!("{difficulty}-{seed}.txt"));
            let p = path.to_str().unwrap();
            let args = [
                "--quiet",
                "generate",
                "hitori",
                "--size",
                "20",
                "--seed",
                seed,
                "--difficulty",
                difficulty,
                "--out",
                p,
            ];
            assert!(hysolve(&args).status.success());
            let first = std::fs::read_to_string(&path).unwrap();
            assert!(hysolve(&args).status.success());
            assert_eq!(
                std::fs::read_to_string(&path).unwrap(),
                first,
                "same seed, same puzzle"
            );
            let v = json_of(&hysolve(&["--mode", "unique", "hitori", p, "--json"]));
            assert_eq!(v["answer"], "unique", "{difficulty} seed {seed}");
            assert!(
                last(&["hitori", "--grade", p]).starts_with(&format!("{difficulty} (")),
                "{difficulty} seed {seed}"
            );
        }
    }
    assert_one_line_error(
        &[
            "generate",
            "hitori",
            "--size",
            "8",
            "--difficulty",
            "fiendish",
        ],
        "unknown difficulty 'fiendish'",
    );
}

/// `--anomaly`: the run's nodes over those of the search on one thread
/// alone from a ramp-up of one racer (`optimum`), the same reference
/// for every configuration; on stderr with `--stats`, in `--json`; refused
/// where every run visits the same nodes.
#[test]
fn the_anomaly_is_the_runs_nodes_over_one_threads() {
    use hysolve::advanced::{optimum, ramp_up};
    use hysolve_puzzles::clique::{Clique, dimacs};
    let path = common::root().join("tests/data/clique/brock200_2.clq");
    let graph = dimacs::read(&path).unwrap().graph;
    let clique = Clique::new(&graph, "brock200_2");
    let (alone, best) = optimum(&clique, ramp_up(&clique, 1_000_000, 1));
    assert_eq!(best.map(|b| b.0), Some(12));
    let file = path.to_str().unwrap();
    for threads in ["1", "2"] {
        let args = [
            "--threads",
            threads,
            "--ramp-up",
            "1000000",
            "--anomaly",
            "--stats",
            "--json",
            "clique",
            file,
        ];
        let out = hysolve(&args);
        assert!(out.status.success(), "{args:?}");
        let v = json_of(&out);
        let a = &v["anomaly"];
        assert_eq!(a["sequential_nodes"].as_u64(), Some(alone.nodes), "{v}");
        assert_eq!(a["nodes"], v["nodes"], "{v}");
        let ratio = v["nodes"].as_f64().unwrap() / alone.nodes as f64;
        assert!((a["ratio"].as_f64().unwrap() - ratio).abs() < 1e-9, "{v}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let line = format!(
            "over {} nodes of the search on one thread alone",
            alone.nodes
        );
        assert!(stderr.contains(&line), "{stderr}");
    }
    let out = hysolve(&["--stats", "clique", file]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("anomaly: not measured"));
    // Alone, on stderr after the answer; in unique mode too.
    let out = hysolve(&["--anomaly", "--quiet", "--mode", "unique", "queens", "6"]);
    assert!(out.status.success());
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(stdout.contains("multiple solutions"), "{stdout}");
    assert!(stderr.starts_with("anomaly: "), "{stderr}");
    assert_one_line_error(&["--anomaly", "queens", "8"], "--anomaly compares");
    assert_one_line_error(
        &["--anomaly", "--at-least", "5", "clique", file],
        "not with --at-least or --resume",
    );
}
