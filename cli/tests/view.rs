//! `hysolve view`: pages and pictures of solutions files, checked from
//! their DOM in headless Chromium (Debian's `chromium`; `make deps`
//! installs it) and from the SVG text.

use crate::common;

use common::{hysolve, read_solutions, run_with_timeout};
use hysolve_cli::view::svg::{Style, draw};
use hysolve_cli::view::{Cell, Fill, Picture};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs hysolve and asserts it succeeded.
fn ok(args: &[&str]) {
    let out = hysolve(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The piece letter at (row, col) of a 2D packing solution's text.
fn letter_at(solution: &str, row: usize, col: usize) -> String {
    solution
        .lines()
        .nth(row)
        .unwrap()
        .chars()
        .nth(col)
        .unwrap()
        .to_string()
}

/// The Chromium binary, which `make deps` installs.
fn chromium() -> PathBuf {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if let Ok(out) = Command::new("sh")
            .args(["-c", &format!("command -v {name}")])
            .output()
            && out.status.success()
        {
            return PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        }
    }
    panic!("no chromium on this machine: `make deps` installs it (apt-get install chromium)");
}

fn headless(extra: &[&str], page: &Path) -> String {
    let mut cmd = Command::new(chromium());
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--hide-scrollbars",
    ])
    .args(extra)
    .arg(format!("file://{}", page.display()));
    let out = run_with_timeout(cmd, Duration::from_secs(90));
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Clicks "next" in the page, jumps to a solution, and records what the DOM
/// then shows in `<pre id="test-result">` (as JSON).
const PROBE: &str = r#"<script>
(function () {
  var r = { loaded_ms: performance.now(), before: document.body.dataset.shown };
  document.getElementById('next').click();
  r.after = document.body.dataset.shown;
  var two = document.getElementById('solution-2');
  r.only_two_visible = !two.hidden && document.querySelectorAll('figure.solution:not([hidden])').length === 1;
  r.piece_0_0 = two.querySelector('[data-cell="0,0"]').dataset.piece;
  r.piece_5_9 = two.querySelector('[data-cell="5,9"]').dataset.piece;
  r.position = document.getElementById('position').textContent;
  r.legend = document.querySelectorAll('#legend [data-legend]').length;
  document.getElementById('jump').value = '57';
  document.getElementById('go').click();
  r.jumped = document.body.dataset.shown;
  document.getElementById('jump').value = '140';
  document.getElementById('go').click();
  r.outside = document.getElementById('message').textContent;
  document.getElementById('prev').click();
  r.back = document.body.dataset.shown;
  document.getElementById('jump').value = '2';
  document.getElementById('go').click();
  var pre = document.createElement('pre');
  pre.id = 'test-result';
  pre.textContent = JSON.stringify(r);
  document.body.appendChild(pre);
})();
</script>
</body>"#;

#[test]
fn pentomino_page_in_chromium_shows_solution_2_after_next() {
    let dir = tempfile::tempdir().unwrap();
    let solutions = dir.path().join("pentominoes.txt");
    ok(&[
        "--mode",
        "all",
        "--limit",
        "150",
        "--out",
        path_str(&solutions),
        "pack",
        "--pieces",
        "pentominoes",
        "--board",
        "10x6",
    ]);
    let texts = read_solutions(&solutions);
    assert_eq!(texts.len(), 150);
    let page = dir.path().join("page.html");
    ok(&["view", path_str(&solutions), "-o", path_str(&page)]);
    let html = std::fs::read_to_string(&page).unwrap();

    // Self-contained: nothing the browser would fetch.
    for banned in [
        "http:", "https:", "<link", " src=", "url(", "@import", "//cdn",
    ] {
        assert!(!html.contains(banned), "the page refers to '{banned}'");
    }
    assert_eq!(html.matches("<figure class=\"solution\"").count(), 100);
    assert!(html.contains("solutions 1 to 100 of the 150 in the file"));

    // The page with a probe that clicks, in a real browser.
    let probe = dir.path().join("probe.html");
    std::fs::write(&probe, html.replacen("</body>", PROBE, 1)).unwrap();
    let dom = headless(&["--dump-dom"], &probe);
    let marker = "<pre id=\"test-result\">";
    let start = dom.find(marker).expect("the probe ran") + marker.len();
    let json = &dom[start..start + dom[start..].find("</pre>").unwrap()];
    let r: serde_json::Value = serde_json::from_str(&json.replace("&amp;", "&")).unwrap();
    assert_eq!(r["before"], "1", "{r}");
    assert_eq!(r["after"], "2", "next shows solution 2: {r}");
    assert_eq!(r["only_two_visible"], true, "{r}");
    assert_eq!(r["piece_0_0"], letter_at(&texts[1], 0, 0), "{r}");
    assert_eq!(r["piece_5_9"], letter_at(&texts[1], 5, 9), "{r}");
    assert_eq!(r["position"], "Solution 2 (2 of 100 on this page)", "{r}");
    assert_eq!(r["legend"], 12, "one legend entry per pentomino: {r}");
    assert_eq!(r["jumped"], "57", "{r}");
    assert!(r["outside"].as_str().unwrap().contains("--from 140"), "{r}");
    assert_eq!(r["back"], "56", "{r}");
    let load_ms = r["loaded_ms"].as_f64().unwrap();
    eprintln!("100-solution page parsed and scripted in {load_ms:.0} ms");
    assert!(load_ms < 1000.0, "the page took {load_ms} ms to load");

    // A screenshot of solution 2, kept in the test's output folder.
    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("view");
    std::fs::create_dir_all(&shots).unwrap();
    let shot = shots.join("pentominoes-solution-2.png");
    let _ = std::fs::remove_file(&shot);
    headless(
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1000,760",
        ],
        &probe,
    );
    let png = std::fs::read(&shot).expect("chromium wrote the screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 5000,
        "{}",
        shot.display()
    );
    eprintln!("screenshot: {}", shot.display());
}

