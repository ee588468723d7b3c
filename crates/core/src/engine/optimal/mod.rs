//! Optimal play: the highest win probability any strategy can reach, its policy's figures, and
//! the optimal policy as a strategy.
//!
//! - [`memo`]: the solver's table of optimal values, dense where a position allows it;
//! - [`layers`]: the table filled a stealth layer at a time from compiled programs (a position
//!   the table lacks is filled the same way), with the optimal policy's figures;
//! - [`mod@solve`]: the solver ([`Solver`]): a solve split into parts that never meet, the
//!   values and figures from the start of a game, a decision's options;
//! - [`options`]: the values of a decision's options by canonical class, asked again and again;
//! - [`strategy`]: the optimal policy ([`crate::strategy::optimal`]) with its values from the
//!   solver ([`OptimalStrategy`]).

mod layers;
pub mod memo;
mod options;
pub mod solve;
mod strategy;

pub use solve::Solver;
pub use strategy::{OptimalStrategy, SolverPolicy, Solvers, Table, resolve};
