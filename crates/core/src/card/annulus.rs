//! The Annulus operation challenge's rulebook for the search: its rules of thumb
//! ([`crate::games::annulus::card`]) valued exactly by the engines for any game, at each number
//! of players searched.

use rustc_hash::FxHashMap;

use super::Rulebook;
use crate::engine::Budget;
use crate::engine::generic::sample::{play, stream};
use crate::engine::generic::{Optimum, Solved, Stop, evaluate};
use crate::games::annulus::card::{Condition, Fact, Play, Rule};
use crate::games::annulus::strategy::Knobs;
use crate::games::annulus::{Annulus as Game, Pos};
use crate::games::{Game as _, Point};

/// The rulebook: the base file's knobs behind the rules, optimal play solved at each design
/// searched (one per number of players), and how many challenges each search for the
/// costliest positions samples.
pub struct Annulus<'a> {
    /// Optimal play at each design.
    pub solved: &'a [Solved<'a, Game>],
    /// The knobs behind the rules.
    pub base: Knobs,
    /// The budget of every exact evaluation.
    pub budget: Budget<'a>,
    /// Challenges sampled per design to find where a card loses most.
    pub sampled: u64,
    /// Their seed.
    pub seed: u64,
}

/// A decision point where a card loses points: at which design, where, and what it costs per
/// challenge (how often it is met × the points its answer gives up there).
pub struct Spot {
    design: usize,
    pos: Pos,
    cost: f64,
}

impl Annulus<'_> {
    /// The base with `card` as its rules.
    pub fn strategy(&self, card: &[Rule]) -> Knobs {
        self.base.with_card(card.to_vec(), "card")
    }
}

impl Rulebook for Annulus<'_> {
    type Rule = Rule;
    type Spot = Spot;
    type Stop = Stop;

    /// A card whose play can go on for ever (rules that undo each other's adjustments) is
    /// worth nothing: no one should follow it.
    fn value(&self, card: &[Rule]) -> Result<Vec<f64>, Stop> {
        let strategy = self.strategy(card);
        self.solved
            .iter()
            .map(|s| match evaluate(s.game(), &strategy, self.budget) {
                Ok(figures) => Ok(figures.win),
                Err(Stop::Endless { .. }) => Ok(0.0),
                Err(stop) => Err(stop),
            })
            .collect()
    }

    /// The decision points met in sampled challenges, each costing how often it was met per
    /// challenge times the points the card's answer gives up there (the mean over the
    /// designs); costliest first, equal costs in the order of the designs and then of the
    /// positions' keys.
    fn costliest(&self, card: &[Rule], count: usize) -> Result<Vec<Spot>, Stop> {
        let strategy = self.strategy(card);
        let mut spots = Vec::new();
        for (design, solved) in self.solved.iter().enumerate() {
            self.budget.check_cancel().map_err(|_| Stop::Cancelled)?;
            let game = solved.game();
            let mut met: FxHashMap<Pos, u32> = FxHashMap::default();
            for i in 0..self.sampled {
                play(game, &strategy, &mut stream(self.seed, i), &mut |pos| {
                    if matches!(game.point(pos), Point::Decision(_)) {
                        *met.entry(*pos).or_insert(0) += 1;
                    }
                });
            }
            let mut here: Vec<Spot> = met
                .into_iter()
                .filter_map(|(pos, n)| {
                    let values = solved.option_values(&pos);
                    let best = values.iter().map(|&(_, v)| v).fold(f64::MIN, f64::max);
                    let chosen = strategy.choose(game, &pos);
                    let value = values.iter().find(|(m, _)| *m == chosen)?.1;
                    let gap = best - value;
                    (gap > 1e-12).then(|| Spot {
                        design,
                        pos,
                        cost: f64::from(n) / self.sampled as f64 * gap / self.solved.len() as f64,
                    })
                })
                .collect();
            here.sort_by_key(|s| game.key(&s.pos));
            spots.extend(here);
        }
        spots.sort_by(|a, b| b.cost.total_cmp(&a.cost));
        spots.truncate(count);
        Ok(spots)
    }

    fn cost(&self, spot: &Spot) -> f64 {
        spot.cost
    }

    fn specific(&self, spot: &Spot) -> Option<Rule> {
        let solved = &self.solved[spot.design];
        let game = solved.game();
        let values = solved.option_values(&spot.pos);
        let best = values.iter().map(|&(_, v)| v).fold(f64::MIN, f64::max);
        let then = Play::all().into_iter().find(|play| {
            let m = play.choose(game, &spot.pos);
            values.iter().any(|&(o, v)| o == m && v >= best - 1e-12)
        })?;
        let when = Fact::ALL
            .into_iter()
            // A fact that never varies under these rules says nothing.
            .filter(|&f| f != Fact::Tried || game.rules().action_limit.is_some())
            .map(|fact| {
                let v = fact.of(game, &spot.pos);
                Condition {
                    fact,
                    low: v,
                    high: v,
                }
            })
            .collect();
        Some(Rule { when, then })
    }

    fn generalisations(&self, rule: &Rule) -> Vec<Rule> {
        let mut out = Vec::new();
        for (i, c) in rule.when.iter().enumerate() {
            let mut dropped = rule.clone();
            dropped.when.remove(i);
            out.push(dropped);
            if c.low > 0 {
                let mut wider = rule.clone();
                wider.when[i].low = 0;
                out.push(wider);
            }
            if c.high < c.fact.most() {
                let mut wider = rule.clone();
                wider.when[i].high = c.fact.most();
                out.push(wider);
            }
        }
        out
    }

    fn with(&self, card: &[Rule], rule: Rule) -> Vec<Rule> {
        std::iter::once(rule).chain(card.iter().cloned()).collect()
    }
}
