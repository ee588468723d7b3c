//! Where a strategy loses its points: its regret (optimal − exact) split exactly over the
//! decisions it makes, by the performance-difference identity
//!
//! ```text
//! V*(x) − V_S(x) = Σ over the positions y the strategy reaches from x:
//!                  P_S(reach y) · (V*(y) − Q*(y, S's choice at y))
//! ```
//!
//! where `V*` is the optimal win probability and `Q*(y, a)` that of taking `a` at `y` and
//! playing optimally afterwards. A decision's term is its probability of being reached times
//! the shortfall of the strategy's choice there, read from the solver's values of every
//! option; the terms are summed by the decision's kind. The same terms count how often each
//! kind of decision arises with more than one option, and how often its best and worst
//! options differ by more than one point ([`MATTERS`]): a designer's measure of how much real
//! choice the game offers. The costliest terms ([`Costly`]) are listed.
//!
//! Two engines follow the strategy's games:
//! - **in layers** ([`Engine::Layers`], wherever the strategy's answers allow the exact engine's
//!   stealth layers): the strategy's layered program, compiled with every decision noted, is run
//!   backwards ([`super::exact_layers::regret`]), giving each decision's probability of being
//!   reached at every stealth ([`RecordedPass`]: the pass runs as part of the strategy's own work,
//!   before optimal play's values are read). A decision's options are valued once per canonical
//!   class and stealth, not once per position met ([`ClassedDecisions`]), at the stealths of every
//!   start that meets it in one walk ([`Solver::options_at`]); the classes met and their values
//!   ([`CanonicalClasses`]) are shared by the strategies decomposed with one solve, each
//!   classifying and valuing only what none before it did. Its exact win probability is summed by
//!   the same pass. Several strategies share one solve ([`Solved`]) and one set of classes
//!   ([`decisions_of_each`]); positions alike up to names are kept as one ([`regret_sight`]); the
//!   pass hands on its layers as dense [`Block`]s, a decision's layers side by side. A batch of a
//!   block's decisions is worked out together: their classes and options side by side over the pool
//!   ([`ClassedDecisions::prepare`]), each class valued at every stealth its decisions are met at
//!   in one walk, then each start's terms summed on a thread of its own, row by row — the same bits
//!   on any pool, and on many cores the largest strategy's decomposition is no longer one thread's
//!   work.
//! - **the walk** ([`Engine::Walk`]): the exact engine's walk ([`super::exact::Exact`]) with
//!   the [`Regret`] measure adds the terms up at each decision the strategy makes; the
//!   positions that cost most need each term on its own, `P_S(reach y)` included, so the
//!   walk is then followed forwards ([`Exact::reach`]). Strategies that may read stealth
//!   anywhere (`random`, optimal play) and low stealths take this way.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use serde::{Deserialize, Serialize};

use crate::par::{self, *};
use rustc_hash::FxHashMap;

use crate::game::canon::{self, Labels};
use crate::game::{Action, Chance, Character, Decision, Node, State};
use crate::rules::Rules;
use crate::strategy::{Choice, Sight, Strategy};

use super::budget::{Budget, Halt};
use super::exact::exact_within;
use super::exact_layers::Decided;
use super::exact_layers::regret::{self, Block};
use super::key::{self, regret_sight};
use super::reach::{LANES, Met};
use super::solve::{Solver, solve_within};
use super::walk::{Exact, Measure};

/// A choice *matters* when its best and worst options differ by more than this (one point of
/// win probability).
pub const MATTERS: f64 = 0.01;

/// The kinds of decision: one per decision point of the state machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecisionKind {
    /// R7: the main character.
    MainCharacter,
    /// R8: name a recruitment target, or stop.
    RecruitTarget,
    /// R8: who rolls the next recruitment check, or stop.
    RecruitRoller,
    /// R10: the type of a run challenge that rolled 6.
    RunType,
    /// R10: who attempts a run challenge.
    RunRoller,
    /// R11: the finale character.
    FinaleCharacter,
    /// R12: attempt a side challenge (and who), pass, or give up.
    SideChallenge,
    /// R14 variant: the substitute finale character.
    Substitute,
    /// R15: first aid: skip, or patient and giver.
    FirstAid,
}

/// The number of decision kinds.
pub const KINDS: usize = 9;

impl DecisionKind {
    /// Every kind, in the order of a game.
    pub const ALL: [DecisionKind; KINDS] = [
        DecisionKind::MainCharacter,
        DecisionKind::RecruitTarget,
        DecisionKind::RecruitRoller,
        DecisionKind::RunType,
        DecisionKind::RunRoller,
        DecisionKind::FinaleCharacter,
        DecisionKind::SideChallenge,
        DecisionKind::Substitute,
        DecisionKind::FirstAid,
    ];

    /// The kind of a decision point.
    pub fn of(decision: Decision) -> DecisionKind {
        match decision {
            Decision::MainCharacter => DecisionKind::MainCharacter,
            Decision::RecruitTarget => DecisionKind::RecruitTarget,
            Decision::RecruitRoller { .. } => DecisionKind::RecruitRoller,
            Decision::RunType => DecisionKind::RunType,
            Decision::RunRoller { .. } => DecisionKind::RunRoller,
            Decision::FinaleCharacter => DecisionKind::FinaleCharacter,
            Decision::SideChallenge { .. } => DecisionKind::SideChallenge,
            Decision::Substitute => DecisionKind::Substitute,
            Decision::FirstAid => DecisionKind::FirstAid,
        }
    }

    /// A short kebab-case name, used in CSV.
    pub fn key(self) -> &'static str {
        match self {
            DecisionKind::MainCharacter => "main-character",
            DecisionKind::RecruitTarget => "recruit-target-or-stop",
            DecisionKind::RecruitRoller => "recruit-roller-or-stop",
            DecisionKind::RunType => "run-type-on-6",
            DecisionKind::RunRoller => "run-roller",
            DecisionKind::FinaleCharacter => "finale-character",
            DecisionKind::SideChallenge => "side-challenge",
            DecisionKind::Substitute => "substitute",
            DecisionKind::FirstAid => "first-aid",
        }
    }
}

/// Per decision kind (in [`DecisionKind::ALL`] order): the expected regret, how many such
/// decisions with more than one option a game meets, and how many of them matter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ByKind {
    /// Win probability lost at decisions of this kind (0–1), against optimal play.
    pub regret: [f64; KINDS],
    /// Decisions of this kind with more than one legal option, per game.
    pub arises: [f64; KINDS],
    /// Of those, per game, the ones whose best and worst options differ by more than
    /// [`MATTERS`].
    pub matters: [f64; KINDS],
}

impl ByKind {
    /// The regret summed over the kinds.
    pub fn total_regret(&self) -> f64 {
        self.regret.iter().sum()
    }

