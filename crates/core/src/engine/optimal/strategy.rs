//! The optimal strategy, a product of the solver: at every decision the option of highest
//! win probability, read from the optimal engine's value table ([`Solver`]). Ties go to the
//! option that comes first in the canonical class's own order ([`best_alike`]), so the policy
//! is deterministic and answers alike in every position of a class: the exact engine then
//! follows it over canonical classes, as the solver does ([`Sight::RulesOnly`]), not over
//! labelled positions, which are many times as many.
//!
//! The table is filled lazily: the first time a position is met whose options are not all in
//! the table, the game below that position is solved (under the rules of that call) and kept.
//! A Monte Carlo run thus pays for one solve of every complication roll it meets, then plays
//! from the table; [`OptimalStrategy::from_solver`] starts from a table already solved.

use std::sync::{OnceLock, RwLock};

use crate::game::{Action, Decision, State, Team, canon};
use crate::rules::Rules;
use crate::strategy::{Choice, Sight, Strategy};

use super::Solver;
use super::answers::AnswerTable;
use crate::engine::key;

/// Plays the option of highest win probability; see the module documentation.
#[derive(Debug, Default)]
pub struct OptimalStrategy {
    /// One value table per set of rules met so far.
    tables: RwLock<Vec<Solver>>,
    /// The answers given so far by [`answer_key`], per set of rules met, in a few slots that
    /// are read without a lock; rules beyond them get no answers kept. A decision met again is
    /// one read of an [`AnswerTable`] slot; one met for the first time asks the solver for its
    /// options' values ([`Solver::options`]). The answer is always [`best_alike`]'s, as if
    /// worked out afresh.
    answers: [OnceLock<(Rules, AnswerTable)>; RULES_KEPT],
}

/// How many sets of rules keep their answers.
const RULES_KEPT: usize = 8;

/// The key of decision point `state` in the answers: the position as the table reads it,
/// counters and the first side type at the second side challenge dropped.
#[inline]
fn answer_key(state: &State) -> u64 {
    key::rules_key(&canon::forget(state, Team::EMPTY, false))
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
            answers: Default::default(),
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

    /// The answers kept under `rules`, if they have a slot (the first slot free or holding
    /// them; two threads racing for a free slot both see which rules won it).
    fn answers(&self, rules: &Rules) -> Option<&AnswerTable> {
        self.answers.iter().find_map(|slot| {
            let (kept, answers) = slot.get_or_init(|| (*rules, AnswerTable::default()));
            (kept == rules).then_some(answers)
        })
    }

    /// The answer at decision point `state`, whose key in the answers is `key()`.
    #[inline]
    fn answer(&self, state: &State, rules: &Rules, key: impl FnOnce() -> u64) -> Choice {
        // Decisions with a choice are kept, and most are answered before their options are
        // listed.
        let kept = self.answers(rules).map(|answers| (answers, key()));
        if let Some(action) = kept.and_then(|(answers, key)| answers.get(key)) {
            return Choice::Act(action);
        }
        if let [only] = state.actions(rules).as_slice() {
            return Choice::Act(*only);
        }
        let action = best_alike(state, rules, &self.options(state, rules))
            .expect("a decision point has a legal option");
        if let Some((answers, key)) = kept {
            answers.insert(key, action);
        }
        Choice::Act(action)
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
        self.answer(state, rules, || answer_key(state))
    }

    /// Games side by side: a decision's answer is a read from a table of millions.
    fn prefetches(&self) -> bool {
        true
    }

    /// Warms the slot of the position's answer; returns the position's key.
    fn prefetch(&self, state: &State, rules: &Rules) -> u64 {
        let key = answer_key(state);
        if let Some(answers) = self.answers(rules) {
            answers.prefetch(key);
        }
        key
    }

    fn decide_warm(&self, state: &State, rules: &Rules, _: Decision, key: u64) -> Choice {
        self.answer(state, rules, || key)
    }

    /// What the rules read, up to relabelling: values are by canonical class and so are ties
    /// ([`best_alike`]); the second side type is read at the first side challenge, as the
    /// values read it.
    fn sight(&self, _: &State, _: &Rules) -> Sight {
        Sight::RulesOnly {
            second_side_type: true,
        }
    }
}

/// The option of highest value among `options` (`state`'s, in [`State::actions`] order), ties
/// going to the option whose image in the class's representative
/// ([`canon::canonical_labelled`]) comes first in the representative's own order: every
/// position of a class answers alike, so optimal play reads nothing the rules do not
/// ([`Sight::RulesOnly`]). The canonical form is worked out only where options tie (positions
/// where every option loses, or options alike up to names).
pub fn best_alike(state: &State, rules: &Rules, options: &[(Action, f64)]) -> Option<Action> {
    let top = options.iter().map(|&(_, v)| v).reduce(f64::max)?;
    let tied = || {
        options
            .iter()
            .filter(move |&&(_, v)| v == top)
            .map(|&(a, _)| a)
    };
    if tied().nth(1).is_none() {
        return tied().next();
    }
    let (form, labels) = canon::canonical_labelled(state, rules);
    let order = form.actions(rules);
    tied().min_by_key(|&a| {
        let theirs = labels.action(a);
        (order.iter().position(|&b| b == theirs))
            .expect("relabelled options are the representative's")
    })
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
    use crate::engine::{Observer, play_seeded};
    use crate::game::{Chance, Decision, Node};
    use crate::rules::{CLARIFIED, MAIN_TEXT};

    /// Keeps every decision point a game meets.
    struct DecisionPoints(Vec<State>);

    impl Observer for DecisionPoints {
        fn decision(&mut self, before: &State, _: Decision, _: Action, _: &State) {
            self.0.push(*before);
        }
        fn chance(&mut self, _: &State, _: Chance, _: u32, _: &State) {}
    }

    #[test]
    fn answers_kept_under_one_set_of_rules_never_answer_under_another() {
        // The same positions asked under both presets, one after the other: each set of
        // rules keeps its own answers, and must never answer for the other.
        let optimal = OptimalStrategy::new();
        let mut met = DecisionPoints(Vec::new());
        for game in 0..200 {
            play_seeded(&MAIN_TEXT, &optimal, 3, 7, game, &mut met);
        }
        let mut differ = 0;
        for state in &met.0 {
            let answer = |rules: &Rules| {
                let Node::Decision(decision) = state.node(rules) else {
                    return None;
                };
                let worked_out =
                    best_alike(state, rules, &optimal.options(state, rules)).expect("an option");
                let Choice::Act(given) = optimal.decide(state, rules, decision) else {
                    unreachable!("optimal play acts")
                };
                assert_eq!(given, worked_out, "{rules} at {state:?}");
                Some(given)
            };
            let (main_text, clarified) = (answer(&MAIN_TEXT), answer(&CLARIFIED));
            assert_eq!(answer(&MAIN_TEXT), main_text);
            differ +=
                usize::from(main_text.is_some() && clarified.is_some() && main_text != clarified);
        }
        // Positions where the presets' answers differ: where a shared cache would show.
        assert!(differ > 0, "no position tells the presets apart");
        assert!(met.0.len() > 1000, "{} decisions", met.0.len());
    }

    #[test]
    fn every_registered_name_resolves_here_optimal_included() {
        for e in crate::strategy::registry() {
            let strategy = resolve(&e.name).unwrap_or_else(|err| panic!("{}: {err}", e.name));
            assert_eq!(strategy.name(), e.name);
        }
    }
}
