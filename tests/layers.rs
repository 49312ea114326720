//! The layers point down only. In the library (`src/`): `engine` is at
//! the bottom; `cluster` sits on it; `input` and `output` are leaves that
//! any layer may use and that use nothing. The puzzles (the
//! `hysolve-puzzles` package, `puzzles/src/`) sit on the engine and beside
//! the cluster layer: they name none of the names the library's root and
//! its `advanced` module take from `cluster` (the library cannot name the
//! puzzles: they depend on it). The app, the `hysolve-cli` package, sits
//! above them all.
//!
//! What is read: every `.rs` file under each layer's folder, whole, for
//! the `crate::` paths in its code (`use` items and paths in
//! expressions alike, `crate::{a, b::{c}}` groups over several lines
//! included), and in the puzzles the `hysolve::` paths alike. Left out:
//! comments (doc comments too), string and character literals, and test
//! modules: a `#[cfg(test)] mod name { ... }` block (to its matching
//! brace) and the file of a `#[cfg(test)] mod name;`. Any other
//! `#[cfg(test)]` item is read as code. A file on the allow-list below is
//! read but its named crossings are let through.
//!
//! And the app's sources hold no unit tests, which its build would never
//! run.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each top-level module, with the modules it may use.
const ALLOWED: [(&str, &[&str]); 4] = [
    ("input", &[]),
    ("output", &[]),
    ("engine", &["input", "output"]),
    ("cluster", &["engine", "input", "output"]),
];

/// The module of `src/lib.rs` that is no layer: `advanced` re-exports
/// names of every layer (it is the surface).
const INLINE: [&str; 1] = ["advanced"];

/// Known crossings, each a file (relative to `src/`) and the layer it may
/// name against `ALLOWED`, to be removed when the file is mended.
const EXCEPTIONS: &[(&str, &str)] = &[];

