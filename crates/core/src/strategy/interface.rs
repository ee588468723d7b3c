//! A Purple Raven strategy behind the game interface of [`crate::games`], so that the engines
//! written for any game evaluate it too.

use super::{Choice, Sight, Strategy};
use crate::game::interface::PurpleRaven;
use crate::game::{Action, Node, State};
use crate::games::Policy;

/// A Purple Raven strategy as a [`crate::games::Policy`] of the game interface: its answer,
/// or every option alike where it answers "uniformly".
pub struct AsPolicy<'a>(pub &'a dyn Strategy);

impl Policy<PurpleRaven> for AsPolicy<'_> {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn weigh(&self, game: &PurpleRaven, pos: &State, options: &[Action], weights: &mut [f64]) {
        let Node::Decision(decision) = pos.node(&game.rules) else {
            unreachable!("a decision point")
        };
        match self.0.decide(pos, &game.rules, decision) {
            Choice::Act(action) => {
                let i = options
                    .iter()
                    .position(|&o| o == action)
                    .expect("a legal answer");
                weights[i] = 1.0;
            }
            Choice::Uniform => weights.fill(1.0 / options.len() as f64),
        }
    }

    /// The counters as far as the strategy reads them ([`Strategy::sight`]).
    fn view(&self, game: &PurpleRaven, pos: &State) -> State {
        match self.0.sight(pos, &game.rules) {
            Sight::Partial { counters, .. } => pos.with_counters(counters.0, counters.1),
            // Symmetric play that reads only what the rules read: one class, one value.
            Sight::RulesOnly { .. } => crate::game::canon::canonical(pos, &game.rules),
        }
    }
}