    /// Adds `other`'s figures, kind by kind.
    fn add(&mut self, other: &ByKind) {
        for (sums, others) in [
            (&mut self.regret, &other.regret),
            (&mut self.arises, &other.arises),
            (&mut self.matters, &other.matters),
        ] {
            for (sum, other) in sums.iter_mut().zip(others) {
                *sum += other;
            }
        }
    }
}

/// How many of the costliest positions [`decisions`] lists per starting stealth.
pub const TOP: usize = 10;

/// The [`Measure`] of the decomposition: the optimal value of every option from `solver`.
pub struct Regret<'s> {
    solver: &'s Solver,
    /// Whether the walk meets positions by canonical class already (a strategy that reads
    /// only what the rules read, [`Sight::RulesOnly`]): then every class is met once, and
    /// the solver's options are worked out rather than kept by class.
    by_class: bool,
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
    /// them again ([`canon::unread_complications`]); see [`regret_sight`].
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
fn valued_at(
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

/// Whether a decision whose best and worst options are worth `best` and `worst` matters.
fn matters(best: f64, worst: f64) -> bool {
    best - worst > MATTERS
}

/// A decision's options against the strategy's choice, valued by optimal play afterwards.
#[derive(Clone, Copy, Debug)]
struct Shortfall {
    kind: DecisionKind,
    /// The best option (the first of equal ones) and its value, `V*`.
    best: (Action, f64),
    /// The worst option's value.
    worst: f64,
    /// `Q*` of the strategy's choice (the options' average for a uniform choice).
    chosen: f64,
}

impl Shortfall {
    /// The shortfall of `choice` among `options` (every legal option's optimal value at a
    /// position with every die rolled).
    fn of(options: &[(Action, f64)], decision: Decision, choice: Choice) -> Shortfall {
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

/// A term smaller than this is rounding between equal options, not a position worth listing.
const NEGLIGIBLE: f64 = 1e-12;

/// The costliest positions met so far ([`TOP`] at most), and, when every term is computed,
/// their sum by kind.
struct Costliest {
    /// A min-heap on the term: the cheapest of the kept ones is dropped first.
    top: BinaryHeap<Reverse<ByRegret>>,
    /// `None`: a position that cannot beat the cheapest kept one is passed over unvalued.
    by_kind: Option<[f64; KINDS]>,
}

/// A [`Costly`] ordered by its term, equal terms by their position: which of them are kept
/// does not depend on the order they are met in.
struct ByRegret(Costly);

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
    /// Nothing found yet; with `every_term`, every term is computed and summed.
    fn new(every_term: bool) -> Costliest {
        Costliest {
            top: BinaryHeap::with_capacity(TOP + 1),
            by_kind: every_term.then_some([0.0; KINDS]),
        }
    }

    /// The cheapest position kept, once [`TOP`] are: the one a new position must beat.
    fn cheapest(&self) -> Option<&ByRegret> {
        match self.top.peek() {
            Some(Reverse(cheapest)) if self.top.len() == TOP => Some(cheapest),
            _ => None,
        }
    }

    /// The term a position must reach to be kept (and exceed, or equal a kept one's and come
    /// first: [`ByRegret`]).
    fn bar(&self) -> f64 {
        self.cheapest()
            .map_or(NEGLIGIBLE, |cheapest| cheapest.0.regret())
    }

    /// Adds the term of the decision `met` (its options valued by `solver`).
    fn add(&mut self, solver: &Solver, rules: &Rules, met: Met<'_>) {
        // A term is at most the reach (a shortfall is at most 1): most positions are reached
        // too rarely to be listed, and need not be valued (each option is a lookup).
        if self.by_kind.is_none() && met.reach < self.bar() {
            return;
        }
        if !met.state.has_choice(rules) {
            return;
        }
        for (rolled, p, _) in valued_at(met.state, met.pending) {
            self.add_rolled(solver, &rolled, &met, met.reach * p);
        }
    }

    fn add_rolled(&mut self, solver: &Solver, state: &State, met: &Met<'_>, reach: f64) {
        // Nor more than the reach times the best option's value, one lookup.
        if self.by_kind.is_none() && reach * solver.value(state) < self.bar() {
            return;
        }
        self.add_valued(solver, state, met.decision, met.choice, reach);
    }

    /// Adds the term of `state`, a decision point `decision` answered with `choice` and
    /// reached with probability `reach`, its options valued by `solver`.
    fn add_valued(
        &mut self,
        solver: &Solver,
        state: &State,
        decision: Decision,
        choice: Choice,
        reach: f64,
    ) {
        let shortfall = Shortfall::of(&solver.options(state), decision, choice);
        let costly = Costly {
            state: *state,
            decision,
            choice,
            best: shortfall.best.0,
            reach,
            best_value: shortfall.best.1,
            chosen_value: shortfall.chosen,
        };
        if let Some(by_kind) = &mut self.by_kind {
            by_kind[shortfall.kind as usize] += costly.regret();
        }
        let costly = ByRegret(costly);
        let kept = match self.cheapest() {
            Some(cheapest) => costly > *cheapest,
            None => costly.0.regret() > NEGLIGIBLE,
        };
        if kept {
            self.top.push(Reverse(costly));
            if self.top.len() > TOP {
                self.top.pop();
            }
        }
    }

    /// The kept positions, costliest first.
    fn into_sorted(self) -> Vec<Costly> {
        // Ascending on `Reverse`: the largest term first.
        self.top
            .into_sorted_vec()
            .into_iter()
            .map(|Reverse(ByRegret(c))| c)
            .collect()
    }
}

/// A strategy's decisions at one starting stealth.
#[derive(Clone, Debug, PartialEq)]
pub struct Decisions {
    /// Starting stealth.
    pub stealth: u8,
    /// The optimal win probability.
    pub optimal: f64,
    /// The strategy's exact win probability.
    pub exact: f64,
    /// Its regret by decision kind (summing to `optimal − exact`), and how often each kind
    /// arises and matters.
    pub by_kind: ByKind,
    /// The same regret by kind, summed position by position from the reach probabilities
    /// (with [`Terms::Every`]): equal to `by_kind.regret` up to rounding, so the positions in
    /// `top` are the decomposition's own terms. In layers ([`Engine::Layers`]) `by_kind` is
    /// that sum already.
    pub by_position: Option<[f64; KINDS]>,
    /// The positions that cost most ([`TOP`] at most), costliest first.
    pub top: Vec<Costly>,
}

/// Which of the decomposition's terms [`decisions_with`] computes one by one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terms {
    /// Those that may be among the [`TOP`] costliest: the same list, a fraction of the work.
    Costliest,
    /// Every one, summed by kind into [`Decisions::by_position`] (a check of the list).
    Every,
}

/// The regret decomposition of `strategy` at each of `stealths`, within `budget` (each of
/// the three walks — solve, exact, decomposition — counts its own positions against it),
/// with the costliest positions.
pub fn decisions<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
    budget: Budget<'_>,
) -> Result<Vec<Decisions>, Halt> {
    decisions_with(rules, strategy, stealths, budget, Terms::Costliest)
}

