//! The regret decomposition ([`mod@crate::engine::decisions`]) as outputs: tidy CSV rows, one per
//! (strategy, rules, stealth, kind of decision) and one per costly position, and the costly
//! positions in words. Shared by `raven decisions` and the report.

use serde::{Deserialize, Serialize};

use crate::engine::decisions::{ByKind, Costly, Decisions, MATTERS};
use crate::game::DecisionKind;
use crate::rules::Rules;

use super::words;

/// A strategy's regret decomposition under one set of rules, at one or more stealths.
#[derive(Clone, Debug)]
pub struct Decomposed {
    /// Strategy name.
    pub strategy: String,
    /// The rules in force.
    pub rules: Rules,
    /// One per starting stealth.
    pub results: Vec<Told>,
}

/// One stealth's decomposition as the outputs tell it: the engine's [`Decisions`] with its
/// costliest positions put in words once, so that every output (the terminal, both CSVs,
/// the report's text) says the same, and so that a report shard can carry it to
/// `raven merge` as plain data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Told {
    /// Starting stealth.
    pub stealth: u8,
    /// The optimal win probability.
    pub optimal: f64,
    /// The strategy's exact win probability.
    pub exact: f64,
    /// Regret, arising and mattering by kind of decision.
    pub by_kind: ByKind,
    /// The costliest positions, costliest first.
    pub top: Vec<CostlyTold>,
}

/// One of the costliest positions ([`Costly`]) in words, with its figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostlyTold {
    /// Its kind of decision.
    pub kind: DecisionKind,
    /// The position, its choice and the best option in words ([`Said`]).
    pub position: String,
    /// The strategy's answer.
    pub choice: String,
    /// The best option.
    pub best: String,
    /// The probability that the strategy reaches the position.
    pub reach: f64,
    /// `V*`.
    pub best_value: f64,
    /// `Q*` of the strategy's choice.
    pub chosen_value: f64,
    /// Equal for two positions in the same game and team with the same choice and best
    /// option, which the report reads as one ([`alike_runs`]).
    pub alike: String,
}

impl CostlyTold {
    /// `c` told under `rules` (the dice an option rolls depend on them).
    pub fn of(rules: &Rules, c: &Costly) -> CostlyTold {
        let said = Said::of(rules, c);
        CostlyTold {
            kind: c.kind(),
            position: said.position,
            choice: said.choice,
            best: said.best,
            reach: c.reach,
            best_value: c.best_value,
            chosen_value: c.chosen_value,
            alike: format!(
                "{}; {}; {:?}; {:?}",
                words::stage(&c.state, rules),
                words::status(&c.state),
                c.choice,
                c.best
            ),
        }
    }

    /// Win probability lost here when the position is reached: `V* − Q*`.
    pub fn shortfall(&self) -> f64 {
        self.best_value - self.chosen_value
    }

    /// Its term of the decomposition: `P(reach) × (V* − Q*)`.
    pub fn regret(&self) -> f64 {
        self.reach * self.shortfall()
    }
}

impl Told {
    /// `d` told under `rules`.
    pub fn of(rules: &Rules, d: &Decisions) -> Told {
        Told {
            stealth: d.stealth,
            optimal: d.optimal,
            exact: d.exact,
            by_kind: d.by_kind,
            top: d.top.iter().map(|c| CostlyTold::of(rules, c)).collect(),
        }
    }
}

impl Decomposed {
    /// The decomposition of `strategy` under `rules`, told.
    pub fn new(strategy: &str, rules: Rules, results: &[Decisions]) -> Decomposed {
        Decomposed {
            strategy: strategy.to_string(),
            rules,
            results: results.iter().map(|d| Told::of(&rules, d)).collect(),
        }
    }

    /// The decomposition at `stealth`, if it covers it.
    pub fn at(&self, stealth: u8) -> Option<&Told> {
        self.results.iter().find(|d| d.stealth == stealth)
    }