/// `text` with its comments, and the insides of its string and character
/// literals, turned to spaces (newlines kept): what is left is code.
fn code_of(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        let ident_before = i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            // Block comments nest.
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if c[i] == 'r' && !ident_before && matches!(next, Some('"' | '#')) && {
            let hashes = c[i + 1..].iter().take_while(|&&h| h == '#').count();
            c.get(i + 1 + hashes) == Some(&'"')
        } {
            // A raw string: r"...", r#"..."#, and so on.
            let hashes = c[i + 1..].iter().take_while(|&&h| h == '#').count();
            let open = 1 + hashes + 1;
            out.extend(&c[i..i + open]);
            i += open;
            while i < c.len() {
                if c[i] == '"'
                    && c[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == '#')
                        .count()
                        == hashes
                {
                    out.extend(&c[i..i + 1 + hashes]);
                    i += 1 + hashes;
                    break;
                }
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if c[i] == '"' {
            out.push('"');
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            if i < c.len() {
                out.push('"');
                i += 1;
            }
        } else if c[i] == '\'' && (next == Some('\\') || c.get(i + 2) == Some(&'\'')) {
            // A character literal ('{', '\'', '\u{7b}'), not a lifetime.
            out.push('\'');
            i += 1;
            while i < c.len() && c[i] != '\'' {
                if c[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            if i < c.len() {
                out.push('\'');
                i += 1;
            }
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// `code` (comments and literals already blanked) without its test
/// modules: each `#[cfg(test)]` followed, after any other attributes, by
/// `mod name { ... }` is blanked to the matching brace. Also the names of
/// the test modules declared as files (`#[cfg(test)] mod name;`).
fn without_test_modules(code: &str) -> (String, Vec<String>) {
    const MARK: &str = "#[cfg(test)]";
    let mut out = code.to_string();
    let mut files = Vec::new();
    let mut from = 0;
    while let Some(at) = out[from..].find(MARK).map(|i| i + from) {
        let mut rest = &out[at + MARK.len()..];
        // Other attributes between the mark and the item.
        loop {
            rest = rest.trim_start();
            if rest.starts_with("#[") {
                let close = rest.find(']').map_or(rest.len(), |i| i + 1);
                rest = &rest[close..];
            } else {
                break;
            }
        }
        for vis in ["pub(crate)", "pub(super)", "pub"] {
            if let Some(r) = rest.strip_prefix(vis) {
                rest = r.trim_start();
                break;
            }
        }
        let Some(after_mod) = rest.strip_prefix("mod ") else {
            from = at + MARK.len();
            continue;
        };
        let after_mod = after_mod.trim_start();
        let name: String = after_mod
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let tail = after_mod[name.len()..].trim_start();
        if tail.starts_with(';') {
            files.push(name);
            from = at + MARK.len();
            continue;
        }
        if !tail.starts_with('{') {
            from = at + MARK.len();
            continue;
        }
        let open = out.len() - tail.len();
        let mut depth = 0usize;
        let mut end = None;
        for (i, ch) in out[open..].char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(open + i + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        // Unbalanced, the rest of the file would go unread.
        let end = end.expect("a test module without its closing brace");
        let blanked: String = out[at..end]
            .chars()
            .map(|ch| if ch == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(at..end, &blanked);
        from = at + blanked.len();
    }
    (out, files)
}

/// The first segment of each path in a `use` group's braces, `inner` being
/// what follows the opening brace: `a::b, c::{d, e}, f}` gives a, c, f.
fn group_heads(inner: &str, found: &mut BTreeSet<String>) {
    let mut depth = 0usize;
    let mut item_start = true;
    for (i, ch) in inner.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' if depth == 0 => return,
            '}' => depth -= 1,
            ',' if depth == 0 => item_start = true,
            _ if item_start && (ch.is_alphanumeric() || ch == '_') => {
                let name: String = inner[i..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                found.insert(name);
                item_start = false;
            }
            _ => {}
        }
    }
}

/// The top-level modules named by `crate::` paths in the code of a source
/// file (see the module's documentation for what is left out), and the
/// test modules it declares as files.
fn read(text: &str) -> (BTreeSet<String>, Vec<String>) {
    let (code, test_files) = without_test_modules(&code_of(text));
    let mut found = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        rest = rest[i + "crate::".len()..].trim_start();
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            if let Some(inner) = rest.strip_prefix('{') {
                group_heads(inner, &mut found);
            }
        } else {
            found.insert(name);
        }
    }
    (found, test_files)
}

/// The top-level modules named by `crate::` paths in `text`'s code.
fn uses(text: &str) -> BTreeSet<String> {
    read(text).0
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

/// The files a `#[cfg(test)] mod name;` in `file` may live in.
fn test_module_files(file: &Path, name: &str) -> [PathBuf; 4] {
    let dir = file.parent().unwrap();
    let stem = file.file_stem().unwrap();
    // `foo.rs` and `foo/mod.rs` declare their children in `foo/`; `mod.rs`
    // and `lib.rs` in their own folder.
    let base = if stem == "mod" || stem == "lib" {
        dir.to_path_buf()
    } else {
        dir.join(stem)
    };
    [
        base.join(format!("{name}.rs")),
        base.join(name).join("mod.rs"),
        dir.join(format!("{name}.rs")),
        dir.join(name).join("mod.rs"),
    ]
}

/// Every crossing in `src`, as "file uses crate::layer", and the number of
/// files read.
fn crossings(src: &Path) -> (Vec<String>, usize) {
    let tops: Vec<&str> = ALLOWED.iter().map(|(m, _)| *m).collect();
    let mut read_files = 0;
    let mut wrong = Vec::new();
    for (module, allowed) in ALLOWED {
        let mut list = Vec::new();
        let dir = src.join(module);
        if dir.is_dir() {
            files(&dir, &mut list);
        } else {
            list.push(src.join(format!("{module}.rs")));
        }
        let mut skip: BTreeSet<PathBuf> = BTreeSet::new();
        let mut found = Vec::new();
        for file in &list {
            let (used, test_files) = read(&std::fs::read_to_string(file).unwrap());
            for name in test_files {
                skip.extend(test_module_files(file, &name));
            }
            found.push((file, used));
        }
        for (file, used) in found {
            if skip.contains(file) {
                continue;
            }
            read_files += 1;
            let relative = file.strip_prefix(src).unwrap().display().to_string();
            for layer in used {
                let crossing = tops.contains(&layer.as_str())
                    && layer != module
                    && !allowed.contains(&layer.as_str());
                let excepted = EXCEPTIONS.contains(&(relative.as_str(), layer.as_str()));
                if crossing && !excepted {
                    wrong.push(format!("src/{relative} uses crate::{layer}"));
                }
            }
        }
    }
    (wrong, read_files)
}

#[test]
fn the_library_layers_point_down_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (wrong, read_files) = crossings(&src);
    assert!(read_files > 50, "only {read_files} files read");
    assert!(
        wrong.is_empty(),
        "layers crossed upward:\n{}",
        wrong.join("\n")
    );
    // Nor does any of it name the puzzles, which sit above.
    let mut list = Vec::new();
    files(&src, &mut list);
    for file in list {
        let (code, _) = without_test_modules(&code_of(&std::fs::read_to_string(&file).unwrap()));
        assert!(
            !code.contains("hysolve_puzzles"),
            "{} names the puzzles",
            file.display()
        );
    }
}

/// Each allow-list entry names a file that exists and a crossing it still
/// makes: a mended file must leave the list.
#[test]
fn the_allow_list_holds_only_live_crossings() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (file, layer) in EXCEPTIONS {
        let text = std::fs::read_to_string(src.join(file))
            .unwrap_or_else(|e| panic!("allow-list: src/{file}: {e}"));
        assert!(
            uses(&text).contains(*layer),
            "allow-list: src/{file} no longer uses crate::{layer}"
        );
    }
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
            let name = name.trim_end_matches(';').trim_end_matches(" {");
            assert!(
                ALLOWED.iter().any(|(m, _)| *m == name) || INLINE.contains(&name),
                "src/lib.rs declares `{name}`, which has no layer here"
            );
        }
    }
}

#[test]
fn the_reader_sees_paths_in_braces_and_skips_comments_literals_and_test_modules() {
    let text = r##"use crate::engine::Mode;
use crate::{input::x, text::{a, b}};
/// crate::cluster
// crate::cluster
/* crate::cluster /* nested */ crate::cluster */
const S: &str = "crate::cluster { }";
const R: &str = r#"crate::cluster "}" "#;
const C: char = '}';
fn f<'a>(x: &'a str) { crate::problems::g() }
#[cfg(test)]
mod test {
    use crate::cluster::y;
    fn g() { let _ = '{'; let _ = "}"; }
}
#[cfg(test)]
mod fixtures;
"##;
    let (got, test_files) = read(text);
    let got: Vec<String> = got.into_iter().collect();
    assert_eq!(got, ["engine", "input", "problems", "text"]);
    assert_eq!(test_files, ["fixtures"]);
}

/// The reader of old stopped at the first `#[cfg(test)]`: an upward
/// import placed after a test item went unseen. Now only the test module
/// itself is left out, and what follows it is read.
#[test]
fn an_upward_import_after_a_test_item_is_caught() {
    let text = "use crate::engine::Mode;
#[cfg(test)]
fn helper() {}
#[cfg(test)]
mod test {
    use crate::engine::x;
}
use crate::{
    input::y,
    cluster::RunConfig,
};
";
    let got: Vec<String> = uses(text).into_iter().collect();
    assert_eq!(got, ["cluster", "engine", "input"]);

    // The same through the whole check, on the `engine` layer of a
    // synthetic source tree.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    for layer in ["engine", "cluster"] {
        std::fs::create_dir(src.join(layer)).unwrap();
    }
    for leaf in ["input", "output"] {
        std::fs::write(src.join(format!("{leaf}.rs")), "").unwrap();
    }
    std::fs::write(src.join("engine/mod.rs"), text).unwrap();
    let (wrong, read_files) = crossings(src);
    assert_eq!(read_files, 3);
    assert_eq!(wrong, ["src/engine/mod.rs uses crate::cluster"]);
}

