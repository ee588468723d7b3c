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

use std::sync::LazyLock;
use std::sync::atomic::{AtomicBool, Ordering};

use rustc_hash::FxHashMap;

use crate::engine::Expectation;
use crate::game::{
    Aid, Chance, Character, LossCause, Node, Outcome, State, Step, TOUGH_CHALLENGES,
};
use crate::rules::Rules;
use crate::strategy::{Choice, Sight, Strategy};

use super::ids::Ids;
use super::key;
use super::montecarlo::Cancelled;
use super::successors::{rolled_on_leaving, successors};

/// The functionals of a finished game, exactly as [`super::Tally::record`] counts them.
pub fn terminal(end: &State) -> Expectation {
    let outcome = end.outcome().expect("a terminal state is over");
    let mut e = Expectation::default();
    match outcome {
        Outcome::Win => e.win = 1.0,
        Outcome::Loss(cause) => e.losses[cause as usize] = 1.0,
    }
    e.discovered = f64::from(u8::from(end.discovered()));
    e.stealth_left = f64::from(end.stealth());
    // The team never changes after phase 1, so its final size is its size entering the run.
    if outcome != Outcome::Loss(LossCause::Recruitment) {
        e.reached_run = 1.0;
        e.team_at_run = f64::from(end.team().len());
    }
    e.deaths = f64::from(end.deaths());
    e
}

/// `acc += weight · e`, field by field.
#[inline]
pub fn add_scaled(acc: &mut Expectation, e: &Expectation, weight: f64) {
    acc.win += weight * e.win;
    for (a, l) in acc.losses.iter_mut().zip(e.losses) {
        *a += weight * l;
    }
    acc.discovered += weight * e.discovered;
    acc.stealth_left += weight * e.stealth_left;
    acc.reached_run += weight * e.reached_run;
    acc.team_at_run += weight * e.team_at_run;
    acc.deaths += weight * e.deaths;
}

/// Whether a state's value is worth keeping. Checks that follow a decision (`…Check` steps and
/// first aid in progress) are reached from that one decision only, the choice of main
/// character from the one complication roll only, a run type to pick from its one roll, and
/// the root once: memoising them would only cost memory.
#[inline]
pub fn worth_memoising(state: &State) -> bool {
    !matches!(state.aid(), Aid::Check { .. })
        && !matches!(
            state.step(),
            Step::Complications
                | Step::ChooseMain
                | Step::PickRunType { .. }
                | Step::RecruitCheck { .. }
                | Step::RunCheck { .. }
                | Step::SideCheck { .. }
        )
}

/// Whether a key for `sight` tells the number of attempts at `state` apart.
#[inline]
fn counts_attempts(state: &State, sight: Sight) -> bool {
    matches!(sight, Sight::Partial { counters: (a, _), .. } if a == state.attempts())
}

/// Whether the walk keeps the value of a position worth memoising that a strategy sees with
/// `sight`: not a side challenge reached from one place only once the key counts attempts.
#[inline]
pub(super) fn kept(state: &State, sight: impl FnOnce() -> Sight) -> bool {
    // The step first: the strategy's sight is dearer, and only side challenges ask for it.
    !(side_reached_once(state) && counts_attempts(state, sight()))
}

/// Whether a side challenge position is reached from one place only, once its key tells the
/// number of attempts apart: the first side challenge before any attempt comes from its one
/// roll of side types (the second one is met from many), and a first retry from its one
/// failed attempt. Only after two failures, which may come in either order (a wound then a
/// lost stealth point, or the reverse), can two paths meet.
#[inline]
fn side_reached_once(state: &State) -> bool {
    match state.step() {
        Step::Side { index, .. } => match state.attempts() {
            0 => index == 0,
            1 => true,
            _ => false,
        },
        _ => false,
    }
}

