//! Optimal play as a policy: at every decision the option of highest win probability, as
//! whoever values options says ([`OptionValues`]: the engine's solver).
//! The policy knows nothing of how values are found; it keeps its answers and breaks ties.
//!
//! Ties go to the option that comes first in the canonical class's own order ([`best_alike`]),
//! so the policy is deterministic and answers alike in every position of a class: the exact
//! engine then follows it over canonical classes, as the solver does ([`Sight::RulesOnly`]),
//! not over labelled positions, which are many times as many.
//!
//! - [`answers`]: the answers given so far by position, read without locks.

mod answers;

use std::sync::OnceLock;

use crate::game::{Action, Decision, State, Team, canon, key};
use crate::rules::Rules;
use crate::strategy::{Choice, Sight, Strategy};

use answers::AnswerTable;

/// What the optimal policy asks of optimal play: the win probability of every legal option at
/// a decision point under a set of rules, in [`State::actions`] order.
pub trait OptionValues: Send + Sync {
    /// The options' values at decision point `state` under `rules`.
    fn options(&self, state: &State, rules: &Rules) -> Vec<(Action, f64)>;
}

/// Plays the option of highest win probability; see the module documentation.
#[derive(Debug, Default)]
pub struct Optimal<V> {
    values: V,
    /// The answers given so far by [`answer_key`], per set of rules met, in a few slots that
    /// are read without a lock; rules beyond them get no answers kept. A decision met again is
    /// one read of an [`AnswerTable`] slot; one met for the first time asks for its options'
    /// values ([`OptionValues::options`]). The answer is always [`best_alike`]'s, as if worked
    /// out afresh.
    answers: [OnceLock<(Rules, AnswerTable)>; RULES_KEPT],
}

/// How many sets of rules keep their answers.
const RULES_KEPT: usize = 8;

/// The key of decision point `state` in the answers: the position as the values read it,
/// counters and the first side type at the second side challenge dropped.
#[inline]
fn answer_key(state: &State) -> u64 {
    key::rules_key(&canon::forget(state, Team::EMPTY, false))
}

impl<V: OptionValues> Optimal<V> {
    /// The policy of the options' values `values` gives.
    pub fn of(values: V) -> Self {
        Optimal {
            values,
            answers: Default::default(),
        }
    }

    /// Where the policy's values come from.
    pub fn values(&self) -> &V {
        &self.values
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
        let action = best_alike(state, rules, &self.values.options(state, rules))
            .expect("a decision point has a legal option");
        if let Some((answers, key)) = kept {
            answers.insert(key, action);
        }
        Choice::Act(action)
    }
}

impl<V: OptionValues> Strategy for Optimal<V> {
    fn name(&self) -> &str {
        super::OPTIMAL
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Node;
    use crate::rules::{CLARIFIED, MAIN_TEXT};

    /// Options valued by their place, the last best under the printed rules and the first
    /// under the clarified ones: every decision with a choice is answered apart by the two.
    struct ByRules;

    impl OptionValues for ByRules {
        fn options(&self, state: &State, rules: &Rules) -> Vec<(Action, f64)> {
            let actions = state.actions(rules);
            let flip = *rules == CLARIFIED;
            (actions.iter().enumerate())
                .map(|(i, &a)| (a, if flip { -(i as f64) } else { i as f64 }))
                .collect()
        }
    }

    /// The decision points of a few games played at random under `rules`.
    fn decision_points(rules: &Rules) -> Vec<State> {
        let (mut points, mut dice) = (Vec::new(), 1u32);
        let mut roll = |n: u32| {
            dice = dice.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (dice >> 16) % n
        };
        for _ in 0..100 {
            let mut state = State::new(3);
            loop {
                match state.node(rules) {
                    Node::Decision(_) => {
                        points.push(state);
                        let actions = state.actions(rules);
                        state.apply_action(rules, actions[roll(actions.len() as u32) as usize]);
                    }
                    Node::Chance(chance) => {
                        let outcome = chance.outcome(roll(chance.len())).0;
                        state.apply_outcome(rules, outcome);
                    }
                    Node::Over(_) => break,
                }
            }
        }
        points
    }

    /// The same positions asked under both presets, one after the other: each set of rules
    /// keeps its own answers, and never answers for the other.
    #[test]
    fn answers_kept_under_one_set_of_rules_never_answer_under_another() {
        let optimal = Optimal::of(ByRules);
        let points = decision_points(&MAIN_TEXT);
        let mut differ = 0;
        for state in &points {
            let answer = |rules: &Rules| {
                let Node::Decision(decision) = state.node(rules) else {
                    return None;
                };
                let afresh = best_alike(state, rules, &ByRules.options(state, rules));
                let Choice::Act(given) = optimal.decide(state, rules, decision) else {
                    unreachable!("optimal play acts")
                };
                assert_eq!(Some(given), afresh, "{rules} at {state:?}");
                Some(given)
            };
            let (main_text, clarified) = (answer(&MAIN_TEXT), answer(&CLARIFIED));
            assert_eq!(answer(&MAIN_TEXT), main_text);
            assert_eq!(answer(&CLARIFIED), clarified);
            differ +=
                usize::from(main_text.is_some() && clarified.is_some() && main_text != clarified);
        }
        assert!(
            differ > 100,
            "{differ} of {} positions answered apart",
            points.len()
        );
    }
}
