//! The `raven` binary: parse the command line, run, map errors to exit codes.

use std::io::Write as _;

use clap::Parser;

fn main() {
    raven::memory::hand_back_large_blocks();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let (game, args) = match raven::cli::game_of(&args) {
        Ok(found) => found,
        Err(message) => {
            let _ = writeln!(std::io::stderr(), "raven: error: {message}");
            std::process::exit(2);
        }
    };
    if game == "annulus" {
        let cli = match raven::cli::annulus::Cli::try_parse_from(&args) {
            Ok(cli) => cli,
            Err(error) => error.exit(),
        };
        if let Err(error) = raven::cli::annulus::run(cli) {
            let _ = writeln!(std::io::stderr(), "raven: error: {error}");
            std::process::exit(error.exit_code());
        }
        return;
    }
    let cli = match raven::cli::Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        // Help and version on standard output (exit 0); every usage error with clap's whole
        // message — what is wrong, the usage line, "a similar argument exists" tips — on
        // standard error, exit 2. Clap ignores a closed pipe on either stream.
        Err(error) => error.exit(),
    };
    if let Err(error) = raven::cli::run(cli) {
        // Not `eprintln!`, which panics when standard error is a closed pipe.
        let _ = writeln!(std::io::stderr(), "raven: error: {error}");
        std::process::exit(error.exit_code());
    }
}
