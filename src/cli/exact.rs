//! `raven exact`: the exact win probability (and every other reported figure) of a strategy,
//! by expectation over every outcome instead of sampling.

use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use crate::engine::exact_within;
use crate::error::{Error, Result};
use crate::report::{Method, Summary, csv, table};
use crate::strategy::REFERENCE;

use super::args::{ExactEngineArgs, RulesArgs, load_strategy, stealth_list};
use super::progress::Progress;

/// Arguments of `raven exact`.
#[derive(Args, Debug)]
pub struct ExactArgs {
    /// Strategy: a built-in name or a strategy file.
    #[arg(long, default_value = REFERENCE)]
    pub strategy: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub exact: ExactEngineArgs,
    /// Write tidy CSV here (`-` for standard output instead of the table).
    #[arg(long, value_name = "FILE|-")]
    pub out: Option<PathBuf>,
}

/// Runs `raven exact`.
pub fn run(args: &ExactArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let strategy = load_strategy(&args.strategy)?;
    let pool = args.exact.pool()?;
    let stealths = stealth_list(&args.exact.stealth);
    let progress = Progress::spinner(
        &format!(
            "exact: {} under {rules}, stealth {stealths}",
            strategy.name()
        ),
        args.exact.quiet,
    );
    let started = Instant::now();
    let result = pool.install(|| {
        exact_within(
            &rules,
            strategy.as_ref(),
            &args.exact.stealth,
            args.exact.budget(&[super::interrupt::flag()]),
        )
    });
    progress.finish();
    let result = result?;
    let seconds = started.elapsed().as_secs_f64();
    let rows: Vec<Summary> = args
        .exact
        .stealth
        .iter()
        .zip(&result.expectations)
        .map(|(&stealth, e)| {
            Summary::from_expectation(strategy.name(), rules, stealth, Method::Exact, *e)
        })
        .collect();
    let mut text = String::new();
    if !is_stdout(&args.out) {
        let inputs = [
            format!("strategy {}", strategy.name()),
            format!("rules {rules}"),
            format!("stealth {stealths}"),
            "every outcome, no sampling".to_string(),
        ];
        text = format!(
            "{}\n{}",
            table::inputs_line("exact", &inputs),
            table::summaries(&rows)
        );
        for row in &rows {
            text += &format!(
                "stealth {:>2}: P(win) = {:.15}\n",
                row.stealth, row.win_rate
            );
        }
        text += &format!("{} states memoised, {seconds:.2} s\n", result.states);
    }
    write_out(&args.out, &rows, &text)
}

/// Whether `--out -` asks for CSV on standard output.
pub(super) fn is_stdout(out: &Option<PathBuf>) -> bool {
    out.as_deref().is_some_and(|p| p.as_os_str() == "-")
}

/// Writes the CSV rows where `--out` says and `text` to standard output.
pub(super) fn write_out(out: &Option<PathBuf>, rows: &[Summary], text: &str) -> Result<()> {
    let csv_rows = rows.iter().map(csv::SummaryRow::from);
    match out {
        Some(path) if path.as_os_str() == "-" => {
            csv::write_rows(std::io::stdout().lock(), csv_rows)?
        }
        Some(path) => {
            let mut file = csv::AtomicFile::create(path)?;
            csv::write_rows(file.writer(), csv_rows)?;
            file.commit()?;
        }
        None => {}
    }
    std::io::stdout()
        .write_all(text.as_bytes())
        .map_err(|e| Error::Runtime(format!("cannot write to standard output: {e}")))
}
