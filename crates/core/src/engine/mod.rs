//! Engines that drive the one state machine of [`crate::game`]. Read top-down: what every
//! exact engine shares, then each engine (each folder has its own map).
//!
//! - [`budget`]: the limits an exact run works under, and why one stops early;
//! - [`expectation`]: what an exact engine computes for a position ([`Expectation`]);
//! - [`expansion`]: what a chance point leads to, for every exact engine;
//! - [`key`]: a strategy's positions keyed as it sees them;
//! - [`ids`]: dense local ids of compiled positions by key;
//! - [`positions`]: which positions an exact traversal stores and which it plays through;
//! - [`program`]: the one instruction language both layered compilers emit, replayed at every
//!   stealth of a class;
//! - [`sample`]: Monte Carlo — each game's seeded streams, the loop that plays one game,
//!   one strategy's games, several strategies on the same games;
//! - [`mod@exact`]: a strategy's exact figures from programs compiled per stealth class and
//!   replayed layer by layer, and the reverse pass that reaches its decisions;
//! - [`optimal`]: optimal play — the solver's table, filled layer by layer, the optimal
//!   policy's figures, and the optimal strategy;
//! - [`mod@decisions`]: a strategy's regret split over the decisions it makes.

mod budget;
pub mod decisions;
pub mod exact;
mod expansion;
mod expectation;
pub mod generic;
mod ids;
pub mod key;
pub mod optimal;
mod positions;
mod program;
pub mod sample;

pub use optimal::{memo, solve};
pub use sample::{montecarlo, paired, seed};

pub use budget::{BYTES_PER_STATE, Budget, Cancelled, Halt, TooLarge};
pub use decisions::{ByKind, Decisions, Solved, decisions, decisions_of_each};
pub use exact::{exact, exact_within};
pub use expectation::{ExactRun, Expectation};
pub use optimal::memo::Keep;
pub use optimal::solve::{Solver, solve, solve_with_figures, solve_within};
pub use optimal::{OptimalStrategy, SolverPolicy, Solvers, resolve};
pub use sample::montecarlo::{Job, Tally, simulate};
pub use sample::paired::{PairedJob, PairedTally, simulate_paired};
pub use sample::{Observer, play_game, play_seeded};
