//! Engines that drive the one state machine of [`crate::game`]: Monte Carlo sampling, exact
//! expectation of a strategy ([`mod@exact`]) and optimal play ([`mod@solve`]).

mod answers;
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
pub mod reach;
pub mod seed;
pub mod solve;
mod successors;

pub use decisions::{
    ByKind, DecisionKind, Decisions, Engine, Solved, Terms, decisions, decisions_by,
    decisions_of_each, decisions_with,
};
pub use exact::{
    BYTES_PER_STATE, Budget, Exact, ExactRun, Figures, Halt, Measure, TooLarge, exact,
    exact_limited, exact_within,
};
pub use expectation::Expectation;
pub use montecarlo::{Cancelled, Job, Tally, simulate};
pub use optimal::{OptimalStrategy, resolve};
pub use paired::{PairedJob, PairedTally, simulate_paired};
pub use play::{Observer, play_game, play_seeded};
pub use solve::{Keep, Solver, solve, solve_with_figures, solve_within};
