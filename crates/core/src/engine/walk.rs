//! Exact expectation of a strategy: the same state machine the Monte Carlo engine samples,
//! summed over every outcome instead.
//!
//! - at a chance point, the probability-weighted sum over [`Chance::outcomes`];
//! - at a decision point, the strategy's action, or the average over the legal actions when it
//!   answers [`Choice::Uniform`];
//! - at the end, the same functionals of the final state that [`Tally::record`] counts.
//!
//! Values are memoised on the state as far as the strategy can tell states apart
//! ([`Strategy::sight`], [`key::strategy_key`]): a strategy may read the counters and the
//! complications, so two states that differ only there may be played differently, but most
//! read the counters only up to a threshold, never read the complications of characters they
//! will not recruit, and never look back at the first side challenge's type; uniform random
//! play reads nothing the rules do not and shares the optimal engine's symmetric key. The game
//! graph is acyclic (every failed check costs stealth or a wound, every success moves the game
//! on), so plain recursion terminates; its depth is bounded by the length of a game.
//!
//! [`Tally::record`]: super::Tally::record

use rustc_hash::FxHashMap;

use crate::engine::Expectation;
use crate::game::{Chance, Node, State, Step, TOUGH_CHALLENGES};
use crate::rules::Rules;
use crate::strategy::{Choice, Sight, Strategy};

use super::budget::{Budget, Halt};
use super::expectation::{add_scaled, terminal};
use super::ids::Ids;
use super::key;
use super::positions::{counts_attempts, kept, on_first_side, worth_memoising};
use super::successors::{rolled_on_leaving, successors};

/// Where an exact walk keeps a position's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    /// The walk's memo, for the whole evaluation.
    Global(u128),
    /// The memo of the side challenges before Tough Challenge `tough`, emptied when their
    /// roll of side types is evaluated: a retry counted by the strategy (after two or more
    /// failures) is met again only inside the same pair of side challenges, since the count
    /// starts afresh at every side challenge. A small map the processor's cache holds, instead
    /// of millions of entries that each cost a cache miss.
    Task { tough: u8, key: u128 },
}

/// What an exact walk adds up over the rest of a game, weighted by probability: the figures
/// of the end ([`Figures`], the exact engine), or terms collected at the strategy's decisions
/// (the regret decomposition, [`mod@super::decisions`]). One walk serves them all.
pub trait Measure {
    /// What the rest of a game adds up to from a position.
    type Value: Copy;
    /// Nothing.
    fn zero(&self) -> Self::Value;
    /// The value of a finished game.
    fn terminal(&self, end: &State) -> Self::Value;
    /// What of a position the walk must tell apart, given what the strategy reads there:
    /// `sight` itself unless the values read more. The rules' own reading is always kept.
    #[inline]
    fn sight(&self, _state: &State, sight: Sight) -> Sight {
        sight
    }
    /// What the decision at `state` adds on top of what follows it, the strategy having
    /// answered `choice`; `None` for nothing. With `pending`, `state` is at the first side
    /// challenge and its second side type is a placeholder not rolled yet ([`Exact::walk`]):
    /// a measure that reads it averages over [`second_side_type_odds`](crate::game::Chance::second_side_type_odds). The value may depend
    /// on what [`Measure::sight`] keeps of `state`.
    fn decision(
        &mut self,
        state: &State,
        rules: &Rules,
        choice: Choice,
        pending: bool,
    ) -> Result<Option<Self::Value>, Halt>;
    /// `acc += weight · value`.
    fn add_scaled(acc: &mut Self::Value, value: &Self::Value, weight: f64);
}

/// The exact engine's measure: the figures of the finished game, exactly as
/// [`super::Tally::record`] counts them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Figures;

impl Measure for Figures {
    type Value = Expectation;
    fn zero(&self) -> Expectation {
        Expectation::default()
    }
    fn terminal(&self, end: &State) -> Expectation {
        terminal(end)
    }
    #[inline]
    fn decision(
        &mut self,
        _: &State,
        _: &Rules,
        _: Choice,
        _: bool,
    ) -> Result<Option<Expectation>, Halt> {
        Ok(None)
    }
    #[inline]
    fn add_scaled(acc: &mut Expectation, value: &Expectation, weight: f64) {
        add_scaled(acc, value, weight);
    }
}

