//! Purple Raven's rulebook for the card search: its facts, its options in the player's words
//! (the `[rules]` section of a strategy file, `strategy::file::card`), and where a card loses
//! points (the regret decomposition's costliest positions, valued by the optimal solver).

use crate::engine::decisions::Costly;
use crate::engine::{Budget, Halt, Solved, exact_within};
use crate::game::{Character, DecisionKind};
use crate::rules::Rules;
use crate::strategy::FileStrategy;
use crate::strategy::file::Spec;
use crate::strategy::file::card::{Card, Choose, Condition, Fact, MainPick, Rule, Who};
use crate::tune::{KNOBS, Point, one_knob_away};

use std::collections::BTreeMap;

use super::{FactShape, Rulebook, Shape, Situation, at_least, at_most};
use crate::engine::decisions::EVERY;
use crate::par::*;

/// The bundled files of the card under a preset's rules (`strategies/`): the knob file the
/// search starts from by default, and the card `raven card` found from it there.
pub fn bundled_card(preset: &str) -> Option<(&'static str, &'static str)> {
    match preset {
        "main-text" => Some(("tuned", "card")),
        "clarified" => Some(("tuned-clarified", "card-clarified")),
        _ => None,
    }
}

/// Purple Raven's rules of thumb over a base strategy file, valued at some stealths.
pub struct PurpleRaven<'a> {
    /// The rules of the game.
    pub rules: Rules,
    /// The stealths the card is valued at (the mean decides).
    pub stealths: Vec<u8>,
    /// The knobs behind the rules (any rules of its own are kept after the card's).
    pub base: Spec,
    /// Optimal play at those stealths: the option values that say what a position's best
    /// answer is.
    pub solved: &'a Solved,
    /// Each exact evaluation's limit: the user's, or [`GROWTH`] times the positions the base
    /// reaches (at least [`FEWEST`]) if that is lower.
    budget: Budget<'a>,
}

/// How many times the positions of the base a card may reach and still be valued. A rule
/// that makes play reach many more positions than the base (a third recruit, say) plays a
/// game the knobs behind it were not tuned for, and costs many times the others to value:
/// the search leaves it out.
pub const GROWTH: usize = 8;

/// The least limit [`GROWTH`] sets, in positions: a base that reaches few positions leaves
/// its rules room all the same.
pub const FEWEST: usize = 1 << 21;

impl<'a> PurpleRaven<'a> {
    /// The rulebook over `base` at `stealths`: the base is valued once here, to set the
    /// limit of every card's evaluation.
    pub fn new(
        rules: Rules,
        stealths: Vec<u8>,
        base: Spec,
        solved: &'a Solved,
        budget: Budget<'a>,
    ) -> Result<Self, Halt> {
        let run = exact_within(
            &rules,
            &FileStrategy::from_spec("base", base.clone()),
            &stealths,
            budget,
        )?;
        let budget = Budget {
            max_states: budget
                .max_states
                .min(run.states.saturating_mul(GROWTH).max(FEWEST)),
            ..budget
        };
        Ok(PurpleRaven {
            rules,
            stealths,
            base,
            solved,
            budget,
        })
    }

    /// The base with `card` before its own rules.
    pub fn strategy(&self, card: &[Rule]) -> FileStrategy {
        let mut spec = self.base.clone();
        let rules: Vec<Rule> = card.iter().chain(&self.base.card.rules).cloned().collect();
        spec.card = Card::new(rules);
        FileStrategy::from_spec("card", spec)
    }
}

