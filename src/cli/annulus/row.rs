//! The tidy CSV row of every Annulus result (`simulate`, `exact`, `solve`, `compare`,
//! `explore`), and of merged shards.

use serde::Serialize;

/// One tidy CSV row of an Annulus result: one per (strategy, rules, players, method).
#[derive(Serialize, Debug, Clone)]
pub struct Row {
    /// Always `annulus`.
    pub game: &'static str,
    /// The strategy (`optimal` for optimal play).
    pub strategy: String,
    /// The rules as `Display` names them.
    pub rules: String,
    /// Players (the line has players + 2 dice).
    pub players: u8,
    /// `exact`, `optimal` or `monte-carlo`.
    pub method: &'static str,
    /// Sampled games (empty for exact rows).
    pub games: Option<u64>,
    /// The probability of success (exact), or the share of successes.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub success_rate: f64,
    /// The interval's low end (sampled rows; exact rows repeat the value).
    #[serde(serialize_with = "raven_core::rows::round")]
    pub ci_low: f64,
    /// The interval's high end.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub ci_high: f64,
    /// The seed of a sampled row.
    pub seed: Option<u64>,
    /// Adjustments per challenge, in expectation (or on average).
    #[serde(serialize_with = "raven_core::rows::round")]
    pub mean_adjustments: f64,
    /// Failures by a jam that left the chain unsolvable (A5).
    #[serde(serialize_with = "raven_core::rows::round")]
    pub fail_jammed_rate: f64,
    /// Failures by a revealed die that broke the chain (A3, A5).
    #[serde(serialize_with = "raven_core::rows::round")]
    pub fail_reveal_rate: f64,
    /// Failures by the action limit (A6 variant).
    #[serde(serialize_with = "raven_core::rows::round")]
    pub fail_action_limit_rate: f64,
    /// Points below optimal play (exact rows against a solve; empty otherwise).
    #[serde(serialize_with = "raven_core::rows::round_option")]
    pub regret: Option<f64>,
    /// raven's version.
    pub raven_version: &'static str,
}
