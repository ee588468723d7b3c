//! `raven strategies`: list the built-in and bundled strategies; `raven strategies check`
//! validates strategy files.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::error::{Error, Result};
use crate::strategy::{BUNDLED, FileStrategy, bundled};

use super::output::to_stdout;

/// Arguments of `raven strategies`.
#[derive(Args, Debug)]
pub struct StrategiesArgs {
    /// Without a subcommand: list the strategies `--strategy` accepts by name.
    #[command(subcommand)]
    pub command: Option<StrategiesCommand>,
}

/// The subcommands of `raven strategies`.
#[derive(Subcommand, Debug)]
pub enum StrategiesCommand {
    /// Validate strategy files: prints `ok FILE` for each, stops with exit code 2 and
    /// `file:line:column: message` at the first bad one.
    Check {
        /// The strategy files (TOML).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
}

/// The listing of `raven strategies`.
pub fn listing() -> String {
    let mut out = String::new();
    let _ = writeln!(out, "built-in:");
    let built_in = [
        ("reference", "RULES.md's reference strategy (built in code)"),
        ("random", "every decision uniformly among the legal options"),
    ];
    for (name, idea) in built_in {
        let _ = writeln!(out, "  {name:<16} {idea}");
    }
    let _ = writeln!(
        out,
        "bundled (strategies/*.toml; `reference.toml` names the bundled reference file):"
    );
    for (name, _) in BUNDLED {
        let strategy = bundled(name)
            .expect("a bundled name")
            .expect("bundled files are valid (tested)");
        let shown = if name == "reference" {
            "reference.toml"
        } else {
            name
        };
        let _ = writeln!(out, "  {shown:<16} {}", strategy.spec().description);
    }
    let _ = writeln!(
        out,
        "Any other --strategy is read as a strategy file; strategies/README.md documents the format."
    );
    out
}

/// Runs `raven strategies`.
pub fn run(args: &StrategiesArgs) -> Result<()> {
    match &args.command {
        None => to_stdout(listing().as_bytes()),
        Some(StrategiesCommand::Check { files }) => {
            for file in files {
                FileStrategy::from_path(file).map_err(|e| Error::Input(e.to_string()))?;
                to_stdout(format!("ok {}\n", file.display()).as_bytes())?;
            }
            Ok(())
        }
    }
}
