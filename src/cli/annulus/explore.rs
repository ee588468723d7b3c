//! `raven --game annulus explore`: one Annulus rules key varied over its values, each point
//! solved for optimal play and the chosen strategies evaluated exactly, per number of players;
//! `--target LO..HI` lists the points where a strategy's success lies in the band.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use raven_core::engine::generic::{Optimum, evaluate, solve};
use raven_core::games::annulus::rules::swept;
use raven_core::games::annulus::{Annulus, Rules};
use raven_core::rows::VERSION;

use super::{DesignArgs, load_strategy, stopped};
use crate::cli::output::Output;
use crate::error::{Error, Result};

/// Arguments of `raven --game annulus explore`.
#[derive(Args, Debug)]
pub struct ExploreArgs {
    /// An Annulus rules key and its values: `KEY=V1,V2,…`, a number range `A..B` (both ends
    /// included) among them, e.g. `target=2..12`, `hidden-faces=0..3`, `wrap=no,yes`.
    #[arg(long = "param", value_name = "KEY=VALUES")]
    pub param: String,
    /// Strategies evaluated exactly at every point besides optimal play, comma-separated
    /// (`none` for optimal play alone).
    #[arg(long, default_value = "planner", value_delimiter = ',')]
    pub strategy: Vec<String>,
    /// A success band in percent, `LO..HI`: list the points where `--band-strategy` lies in
    /// it (`--target`, Purple Raven's spelling, is an alias: Annulus's own `target` is the
    /// trigger number).
    #[arg(long, alias = "target", value_name = "LO..HI")]
    pub band: Option<String>,
    /// The strategy `--band` reads: `optimal` or one of `--strategy`.
    #[arg(long, alias = "target-strategy", default_value = "optimal")]
    pub band_strategy: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub design: DesignArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub engine: super::EngineArgs,
    /// Write tidy CSV here (`-` for standard output instead of the table).
    #[arg(long, value_name = "FILE|-")]
    pub out: Option<PathBuf>,
}

/// One row: a strategy's success at one point of the grid and one number of players.
#[derive(Serialize, Debug)]
pub struct ExploreRow {
    /// Always `annulus`.
    pub game: &'static str,
    /// The key varied.
    pub param: &'static str,
    /// Its value at this point.
    pub value: String,
    /// The rules at this point.
    pub rules: String,
    /// Players.
    pub players: u8,
    /// The strategy (`optimal` for optimal play).
    pub strategy: String,
    /// Its exact success probability.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub success: f64,
    /// raven's version.
    pub raven_version: &'static str,
}

/// The values of `KEY=V1,V2,…`, each checked against the key.
fn axis(spec: &str, base: &Rules) -> Result<(&'static str, Vec<String>)> {
    let (key, values) = spec
        .split_once('=')
        .ok_or_else(|| Error::Input(format!("--param {spec}: not of the form KEY=VALUES")))?;
    let param = swept(key.trim())
        .map_err(|e| Error::Input(format!("--param {spec}: {e} (give --players for players)")))?;
    let mut all = Vec::new();
    for part in values.split(',').map(str::trim) {
        match part.split_once("..") {
            Some((a, b)) => {
                let (a, b): (u32, u32) = match (a.parse(), b.trim_start_matches('=').parse()) {
                    (Ok(a), Ok(b)) if a <= b && b - a < 1000 => (a, b),
                    _ => {
                        return Err(Error::Input(format!(
                            "--param {spec}: '{part}' is not a range A..B"
                        )));
                    }
                };
                all.extend((a..=b).map(|v| v.to_string()));
            }
            None => all.push(part.to_string()),
        }
    }
    for v in &all {
        let mut r = *base;
        r.set(param.key, v)
            .map_err(|e| Error::Input(format!("--param {spec}: {e}")))?;
    }
    Ok((param.key, all))
}

