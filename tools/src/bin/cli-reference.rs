//! Prints the command-line reference, `docs/cli.md`, as the code defines
//! it (`make cli-reference` writes it there).

fn main() {
    print!("{}", hysolve_cli::cli::reference());
}
