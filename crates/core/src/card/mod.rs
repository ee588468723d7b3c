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
//! the rulebook's order, taking each that keeps or raises the exact value), adds the rules
//! built from the top (where the game lists every decision a card reaches: see [`Situation`]),
//! and adds the one of highest value. When no rule gains `min_gain` (or the card holds
//! `max_rules`), it sweeps the knobs of the base where the game offers them
//! ([`Rulebook::knob`]): each knob in turn takes its best value behind the card where that gains
//! `min_gain`; if one moved, it goes back to rules, and otherwise it stops.
//!
//! The two ways find different rules: a costly position is one place where much is lost, while
//! some decisions lose a little at each of very many places (the main character, over every
//! deal of complications) — only a sum over every decision reached, by the facts a rule reads,
//! finds those.
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

    /// The rulebooks whose base differs from this one's in knob `knob` alone, one for each
    /// other value worth trying, each with the change in a few words; `None` past the last
    /// knob (and for every knob where the base is fixed).
    fn knob(&self, _knob: usize) -> Option<Vec<(String, Self)>>
    where
        Self: Sized,
    {
        None
    }

    /// Whether `stop` says only that a card is too large to value exactly: that card is then
    /// no candidate, and the search goes on.
    fn too_large(&self, _stop: &Self::Stop) -> bool {
        false
    }

    /// The kinds of decision rules answer, each with its facts and its number of options (in
    /// the orders [`Rulebook::situations`] and [`Rulebook::build`] use), for the search from
    /// the top; none: the game offers no such search.
    fn shapes(&self) -> Vec<Shape> {
        Vec::new()
    }

    /// Every decision `card` reaches, as the search from the top reads it.
    fn situations(&self, _card: &[Self::Rule]) -> Result<Vec<Situation>, Self::Stop> {
        Ok(Vec::new())
    }

    /// The rule for decisions of kind `kind` where every condition holds (a fact's index in
    /// its [`Shape`], and the set of its values allowed), answered with option `option`.
    fn build(
        &self,
        _kind: usize,
        _conditions: &[(usize, u128)],
        _option: usize,
    ) -> Option<Self::Rule> {
        None
    }
}

/// A kind of decision as the search from the top reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    /// Its facts.
    pub facts: Vec<FactShape>,
    /// How many options a rule may answer it with.
    pub options: usize,
}

/// A fact a condition may read.
#[derive(Clone, Debug, PartialEq)]
pub struct FactShape {
    /// Whether its values are ordered, so that a condition may be a range (at most, at least).
    pub ordered: bool,
    /// Sets of values a condition may allow besides a single value (bit `v` for value `v`).
    pub groups: Vec<u128>,
}

/// A decision a card reaches: its kind, each of the kind's facts there (a value below 128),
/// and what each option would gain there in place of the card's answer, per game (reach × the
/// difference of the option values under optimal play afterwards; 0 where it does not apply).
#[derive(Clone, Debug, PartialEq)]
pub struct Situation {
    /// The kind's index in [`Rulebook::shapes`].
    pub kind: usize,
    /// The value of each of the kind's facts.
    pub facts: Vec<u32>,
    /// What each option gains.
    pub gains: Vec<f64>,
}

/// The values at most `v` (bit `u` for value `u`; `v` below 128).
pub(crate) fn at_most(v: u32) -> u128 {
    u128::MAX >> (127 - v)
}

/// The values at least `v` (`v` below 128).
pub(crate) fn at_least(v: u32) -> u128 {
    u128::MAX << v
}

/// Conditions as the search from the top builds them: a fact's index in its [`Shape`], and
/// the set of its values allowed.
type Conditions = Vec<(usize, u128)>;

/// How many rules from the top are valued exactly at each step.
const FROM_THE_TOP: usize = 8;