/// The facts a rule for `kind` may read, in the order the search tries dropping them: the
/// ones a player sees at a glance first kept longest.
fn facts(kind: DecisionKind) -> &'static [Fact] {
    use DecisionKind as K;
    use Fact as F;
    const MEDIC: Fact = Fact::Member(Character::Medic);
    match kind {
        K::MainCharacter => &[F::Needs(Character::Medic)],
        K::RecruitTarget => &[F::Members, F::Wounds, MEDIC, F::Easy, F::Stealth],
        K::RecruitRoller => &[
            F::Attempts,
            F::Members,
            F::Wounds,
            MEDIC,
            F::Type,
            F::Stealth,
        ],
        K::RunType => &[F::Able, F::Wounds, F::Stealth],
        K::RunRoller => &[
            F::Attempts,
            F::Able,
            F::Wounds,
            F::MainHealth,
            MEDIC,
            F::Type,
            F::Stealth,
        ],
        K::FinaleCharacter => &[F::Able, F::Wounds, MEDIC, F::MainHealth, F::Stealth],
        K::SideChallenge => &[
            F::Attempts,
            F::Able,
            F::Wounds,
            F::Side,
            MEDIC,
            F::FinaleHealth,
            F::Type,
            F::Successes,
            F::Tough,
            F::Left,
            F::Discovered,
            F::Stealth,
        ],
        K::Substitute => &[F::Able, F::Successes, F::Tough, F::Left],
        K::FirstAid => &[
            F::Members,
            F::Able,
            F::Wounds,
            F::Wounded,
            F::Incapacitated,
            F::MainHealth,
            MEDIC,
            F::FinaleHealth,
            F::Successes,
            F::Tough,
            F::Left,
            F::Phase,
            F::Discovered,
            F::Stealth,
        ],
    }
}

/// The options for `kind` in the order tried: roles before names, the Medic (who may be named
/// without telling the others apart) before the rest.
fn options(kind: DecisionKind) -> Vec<Choose> {
    use DecisionKind as K;
    let roles = [Who::Specialist, Who::LeastWounded, Who::Main, Who::Finale];
    let named = || {
        let mut c = Character::ALL.to_vec();
        c.rotate_right(1);
        c.into_iter().map(Who::Named)
    };
    let whos: Vec<Who> = roles.into_iter().chain(named()).collect();
    match kind {
        K::MainCharacter => [
            MainPick::FirstTarget,
            MainPick::MostNeeded,
            MainPick::MostNeededNotMedic,
            MainPick::HardestToRecruit,
        ]
        .map(Choose::MainBy)
        .into_iter()
        .chain(Character::ALL.map(Choose::Pick))
        .collect(),
        K::RecruitTarget => [Choose::Stop, Choose::Easiest]
            .into_iter()
            .chain(Character::ALL.map(Choose::Pick))
            .collect(),
        K::RecruitRoller => std::iter::once(Choose::Stop)
            .chain(whos.iter().map(|w| Choose::By(*w)))
            .collect(),
        K::RunType => Character::ALL[..5]
            .iter()
            .map(|c| Choose::Pick(*c))
            .collect(),
        K::RunRoller | K::FinaleCharacter | K::Substitute => {
            whos.iter().map(|w| Choose::By(*w)).collect()
        }
        K::SideChallenge => [Choose::Pass, Choose::Try(None)]
            .into_iter()
            .chain(whos.iter().map(|w| Choose::Try(Some(*w))))
            .collect(),
        K::FirstAid => {
            let patients: Vec<Who> = [Who::Finale, Who::Main, Who::Incapacitated, Who::Wounded]
                .into_iter()
                .chain(named())
                .collect();
            let givers: Vec<Who> = [Who::Patient, Who::LeastWounded, Who::Main, Who::Finale]
                .into_iter()
                .chain(named())
                .collect();
            let mut out = vec![Choose::Skip];
            out.extend(patients.iter().map(|p| Choose::Treat(*p, None)));
            for p in &patients {
                out.extend(givers.iter().map(|g| Choose::Treat(*p, Some(*g))));
            }
            out
        }
    }
}

/// Each option's gains summed by kind of decision and the facts there.
type Sums = BTreeMap<(usize, Vec<u32>), Vec<f64>>;

/// How the search reads `fact`, from the top and in generalising a rule: counts are ordered
/// (a condition may become a range), healths have their groups.
fn shape(fact: Fact) -> FactShape {
    match fact {
        Fact::Stealth
        | Fact::Tough
        | Fact::Left
        | Fact::Successes
        | Fact::Attempts
        | Fact::Members
        | Fact::Able
        | Fact::Wounds
        | Fact::Wounded
        | Fact::Incapacitated
        | Fact::Easy => FactShape {
            ordered: true,
            groups: Vec::new(),
        },
        Fact::MainHealth | Fact::FinaleHealth | Fact::Member(_) => FactShape {
            ordered: false,
            groups: HEALTH_WIDER.to_vec(),
        },
        _ => FactShape {
            ordered: false,
            groups: Vec::new(),
        },
    }
}

