//! The library's layers point down only: `engine` <- `cluster` <-
//! `problems`, with `input` and `output` leaves that any layer may use and
//! that use nothing. (The app, the `hysolve-cli` package, sits above them
//! all: the library cannot name it.) Read from the sources: every
//! `crate::` path outside doc comments and test modules. And the app's
//! sources hold no unit tests, which its build would never run.

use std::collections::BTreeSet;
use std::path::Path;

/// Each top-level module, with the modules it may use.
const ALLOWED: [(&str, &[&str]); 5] = [
    ("input", &[]),
    ("output", &[]),
    ("engine", &["input", "output"]),
    ("cluster", &["engine", "input", "output"]),
    ("problems", &["engine", "input", "output"]),
];

/// The top-level modules named by `crate::` paths in `text`, leaving out
/// doc comments and everything from the first `#[cfg(test)]` on.
fn uses(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = BTreeSet::new();
    for line in code.lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if name.is_empty() {
                // `crate::{a, b}`: each name in the braces.
                let inner = rest.trim_start_matches('{');
                let end = inner.find('}').unwrap_or(inner.len());
                for part in inner[..end].split(',') {
                    let first = part.trim().split("::").next().unwrap_or("");
                    if !first.is_empty() {
                        found.insert(first.to_string());
                    }
                }
            } else {
                found.insert(name);
            }
        }
    }
    found
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_library_layers_point_down_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let tops: Vec<&str> = ALLOWED.iter().map(|(m, _)| *m).collect();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (module, allowed) in ALLOWED {
        let mut list = Vec::new();
        let dir = src.join(module);
        if dir.is_dir() {
            files(&dir, &mut list);
        } else {
            list.push(src.join(format!("{module}.rs")));
        }
        for file in list {
            let text = std::fs::read_to_string(&file).unwrap();
            checked += 1;
            for used in uses(&text) {
                let is_layer = tops.contains(&used.as_str());
                if is_layer && used != module && !allowed.contains(&used.as_str()) {
                    wrong.push(format!("{} uses crate::{used}", file.display()));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} files read");
    assert!(
        wrong.is_empty(),
        "layers crossed upward:\n{}",
        wrong.join("\n")
    );
}

/// The command line's library builds no unit-test binary (`test = false`
/// in `cli/Cargo.toml`: that build compiles every puzzle's search again).
/// So a unit test written in `cli/src` would never run: its tests belong
/// in `cli/tests` or in doc examples.
#[test]
fn the_command_lines_sources_hold_no_unit_tests() {
    let mut list = Vec::new();
    files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("cli/src"),
        &mut list,
    );
    assert!(list.len() > 10, "only {} files read", list.len());
    let with: Vec<String> = list
        .iter()
        .filter(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            text.contains("#[test]") || text.contains("#[cfg(test)]")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        with.is_empty(),
        "unit tests that would never run (cli/Cargo.toml: test = false): {}",
        with.join(", ")
    );
}

#[test]
fn every_top_level_module_has_a_layer() {
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    for line in lib.lines() {
        if let Some(name) = line
            .strip_prefix("pub mod ")
            .or_else(|| line.strip_prefix("mod "))
        {
            let name = name.trim_end_matches(';');
            assert!(
                ALLOWED.iter().any(|(m, _)| *m == name),
                "src/lib.rs declares `{name}`, which has no layer here"
            );
        }
    }
}

#[test]
fn the_reader_sees_paths_in_braces_and_skips_comments_and_tests() {
    let text = "use crate::engine::Mode;\nuse crate::{input::x, text};\n/// crate::cluster\nfn f() { crate::problems::g() }\n#[cfg(test)]\nuse crate::cluster::y;\n";
    let got: Vec<String> = uses(text).into_iter().collect();
    assert_eq!(got, ["engine", "input", "problems", "text"]);
}
