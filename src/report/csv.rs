//! Writing tidy CSV: the rows (their columns and the rounding of their numbers) are the
//! core's [`raven_core::rows`], shared with the browser explorer.

use std::io::Write;

use serde::Serialize;

use crate::error::{Error, Result};

use raven_core::rows::{SummaryRow, VERSION};

use super::Summary;

/// The row of a summary: the core's columns, with the Monte Carlo counts where there are
/// some.
pub fn summary_row(s: &Summary) -> SummaryRow<'_> {
    let tally = s.sample.map(|(t, _)| t);
    let lost = |i: usize| tally.map(|t| t.losses[i]);
    SummaryRow {
        strategy: &s.strategy,
        rules: s.rules.to_string(),
        stealth: s.stealth,
        games: tally.map(|t| t.games),
        wins: tally.map(|t| t.wins),
        win_rate: s.win_rate,
        ci_low: s.ci.0,
        ci_high: s.ci.1,
        ci_level: s.ci_level,
        seed: s.sample.map(|(_, seed)| seed),
        raven_version: VERSION,
        method: s.method.name(),
        loss_recruitment: lost(0),
        loss_run: lost(1),
        loss_finale: lost(2),
        loss_finale_character_down: lost(3),
        loss_recruitment_rate: s.loss_rates[0],
        loss_run_rate: s.loss_rates[1],
        loss_finale_rate: s.loss_rates[2],
        loss_finale_character_down_rate: s.loss_rates[3],
        discovered_rate: s.discovered_rate,
        mean_stealth_left: s.mean_stealth_left,
        mean_team_at_run: s.mean_team_at_run,
        mean_deaths: s.mean_deaths,
    }
}

/// Serialises `rows` as CSV (header first) into `out`.
pub fn write_rows<W: Write, R: Serialize>(out: W, rows: impl IntoIterator<Item = R>) -> Result<()> {
    let mut writer = ::csv::Writer::from_writer(out);
    for row in rows {
        writer
            .serialize(row)
            .map_err(|e| Error::Runtime(format!("cannot write CSV: {e}")))?;
    }
    writer
        .flush()
        .map_err(|e| Error::Runtime(format!("cannot write CSV: {e}")))
}