#[test]
fn one_solution_as_svg() {
    let dir = tempfile::tempdir().unwrap();
    let solutions = dir.path().join("iqfit.txt");
    ok(&[
        "--mode",
        "all",
        "--limit",
        "5",
        "--out",
        path_str(&solutions),
        "pack",
        "--pieces",
        "iqfit",
        "--board",
        "11x5",
    ]);
    let texts = read_solutions(&solutions);
    let svg_path = dir.path().join("three.svg");
    ok(&[
        "view",
        path_str(&solutions),
        "--svg",
        "3",
        "-o",
        path_str(&svg_path),
    ]);
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    assert!(svg.starts_with(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""
    ));
    assert!(svg.trim_end().ends_with("</svg>"));
    for (r, c) in [(0, 0), (4, 10), (2, 5)] {
        let want = format!(
            "data-cell=\"{r},{c}\" data-piece=\"{}\"",
            letter_at(&texts[2], r, c)
        );
        assert!(svg.contains(&want), "{want}");
    }
    assert_eq!(svg.matches("data-piece=").count(), 55);
    // Default name: beside the file.
    ok(&["view", path_str(&solutions), "--svg", "1"]);
    assert!(dir.path().join("iqfit.txt-1.svg").exists());
}

#[test]
fn every_kind_of_solutions_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name);
    // N-Queens 6: 4 boards.
    ok(&[
        "--mode",
        "all",
        "--out",
        path_str(&p("q6.txt")),
        "queens",
        "6",
    ]);
    ok(&["view", path_str(&p("q6.txt"))]);
    let html = std::fs::read_to_string(p("q6.txt.html")).unwrap();
    assert!(html.contains("This page holds all 4 solutions"));
    assert_eq!(html.matches("data-queen=\"1\"").count(), 24);
    assert!(html.contains("data-kind=\"Queens\""));

    // Hitori, with the puzzle's numbers.
    let puzzle = "examples/hitori/gen-10x10.txt";
    let shaded = common::root().join("examples/hitori/gen-10x10.solution");
    ok(&[
        "view",
        path_str(&shaded),
        "--puzzle",
        puzzle,
        "-o",
        path_str(&p("h.html")),
    ]);
    let html = std::fs::read_to_string(p("h.html")).unwrap();
    let text = std::fs::read_to_string(&shaded).unwrap();
    let first = text.lines().next().unwrap();
    for (c, ch) in first.chars().enumerate() {
        let want = format!(
            "data-cell=\"0,{c}\" data-shaded=\"{}\"",
            u8::from(ch == '#')
        );
        assert!(html.contains(&want), "{want}");
    }
    let numbers = std::fs::read_to_string(common::root().join(puzzle)).unwrap();
    let n00 = numbers.split_whitespace().next().unwrap();
    assert!(
        html.contains(&format!(">{n00}</text>")),
        "numbers in the cells"
    );

    // Magic squares: the 8 of order 3.
    ok(&[
        "--mode",
        "all",
        "--out",
        path_str(&p("m3.txt")),
        "magic",
        "--empty",
        "3",
    ]);
    ok(&["view", path_str(&p("m3.txt"))]);
    let html = std::fs::read_to_string(p("m3.txt.html")).unwrap();
    assert_eq!(html.matches("magic sum 15").count(), 8);

    // Soma: 3D, layers side by side.
    ok(&[
        "--mode",
        "all",
        "--limit",
        "3",
        "--out",
        path_str(&p("soma.txt")),
        "pack",
        "--pieces",
        "soma",
        "--board",
        "3x3x3",
    ]);
    ok(&[
        "view",
        path_str(&p("soma.txt")),
        "--svg",
        "2",
        "-o",
        path_str(&p("soma.svg")),
    ]);
    let svg = std::fs::read_to_string(p("soma.svg")).unwrap();
    let soma = read_solutions(&p("soma.txt"));
    let line = soma[1].lines().next().unwrap();
    let layer2 = line.split(' ').nth(2).unwrap();
    let want = format!("data-cell=\"2,0,1\" data-piece=\"{}\"", &layer2[1..2]);
    assert!(svg.contains(&want), "{want}");
    assert!(svg.contains(">layer 3</text>"));

    // A range of a longer file.
    ok(&[
        "view",
        path_str(&p("q6.txt")),
        "--from",
        "3",
        "--count",
        "2",
        "-o",
        path_str(&p("r.html")),
    ]);
    let html = std::fs::read_to_string(p("r.html")).unwrap();
    assert!(html.contains("id=\"solution-3\"") && html.contains("id=\"solution-4\""));
    assert!(!html.contains("id=\"solution-2\""));
}

