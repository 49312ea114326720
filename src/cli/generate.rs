//! `hysolve generate PUZZLE ...`: the instance on stdout, or in `--out FILE`
//! with its solution beside it (`FILE` with the extension `.solution`).

use super::{CliError, Global};
use crate::cluster::FileSink;
use clap::ArgMatches;

pub(super) fn generate(matches: &ArgMatches, g: &Global) -> Result<(), CliError> {
    let Some((name, args)) = matches.subcommand() else {
        return Err(CliError::Usage("generate: name a puzzle".into()));
    };
    let generator = crate::problems::find(name)
        .and_then(|p| p.generator())
        .ok_or_else(|| CliError::Usage(format!("generate: no generator for '{name}'")))?;
    let made = (generator.make)(args)?;
    match &g.out {
        Some(path) => {
            FileSink::write_atomically(path, made.text.as_bytes())?;
            if let Some(solution) = &made.solution {
                FileSink::write_atomically(&path.with_extension("solution"), solution.as_bytes())?;
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
