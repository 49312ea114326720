fn main() -> std::process::ExitCode {
    hysolve::cli::main()
}
