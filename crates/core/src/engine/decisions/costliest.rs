//! The positions where a strategy loses most ([`Costly`]): each decision's term as it is met,
//! the [`TOP`] costliest kept whatever order they are met in.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::game::{Action, Decision, DecisionKind, State, key};
use crate::strategy::Choice;

use super::super::solve::Solver;
use super::kinds::ByKind;

/// How many of the costliest positions [`decisions`](super::decisions()) lists per starting stealth.
pub const TOP: usize = 10;

/// One of the positions where a strategy loses most: a decision, what the strategy chose
/// there and what optimal play would, and how much that costs per game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Costly {
    /// The position, every die rolled.
    pub state: State,
    /// Its decision point.
    pub decision: Decision,
    /// The strategy's answer.
    pub choice: Choice,
    /// The best option (the first of equal ones in [`State::actions`] order).
    pub best: Action,
    /// The probability that the strategy reaches this position.
    pub reach: f64,
    /// `V*`: the win probability of the best option.
    pub best_value: f64,
    /// `Q*`: that of the strategy's choice, optimal play afterwards (the options' average
    /// for a uniform choice).
    pub chosen_value: f64,
}

impl Costly {
    /// Its kind of decision.
    pub fn kind(&self) -> DecisionKind {
        DecisionKind::of(self.decision)
    }

    /// Win probability lost here, given that the position is reached: `V* − Q*`.
    pub fn shortfall(&self) -> f64 {
        self.best_value - self.chosen_value
    }

    /// Its term of the decomposition, win probability lost here per game:
    /// `P(reach) × (V* − Q*)`.
    pub fn regret(&self) -> f64 {
        self.reach * self.shortfall()
    }
}

/// Keep every decision reached ([`Costliest::new`]).
pub const EVERY: usize = usize::MAX;

/// A term smaller than this is rounding between equal options, not a position worth listing.
pub(super) const NEGLIGIBLE: f64 = 1e-12;

/// The positions met so far that a listing keeps.
pub(super) enum Costliest {
    /// The `keep` costliest ([`TOP`] for a listing).
    Top {
        keep: usize,
        /// A min-heap on the term: the cheapest of the kept ones is dropped first.
        heap: BinaryHeap<Reverse<ByRegret>>,
    },
    /// Every decision reached, those played as well as optimal play too, in the order met
    /// (no order is asked for): [`EVERY`].
    Every(Vec<Costly>),
}

/// A [`Costly`] ordered by its term, equal terms by their position: which of them are kept
/// does not depend on the order they are met in.
pub(super) struct ByRegret(Costly);

impl ByRegret {
    /// The position told apart as far as a strategy can: the counters too.
    fn position(&self) -> u128 {
        let state = &self.0.state;
        key::with_counters(state, (state.attempts(), state.failures()))
    }
}

impl PartialEq for ByRegret {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}
impl Eq for ByRegret {}
impl PartialOrd for ByRegret {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for ByRegret {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.0.regret().total_cmp(&other.0.regret()))
            .then_with(|| other.position().cmp(&self.position()))
    }
}

impl Costliest {
    /// Nothing found yet.
    pub(super) fn new(keep: usize) -> Costliest {
        match keep {
            EVERY => Costliest::Every(Vec::new()),
            keep => Costliest::Top {
                keep,
                heap: BinaryHeap::with_capacity(keep.min(TOP) + 1),
            },
        }
    }

    /// The cheapest position kept, once `keep` are: the one a new position must beat.
    fn cheapest(&self) -> Option<&ByRegret> {
        match self {
            Costliest::Top { keep, heap } if heap.len() == *keep => heap.peek().map(|r| &r.0),
            _ => None,
        }
    }

    /// The term a position must reach to be kept (and exceed, or equal a kept one's and come
    /// first: [`ByRegret`]).
    pub(super) fn bar(&self) -> f64 {
        match self {
            Costliest::Every(_) => f64::NEG_INFINITY,
            Costliest::Top { .. } => {
                (self.cheapest()).map_or(NEGLIGIBLE, |cheapest| cheapest.0.regret())
            }
        }
    }

    /// Adds the term of `state`, a decision point `decision` answered with `choice` and
    /// reached with probability `reach`, its options valued by `solver`.
    pub(super) fn add_valued(
        &mut self,
        solver: &Solver,
        state: &State,
        decision: Decision,
        choice: Choice,
        reach: f64,
    ) {
        let options = solver.options(state);
        let (best, best_value) = options
            .iter()
            .copied()
            .fold(None, |best: Option<(Action, f64)>, (a, v)| match best {
                Some((_, b)) if b >= v => best,
                _ => Some((a, v)),
            })
            .expect("a decision has options");
        let chosen_value = match choice {
            Choice::Act(action) => {
                let chosen = options.iter().find(|(a, _)| *a == action);
                chosen.expect("the strategy's action is legal").1
            }
            Choice::Uniform => options.iter().map(|(_, v)| v).sum::<f64>() / options.len() as f64,
        };
        let costly = Costly {
            state: *state,
            decision,
            choice,
            best,
            reach,
            best_value,
            chosen_value,
        };
        let costly = ByRegret(costly);
        let kept = match self.cheapest() {
            Some(cheapest) => costly > *cheapest,
            None => costly.0.regret() > NEGLIGIBLE,
        };
        match self {
            Costliest::Every(every) => every.push(costly.0),
            Costliest::Top { keep, heap } if kept => {
                heap.push(Reverse(costly));
                if heap.len() > *keep {
                    heap.pop();
                }
            }
            Costliest::Top { .. } => {}
        }
    }

    /// The kept positions, costliest first (under [`EVERY`], in the order met).
    pub(super) fn into_sorted(self) -> Vec<Costly> {
        match self {
            Costliest::Every(every) => every,
            // Ascending on `Reverse`: the largest term first.
            Costliest::Top { heap, .. } => (heap.into_sorted_vec().into_iter())
                .map(|Reverse(ByRegret(c))| c)
                .collect(),
        }
    }
}

/// By stealth asked: the regret by kind and the costliest positions.
pub(super) type Found = Vec<(ByKind, Costliest)>;
