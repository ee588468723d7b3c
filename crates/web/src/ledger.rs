//! One game as optimal play's win probability `μ` saw it, for the page's small chart: `μ` at
//! the start and after every roll and decision, as `raven play`'s ledger reads it (the
//! solved table's value of each position; at the end, the result).

use raven_core::engine::{Observer, OptimalStrategy};
use raven_core::game::{Action, Chance, Decision, State};
use raven_core::rules::Rules;
use serde_json::{Value, json};

/// `μ` after each step of a game, and whether the step was a roll.
#[derive(Default)]
pub struct Steps {
    pub steps: Vec<(bool, f64)>,
}

impl Steps {
    /// Records a step that left `μ` at `mu`.
    pub fn record(&mut self, chance: bool, mu: f64) {
        self.steps.push((chance, mu));
    }

    /// The message's fields: `start`, `steps` (`{"roll", "mu"}` each) and the result.
    pub fn fields(&self, start: f64, won: bool) -> Value {
        let steps: Vec<Value> = self
            .steps
            .iter()
            .map(|&(roll, mu)| json!({"roll": roll, "mu": mu}))
            .collect();
        json!({"start": start, "steps": steps, "won": won})
    }
}

/// Follows a Purple Raven game, reading `μ` from the solved table after every step.
pub struct Follow<'a> {
    pub table: &'a OptimalStrategy,
    pub rules: &'a Rules,
    pub steps: Steps,
}

impl Observer for Follow<'_> {
    fn decision(&mut self, _: &State, _: Decision, _: Action, after: &State) {
        let mu = self.table.value(after, self.rules);
        self.steps.record(false, mu);
    }
    fn chance(&mut self, _: &State, _: Chance, _: u32, after: &State) {
        let mu = self.table.value(after, self.rules);
        self.steps.record(true, mu);
    }
}