/// [`decisions`], computing the terms `terms` one by one.
pub fn decisions_with<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
    budget: Budget<'_>,
    terms: Terms,
) -> Result<Vec<Decisions>, Halt> {
    decisions_by(rules, strategy, stealths, budget, terms, Engine::Layers)
}

/// How [`decisions_by`] follows the strategy's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The strategy's layered program and its reverse pass
    /// ([`super::exact_layers::regret`]) where they serve the strategy and the stealths
    /// asked, else the walk.
    Layers,
    /// The exact walk with the [`Regret`] measure, followed forwards for the costliest
    /// positions, whatever the strategy: the two engines are checked against each other.
    Walk,
}

/// [`decisions_with`] by `engine`.
pub fn decisions_by<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
    budget: Budget<'_>,
    terms: Terms,
    engine: Engine,
) -> Result<Vec<Decisions>, Halt> {
    // The optimal values do not depend on the strategy: side by side with its part.
    let (solved, prepared) = par::join(
        || Solved::new(rules, stealths, &budget),
        || prepare(rules, strategy, stealths, budget, engine),
    );
    solved?.finish(strategy, budget, terms, prepared?)
}

/// Optimal play's values at some stealths, solved once and shared by the decompositions of
/// any number of strategies ([`Solved::decisions`]): a solve is most of the work of
/// decomposing a small strategy.
pub struct Solved {
    solver: Solver,
    stealths: Vec<u8>,
    values: Vec<f64>,
    /// The classes met and their options valued: each strategy decomposed classifies and
    /// values only what no strategy before it did. Held by one decomposition at a time (a
    /// decomposition that finds it held works on classes of its own).
    classes: Mutex<CanonicalClasses>,
}

impl Solved {
    /// Solves `rules` at each of `stealths`, within `budget`.
    pub fn new(rules: &Rules, stealths: &[u8], budget: &Budget<'_>) -> Result<Solved, Halt> {
        let solver = Solver::new(*rules);
        let values = solve_within(&solver, stealths, budget)?
            .iter()
            .map(|s| s.value)
            .collect();
        Ok(Solved {
            solver,
            stealths: stealths.to_vec(),
            values,
            classes: Mutex::new(CanonicalClasses::new(stealths)),
        })
    }

    /// [`decisions`] of `strategy` at the stealths solved.
    pub fn decisions<S: Strategy + ?Sized>(
        &self,
        strategy: &S,
        budget: Budget<'_>,
    ) -> Result<Vec<Decisions>, Halt> {
        self.decisions_by(strategy, budget, Terms::Costliest, Engine::Layers)
    }

    /// [`decisions_by`] of `strategy` at the stealths solved.
    pub fn decisions_by<S: Strategy + ?Sized>(
        &self,
        strategy: &S,
        budget: Budget<'_>,
        terms: Terms,
        engine: Engine,
    ) -> Result<Vec<Decisions>, Halt> {
        let rules = self.solver.rules();
        let prepared = prepare(rules, strategy, &self.stealths, budget, engine)?;
        self.finish(strategy, budget, terms, prepared)
    }

    /// The decomposition from optimal play's values and the strategy's part.
    fn finish<S: Strategy + ?Sized>(
        &self,
        strategy: &S,
        budget: Budget<'_>,
        terms: Terms,
        prepared: Prepared,
    ) -> Result<Vec<Decisions>, Halt> {
        let (solver, stealths) = (&self.solver, &self.stealths[..]);
        let (found, wins) = match prepared {
            Prepared::Layers(reach) => {
                // Never waiting for it: a thread of the pool waiting may be the one holding it,
                // further up its stack.
                let (mut held, mut own);
                let classes = match self.classes.try_lock() {
                    Ok(guard) => {
                        held = guard;
                        &mut *held
                    }
                    Err(_) => {
                        own = CanonicalClasses::new(stealths);
                        &mut own
                    }
                };
                in_layers(solver, classes, reach, stealths, &budget)?
            }
            Prepared::Walk { wins } => (walked(solver, strategy, stealths, budget, terms)?, wins),
        };
        Ok(stealths
            .iter()
            .zip(found)
            .enumerate()
            .map(|(i, (&stealth, (by_kind, costliest)))| Decisions {
                stealth,
                optimal: self.values[i],
                exact: wins[i],
                by_kind,
                by_position: match (terms, costliest.by_kind) {
                    (Terms::Costliest, _) => None,
                    (Terms::Every, Some(by_position)) => Some(by_position),
                    // Summed position by position already.
                    (Terms::Every, None) => Some(by_kind.regret),
                },
                top: costliest.into_sorted(),
            })
            .collect())
    }
}

/// [`decisions`] of each of `strategies` at `stealths`, in their order, with one solve
/// shared by all: the solve and the strategies' own parts (their noted programs, run
/// backwards) run side by side, and the strategies whose part is done are decomposed one at
/// a time once the solve is, each reading the classes valued by those before it
/// ([`CanonicalClasses`]) and sharing its own work out over the pool. The strategies are taken in
/// their order (the costliest first balance best), each part within its share of `budget`'s
/// positions; the results are each strategy's alone. Compared with the solve first and then
/// the strategies, no thread waits while the solve's last parts run, and each class is valued
/// once for all the strategies.
pub fn decisions_of_each(
    rules: &Rules,
    strategies: &[&dyn Strategy],
    stealths: &[u8],
    budget: Budget<'_>,
) -> Result<Vec<Vec<Decisions>>, Halt> {
    // A solve that stops stops the strategies' parts too: nothing can be decomposed.
    let solve_stopped = AtomicBool::new(false);
    let cancel: Vec<&AtomicBool> = (budget.cancel.iter().copied())
        .chain([&solve_stopped])
        .collect();
    // Each part's share of the positions, so that those side by side stay within `budget`.
    let side_by_side = par::current_num_threads().clamp(1, strategies.len().max(1));
    let share = Budget {
        max_states: budget.max_states / side_by_side,
        cancel: &cancel,
    };
    let solved: OnceLock<Result<Solved, Halt>> = OnceLock::new();
    let found: Mutex<Vec<Option<DecompositionResult>>> =
        Mutex::new(strategies.iter().map(|_| None).collect());
    let record = |i: usize, result: DecompositionResult| lock(&found)[i] = Some(result);
    let finish = |i: usize, prepared: Prepared| {
        record(
            i,
            match solved.get().expect("solved before it is read") {
                Ok(solved) => solved.finish(strategies[i], share, Terms::Costliest, prepared),
                Err(halt) => Err(*halt),
            },
        );
    };
    // Parts done, in the order done, to be decomposed one at a time once the solve is, so that
    // each reads and extends the classes valued by those before it (`Solved::classes`);
    // whether one is being decomposed.
    let ready: Mutex<(VecDeque<(usize, Prepared)>, bool)> = Mutex::default();
    // Hands `part` on (none: the solve is done), and decomposes it and those handed on
    // meanwhile, once the solve is done, unless another thread is at it: no thread waits for
    // another's decomposition. The solve is set before its thread hands nothing on, and read
    // under the same lock as the queue, so no part is left behind.
    let decompose = |part: Option<(usize, Prepared)>| {
        {
            let mut ready = lock(&ready);
            ready.0.extend(part);
            if solved.get().is_none() || std::mem::replace(&mut ready.1, true) {
                return;
            }
        }
        loop {
            let next = {
                let mut ready = lock(&ready);
                let Some(next) = ready.0.pop_front() else {
                    ready.1 = false;
                    return;
                };
                next
            };
            finish(next.0, next.1);
        }
    };
    let (solved, record, decompose) = (&solved, &record, &decompose);
    let solve_stopped = &solve_stopped;
    par::scope_fifo(move |scope| {
        scope.spawn_fifo(move |_| {
            let result = Solved::new(rules, stealths, &budget);
            if result.is_err() {
                solve_stopped.store(true, Ordering::Relaxed);
            }
            let _ = solved.set(result);
            decompose(None);
        });
        for (i, &strategy) in strategies.iter().enumerate() {
            scope.spawn_fifo(move |_| {
                match prepare(rules, strategy, stealths, share, Engine::Layers) {
                    Err(halt) => record(i, Err(halt)),
                    Ok(prepared) => decompose(Some((i, prepared))),
                }
            });
        }
    });
    if let Some(Err(halt)) = solved.get() {
        return Err(*halt);
    }
    let found = found.into_inner().unwrap_or_else(PoisonError::into_inner);
    found
        .into_iter()
        .map(|result| result.expect("every strategy decomposed"))
        .collect()
}

