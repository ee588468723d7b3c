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
//! the shortfall of the strategy's choice there, read from the solver's values of every
//! option; the terms are summed by the decision's kind. The same terms count how often each
//! kind of decision arises with more than one option, and how often its best and worst
//! options differ by more than one point ([`MATTERS`]): a designer's measure of how much real
//! choice the game offers. The costliest terms ([`Costly`]) are listed.
//!
//! The strategy's layered program ([`super::exact::layered`]), compiled with every decision
//! noted, is run backwards ([`super::exact::regret`]), giving each decision's
//! probability of being reached at every stealth ([`layered::RecordedPass`]: the pass runs as
//! part of the strategy's own work, before optimal play's values are read). A decision's
//! options are valued once per canonical class and stealth, not once per position met
//! ([`classes::ClassedDecisions`]), at the stealths of every start that meets it in one walk
//! ([`super::Solver::options_at`]); the classes met and their values
//! ([`classes::CanonicalClasses`]) are shared by the strategies decomposed with one solve, each
//! classifying and valuing only what none before it did. Its exact win probability is summed
//! by the same pass. Several strategies share one solve ([`Solved`]) and one set of classes
//! ([`decisions_of_each`]); positions alike up to names are kept as one
//! ([`super::key::regret_sight`]); the pass hands on its layers as dense
//! [`Block`](super::exact::regret::Block)s, a decision's layers side by side. A batch of
//! a block's decisions is worked out together: their classes and options side by side over the
//! pool ([`classes::ClassedDecisions::prepare`]), each class valued at every stealth its
//! decisions are met at in one walk, then each start's terms summed on a thread of its own, row
//! by row — the same bits on any pool, and on many cores the largest strategy's decomposition
//! is not one thread's work.
//!
//! Where each job lives (each module uses only those above it):
//! - [`kinds`]: the kinds of decision and the figures summed by kind ([`ByKind`]);
//! - [`costliest`]: the positions that cost most ([`Costly`]), kept as the terms are met;
//! - [`classes`]: decisions by canonical class, each class's options valued once;
//! - [`layered`]: the terms from the strategy's layered program run backwards;
//! - [`decompose`]: the entry points — one strategy, or many sharing one solve.

mod classes;
mod costliest;
mod decompose;
mod kinds;
mod layered;

pub use costliest::{Costly, TOP};
pub use decompose::{Decisions, Solved, decisions, decisions_of_each};
pub use kinds::{ByKind, DecisionKind, KINDS, MATTERS};
