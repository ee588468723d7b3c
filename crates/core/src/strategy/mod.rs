//! Strategies: who answers the decision points of the state machine.
//!
//! A strategy sees a read-only [`State`] and the [`Decision`] asked, and answers with a
//! [`Choice`]: one action, or "uniformly at random among the legal options", which the Monte
//! Carlo engine draws and the exact engine averages over.

mod bundled;
pub mod file;
mod interface;
pub mod optimal;
mod random;
mod reference;

pub use bundled::{BUNDLED, bundled, bundled_names, bundled_source, names, resolve, unknown};
pub use file::{FileStrategy, StrategyError};
pub use interface::AsPolicy;
pub use random::RandomStrategy;
pub use reference::ReferenceStrategy;

use crate::game::canon::{self, Labels};
use crate::game::{Action, Character, Decision, State, Step, Team, key};
use crate::rules::Rules;

/// A strategy's answer at a decision point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Take this (legal) action.
    Act(Action),
    /// Pick uniformly among all legal actions.
    Uniform,
}

/// Answers every decision point from a read-only view of the game.
pub trait Strategy: Sync + Send {
    /// A short name for outputs.
    fn name(&self) -> &str;

    /// The answer to `decision` in `state`. It must be legal ([`State::actions`]).
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice;

    /// How much of `state` this strategy's answers, now and later, depend on. The exact
    /// engine memoises values on that and nothing more, so positions the strategy cannot
    /// tell apart share one value. The default, [`Sight::everything`], is always correct.
    fn sight(&self, state: &State, _rules: &Rules) -> Sight {
        Sight::everything(state)
    }

    /// Which concrete strategy this is, when it is one the engines know by type. The Monte
    /// Carlo engine looks once per chunk and then plays a copy of the game loop compiled for
    /// that type (the answers inlined into the state machine) instead of calling through a
    /// `dyn Strategy` at every decision. The default, [`Known::Other`], is always correct.
    fn known(&self) -> Known<'_> {
        Known::Other
    }
    /// The lowest stealth from which the answers no longer depend on stealth: at two
    /// positions equal but for their stealth, both at least this, the strategy answers alike.
    /// The exact engine then evaluates a position once per class of stealths that the rules
    /// and the strategy read alike, instead of once per stealth. The default, `None` (it may
    /// read stealth anywhere), is always correct.
    fn stealth_alike_from(&self) -> Option<u8> {
        None
    }

    /// Whether [`Strategy::prefetch`] does anything. The Monte Carlo engine then plays a few
    /// games side by side on each thread, warming one game's next answer while it plays the
    /// others, so that the memory reads of answers looked up in large tables overlap instead
    /// of waiting one after another. The default, `false`, plays one game at a time.
    fn prefetches(&self) -> bool {
        false
    }

    /// Starts bringing into the cache whatever [`Strategy::decide`] will read to answer
    /// decision point `state` (a hint: it answers nothing and changes nothing). Returns what
    /// it worked out on the way (such as the position's key), for [`Strategy::decide_warm`].
    fn prefetch(&self, _state: &State, _rules: &Rules) -> u64 {
        0
    }

    /// [`Strategy::decide`] at a decision point warmed by [`Strategy::prefetch`], which
    /// returned `warm`: the same answer, without working out again what `prefetch` did.
    fn decide_warm(&self, state: &State, rules: &Rules, decision: Decision, _warm: u64) -> Choice {
        self.decide(state, rules, decision)
    }
}

/// A strategy the engines can specialise on ([`Strategy::known`]).
#[derive(Clone, Copy, Debug)]
pub enum Known<'a> {
    /// [`ReferenceStrategy`].
    Reference,
    /// [`RandomStrategy`].
    Random,
    /// A strategy file.
    File(&'a FileStrategy),
    /// Anything else: played through the trait.
    Other,
}

/// What a strategy reads of a state, beyond what the rules read ([`Strategy::sight`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    /// The state, except for what is named here.
    Partial {
        /// The counters `(attempts, failures)` as far as the answers tell them apart before
        /// the counters next start afresh (a new task): a strategy that only asks "fewer than
        /// 3 attempts?" gives `attempts.min(3)`, one that never looks `(0, 0)`.
        counters: (u8, u8),
        /// Non-members whose complications the strategy will never read and never name as a
        /// recruitment target (so the rules will not read them either).
        unread_complications: Team,
        /// Whether the answers at the second side challenge read the first one's type.
        first_side_type: bool,
        /// Whether the answers at the first side challenge read the second one's type. A
        /// strategy that does not lets the exact engine roll the second type only when the
        /// second side challenge begins (six times fewer first-challenge positions).
        second_side_type: bool,
        /// Whether, after phase 1, the answers tell the members apart only by their order
        /// (specialists by type, ties to the lowest number, roles such as main or finale
        /// character), never by name: then the positions that
        /// [`crate::game::canon::in_member_order_labelled`] relabels alike are one to the exact
        /// engine (a recruitment by complications leaves any three of five behind; they play as
        /// one team).
        member_order: bool,
    },
    /// Only what the rules read, up to relabelling the five non-medic characters: a strategy
    /// that is symmetric under that relabelling and reads nothing the rules do not, such as
    /// uniformly random play, or optimal play with its ties broken alike in every position of
    /// a class. It shares the optimal engine's canonical key
    /// ([`crate::game::key::solver_key`]).
    RulesOnly {
        /// Whether the answers at the first side challenge read the second one's type, as
        /// [`Sight::Partial`]'s field: uniform play does not, optimal play does (its values
        /// do).
        second_side_type: bool,
    },
}

