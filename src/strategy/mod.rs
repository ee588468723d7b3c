//! Strategies: who answers the decision points of the state machine.
//!
//! A strategy sees a read-only [`State`] and the [`Decision`] asked, and answers with a
//! [`Choice`]: one action, or "uniformly at random among the legal options", which the Monte
//! Carlo engine draws and the exact engine averages over.

mod bundled;
pub mod file;
mod random;
mod reference;

pub use bundled::{BUNDLED, bundled, names, resolve, source};
pub use file::{FileStrategy, StrategyError};
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
}

impl<S: Strategy + ?Sized> Strategy for &S {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        (**self).decide(state, rules, decision)
    }
}

impl<S: Strategy + ?Sized> Strategy for Box<S> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        (**self).decide(state, rules, decision)
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
pub const BUILT_IN: [&str; 2] = ["reference", "random"];

/// A built-in strategy by name.
pub fn built_in(name: &str) -> Option<Box<dyn Strategy>> {
    match name {
        "reference" => Some(Box::new(ReferenceStrategy)),
        "random" => Some(Box::new(RandomStrategy)),
        _ => None,
    }
}
