//! A Purple Raven strategy behind the game interface of [`crate::games`], so that the engines
//! written for any game evaluate it too.

use super::{Choice, Sight, Strategy};
use crate::game::canon;
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

    /// Stealth is the game's layer.
    fn alike_from(&self, _game: &PurpleRaven) -> Option<u32> {
        self.0.stealth_alike_from().map(u32::from)
    }

    /// R12: the second side type, where the strategy's sight leaves it out.
    fn ignores_late(&self, game: &PurpleRaven, pos: &State) -> bool {
        matches!(
            self.0.sight(pos, &game.rules),
            Sight::Partial {
                second_side_type: false,
                ..
            } | Sight::RulesOnly {
                second_side_type: false
            }
        )
    }

    /// The counters as far as the strategy reads them ([`Strategy::sight`]).
    fn view(&self, game: &PurpleRaven, pos: &State) -> State {
        match self.0.sight(pos, &game.rules) {
            // As the exact engine keys it: members by their order where the answers tell them
            // apart by order only, complications nothing reads again forgotten.
            Sight::Partial {
                counters,
                unread_complications,
                first_side_type,
                member_order,
                ..
            } => {
                let named = if member_order {
                    canon::in_member_order_labelled(pos).0
                } else {
                    *pos
                };
                let unread =
                    unread_complications.and(canon::unread_complications(pos, &game.rules));
                canon::forget(&named, unread, first_side_type).with_counters(counters.0, counters.1)
            }
            // Symmetric play that reads only what the rules read: one class, one value.
            Sight::RulesOnly { .. } => canon::canonical(pos, &game.rules),
        }
    }
}
