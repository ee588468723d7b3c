//! The regret decomposition ([`crate::engine::decisions`]) as outputs: tidy CSV rows, one per
//! (strategy, rules, stealth, kind of decision) and one per costly position, and the costly
//! positions in words. Shared by `raven decisions` and the report.

use serde::Serialize;

use crate::engine::decisions::{Costly, DecisionKind, Decisions};
use crate::rules::Rules;

use super::words;

/// One CSV row: a strategy's regret at one kind of decision, at one starting stealth.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct DecisionRow {
    /// Strategy name.
    pub strategy: String,
    /// Rules (preset name, or every flag).
    pub rules: String,
    /// Starting stealth.
    pub stealth: u8,
    /// The kind of decision.
    pub decision: &'static str,
    /// Win probability lost at this kind of decision against optimal play (0–1).
    pub regret: f64,
    /// Decisions of this kind with more than one option, per game.
    pub arises_per_game: f64,
    /// Of those, per game, the ones whose best and worst options differ by more than a point.
    pub matters_per_game: f64,
    /// The strategy's exact win probability.
    pub exact: f64,
    /// The optimal win probability.
    pub optimal: f64,
    /// raven's version.
    pub raven_version: &'static str,
}

/// The CSV rows of `result`, one per (stealth, kind of decision).
pub fn rows(strategy: &str, rules: Rules, result: &[Decisions]) -> Vec<DecisionRow> {
    result
        .iter()
        .flat_map(|d| {
            DecisionKind::ALL.into_iter().map(move |k| {
                let i = k as usize;
                DecisionRow {
                    strategy: strategy.to_string(),
                    rules: rules.to_string(),
                    stealth: d.stealth,
                    decision: k.key(),
                    regret: d.by_kind.regret[i],
                    arises_per_game: d.by_kind.arises[i],
                    matters_per_game: d.by_kind.matters[i],
                    exact: d.exact,
                    optimal: d.optimal,
                    raven_version: env!("CARGO_PKG_VERSION"),
                }
            })
        })
        .collect()
}

/// One CSV row of the costliest positions: one of the positions where a strategy loses most.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct TopRow {
    /// Strategy name.
    pub strategy: String,
    /// Rules (preset name, or every flag).
    pub rules: String,
    /// Starting stealth.
    pub stealth: u8,
    /// 1 for the costliest position at this stealth.
    pub rank: usize,
    /// The kind of decision.
    pub decision: &'static str,
    /// The position and the question it asks, in words.
    pub position: String,
    /// The strategy's choice, in words.
    pub choice: String,
    /// The best option, in words.
    pub best: String,
    /// Win probability lost here per game (0–1): `reach × shortfall`.
    pub regret: f64,
    /// The probability that the strategy reaches this position.
    pub reach: f64,
    /// Win probability lost here when the position is reached: `best_value − choice_value`.
    pub shortfall: f64,
    /// Optimal win probability from here, taking the best option.
    pub best_value: f64,
    /// Win probability from here taking the strategy's choice, optimal play afterwards.
    pub choice_value: f64,
    /// raven's version.
    pub raven_version: &'static str,
}

/// The CSV rows of the costliest positions of `result`, one per (stealth, rank).
pub fn top_rows(strategy: &str, rules: Rules, result: &[Decisions]) -> Vec<TopRow> {
    result
        .iter()
        .flat_map(|d| {
            d.top.iter().enumerate().map(move |(i, c)| {
                let said = Said::of(&rules, c);
                TopRow {
                    strategy: strategy.to_string(),
                    rules: rules.to_string(),
                    stealth: d.stealth,
                    rank: i + 1,
                    decision: c.kind().key(),
                    position: said.position,
                    choice: said.choice,
                    best: said.best,
                    regret: c.regret(),
                    reach: c.reach,
                    shortfall: c.shortfall(),
                    best_value: c.best_value,
                    choice_value: c.chosen_value,
                    raven_version: env!("CARGO_PKG_VERSION"),
                }
            })
        })
        .collect()
}

/// A costly position in words.
pub struct Said {
    /// Where the game and the team stand, and the question asked.
    pub position: String,
    /// The strategy's answer.
    pub choice: String,
    /// The best option.
    pub best: String,
}

impl Said {
    /// `c` in words, under `rules` (the dice an option rolls depend on them).
    pub fn of(rules: &Rules, c: &Costly) -> Said {
        Said {
            position: words::position(&c.state, c.decision),
            choice: words::choice(&c.state, rules, c.choice),
            best: words::option(&c.state, rules, c.best),
        }
    }
}

/// One stealth's costliest positions for a terminal, numbered, each in three lines: what it
/// costs, where, and the choice against the best.
pub fn top_text(rules: &Rules, d: &Decisions) -> String {
    if d.top.is_empty() {
        return "  no position costs anything: the strategy plays optimally here\n".to_string();
    }
    let mut text = format!("  costliest positions (top {}):\n", d.top.len());
    for (i, c) in d.top.iter().enumerate() {
        let said = Said::of(rules, c);
        text += &format!(
            "  {:>3}. {:.3} pp  {} (reached in {:.2}% of games, {:.2} pp lost each time)\n\
             {:>8}{}\n{:>8}chose: {}; best: {}\n",
            i + 1,
            100.0 * c.regret(),
            c.kind().key(),
            100.0 * c.reach,
            100.0 * c.shortfall(),
            "",
            said.position,
            "",
            said.choice,
            said.best,
        );
    }
    text
}
