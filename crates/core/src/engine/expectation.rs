//! What an exact engine computes for a position: the exact counterpart of a Monte Carlo
//! [`Tally`](super::Tally).

use serde::{Deserialize, Serialize};

use crate::game::{LossCause, Outcome, State};

/// Exact probabilities and expectations of the same quantities a [`Tally`](super::Tally) counts.
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

impl Expectation {
    /// The mean team size entering the run, over the games that reach it (0 when none do):
    /// the figure every output prints.
    pub fn mean_team_at_run(&self) -> f64 {
        if self.reached_run > 0.0 {
            self.team_at_run / self.reached_run
        } else {
            0.0
        }
    }
}

/// The functionals of a finished game, exactly as [`super::Tally::record`] counts them.
pub fn terminal(end: &State) -> Expectation {
    let outcome = end.outcome().expect("a terminal state is over");
    let mut e = Expectation::default();
    match outcome {
        Outcome::Win => e.win = 1.0,
        Outcome::Loss(cause) => e.losses[cause as usize] = 1.0,
    }
    e.discovered = f64::from(u8::from(end.discovered()));
    e.stealth_left = f64::from(end.stealth());
    // The team never changes after phase 1, so its final size is its size entering the run.
    if outcome != Outcome::Loss(LossCause::Recruitment) {
        e.reached_run = 1.0;
        e.team_at_run = f64::from(end.team().len());
    }
    e.deaths = f64::from(end.deaths());
    e
}

/// `acc += weight · e`, field by field.
#[inline]
pub fn add_scaled(acc: &mut Expectation, e: &Expectation, weight: f64) {
    acc.win += weight * e.win;
    for (a, l) in acc.losses.iter_mut().zip(e.losses) {
        *a += weight * l;
    }
    acc.discovered += weight * e.discovered;
    acc.stealth_left += weight * e.stealth_left;
    acc.reached_run += weight * e.reached_run;
    acc.team_at_run += weight * e.team_at_run;
    acc.deaths += weight * e.deaths;
}

/// The result of [`exact`](super::exact()): one expectation per starting stealth, and the work it took.
#[derive(Clone, Debug)]
pub struct ExactRun {
    /// Per starting stealth, in the order asked.
    pub expectations: Vec<Expectation>,
    /// Positions evaluated (a replayed position once per stealth it is evaluated at).
    pub states: usize,
}

/// The value of a chance point whose outcomes name characters, from its `(value, weight)`
/// terms: summed in order of value, not of outcome. Relabelling a position permutes such
/// outcomes, so in outcome order two positions of one class would round differently; in
/// value order every member of a class gets the same bits.
pub(super) fn sum_in_value_order(terms: &mut [(f64, f64)]) -> f64 {
    terms.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    terms.iter().map(|(v, p)| p * v).sum()
}
