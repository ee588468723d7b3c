//! One result row, whichever engine produced it.

use std::fmt;

use serde::Serialize;

use crate::engine::{Expectation, Tally};
use crate::game::LossCause;
use crate::rules::Rules;
use crate::stats::wilson;

/// How a figure was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Sampled games; intervals from the sampling error.
    MonteCarlo,
    /// Exact expectation over every outcome, for a given strategy.
    Exact,
    /// Exact value of the best possible play.
    Optimal,
}

impl Method {
    /// The name the CSVs and tables print.
    pub fn name(self) -> &'static str {
        match self {
            Method::MonteCarlo => "monte-carlo",
            Method::Exact => "exact",
            Method::Optimal => "optimal",
        }
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result for one (strategy, rules, stealth, method).
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Strategy name.
    pub strategy: String,
    /// Rules in force.
    pub rules: Rules,
    /// Starting stealth.
    pub stealth: u8,
    /// Engine.
    pub method: Method,
    /// Monte Carlo counts and seed (absent for exact rows).
    pub sample: Option<(Tally, u64)>,
    /// Win probability (estimate or exact).
    pub win_rate: f64,
    /// Interval for the win probability (a point for exact rows).
    pub ci: (f64, f64),
    /// Confidence level of `ci`.
    pub ci_level: f64,
    /// Loss probabilities by cause.
    pub loss_rates: [f64; 4],
    /// Share of games discovered.
    pub discovered_rate: f64,
    /// Mean stealth left at the end.
    pub mean_stealth_left: f64,
    /// Mean team size entering the run (over games that reached it).
    pub mean_team_at_run: f64,
    /// Mean dead members at the end.
    pub mean_deaths: f64,
}

impl Summary {
    /// A Monte Carlo row from counts, with a Wilson interval at `ci_level`.
    pub fn from_tally(
        strategy: &str,
        rules: Rules,
        stealth: u8,
        tally: Tally,
        seed: u64,
        ci_level: f64,
    ) -> Summary {
        let of_games = |n: u64| Tally::ratio(n, tally.games);
        Summary {
            strategy: strategy.to_string(),
            rules,
            stealth,
            method: Method::MonteCarlo,
            sample: Some((tally, seed)),
            win_rate: of_games(tally.wins),
            ci: wilson(tally.wins, tally.games, ci_level),
            ci_level,
            loss_rates: LossCause::ALL.map(|c| of_games(tally.lost(c))),
            discovered_rate: of_games(tally.discovered),
            mean_stealth_left: of_games(tally.stealth_left),
            mean_team_at_run: Tally::ratio(tally.team_at_run, tally.reached_run),
            mean_deaths: of_games(tally.deaths),
        }
    }

    /// An exact (or optimal) row: the interval is the point itself.
    pub fn from_expectation(
        strategy: &str,
        rules: Rules,
        stealth: u8,
        method: Method,
        e: Expectation,
    ) -> Summary {
        Summary {
            strategy: strategy.to_string(),
            rules,
            stealth,
            method,
            sample: None,
            win_rate: e.win,
            ci: (e.win, e.win),
            ci_level: 1.0,
            loss_rates: e.losses,
            discovered_rate: e.discovered,
            mean_stealth_left: e.stealth_left,
            mean_team_at_run: e.mean_team_at_run(),
            mean_deaths: e.deaths,
        }
    }
}