/// The values of a health fact that a rule may widen a single health to.
const HEALTH_WIDER: [u128; 2] = [0b11, 0b110];

impl Rulebook for PurpleRaven<'_> {
    type Rule = Rule;
    type Spot = Costly;
    type Stop = Halt;

    fn value(&self, card: &[Rule]) -> Result<Vec<f64>, Halt> {
        let strategy = self.strategy(card);
        let run = exact_within(&self.rules, &strategy, &self.stealths, self.budget)?;
        Ok(run.expectations.iter().map(|e| e.win).collect())
    }

    fn costliest(&self, card: &[Rule], count: usize) -> Result<Vec<Costly>, Halt> {
        let strategy = self.strategy(card);
        let found = self
            .solved
            .decisions_keeping(&strategy, self.budget, count)?;
        let mut spots: Vec<Costly> = found.into_iter().flat_map(|d| d.top).collect();
        // Stable: equal terms keep the stealths' order.
        spots.sort_by(|a, b| b.regret().total_cmp(&a.regret()));
        spots.truncate(count);
        Ok(spots)
    }

    fn cost(&self, spot: &Costly) -> f64 {
        spot.regret()
    }

    fn specific(&self, spot: &Costly) -> Option<Rule> {
        let kind = spot.kind();
        let (state, decision) = (&spot.state, spot.decision);
        let values = self.solved.solver().options(state);
        let value = |a| values.iter().find(|(b, _)| *b == a).map(|(_, v)| *v);
        let choose = options(kind).into_iter().find(|choose| {
            self.base
                .resolve(*choose, state, &self.rules, decision)
                .and_then(value)
                .is_some_and(|v| v >= spot.best_value - 1e-12)
        })?;
        let conditions = facts(kind)
            .iter()
            .map(|&fact| Condition {
                fact,
                allowed: 1u128 << fact.value(state, &self.rules, decision),
            })
            .collect();
        Some(Rule {
            kind,
            conditions,
            choose,
        })
    }

    fn generalisations(&self, rule: &Rule) -> Vec<Rule> {
        let mut out = Vec::new();
        for (i, c) in rule.conditions.iter().enumerate() {
            let mut dropped = rule.clone();
            dropped.conditions.remove(i);
            out.push(dropped);
            let mut widen = |allowed: u128| {
                if allowed != c.allowed {
                    let mut wider = rule.clone();
                    wider.conditions[i].allowed = allowed;
                    out.push(wider);
                }
            };
            let shape = shape(c.fact);
            if shape.ordered {
                // At most the highest value, at least the lowest.
                widen(at_most(127 - c.allowed.leading_zeros()));
                widen(at_least(c.allowed.trailing_zeros()));
            }
            for wider in shape.groups {
                if wider & c.allowed == c.allowed {
                    widen(wider);
                }
            }
        }
        out
    }

    fn knob(&self, knob: usize) -> Option<Vec<(String, Self)>> {
        let name = KNOBS.get(knob)?.name();
        let alternatives = one_knob_away(&Point::of(&self.base), &self.rules, &self.stealths, knob)
            .into_iter()
            .filter_map(|point| {
                let mut base = point.spec()?;
                base.description.clone_from(&self.base.description);
                base.card = self.base.card.clone();
                let change = format!("{name} = {}", point.0[knob]);
                Some((
                    change,
                    PurpleRaven {
                        stealths: self.stealths.clone(),
                        base,
                        ..*self
                    },
                ))
            })
            .collect();
        Some(alternatives)
    }

    fn too_large(&self, stop: &Halt) -> bool {
        matches!(stop, Halt::TooLarge(_))
    }

    fn shapes(&self) -> Vec<Shape> {
        DecisionKind::ALL
            .iter()
            .map(|&kind| Shape {
                facts: facts(kind).iter().map(|&f| shape(f)).collect(),
                options: options(kind).len(),
            })
            .collect()
    }

    fn situations(&self, card: &[Rule]) -> Result<Vec<Situation>, Halt> {
        let strategy = self.strategy(card);
        let found = self
            .solved
            .decisions_keeping(&strategy, self.budget, EVERY)?;
        let starts = found.len() as f64;
        let spots: Vec<Costly> = found.into_iter().flat_map(|d| d.top).collect();
        let options: Vec<Vec<Choose>> = DecisionKind::ALL.iter().map(|&k| options(k)).collect();
        let solver = self.solved.solver();
        // Decisions with the same facts summed, a fixed chunk at a time and the chunks in
        // order: the same sums on any number of threads.
        let chunks: Vec<Sums> = spots
            .par_chunks(1 << 14)
            .map(|chunk| {
                let mut sums: Sums = BTreeMap::new();
                for spot in chunk {
                    let kind = spot.kind();
                    let (state, decision) = (&spot.state, spot.decision);
                    let values = solver.options(state);
                    let value = |a| values.iter().find(|(b, _)| *b == a).map(|(_, v)| *v);
                    let facts = (facts(kind).iter())
                        .map(|f| u32::from(f.value(state, &self.rules, decision)))
                        .collect();
                    let choices = &options[kind as usize];
                    let gains = (sums.entry((kind as usize, facts)))
                        .or_insert_with(|| vec![0.0; choices.len()]);
                    for (gain, &choose) in gains.iter_mut().zip(choices) {
                        if let Some(v) = (self.base.resolve(choose, state, &self.rules, decision))
                            .and_then(value)
                        {
                            *gain += spot.reach * (v - spot.chosen_value) / starts;
                        }
                    }
                }
                sums
            })
            .collect();
        let mut sums: Sums = BTreeMap::new();
        for chunk in chunks {
            for (key, gains) in chunk {
                match sums.entry(key) {
                    std::collections::btree_map::Entry::Vacant(e) => {
                        e.insert(gains);
                    }
                    std::collections::btree_map::Entry::Occupied(mut e) => {
                        for (g, x) in e.get_mut().iter_mut().zip(gains) {
                            *g += x;
                        }
                    }
                }
            }
        }
        Ok(sums
            .into_iter()
            .map(|((kind, facts), gains)| Situation { kind, facts, gains })
            .collect())
    }

    fn build(&self, kind: usize, conditions: &[(usize, u128)], option: usize) -> Option<Rule> {
        let kind = *DecisionKind::ALL.get(kind)?;
        let facts = facts(kind);
        Some(Rule {
            kind,
            conditions: (conditions.iter())
                .map(|&(f, allowed)| Condition {
                    fact: facts[f],
                    allowed,
                })
                .collect(),
            choose: *options(kind).get(option)?,
        })
    }

    fn with(&self, card: &[Rule], rule: Rule) -> Vec<Rule> {
        // First among its kind: it overrules the rules found before it where it matches, and
        // those it overrules everywhere go (they could never decide again).
        let kept: Vec<Rule> = (card.iter())
            .filter(|r| !r.shadowed_by(&rule))
            .cloned()
            .collect();
        std::iter::once(rule).chain(kept).collect()
    }
}

