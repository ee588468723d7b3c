//! Exact evaluation of a strategy: its expectation from the start of a game at each starting
//! stealth, every outcome summed instead of sampled.

use crate::game::State;
use crate::rules::Rules;
use crate::strategy::Strategy;

use super::budget::{Budget, Halt, TooLarge};
use super::exact_layers;
use super::walk::Exact;
use super::{ExactRun, Expectation};

/// The exact expectation of `strategy` from the start of a game at each of `stealths`.
///
/// One memo serves every stealth: a game from stealth 12 passes through the positions of one
/// from stealth 10, so the highest stealth is evaluated first and the others cost little. The
/// walk is single-threaded: splitting the complication rolls over threads with a memo each
/// would recompute the shared phases 2 and 3 once per thread, and a shared concurrent memo
/// would need locking on every lookup. The sums run in a fixed order, so the result is
/// deterministic.
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
    if let Some(run) = exact_layers::exact(rules, strategy, stealths, &budget) {
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
