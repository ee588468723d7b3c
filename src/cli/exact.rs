//! `raven exact`: the exact win probability (and every other reported figure) of a strategy,
//! by expectation over every outcome instead of sampling.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use crate::engine::exact_within;
use crate::error::Result;
use crate::report::{Method, Summary, csv, table};
use crate::strategy::REFERENCE;

use super::args::{ExactEngineArgs, RulesArgs, load_strategy, ready_within, stealth_list};
use super::output::Output;

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
    let name = strategy.name().to_string();
    // Before the evaluation, which can take minutes: an unusable path fails now.
    let output = Output::open(args.out.as_deref())?;
    let stealths = stealth_list(&args.exact.stealth);
    let started = Instant::now();
    let result = args
        .exact
        .run_job(&format!("exact: {name} under {rules}"), |budget| {
            let strategy = ready_within(strategy, &rules, &args.exact.stealth, &budget)?;
            exact_within(&rules, strategy.as_ref(), &args.exact.stealth, budget)
        })?;
    let seconds = started.elapsed().as_secs_f64();
    let rows: Vec<Summary> = args
        .exact
        .stealth
        .iter()
        .zip(&result.expectations)
        .map(|(&stealth, e)| Summary::from_expectation(&name, rules, stealth, Method::Exact, *e))
        .collect();
    let mut text = String::new();
    if !output.is_stdout() {
        let inputs = [
            format!("strategy {name}"),
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
    output.write(&text, rows.iter().map(csv::summary_row))
}