impl Sight {
    /// Whether the answers at the first side challenge read the second one's type (R12).
    pub fn reads_second_side_type(self) -> bool {
        match self {
            Sight::Partial {
                second_side_type, ..
            }
            | Sight::RulesOnly { second_side_type } => second_side_type,
        }
    }

    /// The key ([`crate::game::key::counted`]) of `state` as a strategy with this sight sees
    /// it: packed with each character under the label the member order gives it, the
    /// complications it never reads left out (`pack(&forget(&in_member_order_labelled(state)
    /// .0, …))` without the position relabelled first: a key is worked out at every position a
    /// compile meets, most of them met before). None where it sees only what the rules read:
    /// its key is the canonical form's.
    #[inline]
    pub fn key(self, state: &State) -> Option<u128> {
        let Sight::Partial {
            counters,
            unread_complications,
            first_side_type,
            member_order,
            ..
        } = self
        else {
            return None;
        };
        let labels = if member_order {
            canon::member_order_labels(state)
        } else {
            Labels::IDENTITY
        };
        let packed = key::pack_as(state, labels, unread_complications, !first_side_type);
        Some(key::counted(packed, counters))
    }

    /// Everything: the counters themselves, every complication, every side type.
    pub fn everything(state: &State) -> Sight {
        Sight::Partial {
            counters: (state.attempts(), state.failures()),
            unread_complications: Team::EMPTY,
            first_side_type: true,
            second_side_type: true,
            member_order: false,
        }
    }
}

/// The characters a strategy that recruits from `order` may still name as targets in
/// `state`, recruiting at most `count` in all: the next ones in order when it takes them in
/// order, or every candidate while a target is still to be chosen when it picks by
/// complication (`by_complication`). The current target is included; so is everyone before
/// the main character is chosen.
pub fn future_targets(
    state: &State,
    rules: &Rules,
    order: &[Character],
    count: u8,
    by_complication: bool,
) -> Team {
    let team = state.team();
    // With the current target counted as recruited.
    let (current, members) = match state.step() {
        Step::ChooseTarget => (None, team.len()),
        Step::Recruit { target, .. } | Step::RecruitCheck { target, .. } => {
            (Some(target), team.len() + 1)
        }
        Step::Complications | Step::ChooseMain => return Team::ALL,
        _ => return Team::EMPTY,
    };
    let left = usize::from(
        count
            .saturating_sub(members.saturating_sub(1))
            .min(State::room_on_team(rules, members)),
    );
    let candidates = order
        .iter()
        .copied()
        .filter(|c| !team.contains(*c) && Some(*c) != current);
    let later: Team = if by_complication && left > 0 {
        candidates.collect()
    } else {
        candidates.take(left).collect()
    };
    current.map_or(later, |c| later.with(c))
}

impl<S: Strategy + ?Sized> Strategy for &S {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        (**self).decide(state, rules, decision)
    }
    fn sight(&self, state: &State, rules: &Rules) -> Sight {
        (**self).sight(state, rules)
    }
    fn known(&self) -> Known<'_> {
        (**self).known()
    }
    fn stealth_alike_from(&self) -> Option<u8> {
        (**self).stealth_alike_from()
    }
}

impl<S: Strategy + ?Sized> Strategy for Box<S> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        (**self).decide(state, rules, decision)
    }
    fn sight(&self, state: &State, rules: &Rules) -> Sight {
        (**self).sight(state, rules)
    }
    fn known(&self) -> Known<'_> {
        (**self).known()
    }
    fn stealth_alike_from(&self) -> Option<u8> {
        (**self).stealth_alike_from()
    }
}

/// The member of `candidates` with the fewest wounds, ties to the lowest number (healthy
/// before wounded before incapacitated).
#[inline]
pub fn least_wounded(
    state: &State,
    candidates: impl IntoIterator<Item = Character>,
) -> Option<Character> {
    least_wounded_of(state, candidates.into_iter().collect())
}

/// [`least_wounded`] for a set: two bit operations.
#[inline]
pub fn least_wounded_of(state: &State, candidates: Team) -> Option<Character> {
    let unhurt = candidates.minus(state.hurt_team());
    let standing = candidates.minus(state.down_team());
    unhurt.first().or(standing.first()).or(candidates.first())
}

/// A run challenge's type on a 6 by the members' order: the speciality of the lowest-numbered
/// able non-Medic member; with none able but the Medic (who then rolls base dice whatever the
/// type), of the lowest-numbered non-Medic member, so that the answer still follows the
/// members' order (`Sight::Partial::member_order`); with no such member, the Hacker's.
#[inline]
pub fn lowest_able_type(state: &State) -> Character {
    let others = state.team().without(Character::Medic);
    others
        .and(state.able_team())
        .first()
        .or(others.first())
        .unwrap_or(Character::Hacker)
}