    /// Its CSV rows by kind of decision ([`rows`]).
    pub fn rows(&self) -> Vec<DecisionRow> {
        rows(&self.strategy, self.rules, &self.results)
    }

    /// Its CSV rows of costliest positions ([`top_rows`]).
    pub fn top_rows(&self) -> Vec<TopRow> {
        top_rows(&self.strategy, self.rules, &self.results)
    }
}

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
    #[serde(serialize_with = "raven_core::rows::round")]
    pub regret: f64,
    /// Decisions of this kind with more than one option, per game.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub arises_per_game: f64,
    /// Of those, per game, the ones whose best and worst options differ by more than a point.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub matters_per_game: f64,
    /// The strategy's exact win probability.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub exact: f64,
    /// The optimal win probability.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub optimal: f64,
    /// raven's version.
    pub raven_version: &'static str,
}

/// The CSV rows of `result`, one per (stealth, kind of decision).
pub fn rows(strategy: &str, rules: Rules, result: &[Told]) -> Vec<DecisionRow> {
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
    #[serde(serialize_with = "raven_core::rows::round")]
    pub regret: f64,
    /// The probability that the strategy reaches this position.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub reach: f64,
    /// Win probability lost here when the position is reached: `best_value − choice_value`.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub shortfall: f64,
    /// Optimal win probability from here, taking the best option.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub best_value: f64,
    /// Win probability from here taking the strategy's choice, optimal play afterwards.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub choice_value: f64,
    /// raven's version.
    pub raven_version: &'static str,
}

