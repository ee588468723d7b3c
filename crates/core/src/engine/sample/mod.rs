//! Monte Carlo: games played with dice, one strategy's or several strategies' on the same
//! games, the same figures whatever the thread count.
//!
//! - [`seed`]: each game's random streams;
//! - [`play`]: the loop that plays one game, shared by every sampling engine;
//! - [`montecarlo`]: sampled games of one strategy;
//! - [`paired`]: several strategies sampled on the same games.

pub mod montecarlo;
pub mod paired;
mod play;
pub mod seed;

pub use play::{Observer, play_game, play_seeded};
