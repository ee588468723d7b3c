//! `raven strategies`: list the built-in and bundled strategies; `raven strategies check`
//! validates strategy files.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use crate::error::{Error, Result};
use crate::report::table;
use crate::strategy::{Origin, registry};

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
    /// `file:line:column: message` at the first bad one; warns (on stderr) of a rule that an
    /// earlier one shadows entirely, naming both lines.
    Check {
        /// The strategy files (TOML).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
}

/// The listing of `raven strategies`, from the strategy registry.
pub fn listing() -> String {
    let entries = registry();
    let width = entries.iter().map(|e| e.name.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (origin, heading) in [
        (Origin::BuiltIn, "built-in:"),
        (Origin::Bundled, "bundled (strategies/*.toml):"),
    ] {
        let _ = writeln!(out, "{heading}");
        for e in entries.iter().filter(|e| e.origin == origin) {
            // Descriptions wrap under themselves, so the listing fits a 100-column terminal.
            let indent = width + 4;
            let mut line = format!("  {:<width$} ", e.name);
            for word in e.description.split_whitespace() {
                if line.chars().count() + 1 + word.chars().count() > table::WIDTH {
                    let _ = writeln!(out, "{line}");
                    line = " ".repeat(indent - 1);
                }
                line.push(' ');
                line.push_str(word);
            }
            let _ = writeln!(out, "{line}");
        }
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
                let strategy =
                    crate::load::strategy_file(file).map_err(|e| Error::Input(e.to_string()))?;
                // A rule that can never decide is a slip, not an error: the file plays.
                for warning in strategy.warnings() {
                    eprintln!("{warning}");
                }
                to_stdout(format!("ok {}\n", file.display()).as_bytes())?;
            }
            Ok(())
        }
    }
}
