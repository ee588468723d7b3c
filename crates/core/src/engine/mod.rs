//! Engines that drive the one state machine of [`crate::game`]: Monte Carlo sampling, exact
//! expectation of a strategy ([`mod@exact`]) and optimal play ([`mod@solve`]).
//!
//! Where each job lives (one module each):
//! - [`budget`]: the limits an exact run works under, and why one stops early;
//! - [`expectation`]: what an exact engine computes for a position ([`Expectation`]);
//! - [`expansion`]: what a chance point leads to, for every exact engine;
//! - [`seed`]: each game's random streams, the same whatever the thread count;
//! - [`play`]: the loop that plays one game, shared by every sampling engine;
//! - [`montecarlo`]: sampled games of one strategy;
//! - [`paired`]: several strategies sampled on the same games;
//! - [`key`]: positions packed into integer keys;
//! - [`ids`]: dense local ids of compiled positions by key;
//! - [`positions`]: which positions an exact traversal stores and which it plays through;
//! - [`exact_layers`]: a strategy's figures from programs compiled per stealth class and
//!   replayed layer by layer; its [`exact_layers::regret`] runs them backwards;
//! - [`mod@exact`]: a strategy's exact figures, from its [`exact_layers`];
//! - [`memo`]: the solver's table of optimal values, dense where a position allows it;
//! - [`layers`]: the solver's table filled a stealth layer at a time from compiled programs;
//! - [`mod@solve`]: optimal play ([`Solver`]) and the optimal policy's figures;
//! - [`options`]: the values of a decision's options by canonical class, asked again and again;
//! - [`answers`]: the optimal strategy's answers by position, read without locks;
//! - [`optimal`]: the optimal strategy, a product of the solver;
//! - [`mod@decisions`]: a strategy's regret split over the decisions it makes (its own map inside);

mod answers;
mod budget;
pub mod decisions;
pub mod exact;
mod exact_layers;
mod expansion;
mod expectation;
mod ids;
pub mod key;
mod layers;
pub mod memo;
pub mod montecarlo;
pub mod optimal;
mod options;
pub mod paired;
mod play;
mod positions;
pub mod seed;
pub mod solve;

pub use budget::{BYTES_PER_STATE, Budget, Cancelled, Halt, TooLarge};
pub use decisions::{ByKind, DecisionKind, Decisions, Solved, decisions, decisions_of_each};
pub use exact::{exact, exact_limited, exact_within};
pub use expectation::{ExactRun, Expectation};
pub use memo::Keep;
pub use montecarlo::{Job, Tally, simulate};
pub use optimal::{OptimalStrategy, resolve};
pub use paired::{PairedJob, PairedTally, simulate_paired};
pub use play::{Observer, play_game, play_seeded};
pub use solve::{Solver, solve, solve_with_figures, solve_within};
