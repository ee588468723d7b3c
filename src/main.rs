//! The `raven` binary: parse the command line, run, map errors to exit codes.

use clap::Parser;

fn main() {
    let cli = raven::cli::Cli::parse();
    if let Err(error) = raven::cli::run(cli) {
        eprintln!("raven: error: {error}");
        std::process::exit(error.exit_code());
    }
}
