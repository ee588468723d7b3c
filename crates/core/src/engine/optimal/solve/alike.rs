//! A decision's options valued at several stealths in one walk.
//!
//! The regret decomposition values the options of one position at several stealths at once: a
//! decision the reverse pass meets `d` layers below the starts is met at stealth `S − d` for every
//! start `S`. Worked out one stealth at a time, each walk steps the state machine from the decision
//! down to the memoised positions and canonicalises each of them, and most of that is the same at
//! every stealth: a position plays alike at every stealth from [`canon::ALIKE_FROM_STEALTH`] up
//! (the same options, the same outcomes, every successor the same number of points higher), so the
//! walk is done once, and only the memoised positions' values are read at each stealth
//! ([`super::super::memo::MemoAddress::at_stealth`]). Where the lowest stealth drops below the
//! class, each stealth goes on alone.
//!
//! The arithmetic is [`Solver::try_value`]'s, stealth by stealth: the same merged outcomes,
//! the same sums in value order at chance points that name characters, the same maximum, so
//! every value has the same bits as [`Solver::options`] at that stealth.

use crate::game::{Action, Node, State, canon};

use super::super::memo;
use super::{Solver, win};
use crate::engine::expansion::gathered_outcomes;
use crate::engine::expectation::sum_in_value_order;
use crate::engine::positions::worth_memoising;

/// Stealths valued by one walk (more are valued a group at a time).
const WIDTH: usize = 8;

/// One value per stealth of a walk.
type Lanes = [f64; WIDTH];

/// The most outcomes of a chance point below a decision (two side types).
const MAX_TERMS: usize = 36;

impl Solver {
    /// The value of every legal option at `state` played at each of `stealths` (its own
    /// stealth ignored): `each(i, options)` with the options at `stealths[i]` in
    /// [`State::actions`] order, bit for bit [`Solver::options`]'s. Stealths of one class
    /// share a walk.
    pub(in crate::engine) fn options_at(
        &self,
        state: &State,
        stealths: &[u8],
        mut each: impl FnMut(usize, &[(Action, f64)]),
    ) {
        let mut alike = Vec::with_capacity(stealths.len());
        for (i, &stealth) in stealths.iter().enumerate() {
            if stealth < canon::ALIKE_FROM_STEALTH {
                each(i, &self.worked_out_options(&state.with_stealth(stealth)));
            } else {
                alike.push(i);
            }
        }
        for group in alike.chunks(WIDTH) {
            let lowest = group.iter().map(|&i| stealths[i]).min().unwrap_or(0);
            let mut up = [0u8; WIDTH];
            for (u, &i) in up.iter_mut().zip(group) {
                *u = stealths[i] - lowest;
            }
            let up = &up[..group.len()];
            let base = state.with_stealth(lowest);
            let actions = base.actions(&self.rules);
            // By stealth, by option.
            let mut options = vec![Vec::with_capacity(actions.len()); group.len()];
            for &action in actions.iter() {
                let mut next = base;
                next.apply_action(&self.rules, action);
                let mut lanes = [0.0; WIDTH];
                self.value_alike(&next, up, &mut lanes);
                for (o, lane) in options.iter_mut().zip(lanes) {
                    o.push((action, lane));
                }
            }
            for (&i, o) in group.iter().zip(&options) {
                each(i, o);
            }
        }
    }

