//! The designer's balance report: the results of `raven report` ([`Balance`]) and its tidy
//! CSV rows. Its charts are drawn by [`super::charts`] and its page written by
//! [`super::readme`]; nothing here computes a number.

use serde::Serialize;

use crate::card::Ranked;
use crate::game::LossCause;
use crate::rules::Rules;
use crate::strategy::OPTIMAL;
use crate::strategy::file::card::Rule;
use crate::tune::Sensitivity;
use raven_core::quality::Assessed;

use super::Summary;
use super::decisions::Decomposed;
use super::habits::Watched;

/// Every result of one report run.
pub struct Balance {
    /// The most positions an exact evaluation was allowed (strategies over it are sampled).
    pub exact_budget: usize,
    /// The command line that produced it.
    pub command: String,
    /// The presets compared, default first.
    pub presets: Vec<Rules>,
    /// Strategies in report order (`optimal` is added separately).
    pub strategies: Vec<String>,
    /// Headline stealths (rule variants, loss causes, comparisons).
    pub headline: Vec<u8>,
    /// Win rates: exact / optimal and Monte Carlo summaries for every (strategy, rules,
    /// stealth), `optimal` included.
    pub win_rates: Vec<Summary>,
    /// Rule-variant effects.
    pub variants: Vec<VariantRow>,
    /// Lever effects: each design parameter one step from the printed game (`variant` is its
    /// `key=value`).
    pub levers: Vec<VariantRow>,
    /// The regret decomposition of the strategies it covers, under the default rules: the
    /// reference at every headline stealth, the others at the middle one.
    pub decisions: Vec<Decomposed>,
    /// Bundled strategies the decomposition leaves out (for its cost, or over the budget).
    pub decisions_left_out: Vec<String>,
    /// How optimal play and the reference play under the default reading, at each headline
    /// stealth (empty when not computed).
    pub watched: Vec<Watched>,
    /// The knobs of the strategy file the report recommends, each with its best other value
    /// and what that costs (`raven tune`'s sensitivities, under the default reading at the
    /// headline stealths); empty when not computed.
    pub rules_of_thumb: Vec<Sensitivity>,
    /// Is it a good game? Optimal play, the recommended file and the reference assessed at
    /// the headline stealths under the default reading; `None` when not computed.
    pub quality: Option<Assessment>,
    /// The bundled rule card of each preset, read back at the headline stealths; empty when
    /// not computed.
    pub cards: Vec<ShownCard>,
}

/// A bundled rule card read back under one preset's rules at the report's headline stealths
/// ([`super::card::cards`]).
pub struct ShownCard {
    /// The rules it is read under.
    pub rules: Rules,
    /// The bundled card ([`crate::card::bundled_card`]).
    pub name: &'static str,
    /// The knob file its knobs started from.
    pub from: &'static str,
    /// Its knobs that differ from that file's (`section.key = value`).
    pub changed: Vec<String>,
    /// Its rules by worth and its ladder, at the headline stealths.
    pub ranked: Ranked<Rule>,
    /// Optimal play's win probability at the headline stealths.
    pub optimal: Vec<f64>,
}

/// The quality assessment of a report: luck and skill, tension, when games are decided and
/// their length ([`raven_core::quality::assess`]).
pub struct Assessment {
    /// The rules (the default reading).
    pub rules: Rules,
    /// The game's stages, as it names them ([`raven_core::games::Game::phases`]).
    pub stages: Vec<String>,
    /// Games sampled per row.
    pub games: u64,
    /// Their seed.
    pub seed: u64,
    /// Per player, per headline stealth; the win probability is `win-rates.csv`'s.
    pub assessed: Vec<Assessed>,
    /// The example: one game of the recommended file at the middle headline stealth, as
    /// `raven play` plays it.
    pub example: Example,
}

/// One game as optimal play's chance of winning saw it, step by step.
pub struct Example {
    /// Who played it.
    pub strategy: String,
    /// From which starting stealth.
    pub stealth: u8,
    /// Which game (`raven play --game`), under the report's seed.
    pub index: u64,
    /// The chance at the start.
    pub start: f64,
    /// Every step.
    pub steps: Vec<raven_core::engine::generic::quality::Step>,
    /// Whether it was won.
    pub won: bool,
}

impl Balance {
    /// The middle headline stealth: the one the report's words are about.
    pub fn mid(&self) -> u8 {
        self.headline[self.headline.len() / 2]
    }

    /// The header and rule lines of a Markdown table with a column per preset and headline
    /// stealth, a strategy per row.
    pub fn table_head(&self) -> (String, String) {
        let mut header = "| strategy |".to_string();
        let mut rule = "|---|".to_string();
        for rules in &self.presets {
            for st in &self.headline {
                header += &format!(" {rules} {st} |");
                rule += "---:|";
            }
        }
        (header, rule)
    }