/// A rule as a sentence for a person at the table.
pub fn sentence(rule: &Rule) -> String {
    use DecisionKind as K;
    let situation = match rule.kind {
        K::MainCharacter => "Choosing the main character",
        K::RecruitTarget => "Naming the next recruit",
        K::RecruitRoller => "A recruitment check",
        K::RunType => "A run challenge rolled 6",
        K::RunRoller => "A run challenge",
        K::FinaleCharacter => "Choosing the finale character",
        K::SideChallenge => "A side challenge",
        K::Substitute => "A substitute finale character",
        K::FirstAid => "A first-aid opportunity",
    };
    let who = |w: Who| match w {
        Who::Specialist => "the specialist".to_string(),
        Who::LeastWounded => "the least wounded".to_string(),
        Who::Main => "the main character".to_string(),
        Who::Finale => "the finale character".to_string(),
        Who::Patient => "the patient themself".to_string(),
        Who::Incapacitated => "the incapacitated member".to_string(),
        Who::Wounded => "the wounded member".to_string(),
        Who::Named(c) => format!("{} ({})", c.name(), c.speciality()),
    };
    let act = match rule.choose {
        Choose::Stop => "stop recruiting".to_string(),
        Choose::Pass => "pass".to_string(),
        Choose::Skip => "skip first aid".to_string(),
        Choose::Pick(c) => format!("take {} ({})", c.name(), c.speciality()),
        Choose::By(w) => format!("{} rolls", who(w)),
        Choose::Try(None) => "try it".to_string(),
        Choose::Try(Some(w)) => format!("{} tries it", who(w)),
        Choose::Treat(p, None) => format!("treat {}", who(p)),
        Choose::Treat(p, Some(g)) => format!("{} treats {}", who(g), who(p)),
        Choose::MainBy(MainPick::FirstTarget) => {
            "take the speciality the first recruit needs".to_string()
        }
        Choose::MainBy(MainPick::MostNeeded) => {
            "take the speciality most complications call for".to_string()
        }
        Choose::MainBy(MainPick::MostNeededNotMedic) => {
            "take the speciality most complications call for, never the Medic".to_string()
        }
        Choose::MainBy(MainPick::HardestToRecruit) => {
            "take the character whose complication is their own".to_string()
        }
        Choose::Easiest => "recruit the first one a member can roll for with 3 dice".to_string(),
    };
    if rule.conditions.is_empty() {
        return format!("{situation}: always {act}.");
    }
    let words: Vec<String> = rule.conditions.iter().map(condition_words).collect();
    format!("{situation}, when {}: {act}.", words.join(", "))
}

