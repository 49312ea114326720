//! `docs/cli.md`, the command-line reference, is what the code defines:
//! every command's `--help` (`hysolve_cli::cli::reference`).

use crate::common;

#[test]
fn the_cli_reference_is_the_codes() {
    let path = common::root().join("docs/cli.md");
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    let code = hysolve_cli::cli::reference();
    if written != code {
        let line = written
            .lines()
            .zip(code.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(written.lines().count().min(code.lines().count()));
        panic!(
            "{} differs from the code from line {}: run `make cli-reference`",
            path.display(),
            line + 1
        );
    }
}

/// Every puzzle, generator and `view` has its section.
#[test]
fn the_cli_reference_has_every_command() {
    let code = hysolve_cli::cli::reference();
    for puzzle in hysolve_cli::doors::PUZZLES {
        assert!(
            code.contains(&format!("\n## `hysolve {}`\n", puzzle.name())),
            "{} has no section",
            puzzle.name()
        );
    }
    assert!(code.contains("\n## `hysolve view`\n"));
    assert!(code.contains("\n## `hysolve generate hitori`\n"));
}
