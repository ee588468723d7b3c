//! Strategies: who answers the decision points of the state machine.
//!
//! A strategy sees a read-only [`State`] and the [`Decision`] asked, and answers with a
//! [`Choice`]: one action, or "uniformly at random among the legal options", which the Monte
//! Carlo engine draws and the exact engine averages over.

mod bundled;
pub mod file;
mod optimal;
mod random;
mod reference;

pub use bundled::{BUNDLED, bundled, names, resolve, source};
pub use file::{FileStrategy, StrategyError};
pub use optimal::OptimalStrategy;
pub use random::RandomStrategy;
pub use reference::ReferenceStrategy;

use crate::game::{Action, Character, Decision, State, Step, Team};
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
    fn sight(&self, state: &State) -> Sight {
        Sight::everything(state)
    }

    /// Which concrete strategy this is, when it is one the engines know by type. The Monte
    /// Carlo engine looks once per chunk and then plays a copy of the game loop compiled for
    /// that type (the answers inlined into the state machine) instead of calling through a
    /// `dyn Strategy` at every decision. The default, [`Known::Other`], is always correct.
    fn known(&self) -> Known<'_> {
        Known::Other
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
    },
    /// Only what the rules read, up to relabelling the five non-medic characters: a strategy
    /// that is symmetric under that relabelling and reads nothing the rules do not, such as
    /// uniformly random play. It shares the optimal engine's canonical key
    /// ([`crate::engine::key::solver_key`]).
    RulesOnly,
}

impl Sight {
    /// Everything: the counters themselves, every complication, every side type.
    pub fn everything(state: &State) -> Sight {
        Sight::Partial {
            counters: (state.attempts(), state.failures()),
            unread_complications: Team::EMPTY,
            first_side_type: true,
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
    // R8: at most four members, the main character included.
    let left = usize::from(
        count
            .saturating_sub(members.saturating_sub(1))
            .min(4u8.saturating_sub(members)),
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
    fn sight(&self, state: &State) -> Sight {
        (**self).sight(state)
    }
    fn known(&self) -> Known<'_> {
        (**self).known()
    }
}

impl<S: Strategy + ?Sized> Strategy for Box<S> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        (**self).decide(state, rules, decision)
    }
    fn sight(&self, state: &State) -> Sight {
        (**self).sight(state)
    }
    fn known(&self) -> Known<'_> {
        (**self).known()
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

/// The names of the built-in (not file-defined) strategies.
pub const BUILT_IN: [&str; 3] = ["reference", "random", "optimal"];

/// A built-in strategy by name.
pub fn built_in(name: &str) -> Option<Box<dyn Strategy>> {
    match name {
        "reference" => Some(Box::new(ReferenceStrategy)),
        "random" => Some(Box::new(RandomStrategy)),
        // Solves lazily, under the rules of the game it is asked about.
        "optimal" => Some(Box::new(OptimalStrategy::new())),
        _ => None,
    }
}