/// A condition in words.
fn condition_words(c: &Condition) -> String {
    let text = c.to_string();
    let value = text.split_once(" = ").map(|(_, v)| v.replace('|', " or "));
    let number = |what: &str| {
        let (_, rest) = text.split_once(' ').unwrap_or(("", &text));
        let rest = rest
            .replace(">= ", "at least ")
            .replace("<= ", "at most ")
            .replace("= ", "")
            .replace("..", " to ")
            .replace('|', " or ");
        format!("{what} {rest}")
    };
    match c.fact {
        Fact::Discovered if c.allowed & 0b11 == 0b10 => "the team is discovered".into(),
        Fact::Discovered => "the team is not discovered".into(),
        Fact::Phase => format!("in the {} phase", value.unwrap_or_default()),
        Fact::Stealth if c.allowed == 1 => "the team is discovered (stealth 0)".into(),
        Fact::Stealth => number("stealth"),
        Fact::Tough => number("Tough Challenge"),
        Fact::Left => number("Tough Challenges left:"),
        Fact::Successes => number("side successes:"),
        Fact::Side => number("side challenge"),
        Fact::Attempts => number("attempts so far:"),
        Fact::Type => format!("of type {}", value.unwrap_or_default()),
        Fact::Members => number("living members:"),
        Fact::Able => number("able members:"),
        Fact::Wounds => number("wounds on the team:"),
        Fact::Wounded => number("wounded members:"),
        Fact::Incapacitated => number("incapacitated members:"),
        Fact::Main => format!("the main character is {}", value.unwrap_or_default()),
        Fact::Finale => format!("the finale character is {}", value.unwrap_or_default()),
        Fact::MainHealth => format!("the main character is {}", value.unwrap_or_default()),
        Fact::FinaleHealth => format!("the finale character is {}", value.unwrap_or_default()),
        Fact::Member(ch) => format!("{} is {}", ch.name(), value.unwrap_or_default()),
        Fact::Needs(ch) => format!("{} needs {}", ch.name(), value.unwrap_or_default()),
        Fact::Easy => number("recruits a member rolls 3 dice for:"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{Limits, search};
    use crate::rules::MAIN_TEXT;

    /// Recruiting the easiest character whenever there is room takes play to more than
    /// [`GROWTH`] times the positions of `tuned` (36 times at stealth 8): no candidate. A rule
    /// that keeps the team is valued as `exact` values it.
    #[test]
    fn a_card_far_larger_than_its_base_is_no_candidate() {
        let stealths = vec![8];
        let solved = Solved::new(&MAIN_TEXT, &stealths, &Budget::UNLIMITED).expect("solved");
        let tuned = crate::strategy::bundled("tuned")
            .expect("bundled")
            .expect("valid");
        let base = tuned.spec().clone();
        let book = PurpleRaven::new(MAIN_TEXT, stealths, base, &solved, Budget::UNLIMITED)
            .expect("tuned is small");
        let rule = |kind, text| crate::strategy::file::card::parse_rule(kind, text).unwrap();
        let grows = rule(DecisionKind::RecruitTarget, "-> easiest");
        let stop = book.value(&[grows]).expect_err("too large");
        assert!(book.too_large(&stop));
        let keeps = rule(
            DecisionKind::RunRoller,
            "when medic = wounded -> specialist",
        );
        let run = exact_within(
            &MAIN_TEXT,
            &book.strategy(std::slice::from_ref(&keeps)),
            &[8],
            Budget::UNLIMITED,
        )
        .unwrap();
        assert_eq!(book.value(&[keeps]).unwrap(), vec![run.expectations[0].win]);
    }

    /// A lone operative (team size 1) whose file makes the Medic the main character and never
    /// gives first aid: optimal play is a non-Medic main character who gives first aid during
    /// the run and never in the finale — two rules on the file. The search finds them, and
    /// nothing else, and they are worth exactly optimal play.
    #[test]
    fn the_search_finds_a_planted_two_rule_card() {
        let mut rules = MAIN_TEXT;
        rules.design.team_size = 1;
        let stealths = [2, 4];
        let base = "[main]\ncharacter = \"medic\"\n[recruit]\ncount = 0\n\
                    [first_aid]\nwhen = \"never\"\n[side]\nattempt = \"never\"\n";
        let base = FileStrategy::parse("base", "base", base).expect("valid");
        let planted = format!(
            "{}\n[rules]\nmain-character = [\"-> hacker\"]\n\
             first-aid = [\"when phase = run -> treat finale\"]\n",
            "[main]\ncharacter = \"medic\"\n[recruit]\ncount = 0\n\
             [first_aid]\nwhen = \"never\"\n[side]\nattempt = \"never\""
        );
        let planted = FileStrategy::parse("planted", "planted", &planted).expect("valid");
        let solved = Solved::new(&rules, &stealths, &Budget::UNLIMITED).expect("solved");
        let exact = |s: &FileStrategy| -> Vec<f64> {
            let run = exact_within(&rules, s, &stealths, Budget::UNLIMITED).expect("small");
            run.expectations.iter().map(|e| e.win).collect()
        };
        // The plant: the base falls short, the two rules reach optimal play.
        for ((b, p), o) in exact(&base)
            .iter()
            .zip(exact(&planted))
            .zip(solved.values())
        {
            assert!(o - b > 0.005, "the base is short of optimal play");
            assert!(
                (p - o).abs() < 1e-12,
                "the planted card is optimal: {p} vs {o}"
            );
        }
        let book = PurpleRaven::new(
            rules,
            stealths.to_vec(),
            base.spec().clone(),
            &solved,
            Budget::UNLIMITED,
        )
        .expect("small");
        let limits = Limits {
            max_rules: 5,
            min_gain: 1e-9,
            spots: 4,
        };
        let (found, book) = search(book, limits, &|_| {}).expect("small");
        // A rule found later may overrule an earlier one everywhere, which then goes.
        assert_eq!(found.card.len(), 2, "{:?}", found.card);
        let n = found.added.len();
        let kinds: Vec<DecisionKind> = found.card.iter().map(|r| r.kind).collect();
        assert!(kinds.contains(&DecisionKind::MainCharacter));
        assert!(kinds.contains(&DecisionKind::FirstAid));
        for (v, o) in found.with_rules(n).iter().zip(solved.values()) {
            assert!((v - o).abs() < 1e-12, "{v} vs optimal {o}");
        }
        // The values claimed are those of the card played.
        assert_eq!(exact(&book.strategy(&found.card)), found.with_rules(n));
        // Each rule's worth, and each knob's, adds up to the gap closed.
        let gained: f64 = (found.added.iter().map(|a| a.gain))
            .chain(found.knobs.iter().map(|k| k.gain))
            .sum();
        let closed = crate::card::mean(found.with_rules(n)) - crate::card::mean(&found.base);
        assert!((gained - closed).abs() < 1e-12);
    }
}
