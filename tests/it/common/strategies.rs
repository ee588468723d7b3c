//! Strategies the engine tests wrap around others.

use raven::game::{Decision, State};
use raven::rules::Rules;
use raven::strategy::{Choice, Sight, Strategy};

/// A strategy that plays like `S`, sees what `S` sees, but does not say from which stealth its
/// answers stop depending on stealth (the default [`Strategy::stealth_alike_from`]): the layered
/// engines must then evaluate every stealth as a class of its own.
pub struct StealthAnywhere<S>(pub S);

impl<S: Strategy> Strategy for StealthAnywhere<S> {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        self.0.decide(state, rules, decision)
    }
    fn sight(&self, state: &State, rules: &Rules) -> Sight {
        self.0.sight(state, rules)
    }
}
