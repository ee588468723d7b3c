//! The probability that a strategy reaches each of its decisions: the exact walk followed
//! forwards, once it has been walked backwards.
//!
//! The backward walk ([`Exact::value`]) weights the value of every successor by its
//! probability; the forward pass pushes a position's probability of being reached down the
//! same edges ([`super::successors`]), so the reach of a decision is exactly the weight its
//! term carries in the walk's sum. It visits the memoised positions in reverse finish order:
//! the memo's values are stored in post-order, so every position that leads to a memoised one
//! finished after it, and has pushed all its probability before the position is expanded.
//! Positions the walk does not memoise (the checks after a decision) are expanded on the way,
//! once per way in. Two kinds of position the walk keeps no entry for are met along many
//! paths, and are gathered so that each is expanded (and visited) once with its whole
//! probability: a decision answered with one action that leads straight to a memoised
//! position ([`Exact::straight_through`]), expanded just before that position, and the
//! retries of side challenges the walk keeps apart ([`Slot::Task`]), expanded in order of
//! attempts.
//!
//! One pass follows up to [`LANES`] starting positions at once (the headline stealths): the
//! positions they share are expanded once, each carrying one probability per start, and each
//! start's decisions are visited as a pass of its own would visit them — in the same order,
//! with the same sums — since a start that does not reach a position adds nothing to it.

use std::collections::BTreeMap;

use crate::game::{Chance, Decision, Node, State, Step};
use crate::strategy::{Choice, Strategy};

use super::budget::Halt;
use super::successors::{rolled_on_leaving, successors};
use super::walk::{Exact, Measure, Slot};

/// A decision the strategy meets, with the probability of meeting it from the root.
#[derive(Clone, Copy, Debug)]
pub struct Met<'s> {
    /// The position. With `pending`, its second side type is a placeholder: the strategy
    /// does not read it, and it is rolled later.
    pub state: &'s State,
    /// The decision point.
    pub decision: Decision,
    /// The strategy's answer.
    pub choice: Choice,
    /// Whether the second side type is still to be rolled ([`Exact::walk`]'s `pending`).
    pub pending: bool,
    /// The probability that a game from the root reaches this position this way.
    pub reach: f64,
}

/// How many expansions between two looks at the cancel flag.
const CANCEL_EVERY: usize = 1 << 14;

/// How many starting positions one pass follows at once.
pub const LANES: usize = 4;

/// A probability of being reached, one per starting position of the pass.
type LaneReach = [f64; LANES];

/// `reach` scaled by `weight`, lane by lane.
#[inline]
fn scaled(reach: LaneReach, weight: f64) -> LaneReach {
    reach.map(|r| r * weight)
}

impl<S: Strategy + ?Sized, M: Measure> Exact<'_, S, M> {
    /// Calls `visit(i, met)` at every decision a game from `roots[i]` can meet, with its
    /// probability of being reached: a decision met along several paths that the walk
    /// memoised is visited once with their summed probability, otherwise once per path.
    /// Every visit's `reach` is the weight of that decision's term in
    /// [`Exact::value`]`(roots[i])`.
    ///
    /// At most [`LANES`] roots, each walked ([`Exact::value`]) by this walker, made with
    /// [`Exact::recording_positions`].
    pub fn reach(
        &self,
        roots: &[State],
        visit: &mut dyn FnMut(usize, Met<'_>) -> Result<(), Halt>,
    ) -> Result<(), Halt> {
        assert!(roots.len() <= LANES, "at most {LANES} roots a pass");
        let positions = self
            .positions
            .as_deref()
            .expect("a walk that records its positions");
        let mut pass = Pass {
            walk: self,
            reach: vec![[0.0; LANES]; positions.len()],
            retries: BTreeMap::new(),
            through: BTreeMap::new(),
            visit,
            expanded: 0,
        };
        for (lane, root) in roots.iter().enumerate() {
            let mut reach = [0.0; LANES];
            reach[lane] = 1.0;
            pass.expand(root, false, reach, positions.len())?;
        }
        pass.retries(positions.len())?;
        for at in (0..positions.len()).rev() {
            pass.through(at)?;
            let reach = pass.reach[at];
            if reach.iter().any(|&r| r != 0.0) {
                let (state, pending) = positions[at];
                pass.expand(&state, pending, reach, at)?;
                pass.retries(at)?;
            }
        }
        Ok(())
    }
}

/// A position gathered before it is expanded: one representative of its key, whether its
/// second side type is pending, and the probability gathered so far.
type Gathered = (State, bool, LaneReach);

