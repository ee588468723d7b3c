//! Engines that drive the one state machine of [`crate::game`]: Monte Carlo sampling, exact
//! expectation of a strategy ([`mod@exact`]) and optimal play ([`mod@solve`]).

mod answers;
mod budget;
pub mod decisions;
pub mod exact;
mod exact_layers;
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
pub mod reach;
pub mod seed;
pub mod solve;
mod successors;
pub mod tune;
pub mod walk;

pub use budget::{BYTES_PER_STATE, Budget, Cancelled, Halt, TooLarge};
pub use decisions::{
    ByKind, DecisionKind, Decisions, Engine, Solved, Terms, decisions, decisions_by,
    decisions_of_each, decisions_with,
};
pub use exact::{exact, exact_limited, exact_within};
pub use expectation::{ExactRun, Expectation};
pub use memo::Keep;
pub use montecarlo::{Job, Tally, simulate};
pub use optimal::{OptimalStrategy, resolve};
pub use paired::{PairedJob, PairedTally, simulate_paired};
pub use play::{Observer, play_game, play_seeded};
pub use solve::{Solver, solve, solve_with_figures, solve_within};
pub use walk::{Exact, Figures, Measure};
