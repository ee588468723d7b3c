//! `raven compare`: several strategies on the same games (common random numbers), each
//! compared with the first: paired difference with its interval and McNemar's p-value.

use clap::Args;

use crate::engine::{PairedJob, simulate_paired};
use crate::error::{Error, Result};
use crate::report::comparison::{rows, table};
use crate::strategy::Strategy;

use super::args::{RulesArgs, RunArgs, load_strategies, ready_to_play};
use super::interrupt;
use super::output::Output;
use super::progress::Progress;

/// Arguments of `raven compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Strategies (built-in or bundled names, or .toml files), at least two: comma-separated
    /// (`--strategy a,b`) or the option repeated (`--strategy a --strategy b`). The first is
    /// the baseline every other is compared with.
    #[arg(
        long = "strategy",
        value_name = "NAME|FILE",
        required = true,
        num_args = 1,
        value_delimiter = ','
    )]
    pub strategies: Vec<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

/// Runs `raven compare`.
pub fn run(args: &CompareArgs) -> Result<()> {
    if args.strategies.len() < 2 {
        return Err(Error::Input(
            "compare needs at least two --strategy (the first is the baseline)".into(),
        ));
    }
    let rules = args.rules.rules()?;
    let loaded = load_strategies(&args.strategies)?;
    let names: Vec<String> = loaded.iter().map(|s| s.name().to_string()).collect();
    let cancel = interrupt::flag();
    let output = Output::open(args.run.out.as_deref())?;
    let pool = args.run.pool()?;
    let loaded = loaded
        .into_iter()
        .map(|s| pool.install(|| ready_to_play(s, &rules, &args.run.stealth)))
        .collect::<Result<Vec<_>>>()?;
    let strategies: Vec<&dyn Strategy> = loaded.iter().map(|s| s.as_ref() as _).collect();
    let total = args
        .run
        .games
        .saturating_mul((args.run.stealth.len() * strategies.len()) as u64);
    let progress = Progress::new(total, args.run.quiet);
    let polled = interrupt::polled();
    let mut all = Vec::new();
    for &stealth in &args.run.stealth {
        let job = PairedJob {
            rules: &rules,
            strategies: &strategies,
            stealth,
            games: args.run.games,
            seed: args.run.seed,
        };
        let per = strategies.len() as u64;
        let tally =
            pool.install(|| simulate_paired(&job, &|n| progress.advance(n * per), cancel))?;
        all.extend(rows(
            &names,
            rules,
            stealth,
            &tally,
            args.run.seed,
            args.run.confidence,
        ));
    }
    progress.finish();
    drop(polled);
    let mut inputs = vec![
        format!("baseline {}", names[0]),
        format!("against {}", names[1..].join(", ")),
        format!("rules {rules}"),
    ];
    inputs.extend(args.run.inputs());
    inputs.push("paired intervals, McNemar p".into());
    let text = format!(
        "{}\n{}",
        crate::report::table::inputs_line("compare", &inputs),
        table(&all)
    );
    output.write(&text, &all)
}