/// A memoised exact evaluator of one strategy under one set of rules.
pub struct Exact<'a, S: ?Sized, M: Measure = Figures> {
    pub(super) rules: &'a Rules,
    pub(super) strategy: &'a S,
    measure: M,
    /// Position key → index into `values`, indexed densely by shape ([`Ids`]; the values
    /// sit apart, so that probes touch little memory).
    pub(super) memo: Ids,
    values: Vec<M::Value>,
    /// Per entry of `values`, the position it was computed for and whether its second side
    /// type was pending, when asked for ([`Exact::recording_positions`]): what the forward
    /// pass of [`super::reach`] expands.
    pub(super) positions: Option<Vec<(State, bool)>>,
    /// Per Tough Challenge, the retries of its side challenges ([`Slot::Task`]).
    tasks: [FxHashMap<u128, M::Value>; TOUGH_CHALLENGES as usize],
    pub(super) budget: Budget<'a>,
}

impl<'a, S: Strategy + ?Sized> Exact<'a, S> {
    /// An evaluator with an empty memo.
    pub fn new(rules: &'a Rules, strategy: &'a S) -> Self {
        Exact::with_measure(rules, strategy, Figures, Budget::UNLIMITED)
    }

    /// An evaluator that stops ([`Halt`]) past its budget.
    pub fn with_budget(rules: &'a Rules, strategy: &'a S, budget: Budget<'a>) -> Self {
        Exact::with_measure(rules, strategy, Figures, budget)
    }

    /// The exact expectation of the game from `state` on, on this thread.
    pub fn expectation(&mut self, state: &State) -> Expectation {
        let budget = std::mem::replace(&mut self.budget, Budget::UNLIMITED);
        let e = self.try_expectation(state).expect("no limit");
        self.budget = budget;
        e
    }

    /// The exact expectation of the game from `state` on, unless it runs past its budget.
    pub fn try_expectation(&mut self, state: &State) -> Result<Expectation, Halt> {
        self.value(state)
    }
}

impl<'a, S: Strategy + ?Sized, M: Measure> Exact<'a, S, M> {
    /// A walk adding up `measure`, with an empty memo, stopping past `budget`.
    pub fn with_measure(rules: &'a Rules, strategy: &'a S, measure: M, budget: Budget<'a>) -> Self {
        Exact {
            rules,
            strategy,
            measure,
            memo: Ids::default(),
            values: Vec::new(),
            positions: None,
            tasks: Default::default(),
            budget,
        }
    }

    /// The same walk, also keeping the position of every memoised value (a few dozen bytes
    /// each), so that [`Exact::reach`] can follow the walk forwards afterwards.
    pub fn recording_positions(mut self) -> Self {
        self.positions = Some(Vec::new());
        self
    }

    /// The number of memoised states so far.
    pub fn states(&self) -> usize {
        self.values.len()
    }

    /// The measure, for what it collected besides the values.
    pub fn measure_mut(&mut self) -> &mut M {
        &mut self.measure
    }

    /// What the rest of the game adds up to from `state`, unless it runs past the budget.
    pub fn value(&mut self, state: &State) -> Result<M::Value, Halt> {
        self.walk(state, false)
    }

    /// Where `state`'s value is kept, or `None` if it is not worth memoising. `pending`: the
    /// second side type is not rolled yet (see [`Exact::walk`]), which the key must tell apart.
    #[inline]
    pub(super) fn slot(&self, state: &State, pending: bool) -> Option<Slot> {
        if !worth_memoising(state) {
            return None;
        }
        let sight = self
            .measure
            .sight(state, self.strategy.sight(state, self.rules));
        let pending = u128::from(pending) << 127;
        let counts_attempts = counts_attempts(state, sight);
        if !kept(state, || sight) {
            return None;
        }
        let key = key::strategy_key(state, sight, self.rules) | pending;
        Some(match state.step() {
            // A side challenge's start (no attempt yet) is met from many places.
            Step::Side { tough, .. }
                if counts_attempts
                    && state.attempts() > 0
                    && usize::from(tough) < self.tasks.len() =>
            {
                Slot::Task { tough, key }
            }
            _ => Slot::Global(key),
        })
    }

    /// Where a decision answered with `choice` leads when the walk keeps no entry for it: the
    /// one position its action leads to and that position's slot, when it is memoised and
    /// its second side type is `pending` as the decision's is.
    #[inline]
    pub(super) fn straight_through(
        &self,
        state: &State,
        pending: bool,
        choice: Option<Choice>,
    ) -> Option<(State, Slot)> {
        let Some(Choice::Act(action)) = choice else {
            return None;
        };
        let mut next = *state;
        next.apply_action(self.rules, action);
        if pending && !on_first_side(&next) {
            return None;
        }
        self.slot(&next, pending).map(|slot| (next, slot))
    }

