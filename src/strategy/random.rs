//! The random strategy: every decision uniformly among the legal options. It exercises every
//! branch of the rules.

use crate::game::{Decision, State};
use crate::rules::Rules;

use super::{Choice, Strategy};

/// Chooses uniformly among the legal options at every decision point.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomStrategy;

impl Strategy for RandomStrategy {
    fn name(&self) -> &str {
        "random"
    }

    fn decide(&self, _: &State, _: &Rules, _: Decision) -> Choice {
        Choice::Uniform
    }

    fn counters(&self, _: &State) -> (u8, u8) {
        (0, 0)
    }
}
