//! What a position expands to in an exact walk of a strategy: its successors and their
//! probabilities, in the order the walk sums them.
//!
//! One definition serves the backward walk that adds values up ([`super::Exact`]) and
//! the forward pass that pushes reach probabilities down ([`super::reach`]): the two must
//! agree edge for edge, or the reach of a position would not be the weight its value carries
//! in the walk's sum, and the regret decomposition's terms would not add up to its total.

use crate::game::{Action, Actions, Chance, Character, Node, State};
use crate::rules::Rules;
use crate::strategy::{Choice, Strategy};

use super::positions::{on_first_side, second_side_type_unread};

/// The successors of `state` (a chance point, or a decision point the strategy answered
/// `choice`), and whether each is entered with its second side type pending. With `pending`,
/// `state` is itself at the first side challenge with the second type not rolled yet.
///
/// - at a chance point, every outcome with its probability; neighbouring outcomes with the
///   same effect (a highest die of 1 or 2, say) are one successor with the summed weight;
/// - at a roll of side types the strategy's first side challenge does not read the second of
///   (R12), only the first die: the second is rolled when the second side challenge begins
///   ([`rolled_on_leaving`]);
/// - at a decision, the strategy's action, or every legal action with equal weight when it
///   answers [`Choice::Uniform`].
pub(super) fn successors<'r, S: Strategy + ?Sized>(
    rules: &'r Rules,
    strategy: &S,
    state: &State,
    node: Node,
    choice: Option<Choice>,
    pending: bool,
) -> (bool, Successors<'r>) {
    let (source, n, merge, pending) = match (node, choice) {
        (Node::Chance(Chance::SideTypes), _) if second_side_type_unread(rules, strategy, state) => {
            let chance = Chance::SideTypes;
            (Source::Chance(chance, true), chance.len(), true, true)
        }
        (Node::Chance(chance), _) => (Source::Chance(chance, false), chance.len(), true, pending),
        (Node::Decision(_), Some(Choice::Act(action))) => (Source::Act(action), 1, false, pending),
        (Node::Decision(_), Some(Choice::Uniform)) => {
            let actions = state.actions(rules);
            let n = actions.as_slice().len() as u32;
            (Source::Uniform(actions), n, false, pending)
        }
        (Node::Decision(_), None) => unreachable!("a decision is answered before it expands"),
        (Node::Over(_), _) => (Source::Act(Action::Stop), 0, false, pending),
    };
    let successors = Successors {
        rules,
        from: *state,
        source,
        next: 0,
        len: n,
        merge,
        held: None,
    };
    (pending, successors)
}

/// Whether entering `next` from a position whose second side type is `pending` rolls that type
/// first: the first side challenge is over (and the game is not), so the second one begins
/// with its type drawn from [`second_side_type_odds`](crate::game::Chance::second_side_type_odds).
#[inline]
pub(super) fn rolled_on_leaving(next: &State, pending: bool) -> bool {
    pending && !on_first_side(next) && next.outcome().is_none()
}

/// Where the successors come from.
#[derive(Clone, Copy)]
enum Source {
    /// The outcomes of a chance point; with `true`, the second side type replaced by a
    /// placeholder (it is rolled later).
    Chance(Chance, bool),
    /// The one action the strategy takes.
    Act(Action),
    /// Every legal action, uniformly.
    Uniform(Actions),
}

/// The iterator of [`successors`]: `(successor, weight)`, the weights summing to 1. It borrows
/// only the rules, so a walk may recurse while it iterates.
pub(super) struct Successors<'r> {
    rules: &'r Rules,
    from: State,
    source: Source,
    next: u32,
    len: u32,
    /// Whether neighbours with the same effect are merged (outcomes of chance points; a
    /// uniform decision sums its options one by one).
    merge: bool,
    /// A successor read ahead while merging.
    held: Option<(State, f64)>,
}

impl Successors<'_> {
    /// The next successor before merging.
    #[inline]
    fn raw(&mut self) -> Option<(State, f64)> {
        if self.next >= self.len {
            return None;
        }
        let i = self.next;
        self.next += 1;
        let mut next = self.from;
        Some(match self.source {
            Source::Chance(chance, placeholder) => {
                let (outcome, p) = chance.outcome(i);
                next.apply_outcome(self.rules, outcome);
                if placeholder {
                    next = next.with_second_side_type(Character::Hacker);
                }
                (next, p)
            }
            Source::Act(action) => {
                next.apply_action(self.rules, action);
                (next, 1.0)
            }
            Source::Uniform(actions) => {
                next.apply_action(self.rules, actions.as_slice()[i as usize]);
                (next, 1.0 / f64::from(self.len))
            }
        })
    }
}

impl Iterator for Successors<'_> {
    type Item = (State, f64);

    #[inline]
    fn next(&mut self) -> Option<(State, f64)> {
        let (state, mut weight) = match self.held.take() {
            Some(held) => held,
            None => self.raw()?,
        };
        if self.merge {
            while let Some((next, p)) = self.raw() {
                if next == state {
                    weight += p;
                } else {
                    self.held = Some((next, p));
                    break;
                }
            }
        }
        Some((state, weight))
    }
}