/// The CSV rows of the costliest positions of `result`, one per (stealth, rank).
pub fn top_rows(strategy: &str, rules: Rules, result: &[Told]) -> Vec<TopRow> {
    result
        .iter()
        .flat_map(|d| {
            d.top.iter().enumerate().map(move |(i, c)| TopRow {
                strategy: strategy.to_string(),
                rules: rules.to_string(),
                stealth: d.stealth,
                rank: i + 1,
                decision: c.kind.key(),
                position: c.position.clone(),
                choice: c.choice.clone(),
                best: c.best.clone(),
                regret: c.regret(),
                reach: c.reach,
                shortfall: c.shortfall(),
                best_value: c.best_value,
                choice_value: c.chosen_value,
                raven_version: env!("CARGO_PKG_VERSION"),
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
            position: words::position(&c.state, rules, c.decision),
            choice: words::choice(&c.state, rules, c.choice),
            best: words::option(&c.state, rules, c.best),
        }
    }
}

/// One stealth's costliest positions for a terminal, numbered, each in three lines: what it
/// costs, where, and the choice against the best.
pub fn top_text(d: &Told) -> String {
    if d.top.is_empty() {
        return "  no position costs anything: the strategy plays optimally here\n".to_string();
    }
    let mut text = format!("  costliest positions (top {}):\n", d.top.len());
    for (i, c) in d.top.iter().enumerate() {
        text += &format!(
            "  {:>3}. {:.3} pp  {} (reached in {:.2}% of games, {:.2} pp lost each time)\n\
             {:>8}{}\n{:>8}chose: {}; best: {}\n",
            i + 1,
            100.0 * c.regret(),
            c.kind.key(),
            100.0 * c.reach,
            100.0 * c.shortfall(),
            "",
            c.position,
            "",
            c.choice,
            c.best,
        );
    }
    text
}

/// A kind of decision in a few plain words, for the report.
pub fn plain(kind: DecisionKind) -> &'static str {
    match kind {
        DecisionKind::MainCharacter => "main character",
        DecisionKind::RecruitTarget => "whom to recruit (or stop)",
        DecisionKind::RecruitRoller => "who rolls to recruit (or stop)",
        DecisionKind::RunType => "run type on a 6",
        DecisionKind::RunRoller => "who takes a run challenge",
        DecisionKind::FinaleCharacter => "finale character",
        DecisionKind::SideChallenge => "side challenges (who tries, pass, give up)",
        DecisionKind::Substitute => "substitute finale character",
        DecisionKind::FirstAid => "first aid (skip, or who treats whom)",
    }
}

/// Regret below this (a hundredth of a point) is not worth a word in the report.
const WORTH_SAYING: f64 = 1e-4;

/// How many of the costliest positions the report's text lists (the CSV has them all).
const LISTED: usize = 5;

/// The kinds of `d` with a regret worth saying, biggest first, as "name 12.1 (34%)".
pub(super) fn losses(d: &Told) -> Vec<String> {
    let total = d.optimal - d.exact;
    let mut kinds: Vec<DecisionKind> = DecisionKind::ALL
        .into_iter()
        .filter(|k| d.by_kind.regret[*k as usize] >= WORTH_SAYING)
        .collect();
    kinds.sort_by(|a, b| d.by_kind.regret[*b as usize].total_cmp(&d.by_kind.regret[*a as usize]));
    kinds
        .into_iter()
        .map(|k| {
            let regret = d.by_kind.regret[k as usize];
            format!(
                "*{}* {:.1} ({:.0}%)",
                plain(k),
                100.0 * regret,
                100.0 * regret / total
            )
        })
        .collect()
}

/// `top` in runs of neighbours alike: the same term, kind, choice and best option in the same
/// game and team (positions that differ only in what neither option reads, such as the
/// complication of a character nobody will recruit, are listed apart but read as one).
fn alike_runs(top: &[CostlyTold]) -> impl Iterator<Item = &[CostlyTold]> {
    top.chunk_by(|a, b| {
        a.kind == b.kind
            && a.alike == b.alike
            && (a.regret() - b.regret()).abs() <= 1e-12 * a.regret()
    })
}

/// The report's paragraphs on which decisions matter under `rules`, from the regret
/// decomposition: where `reference` loses its points at stealth `mid` (and at the other
/// stealths it covers), its costliest positions, which kinds of decision are real choices,
/// and where each other strategy of `decomposed` loses most; `left_out` names the strategies
/// not covered. Nothing if the reference is not decomposed under `rules`.
pub fn reading(
    decomposed: &[Decomposed],
    left_out: &[String],
    rules: Rules,
    reference: &str,
    mid: u8,
) -> Vec<String> {
    let mut out = Vec::new();
    let decomposed: Vec<&Decomposed> = decomposed.iter().filter(|d| d.rules == rules).collect();
    let Some(by_reference) = decomposed.iter().find(|d| d.strategy == reference) else {
        return out;
    };
    let Some(d) = by_reference.at(mid) else {
        return out;
    };
    let others: Vec<String> = by_reference
        .results
        .iter()
        .filter(|o| o.stealth != mid)
        .map(|o| {
            let first: Vec<String> = losses(o).into_iter().take(2).collect();
            format!(
                "at stealth {} it leaves {:.1}, most at {}",
                o.stealth,
                100.0 * (o.optimal - o.exact),
                first.join(" and ")
            )
        })
        .collect();
    let others = if others.is_empty() {
        String::new()
    } else {
        format!(" At the other headline stealths: {}.", others.join("; "))
    };
    out.push(format!(
        "**Which decisions matter.** Under {rules} at stealth {mid}, the reference strategy wins \
         {:.1}% of games and optimal play {:.1}%. The {:.1} points it leaves are lost, exactly \
         (each decision's shortfall against the best option, weighted by how often the \
         strategy meets it; `decisions.csv`), at: {}.{others}",
        100.0 * d.exact,
        100.0 * d.optimal,
        100.0 * (d.optimal - d.exact),
        losses(d).join("; "),
    ));
    if !d.top.is_empty() {
        let mut list = format!(
            "**Its costliest positions** at stealth {mid}: points lost per game (how often the \
             position is reached × what the choice loses there; positions alike but for the \
             names of members the strategy tells apart only by their order are one, named as \
             first met); `decisions-top.csv` has the top {} at every stealth covered, for \
             every strategy covered.\n",
            d.top.len()
        );
        let mut rank = 0;
        for group in alike_runs(&d.top).take(LISTED) {
            let c = &group[0];
            // A bulleted list: a numbered one would be renumbered past a run of alike ranks.
            let (ranks, each) = match group.len() {
                1 => (format!("{}", rank + 1), String::new()),
                n => (
                    format!("{}–{}", rank + 1, rank + n),
                    format!(
                        " each, at {n} positions alike (the same game, team, choice and best \
                         option; the question differs), the first"
                    ),
                ),
            };
            list += &format!(
                "\n- **{ranks}.** {:.2} points{each}: *{}* It chooses {}; best is {} ({:.1} \
                 points better, reached in {:.1}% of games).",
                100.0 * c.regret(),
                c.position,
                c.choice,
                c.best,
                100.0 * c.shortfall(),
                100.0 * c.reach,
            );
            rank += group.len();
        }
        out.push(list);
    }
    out.push(choices(d));
    let elsewhere: Vec<String> = decomposed
        .iter()
        .filter(|s| s.strategy != reference)
        .filter_map(|s| {
            let o = s.at(mid)?;
            let first: Vec<String> = losses(o).into_iter().take(2).collect();
            Some(if first.is_empty() {
                format!("`{}` loses nothing", s.strategy)
            } else {
                format!(
                    "`{}` leaves {:.1}, most at {}",
                    s.strategy,
                    100.0 * (o.optimal - o.exact),
                    first.join(" and ")
                )
            })
        })
        .collect();
    if !elsewhere.is_empty() {
        let not = if left_out.is_empty() {
            String::new()
        } else {
            format!(
                " Not covered, over the report's memory budget: {} (`raven decisions \
                 --strategy NAME --max-memory SIZE`).",
                left_out
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        out.push(format!(
            "**Where the other strategies lose** (stealth {mid}, points against optimal play): \
             {}.{not}",
            elsewhere.join("; ")
        ));
    }
    out
}

/// Which kinds of decision are real choices along the strategy's games: per kind, how often
/// it arises with more than one option, and the share of those whose best and worst options
/// differ by more than [`MATTERS`].
fn choices(d: &Told) -> String {
    let arises: f64 = d.by_kind.arises.iter().sum();
    let matters: f64 = d.by_kind.matters.iter().sum();
    let mut kinds: Vec<DecisionKind> = DecisionKind::ALL
        .into_iter()
        .filter(|k| d.by_kind.arises[*k as usize] > 0.0)
        .collect();
    let share = |k: &DecisionKind| d.by_kind.matters[*k as usize] / d.by_kind.arises[*k as usize];
    kinds.sort_by(|a, b| share(b).total_cmp(&share(a)));
    let never: Vec<String> = DecisionKind::ALL
        .into_iter()
        .filter(|k| d.by_kind.arises[*k as usize] == 0.0)
        .map(|k| format!("*{}*", plain(k)))
        .collect();
    let never = if never.is_empty() {
        String::new()
    } else {
        format!(" Never met with a choice: {}.", never.join(", "))
    };
    format!(
        "**Which decisions are real choices.** A game played by the reference strategy at \
         stealth {} meets {arises:.1} decisions with more than one option; in {matters:.1} of \
         them the best and worst options differ by more than {:.0} point. The share that \
         matters, by kind (and how many per game): {}.{never}",
        d.stealth,
        100.0 * MATTERS,
        kinds
            .iter()
            .map(|k| format!(
                "*{}* {:.0}% ({:.1})",
                plain(*k),
                100.0 * share(k),
                d.by_kind.arises[*k as usize]
            ))
            .collect::<Vec<_>>()
            .join("; ")
    )
}
