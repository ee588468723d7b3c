//! `raven simulate`: Monte Carlo win rates per starting stealth.
//!
//! Inputs are checked and the output file is opened *before* any game is played, so a typo
//! or an unwritable path fails in milliseconds; the CSV file appears only when every row is
//! in it (written to a temporary file, renamed at the end).

use clap::Args;

use crate::engine::{Job, simulate};
use crate::error::{Error, Result};
use crate::report::csv::SummaryRow;
use crate::report::{Summary, table};
use crate::rules::Rules;
use crate::strategy::REFERENCE;

use super::args::{RulesArgs, RunArgs, load_strategy, ready_to_play};
use super::interrupt;
use super::output::Output;
use super::progress::Progress;

/// Arguments of `raven simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Strategy: a built-in name or a strategy file.
    #[arg(long, default_value = REFERENCE)]
    pub strategy: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// The line above the table: every input that determines the numbers.
pub fn header(strategy: &str, rules: &Rules, run: &RunArgs) -> String {
    let mut inputs = vec![format!("strategy {strategy}"), format!("rules {rules}")];
    inputs.extend(run.inputs());
    table::inputs_line("simulate", &inputs)
}

/// Runs `raven simulate`.
pub fn run(args: &SimulateArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let strategy = load_strategy(&args.strategy)?;
    let run = &args.run;
    let cancel = interrupt::flag();
    let output = Output::open(run.out.as_deref())?;
    let pool = run.pool()?;
    let strategy = pool.install(|| ready_to_play(strategy, &rules, &run.stealth))?;

    let total = run.games.saturating_mul(run.stealth.len() as u64);
    let progress = Progress::new(total, run.quiet);
    let polled = interrupt::polled();
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
    drop(polled);
    let table = format!(
        "{}\n{}",
        header(strategy.name(), &rules, run),
        table::summaries(&rows)
    );
    output.write(&table, rows.iter().map(SummaryRow::from))
}