/// Rules built from the top, the most promising first, at most `count`: for each kind and
/// option, from the rule with no condition, the condition that raises the estimated gain most
/// is added while it raises it by more than a hundredth of `worth` — the estimate being the
/// sum of the option's gains over the decisions the rule matches — and the rule is kept if its
/// estimate reaches `worth` (what a rule must gain to be added); of rules with the same
/// conditions, only the most promising option. Decisions with the same facts are
/// summed first, in the order of their facts, so the estimates do not depend on the order the
/// decisions come in.
fn from_the_top<B: Rulebook>(
    book: &B,
    situations: &[Situation],
    count: usize,
    worth: f64,
) -> Vec<B::Rule> {
    // A condition must raise the estimate by a hundredth of what a rule must gain.
    let least = worth / 100.0;
    let shapes = book.shapes();
    let mut table: std::collections::BTreeMap<(usize, &[u32]), Vec<f64>> = Default::default();
    for s in situations {
        let gains = table
            .entry((s.kind, &s.facts[..]))
            .or_insert_with(|| vec![0.0; s.gains.len()]);
        for (g, x) in gains.iter_mut().zip(&s.gains) {
            *g += x;
        }
    }
    // By kind and option: the decisions where the option changes anything.
    let pairs: Vec<(usize, usize)> = (shapes.iter().enumerate())
        .flat_map(|(k, shape)| (0..shape.options).map(move |o| (k, o)))
        .collect();
    // (estimate, (kind, conditions), option)
    let mut found: Vec<(f64, (usize, Conditions), usize)> = pairs
        .into_par_iter()
        .map(|(kind, option)| {
            let shape = &shapes[kind];
            let rows: Vec<(&[u32], f64)> = (table.range((kind, &[][..])..))
                .take_while(|((k, _), _)| *k == kind)
                .map(|((_, facts), gains)| (*facts, gains[option]))
                .filter(|(_, g)| *g != 0.0)
                .collect();
            let (conditions, estimate) = narrowed(shape, rows, least);
            (estimate, (kind, conditions), option)
        })
        .collect();
    // The most promising first, one option for the same conditions: the most promising, of
    // equals (options that name the same answer in other words) the first.
    found.retain(|(estimate, _, _)| *estimate >= worth);
    found.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut seen = std::collections::HashSet::new();
    (found.into_iter())
        .filter(|(_, situation, _)| seen.insert(situation.clone()))
        .filter_map(|(_, (kind, conditions), option)| book.build(kind, &conditions, option))
        .take(count)
        .collect()
}

/// The conditions ([`from_the_top`]) that give `rows` (facts, gain) the highest sum, added
/// one at a time while each raises it by more than `least`, and that sum.
fn narrowed(shape: &Shape, mut rows: Vec<(&[u32], f64)>, least: f64) -> (Vec<(usize, u128)>, f64) {
    let sum = |rows: &[(&[u32], f64)]| rows.iter().map(|(_, g)| g).sum::<f64>();
    let mut estimate = sum(&rows);
    let mut conditions: Vec<(usize, u128)> = Vec::new();
    loop {
        let mut best: Option<(f64, usize, u128)> = None;
        for (f, fact) in shape.facts.iter().enumerate() {
            if conditions.iter().any(|&(c, _)| c == f) {
                continue;
            }
            let mut by_value = [0.0f64; 128];
            let mut present = 0u128;
            for (facts, g) in &rows {
                let v = facts[f].min(127) as usize;
                by_value[v] += g;
                present |= 1 << v;
            }
            let mut sets: Vec<u128> = Vec::new();
            let mut rest = present;
            while rest != 0 {
                let v = rest.trailing_zeros();
                rest &= rest - 1;
                sets.push(1 << v);
                if fact.ordered {
                    sets.extend([at_most(v), at_least(v)]);
                }
            }
            sets.extend(fact.groups.iter().filter(|&&g| g & present != 0));
            for set in sets {
                let mut total = 0.0;
                let mut bits = set & present;
                while bits != 0 {
                    total += by_value[bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                }
                if best.is_none_or(|(b, _, _)| total > b) {
                    best = Some((total, f, set));
                }
            }
        }
        match best {
            Some((total, f, set)) if total > estimate + least => {
                rows.retain(|(facts, _)| set >> facts[f].min(127) & 1 == 1);
                conditions.push((f, set));
                estimate = sum(&rows);
            }
            _ => break,
        }
    }
    conditions.sort_unstable();
    (conditions, estimate)
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
    /// The knobs changed behind the rules, in the order changed.
    pub knobs: Vec<Changed>,
    /// Candidates evaluated exactly.
    pub evaluated: usize,
}

/// A knob of the base changed by the search ([`Rulebook::knob`]) when no rule gained enough:
/// knobs that were best with no rules need not be best behind them.
#[derive(Clone, Debug, PartialEq)]
pub struct Changed {
    /// The change in a few words.
    pub change: String,
    /// How many rules the card held when it was made.
    pub after: usize,
    /// The card's value at each point once it was made.
    pub values: Vec<f64>,
    /// What it gained: the mean over the points, in win probability.
    pub gain: f64,
}

impl<R> Found<R> {
    /// The value at each point once the first `n` rules were added and the knobs changed
    /// before the next (the ladder's rungs).
    pub fn with_rules(&self, n: usize) -> &[f64] {
        let n = n.min(self.added.len());
        match (self.knobs.iter().rev().find(|k| k.after == n), n) {
            (Some(changed), _) => &changed.values,
            (None, 0) => &self.base,
            (None, n) => &self.added[n - 1].values,
        }
    }
}

/// The mean of `values`, summed in order.
pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len().max(1) as f64
}