/// A strategy's decomposition at each stealth, or why it stopped.
type DecompositionResult = Result<Vec<Decisions>, Halt>;

/// `mutex`'s guard, poisoned or not (a panic elsewhere is reported by the scope).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a decomposition needs of the strategy alone, before optimal play's values.
enum Prepared {
    /// Its decisions as its layered program's reverse pass reaches them: the pass run
    /// already, or the program to run it.
    Layers(ReversePass),
    /// The walk follows it; its exact win probability at each stealth.
    Walk { wins: Vec<f64> },
}

/// A strategy's layered program run backwards, or to be: recorded where the pass has at most
/// [`RECORDED_LAYERS`] layers of the top program (the starts asked for are at most that many
/// points above it), else streamed by the decomposition itself, that many layers at a time
/// — the record grows with every layer (8 bytes per decision per layer), the program does
/// not.
enum ReversePass {
    Recorded(RecordedPass),
    /// The program, and the layers of the top program it hands on at a time.
    Streamed(regret::RegretProgram, usize),
}

/// The most layers of the top program a recorded pass holds (a bundled strategy at 8, 10, 12
/// needs at most 11); a deeper pass is streamed that many layers at a time.
const RECORDED_LAYERS: usize = 16;

/// A strategy's decisions and how often its games reach each: its layered program, compiled
/// with every decision noted, run backwards ([`regret::RegretProgram::reach`]) before optimal
/// play's values are read, so that the pass — one thread's work — runs beside the solve and
/// the other strategies' parts, and the program is freed before the decomposition begins.
struct RecordedPass {
    /// The decisions noted, by the index the blocks name.
    decided: Vec<Decided>,
    /// The pass's blocks, in its order: the top program's layers in one.
    blocks: Vec<Block>,
    /// The strategy's exact win probability from each start.
    wins: Vec<f64>,
}

impl RecordedPass {
    /// `compiled`'s reverse pass from each of `stealths`, recorded; the program freed.
    fn of(
        compiled: regret::RegretProgram,
        stealths: &[u8],
        budget: &Budget<'_>,
    ) -> Result<RecordedPass, Halt> {
        let mut blocks = Vec::new();
        let wins = compiled.reach(stealths, budget, RECORDED_LAYERS, &mut |block| {
            blocks.push(block);
        })?;
        Ok(RecordedPass {
            decided: compiled.into_decided(),
            blocks,
            wins,
        })
    }
}

/// The strategy's part of a decomposition by `engine`.
fn prepare<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
    budget: Budget<'_>,
    engine: Engine,
) -> Result<Prepared, Halt> {
    if engine == Engine::Layers
        && let Some(compiled) = regret::program(rules, strategy, stealths, &budget)
    {
        let compiled = compiled?;
        if compiled.top_layers(stealths) > RECORDED_LAYERS {
            return Ok(Prepared::Layers(ReversePass::Streamed(
                compiled,
                RECORDED_LAYERS,
            )));
        }
        return Ok(Prepared::Layers(ReversePass::Recorded(RecordedPass::of(
            compiled, stealths, &budget,
        )?)));
    }
    let exact = exact_within(rules, strategy, stealths, budget)?;
    Ok(Prepared::Walk {
        wins: exact.expectations.iter().map(|e| e.win).collect(),
    })
}

/// By stealth asked: the regret by kind and the costliest positions.
type Found = Vec<(ByKind, Costliest)>;

/// The decomposition at each of `stealths` from the strategy's decisions as its layered
/// program's reverse pass reaches them: each decision's term is its probability of being
/// reached times its shortfall, valued by class. With the strategy's exact win probability
/// at each stealth, from the same pass.
fn in_layers(
    solver: &Solver,
    classes: &mut CanonicalClasses,
    reach: ReversePass,
    stealths: &[u8],
    budget: &Budget<'_>,
) -> Result<(Found, Vec<f64>), Halt> {
    let mut found: Found = stealths
        .iter()
        .map(|_| (ByKind::default(), Costliest::new(false)))
        .collect();
    match reach {
        ReversePass::Recorded(reached) => {
            let decided = &reached.decided[..];
            let mut classed = ClassedDecisions::new(solver, classes, decided.len());
            for block in &reached.blocks {
                budget.check_cancel()?;
                add_block(&mut classed, &mut found, decided, block);
            }
            Ok((found, reached.wins))
        }
        ReversePass::Streamed(compiled, rows) => {
            let decided = compiled.decided();
            let mut classed = ClassedDecisions::new(solver, classes, decided.len());
            let wins = compiled.reach(stealths, budget, rows, &mut |block| {
                add_block(&mut classed, &mut found, decided, &block);
            })?;
            Ok((found, wins))
        }
    }
}

