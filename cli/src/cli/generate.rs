//! `hysolve generate PUZZLE ...`: the instance on stdout, or in `--out FILE`
//! with its solution beside it (`FILE` with the extension `.solution`).

use super::{CliError, Common, GenerateArgs};
use clap::ArgMatches;
use clap::FromArgMatches;
use hysolve::advanced::output::write_atomically;

pub(super) fn generate(matches: &ArgMatches, g: &Common) -> Result<(), CliError> {
    let Some((name, args)) = matches.subcommand() else {
        return Err(CliError::Usage("generate: name a puzzle".into()));
    };
    let generator = crate::doors::find(name)
        .and_then(|p| p.generator())
        .ok_or_else(|| CliError::Usage(format!("generate: no generator for '{name}'")))?;
    let own = GenerateArgs::from_arg_matches(args)?;
    let made = (generator.make)(args)?;
    match &own.out {
        Some(path) => {
            write_atomically(path, made.text.as_bytes())?;
            if let Some(solution) = &made.solution {
                write_atomically(&path.with_extension("solution"), solution.as_bytes())?;
            }
        }
        None => print!("{}", made.text),
    }
    if let Some(summary) = &made.summary
        && !g.quiet
    {
        eprintln!("{summary}");
    }
    if let (Some(json), true) = (&made.json, g.json) {
        println!("{json}");
    }
    Ok(())
}
