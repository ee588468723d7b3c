//! The rule card: the rules of thumb a person can follow, found one at a time, each the one
//! that gains the most exact win probability, from where the strategy loses its points.
//!
//! The search knows no game. A game offers a [`Rulebook`]: the exact value of a strategy made
//! of a base (its knobs) and an ordered list of rules, the positions where such a strategy
//! loses most, the most specific rule that plays one of them as optimal play would (every fact
//! a player sees there, and the best option in the player's words), the rules one step more
//! general than a rule (a condition dropped or widened), and where a new rule goes in a card.
//! The search ([`search`]) then, rule after rule: takes the costliest positions of the card so
//! far, sums the costs of those with the same specific rule, makes each of the costliest
//! specific rules as general as it can without losing value (through the more general rules in
//! the rulebook's order, taking each that keeps or raises the exact value), and adds the one of
//! highest value, until the card holds `max_rules` or the best gains less than `min_gain`.
//!
//! Every candidate is evaluated exactly; candidates are evaluated in parallel, and every choice
//! among them goes to the highest value, ties to the first in a fixed order, so the same inputs
//! give the same card on any number of threads.

mod annulus;
mod raven;

pub use annulus::Annulus;
pub use raven::{PurpleRaven, bundled_card, sentence};

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::par::*;

/// What the search needs of a game: its rules of thumb, their exact value, and where a card
/// loses points.
pub trait Rulebook: Sync {
    /// One rule of thumb.
    type Rule: Clone + PartialEq + Send + Sync + std::fmt::Display;
    /// A position where a card loses points, as the game lists it.
    type Spot: Send + Sync;
    /// Why the game's exact engines stopped without a value (too large, cancelled).
    type Stop: Send;

    /// The exact win probability of the base with `card`'s rules, at each stealth searched.
    fn value(&self, card: &[Self::Rule]) -> Result<Vec<f64>, Self::Stop>;

    /// The positions where `card` loses most, costliest first (at most `count`).
    fn costliest(&self, card: &[Self::Rule], count: usize) -> Result<Vec<Self::Spot>, Self::Stop>;

    /// What `spot` costs per game.
    fn cost(&self, spot: &Self::Spot) -> f64;

    /// The rule that plays `spot` as optimal play does, with every fact a player sees there
    /// as a condition; `None` if no option in the player's words does.
    fn specific(&self, spot: &Self::Spot) -> Option<Self::Rule>;

    /// Rules one step more general than `rule`, in a fixed order: a condition dropped, a
    /// range widened.
    fn generalisations(&self, rule: &Self::Rule) -> Vec<Self::Rule>;

    /// `card` with `rule` added where it is read (before the rules it should overrule).
    fn with(&self, card: &[Self::Rule], rule: Self::Rule) -> Vec<Self::Rule>;
}

/// How far to search.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The most rules on the card.
    pub max_rules: usize,
    /// The smallest gain (mean win probability over the stealths) worth a rule.
    pub min_gain: f64,
    /// How many of the costliest positions each step generalises into candidates.
    pub spots: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_rules: 20,
            min_gain: 1e-4,
            spots: 6,
        }
    }
}

/// One rule added by the search.
#[derive(Clone, Debug, PartialEq)]
pub struct Added<R> {
    /// The rule.
    pub rule: R,
    /// The card's value at each stealth once it was added.
    pub values: Vec<f64>,
    /// What it gained: the mean over the stealths, in win probability.
    pub gain: f64,
}

/// What the search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Found<R> {
    /// The base's value at each stealth (no rules).
    pub base: Vec<f64>,
    /// The rules in the order added, each with what it gained.
    pub added: Vec<Added<R>>,
    /// The card: the rules in the order they are read.
    pub card: Vec<R>,
    /// Candidates evaluated exactly.
    pub evaluated: usize,
}

impl<R> Found<R> {
    /// The value at each stealth with the first `n` rules added (the ladder's rungs).
    pub fn with_rules(&self, n: usize) -> &[f64] {
        match n.min(self.added.len()) {
            0 => &self.base,
            n => &self.added[n - 1].values,
        }
    }
}

/// The mean of `values`, summed in order.
pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

/// How many of the costliest positions the search reads per candidate it climbs from.
const LOOK: usize = 40;

/// A climb's rule and its values at each stealth, or why it stopped.
type Climbed<R, E> = Result<(R, Vec<f64>), E>;

