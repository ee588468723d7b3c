//! The page's "Is it a good game?" figures, for both games: a strategy's luck and skill,
//! tension and length ([`raven_core::engine::generic::quality::Quality`]), sent under the
//! names of `raven quality --out`'s columns so the page and the command line read alike.

use raven_core::engine::generic::quality::Quality;
use serde_json::{Value, json};

/// The seed of a game the page plays when the request names none: the command line's.
pub fn seed() -> u64 {
    raven_core::rows::DEFAULT_SEED
}

/// `q`'s figures under `raven quality`'s column names, every one exact.
pub fn figures(q: &Quality) -> Value {
    let median = q.length_quantile(0.5);
    json!({
        "win_rate": q.figures.win,
        "skill_loss": q.skill_loss,
        "luck_share": q.luck_share(),
        "suspense": q.suspense(),
        "comeback_rate": q.comeback_rate(),
        "heartbreak_rate": q.heartbreak_rate(),
        "mean_rolls": q.figures.rolls,
        "mean_decisions": q.figures.decisions,
        "meaningful_decisions": q.meaningful[0],
        "rolls_median": median[0],
        "decisions_median": median[1],
    })
}
