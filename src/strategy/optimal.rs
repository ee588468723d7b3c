//! The optimal strategy: at every decision the option of highest win probability, read from
//! the optimal engine's value table ([`Solver`]). Ties go to the first option in
//! [`State::actions`] order, so the policy is deterministic.
//!
//! The table is filled lazily: the first time a position is met whose options are not all in
//! the table, the game below that position is solved (under the rules of that call) and kept.
//! A Monte Carlo run thus pays for one solve of every complication roll it meets, then plays
//! from the table; [`OptimalStrategy::from_solver`] starts from a table already solved.

use std::sync::RwLock;

use crate::engine::Solver;
use crate::engine::solve::best;
use crate::game::{Action, Decision, State, Team};
use crate::rules::Rules;

use super::{Choice, Sight, Strategy};

/// Plays the option of highest win probability; see the module documentation.
#[derive(Debug, Default)]
pub struct OptimalStrategy {
    /// One value table per set of rules met so far.
    tables: RwLock<Vec<Solver>>,
}

impl OptimalStrategy {
    /// An optimal strategy with empty tables, solved on demand.
    pub fn new() -> OptimalStrategy {
        OptimalStrategy::default()
    }

    /// An optimal strategy that starts from an already (partly) solved table.
    pub fn from_solver(solver: Solver) -> OptimalStrategy {
        OptimalStrategy {
            tables: RwLock::new(vec![solver]),
        }
    }

    /// The value of every legal option at decision point `state`, in [`State::actions`]
    /// order, solving what the table lacks.
    pub fn options(&self, state: &State, rules: &Rules) -> Vec<(Action, f64)> {
        self.read_or_solve(
            rules,
            |solver| solver.peek_options(state),
            |solver| solver.options(state),
        )
    }

    /// The optimal win probability from `state` (any node), read from the table, solving
    /// what it lacks as [`OptimalStrategy::options`] does. After a solve from the start
    /// that is at most a few positions: the table shares values between positions that
    /// differ only in ways the rules cannot tell apart, and a position met in play is
    /// occasionally keyed apart from the one the solve met.
    pub fn value(&self, state: &State, rules: &Rules) -> f64 {
        self.read_or_solve(
            rules,
            |solver| solver.peek(state),
            |solver| solver.value(state),
        )
    }

    /// `read` from the table for `rules` under a shared lock; if it lacks something, `solve`
    /// under the exclusive lock (creating the table if there is none yet).
    fn read_or_solve<T>(
        &self,
        rules: &Rules,
        read: impl Fn(&Solver) -> Option<T>,
        solve: impl FnOnce(&mut Solver) -> T,
    ) -> T {
        {
            let tables = self.tables.read().unwrap_or_else(|e| e.into_inner());
            if let Some(found) = tables.iter().find(|s| s.rules() == rules).and_then(&read) {
                return found;
            }
        }
        let mut tables = self.tables.write().unwrap_or_else(|e| e.into_inner());
        let index = match tables.iter().position(|s| s.rules() == rules) {
            Some(index) => index,
            None => {
                tables.push(Solver::new(*rules));
                tables.len() - 1
            }
        };
        solve(&mut tables[index])
    }

    /// The number of positions in the table for `rules`.
    pub fn states(&self, rules: &Rules) -> usize {
        let tables = self.tables.read().unwrap_or_else(|e| e.into_inner());
        tables
            .iter()
            .find(|s| s.rules() == rules)
            .map_or(0, Solver::states)
    }
}

impl Strategy for OptimalStrategy {
    fn name(&self) -> &str {
        "optimal"
    }

    fn decide(&self, state: &State, rules: &Rules, _: Decision) -> Choice {
        let actions = state.actions(rules);
        if let [only] = actions.as_slice() {
            return Choice::Act(*only);
        }
        let options = self.options(state, rules);
        Choice::Act(best(&options).expect("a decision point has a legal option"))
    }

    /// The table ignores the counters, except the one bit the rules read (R8), which the
    /// exact engine keys on anyway, and the first side type at the second side challenge.
    fn sight(&self, _: &State, _: &Rules) -> Sight {
        Sight::Partial {
            counters: (0, 0),
            unread_complications: Team::EMPTY,
            first_side_type: false,
            second_side_type: true,
        }
    }
}
