//! What a chance point leads to, for every exact engine: its outcomes' positions with their
//! probabilities, in outcome order, neighbouring outcomes that lead to the same position
//! merged. The optimal and the strategy's programs sum the same terms in the same order, so
//! that what they compute does not depend on which of them computed it.

use crate::game::{Chance, State};
use crate::rules::Rules;

/// Calls `each(position, probability)` for the outcomes of `chance` at `state`, in outcome
/// order, each position once where neighbouring outcomes have the same effect (a highest die
/// of 1 or 2, of 3 or 4), with their summed probability. Inlined: it is the inner loop of
/// every compile.
#[inline]
pub(super) fn merged_outcomes(
    state: &State,
    chance: Chance,
    rules: &Rules,
    mut each: impl FnMut(State, f64),
) {
    let mut held: Option<(State, f64)> = None;
    for (outcome, p) in chance.outcomes() {
        let mut next = *state;
        next.apply_outcome(rules, outcome);
        match &mut held {
            Some((same, weight)) if *same == next => *weight += p,
            _ => {
                if let Some((previous, weight)) = held.replace((next, p)) {
                    each(previous, weight);
                }
            }
        }
    }
    if let Some((last, weight)) = held {
        each(last, weight);
    }
}

/// [`merged_outcomes`] gathered: at most `N` of them (a die's faces), `N` enough for every
/// chance point that does not name characters.
#[inline]
pub(super) fn gathered_outcomes<const N: usize>(
    state: &State,
    chance: Chance,
    rules: &Rules,
) -> ([(State, f64); N], usize) {
    let mut terms = [(*state, 0.0); N];
    let mut n = 0;
    merged_outcomes(state, chance, rules, |next, p| {
        assert!(n < N, "a die's faces, merged");
        terms[n] = (next, p);
        n += 1;
    });
    (terms, n)
}