#[test]
fn bad_solutions_files_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let cases: Vec<(String, Vec<&str>, &str)> = vec![
        (
            write("ragged.txt", b"AAB\nCB\n"),
            vec![],
            "ragged.txt:2: solution 1: layer rows must all be 3 cells wide",
        ),
        (
            write("queens.txt", b"Q.\n.Q\n\nQQ\n..\n"),
            vec![],
            "queens.txt:4: solution 2: a row needs exactly one queen",
        ),
        (
            write("empty.txt", b"\n\n"),
            vec![],
            "empty.txt: holds no solution",
        ),
        (
            write("binary.txt", b"AB\n\xff\xfe\n"),
            vec![],
            "binary.txt:2: not UTF-8 text",
        ),
        (
            write("short.txt", b"AB\nBA\n"),
            vec!["--from", "5"],
            "short.txt: holds 1 solution(s): there is no solution 5",
        ),
        (
            write("hit.txt", b"#.\n.#\n"),
            vec!["--puzzle", "examples/hitori/gen-10x10.txt"],
            "solution 1 is 2x2 but the puzzle",
        ),
        (
            write("magic.txt", b"1 2\n3\n"),
            vec!["--kind", "magic"],
            "magic.txt:2: solution 1: a square of 2 rows needs 2 numbers a row",
        ),
        (
            // Numbers whose row sum does not fit in 64 bits: the page's
            // "magic sum" would overflow.
            write(
                "huge.txt",
                b"1 2\n3 4\n\n18446744073709551615 1\n1 18446744073709551615\n",
            ),
            vec!["--kind", "magic", "--count", "2"],
            "huge.txt:4: solution 2: the row's numbers add up to more than 2^64 - 1",
        ),
    ];
    for (file, extra, needle) in cases {
        let mut args = vec!["view", file.as_str()];
        args.extend(extra);
        let out = hysolve(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"));
    }
    let out = hysolve(&["view", "/nonexistent/solutions.txt"]);
    assert!(!out.status.success());
    let out = hysolve(&["view", dir.path().to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a directory"));
}

fn piece(l: char) -> Cell {
    let mut c = Cell::new(Fill::Label(l))
        .data("data-piece", l)
        .text(l, None);
    c.group = Some(l);
    c
}

/// The SVG of a picture, from its text: every cell named by its place,
/// pieces labelled and outlined, holes without a piece, layers captioned.
#[test]
fn cells_carry_their_content() {
    let hole = || Cell::new(Fill::Colour("#f4f4f4")).stroke("#ddd");
    let p = Picture::flat(vec![
        vec![piece('A'), piece('A'), piece('B')],
        vec![piece('C'), hole(), piece('&')],
    ]);
    let style = Style::for_pictures(std::slice::from_ref(&p));
    let svg = draw(&p, &style, true);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains("data-cell=\"0,2\" data-piece=\"B\""));
    assert!(svg.contains("data-cell=\"1,2\" data-piece=\"&amp;\""));
    assert!(svg.contains("data-cell=\"1,1\" x="), "a hole has no piece");
    assert_eq!(svg.matches("data-piece=").count(), 5);
    assert!(svg.contains("<path d=\"M"), "pieces are outlined");
    assert!(!draw(&p, &style, false).contains("xmlns"));
    let layered = Picture {
        layers: vec![vec![vec![piece('a')]], vec![vec![piece('b')]]],
        caption: String::new(),
    };
    let svg = draw(&layered, &Style::default(), false);
    assert!(svg.contains("data-cell=\"1,0,0\" data-piece=\"b\""));
    assert!(svg.contains(">layer 2</text>"));
}