/// Adds the terms of a block of the reverse pass (its decisions, met at the stealths of
/// each row's starts with the row's probabilities of reaching them) to each start's sums,
/// a batch of decisions at a time: valued first ([`ClassedDecisions::prepare`]), then each start's
/// terms summed on a thread of its own. The terms are summed row by row, decision by
/// decision, and the rows' sums added to the start's in the pass's order: the same bits
/// whatever the thread count, and however the pass's layers are split into blocks.
fn add_block(
    classed: &mut ClassedDecisions<'_>,
    found: &mut Found,
    decided: &[Decided],
    block: &Block,
) {
    // By lane: the rows it reads, each with the stealth it meets them at.
    let rows: Vec<Vec<(usize, u8)>> = (0..found.len())
        .map(|lane| {
            (block.lanes.iter().enumerate())
                .filter_map(|(k, lanes)| {
                    let &(_, stealth) = lanes.iter().find(|&&(l, _)| l == lane)?;
                    Some((k, stealth))
                })
                .collect()
        })
        .collect();
    // By lane, by row it reads: the row's terms summed.
    let mut sums: Vec<Vec<ByKind>> = (rows.iter())
        .map(|rows| vec![ByKind::default(); rows.len()])
        .collect();
    for from in (0..block.width).step_by(BATCH) {
        let to = (from + BATCH).min(block.width);
        classed.prepare(decided, block, from..to);
        let classed = &*classed;
        (found.par_iter_mut().zip(&rows).zip(&mut sums))
            .filter(|((_, rows), _)| !rows.is_empty())
            .for_each(|(((_, costliest), rows), sums)| {
                add_terms(block, rows, decided, classed, sums, costliest);
            });
    }
    for ((by_kind, _), sums) in found.iter_mut().zip(&sums) {
        for sum in sums {
            by_kind.add(sum);
        }
    }
}

/// Adds to one start's sums of `rows` (the rows of `block` it reads, each with the stealth
/// it meets them at) the terms of the batch's decisions met there (each with its
/// probability of being reached), valued already ([`ClassedDecisions::prepare`]); keeps the
/// costliest.
fn add_terms(
    block: &Block,
    rows: &[(usize, u8)],
    decided: &[Decided],
    classed: &ClassedDecisions<'_>,
    sums: &mut [ByKind],
    costliest: &mut Costliest,
) {
    // The term a position must reach to be listed, changed only by listing one.
    let mut bar = costliest.bar();
    for &d in &classed.scratch.met {
        let i = (d - block.first) as usize;
        let decided = &decided[d as usize];
        let kind = DecisionKind::of(decided.decision) as usize;
        for &roll in classed.rolls.of(d) {
            for (sum, &(k, stealth)) in sums.iter_mut().zip(rows) {
                let reach = block.reach[k * block.width + i];
                if reach == 0.0 {
                    continue;
                }
                let r = reach * roll.p;
                let shortfall = classed.classes.shortfall(roll, stealth);
                sum.regret[kind] += r * shortfall.regret;
                sum.arises[kind] += r;
                sum.matters[kind] += r * f64::from(u8::from(shortfall.matters));
                if r * shortfall.regret >= bar {
                    let mut state = decided.state.with_stealth(stealth);
                    if let Some(second) = roll.second {
                        state = state.with_second_side_type(second);
                    }
                    let (decision, choice) = (decided.decision, decided.choice);
                    costliest.add_valued(classed.solver, &state, decision, choice, r);
                    bar = costliest.bar();
                }
            }
        }
    }
}

/// Decisions of a block prepared at a time ([`ClassedDecisions::prepare`]) before their terms are
/// summed: their classes' values are still in cache when summed, and what is worked out side
/// by side is held a batch at a time.
const BATCH: usize = 1 << 13;

/// One rolled position of a decision the reverse pass meets, named by its canonical class (a
/// decision whose second side type is pending is six of them, one per roll, weighted): what
/// a decision's term is summed from, its options' values read from the class.
#[derive(Clone, Copy, Debug)]
struct ClassedRoll {
    class: u32,
    /// The strategy's choice among the class representative's options, in its order, or
    /// [`UNIFORM`].
    option: u8,
    p: f64,
    /// The second side type rolled here, for a pending decision.
    second: Option<Character>,
}

/// The [`ClassedRoll::option`] of a uniform choice.
const UNIFORM: u8 = u8::MAX;

/// What a decision loses, given that it is reached.
#[derive(Clone, Copy, Debug)]
struct Lost {
    /// `V* − Q*` of the strategy's choice.
    regret: f64,
    /// Whether its best and worst options differ by more than [`MATTERS`].
    matters: bool,
}

/// A strategy's decisions as the decomposition values them: by decision, its rolled positions
/// ([`ClassedRoll`]), each in a class of the [`CanonicalClasses`] shared by every strategy
/// decomposed with one solve, so that a class's options are valued once however many
/// decisions fall in it.
struct ClassedDecisions<'s> {
    solver: &'s Solver,
    classes: &'s mut CanonicalClasses,
    rolls: ClassedRolls,
    scratch: Scratch,
}

/// The canonical classes of the decisions met and the optimal values of their options, each
/// worked out once, whichever strategy met them first: by class, its representative; by
/// class and stealth, its options' values. Numbered in the order met, which does not change a
/// value (the same bits whoever works it out).
struct CanonicalClasses {
    class_ids: FxHashMap<u64, u32>,
    /// By class: its canonical form.
    representatives: Vec<State>,
    /// Pending decisions' canonical forms (the second side type a placeholder) by key: the
    /// index of their rolled forms in `rolled_forms`.
    pending_ids: FxHashMap<u64, u32>,
    /// By pending form: the canonical form of each roll of its second side type.
    rolled_forms: Vec<RolledForms>,
    /// By pending form: the class of each of its rolled forms (in [`RolledForms::forms`]'
    /// order), looked up once when it is first rolled rather than at every decision that
    /// meets it (the eight bundled strategies at 8, 10, 12 meet 0.53 M pending decisions,
    /// each six rolls, of 57 k distinct pending forms).
    rolled_classes: Vec<[u32; Character::ALL.len()]>,
    /// Stealths valued: 0 up to the highest start.
    width: usize,
    /// By class, then stealth (`class × width + stealth`): where its options begin in `values`,
    /// plus one; 0 when not valued yet, [`PENDING`] while being valued
    /// ([`ClassedDecisions::value`]). A decision is met at the stealths of several starts at once,
    /// a few points apart: their entries share a cache line.
    valued: Vec<u32>,
    /// Per class and stealth valued: [`BEST`], [`WORST`], [`MEAN`] of its options, then each
    /// option's value in the representative's order.
    values: Vec<f64>,
}

impl CanonicalClasses {
    /// None met yet; stealths valued from 0 to the highest of `stealths`.
    fn new(stealths: &[u8]) -> Self {
        let highest = stealths.iter().copied().max().unwrap_or(0);
        CanonicalClasses {
            class_ids: FxHashMap::default(),
            representatives: Vec::new(),
            pending_ids: FxHashMap::default(),
            rolled_forms: Vec::new(),
            rolled_classes: Vec::new(),
            width: usize::from(highest) + 1,
            valued: Vec::new(),
            values: Vec::new(),
        }
    }