fn band(text: &str) -> Result<(f64, f64)> {
    let bad = || {
        Error::Input(format!(
            "--target {text}: not a band LO..HI in percent, 0..100"
        ))
    };
    let (lo, hi) = text.split_once("..").ok_or_else(bad)?;
    let (lo, hi): (f64, f64) = (
        lo.parse().map_err(|_| bad())?,
        hi.parse().map_err(|_| bad())?,
    );
    if !(0.0..=100.0).contains(&lo) || !(lo..=100.0).contains(&hi) {
        return Err(bad());
    }
    Ok((lo / 100.0, hi / 100.0))
}

/// Runs `raven --game annulus explore`.
pub fn run(args: &ExploreArgs) -> Result<()> {
    let games = args.design.games()?;
    let (key, values) = axis(&args.param, games[0].rules())?;
    let target = args.band.as_deref().map(band).transpose()?;
    if let Some(o) = args
        .design
        .overrides
        .iter()
        .find(|o| o.split('=').next().map(str::trim) == Some(key))
    {
        return Err(Error::Input(format!(
            "--rule {o} and --param {key}=…: give the key once"
        )));
    }
    // Optimal play is solved at every point anyway.
    let names: Vec<&String> = args
        .strategy
        .iter()
        .filter(|s| *s != "none" && *s != "optimal")
        .collect();
    if args.band_strategy != "optimal" && !names.iter().any(|n| **n == args.band_strategy) {
        return Err(Error::Input(format!(
            "--band-strategy {}: not among the strategies explored (optimal, {})",
            args.band_strategy,
            names
                .iter()
                .map(|n| n.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let strategies = names
        .iter()
        .map(|n| load_strategy(n))
        .collect::<Result<Vec<_>>>()?;
    let output = Output::open(args.out.as_deref())?;
    let engine = args.engine.start()?;
    let (pool, budget) = (&engine.pool, engine.budget());
    let progress =
        crate::cli::progress::Progress::new((values.len() * games.len()) as u64, args.engine.quiet);
    let mut rows = Vec::new();
    for value in &values {
        for base in &games {
            let mut rules = *base.rules();
            rules.set(key, value).expect("checked above");
            let game = Annulus::new(rules);
            let solved = pool.install(|| solve(&game, budget)).map_err(stopped)?;
            let mut push = |strategy: &str, success: f64| {
                rows.push(ExploreRow {
                    game: "annulus",
                    param: key,
                    value: value.clone(),
                    rules: rules.to_string(),
                    players: rules.players,
                    strategy: strategy.to_string(),
                    success,
                    raven_version: VERSION,
                })
            };
            push("optimal", solved.start());
            for s in &strategies {
                let f = pool
                    .install(|| evaluate(&game, s.as_ref(), budget))
                    .map_err(stopped)?;
                push(s.name(), f.win);
            }
            progress.advance(1);
        }
    }
    progress.finish();
    let text = if output.is_stdout() {
        String::new()
    } else {
        table(&rows, key, target, &args.band_strategy)
    };
    output.write(&text, rows)
}

fn table(rows: &[ExploreRow], key: &str, target: Option<(f64, f64)>, reads: &str) -> String {
    let mut text = format!(
        "explore: the Annulus operation challenge, {key} varied, every point solved exactly\n\n{:<14} {:>7} {:<16} {:>9}\n",
        key, "players", "strategy", "success"
    );
    for r in rows {
        text += &format!(
            "{:<14} {:>7} {:<16} {:>8.3}%\n",
            r.value,
            r.players,
            r.strategy,
            100.0 * r.success
        );
    }
    if let Some((lo, hi)) = target {
        let inside: Vec<String> = rows
            .iter()
            .filter(|r| r.strategy == reads && (lo..=hi).contains(&r.success))
            .map(|r| {
                format!(
                    "{key}={} with {} ({:.1}%)",
                    r.value,
                    super::players(r.players),
                    100.0 * r.success
                )
            })
            .collect();
        text += &format!(
            "\n{reads} between {:.0}% and {:.0}%: {}\n",
            100.0 * lo,
            100.0 * hi,
            if inside.is_empty() {
                "no point".to_string()
            } else {
                inside.join("; ")
            }
        );
    }
    text
}
