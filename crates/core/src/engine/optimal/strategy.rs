//! Optimal play's policy ([`Optimal`]) backed by the solver: its options' values read from
//! the optimal engine's value table ([`Solver`]), one per set of rules met.
//!
//! The table is filled lazily: the first time a position is met whose options are not all in
//! the table, the game below that position is solved (under the rules of that call) and kept.
//! A Monte Carlo run thus pays for one solve of every complication roll it meets, then plays
//! from the table; [`OptimalStrategy::from_solver`] starts from a table already solved.

use std::sync::RwLock;

use crate::engine::generic::Optimum;
use crate::game::interface::PurpleRaven;
use crate::game::{Action, State};
use crate::rules::Rules;
use crate::strategy::Strategy;
use crate::strategy::optimal::{Optimal, OptionValues};

use super::Solver;

/// Optimal play, its values solved on demand.
pub type OptimalStrategy = Optimal<Solvers>;

/// Optimal play read from one solver's table, for a caller that solved its rules itself: no
/// lock between the table and the threads that play many games side by side from it (what the
/// table lacks is still solved on demand).
pub type SolverPolicy<'a> = Optimal<&'a Solver>;

impl OptionValues for &Solver {
    fn options(&self, state: &State, rules: &Rules) -> Vec<(Action, f64)> {
        assert_eq!(
            self.rules(),
            rules,
            "a solver answers under its own rules only"
        );
        Solver::options(self, state)
    }
}

/// One value table per set of rules met so far, filled on demand.
#[derive(Debug, Default)]
pub struct Solvers(RwLock<Vec<Solver>>);

impl OptimalStrategy {
    /// An optimal strategy with empty tables, solved on demand.
    pub fn new() -> OptimalStrategy {
        Optimal::of(Solvers::default())
    }

    /// An optimal strategy that starts from an already (partly) solved table.
    pub fn from_solver(solver: Solver) -> OptimalStrategy {
        Optimal::of(Solvers(RwLock::new(vec![solver])))
    }

    /// The value of every legal option at decision point `state`, in [`State::actions`]
    /// order, solving what the table lacks.
    pub fn options(&self, state: &State, rules: &Rules) -> Vec<(Action, f64)> {
        self.values().options(state, rules)
    }

    /// The optimal win probability from `state` (any node), read from the table, solving
    /// what it lacks as [`OptimalStrategy::options`] does. After a solve from the start
    /// that is at most a few positions: the table shares values between positions that
    /// differ only in ways the rules cannot tell apart, and a position met in play is
    /// occasionally keyed apart from the one the solve met.
    pub fn value(&self, state: &State, rules: &Rules) -> f64 {
        self.values().read_or_solve(
            rules,
            |solver| solver.peek(state),
            |solver| solver.value(state),
        )
    }

    /// The number of positions in the table for `rules`.
    pub fn states(&self, rules: &Rules) -> usize {
        let tables = self.values().0.read().unwrap_or_else(|e| e.into_inner());
        tables
            .iter()
            .find(|s| s.rules() == rules)
            .map_or(0, Solver::states)
    }
}

impl OptionValues for Solvers {
    fn options(&self, state: &State, rules: &Rules) -> Vec<(Action, f64)> {
        self.read_or_solve(
            rules,
            |solver| solver.peek_options(state),
            |solver| solver.options(state),
        )
    }
}

impl Solvers {
    /// `read` from the table for `rules` under a shared lock; if it lacks something, `solve`
    /// under the exclusive lock (creating the table if there is none yet).
    fn read_or_solve<T>(
        &self,
        rules: &Rules,
        read: impl Fn(&Solver) -> Option<T>,
        solve: impl FnOnce(&mut Solver) -> T,
    ) -> T {
        {
            let tables = self.0.read().unwrap_or_else(|e| e.into_inner());
            if let Some(found) = tables.iter().find(|s| s.rules() == rules).and_then(&read) {
                return found;
            }
        }
        let mut tables = self.0.write().unwrap_or_else(|e| e.into_inner());
        let index = match tables.iter().position(|s| s.rules() == rules) {
            Some(index) => index,
            None => {
                tables.push(Solver::new(*rules));
                tables.len() - 1
            }
        };
        solve(&mut tables[index])
    }
}

/// Optimal play's values of a Purple Raven game read from a solver's table, for what the
/// engines written for any game read along a game (regret, luck and skill, the ledger).
pub struct Table<'a> {
    game: PurpleRaven,
    table: &'a OptimalStrategy,
}

impl<'a> Table<'a> {
    /// `game`'s values from `table` (solved on demand under the game's rules).
    pub fn new(game: PurpleRaven, table: &'a OptimalStrategy) -> Table<'a> {
        Table { game, table }
    }
}

impl Optimum<PurpleRaven> for Table<'_> {
    fn game(&self) -> &PurpleRaven {
        &self.game
    }

    fn value(&self, pos: &State) -> f64 {
        self.table.value(pos, &self.game.rules)
    }

    /// In [`State::actions`] order, which is the game's.
    fn option_values(&self, pos: &State) -> Vec<(Action, f64)> {
        self.table.options(pos, &self.game.rules)
    }
}

/// Resolves `--strategy` as [`crate::strategy::resolve`] does, `optimal` included: an
/// [`OptimalStrategy`] with an empty table, solved on demand under the rules of the game it
/// is asked about.
pub fn resolve(spec: &str) -> Result<Box<dyn Strategy>, crate::strategy::StrategyError> {
    if spec == crate::strategy::OPTIMAL {
        return Ok(Box::new(OptimalStrategy::new()));
    }
    crate::strategy::resolve(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_registered_name_resolves_here_optimal_included() {
        for e in crate::strategy::registry() {
            let strategy = resolve(&e.name).unwrap_or_else(|err| panic!("{}: {err}", e.name));
            assert_eq!(strategy.name(), e.name);
        }
    }
}