/// The greedy search ([module documentation](self)). `on_rule` hears of each rule added.
pub fn search<B: Rulebook>(
    book: &B,
    limits: Limits,
    on_rule: &(dyn Fn(&Added<B::Rule>) + Sync),
) -> Result<Found<B::Rule>, B::Stop> {
    let base = book.value(&[])?;
    let mut found = Found {
        base: base.clone(),
        added: Vec::new(),
        card: Vec::new(),
        evaluated: 1,
    };
    let mut current = mean(&base);
    let evaluated = AtomicUsize::new(0);
    while found.added.len() < limits.max_rules {
        // The specific rules of the costliest positions, positions with the same one
        // together: their costs summed, the costliest `spots` of them (ties: the first met).
        let spots = book.costliest(&found.card, limits.spots * LOOK)?;
        let mut summed: Vec<(B::Rule, f64)> = Vec::new();
        for spot in &spots {
            if let Some(rule) = book.specific(spot) {
                let cost = book.cost(spot);
                match summed.iter_mut().find(|(r, _)| *r == rule) {
                    Some((_, c)) => *c += cost,
                    None => summed.push((rule, cost)),
                }
            }
        }
        summed.sort_by(|a, b| b.1.total_cmp(&a.1));
        let starts: Vec<B::Rule> = (summed.into_iter())
            .take(limits.spots)
            .map(|(r, _)| r)
            .collect();
        if starts.is_empty() {
            break;
        }
        let card = &found.card;
        // Values of this step's candidates by their text: climbs from different positions
        // often meet the same rule.
        let memo: Mutex<HashMap<String, Vec<f64>>> = Mutex::new(HashMap::new());
        let value = |rule: &B::Rule| -> Result<Vec<f64>, B::Stop> {
            let key = rule.to_string();
            if let Some(v) = memo.lock().expect("memo").get(&key) {
                return Ok(v.clone());
            }
            let v = book.value(&book.with(card, rule.clone()))?;
            evaluated.fetch_add(1, Ordering::Relaxed);
            memo.lock().expect("memo").insert(key, v.clone());
            Ok(v)
        };
        let climbed: Vec<Climbed<B::Rule, B::Stop>> = starts
            .into_par_iter()
            .map(|rule| {
                let mut rule = rule;
                let mut values = value(&rule)?;
                // Through the more general rules in order, taking each that keeps the value
                // and going on from there, in passes until a pass takes none.
                loop {
                    let mut changed = false;
                    let mut general = book.generalisations(&rule);
                    let mut i = 0;
                    while i < general.len() {
                        let v = value(&general[i])?;
                        if mean(&v) >= mean(&values) {
                            rule = general.swap_remove(i);
                            values = v;
                            general = book.generalisations(&rule);
                            changed = true;
                        } else {
                            i += 1;
                        }
                    }
                    if !changed {
                        break;
                    }
                }
                Ok((rule, values))
            })
            .collect();
        let mut best: Option<(B::Rule, Vec<f64>)> = None;
        for result in climbed {
            let (rule, values) = result?;
            if best.as_ref().is_none_or(|(_, b)| mean(&values) > mean(b)) {
                best = Some((rule, values));
            }
        }
        let Some((rule, values)) = best else { break };
        let gain = mean(&values) - current;
        if gain < limits.min_gain {
            break;
        }
        current = mean(&values);
        found.card = book.with(&found.card, rule.clone());
        let added = Added { rule, values, gain };
        on_rule(&added);
        found.added.push(added);
    }
    found.evaluated += evaluated.into_inner();
    Ok(found)
}

/// A card read back: each rule with what it is worth on the whole card, and the ladder of the
/// most valuable rules first.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked<R> {
    /// The card's rules by worth, the most valuable first, each with its worth: the mean win
    /// probability the whole card loses without it (ties keep the card's order).
    pub by_worth: Vec<(R, f64)>,
    /// Per rung ([`rungs`]): the number of rules and the value at each point of the card of
    /// that many most valuable rules (read in the card's order).
    pub ladder: Vec<(usize, Vec<f64>)>,
}

