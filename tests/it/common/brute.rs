//! The optimal value by brute force: a plain memoised expectimax over the whole labelled
//! state, sharing nothing with the solver but the state machine — what the solver's tables,
//! symmetries and layers are checked against.

use rustc_hash::FxHashMap;

use raven::game::{Node, Outcome, State};
use raven::rules::Rules;

/// The brute force's memo: values by whole state. Fx hashing: the suite hashes tens of
/// millions of states here, and SipHash was most of the time of the tests that use it.
pub type BruteValues = FxHashMap<State, f64>;

/// Optimal value by brute force: a hash map on the whole state (counters zeroed, since the
/// rules never read them).
pub fn brute(rules: &Rules, state: &State, memo: &mut BruteValues) -> f64 {
    let state = state.with_counters(0, 0);
    if let Some(&v) = memo.get(&state) {
        return v;
    }
    let v = match state.node(rules) {
        Node::Over(outcome) => f64::from(u8::from(outcome == Outcome::Win)),
        Node::Chance(chance) => chance
            .outcomes()
            .map(|(o, p)| {
                let mut next = state;
                next.apply_outcome(rules, o);
                p * brute(rules, &next, memo)
            })
            .sum(),
        Node::Decision(_) => state
            .actions(rules)
            .iter()
            .map(|&a| {
                let mut next = state;
                next.apply_action(rules, a);
                brute(rules, &next, memo)
            })
            .fold(f64::NEG_INFINITY, f64::max),
    };
    memo.insert(state, v);
    v
}
