//! `raven --game annulus simulate`: Monte Carlo success rates per number of players.
//!
//! With `--shard K/N` it plays block K of N of every row's challenges and writes their raw
//! counts as a shard file; `raven merge` adds up the counts of all N
//! ([`super::shard::merge`]) and renders the rows as a whole run does.

use std::path::PathBuf;

use clap::Args;

use raven_core::engine::generic::simulate_range;
use raven_core::games::annulus::{ACTION_LIMIT, JAMMED, REVEAL};

use super::shard::Counted;
use super::{DesignArgs, Row, load_strategy};
use crate::cli::args::{DEFAULT_SEED, pool};
use crate::cli::bounds;
use crate::cli::output::Output;
use crate::cli::shard::{Shard, ShardArgs};
use crate::cli::shard_file::{self, BlockRow, Meta};
use crate::error::{Error, Result};

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
    #[command(flatten)]
    #[allow(missing_docs)]
    pub shard: ShardArgs,
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
    // Before any work: it reads the strategy files' text again, for their digests.
    let meta = args.shard.shard.map(|shard| {
        let identities: Vec<String> = (args.strategy.iter().zip(&strategies))
            .map(|(spec, s)| shard_file::strategy_identity(spec, s.name()))
            .collect();
        let rules: Vec<String> = games.iter().map(|g| g.rules().to_string()).collect();
        Meta::new("simulate", shard)
            .input("game", "annulus")
            .input("strategy", identities.join(", "))
            .input("rules", rules.join("; "))
            .input("units", games.len() * strategies.len())
            .input("games", args.games)
            .input("seed", args.seed)
            .input("confidence", args.confidence)
    });
    let output = Output::open(args.out.as_deref())?;
    let pool = pool(args.threads)?;
    let block = args.shard.shard.unwrap_or(Shard::WHOLE).range(args.games);
    let mut counted = Vec::new();
    for game in &games {
        for strategy in &strategies {
            crate::cli::interrupt::check()?;
            let tally =
                pool.install(|| simulate_range(game, strategy.as_ref(), block.clone(), args.seed));
            counted.push(Counted {
                strategy: strategy.name().to_string(),
                rules: game.rules().to_string(),
                players: game.rules().players,
                seed: args.seed,
                ci_level: args.confidence,
                first_game: block.start,
                end_game: block.end,
                games: tally.games,
                wins: tally.wins,
                fail_jammed: tally.losses[usize::from(JAMMED)],
                fail_reveal: tally.losses[usize::from(REVEAL)],
                fail_action_limit: tally.losses[usize::from(ACTION_LIMIT)],
                adjustments: tally.decisions,
                rolls: tally.rolls,
            });
        }
    }
    if let Some(meta) = meta {
        let (header, records) = shard_file::records(&counted)?;
        let bytes = shard_file::render(
            &meta,
            &header,
            &records.into_iter().enumerate().collect::<Vec<_>>(),
        )?;
        let note = format!(
            "raven {} simulate: shard {} of the Annulus run (challenges {}..{} of each row) \
             written; `raven merge` joins the shards\n",
            env!("CARGO_PKG_VERSION"),
            meta.shard,
            block.start,
            block.end
        );
        return output.write_bytes(&note, &bytes);
    }
    let rows: Vec<Row> = counted.iter().map(|c| c.row(&c.counts())).collect();
    let text = if output.is_stdout() {
        String::new()
    } else {
        table(&rows, args)
    };
    output.write(&text, rows)
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
