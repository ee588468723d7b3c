//! The report's levers: each of the game's numbers moved one step from the printed game, its
//! effect on optimal play and on the reference strategy, biggest first — the designer's list
//! of knobs, in plain language.

use std::fmt::Write as _;

use crate::rules::MAIN_TEXT;
use crate::strategy::{OPTIMAL, REFERENCE};

use super::balance::{Balance, VariantRow};

/// What a parameter is, for a reader who has not seen the key.
fn meaning(key: &str) -> &'static str {
    match key {
        "team-size" => "the team's largest size",
        "recruit-checks" => "successful checks a recruitment needs (`team`: the team's size)",
        "run-challenges" => "challenges in the run",
        "first-aid-after-run" => "first aid after each run challenge",
        "tough-challenges" => "Tough Challenges in the finale",
        "side-challenges" => "side challenges before each Tough Challenge",
        "first-aid-after-tough" => "first aid after each Tough success",
        "specialist-dice" => "dice for a check of one's own speciality",
        "base-dice" => "dice for any other check",
        "threshold" => "the die a check needs to succeed",
        "eased-threshold" => "the Tough check's threshold after enough side successes",
        "side-successes-to-ease" => "side successes that ease the Tough check",
        "finale-penalty" => "the finale character's penalty",
        "wound-faces" => "faces that wound (from 1 up)",
        "stealth-faces" => "faces that cost stealth (above the wounding ones)",
        _ => "",
    }
}

/// The "What would change the balance?" section of the report's README: every lever at the
/// middle headline stealth, ranked by its effect on optimal play, with the reference beside.
pub fn section(balance: &Balance) -> String {
    let mut md = String::new();
    if balance.levers.is_empty() {
        return md;
    }
    let mid = balance.headline[balance.headline.len() / 2];
    let effect = |variant: &str, strategy: &str| -> Option<&VariantRow> {
        balance
            .levers
            .iter()
            .find(|r| r.variant == variant && r.strategy == strategy && r.stealth == mid)
    };
    let mut ranked: Vec<(&VariantRow, &VariantRow)> = balance
        .levers
        .iter()
        .filter(|r| r.stealth == mid && r.strategy == OPTIMAL && r.variant != "default")
        .filter_map(|o| Some((o, effect(&o.variant, REFERENCE)?)))
        .collect();
    ranked.sort_by(|a, b| b.0.effect.abs().total_cmp(&a.0.effect.abs()));
    let pp = |x: f64| format!("{:+.1}", (1e3 * x).round() / 10.0 + 0.0);
    let change = |row: &VariantRow| {
        let (key, value) = row.variant.split_once('=').unwrap_or((&row.variant, ""));
        let printed = MAIN_TEXT.design.get(key).unwrap_or_default();
        (key.to_string(), printed, value.to_string())
    };
    let _ = writeln!(
        md,
        "## What would change the balance? Levers\n\n\
         Each of the game's numbers (its design parameters, `docs/rules.md`) moved one step from \
         the printed game under `main-text`, everything else as printed: the change in win \
         probability at starting stealth {mid}, in percentage points, for optimal play and for \
         the reference strategy (both exact). Biggest lever first; `levers.csv` has every \
         headline stealth. Try any change yourself with `raven explore --param KEY=VALUES`.\n"
    );
    if let (Some((top, top_reference)), Some(optimal)) = (
        ranked.first(),
        balance
            .levers
            .iter()
            .find(|r| r.variant == "default" && r.strategy == OPTIMAL && r.stealth == mid),
    ) {
        let (key, printed, value) = change(top);
        let _ = writeln!(
            md,
            "The biggest lever is **{key}** ({}): from {printed} to {value} it moves optimal play \
             from {:.1}% to {:.1}% ({} points) and the reference strategy by {} points.\n",
            meaning(&key),
            100.0 * optimal.win_rate,
            100.0 * top.win_rate,
            pp(top.effect),
            pp(top_reference.effect)
        );
    }
    let _ = writeln!(
        md,
        "| lever | what it is | printed → new | optimal (pp) | reference (pp) |\n|---|---|---|---:|---:|"
    );
    for (optimal, reference) in &ranked {
        let (key, printed, value) = change(optimal);
        let _ = writeln!(
            md,
            "| `{key}` | {} | {printed} → {value} | {} | {} |",
            meaning(&key),
            pp(optimal.effect),
            pp(reference.effect)
        );
    }
    let _ = writeln!(md);
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Design;

    #[test]
    fn every_parameter_has_a_meaning() {
        for key in Design::keys() {
            assert!(!meaning(key).is_empty(), "{key}");
        }
    }
}
