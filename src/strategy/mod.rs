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

use crate::game::{Action, Character, Decision, State, Team};
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

    /// The counters `(attempts, failures)` of `state` as far as this strategy's answers can
    /// tell them apart before the counters next start afresh (a new task). The exact engine
    /// keys its memo on these, so states this maps alike share one value: a strategy that
    /// only asks "fewer than 3 attempts?" answers `attempts.min(3)`, one that never looks
    /// answers `(0, 0)`. The default, the counters themselves, is always correct.
    fn counters(&self, state: &State) -> (u8, u8) {
        (state.attempts(), state.failures())
    }
}

impl<S: Strategy + ?Sized> Strategy for &S {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        (**self).decide(state, rules, decision)
    }
    fn counters(&self, state: &State) -> (u8, u8) {
        (**self).counters(state)
    }
}

impl<S: Strategy + ?Sized> Strategy for Box<S> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        (**self).decide(state, rules, decision)
    }
    fn counters(&self, state: &State) -> (u8, u8) {
        (**self).counters(state)
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