/// The reference strategy of `docs/rules.md`, built in code.
pub const REFERENCE: &str = "reference";
/// Every decision uniformly among the legal options.
pub const RANDOM: &str = "random";
/// Optimal play, solved for the rules in force.
pub const OPTIMAL: &str = "optimal";

/// The built-in (not file-defined) strategies: name and what it does.
pub const BUILT_IN: [(&str, &str); 3] = [
    (
        REFERENCE,
        "the reference strategy of docs/rules.md (built in code)",
    ),
    (RANDOM, "every decision uniformly among the legal options"),
    (
        OPTIMAL,
        "the best possible play, solved for the rules in force (a full solve first: slow)",
    ),
];

/// A built-in strategy by name, but [`OPTIMAL`]: optimal play is a product of the solver
/// (`engine::OptimalStrategy`, by name through `engine::resolve`), and this module does not
/// depend on the engines.
pub fn built_in(name: &str) -> Option<Box<dyn Strategy>> {
    match name {
        REFERENCE => Some(Box::new(ReferenceStrategy)),
        RANDOM => Some(Box::new(RandomStrategy)),
        _ => None,
    }
}

/// Whether `name` is one of the [`BUILT_IN`] strategies (written in code, no knobs).
pub fn is_built_in(name: &str) -> bool {
    BUILT_IN.iter().any(|(n, _)| *n == name)
}

/// Where a strategy that `--strategy` accepts by name comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Written in Rust ([`BUILT_IN`]).
    BuiltIn,
    /// A file of `strategies/`, compiled into the binary ([`BUNDLED`]).
    Bundled,
}

/// One strategy of the [`registry`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// What to pass to `--strategy`: the name, or `NAME.toml` for a bundled file whose stem is
    /// a built-in's name (built-ins win a tie).
    pub name: String,
    /// Built in or bundled.
    pub origin: Origin,
    /// One line on what it does (a bundled file's own `description`).
    pub description: String,
    /// The built-in this entry plays exactly like (`reference.toml` is `reference` knob by
    /// knob), so that lists of distinct strategies can leave it out.
    pub copy_of: Option<&'static str>,
}

/// Every strategy `--strategy` accepts by name, built-ins first, then the bundled files in
/// `strategies/` order. The one list behind `--strategy`'s error message, `raven strategies`,
/// `solve`'s default regret table and the report, so a new strategy appears in all of them.
pub fn registry() -> Vec<Entry> {
    let built_in = BUILT_IN.iter().map(|(name, description)| Entry {
        name: (*name).to_string(),
        origin: Origin::BuiltIn,
        description: (*description).to_string(),
        copy_of: None,
    });
    let files = BUNDLED.iter().map(|(stem, _)| {
        let strategy = bundled(stem)
            .expect("a bundled name")
            .expect("bundled files are valid (tested)");
        let copy_of = BUILT_IN.iter().map(|(n, _)| *n).find(|n| n == stem);
        Entry {
            name: strategy.name().to_string(),
            origin: Origin::Bundled,
            description: strategy.spec().description.clone(),
            copy_of,
        }
    });
    built_in.chain(files).collect()
}

/// The distinct fixed strategies worth a designer's look: the reference, then every bundled
/// file that is not a copy of a built-in. `random` is left out (noise, not a way to play, and
/// among the slowest to evaluate exactly) and so is `optimal` (solved, not evaluated).
/// `solve` reports their regret by default; the report covers them.
pub fn playbook() -> Vec<String> {
    registry()
        .into_iter()
        .filter(|e| match e.origin {
            Origin::BuiltIn => e.name == REFERENCE,
            Origin::Bundled => e.copy_of.is_none(),
        })
        .map(|e| e.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_name_resolves_to_a_strategy_of_that_name() {
        let entries = registry();
        for (i, e) in entries.iter().enumerate() {
            assert!(
                entries[..i].iter().all(|other| other.name != e.name),
                "{} listed twice",
                e.name
            );
            assert!(!e.description.is_empty(), "{} has a description", e.name);
            if e.name == OPTIMAL {
                // The solver's product: `engine::resolve` builds it (tested there).
                assert!(resolve(&e.name).is_err());
                continue;
            }
            let strategy = resolve(&e.name).unwrap_or_else(|err| panic!("{}: {err}", e.name));
            assert_eq!(strategy.name(), e.name);
        }
        assert_eq!(names().len(), BUILT_IN.len() + BUNDLED.len());
    }

    #[test]
    fn the_playbook_is_the_reference_then_every_distinct_bundled_file() {
        let playbook = playbook();
        assert_eq!(playbook[0], REFERENCE);
        for left_out in [RANDOM, OPTIMAL, "reference.toml"] {
            assert!(!playbook.iter().any(|n| n == left_out), "{left_out}");
        }
        assert_eq!(playbook.len(), BUNDLED.len());
    }
}
