//! What a chance point leads to, for every exact engine: its outcomes' positions with their
//! probabilities, in outcome order, neighbouring outcomes that lead to the same position
//! merged. The optimal and the strategy's programs sum the same terms in the same order, so
//! that what they compute does not depend on which of them computed it.

use crate::game::{Chance, State};
use crate::rules::Rules;

/// The outcomes of `chance` at `state` as `(position, probability)`, in outcome order, each
/// position once where neighbouring outcomes have the same effect (a highest die of 1 or 2,
/// of 3 or 4), with their summed probability.
pub(super) fn merged_outcomes<'r>(state: &State, chance: Chance, rules: &'r Rules) -> Merged<'r> {
    Merged {
        rules,
        from: *state,
        chance,
        next: 0,
        held: None,
    }
}

/// The iterator of [`merged_outcomes`].
pub(super) struct Merged<'r> {
    rules: &'r Rules,
    from: State,
    chance: Chance,
    /// The next outcome to apply.
    next: u32,
    /// A position read ahead while merging.
    held: Option<(State, f64)>,
}

impl Merged<'_> {
    /// The next outcome's position, unmerged.
    #[inline]
    fn raw(&mut self) -> Option<(State, f64)> {
        if self.next >= self.chance.len() {
            return None;
        }
        let (outcome, p) = self.chance.outcome(self.next);
        self.next += 1;
        let mut next = self.from;
        next.apply_outcome(self.rules, outcome);
        Some((next, p))
    }
}

impl Iterator for Merged<'_> {
    type Item = (State, f64);

    #[inline]
    fn next(&mut self) -> Option<(State, f64)> {
        let (state, mut weight) = match self.held.take() {
            Some(held) => held,
            None => self.raw()?,
        };
        while let Some((next, p)) = self.raw() {
            if next == state {
                weight += p;
            } else {
                self.held = Some((next, p));
                break;
            }
        }
        Some((state, weight))
    }
}
