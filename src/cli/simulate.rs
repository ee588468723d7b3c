//! `raven simulate`: Monte Carlo win rates per starting stealth.
//!
//! Inputs are checked and the output file is opened *before* any game is played, so a typo
//! or an unwritable path fails in milliseconds; the CSV file appears only when every row is
//! in it (written to a temporary file, renamed at the end).

use std::io::Write;
use std::path::Path;

use clap::Args;

use crate::engine::{Job, simulate};
use crate::error::{Error, Result};
use crate::report::csv::{AtomicFile, SummaryRow, write_rows};
use crate::report::{Summary, table};
use crate::rules::Rules;

use super::args::{RulesArgs, RunArgs, load_strategy};
use super::interrupt;
use super::progress::Progress;

/// Arguments of `raven simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Strategy: a built-in name or a strategy file.
    #[arg(long, default_value = "reference")]
    pub strategy: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// Where the results go.
enum Output {
    /// The table on standard output.
    Table,
    /// The table on standard output and CSV in a file.
    TableAndFile(AtomicFile),
    /// CSV on standard output (`--out -`), no table.
    CsvStdout,
}

impl Output {
    /// Opens the destination named by `--out`; an unwritable path fails here (exit 2).
    fn open(out: Option<&Path>) -> Result<Output> {
        Ok(match out {
            None => Output::Table,
            Some(path) if path == Path::new("-") => Output::CsvStdout,
            Some(path) => Output::TableAndFile(AtomicFile::create(path)?),
        })
    }

    /// Writes the results; the file, if any, is committed only after all of it is written.
    fn write(self, header: &str, rows: &[Summary]) -> Result<()> {
        let csv_rows = || rows.iter().map(SummaryRow::from);
        match self {
            Output::Table => print_table(header, rows),
            Output::TableAndFile(mut file) => {
                write_rows(file.writer(), csv_rows())?;
                file.commit()?;
                print_table(header, rows)
            }
            Output::CsvStdout => {
                let mut buffer = Vec::new();
                write_rows(&mut buffer, csv_rows())?;
                to_stdout(&buffer)
            }
        }
    }
}

fn print_table(header: &str, rows: &[Summary]) -> Result<()> {
    to_stdout(format!("{header}\n\n{}", table::summaries(rows)).as_bytes())
}

/// Writes to standard output; a closed pipe (`raven simulate | head`) is not an error.
fn to_stdout(bytes: &[u8]) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Error::Runtime(format!(
            "cannot write to standard output: {e}"
        ))),
        _ => Ok(()),
    }
}

/// The line above the table: every input that determines the numbers.
pub fn header(strategy: &str, rules: &Rules, run: &RunArgs) -> String {
    format!(
        "raven {} simulate: strategy {strategy}; rules {rules} ({}); {} games per stealth; \
         seed {}; {}% Wilson intervals",
        env!("CARGO_PKG_VERSION"),
        rules.spelled_out(),
        run.games,
        run.seed,
        // Rounded so that e.g. 0.07 reads 7, not 7.000000000000001.
        (100.0 * run.confidence * 1e6).round() / 1e6,
    )
}

/// Runs `raven simulate`.
pub fn run(args: &SimulateArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let strategy = load_strategy(&args.strategy)?;
    let run = &args.run;
    // The handler goes in before the output file exists, so an early Ctrl-C still cleans up.
    let cancel = interrupt::flag();
    let output = Output::open(run.out.as_deref())?;
    let pool = run.pool()?;

    let total = run.games.saturating_mul(run.stealth.len() as u64);
    let progress = Progress::new(total, run.quiet);
    let advance = |games| progress.advance(games);
    let mut rows = Vec::with_capacity(run.stealth.len());
    for &stealth in &run.stealth {
        progress.label(format!("stealth {stealth}"));
        let job = Job {
            rules: &rules,
            strategy: strategy.as_ref(),
            stealth,
            games: run.games,
            seed: run.seed,
        };
        let tally = pool
            .install(|| simulate(&job, &advance, cancel))
            .map_err(|c| {
                progress.abandon();
                Error::from(c)
            })?;
        rows.push(Summary::from_tally(
            strategy.name(),
            rules,
            stealth,
            tally,
            run.seed,
            run.confidence,
        ));
    }
    progress.finish();
    output.write(&header(strategy.name(), &rules, run), &rows)
}