/// How many of the costliest positions the search reads per candidate it climbs from.
const LOOK: usize = 40;

/// A rule and the card's value with it at each point.
type Valued<R> = (R, Vec<f64>);

/// A climb's rule and its values at each point, or why it stopped.
type Climbed<R, E> = Result<Valued<R>, E>;

/// The best rule to add to `card` (valued at `points` points), from the climbs and from the
/// top, or `None` when no candidate is found.
fn best_rule<B: Rulebook>(
    book: &B,
    card: &[B::Rule],
    points: usize,
    limits: Limits,
    evaluated: &AtomicUsize,
) -> Result<Option<Valued<B::Rule>>, B::Stop> {
    // The specific rules of the costliest positions, positions with the same one together:
    // their costs summed, the costliest `spots` of them (ties: the first met).
    let spots = book.costliest(card, limits.spots * LOOK)?;
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
    let situations = book.situations(card)?;
    let tops = from_the_top(book, &situations, FROM_THE_TOP, limits.min_gain);
    drop(situations);
    if starts.is_empty() && tops.is_empty() {
        return Ok(None);
    }
    // Values of this step's candidates by their text: climbs from different positions often
    // meet the same rule.
    let memo: Mutex<HashMap<String, Vec<f64>>> = Mutex::new(HashMap::new());
    let value = |rule: &B::Rule| -> Result<Vec<f64>, B::Stop> {
        let key = rule.to_string();
        if let Some(v) = memo.lock().expect("memo").get(&key) {
            return Ok(v.clone());
        }
        let v = valued(book, &book.with(card, rule.clone()), points)?;
        // Counted once however many climbs met it at the same time: the same count on any
        // number of threads.
        if memo.lock().expect("memo").insert(key, v.clone()).is_none() {
            evaluated.fetch_add(1, Ordering::Relaxed);
        }
        Ok(v)
    };
    let climbed: Vec<Climbed<B::Rule, B::Stop>> = starts
        .into_par_iter()
        .map(|rule| {
            let mut rule = rule;
            let mut values = value(&rule)?;
            // Through the more general rules in order, taking each that keeps the value and
            // going on from there, in passes until a pass takes none.
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
    let topped: Vec<Climbed<B::Rule, B::Stop>> = tops
        .into_par_iter()
        .map(|rule| value(&rule).map(|v| (rule, v)))
        .collect();
    let mut best: Option<Valued<B::Rule>> = None;
    for result in climbed.into_iter().chain(topped) {
        let (rule, values) = result?;
        if best.as_ref().is_none_or(|(_, b)| mean(&values) > mean(b)) {
            best = Some((rule, values));
        }
    }
    Ok(best)
}

/// The value of `card` under `book`; a card too large to value is worth nothing here.
fn valued<B: Rulebook>(book: &B, card: &[B::Rule], points: usize) -> Result<Vec<f64>, B::Stop> {
    match book.value(card) {
        Err(stop) if book.too_large(&stop) => Ok(vec![f64::NEG_INFINITY; points]),
        v => v,
    }
}

/// The greedy search ([module documentation](self)). `on_rule` hears of each rule added.
/// Returns what was found and the rulebook over the base the card ends on (its knobs
/// changed where a sweep changed them).
pub fn search<B: Rulebook>(
    book: B,
    limits: Limits,
    on_rule: &(dyn Fn(&Added<B::Rule>) + Sync),
) -> Result<(Found<B::Rule>, B), B::Stop> {
    let mut book = book;
    let base = book.value(&[])?;
    let mut found = Found {
        base: base.clone(),
        added: Vec::new(),
        card: Vec::new(),
        knobs: Vec::new(),
        evaluated: 1,
    };
    let mut current = mean(&base);
    let points = base.len();
    let evaluated = AtomicUsize::new(0);
    // The number of rules on the card at the last sweep over the knobs.
    let mut swept: Option<usize> = None;
    loop {
        if found.added.len() < limits.max_rules
            && let Some((rule, values)) = best_rule(&book, &found.card, points, limits, &evaluated)?
            && mean(&values) - current >= limits.min_gain
        {
            let gain = mean(&values) - current;
            current = mean(&values);
            found.card = book.with(&found.card, rule.clone());
            let added = Added { rule, values, gain };
            on_rule(&added);
            found.added.push(added);
            continue;
        }
        // No rule gains enough: unless the card is as it was at the last sweep, a sweep over
        // the knobs behind the rules, each taking its best value (ties: the first) with the
        // others held, again from there while that gains enough.
        if swept == Some(found.added.len()) {
            break;
        }
        swept = Some(found.added.len());
        let mut moved = false;
        let mut knob = 0;
        while let Some(mut alternatives) = book.knob(knob) {
            let values = alternatives
                .par_iter()
                .map(|(_, b)| {
                    evaluated.fetch_add(1, Ordering::Relaxed);
                    valued(b, &found.card, points)
                })
                .collect::<Result<Vec<_>, B::Stop>>()?;
            let mut best: Option<usize> = None;
            for (i, v) in values.iter().enumerate() {
                if best.is_none_or(|b| mean(v) > mean(&values[b])) {
                    best = Some(i);
                }
            }
            let gain = best.map_or(f64::NEG_INFINITY, |b| mean(&values[b]) - current);
            match best {
                Some(best) if gain >= limits.min_gain => {
                    let (change, rebased) = alternatives.swap_remove(best);
                    book = rebased;
                    current = mean(&values[best]);
                    found.knobs.push(Changed {
                        change,
                        after: found.added.len(),
                        values: values[best].clone(),
                        gain,
                    });
                    moved = true;
                }
                _ => knob += 1,
            }
        }
        if !moved {
            break;
        }
    }
    found.evaluated += evaluated.into_inner();
    Ok((found, book))
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

    /// A rulebook of one kind of decision, read only from the top: an ordered fact and a
    /// fact of two values, two options; a rule is its conditions and option.
    struct Table(Vec<Situation>);

    #[derive(Clone, Debug, PartialEq)]
    struct Planted(Vec<(usize, u128)>, usize);

    impl std::fmt::Display for Planted {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "{:?}", self)
        }
    }

    impl Rulebook for Table {
        type Rule = Planted;
        type Spot = ();
        type Stop = ();
        fn value(&self, _: &[Planted]) -> Result<Vec<f64>, ()> {
            Ok(vec![0.0])
        }
        fn costliest(&self, _: &[Planted], _: usize) -> Result<Vec<()>, ()> {
            Ok(Vec::new())
        }
        fn cost(&self, _: &()) -> f64 {
            0.0
        }
        fn specific(&self, _: &()) -> Option<Planted> {
            None
        }
        fn generalisations(&self, _: &Planted) -> Vec<Planted> {
            Vec::new()
        }
        fn with(&self, card: &[Planted], rule: Planted) -> Vec<Planted> {
            std::iter::once(rule).chain(card.iter().cloned()).collect()
        }
        fn shapes(&self) -> Vec<Shape> {
            let fact = |ordered| FactShape {
                ordered,
                groups: Vec::new(),
            };
            vec![Shape {
                facts: vec![fact(true), fact(false)],
                options: 3,
            }]
        }
        fn situations(&self, _: &[Planted]) -> Result<Vec<Situation>, ()> {
            Ok(self.0.clone())
        }
        fn build(
            &self,
            kind: usize,
            conditions: &[(usize, u128)],
            option: usize,
        ) -> Option<Planted> {
            assert_eq!(kind, 0);
            Some(Planted(conditions.to_vec(), option))
        }
    }

    /// Option 1 gains 1 wherever the ordered fact is at most 2 and loses 2 above it; the other
    /// fact is 0 wherever it gains. From the top: "at most 2 → option 1", worth 3 (the same
    /// decisions twice over are summed); the other fact adds nothing and is left out. Option 0
    /// never gains and makes no rule; option 2 gains half as much where option 1 does, under
    /// the same conditions, and gives way to it.
    #[test]
    fn the_search_from_the_top_narrows_to_where_an_option_gains() {
        let mut situations = Vec::new();
        for v in 0..6u32 {
            for w in 0..2u32 {
                let gain = match (v <= 2, w) {
                    (true, 0) => 1.0,
                    (true, _) => 0.0,
                    (false, _) => -2.0,
                };
                situations.push(Situation {
                    kind: 0,
                    facts: vec![v, w],
                    gains: vec![0.0, gain, gain / 2.0],
                });
            }
        }
        let book = Table(situations);
        let found = from_the_top(&book, &book.0, 8, 1e-7);
        assert_eq!(found, vec![Planted(vec![(0, 0b111)], 1)]);
        // Without option 1, option 2 is the rule.
        let halves: Vec<Situation> = (book.0.iter())
            .map(|s| Situation {
                gains: vec![0.0, 0.0, s.gains[2]],
                ..s.clone()
            })
            .collect();
        let found = from_the_top(&book, &halves, 8, 1e-7);
        assert_eq!(found, vec![Planted(vec![(0, 0b111)], 2)]);
        // Each decision twice: the estimate sums them.
        let twice: Vec<Situation> = book.0.iter().chain(&book.0).cloned().collect();
        let rows: Vec<(&[u32], f64)> = twice.iter().map(|s| (&s.facts[..], s.gains[1])).collect();
        let (conditions, estimate) = narrowed(&book.shapes()[0], rows, 1e-9);
        assert_eq!(conditions, vec![(0, 0b111)]);
        assert_eq!(estimate, 6.0);
    }

    /// A rulebook whose base is one knob of two values: 0 is best with no rules (50% against
    /// 40%), 1 behind rule 7 (70% against 60%), the only rule there is.
    struct Knobbed(u8);

    impl Rulebook for Knobbed {
        type Rule = u8;
        type Spot = ();
        type Stop = ();
        fn value(&self, card: &[u8]) -> Result<Vec<f64>, ()> {
            let v = match (card.contains(&7), self.0) {
                (false, 0) => 0.5,
                (false, _) => 0.4,
                (true, 0) => 0.6,
                (true, _) => 0.7,
            };
            Ok(vec![v])
        }
        fn costliest(&self, _: &[u8], _: usize) -> Result<Vec<()>, ()> {
            Ok(vec![()])
        }
        fn cost(&self, _: &()) -> f64 {
            1.0
        }
        fn specific(&self, _: &()) -> Option<u8> {
            Some(7)
        }
        fn generalisations(&self, _: &u8) -> Vec<u8> {
            Vec::new()
        }
        fn with(&self, card: &[u8], rule: u8) -> Vec<u8> {
            std::iter::once(rule).chain(card.iter().copied()).collect()
        }
        fn knob(&self, knob: usize) -> Option<Vec<(String, Self)>> {
            (knob == 0).then(|| vec![(format!("knob = {}", 1 - self.0), Knobbed(1 - self.0))])
        }
    }

    /// The knob stays while no rule is on the card, moves once rule 7 is, and the ladder's
    /// rung for one rule is the card with the knob moved; then nothing gains and the search
    /// stops.
    #[test]
    fn a_knob_best_without_rules_moves_behind_them() {
        let limits = Limits {
            max_rules: 5,
            min_gain: 1e-9,
            spots: 1,
        };
        let (found, book) = search(Knobbed(0), limits, &|_| {}).unwrap();
        assert_eq!(found.card, vec![7]);
        assert_eq!(found.added.len(), 1);
        assert_eq!(found.added[0].values, vec![0.6]);
        assert_eq!(found.knobs.len(), 1);
        assert_eq!(found.knobs[0].change, "knob = 1");
        assert_eq!(found.knobs[0].after, 1);
        assert!((found.knobs[0].gain - 0.1).abs() < 1e-12);
        assert_eq!(book.0, 1);
        assert_eq!(found.with_rules(0), &[0.5]);
        assert_eq!(found.with_rules(1), &[0.7]);
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
