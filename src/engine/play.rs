//! Playing one game: the driver loop every sampling engine and `raven play` share.

use rand::Rng;

use crate::game::{Action, Chance, Decision, HighestOf, Node, Outcome, State, Streams, uniform};
use crate::rules::Rules;
use crate::strategy::{Choice, Strategy};

/// Sees every step of a game (for narration); the default methods do nothing and compile away.
pub trait Observer {
    /// Whether the driver may take the state machine's coarse transitions ([`State::roll`],
    /// [`State::aid_with`]: a roller or first-aid decision and its check in one step). They
    /// draw the same numbers and reach the same states, but the observer then does not see
    /// the chance point between decision and check, so an observer that narrates every step
    /// leaves this `false`.
    const COARSE: bool = false;

    /// A decision was taken: `before` → `after`.
    fn decision(&mut self, _before: &State, _decision: Decision, _action: Action, _after: &State) {}
    /// A chance point resolved: `before` → `after`.
    fn chance(&mut self, _before: &State, _chance: Chance, _outcome: u32, _after: &State) {}
}

/// No one watches: every coarse transition is taken.
impl Observer for () {
    const COARSE: bool = true;
}

/// Plays `state` to the end under `strategy`, drawing from `streams`; returns the final state.
#[inline]
pub fn play_game<S, R, O>(
    rules: &Rules,
    strategy: &S,
    mut state: State,
    streams: &mut Streams<R>,
    observer: &mut O,
) -> State
where
    S: Strategy + ?Sized,
    R: Rng,
    O: Observer,
{
    loop {
        let before = state;
        match state.node(rules) {
            Node::Over(_) => return state,
            Node::Chance(chance) => {
                let outcome = chance.sample(streams);
                state.apply_outcome(rules, outcome);
                observer.chance(&before, chance, outcome, &state);
            }
            Node::Decision(decision) => {
                let action = match strategy.decide(&state, rules, decision) {
                    Choice::Act(action) => action,
                    Choice::Uniform => {
                        let options = state.actions(rules);
                        options[uniform(&mut streams.dice, options.len() as u32) as usize]
                    }
                };
                if O::COARSE {
                    // The check the action starts, drawn as its chance point would draw it.
                    match action {
                        Action::Roll(roller) => {
                            let dice = state.roll_dice(rules, roller);
                            let r = HighestOf::of(dice).sample(&mut streams.dice);
                            state.roll(rules, roller, r);
                            continue;
                        }
                        Action::Aid { patient, giver } => {
                            let dice = state.aid_dice(rules, giver);
                            let r = HighestOf::of(dice).sample(&mut streams.dice);
                            state.aid_with(rules, patient, giver, r);
                            continue;
                        }
                        _ => {}
                    }
                }
                state.apply_action(rules, action);
                observer.decision(&before, decision, action, &state);
            }
        }
    }
}

/// Plays game number `game` of a run with this seed and starting stealth.
pub fn play_seeded<S: Strategy + ?Sized, O: Observer>(
    rules: &Rules,
    strategy: &S,
    stealth: u8,
    seed: u64,
    game: u64,
    observer: &mut O,
) -> (State, Outcome) {
    let mut streams = super::seed::streams(seed, stealth, game);
    let end = play_game(rules, strategy, State::new(stealth), &mut streams, observer);
    (end, end.outcome().expect("a played game is over"))
}
