//! Engines that drive the one state machine of [`crate::game`]: Monte Carlo sampling here,
//! exact expectation and optimal play in their own modules.

pub mod montecarlo;
pub mod paired;
mod play;
pub mod seed;

pub use montecarlo::{Cancelled, Job, Tally, simulate};
pub use paired::{PairedJob, PairedTally, simulate_paired};
pub use play::{Observer, play_game, play_seeded};