    /// The value kept at `slot`, if any.
    #[inline]
    fn lookup(&self, slot: Slot) -> Option<M::Value> {
        match slot {
            Slot::Global(key) => self.memo.get(key).map(|i| self.values[i as usize]),
            Slot::Task { tough, key } => self.tasks[usize::from(tough)].get(&key).copied(),
        }
    }

    /// Keeps `value`, the value of `state` (with its second side type `pending` or not), at
    /// `slot`.
    #[inline]
    fn keep(
        &mut self,
        slot: Slot,
        value: M::Value,
        state: &State,
        pending: bool,
    ) -> Result<(), Halt> {
        match slot {
            Slot::Global(key) => {
                self.budget.admit(self.values.len())?;
                *self.memo.slot(key) = self.values.len() as u32;
                self.values.push(value);
                if let Some(positions) = &mut self.positions {
                    positions.push((*state, pending));
                }
            }
            Slot::Task { tough, key } => {
                self.tasks[usize::from(tough)].insert(key, value);
            }
        }
        Ok(())
    }

    /// The value from `state` on. With `pending`, `state` is at the first side challenge
    /// and its second side type is a placeholder not rolled yet: R12 rolls both types at once,
    /// but when neither the rules nor the strategy read the second before the second side
    /// challenge, rolling it then gives the same game, and the first side challenge is
    /// evaluated once instead of once per second type.
    fn walk(&mut self, state: &State, pending: bool) -> Result<M::Value, Halt> {
        let node = state.node(self.rules);
        if let Node::Over(_) = node {
            return Ok(self.measure.terminal(state));
        }
        let rules = self.rules;
        let choice = match node {
            Node::Decision(decision) => Some(self.strategy.decide(state, rules, decision)),
            _ => None,
        };

        // A decision answered with one action that leads to a memoised position needs no
        // entry of its own: its value is that position's, one lookup away, plus what the
        // measure adds at the decision.
        if let Some((next, slot)) = self.straight_through(state, pending, choice) {
            let choice = choice.expect("a decision");
            let local = self.measure.decision(state, rules, choice, pending)?;
            let value = match self.lookup(slot) {
                Some(value) => value,
                None => self.walk(&next, pending)?,
            };
            return Ok(plus::<M>(value, &local));
        }
        let slot = self.slot(state, pending);
        if let Some(slot) = slot
            && let Some(value) = self.lookup(slot)
        {
            return Ok(value);
        }
        let local = match choice {
            Some(choice) => self.measure.decision(state, rules, choice, pending)?,
            None => None,
        };
        let mut e = self.measure.zero();
        let (pending, successors) = successors(rules, self.strategy, state, node, choice, pending);
        for (next, weight) in successors {
            M::add_scaled(&mut e, &self.child(&next, pending)?, weight);
        }
        let e = plus::<M>(e, &local);
        if let Step::SideTypes { tough } = state.step()
            && let Some(task) = self.tasks.get_mut(usize::from(tough))
        {
            // Every retry of these side challenges has been evaluated (see `Slot::Task`).
            task.clear();
        }
        if let Some(slot) = slot {
            self.keep(slot, e, state, pending)?;
        }
        Ok(e)
    }

    /// The expectation from `next`, a successor of a position with the second side type
    /// `pending` or not: once the first side challenge is over, the second type is rolled
    /// (the outcomes of [`Chance::SideTypes`] with the first type held, weighted alike).
    fn child(&mut self, next: &State, pending: bool) -> Result<M::Value, Halt> {
        if !rolled_on_leaving(next, pending) {
            return self.walk(next, pending);
        }
        let mut e = self.measure.zero();
        for (second, p) in Chance::second_side_type_odds() {
            let rolled = next.with_second_side_type(second);
            M::add_scaled(&mut e, &self.walk(&rolled, false)?, p);
        }
        Ok(e)
    }
}

/// `value`, plus `local` if there is one.
#[inline]
fn plus<M: Measure>(mut value: M::Value, local: &Option<M::Value>) -> M::Value {
    if let Some(local) = local {
        M::add_scaled(&mut value, local, 1.0);
    }
    value
}
