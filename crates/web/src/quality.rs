//! The page's "Is it a good game?" figures, for both games: a strategy's luck and skill,
//! tension and length ([`raven_core::engine::generic::quality::Quality`]), sent under the
//! names of `raven quality --out`'s columns so the page and the command line read alike.

use raven_core::engine::generic::quality::Quality;
use serde_json::{Value, json};

/// Sampled games per strategy when the request names none: the sampled figures' intervals
/// are then within about a point, and a strategy's figures take seconds in the page.
pub const GAMES: u64 = 20_000;

/// The most sampled games the page takes: a million games take minutes in a browser tab.
pub const MAX_GAMES: u64 = 1_000_000;

pub fn games() -> u64 {
    GAMES
}

pub fn seed() -> u64 {
    raven_core::rows::DEFAULT_SEED
}

/// The message's error if `games` is not one the page samples.
pub fn games_fit(games: u64) -> Option<String> {
    (!(1..=MAX_GAMES).contains(&games))
        .then(|| format!("'{games}' is not a number of sampled games 1..={MAX_GAMES}"))
}

/// `q`'s figures under `raven quality`'s column names: the exact ones (win rate, skill loss,
/// means) and the sampled ones (luck's share, suspense, comebacks, heartbreaks, medians).
pub fn figures(q: &Quality) -> Value {
    let median = q.length_quantile(0.5);
    json!({
        "win_rate": q.figures.win,
        "skill_loss": q.skill_loss,
        "luck_share": q.luck_share(),
        "suspense": q.suspense(),
        "comeback_rate": q.comeback_rate().value,
        "heartbreak_rate": q.heartbreak_rate().value,
        "mean_rolls": q.figures.rolls,
        "mean_decisions": q.figures.decisions,
        "meaningful_decisions": q.meaningful[0],
        "rolls_median": median[0],
        "decisions_median": median[1],
    })
}
