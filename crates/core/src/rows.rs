//! The rows of raven's tidy CSVs: their columns, in order, and how their numbers print.
//!
//! The command line and the browser explorer both write these rows (each with its own CSV
//! writer), so a spreadsheet takes either file and a test can compare them byte for byte.
//!
//! Every fraction and mean a row carries is written to [`DIGITS`] significant digits
//! ([`round`]): an exact value is a sum of millions of products, exact only to about that
//! precision, so its last digits are floating-point noise (a share of 1 would read
//! 0.9999999999997058). Twelve digits keep every figure far below what any reader or test
//! compares (1e-12 of a probability), and the same value always prints the same way.
//!
//! A column reads one way whatever the size of its values: plain decimal ([`decimal`];
//! `0.00000527459604549`, never `5.27459604549e-6` beside `0.0000184760109385`), but for
//! `p_value`, whose values run down to the smallest double, in scientific notation
//! ([`p_value`]).

use serde::Serialize;

use crate::engine::Expectation;

/// Significant digits of every `f64` a CSV carries.
pub const DIGITS: usize = 12;

/// The version written in every row.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The seed of every sampling command unless given one, and of the browser explorer's sampled
/// figures: one constant, so the page's games are the command line's.
pub const DEFAULT_SEED: u64 = 20_261_122;

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

/// `x` [`rounded`], in plain decimal whatever its size (a whole number with `.0`).
pub fn decimal(x: f64) -> String {
    let r = rounded(x);
    let text = r.to_string();
    if r.is_finite() && !text.contains('.') {
        text + ".0"
    } else {
        text
    }
}

/// `x` [`rounded`], in scientific notation whatever its size (`5.40122086335e-28`, `1e0`).
pub fn scientific(x: f64) -> String {
    format!("{:e}", rounded(x))
}

/// The smallest positive double (`5e-324`): a p-value below it underflows to 0, and the
/// CSV writes it as this, never as a 0 that would read "impossible".
pub const P_FLOOR: f64 = 5e-324;

/// Serialises an `f64` field as [`decimal`]: `#[serde(serialize_with = ...)]`.
pub fn round<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&decimal(*x))
}

/// Serialises an optional `f64` field as [`decimal`], `None` as an empty field.
pub fn round_option<S: serde::Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match x {
        Some(x) => s.serialize_str(&decimal(*x)),
        None => s.serialize_none(),
    }
}

/// Serialises a p-value as [`scientific`], at least [`P_FLOOR`].
pub fn p_value<S: serde::Serializer>(p: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&scientific(p.max(P_FLOOR)))
}

/// A row of `simulate`, `exact`, `solve` and the page's curves: one strategy's result under
/// one set of rules at one starting stealth. `win_rate` and every `*_rate` are 0–1 fractions;
/// count columns (`games`, `wins`, `loss_*`) and `seed` are empty for exact rows.
#[derive(Serialize)]
pub struct SummaryRow<'a> {
    pub strategy: &'a str,
    pub rules: String,
    pub stealth: u8,
    pub games: Option<u64>,
    pub wins: Option<u64>,
    #[serde(serialize_with = "round")]
    pub win_rate: f64,
    #[serde(serialize_with = "round")]
    pub ci_low: f64,
    #[serde(serialize_with = "round")]
    pub ci_high: f64,
    #[serde(serialize_with = "round")]
    pub ci_level: f64,
    pub seed: Option<u64>,
    pub raven_version: &'static str,
    pub method: &'a str,
    pub loss_recruitment: Option<u64>,
    pub loss_run: Option<u64>,
    pub loss_finale: Option<u64>,
    pub loss_finale_character_down: Option<u64>,
    #[serde(serialize_with = "round")]
    pub loss_recruitment_rate: f64,
    #[serde(serialize_with = "round")]
    pub loss_run_rate: f64,
    #[serde(serialize_with = "round")]
    pub loss_finale_rate: f64,
    #[serde(serialize_with = "round")]
    pub loss_finale_character_down_rate: f64,
    #[serde(serialize_with = "round")]
    pub discovered_rate: f64,
    #[serde(serialize_with = "round")]
    pub mean_stealth_left: f64,
    #[serde(serialize_with = "round")]
    pub mean_team_at_run: f64,
    #[serde(serialize_with = "round")]
    pub mean_deaths: f64,
}

impl<'a> SummaryRow<'a> {
    /// The row of an exact or optimal result: no counts, no seed, an interval of width zero
    /// at level 1, the team at the run as a mean over the games that reach it.
    pub fn computed(
        strategy: &'a str,
        rules: String,
        stealth: u8,
        method: &'a str,
        e: &Expectation,
    ) -> SummaryRow<'a> {
        SummaryRow {
            strategy,
            rules,
            stealth,
            games: None,
            wins: None,
            win_rate: e.win,
            ci_low: e.win,
            ci_high: e.win,
            ci_level: 1.0,
            seed: None,
            raven_version: VERSION,
            method,
            loss_recruitment: None,
            loss_run: None,
            loss_finale: None,
            loss_finale_character_down: None,
            loss_recruitment_rate: e.losses[0],
            loss_run_rate: e.losses[1],
            loss_finale_rate: e.losses[2],
            loss_finale_character_down_rate: e.losses[3],
            discovered_rate: e.discovered,
            mean_stealth_left: e.stealth_left,
            mean_team_at_run: e.mean_team_at_run(),
            mean_deaths: e.deaths,
        }
    }
}

/// A row of `raven explore` and the page's sweeps: one method's win probability at one grid
/// point and stealth, and whether it falls in the target band (empty without one).
#[derive(Serialize)]
pub struct ExploreRow<'a> {
    pub rules: String,
    pub param_1: &'a str,
    pub value_1: &'a str,
    pub param_2: &'a str,
    pub value_2: &'a str,
    pub stealth: u8,
    pub strategy: &'a str,
    pub method: &'a str,
    #[serde(serialize_with = "round")]
    pub win_rate: f64,
    pub in_target: Option<bool>,
    pub raven_version: &'static str,
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

    #[test]
    fn a_column_reads_one_way_whatever_the_size_of_its_values() {
        assert_eq!(decimal(5.274596045487e-6), "0.00000527459604549");
        assert_eq!(decimal(1.847601093851e-5), "0.0000184760109385");
        assert_eq!(decimal(-8.419689123241e-6), "-0.00000841968912324");
        assert_eq!(decimal(0.0), "0.0");
        assert_eq!(decimal(-0.0), "0.0");
        assert_eq!(decimal(1.0), "1.0");
        assert_eq!(decimal(0.9999999999997058), "1.0");
        assert_eq!(decimal(9.628592385096535), "9.6285923851");
        assert_eq!(scientific(5.401220863347883e-28), "5.40122086335e-28");
        assert_eq!(scientific(0.0421), "4.21e-2");
        assert_eq!(scientific(1.0), "1e0");
        assert_eq!(scientific(P_FLOOR), "5e-324");
        for x in [0.0001234, 0.25499, 12.5] {
            assert_eq!(decimal(x).parse::<f64>().unwrap(), rounded(x), "{x}");
        }
    }
}
