//! Playing one game: the driver loop every sampling engine and `raven play` share.

use rand::Rng;

use crate::game::{Action, Chance, Decision, Node, Outcome, Script, State, Streams, uniform};
use crate::rules::Rules;
use crate::strategy::{Choice, Strategy};

/// Sees every step of a game (for narration); the default methods do nothing and compile away.
pub trait Observer {
    /// Whether the driver may play the game in one [`State::resume`] instead of one point at
    /// a time. Both draw the same numbers and reach the same end, but in one call the
    /// observer sees nothing, so an observer that narrates every step leaves this `false`.
    const WHOLE: bool = false;

    /// A decision was taken: `before` → `after`.
    fn decision(&mut self, _before: &State, _decision: Decision, _action: Action, _after: &State) {}
    /// A chance point resolved: `before` → `after`.
    fn chance(&mut self, _before: &State, _chance: Chance, _outcome: u32, _after: &State) {}
}

/// No one watches: the game is played in one call.
impl Observer for () {
    const WHOLE: bool = true;
}

/// A strategy's answer, with "uniformly at random" drawn from the dice stream.
#[inline(always)]
fn answer<S: Strategy + ?Sized, R: Rng>(
    strategy: &S,
    state: &State,
    rules: &Rules,
    decision: Decision,
    dice: &mut R,
) -> Action {
    act(strategy.decide(state, rules, decision), state, rules, dice)
}

/// The action a choice at `state` stands for, "uniformly at random" drawn from `dice`.
#[inline(always)]
fn act<R: Rng>(choice: Choice, state: &State, rules: &Rules, dice: &mut R) -> Action {
    match choice {
        Choice::Act(action) => action,
        Choice::Uniform => {
            let options = state.actions(rules);
            options[uniform(dice, options.len() as u32) as usize]
        }
    }
}

/// A strategy answering every decision and the streams every chance point: a whole game.
struct Sampler<'a, S: ?Sized, R> {
    strategy: &'a S,
    streams: &'a mut Streams<R>,
}

impl<S: Strategy + ?Sized, R: Rng> Script for Sampler<'_, S, R> {
    #[inline(always)]
    fn decide(&mut self, state: &State, rules: &Rules, decision: Decision) -> Option<Action> {
        Some(answer(
            self.strategy,
            state,
            rules,
            decision,
            &mut self.streams.dice,
        ))
    }
    #[inline(always)]
    fn chance(&mut self, _: &State, chance: Chance) -> Option<u32> {
        Some(chance.sample(self.streams))
    }
}

/// Plays a game on to its next decision, warms the answer and stops there; on the next call
/// answers it (and plays on to the next).
pub(super) struct Warming<'a, S: ?Sized, R> {
    strategy: &'a S,
    streams: &'a mut Streams<R>,
    /// What [`Strategy::prefetch`] returned at the decision the game stopped at, if it did.
    warm: &'a mut Option<u64>,
}

impl<'a, S: Strategy + ?Sized, R> Warming<'a, S, R> {
    /// Plays with `strategy` from `streams`; `warm` is `None` until a decision is warmed.
    pub(super) fn new(
        strategy: &'a S,
        streams: &'a mut Streams<R>,
        warm: &'a mut Option<u64>,
    ) -> Self {
        Warming {
            strategy,
            streams,
            warm,
        }
    }
}

impl<S: Strategy + ?Sized, R: Rng> Script for Warming<'_, S, R> {
    #[inline(always)]
    fn decide(&mut self, state: &State, rules: &Rules, decision: Decision) -> Option<Action> {
        let Some(warm) = self.warm.take() else {
            *self.warm = Some(self.strategy.prefetch(state, rules));
            return None;
        };
        let choice = self.strategy.decide_warm(state, rules, decision, warm);
        Some(act(choice, state, rules, &mut self.streams.dice))
    }

    #[inline(always)]
    fn chance(&mut self, _: &State, chance: Chance) -> Option<u32> {
        Some(chance.sample(self.streams))
    }
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
    if O::WHOLE {
        state.resume(rules, &mut Sampler { strategy, streams });
        return state;
    }
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
                let action = answer(strategy, &state, rules, decision, &mut streams.dice);
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