/// A test module kept in a file of its own (`#[cfg(test)] mod fixtures;`)
/// is left out whole; a file that is not declared so is read.
#[test]
fn a_test_module_in_its_own_file_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    for layer in ["engine", "cluster"] {
        std::fs::create_dir(src.join(layer)).unwrap();
    }
    for leaf in ["input", "output"] {
        std::fs::write(src.join(format!("{leaf}.rs")), "").unwrap();
    }
    std::fs::write(
        src.join("engine/mod.rs"),
        "mod walk;\n#[cfg(test)]\nmod fixtures;\n",
    )
    .unwrap();
    std::fs::write(src.join("engine/fixtures.rs"), "use crate::cluster::x;\n").unwrap();
    std::fs::write(src.join("engine/walk.rs"), "use crate::cluster::y;\n").unwrap();
    let (wrong, read_files) = crossings(src);
    assert_eq!(read_files, 4);
    assert_eq!(wrong, ["src/engine/walk.rs uses crate::cluster"]);
}

/// The names of `hysolve::` paths in the code of a source file of the
/// puzzles, `hysolve::advanced::` read as `hysolve::` (test modules left
/// out, as in [`read`]).
fn hysolve_names(text: &str) -> BTreeSet<String> {
    let (code, _) = without_test_modules(&code_of(text));
    let mut found = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("hysolve::") {
        let ident_before = rest[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        rest = rest[i + "hysolve::".len()..].trim_start();
        if ident_before {
            continue;
        }
        if let Some(after) = rest.strip_prefix("advanced::") {
            rest = after.trim_start();
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty() {
            if let Some(inner) = rest.strip_prefix('{') {
                group_heads(inner, &mut found);
            }
        } else {
            found.insert(name);
        }
    }
    found
}

/// The names `lib.rs` re-exports from the cluster layer (at the root and
/// in `advanced`): `pub use cluster::{..}` and `pub use crate::cluster::..`.
fn cluster_names(lib: &str) -> BTreeSet<String> {
    let code = code_of(lib);
    let mut found = BTreeSet::new();
    for head in ["pub use cluster::", "pub use crate::cluster::"] {
        let mut rest = code.as_str();
        while let Some(i) = rest.find(head) {
            rest = &rest[i + head.len()..];
            match rest.strip_prefix('{') {
                Some(inner) => group_heads(inner, &mut found),
                None => {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    found.insert(name);
                }
            }
        }
    }
    found
}

/// Every file of `dir` that names one of `cluster`: "file uses hysolve::name".
fn puzzle_crossings(dir: &Path, cluster: &BTreeSet<String>) -> (Vec<String>, usize) {
    let mut list = Vec::new();
    files(dir, &mut list);
    let mut wrong = Vec::new();
    for file in &list {
        let names = hysolve_names(&std::fs::read_to_string(file).unwrap());
        for name in names.intersection(cluster) {
            let relative = file.strip_prefix(dir).unwrap().display();
            wrong.push(format!("puzzles/src/{relative} uses hysolve::{name}"));
        }
    }
    (wrong, list.len())
}

#[test]
fn the_puzzles_sit_on_the_engine_beside_the_cluster_layer() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let cluster = cluster_names(&lib);
    for name in ["run", "RunConfig", "run_threaded", "Checkpoint"] {
        assert!(cluster.contains(name), "{name} not read from src/lib.rs");
    }
    assert!(!cluster.contains("Mode"), "Mode is the engine's");
    let (wrong, read_files) = puzzle_crossings(&root.join("puzzles/src"), &cluster);
    assert!(read_files > 50, "only {read_files} files read");
    assert!(
        wrong.is_empty(),
        "the puzzles name the cluster layer:\n{}",
        wrong.join("\n")
    );
}

/// A puzzle that names the cluster layer, through the root or `advanced`,
/// in a group over lines, after a test item, is caught; its test module is
/// not read.
#[test]
fn a_puzzle_naming_the_cluster_layer_is_caught() {
    let cluster = cluster_names(
        "pub use cluster::{\n    Outcome, RunConfig,\n};\npub mod advanced {\n    pub use crate::cluster::run_threaded;\n}\n",
    );
    let got: Vec<&str> = cluster.iter().map(String::as_str).collect();
    assert_eq!(got, ["Outcome", "RunConfig", "run_threaded"]);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("lib.rs"),
        "use hysolve::{Mode, Problem};\n#[cfg(test)]\nfn helper() {}\n#[cfg(test)]\nmod test {\n    use hysolve::Outcome;\n}\nuse hysolve::advanced::{\n    sequential,\n    run_threaded,\n};\nfn f() { hysolve_puzzles::RunConfig; }\n",
    )
    .unwrap();
    let (wrong, read_files) = puzzle_crossings(dir.path(), &cluster);
    assert_eq!(read_files, 1);
    assert_eq!(wrong, ["puzzles/src/lib.rs uses hysolve::run_threaded"]);
}
