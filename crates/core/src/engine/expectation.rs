//! What an exact engine computes for a position: the exact counterpart of a Monte Carlo
//! [`Tally`](super::Tally).

use serde::{Deserialize, Serialize};

/// Exact probabilities and expectations of the same quantities a [`Tally`] counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Expectation {
    /// P(win).
    pub win: f64,
    /// P(loss) by cause, in [`LossCause::ALL`] order.
    pub losses: [f64; 4],
    /// P(stealth reaches 0).
    pub discovered: f64,
    /// E[stealth at the end].
    pub stealth_left: f64,
    /// P(the run is reached).
    pub reached_run: f64,
    /// E[team size entering the run · 1{run reached}].
    pub team_at_run: f64,
    /// E[dead members at the end].
    pub deaths: f64,
}