    /// The exact (or optimal) summary of `strategy` under `rules` at `stealth`.
    pub fn exact(&self, strategy: &str, rules: Rules, stealth: u8) -> Option<&Summary> {
        exact_of(self, strategy, rules, stealth)
    }
}

/// One row of `rule-variants.csv`: a single flag switched from the default reading.
#[derive(Clone, Debug, Serialize)]
pub struct VariantRow {
    /// `key=value` of the flag switched (`default` for the baseline row).
    pub variant: String,
    /// The full rules in force.
    pub rules: String,
    /// Starting stealth.
    pub stealth: u8,
    /// `reference` (exact) or `optimal`.
    pub strategy: String,
    /// `exact` or `optimal`.
    pub method: String,
    /// Win probability under the variant.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub win_rate: f64,
    /// Win probability under the default rules.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub default_win_rate: f64,
    /// `win_rate - default_win_rate` (a 0–1 fraction; ×100 for percentage points).
    #[serde(serialize_with = "raven_core::rows::round")]
    pub effect: f64,
    /// raven's version.
    pub raven_version: &'static str,
}

/// One row of `loss-causes.csv`.
#[derive(Clone, Debug, Serialize)]
pub struct LossRow {
    /// Strategy.
    pub strategy: String,
    /// Rules in force.
    pub rules: String,
    /// Starting stealth.
    pub stealth: u8,
    /// `exact`, `optimal` or `monte-carlo`.
    pub method: String,
    /// Phase where the game was lost: `recruitment`, `run` or `finale`.
    pub phase: &'static str,
    /// `no_able_member` (R4) or `finale_character_down` (R14).
    pub cause: &'static str,
    /// Probability of losing this way (0–1).
    #[serde(serialize_with = "raven_core::rows::round")]
    pub probability: f64,
    /// Games played (Monte Carlo rows; empty for exact rows).
    pub games: Option<u64>,
    /// Games lost this way (Monte Carlo rows).
    pub losses: Option<u64>,
    /// raven's version.
    pub raven_version: &'static str,
}

/// The loss-cause rows of the headline stealths, from the win-rate summaries.
pub fn loss_rows(balance: &Balance) -> Vec<LossRow> {
    let mut rows = Vec::new();
    for s in balance
        .win_rates
        .iter()
        .filter(|s| balance.headline.contains(&s.stealth))
    {
        for (i, cause) in LossCause::ALL.into_iter().enumerate() {
            let (phase, kind) = match cause {
                LossCause::Recruitment => ("recruitment", "no_able_member"),
                LossCause::Run => ("run", "no_able_member"),
                LossCause::Finale => ("finale", "no_able_member"),
                LossCause::FinaleCharacterDown => ("finale", "finale_character_down"),
            };
            rows.push(LossRow {
                strategy: s.strategy.clone(),
                rules: s.rules.to_string(),
                stealth: s.stealth,
                method: s.method.to_string(),
                phase,
                cause: kind,
                probability: s.loss_rates[i],
                games: s.sample.map(|(t, _)| t.games),
                losses: s.sample.map(|(t, _)| t.losses[i]),
                raven_version: env!("CARGO_PKG_VERSION"),
            });
        }
    }
    rows
}

/// The summary of `strategy` under `rules` at `stealth`: the Monte Carlo one if `sampled`,
/// else the exact (or optimal) one.
pub(super) fn find<'a>(
    balance: &'a Balance,
    strategy: &str,
    rules: Rules,
    stealth: u8,
    sampled: bool,
) -> Option<&'a Summary> {
    balance.win_rates.iter().find(|s| {
        s.strategy == strategy
            && s.rules == rules
            && s.stealth == stealth
            && (s.method == super::Method::MonteCarlo) == sampled
    })
}

/// The exact (or optimal) summary.
pub(super) fn exact_of<'a>(
    b: &'a Balance,
    strategy: &str,
    rules: Rules,
    stealth: u8,
) -> Option<&'a Summary> {
    find(b, strategy, rules, stealth, false)
}

/// The Monte Carlo summary.
pub(super) fn sampled_of<'a>(
    b: &'a Balance,
    strategy: &str,
    rules: Rules,
    stealth: u8,
) -> Option<&'a Summary> {
    find(b, strategy, rules, stealth, true)
}

/// All strategies of the report, `optimal` last.
pub(super) fn all_strategies(balance: &Balance) -> Vec<&str> {
    let mut names: Vec<&str> = balance.strategies.iter().map(String::as_str).collect();
    names.push(OPTIMAL);
    names
}
