//! A Purple Raven strategy behind the game interface of [`crate::games`], so that the engines
//! written for any game evaluate it too.

use super::{Choice, Sight, Strategy};
use crate::game::canon;
use crate::game::interface::{PurpleRaven, place_of};
use crate::game::{Action, Node, State, Team};
use crate::games::{Index, Policy};

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

    fn choose(&self, game: &PurpleRaven, pos: &State) -> Option<Action> {
        let Node::Decision(decision) = pos.node(&game.rules) else {
            unreachable!("a decision point")
        };
        match self.0.decide(pos, &game.rules, decision) {
            Choice::Act(action) => Some(action),
            Choice::Uniform => None,
        }
    }

    /// Stealth is the game's layer.
    fn alike_from(&self, _game: &PurpleRaven) -> Option<u32> {
        self.0.stealth_alike_from().map(u32::from)
    }

    /// R12: the second side type, where the strategy's sight leaves it out.
    fn ignores_late(&self, game: &PurpleRaven, pos: &State) -> bool {
        !self.0.sight(pos, &game.rules).reads_second_side_type()
    }

    /// The counters as far as the strategy reads them ([`Strategy::sight`]), as its own exact
    /// engine keys a position: the complications it will never read nor name as a target
    /// forgotten, since the rules will not read them either.
    fn view(&self, game: &PurpleRaven, pos: &State) -> State {
        self.seen(game, pos, |unread, _| unread)
    }

    /// The view's place, from its key told without making it ([`Sight::key`]).
    fn view_place(&self, game: &PurpleRaven, pos: &State) -> Option<Index> {
        self.0.sight(pos, &game.rules).key(pos).map(place_of)
    }

    /// [`AsPolicy::view`], forgetting only the complications that no play reads again:
    /// optimal play may yet name one as a target.
    fn valued_view(&self, game: &PurpleRaven, pos: &State) -> State {
        self.seen(game, pos, |unread, pos| {
            unread.and(canon::unread_complications(pos, &game.rules))
        })
    }
}

impl AsPolicy<'_> {
    /// `pos` as the strategy sees it ([`Strategy::sight`]), forgetting the complications
    /// `forgotten` names of those the strategy never reads.
    fn seen(
        &self,
        game: &PurpleRaven,
        pos: &State,
        forgotten: impl FnOnce(Team, &State) -> Team,
    ) -> State {
        match self.0.sight(pos, &game.rules) {
            // Members by their order where the answers tell them apart by order only.
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
                let unread = forgotten(unread_complications, pos);
                canon::forget(&named, unread, first_side_type).with_counters(counters.0, counters.1)
            }
            // Symmetric play that reads only what the rules read: one class, one value.
            Sight::RulesOnly { .. } => canon::canonical(pos, &game.rules),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{Game, Point, random_play};
    use crate::rules::Rules;
    use crate::strategy::{BUNDLED, resolve};

    /// The place a strategy tells without making its view is the view's: checked at every
    /// stored position of random games, for every bundled strategy, under both presets. Fails
    /// if the labels, the complications forgotten or the counters of one differ from the
    /// other's.
    /// `check` for every bundled strategy under both presets, with a game from stealth 6 and
    /// the preset's name.
    fn every_bundled(check: impl Fn(&PurpleRaven, &str, &dyn Strategy, &str)) {
        for preset in ["main-text", "clarified"] {
            let game = PurpleRaven {
                rules: Rules::preset(preset).unwrap(),
                stealth: 6,
            };
            for (name, _) in BUNDLED {
                check(&game, name, resolve(name).unwrap().as_ref(), preset);
            }
        }
    }

    #[test]
    fn the_view_place_is_the_place_of_the_view() {
        every_bundled(|game, name, strategy, preset| {
            let policy = AsPolicy(strategy);
            let mut told = 0;
            random_play(game, 100, 7, |pos| {
                if game.stored(pos)
                    && let Some(place) = policy.view_place(game, pos)
                {
                    told += 1;
                    let view = policy.view(game, pos);
                    assert_eq!(Some(place), game.place(&view), "{name} {pos:?}");
                }
            });
            let sees_rules_only = matches!(
                strategy.sight(&game.start(), &game.rules),
                Sight::RulesOnly { .. }
            );
            assert!(sees_rules_only || told > 300, "{name} {preset}: {told}");
        });
    }

    /// The option a strategy names without the options listed is the one it weighs 1, and
    /// it names one wherever it weighs one 1: checked at every decision point of random
    /// games, for every bundled strategy, under both presets.
    #[test]
    fn the_option_chosen_is_the_one_weighed() {
        every_bundled(|game, name, strategy, preset| {
            let policy = AsPolicy(strategy);
            let mut chosen = 0;
            random_play(game, 100, 7, |pos| {
                if !matches!(game.point(pos), Point::Decision(_)) {
                    return;
                }
                let mut options = Vec::new();
                game.moves(pos, &mut |m| options.push(m));
                let mut weights = vec![0.0; options.len()];
                policy.weigh(game, pos, &options, &mut weights);
                let sure = (options.iter().zip(&weights)).find(|&(_, &w)| w == 1.0);
                let choice = policy.choose(game, pos);
                assert_eq!(choice, sure.map(|(&m, _)| m), "{name} {pos:?}");
                chosen += usize::from(choice.is_some());
            });
            assert!(
                name == "uniform" || chosen > 100,
                "{name} {preset}: {chosen}"
            );
        });
    }
}