    /// The optimal value of `state` played `up[i]` points higher, into `out[i]` (`up` holds
    /// 0 first).
    fn value_alike(&self, state: &State, up: &[u8], out: &mut Lanes) {
        let lanes = up.len();
        let at = |i: usize| state.with_stealth(state.stealth() + up[i]);
        let alone = |out: &mut Lanes| {
            for (i, v) in out.iter_mut().enumerate().take(lanes) {
                *v = self.value(&at(i));
            }
        };
        if lanes == 1 || state.stealth() < canon::ALIKE_FROM_STEALTH {
            return alone(out);
        }
        let node = state.node(&self.rules);
        if matches!(node, Node::Chance(chance) if chance.len() as usize > MAX_TERMS) {
            return alone(out);
        }
        if let Node::Over(outcome) = node {
            out[..lanes].fill(win(outcome));
            return;
        }
        if worth_memoising(state) {
            let address = memo::address(state, &self.rules);
            for (i, v) in out.iter_mut().enumerate().take(lanes) {
                let stealth = state.stealth() + up[i];
                *v = match self.memo.get(address.at_stealth(stealth)) {
                    Some(v) => v,
                    None => self.value(&at(i)),
                };
            }
            return;
        }
        let mut sub = [0.0; WIDTH];
        match node {
            Node::Over(_) => unreachable!(),
            Node::Chance(chance) if chance.names_characters() => {
                // By outcome, its value at each stealth; then each stealth's sum.
                let n = chance.len() as usize;
                let mut values = [[0.0; WIDTH]; MAX_TERMS];
                let mut weights = [0.0; MAX_TERMS];
                for ((outcome, p), (value, weight)) in
                    chance.outcomes().zip(values.iter_mut().zip(&mut weights))
                {
                    let mut next = *state;
                    next.apply_outcome(&self.rules, outcome);
                    self.value_alike(&next, up, value);
                    *weight = p;
                }
                let mut terms = [(0.0, 0.0); MAX_TERMS];
                for (i, v) in out.iter_mut().enumerate().take(lanes) {
                    for (term, (value, &weight)) in
                        terms.iter_mut().zip(values.iter().zip(&weights))
                    {
                        *term = (value[i], weight);
                    }
                    *v = sum_in_value_order(&mut terms[..n]);
                }
            }
            Node::Chance(chance) => {
                out[..lanes].fill(0.0);
                let (terms, n) = gathered_outcomes::<6>(state, chance, &self.rules);
                for &(next, weight) in &terms[..n] {
                    self.value_alike(&next, up, &mut sub);
                    for i in 0..lanes {
                        out[i] += weight * sub[i];
                    }
                }
            }
            Node::Decision(_) => {
                out[..lanes].fill(f64::NEG_INFINITY);
                for &action in state.actions(&self.rules).iter() {
                    let mut next = *state;
                    next.apply_action(&self.rules, action);
                    self.value_alike(&next, up, &mut sub);
                    for i in 0..lanes {
                        out[i] = out[i].max(sub[i]);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Action, Chance};
    use crate::rules::MAIN_TEXT;
    use crate::strategy::{Choice, ReferenceStrategy, Strategy};

    /// Every decision the reference strategy meets in a few games, valued at stealths of
    /// both classes at once: the same bits as one stealth at a time.
    #[test]
    fn options_at_several_stealths_are_those_at_each() {
        let rules = MAIN_TEXT;
        let solver = Solver::new(rules);
        let stealths = [0, 1, 2, 3, 5, 6, 9, 12, 4];
        let mut checked = 0;
        for complications in Chance::Complications.outcomes().map(|(o, _)| o).step_by(7) {
            let mut state = State::new(12);
            state.apply_outcome(&rules, complications);
            let mut dice = 0u32;
            while let Node::Chance(_) | Node::Decision(_) = state.node(&rules) {
                match state.node(&rules) {
                    Node::Decision(decision) => {
                        if state.actions(&rules).len() >= 2 {
                            solver.options_at(&state, &stealths, |i, values| {
                                let alone: Vec<f64> = solver
                                    .options(&state.with_stealth(stealths[i]))
                                    .into_iter()
                                    .map(|(_, v)| v)
                                    .collect();
                                let same = alone.len() == values.len()
                                    && alone
                                        .iter()
                                        .zip(values)
                                        .all(|(a, b)| a.to_bits() == b.1.to_bits());
                                assert!(same, "{state:?} at {}: {alone:?} {values:?}", stealths[i]);
                                checked += 1;
                            });
                        }
                        let action: Action =
                            match ReferenceStrategy.decide(&state, &rules, decision) {
                                Choice::Act(a) => a,
                                Choice::Uniform => state.actions(&rules)[0],
                            };
                        state.apply_action(&rules, action);
                    }
                    Node::Chance(chance) => {
                        dice = dice.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        state.apply_outcome(&rules, chance.outcome((dice >> 16) % chance.len()).0);
                    }
                    Node::Over(_) => unreachable!(),
                }
            }
        }
        assert!(checked > 100, "{checked} decisions checked");
    }
}
