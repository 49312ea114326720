//! The command-line reference, `docs/cli.md`, written from the clap
//! definition itself: each command's `--help`, from `hysolve` down to every
//! puzzle, generator and `view`. `cli/tests/reference.rs` fails when the
//! file differs from the code; `make cli-reference` writes it again.

use clap::Command;

/// The whole reference, as `docs/cli.md` holds it.
pub fn reference() -> String {
    let mut out = String::from(
        "# hysolve command-line reference\n\n\
         Written from the code by `make cli-reference` (each command's \
         `--help`); `cli/tests/reference.rs` fails when this file differs \
         from it. How to use these is in [the manual](manual.md) and the \
         [README](../README.md).\n",
    );
    let mut root = super::command();
    root.build();
    section(&root, "hysolve", &mut out);
    out
}

/// `cmd`'s help under a heading `path`, then each of its subcommands'.
fn section(cmd: &Command, path: &str, out: &mut String) {
    let mut cmd = cmd.clone();
    let help = cmd.render_long_help().to_string();
    out.push_str(&format!("\n## `{path}`\n\n```text\n"));
    for line in help.trim_end().lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.push_str("```\n");
    for sub in cmd.get_subcommands() {
        if sub.get_name() == "help" {
            continue;
        }
        section(sub, &format!("{path} {}", sub.get_name()), out);
    }
}
