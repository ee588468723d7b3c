//! What a decision's choice loses against optimal play ([`Shortfall`]), and the walk's
//! measure ([`Regret`]) that sums it by kind over a strategy's games.

use crate::game::{Action, Chance, Character, Decision, Node, State};
use crate::rules::Rules;
use crate::strategy::{Choice, Sight};

use super::super::budget::Halt;
use super::super::key::regret_sight;
use super::super::solve::Solver;
use super::super::walk::Measure;
use super::kinds::{ByKind, DecisionKind, KINDS, matters};

/// The [`Measure`] of the decomposition: the optimal value of every option from `solver`.
pub struct Regret<'s> {
    pub(super) solver: &'s Solver,
    /// Whether the walk meets positions by canonical class already (a strategy that reads
    /// only what the rules read, [`Sight::RulesOnly`]): then every class is met once, and
    /// the solver's options are worked out rather than kept by class.
    pub(super) by_class: bool,
}

impl Regret<'_> {
    /// The optimal value of every option at `state`.
    fn options(&self, state: &State) -> Vec<(Action, f64)> {
        if self.by_class {
            self.solver.worked_out_options(state)
        } else {
            self.solver.options(state)
        }
    }
}

impl Measure for Regret<'_> {
    type Value = ByKind;

    fn zero(&self) -> ByKind {
        ByKind::default()
    }

    fn terminal(&self, _: &State) -> ByKind {
        ByKind::default()
    }

    /// The optimal values read every complication optimal play may still read: those a
    /// strategy never names as a target (and so may forget) are kept unless no play can read
    /// them again ([`canon::unread_complications`](crate::game::canon::unread_complications)); see [`regret_sight`].
    fn sight(&self, state: &State, sight: Sight) -> Sight {
        regret_sight(state, sight, self.solver.rules())
    }

    fn decision(
        &mut self,
        state: &State,
        rules: &Rules,
        choice: Choice,
        pending: bool,
    ) -> Result<Option<ByKind>, Halt> {
        let Node::Decision(decision) = state.node(rules) else {
            return Ok(None);
        };
        if !state.has_choice(rules) {
            return Ok(None);
        }
        // A pending second side type's shortfall is the average over its roll.
        let mut local = ByKind::default();
        for (rolled, p, _) in valued_at(state, pending) {
            let shortfall = Shortfall::of(&self.options(&rolled), decision, choice);
            Self::add_scaled(&mut local, &shortfall.by_kind(), p);
        }
        Ok(Some(local))
    }

    fn add_scaled(acc: &mut ByKind, value: &ByKind, weight: f64) {
        for k in 0..KINDS {
            acc.regret[k] += weight * value.regret[k];
            acc.arises[k] += weight * value.arises[k];
            acc.matters[k] += weight * value.matters[k];
        }
    }
}

/// Where a decision's options are valued: the position itself, or, when its second side type
/// is `pending` (read by optimal play's values, not by the strategy), each roll of that type,
/// with its probability and the type rolled.
pub(super) fn valued_at(
    state: &State,
    pending: bool,
) -> impl Iterator<Item = (State, f64, Option<Character>)> + use<> {
    let state = *state;
    let own = (!pending).then_some((state, 1.0, None));
    let rolled = pending.then(|| {
        Chance::second_side_type_odds()
            .map(move |(second, p)| (state.with_second_side_type(second), p, Some(second)))
    });
    own.into_iter().chain(rolled.into_iter().flatten())
}

/// A decision's options against the strategy's choice, valued by optimal play afterwards.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shortfall {
    pub(super) kind: DecisionKind,
    /// The best option (the first of equal ones) and its value, `V*`.
    pub(super) best: (Action, f64),
    /// The worst option's value.
    pub(super) worst: f64,
    /// `Q*` of the strategy's choice (the options' average for a uniform choice).
    pub(super) chosen: f64,
}

impl Shortfall {
    /// The shortfall of `choice` among `options` (every legal option's optimal value at a
    /// position with every die rolled).
    pub(super) fn of(options: &[(Action, f64)], decision: Decision, choice: Choice) -> Shortfall {
        let best = options
            .iter()
            .copied()
            .fold(None, |best: Option<(Action, f64)>, (a, v)| match best {
                Some((_, b)) if b >= v => best,
                _ => Some((a, v)),
            })
            .expect("a decision has options");
        let worst = options.iter().map(|(_, v)| *v).fold(f64::MAX, f64::min);
        let chosen = match choice {
            Choice::Act(action) => {
                options
                    .iter()
                    .find(|(a, _)| *a == action)
                    .expect("the strategy's action is legal")
                    .1
            }
            Choice::Uniform => options.iter().map(|(_, v)| v).sum::<f64>() / options.len() as f64,
        };
        Shortfall {
            kind: DecisionKind::of(decision),
            best,
            worst,
            chosen,
        }
    }

    /// The decision's term of the walk: its regret, and that it arose and whether it matters.
    fn by_kind(&self) -> ByKind {
        let k = self.kind as usize;
        let mut local = ByKind::default();
        local.regret[k] = self.best.1 - self.chosen;
        local.arises[k] = 1.0;
        local.matters[k] = f64::from(u8::from(matters(self.best.1, self.worst)));
        local
    }
}
