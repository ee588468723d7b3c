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

    /// Whether the answers from `state` on may depend on the current values of the counters
    /// [`State::attempts`] and [`State::failures`] before they are next reset (a new task).
    /// The exact engine keys its memo on the counters only where this says `true`; it is a
    /// promise that lets it share the value of states that differ only in the counters.
    /// `true` (the default) is always correct; a strategy that never reads the counters may
    /// answer `false` everywhere.
    fn reads_counters(&self, _state: &State) -> bool {
        true
    }
}

impl<S: Strategy + ?Sized> Strategy for &S {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        (**self).decide(state, rules, decision)
    }
    fn reads_counters(&self, state: &State) -> bool {
        (**self).reads_counters(state)
    }
}

impl<S: Strategy + ?Sized> Strategy for Box<S> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        (**self).decide(state, rules, decision)
    }
    fn reads_counters(&self, state: &State) -> bool {
        (**self).reads_counters(state)
    }
}

/// The member of `candidates` with the fewest wounds, ties to the lowest number (healthy
/// before wounded before incapacitated).
#[inline]
pub fn least_wounded(
    state: &State,
    candidates: impl IntoIterator<Item = Character>,
) -> Option<Character> {
    let candidates: Team = candidates.into_iter().collect();
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
