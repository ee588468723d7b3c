//! The random strategy: every decision uniformly among the legal options. It exercises every
//! branch of the rules.

use crate::game::{Decision, State};
use crate::rules::Rules;

use super::{Choice, Known, Sight, Strategy};

/// Chooses uniformly among the legal options at every decision point.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomStrategy;

impl Strategy for RandomStrategy {
    fn name(&self) -> &str {
        super::RANDOM
    }

    /// Uniform among the legal options, whatever the stealth.
    fn stealth_alike_from(&self) -> Option<u8> {
        Some(0)
    }

    fn known(&self) -> Known<'_> {
        Known::Random
    }

    #[inline(always)]
    fn decide(&self, _: &State, _: &Rules, _: Decision) -> Choice {
        Choice::Uniform
    }

    /// Uniform play treats every character alike and reads nothing the rules do not.
    fn sight(&self, _: &State, _: &Rules) -> Sight {
        Sight::RulesOnly {
            second_side_type: false,
        }
    }
}
