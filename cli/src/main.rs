fn main() -> std::process::ExitCode {
    hysolve_cli::cli::main()
}
