//! Which positions an exact traversal stores, and which it plays through: shared by the
//! evaluation of a strategy and optimal play, so that both store the same positions.

use crate::game::State;
use crate::rules::Rules;
use crate::strategy::{Sight, Strategy};

use crate::game::interface::side_reached_once;
pub use crate::game::worth_memoising;

/// Whether a key for `sight` tells the number of attempts at `state` apart.
#[inline]
pub(super) fn counts_attempts(state: &State, sight: Sight) -> bool {
    matches!(sight, Sight::Partial { counters: (a, _), .. } if a == state.attempts())
}

/// Whether a strategy's program keeps the value of a position worth memoising that it sees with
/// `sight`: not a side challenge reached from one place only once the key counts attempts.
#[inline]
pub(super) fn kept(state: &State, sight: impl FnOnce() -> Sight) -> bool {
    // The step first: the strategy's sight is dearer, and only side challenges ask for it.
    !(side_reached_once(state) && counts_attempts(state, sight()))
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
    !strategy.sight(&first, rules).reads_second_side_type()
}