/// Where an exact walk keeps a position's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    /// The walk's memo, for the whole evaluation.
    Global(u128),
    /// The memo of the side challenges before Tough Challenge `tough`, emptied when their
    /// roll of side types is evaluated: a retry counted by the strategy (after two or more
    /// failures) is met again only inside the same pair of side challenges, since the count
    /// starts afresh at every side challenge. A small map the processor's cache holds, instead
    /// of millions of entries that each cost a miss (measured: most of the walk's time).
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
    /// a measure that reads it averages over [`second_side_type_odds`]. The value may depend
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

/// Peak memory per memoised position, as measured with `/usr/bin/time -v` (the table's
/// growth included: `reckless` over stealth 0..=16, 38.5 M positions, peaked at 5.5 GB).
pub const BYTES_PER_STATE: f64 = 190.0;

/// The evaluation needed more memoised states than allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the evaluation needs more than {limit} memoised positions (about {} at its peak) — \
     raise --max-memory if the machine has it, or use Monte Carlo (`raven simulate`); high \
     starting stealth and strategies that pick their team from the complications or retry \
     often reach the most positions",
    size(*limit as f64 * BYTES_PER_STATE)
)]
pub struct TooLarge {
    /// The limit that was reached.
    pub limit: usize,
}

/// `bytes` for people: MiB below a GiB, else GiB with one decimal.
fn size(bytes: f64) -> String {
    const MIB: f64 = (1u64 << 20) as f64;
    if bytes < 1024.0 * MIB {
        format!("{:.0} MiB", bytes / MIB)
    } else {
        format!("{:.1} GiB", bytes / (1024.0 * MIB))
    }
}

/// Why an exact evaluation or a solve stopped before its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Halt {
    /// It needed more memoised positions than allowed.
    #[error(transparent)]
    TooLarge(#[from] TooLarge),
    /// The cancel flag was raised (Ctrl-C and the like).
    #[error(transparent)]
    Cancelled(#[from] Cancelled),
}

/// How often (in memoised positions) an evaluation looks at its cancel flag: often enough to
/// stop within milliseconds, rarely enough to cost nothing.
const CANCEL_EVERY: usize = 1 << 14;

/// The limits an evaluation runs under: a number of memoised positions, and flags that
/// cancel it when one is raised (Ctrl-C; a sibling job that failed).
#[derive(Clone, Copy, Debug)]
pub struct Budget<'a> {
    /// The most memoised positions.
    pub max_states: usize,
    /// Raising any of these stops the evaluation.
    pub cancel: &'a [&'a AtomicBool],
}

impl Budget<'_> {
    /// No limit at all.
    pub const UNLIMITED: Budget<'static> = Budget {
        max_states: usize::MAX,
        cancel: &[],
    };

    /// Stops the evaluation if a cancel flag is raised.
    #[inline]
    pub fn check_cancel(&self) -> Result<(), Halt> {
        if self.cancel.iter().any(|flag| flag.load(Ordering::Relaxed)) {
            return Err(Cancelled.into());
        }
        Ok(())
    }

    /// Whether an evaluation holding `states` positions may memoise one more.
    #[inline]
    pub fn admit(&self, states: usize) -> Result<(), Halt> {
        if states >= self.max_states.min(u32::MAX as usize) {
            return Err(TooLarge {
                limit: self.max_states,
            }
            .into());
        }
        if states.is_multiple_of(CANCEL_EVERY)
            && self.cancel.iter().any(|flag| flag.load(Ordering::Relaxed))
        {
            return Err(Cancelled.into());
        }
        Ok(())
    }
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
        for (second, p) in second_side_type_odds() {
            let rolled = next.with_second_side_type(second);
            M::add_scaled(&mut e, &self.walk(&rolled, false)?, p);
        }
        Ok(e)
    }
}

