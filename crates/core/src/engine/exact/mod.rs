//! Exact evaluation of a strategy: its expectation from the start of a game at each starting
//! stealth, every outcome summed instead of sampled.
//!
//! - [`layered`]: the strategy compiled into a program per stealth class and replayed layer
//!   by layer;
//! - [`regret`]: the same program run backwards, each decision with its probability of being
//!   reached (what the regret decomposition sums).

pub(super) mod layered;

pub(super) use layered::regret;

use crate::rules::Rules;
use crate::strategy::Strategy;

use super::ExactRun;
use super::budget::{Budget, Halt};

/// The exact expectation of `strategy` from the start of a game at each of `stealths`.
///
/// Evaluated in stealth layers ([`layered`]): each position compiled once per class of
/// stealths the rules and the strategy read alike, the top class replayed at every higher
/// stealth. The sums run in a fixed order, so the result is the same bits for any number of
/// threads.
pub fn exact<S: Strategy + ?Sized>(rules: &Rules, strategy: &S, stealths: &[u8]) -> ExactRun {
    exact_within(rules, strategy, stealths, Budget::UNLIMITED).expect("an unlimited run ends")
}

/// [`exact`], stopping when it runs past `budget`.
pub fn exact_within<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
    budget: Budget<'_>,
) -> Result<ExactRun, Halt> {
    layered::exact(rules, strategy, stealths, &budget)
}