    /// The class of canonical form `form`, numbered next if new.
    fn class_of(&mut self, form: &State) -> u32 {
        let next = self.representatives.len() as u32;
        let class = *self.class_ids.entry(key::rules_key(form)).or_insert(next);
        if class == next {
            self.representatives.push(*form);
            self.valued.resize(self.valued.len() + self.width, 0);
        }
        class
    }

    /// What the roll's choice loses at `stealth` (valued already: [`ClassedDecisions::prepare`]).
    #[inline]
    fn shortfall(&self, roll: ClassedRoll, stealth: u8) -> Lost {
        let at = self.valued[roll.class as usize * self.width + usize::from(stealth)];
        debug_assert!(at != 0 && at != PENDING, "valued before it is read");
        let options = &self.values[at as usize - 1..];
        let chosen = match roll.option {
            UNIFORM => options[MEAN],
            option => options[OPTIONS + usize::from(option)],
        };
        Lost {
            regret: options[BEST] - chosen,
            matters: matters(options[BEST], options[WORST]),
        }
    }
}

/// Where a class's best option's value is among its [`CanonicalClasses::values`].
const BEST: usize = 0;
/// Its worst option's.
const WORST: usize = 1;
/// Its options' average (a uniform choice's value).
const MEAN: usize = 2;
/// Where its options' own values begin.
const OPTIONS: usize = 3;

impl<'s> ClassedDecisions<'s> {
    fn new(solver: &'s Solver, classes: &'s mut CanonicalClasses, decided: usize) -> Self {
        ClassedDecisions {
            solver,
            classes,
            rolls: ClassedRolls {
                of_decided: vec![None; decided],
                list: Vec::new(),
            },
            scratch: Scratch::default(),
        }
    }

    /// Works out, side by side over the pool, what the decisions of `block` in `batch`
    /// that its rows meet (left in [`Scratch::met`]) need and nobody worked out before: the
    /// canonical classes of those met for the first time, then the options of each class not
    /// yet valued at a stealth it is met at (in one walk for all those stealths,
    /// [`Solver::options_at`]).
    fn prepare(&mut self, decided: &[Decided], block: &Block, batch: Range<usize>) {
        let Scratch { met, at, .. } = &mut self.scratch;
        met.clear();
        at.clear();
        for i in batch {
            let mut stealths = 0u128;
            for (k, lanes) in block.lanes.iter().enumerate() {
                if block.reach[k * block.width + i] != 0.0 {
                    for &(_, stealth) in lanes {
                        stealths |= 1 << stealth;
                    }
                }
            }
            if stealths != 0 {
                met.push(block.first + i as u32);
                at.push(stealths);
            }
        }
        self.classify(decided);
        self.value();
    }

    /// The rolls of the decisions of `batch` met for the first time. Classes are numbered
    /// in the order of the batch, whatever thread worked out their canonical form.
    ///
    /// A decision whose second side type is pending is six rolled positions, but not six
    /// canonical forms: its own form (the placeholder type relabelled with the rest) is
    /// worked out once, and each roll is that form with the type rolled, relabelled alike —
    /// a relabelling of the rolled position, so of the same class. The rolled forms of a
    /// pending form are worked out the first time it is met (the eight bundled strategies at
    /// 8, 10, 12 meet 0.53 M pending decisions, of 57 k distinct pending forms).
    fn classify(&mut self, decided: &[Decided]) {
        let rules = self.solver.rules();
        let Scratch { met, new, .. } = &mut self.scratch;
        new.clear();
        for &d in met.iter() {
            // Marked as met (no rolls yet), so that a decision is classified once.
            let entry = &mut self.rolls.of_decided[d as usize];
            if entry.is_none() {
                *entry = Some((0, 0));
                new.push(d);
            }
        }
        let new = &self.scratch.new[..];
        let firsts: Vec<First> = (new.par_iter().with_min_len(CHUNK))
            .map(|&d| First::of(&decided[d as usize], rules))
            .collect();
        // Each pending form once, numbered in the order of the batch; those met for the
        // first time rolled side by side.
        let classes = &mut *self.classes;
        let from = classes.rolled_forms.len();
        let mut unrolled = Vec::new();
        let pending: Vec<u32> = (firsts.iter())
            .map(|first| match first {
                First::Own(_) => NONE,
                First::Pending { form, .. } => {
                    let next = (from + unrolled.len()) as u32;
                    let id = *classes
                        .pending_ids
                        .entry(key::rules_key(form))
                        .or_insert(next);
                    if id == next {
                        unrolled.push(*form);
                    }
                    id
                }
            })
            .collect();
        classes
            .rolled_forms
            .par_extend(unrolled.par_iter().map(|form| RolledForms::of(form, rules)));
        for k in from..classes.rolled_forms.len() {
            let forms = classes.rolled_forms[k].forms;
            let rolled_classes = forms.map(|(form, _)| classes.class_of(&form));
            classes.rolled_classes.push(rolled_classes);
        }
        // Each roll, with its class where it is a roll of a pending form.
        let (rolled_forms, rolled_classes) = (&classes.rolled_forms, &classes.rolled_classes);
        let rolled: Vec<Vec<(u32, Rolled, u32)>> = (new.par_chunks(CHUNK).enumerate())
            .map(|(k, chunk)| {
                let mut rolled = Vec::with_capacity(chunk.len());
                for (i, &d) in chunk.iter().enumerate() {
                    let at = k * CHUNK + i;
                    let choice = decided[d as usize].choice;
                    match &firsts[at] {
                        First::Own(own) => rolled.push((d, *own, NONE)),
                        First::Pending { labels, .. } => {
                            let id = pending[at] as usize;
                            let forms = rolled_forms[id].rolled(*labels, choice);
                            let classes = &rolled_classes[id];
                            rolled.extend(forms.map(|(f, r)| (d, r, classes[f])));
                        }
                    }
                }
                rolled
            })
            .collect();
        for (d, rolled, class) in rolled.into_iter().flatten() {
            let class = if class == NONE {
                classes.class_of(&rolled.form)
            } else {
                class
            };
            let start = self.rolls.list.len() as u32;
            let (first, n) = (self.rolls.of_decided[d as usize].as_mut()).expect("marked as met");
            if *n == 0 {
                *first = start;
            }
            *n += 1;
            self.rolls.list.push(ClassedRoll {
                class,
                option: rolled.option,
                p: rolled.p,
                second: rolled.second,
            });
        }
    }