/// The state of one forward pass.
struct Pass<'p, 'a, S: ?Sized, M: Measure> {
    walk: &'p Exact<'a, S, M>,
    /// Per memoised position, the probability pushed to it so far.
    reach: Vec<LaneReach>,
    /// Side-challenge retries met in the current expansion, by (Tough Challenge, side
    /// challenge, attempts, key): each reaches only retries later in that order.
    retries: BTreeMap<(u8, u8, u8, u128), Gathered>,
    /// Decisions that lead straight to a memoised position, by (that position's index, key).
    through: BTreeMap<(u32, u128), Gathered>,
    visit: &'p mut dyn FnMut(usize, Met<'_>) -> Result<(), Halt>,
    expanded: usize,
}

impl<S: Strategy + ?Sized, M: Measure> Pass<'_, '_, S, M> {
    /// Visits `state`, if it is a decision, and pushes `reach` down its edges. `at`: the
    /// memoised positions below it are still to be expanded.
    fn expand(
        &mut self,
        state: &State,
        pending: bool,
        reach: LaneReach,
        at: usize,
    ) -> Result<(), Halt> {
        self.expanded += 1;
        if self.expanded.is_multiple_of(CANCEL_EVERY) {
            self.walk.budget.check_cancel()?;
        }
        let rules = self.walk.rules;
        let node = state.node(rules);
        let choice = match node {
            Node::Over(_) => return Ok(()),
            Node::Decision(decision) => {
                let choice = self.walk.strategy.decide(state, rules, decision);
                // A start that does not reach it does not meet it.
                for (lane, &reach) in reach.iter().enumerate().filter(|(_, r)| **r != 0.0) {
                    let met = Met {
                        state,
                        decision,
                        choice,
                        pending,
                        reach,
                    };
                    (self.visit)(lane, met)?;
                }
                Some(choice)
            }
            Node::Chance(_) => None,
        };
        let (pending, next) = successors(rules, self.walk.strategy, state, node, choice, pending);
        for (next, weight) in next {
            if rolled_on_leaving(&next, pending) {
                for (second, p) in Chance::second_side_type_odds() {
                    let rolled = next.with_second_side_type(second);
                    self.enter(&rolled, false, scaled(scaled(reach, weight), p), at)?;
                }
            } else {
                self.enter(&next, pending, scaled(reach, weight), at)?;
            }
        }
        Ok(())
    }

    /// Pushes `reach` to `state`: to its memoised entry if it has one still to be expanded,
    /// to the gathered retries if it is one, else through it at once.
    fn enter(
        &mut self,
        state: &State,
        pending: bool,
        reach: LaneReach,
        at: usize,
    ) -> Result<(), Halt> {
        match self.walk.slot(state, pending) {
            Some(Slot::Global(key)) => {
                if let Some(i) = self.walk.memo.get(key) {
                    if (i as usize) < at {
                        add(&mut self.reach[i as usize], reach);
                        return Ok(());
                    }
                } else if let Some(i) = self.straight_through(state, pending)
                    && (i as usize) < at
                {
                    let entry = self.through.entry((i, key));
                    add(
                        &mut entry.or_insert((*state, pending, [0.0; LANES])).2,
                        reach,
                    );
                    return Ok(());
                }
            }
            Some(Slot::Task { tough, key }) => {
                let index = match state.step() {
                    Step::Side { index, .. } => index,
                    _ => 0,
                };
                let order = (tough, index, state.attempts(), key);
                let entry = self.retries.entry(order);
                add(
                    &mut entry.or_insert((*state, pending, [0.0; LANES])).2,
                    reach,
                );
                return Ok(());
            }
            None => {}
        }
        // Not memoised (or, should the order ever not hold, already expanded): expanding it
        // here pushes the same probability down the same edges.
        self.expand(state, pending, reach, at)
    }

    /// The memoised position the decision at `state` leads straight to, if it does.
    fn straight_through(&self, state: &State, pending: bool) -> Option<u32> {
        let Node::Decision(decision) = state.node(self.walk.rules) else {
            return None;
        };
        let choice = self.walk.strategy.decide(state, self.walk.rules, decision);
        match self.walk.straight_through(state, pending, Some(choice))? {
            (_, Slot::Global(key)) => self.walk.memo.get(key),
            (_, Slot::Task { .. }) => None,
        }
    }

    /// Expands the gathered decisions that lead straight to position `at`, so that they push
    /// their probability to it before it is expanded.
    fn through(&mut self, at: usize) -> Result<(), Halt> {
        while let Some(entry) = self.through.last_entry()
            && entry.key().0 as usize == at
        {
            let (state, pending, reach) = entry.remove();
            self.expand(&state, pending, reach, at + 1)?;
        }
        Ok(())
    }

    /// Expands the gathered retries, fewest attempts first.
    fn retries(&mut self, at: usize) -> Result<(), Halt> {
        while let Some((_, (state, pending, reach))) = self.retries.pop_first() {
            self.expand(&state, pending, reach, at)?;
        }
        Ok(())
    }
}

/// Adds `reach` to `to`, lane by lane.
#[inline]
fn add(to: &mut LaneReach, reach: LaneReach) {
    for (to, r) in to.iter_mut().zip(reach) {
        *to += r;
    }
}
