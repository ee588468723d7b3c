//! Engines for any game of [`crate::games`]: they drive a game through the [`Game`](crate::games::Game) interface
//! and know nothing of its rules.
//!
//! - [`program`]: the one compiler, positions to a layered program of weighted sums;
//! - `step`: what a compiled row's branches lead to, stepped on every thread;
//! - [`settle`]: values settled layer by layer, cycles inside a layer to their fixed point;
//! - [`solve`](mod@solve): optimal play (the best option at every decision), option values, the policy;
//! - [`figures`]: a policy's figures, replayed from a program;
//! - [`evaluate`](mod@evaluate): a strategy's exact figures and its regret by kind of decision;
//! - `late`: the parts of rolls a strategy ignores until the rules read them, rolled then;
//! - [`sample`]: Monte Carlo, each game its own seeded stream;
//! - [`distributions`]: a strategy's figures over all its games (spreads, comebacks, where
//!   games are decided, lengths), exactly;
//! - [`quality`]: luck and skill, tension and length, from optimal play's value along games;
//! - [`ledger`]: one game's luck and skill, step by step.
//!
//! Exact answers where play can return to a position: values start at 0 and every sweep of a
//! layer can only raise them (sums and maxima of values with weights ≥ 0, rounding monotone
//! too), so the sweeps stop at a fixed point of the rounded sweep — the least fixed point within
//! rounding: for a strategy, its values; for the solve, optimal play's, where play that never
//! ends counts as lost.

pub mod distributions;
pub mod evaluate;
pub mod figures;
mod late;
pub mod ledger;
pub mod program;
pub mod quality;
pub mod sample;
pub mod settle;
pub mod solve;
mod step;

use crate::engine::Budget;

pub use evaluate::{Regret, evaluate, evaluate_from, regret};
pub use figures::Figures;
pub use program::{Program, Rule};
pub use sample::{Tally, simulate, simulate_range};
pub use solve::{OptimalPolicy, Optimum, Solved, solve};

/// Why an engine stopped without an answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Stop {
    /// A signal asked it to stop.
    #[error("interrupted")]
    Cancelled,
    /// The positions would not fit in the memory allowed.
    #[error(
        "this needs more memory than allowed ({}): {} — raise --max-memory if the machine has it, or sample it (Monte Carlo)",
        size(*allowed),
        needs.map_or("more than that".to_string(), |n| format!("about {} at most", size(n)))
    )]
    TooLarge {
        /// What the game says the whole run may take, if it can tell.
        needs: Option<u64>,
        /// What was allowed.
        allowed: u64,
    },
    /// A strategy whose play can go on for ever from a position it reaches.
    #[error(
        "the strategy '{strategy}' can play for ever without the game ending (from {position}): no exact figure exists"
    )]
    Endless {
        /// The strategy.
        strategy: String,
        /// A position it never leaves, as the game prints it.
        position: String,
    },
}

fn size(bytes: u64) -> String {
    const MIB: f64 = (1u64 << 20) as f64;
    let b = bytes as f64;
    if b < 1024.0 * MIB {
        format!("{:.0} MiB", b / MIB)
    } else {
        format!("{:.1} GiB", b / (1024.0 * MIB))
    }
}

fn check_cancel(budget: &Budget<'_>) -> Result<(), Stop> {
    budget.check_cancel().map_err(|_| Stop::Cancelled)
}