    /// Values the options of every class of the decisions met ([`Scratch::met`]) at each stealth
    /// they are met at that no strategy decomposed with the same solve valued before
    /// ([`CanonicalClasses`]: the eight bundled strategies at stealth 8, 10, 12 ask for 3.68 M
    /// classes at a stealth, 1.28 M of them new), each class in one walk for all its stealths.
    fn value(&mut self) {
        // Each class with stealths not valued: the class, and where its stealths are in
        // `stealths`.
        let Scratch {
            met,
            at,
            missing,
            stealths,
            ..
        } = &mut self.scratch;
        missing.clear();
        stealths.clear();
        let classes = &mut *self.classes;
        for (&d, &at) in met.iter().zip(&*at) {
            for roll in self.rolls.of(d) {
                let row = roll.class as usize * classes.width;
                let from = stealths.len() as u32;
                let mut left = at;
                while left != 0 {
                    let stealth = left.trailing_zeros() as u8;
                    left &= left - 1;
                    let entry = &mut classes.valued[row + usize::from(stealth)];
                    if *entry == 0 {
                        *entry = PENDING;
                        stealths.push(stealth);
                    }
                }
                let to = stealths.len() as u32;
                if to > from {
                    missing.push((roll.class, from, to));
                }
            }
        }
        let (solver, representatives) = (self.solver, &classes.representatives);
        let stealths = &stealths[..];
        let worked: Vec<Worked> = missing
            .par_chunks(CLASSES_PER_TASK)
            .map(|chunk| {
                let mut worked = Worked::default();
                for &(class, from, to) in chunk {
                    // The class's options at each stealth missing, in one walk.
                    let at = &stealths[from as usize..to as usize];
                    solver.options_at(&representatives[class as usize], at, |j, options| {
                        worked.keep(class, at[j], options.iter().map(|o| o.1));
                    });
                }
                worked
            })
            .collect();
        for worked in worked {
            let mut values = &worked.values[..];
            for (class, stealth, n) in worked.blocks {
                let (block, rest) = values.split_at(n as usize);
                values = rest;
                let at = u32::try_from(classes.values.len() + 1)
                    .ok()
                    .filter(|&at| at < PENDING)
                    .expect("fewer than 4 G option values");
                classes.valued[class as usize * classes.width + usize::from(stealth)] = at;
                classes.values.extend_from_slice(block);
            }
        }
    }
}

// A stealth is a bit of `Scratch::at`.
const _: () = assert!(crate::game::MAX_STEALTH < 128);

/// Buffers [`ClassedDecisions::prepare`] reuses from batch to batch.
#[derive(Default)]
struct Scratch {
    /// The batch's decisions that the block's rows meet, in order.
    met: Vec<u32>,
    /// By decision met: the stealths it is met at, a bit each.
    at: Vec<u128>,
    /// The decisions of a batch met for the first time.
    new: Vec<u32>,
    /// The classes with stealths not valued: the class, and the range of `stealths` that
    /// are its own.
    missing: Vec<(u32, u32, u32)>,
    stealths: Vec<u8>,
}

/// The options of one task's chunk of classes ([`ClassedDecisions::value`]): blocks of
/// [`CanonicalClasses::values`], each with its class, stealth and length.
#[derive(Default)]
struct Worked {
    values: Vec<f64>,
    blocks: Vec<(u32, u8, u32)>,
}

impl Worked {
    /// Appends a class's option `values` at `stealth`: their best, worst and mean, then
    /// each option's.
    fn keep(&mut self, class: u32, stealth: u8, values: impl Iterator<Item = f64> + Clone) {
        let (mut best, mut worst, mut sum, mut n) = (f64::MIN, f64::MAX, 0.0, 0);
        for v in values.clone() {
            (best, worst, sum, n) = (best.max(v), worst.min(v), sum + v, n + 1);
        }
        self.values.extend([best, worst, sum / f64::from(n)]);
        self.values.extend(values);
        let n = OPTIONS + n as usize;
        self.blocks.push((class, stealth, n as u32));
    }
}

/// A class being valued ([`CanonicalClasses::valued`]), not yet done.
const PENDING: u32 = u32::MAX;

/// Decisions a task classifies ([`ClassedDecisions::classify`]).
const CHUNK: usize = 256;

/// Classes a task values ([`ClassedDecisions::value`]): a walk costs about eight canonical forms.
const CLASSES_PER_TASK: usize = CHUNK / 8;

/// The rolled positions of each decision met, by canonical class ([`ClassedDecisions::classify`]).
struct ClassedRolls {
    /// By decision, once met: where its rolls begin in `list`, and how many.
    of_decided: Vec<Option<(u32, u8)>>,
    list: Vec<ClassedRoll>,
}

impl ClassedRolls {
    /// The rolls of decision `d`, classified already.
    #[inline]
    fn of(&self, d: u32) -> &[ClassedRoll] {
        let (start, n) = self.of_decided[d as usize].expect("classified before it is read");
        &self.list[start as usize..start as usize + usize::from(n)]
    }
}

/// A rolled position of a decision, in its canonical class's labels.
#[derive(Clone, Copy)]
struct Rolled {
    form: State,
    option: u8,
    p: f64,
    second: Option<Character>,
}

impl Rolled {
    /// `state`, a decision with every die rolled, in its class's labels, with `choice`
    /// among its options there.
    fn of(
        state: &State,
        choice: Choice,
        p: f64,
        second: Option<Character>,
        rules: &Rules,
    ) -> Rolled {
        let (form, labels) = canon::canonical_labelled(state, rules);
        Rolled {
            form,
            option: option_of(&form.actions(rules), labels, choice),
            p,
            second,
        }
    }
}

/// The [`ClassedRoll::option`] of `choice` (in a position's own labels) among `actions`, the
/// options of the form `labels` carries the position to.
fn option_of(actions: &[Action], labels: Labels, choice: Choice) -> u8 {
    match choice {
        Choice::Act(action) => {
            let theirs = labels.action(action);
            actions
                .iter()
                .position(|&a| a == theirs)
                .expect("the strategy's action is legal") as u8
        }
        Choice::Uniform => UNIFORM,
    }
}

/// Where a decision met for the first time starts its rolls ([`ClassedDecisions::classify`]).
enum First {
    /// A position with every die rolled: its one roll.
    Own(Rolled),
    /// A decision whose second side type is pending: its canonical form, the placeholder
    /// type relabelled with the rest, and the relabelling.
    Pending { form: State, labels: Labels },
}

impl First {
    fn of(decided: &Decided, rules: &Rules) -> First {
        if decided.pending {
            let (form, labels) = canon::canonical_labelled(&decided.state, rules);
            First::Pending { form, labels }
        } else {
            First::Own(Rolled::of(&decided.state, decided.choice, 1.0, None, rules))
        }
    }
}

/// The rolls of a pending form's second side type, by the type rolled (in the form's
/// labels): each roll's canonical form and the relabelling to it, and their options one
/// after the other (the first `ends[0]`, the next up to `ends[1]`, …).
struct RolledForms {
    forms: [(State, Labels); Character::ALL.len()],
    options: Box<[Action]>,
    ends: [u8; Character::ALL.len()],
}

