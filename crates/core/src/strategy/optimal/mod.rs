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
