//! The decomposition's figures summed by kind of decision ([`crate::game::DecisionKind`]): the
//! regret, how often each kind arises with a real choice, and how often that choice matters.

use serde::{Deserialize, Serialize};

use crate::game::KINDS;

/// A choice *matters* when its best and worst options differ by more than this (one point of
/// win probability).
pub const MATTERS: f64 = 0.01;

/// The decomposition's figures per decision kind, in [`crate::game::DecisionKind::ALL`] order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ByKind {
    /// Win probability lost at decisions of this kind (0–1), against optimal play.
    pub regret: [f64; KINDS],
    /// Decisions of this kind with more than one legal option, per game.
    pub arises: [f64; KINDS],
    /// Of those, per game, the ones whose best and worst options differ by more than
    /// [`MATTERS`].
    pub matters: [f64; KINDS],
    /// Decisions per game, of every kind, whose best and worst options differ by at least
    /// [`MEANINGFUL`](crate::engine::generic::evaluate::MEANINGFUL)`[i]` (1 point, and 5): the
    /// count every game's quality figures share.
    #[serde(default)]
    pub meaningful: [f64; 2],
}

impl ByKind {
    /// Adds `other`'s figures, kind by kind.
    pub(super) fn add(&mut self, other: &ByKind) {
        for (sums, others) in [
            (&mut self.regret, &other.regret),
            (&mut self.arises, &other.arises),
            (&mut self.matters, &other.matters),
        ] {
            for (sum, other) in sums.iter_mut().zip(others) {
                *sum += other;
            }
        }
        for (sum, other) in self.meaningful.iter_mut().zip(other.meaningful) {
            *sum += other;
        }
    }
}

/// Whether a decision whose best and worst options are worth `best` and `worst` matters.
pub(super) fn matters(best: f64, worst: f64) -> bool {
    best - worst > MATTERS
}
