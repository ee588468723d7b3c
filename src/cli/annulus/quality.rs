//! `raven --game annulus quality`: is it a good game? Luck and skill, tension and length per
//! strategy and number of players, from optimal play's win probability along every game.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use raven_core::engine::generic::quality::quality;
use raven_core::engine::generic::{OptimalPolicy, solve};
use raven_core::games::Policy;
use raven_core::games::annulus::Annulus;
use raven_core::rows::VERSION;

use super::{DesignArgs, load_strategy, stopped};
use crate::cli::args::DEFAULT_SEED;
use crate::cli::bounds;
use crate::cli::output::Output;
use crate::error::Result;

/// Arguments of `raven --game annulus quality`.
#[derive(Args, Debug)]
pub struct QualityArgs {
    /// Strategies, comma-separated: `optimal`, `random`, a bundled name or an Annulus strategy
    /// file.
    #[arg(long, default_value = "optimal,planner,naive", value_delimiter = ',')]
    pub strategy: Vec<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub design: DesignArgs,
    /// Sampled challenges per row, for the figures that are distributions (1..=10^12).
    #[arg(long, default_value_t = 100_000, value_parser = bounds::games)]
    pub games: u64,
    /// Seed: the same seed gives byte-identical output for any thread count.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub engine: super::EngineArgs,
    /// Write tidy CSV here (`-` for standard output instead of the table).
    #[arg(long, value_name = "FILE|-")]
    pub out: Option<PathBuf>,
}

/// One row: a strategy's luck, skill, tension and length at one number of players.
#[derive(Serialize, Debug)]
pub struct QualityRow {
    game: &'static str,
    strategy: String,
    rules: String,
    players: u8,
    #[serde(serialize_with = "raven_core::rows::round")]
    win_rate: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    skill_loss: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    luck_share: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    suspense: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    suspense_low: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    suspense_high: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    comeback_rate: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    comeback_rate_low: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    comeback_rate_high: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    heartbreak_rate: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    heartbreak_rate_low: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    heartbreak_rate_high: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    mean_rolls: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    mean_decisions: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    meaningful_decisions: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    meaningful_decisions_5: f64,
    games: u64,
    seed: u64,
    raven_version: &'static str,
}

/// Runs `raven --game annulus quality`.
pub fn run(args: &QualityArgs) -> Result<()> {
    let games = args.design.games()?;
    let chosen = args
        .strategy
        .iter()
        .map(|s| {
            if s == "optimal" {
                Ok(None)
            } else {
                load_strategy(s).map(Some)
            }
        })
        .collect::<Result<Vec<_>>>()?;
    let output = Output::open(args.out.as_deref())?;
    let engine = args.engine.start()?;
    let (pool, budget) = (&engine.pool, engine.budget());
    let mut rows = Vec::new();
    for game in &games {
        let solved = pool.install(|| solve(game, budget)).map_err(stopped)?;
        let optimal = OptimalPolicy::new(&solved);
        for strategy in &chosen {
            crate::cli::interrupt::check()?;
            let policy: &dyn Policy<Annulus> = match strategy {
                Some(s) => s.as_ref(),
                None => &optimal,
            };
            let q = pool
                .install(|| quality(&solved, policy, args.games, args.seed, budget))
                .map_err(stopped)?;
            let (s, c, h) = (
                q.suspense_interval(),
                q.comeback_rate(),
                q.heartbreak_rate(),
            );
            rows.push(QualityRow {
                game: "annulus",
                strategy: policy.name().to_string(),
                rules: game.rules().to_string(),
                players: game.rules().players,
                win_rate: q.figures.win,
                skill_loss: q.skill_loss,
                luck_share: q.luck_share(),
                suspense: s.value,
                suspense_low: s.low,
                suspense_high: s.high,
                comeback_rate: c.value,
                comeback_rate_low: c.low,
                comeback_rate_high: c.high,
                heartbreak_rate: h.value,
                heartbreak_rate_low: h.low,
                heartbreak_rate_high: h.high,
                mean_rolls: q.figures.rolls,
                mean_decisions: q.figures.decisions,
                meaningful_decisions: q.meaningful[0],
                meaningful_decisions_5: q.meaningful[1],
                games: args.games,
                seed: args.seed,
                raven_version: VERSION,
            });
        }
    }
    let text = if output.is_stdout() {
        String::new()
    } else {
        table(&rows, args)
    };
    output.write(&text, rows)
}

fn table(rows: &[QualityRow], args: &QualityArgs) -> String {
    let mut t = format!(
        "quality: luck, skill, tension and length — the Annulus operation challenge, {} games a row, seed {}\n\n",
        args.games, args.seed
    );
    t += &format!(
        "{:<14} {:>7} {:>8} {:>7} {:>6} {:>8} {:>8} {:>8} {:>6} {:>6} {:>6}\n",
        "strategy",
        "players",
        "success",
        "skill",
        "luck",
        "suspense",
        "comeback",
        "heartbr",
        "rolls",
        "decis",
        "real"
    );
    for r in rows {
        t += &format!(
            "{:<14} {:>7} {:>7.1}% {:>7.2} {:>5.0}% {:>8.3} {:>7.1}% {:>7.1}% {:>6.1} {:>6.1} {:>6.1}\n",
            r.strategy,
            r.players,
            100.0 * r.win_rate,
            100.0 * r.skill_loss,
            100.0 * r.luck_share,
            r.suspense,
            100.0 * r.comeback_rate,
            100.0 * r.heartbreak_rate,
            r.mean_rolls,
            r.mean_decisions,
            r.meaningful_decisions
        );
    }
    t += "\nsuccess: exact; skill: points (of 100) lost to decisions per game, exactly the regret;\n\
luck: the share of the spread of results the dice explain (the rest is the decisions');\n\
suspense: how far the optimal win chance moves per roll or decision (root mean square);\n\
comeback: wins after the chance fell to 20% or lower; heartbr(eak): losses after it rose to 80%;\n\
rolls, decis(ions): per game, exact; real: decisions whose options differ by a point or more.\n";
    t
}