/// The second side type's distribution given the first, from [`Chance::SideTypes`] (the dice
/// are independent, so any first type will do): what a position whose second side type is
/// still pending averages over. Worked out once: the engines read it at every pending
/// position (the regret decomposition of the eight bundled strategies at 8, 10, 12: 0.53 M
/// pending decisions).
pub fn second_side_type_odds() -> impl Iterator<Item = (Character, f64)> {
    static ODDS: LazyLock<Vec<(Character, f64)>> = LazyLock::new(|| {
        let first = Character::Hacker;
        let given_first = move |types: [Character; 2]| types[0] == first;
        let total: f64 = Chance::SideTypes
            .outcomes()
            .filter(|&(outcome, _)| given_first(Chance::side_types(outcome)))
            .map(|(_, p)| p)
            .sum();
        Chance::SideTypes
            .outcomes()
            .filter_map(move |(outcome, p)| {
                let types = Chance::side_types(outcome);
                given_first(types).then_some((types[1], p / total))
            })
            .collect()
    });
    ODDS.iter().copied()
}

/// `value`, plus `local` if there is one.
#[inline]
fn plus<M: Measure>(mut value: M::Value, local: &Option<M::Value>) -> M::Value {
    if let Some(local) = local {
        M::add_scaled(&mut value, local, 1.0);
    }
    value
}

/// Whether `strategy`'s answers at the first side challenge that follows `state` (a roll of
/// side types) ignore the second side type, so it can be rolled when the second side
/// challenge begins.
pub(super) fn second_side_type_unread<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    state: &State,
) -> bool {
    let mut first = *state;
    first.apply_outcome(rules, 0);
    // The rules do not read it yet: a strategy that reads only what they read ignores it too,
    // unless it says otherwise (optimal play's values read it).
    matches!(
        strategy.sight(&first, rules),
        Sight::Partial {
            second_side_type: false,
            ..
        } | Sight::RulesOnly {
            second_side_type: false
        }
    )
}

/// Whether `state` is at the first side challenge (deciding or rolling).
pub(super) fn on_first_side(state: &State) -> bool {
    matches!(
        state.step(),
        Step::Side { index: 0, .. } | Step::SideCheck { index: 0, .. }
    )
}

/// The result of [`exact`]: one expectation per starting stealth, and the work it took.
#[derive(Clone, Debug)]
pub struct ExactRun {
    /// Per starting stealth, in the order asked.
    pub expectations: Vec<Expectation>,
    /// Memoised states.
    pub states: usize,
}

/// The exact expectation of `strategy` from the start of a game at each of `stealths`.
///
/// One memo serves every stealth: a game from stealth 12 passes through the positions of one
/// from stealth 10, so the highest stealth is evaluated first and the others cost little. The
/// work is single-threaded on purpose: splitting the complication rolls over threads with a
/// memo each recomputes the shared phases 2 and 3 once per thread, which measured slower on
/// two cores than one memo on one core; a shared concurrent memo would need locking on every
/// lookup. The sums run in a fixed order, so the result is deterministic.
pub fn exact<S: Strategy + ?Sized>(rules: &Rules, strategy: &S, stealths: &[u8]) -> ExactRun {
    exact_limited(rules, strategy, stealths, usize::MAX).expect("no limit")
}

/// [`exact`], giving up past `limit` memoised states.
pub fn exact_limited<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
    limit: usize,
) -> Result<ExactRun, TooLarge> {
    let budget = Budget {
        max_states: limit,
        cancel: &[],
    };
    exact_within(rules, strategy, stealths, budget).map_err(|halt| match halt {
        Halt::TooLarge(e) => e,
        Halt::Cancelled(_) => unreachable!("no cancel flag"),
    })
}

/// [`exact`], stopping when it runs past `budget`.
pub fn exact_within<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
    budget: Budget<'_>,
) -> Result<ExactRun, Halt> {
    // In stealth layers when the strategy's answers allow it; else the walk.
    if let Some(run) = super::exact_layers::exact(rules, strategy, stealths, &budget) {
        return run;
    }
    let mut engine = Exact::with_budget(rules, strategy, budget);
    let mut order: Vec<usize> = (0..stealths.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(stealths[i]));
    let mut expectations = vec![Expectation::default(); stealths.len()];
    for i in order {
        expectations[i] = engine.try_expectation(&State::new(stealths[i]))?;
    }
    Ok(ExactRun {
        expectations,
        states: engine.states(),
    })
}
