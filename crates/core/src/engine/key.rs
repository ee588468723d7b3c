//! The exact engines' keys of a strategy's positions: the game's packed key
//! ([`crate::game::key`]) of a position as the strategy sees it ([`Sight`]).

use crate::game::canon;
use crate::game::{State, key};
use crate::rules::Rules;
use crate::strategy::Sight;

/// The exact engine's key for a strategy that sees `sight` of `state`
/// ([`crate::strategy::Strategy::sight`]).
#[inline]
pub fn strategy_key(state: &State, sight: Sight, rules: &Rules) -> u128 {
    sight
        .key(state)
        .unwrap_or_else(|| u128::from(key::solver_key(state, rules)))
}

/// What the decomposition tells apart of positions a strategy sees with `sight`: what optimal
/// play's values read too. Complications a strategy never names as a target (and so may
/// forget) are kept unless no play can read them again ([`canon::unread_complications`]).
/// Positions alike but for the names of members that the strategy tells apart only by their
/// order (`member_order`) stay one: optimal play values them alike (its canonical form
/// relabels the non-medic characters) and the strategy answers them alike, so they lose alike
/// and are one term, listed among the costliest under the names of the first met. Told apart
/// by name, a strategy's positions would be several times as many.
pub(super) fn regret_sight(state: &State, sight: Sight, rules: &Rules) -> Sight {
    match sight {
        Sight::Partial {
            counters,
            unread_complications,
            first_side_type,
            second_side_type,
            member_order,
        } => Sight::Partial {
            counters,
            unread_complications: unread_complications
                .and(canon::unread_complications(state, rules)),
            first_side_type,
            second_side_type,
            member_order,
        },
        rules_only @ Sight::RulesOnly { .. } => rules_only,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Observer, play_seeded};
    use crate::game::canon::{forget, in_member_order_labelled};
    use crate::game::{Action, Chance, Character, Decision, Team};
    use crate::rules::{CLARIFIED, MAIN_TEXT};
    use crate::strategy::RandomStrategy;

    /// Every position of random games, in both phases: packed under its labels, a strategy's
    /// key is the key of the position relabelled into member order, its unread complications
    /// and first side type forgotten, for every sight.
    #[test]
    fn a_strategy_key_packs_the_position_forgotten_in_member_order() {
        struct Played(Vec<State>);
        impl Observer for Played {
            fn decision(&mut self, before: &State, _: Decision, _: Action, _: &State) {
                self.0.push(*before);
            }
            fn chance(&mut self, before: &State, _: Chance, _: u32, _: &State) {
                self.0.push(*before);
            }
        }
        let mut positions = Played(Vec::new());
        for rules in [MAIN_TEXT, CLARIFIED] {
            for game in 0..300 {
                play_seeded(&rules, &RandomStrategy, 6, 11, game, &mut positions);
            }
        }
        let unread_sets = [
            Team::EMPTY,
            Team::ALL,
            Team::EMPTY.with(Character::Spy).with(Character::Medic),
            Team::EMPTY
                .with(Character::Hacker)
                .with(Character::Mechanic),
        ];
        let (mut relabelled, mut forgotten) = (0, 0);
        for state in &positions.0 {
            for member_order in [false, true] {
                for first_side_type in [false, true] {
                    for unread in unread_sets {
                        let sight = Sight::Partial {
                            counters: (state.attempts(), 0),
                            unread_complications: unread,
                            first_side_type,
                            second_side_type: true,
                            member_order,
                        };
                        let named = if member_order {
                            in_member_order_labelled(state).0
                        } else {
                            *state
                        };
                        relabelled += usize::from(named.team() != state.team());
                        let kept = forget(&named, unread, first_side_type);
                        forgotten += usize::from(
                            Character::ALL
                                .iter()
                                .any(|&c| kept.complication(c) != named.complication(c)),
                        );
                        assert_eq!(
                            strategy_key(state, sight, &MAIN_TEXT),
                            key::counted(key::rules_key(&kept), (state.attempts(), 0)),
                            "{state:?} under {sight:?}"
                        );
                    }
                }
            }
        }
        assert!(
            relabelled > 1000 && forgotten > 1000,
            "{relabelled} {forgotten}"
        );
    }
}
