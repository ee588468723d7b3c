//! Where a strategy loses its points: its regret (optimal − exact) split exactly over the
//! decisions it makes, by the performance-difference identity
//!
//! ```text
//! V*(x) − V_S(x) = Σ over the positions y the strategy reaches from x:
//!                  P_S(reach y) · (V*(y) − Q*(y, S's choice at y))
//! ```
//!
//! where `V*` is the optimal win probability and `Q*(y, a)` that of taking `a` at `y` and
//! playing optimally afterwards. A decision's term is its probability of being reached times
//! the shortfall of the strategy's choice there; the terms are summed by the decision's kind,
//! and the costliest ([`Costly`]) are listed. The same terms count how often each kind of
//! decision arises with more than one option, and how often its best and worst options differ
//! by more than one point ([`MATTERS`]): a designer's measure of how much real choice the game
//! offers.
//!
//! The probabilities of being reached, and the strategy's exact win probability, come from its
//! layered program run backwards ([`super::exact::regret`]). The shortfalls come from optimal
//! play's values of each option, worked out once per canonical class and stealth rather than
//! once per position met (positions alike up to names are one already:
//! [`super::key::regret_sight`]), and shared by every strategy decomposed with one solve
//! ([`Solved`], [`decisions_of_each`]). Each strategy's decomposition is shared out over the
//! pool, so that the largest is not one thread's work, and its sums run in a fixed order: the
//! same bits on any pool.
//!
//! Where each job lives (each module uses only those above it):
//! - [`kinds`]: the figures summed by kind of decision ([`ByKind`]);
//! - [`costliest`]: the positions that cost most ([`Costly`]), kept as the terms are met;
//! - [`classes`]: decisions by canonical class, each class's options valued once;
//! - [`layered`]: the terms from the strategy's layered program run backwards;
//! - [`decompose`]: the entry points — one strategy, or many sharing one solve.

mod classes;
mod costliest;
mod decompose;
mod kinds;
mod layered;

pub use costliest::{Costly, EVERY, TOP};
pub use decompose::{Decisions, Solved, decisions, decisions_of_each};
pub use kinds::{ByKind, MATTERS};
