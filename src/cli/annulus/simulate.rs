//! `raven --game annulus simulate`: Monte Carlo success rates per number of players.
//!
//! With `--shard K/N` it plays block K of N of every row's challenges and writes their raw
//! counts as a shard file; [`merge`] (`raven merge`) adds up the counts of all N and renders
//! the rows as a whole run does.

use std::ops::Range;
use std::path::PathBuf;

use clap::Args;
use serde::{Deserialize, Serialize};

use raven_core::engine::generic::{Tally, simulate_range};
use raven_core::games::annulus::{ACTION_LIMIT, CAUSES, JAMMED, REVEAL};
use raven_core::rows::VERSION;
use raven_core::stats::wilson;

use super::{DesignArgs, Row, load_strategy};
use crate::cli::args::{DEFAULT_SEED, pool};
use crate::cli::bounds;
use crate::cli::output::Output;
use crate::cli::shard::{Shard, ShardArgs};
use crate::cli::shard_file::{self, BlockRow, Meta, ShardFile};
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

/// One row's challenges counted: a whole run's, or a shard's block of them (a row of its
/// shard file). No rates: those are worked out from the sums.
#[derive(Serialize, Deserialize)]
struct Counted {
    strategy: String,
    rules: String,
    players: u8,
    seed: u64,
    ci_level: f64,
    first_game: u64,
    end_game: u64,
    games: u64,
    wins: u64,
    fail_jammed: u64,
    fail_reveal: u64,
    fail_action_limit: u64,
    adjustments: u64,
    rolls: u64,
}

impl BlockRow for Counted {
    type Counts = Tally;

    fn block(&self) -> Range<u64> {
        self.first_game..self.end_game
    }

    fn games(&self) -> u64 {
        self.games
    }

    fn counts(&self) -> Tally {
        let mut losses = vec![0; CAUSES.len()];
        losses[usize::from(JAMMED)] = self.fail_jammed;
        losses[usize::from(REVEAL)] = self.fail_reveal;
        losses[usize::from(ACTION_LIMIT)] = self.fail_action_limit;
        Tally {
            games: self.games,
            wins: self.wins,
            losses,
            decisions: self.adjustments,
            rolls: self.rolls,
        }
    }

    fn same_unit(&self, other: &Counted) -> bool {
        (&self.strategy, &self.rules, self.players, self.seed)
            == (&other.strategy, &other.rules, other.players, other.seed)
            && self.ci_level.to_bits() == other.ci_level.to_bits()
    }

    fn unit(&self) -> String {
        format!("{} with {} players", self.strategy, self.players)
    }
}

/// The CSV of the whole run from the shard files of a sharded Annulus `simulate` (already
/// checked to be every shard of one run, in order): per row, the blocks' counts added up and
/// rendered as a whole run renders its rows.
pub fn merge(files: &[ShardFile]) -> Result<Vec<u8>> {
    let meta = &files[0].meta;
    let number = |key: &str| {
        (meta.get(key).and_then(|v| v.parse::<u64>().ok()))
            .ok_or_else(|| Error::Input(format!("{}: no valid `# {key}:` line", files[0].name())))
    };
    let (units, games) = (number("units")?, number("games")?);
    let units = usize::try_from(units).map_err(|_| Error::Input("too many units".into()))?;
    let rows: Vec<Row> = shard_file::add_blocks::<Counted>(files, "simulate", units, games)?
        .iter()
        .map(|(first, tally)| first.row(tally))
        .collect();
    let mut bytes = Vec::new();
    crate::report::csv::write_rows(&mut bytes, rows)?;
    Ok(bytes)
}

impl Counted {
    /// The run's row of these counts `t`.
    fn row(&self, t: &Tally) -> Row {
        let n = t.games as f64;
        let (low, high) = wilson(t.wins, t.games, self.ci_level);
        Row {
            game: "annulus",
            strategy: self.strategy.clone(),
            rules: self.rules.clone(),
            players: self.players,
            method: "monte-carlo",
            games: Some(t.games),
            success_rate: t.wins as f64 / n,
            ci_low: low,
            ci_high: high,
            seed: Some(self.seed),
            mean_adjustments: t.decisions as f64 / n,
            fail_jammed_rate: t.losses[usize::from(JAMMED)] as f64 / n,
            fail_reveal_rate: t.losses[usize::from(REVEAL)] as f64 / n,
            fail_action_limit_rate: t.losses[usize::from(ACTION_LIMIT)] as f64 / n,
            regret: None,
            raven_version: VERSION,
        }
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
