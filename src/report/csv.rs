//! Tidy CSV: one row per (strategy, rules, stealth, method).

use std::io::Write;

use serde::Serialize;

use crate::error::{Error, Result};

use super::Summary;

/// The columns of a summary row, in order. `win_rate` and every `*_rate` are 0–1 fractions;
/// count columns (`games`, `wins`, `loss_*`) and `seed` are empty for exact rows.
#[derive(Serialize)]
pub struct SummaryRow<'a> {
    strategy: &'a str,
    rules: String,
    stealth: u8,
    games: Option<u64>,
    wins: Option<u64>,
    win_rate: f64,
    ci_low: f64,
    ci_high: f64,
    ci_level: f64,
    seed: Option<u64>,
    raven_version: &'static str,
    method: String,
    loss_recruitment: Option<u64>,
    loss_run: Option<u64>,
    loss_finale: Option<u64>,
    loss_finale_character_down: Option<u64>,
    loss_recruitment_rate: f64,
    loss_run_rate: f64,
    loss_finale_rate: f64,
    loss_finale_character_down_rate: f64,
    discovered_rate: f64,
    mean_stealth_left: f64,
    mean_team_at_run: f64,
    mean_deaths: f64,
}

impl<'a> From<&'a Summary> for SummaryRow<'a> {
    fn from(s: &'a Summary) -> SummaryRow<'a> {
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
            raven_version: env!("CARGO_PKG_VERSION"),
            method: s.method.to_string(),
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
