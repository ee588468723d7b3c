//! Annulus's Monte Carlo counted: the raw counts of a row's challenges, as a whole run
//! keeps them and as a shard file of `simulate --shard K/N` holds its block of them, and the
//! whole run's CSV from the shards ([`merge`], for `raven merge`).

use std::ops::Range;

use serde::{Deserialize, Serialize};

use raven_core::engine::generic::Tally;
use raven_core::games::annulus::{ACTION_LIMIT, CAUSES, JAMMED, REVEAL};
use raven_core::rows::VERSION;
use raven_core::stats::wilson;

use super::row::Row;
use crate::cli::shard_file::{self, BlockRow, ShardFile};
use crate::error::{Error, Result};

/// One row's challenges counted: a whole run's, or a shard's block of them (a row of its
/// shard file). No rates: those are worked out from the sums.
#[derive(Serialize, Deserialize)]
pub struct Counted {
    /// The strategy.
    pub strategy: String,
    /// The rules, as outputs name them.
    pub rules: String,
    /// Players.
    pub players: u8,
    /// The seed.
    pub seed: u64,
    /// The confidence level of the intervals.
    pub ci_level: f64,
    /// The first challenge counted.
    pub first_game: u64,
    /// One past the last.
    pub end_game: u64,
    /// Challenges counted.
    pub games: u64,
    /// Successes.
    pub wins: u64,
    /// Failures by a jam (A5).
    pub fail_jammed: u64,
    /// Failures by a revealed die (A3, A5).
    pub fail_reveal: u64,
    /// Failures by the action limit (A6 variant).
    pub fail_action_limit: u64,
    /// Adjustments over the challenges.
    pub adjustments: u64,
    /// Rolls over the challenges.
    pub rolls: u64,
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
    pub fn row(&self, t: &Tally) -> Row {
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