impl RolledForms {
    fn of(form: &State, rules: &Rules) -> RolledForms {
        let forms = Character::ALL
            .map(|second| canon::canonical_labelled(&form.with_second_side_type(second), rules));
        let mut options = Vec::new();
        let ends = forms.map(|(rolled, _)| {
            options.extend_from_slice(&rolled.actions(rules));
            options.len() as u8
        });
        RolledForms {
            forms,
            options: options.into(),
            ends,
        }
    }

    /// The rolls of a pending decision that `labels` carries to this form, choosing
    /// `choice`: each roll of its second side type, with its probability. A roll of the
    /// decision is a relabelling of the same roll of the form (the type rolled relabelled
    /// too), so the two share a class; the strategy's choice follows both relabellings.
    /// Each with the index of its form in [`RolledForms::forms`].
    fn rolled(&self, labels: Labels, choice: Choice) -> impl Iterator<Item = (usize, Rolled)> + '_ {
        // The choice in this form's labels, once for every roll.
        let choice = match choice {
            Choice::Act(action) => Choice::Act(labels.action(action)),
            Choice::Uniform => Choice::Uniform,
        };
        Chance::second_side_type_odds().map(move |(second, p)| {
            let i = labels.character(second).index();
            let (form, to_form) = self.forms[i];
            let from = if i == 0 { 0 } else { self.ends[i - 1] };
            let options = &self.options[usize::from(from)..usize::from(self.ends[i])];
            let rolled = Rolled {
                form,
                option: option_of(options, to_form, choice),
                p,
                second: Some(second),
            };
            (i, rolled)
        })
    }
}

/// No pending form: a decision with every die rolled ([`ClassedDecisions::classify`]), whose class
/// is looked up on its own.
const NONE: u32 = u32::MAX;

/// The decomposition at each of `stealths` by the exact walk with the [`Regret`] measure,
/// for a strategy the layers do not serve: its sums by kind, and the costliest positions
/// found by following the walk forwards.
fn walked<S: Strategy + ?Sized>(
    solver: &Solver,
    strategy: &S,
    stealths: &[u8],
    budget: Budget<'_>,
    terms: Terms,
) -> Result<Found, Halt> {
    let rules = solver.rules();
    let mut order: Vec<usize> = (0..stealths.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(stealths[i]));
    let regret = Regret {
        solver,
        by_class: matches!(
            strategy.sight(&State::new(0), rules),
            Sight::RulesOnly { .. }
        ),
    };
    let mut walk = Exact::with_measure(rules, strategy, regret, budget).recording_positions();
    let mut by_kind = vec![ByKind::default(); stealths.len()];
    for &i in &order {
        by_kind[i] = walk.value(&State::new(stealths[i]))?;
    }
    let mut costliest: Vec<Costliest> = stealths
        .iter()
        .map(|_| Costliest::new(terms == Terms::Every))
        .collect();
    // A start whose terms (none negative: the best option's value less the chosen one's) sum
    // to a rounding has no position to list, and is not followed forwards: optimal play's
    // decomposition is its two walks' cost halved.
    let followed: Vec<usize> = (0..stealths.len())
        .filter(|&i| terms == Terms::Every || by_kind[i].total_regret() > NEGLIGIBLE / 2.0)
        .collect();
    // The starts followed forwards together, a few to a pass.
    for starts in followed.chunks(LANES) {
        let roots: Vec<State> = starts.iter().map(|&i| State::new(stealths[i])).collect();
        walk.reach(&roots, &mut |lane, met| {
            costliest[starts[lane]].add(solver, rules, met);
            Ok(())
        })?;
    }
    Ok(by_kind.into_iter().zip(costliest).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{CLARIFIED, MAIN_TEXT};
    use crate::strategy::ReferenceStrategy;

    /// The reverse pass recorded in the strategy's part and the pass streamed by the
    /// decomposition itself (past [`RECORDED_LAYERS`]), a layer or a few at a time, give the
    /// same bits: figures, sums by kind, the costliest positions, and the win probabilities.
    #[test]
    fn a_recorded_pass_decomposes_as_the_streamed_one() {
        let rules = MAIN_TEXT;
        let stealths = [3, 7];
        let solved = Solved::new(&rules, &stealths, &Budget::UNLIMITED).expect("solved");
        let compile = || {
            regret::program(&rules, &ReferenceStrategy, &stealths, &Budget::UNLIMITED)
                .expect("the reference is layered")
                .expect("within no limit")
        };
        let compiled = compile();
        assert!(compiled.top_layers(&stealths) <= RECORDED_LAYERS);
        let recorded = ReversePass::Recorded(
            RecordedPass::of(compiled, &stealths, &Budget::UNLIMITED).expect("no limit"),
        );
        let decompose = |reach: ReversePass| {
            let found = solved.finish(
                &ReferenceStrategy,
                Budget::UNLIMITED,
                Terms::Costliest,
                Prepared::Layers(reach),
            );
            // `Debug` writes each float as the shortest text that reads back as its bits.
            format!("{:?}", found.expect("no limit"))
        };
        let recorded = decompose(recorded);
        for rows in [1, 2, 3] {
            assert_eq!(
                decompose(ReversePass::Streamed(compile(), rows)),
                recorded,
                "{rows}"
            );
        }
        assert!(recorded.contains("first-aid") || recorded.contains("FirstAid"));
    }

    /// A pending decision's rolls, from its one canonical form and its form's rolls, are
    /// those of each roll canonicalised on its own: the same class representative, the
    /// same option, probability and type rolled, in the same order.
    #[test]
    fn pending_decisions_roll_through_their_form() {
        for rules in [MAIN_TEXT, CLARIFIED] {
            let compiled = regret::program(&rules, &ReferenceStrategy, &[6], &Budget::UNLIMITED)
                .expect("the reference is layered")
                .expect("within no limit");
            let mut checked = 0;
            for decided in compiled.decided().iter().filter(|d| d.pending) {
                let direct: Vec<Rolled> = valued_at(&decided.state, true)
                    .map(|(state, p, second)| Rolled::of(&state, decided.choice, p, second, &rules))
                    .collect();
                let First::Pending { form, labels } = First::of(decided, &rules) else {
                    panic!("a pending decision")
                };
                let through_form: Vec<Rolled> = RolledForms::of(&form, &rules)
                    .rolled(labels, decided.choice)
                    .map(|(_, rolled)| rolled)
                    .collect();
                assert_eq!(direct.len(), through_form.len());
                for (a, b) in direct.iter().zip(&through_form) {
                    assert_eq!(a.form, b.form, "{:?}", decided.state);
                    assert_eq!(a.option, b.option, "{:?}", decided.state);
                    assert_eq!(a.p.to_bits(), b.p.to_bits());
                    assert_eq!(a.second, b.second);
                }
                checked += 1;
            }
            assert!(checked > 1000, "{checked} pending decisions");
        }
    }
}
