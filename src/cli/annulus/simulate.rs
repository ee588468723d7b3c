//! `raven --game annulus simulate`: Monte Carlo success rates per number of players.

use std::path::PathBuf;

use clap::Args;

use raven_core::engine::generic::{Tally, simulate};
use raven_core::rows::VERSION;
use raven_core::stats::wilson;

use super::{DesignArgs, Row, load_strategy};
use crate::cli::args::{DEFAULT_SEED, pool};
use crate::cli::bounds;
use crate::cli::output::Output;
use crate::error::{Error, Result};
use raven_core::games::annulus::{ACTION_LIMIT, JAMMED, REVEAL};

/// Arguments of `raven --game annulus simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Strategies, comma-separated: `random`, a bundled name or an Annulus strategy file.
    #[arg(long, default_value = "planner", value_delimiter = ',')]
    pub strategy: Vec<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub design: DesignArgs,
    /// Challenges per number of players (1..=10^12).
    #[arg(long, default_value_t = 1_000_000, value_parser = bounds::games)]
    pub games: u64,
    /// Seed: the same seed gives byte-identical output for any thread count.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = bounds::threads)]
    pub threads: Option<u16>,
    /// Confidence level of the intervals, above 0 and at most 0.999999.
    #[arg(long, default_value_t = 0.95, value_parser = bounds::confidence)]
    pub confidence: f64,
    /// Write tidy CSV here (`-` for standard output instead of the table).
    #[arg(long, value_name = "FILE|-")]
    pub out: Option<PathBuf>,
    /// No progress display.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Runs `raven --game annulus simulate`.
pub fn run(args: &SimulateArgs) -> Result<()> {
    let games = args.design.games()?;
    if args.strategy.iter().any(|s| s == "optimal") {
        return Err(Error::Input(
            "optimal play is solved exactly: use `raven --game annulus solve`".into(),
        ));
    }
    let strategies = args
        .strategy
        .iter()
        .map(|s| load_strategy(s))
        .collect::<Result<Vec<_>>>()?;
    let output = Output::open(args.out.as_deref())?;
    let pool = pool(args.threads)?;
    let mut rows = Vec::new();
    for game in &games {
        for strategy in &strategies {
            crate::cli::interrupt::check()?;
            let tally: Tally =
                pool.install(|| simulate(game, strategy.as_ref(), args.games, args.seed));
            rows.push(row(game, strategy.name(), &tally, args));
        }
    }
    let text = if output.is_stdout() {
        String::new()
    } else {
        table(&rows, args)
    };
    output.write(&text, rows)
}

fn row(
    game: &raven_core::games::annulus::Annulus,
    strategy: &str,
    t: &Tally,
    args: &SimulateArgs,
) -> Row {
    let n = t.games as f64;
    let (low, high) = wilson(t.wins, t.games, args.confidence);
    Row {
        game: "annulus",
        strategy: strategy.to_string(),
        rules: game.rules().to_string(),
        players: game.rules().players,
        method: "monte-carlo",
        games: Some(t.games),
        success_rate: t.wins as f64 / n,
        ci_low: low,
        ci_high: high,
        seed: Some(args.seed),
        mean_adjustments: t.decisions as f64 / n,
        fail_jammed_rate: t.losses[usize::from(JAMMED)] as f64 / n,
        fail_reveal_rate: t.losses[usize::from(REVEAL)] as f64 / n,
        fail_action_limit_rate: t.losses[usize::from(ACTION_LIMIT)] as f64 / n,
        regret: None,
        raven_version: VERSION,
    }
}

fn table(rows: &[Row], args: &SimulateArgs) -> String {
    let mut text = format!(
        "simulate: the Annulus operation challenge, {} games per row, seed {}, {:.0}% Wilson intervals\n\n",
        args.games,
        args.seed,
        args.confidence * 100.0
    );
    text += &format!(
        "{:<16} {:<24} {:>7} {:>9} {:>19} {:>11}\n",
        "strategy", "rules", "players", "success", "interval", "adjustments"
    );
    for r in rows {
        text += &format!(
            "{:<16} {:<24} {:>7} {:>8.2}% {:>8.2}% – {:>6.2}% {:>11.2}\n",
            r.strategy,
            r.rules,
            r.players,
            100.0 * r.success_rate,
            100.0 * r.ci_low,
            100.0 * r.ci_high,
            r.mean_adjustments
        );
    }
    text
}
