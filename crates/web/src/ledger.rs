//! One game as optimal play's win probability `μ` saw it, for the page's small chart: `μ` at
//! the start and after every roll and decision, as `raven play`'s ledger reads it (the
//! solved table's value of each position; at the end, the result).

use raven_core::engine::generic::quality::Step;
use serde_json::{Value, json};

/// The message's fields: `start`, `steps` (`{"roll", "mu"}` each) and the result.
pub fn fields(start: f64, steps: &[Step], won: bool) -> Value {
    let steps: Vec<Value> = steps
        .iter()
        .map(|s| json!({"roll": s.chance, "mu": s.mu}))
        .collect();
    json!({"start": start, "steps": steps, "won": won})
}
