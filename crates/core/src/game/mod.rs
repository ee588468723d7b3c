//! The game as one state machine: a small `Copy` [`State`] that is, at every
//! moment, a chance point, a decision point or over ([`Node`]). Every ruling of docs/rules.md is
//! implemented here and nowhere else; the engines only drive it.

pub mod canon;
mod character;
mod dice;
pub mod interface;
pub use interface::worth_memoising;
pub mod key;
mod node;
mod state;

pub use character::{Character, Health, Healths, MAX_TEAM, Members, Team};
pub use dice::{HighestOf, MAX_DICE, uniform};
pub use node::{
    Action, Actions, COMPLICATION_OUTCOMES, Chance, Decision, DecisionKind, KINDS, LossCause,
    MAX_ACTIONS, Node, Outcome, Streams, complications_roll, complications_rolled,
};
pub use state::resume::Script;
pub use state::{Aid, MAX_STEALTH, Phase, RUN_CHALLENGES, State, Step, TOUGH_CHALLENGES};
