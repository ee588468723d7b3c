//! The decomposition by the exact walk, for strategies the layers do not serve: the walk with
//! the [`Regret`] measure sums the terms by kind, and is followed forwards for the costliest
//! positions.

use crate::game::State;
use crate::strategy::{Sight, Strategy};

use super::super::budget::{Budget, Halt};
use super::super::reach::LANES;
use super::super::solve::Solver;
use super::super::walk::Exact;
use super::costliest::{Costliest, Found, NEGLIGIBLE, Terms};
use super::kinds::ByKind;
use super::shortfall::Regret;

/// The decomposition at each of `stealths` by the exact walk with the [`Regret`] measure,
/// for a strategy the layers do not serve: its sums by kind, and the costliest positions
/// found by following the walk forwards.
pub(super) fn walked<S: Strategy + ?Sized>(
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
