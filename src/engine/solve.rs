//! Optimal play: the highest win probability any strategy can reach, by expectimax over the
//! same state machine the other engines drive — a weighted sum at chance points, the best
//! option at decision points.
//!
//! **Information.** A strategy may only use what the rules let a player know. The state
//! machine reveals exactly that: complications once rolled, challenge and side types once
//! rolled, never a future die. So the best value over *all* strategies is plain expectimax on
//! [`State`] — no information set is larger than one state.
//!
//! **Memo key.** The counters `attempts`/`failures` exist for strategies only; the rules never
//! read them, so two states that differ only there have the same optimal value, and the memo
//! is keyed on [`key::solver_key`] (the state without counters, canonicalised). Checks that follow a decision
//! are not memoised (see [`super::exact::worth_memoising`]). Values are deterministic: every
//! state's value is a fixed function of its children, computed in a fixed order.
//!
//! **Ties** between options of equal value go to the first in [`State::actions`] order.

use rustc_hash::FxHashMap;

use crate::game::{Action, Character, Node, Outcome, State};
use crate::rules::Rules;

use super::exact::worth_memoising;
use super::key;

/// A memoised optimal-value table for one set of rules, filled on demand.
#[derive(Clone, Debug)]
pub struct Solver {
    rules: Rules,
    memo: FxHashMap<u64, f64>,
}

impl Solver {
    /// An empty table for `rules`.
    pub fn new(rules: Rules) -> Solver {
        Solver {
            rules,
            memo: FxHashMap::default(),
        }
    }

    /// The rules the table is for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The number of memoised states.
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    /// The optimal win probability from `state`, filling the table below it as needed.
    pub fn value(&mut self, state: &State) -> f64 {
        let node = state.node(&self.rules);
        if let Node::Over(outcome) = node {
            return win(outcome);
        }
        let memoise = worth_memoising(state);
        let key = key::solver_key(state);
        if memoise && let Some(v) = self.memo.get(&key) {
            return *v;
        }
        let rules = self.rules;
        let v = match node {
            Node::Over(_) => unreachable!(),
            Node::Chance(chance) => {
                let mut v = 0.0;
                for (outcome, p) in chance.outcomes() {
                    let mut next = *state;
                    next.apply_outcome(&rules, outcome);
                    v += p * self.value(&next);
                }
                v
            }
            Node::Decision(_) => {
                let mut best = f64::NEG_INFINITY;
                for &action in state.actions(&rules).iter() {
                    let mut next = *state;
                    next.apply_action(&rules, action);
                    best = best.max(self.value(&next));
                }
                best
            }
        };
        if memoise {
            self.memo.insert(key, v);
        }
        v
    }

    /// The optimal win probability from `state` read from the table alone; `None` when a state
    /// it needs has not been solved yet.
    pub fn peek(&self, state: &State) -> Option<f64> {
        let node = state.node(&self.rules);
        if let Node::Over(outcome) = node {
            return Some(win(outcome));
        }
        if worth_memoising(state) {
            return self.memo.get(&key::solver_key(state)).copied();
        }
        let rules = &self.rules;
        match node {
            Node::Over(_) => unreachable!(),
            Node::Chance(chance) => {
                let mut v = 0.0;
                for (outcome, p) in chance.outcomes() {
                    let mut next = *state;
                    next.apply_outcome(rules, outcome);
                    v += p * self.peek(&next)?;
                }
                Some(v)
            }
            Node::Decision(_) => {
                let mut best = f64::NEG_INFINITY;
                for &action in state.actions(rules).iter() {
                    let mut next = *state;
                    next.apply_action(rules, action);
                    best = best.max(self.peek(&next)?);
                }
                Some(best)
            }
        }
    }

    /// The value of each legal option at decision point `state`, in [`State::actions`] order,
    /// read from the table alone (`None` if part of it is unsolved).
    pub fn peek_options(&self, state: &State) -> Option<Vec<(Action, f64)>> {
        state
            .actions(&self.rules)
            .iter()
            .map(|&action| {
                let mut next = *state;
                next.apply_action(&self.rules, action);
                self.peek(&next).map(|v| (action, v))
            })
            .collect()
    }

    /// The value of each legal option at decision point `state`, solving what is missing.
    pub fn options(&mut self, state: &State) -> Vec<(Action, f64)> {
        let rules = self.rules;
        state
            .actions(&rules)
            .iter()
            .map(|&action| {
                let mut next = *state;
                next.apply_action(&rules, action);
                (action, self.value(&next))
            })
            .collect()
    }
}

/// 1 for a win, 0 for a loss.
fn win(outcome: Outcome) -> f64 {
    if outcome == Outcome::Win { 1.0 } else { 0.0 }
}

/// The first option of highest value (ties to the earliest in [`State::actions`] order).
pub fn best(options: &[(Action, f64)]) -> Option<Action> {
    let mut best: Option<(Action, f64)> = None;
    for &(action, v) in options {
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((action, v));
        }
    }
    best.map(|(a, _)| a)
}

/// Optimal values from the start of a game at one starting stealth.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// Starting stealth.
    pub stealth: u8,
    /// The optimal win probability.
    pub value: f64,
    /// For each main character (in character order), the best win probability when that
    /// character must be the main one: the value after choosing them, averaged over the
    /// complication rolls.
    pub by_main: [f64; 6],
}

/// Solves the game from the start at each of `stealths` into `solver`'s table (shared across
/// stealths: a game from stealth 12 passes through the positions of one from stealth 10).
/// Deterministic; single-threaded, so that the one table holds every state once.
pub fn solve(solver: &mut Solver, stealths: &[u8]) -> Vec<Solution> {
    let rules = *solver.rules();
    stealths
        .iter()
        .map(|&stealth| {
            let mut by_main = [0.0; 6];
            let mut value = 0.0;
            let chance = crate::game::Chance::Complications;
            for (outcome, p) in chance.outcomes() {
                let mut state = State::new(stealth);
                state.apply_outcome(&rules, outcome);
                let mut best = f64::NEG_INFINITY;
                for c in Character::ALL {
                    let mut next = state;
                    next.apply_action(&rules, Action::Main(c));
                    let v = solver.value(&next);
                    by_main[c.index()] += p * v;
                    best = best.max(v);
                }
                value += p * best;
            }
            Solution {
                stealth,
                value,
                by_main,
            }
        })
        .collect()
}

impl Solver {
    /// Debug: memo sizes by step tag.
    pub fn tag_counts(&self) -> [usize; 32] {
        let mut out = [0; 32];
        for k in self.memo.keys() {
            let tag = (*k & 31) as usize;
            let aid = ((*k >> 19) & 63) as usize;
            out[if aid == 1 { 31 } else { tag }] += 1;
        }
        out
    }
}
