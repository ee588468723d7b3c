//! `raven completions SHELL` and `raven man`: shell completions and manual pages generated
//! from the clap definition itself, so they can never disagree with `--help` (the way
//! ripgrep and hyperfine ship theirs).

use std::io::Write as _;
use std::path::PathBuf;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use crate::error::{Error, Result};

use super::Cli;
use super::output::{OutDir, to_stdout};

/// Arguments of `raven completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Arguments of `raven man`.
#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write one page per command (`raven.1`, `raven-simulate.1`, …) into this directory
    /// (made if missing; pages there that raven did not write are refused without `--force`)
    /// instead of printing `raven.1` on standard output.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// With `--dir`: replace pages that raven did not write (never read-only ones).
    #[arg(long, requires = "dir")]
    pub force: bool,
}

/// Prints the completion script for `args.shell` on standard output.
pub fn completions(args: &CompletionsArgs) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "raven", &mut script);
    to_stdout(&script)
}

/// Prints the manual page, or writes every page into `--dir`.
pub fn man(args: &ManArgs) -> Result<()> {
    let command = Cli::command();
    match &args.dir {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command)
                .render(&mut page)
                .map_err(|e| Error::Runtime(format!("cannot render the manual page: {e}")))?;
            to_stdout(&page)
        }
        Some(dir) => {
            // Built beside the directory and swapped in, as a report is (see `OutDir`).
            let out = OutDir::reserve(dir, args.force)?;
            clap_mangen::generate_to(command, out.staging()).map_err(|e| {
                Error::Runtime(format!(
                    "cannot write manual pages into {}: {e}",
                    dir.display()
                ))
            })?;
            out.commit()?;
            let mut stdout = std::io::stdout();
            let _ = writeln!(stdout, "manual pages written to {}", dir.display());
            Ok(())
        }
    }
}