/// Ranks the rules of `card`, as `value` values a card at each point searched: what each is
/// worth on the whole card, and the ladder of its most valuable rules. A card written by
/// [`search`] ranks without its search: the order its rules were found in is not needed.
/// Every card is valued exactly, in parallel, the same on any number of threads.
pub fn rank<R: Clone + Send + Sync, E: Send>(
    card: &[R],
    value: impl Fn(&[R]) -> Result<Vec<f64>, E> + Sync,
) -> Result<Ranked<R>, E> {
    let n = card.len();
    let without = |i: usize| -> Vec<R> {
        card.iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, r)| r.clone())
            .collect()
    };
    // The whole card, then the card without each rule.
    let valued = (0..=n)
        .into_par_iter()
        .map(|i| {
            if i == 0 {
                value(card)
            } else {
                value(&without(i - 1))
            }
        })
        .collect::<Result<Vec<_>, E>>()?;
    let whole = mean(&valued[0]);
    let mut order: Vec<usize> = (0..n).collect();
    let worth = |i: usize| whole - mean(&valued[i + 1]);
    order.sort_by(|&a, &b| worth(b).total_cmp(&worth(a)));
    // The card of the `k` most valuable rules, in the card's order.
    let best = |k: usize| -> Vec<R> {
        let mut kept: Vec<usize> = order[..k].to_vec();
        kept.sort_unstable();
        kept.into_iter().map(|i| card[i].clone()).collect()
    };
    let steps = rungs(n);
    let ladder = steps
        .par_iter()
        .map(|&k| {
            if k == n {
                Ok(valued[0].clone())
            } else {
                value(&best(k))
            }
        })
        .collect::<Result<Vec<_>, E>>()?;
    Ok(Ranked {
        by_worth: order.iter().map(|&i| (card[i].clone(), worth(i))).collect(),
        ladder: steps.into_iter().zip(ladder).collect(),
    })
}

/// The ladder's rungs: 0, 1, 2, 4, 8, … rules, and the card's own count last.
pub fn rungs(rules: usize) -> Vec<usize> {
    let mut out = vec![0];
    let mut n = 1;
    while n < rules {
        out.push(n);
        n *= 2;
    }
    if rules > 0 {
        out.push(rules);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rungs_double_and_end_at_the_card() {
        assert_eq!(rungs(0), vec![0]);
        assert_eq!(rungs(1), vec![0, 1]);
        assert_eq!(rungs(5), vec![0, 1, 2, 4, 5]);
        assert_eq!(rungs(8), vec![0, 1, 2, 4, 8]);
        assert_eq!(rungs(20), vec![0, 1, 2, 4, 8, 16, 20]);
    }

    /// A card of three rules valued as the sum of what each adds (1, 3 and 2 points), but the
    /// third worth nothing without the first: ranked by what each is worth on the whole card.
    #[test]
    fn a_card_ranks_by_what_each_rule_is_worth_on_the_whole_card() {
        let value = |card: &[u8]| -> Result<Vec<f64>, ()> {
            let has = |r| card.contains(&r);
            let v = f64::from(u8::from(has(1))) * 0.01
                + f64::from(u8::from(has(2))) * 0.03
                + f64::from(u8::from(has(1) && has(3))) * 0.02;
            Ok(vec![0.5 + v, 0.6 + v])
        };
        let ranked = rank(&[1u8, 2, 3], value).unwrap();
        let order: Vec<u8> = ranked.by_worth.iter().map(|(r, _)| *r).collect();
        // Rule 1 is worth 1 + 2 points on the whole card (rule 3 needs it), 2 worth 3 (a tie:
        // the card's order), 3 worth 2.
        assert_eq!(order, vec![1, 2, 3]);
        assert!((ranked.by_worth[0].1 - 0.03).abs() < 1e-12);
        assert!((ranked.by_worth[2].1 - 0.02).abs() < 1e-12);
        let rungs: Vec<usize> = ranked.ladder.iter().map(|(k, _)| *k).collect();
        assert_eq!(rungs, vec![0, 1, 2, 3]);
        // One rule: rule 1 alone, 1 point; two: rules 1 and 2, 4 points; all three, 6.
        let at = |k: usize| ranked.ladder[k].1[0] - 0.5;
        assert!(at(0).abs() < 1e-12);
        assert!((at(1) - 0.01).abs() < 1e-12);
        assert!((at(2) - 0.04).abs() < 1e-12);
        assert!((at(3) - 0.06).abs() < 1e-12);
    }
}
