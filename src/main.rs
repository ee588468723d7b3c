//! The `raven` binary: parse the command line, run, map errors to exit codes.

use clap::Parser;
use clap::error::ErrorKind;

fn main() {
    let cli = match raven::cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => match error.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => error.exit(),
            // One line: what is wrong and what is allowed (clap's first line), exit 2.
            _ => {
                let rendered = error.render().to_string();
                let line = rendered.lines().next().unwrap_or("invalid arguments");
                let line = line.strip_prefix("error: ").unwrap_or(line);
                eprintln!("raven: error: {line} (see --help)");
                std::process::exit(2);
            }
        },
    };
    if let Err(error) = raven::cli::run(cli) {
        eprintln!("raven: error: {error}");
        std::process::exit(error.exit_code());
    }
}
