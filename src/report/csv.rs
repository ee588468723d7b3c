//! Tidy CSV: one row per (strategy, rules, stealth, method).
//!
//! Every fraction and mean a CSV of raven carries is written to [`DIGITS`] significant digits
//! ([`round`]): an exact value is a sum of millions of products, exact only to about that
//! precision, so its last digits are floating-point noise (a share of 1 would read
//! 0.9999999999997058). Twelve digits keep every figure far below what any reader or test
//! compares (1e-12 of a probability), and the same value always prints the same way.

use std::io::Write;

use serde::Serialize;

use crate::error::{Error, Result};

use super::Summary;

/// Significant digits of every `f64` a CSV carries.
pub const DIGITS: usize = 12;

/// `x` to [`DIGITS`] significant digits (the nearest `f64` to its decimal form; idempotent);
/// non-finite values as they are.
pub fn rounded(x: f64) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x + 0.0;
    }
    // Scientific notation fixes the significant digits whatever the magnitude.
    let text = format!("{x:.*e}", DIGITS - 1);
    text.parse::<f64>().map_or(x, |r| r + 0.0)
}

/// Serialises an `f64` field rounded ([`rounded`]): `#[serde(serialize_with = ...)]`.
pub fn round<S: serde::Serializer>(x: &f64, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_f64(rounded(*x))
}

/// The columns of a summary row, in order. `win_rate` and every `*_rate` are 0–1 fractions;
/// count columns (`games`, `wins`, `loss_*`) and `seed` are empty for exact rows.
#[derive(Serialize)]
pub struct SummaryRow<'a> {
    strategy: &'a str,
    rules: String,
    stealth: u8,
    games: Option<u64>,
    wins: Option<u64>,
    #[serde(serialize_with = "round")]
    win_rate: f64,
    #[serde(serialize_with = "round")]
    ci_low: f64,
    #[serde(serialize_with = "round")]
    ci_high: f64,
    #[serde(serialize_with = "round")]
    ci_level: f64,
    seed: Option<u64>,
    raven_version: &'static str,
    method: String,
    loss_recruitment: Option<u64>,
    loss_run: Option<u64>,
    loss_finale: Option<u64>,
    loss_finale_character_down: Option<u64>,
    #[serde(serialize_with = "round")]
    loss_recruitment_rate: f64,
    #[serde(serialize_with = "round")]
    loss_run_rate: f64,
    #[serde(serialize_with = "round")]
    loss_finale_rate: f64,
    #[serde(serialize_with = "round")]
    loss_finale_character_down_rate: f64,
    #[serde(serialize_with = "round")]
    discovered_rate: f64,
    #[serde(serialize_with = "round")]
    mean_stealth_left: f64,
    #[serde(serialize_with = "round")]
    mean_team_at_run: f64,
    #[serde(serialize_with = "round")]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_carry_twelve_significant_digits_whatever_their_size() {
        assert_eq!(rounded(0.9999999999997058), 1.0);
        assert_eq!(rounded(0.015292020585786789).to_string(), "0.0152920205858");
        assert_eq!(rounded(9.628592385096535).to_string(), "9.6285923851");
        assert_eq!(rounded(5.401220863347883e-28), 5.40122086335e-28);
        assert_eq!(rounded(-1.3e-7), -1.3e-7);
        // Exact ratios of counts keep every digit they have; rounding twice changes nothing.
        assert_eq!(rounded(0.25499), 0.25499);
        for x in [0.1 + 0.2, 2.0 / 3.0, 1e-300, 123456.7890123456] {
            assert_eq!(rounded(rounded(x)), rounded(x), "{x}");
            assert!((rounded(x) - x).abs() <= 5e-12 * x.abs(), "{x}");
        }
        assert_eq!(rounded(-0.0).to_string(), "0");
        assert!(rounded(f64::NAN).is_nan());
    }
}
