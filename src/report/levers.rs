//! The report's levers: each of the game's numbers moved one step from the printed game, its
//! effect on optimal play and on the reference strategy, biggest first — the designer's list
//! of knobs, in plain language.

use std::fmt::Write as _;

use crate::strategy::{OPTIMAL, REFERENCE};

use super::balance::{Balance, VariantRow};

/// What a parameter is, for a reader who has not seen the key (the core's one list).
pub fn meaning(key: &str) -> &'static str {
    crate::rules::Design::meaning(key).unwrap_or_default()
}

/// One lever at one stealth: a design parameter moved from its value in the default reading,
/// and what that does to optimal play and to the reference strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct Lever {
    /// The parameter's key.
    pub key: String,
    /// Its value in the default reading.
    pub printed: String,
    /// The value it is moved to.
    pub value: String,
    /// Optimal play's win probability with the change.
    pub optimal_win: f64,
    /// The change in optimal play's win probability (0–1).
    pub optimal: f64,
    /// The change in the reference strategy's exact win probability (0–1).
    pub reference: f64,
}

impl Lever {
    /// The lever in plain words, `stealth faces 3 → 4`: the key's words without the hyphens
    /// that join them on a command line.
    pub fn label(&self) -> String {
        format!(
            "{} {} → {}",
            self.key.replace('-', " "),
            self.printed,
            self.value
        )
    }

    /// The larger of its two effects, in size.
    pub fn size(&self) -> f64 {
        self.optimal.abs().max(self.reference.abs())
    }
}

/// Every lever at `stealth`, biggest effect on optimal play first (ties in `levers.csv`
/// order).
pub fn ranked(balance: &Balance, stealth: u8) -> Vec<Lever> {
    let default = balance.presets[0];
    let effect = |variant: &str, strategy: &str| -> Option<&VariantRow> {
        balance
            .levers
            .iter()
            .find(|r| r.variant == variant && r.strategy == strategy && r.stealth == stealth)
    };
    let mut ranked: Vec<Lever> = balance
        .levers
        .iter()
        .filter(|r| r.stealth == stealth && r.strategy == OPTIMAL && r.variant != "default")
        .filter_map(|o| {
            let reference = effect(&o.variant, REFERENCE)?;
            let (key, value) = o.variant.split_once('=').unwrap_or((&o.variant, ""));
            Some(Lever {
                key: key.to_string(),
                printed: default.design.get(key).unwrap_or_default(),
                value: value.to_string(),
                optimal_win: o.win_rate,
                optimal: o.effect,
                reference: reference.effect,
            })
        })
        .collect();
    ranked.sort_by(|a, b| b.optimal.abs().total_cmp(&a.optimal.abs()));
    ranked
}

/// The levers tied with the biggest, as a sentence (none without a tie).
fn tie(others: &[&Lever]) -> String {
    if others.is_empty() {
        return String::new();
    }
    let named: Vec<String> = others
        .iter()
        .map(|l| {
            format!(
                "**{}** {} → {} ({})",
                l.key,
                l.printed,
                l.value,
                pp(l.optimal)
            )
        })
        .collect();
    format!(
        " It ties, to the point shown, with {}.",
        super::ties::and(&named)
    )
}

/// An effect in percentage points, signed, one decimal (a tiny negative one reads +0.0).
pub fn pp(x: f64) -> String {
    format!("{:+.1}", (1e3 * x).round() / 10.0 + 0.0)
}

/// The "What would change the balance?" section of the report's README: every lever at the
/// middle headline stealth, ranked by its effect on optimal play, with the reference beside.
pub fn section(balance: &Balance) -> String {
    let mut md = String::new();
    if balance.levers.is_empty() {
        return md;
    }
    let mid = balance.mid();
    let default = balance.presets[0];
    let ranked = ranked(balance, mid);
    let _ = writeln!(
        md,
        "## What would change the balance? Levers\n\n\
         Each of the game's numbers (its design parameters, `docs/rules.md`) moved one step from \
         its value under `{default}`, everything else unchanged: the change in win \
         probability at starting stealth {mid}, in percentage points, for optimal play and for \
         the reference strategy (both exact). Biggest lever first; `levers.csv` has every \
         headline stealth. Try any change yourself with `raven explore --param KEY=VALUES`.\n"
    );
    let biggest = super::ties::tied(ranked.iter(), |l| pp(l.optimal.abs()));
    if let (Some(top), Some(optimal)) = (
        biggest.first(),
        balance
            .levers
            .iter()
            .find(|r| r.variant == "default" && r.strategy == OPTIMAL && r.stealth == mid),
    ) {
        let _ = writeln!(
            md,
            "The biggest lever is **{}** ({}): from {} to {} it moves optimal play \
             from {:.1}% to {:.1}% ({} points) and the reference strategy by {} points.{}\n",
            top.key,
            meaning(&top.key),
            top.printed,
            top.value,
            100.0 * optimal.win_rate,
            100.0 * top.optimal_win,
            pp(top.optimal),
            pp(top.reference),
            tie(&biggest[1..])
        );
    }
    let _ = writeln!(md, "![Levers, biggest first](levers.svg)\n");
    let _ = writeln!(
        md,
        "| lever | what it is | from → to | optimal (pp) | reference (pp) |\n|---|---|---|---:|---:|"
    );
    for l in &ranked {
        let _ = writeln!(
            md,
            "| `{}` | {} | {} → {} | {} | {} |",
            l.key,
            meaning(&l.key),
            l.printed,
            l.value,
            pp(l.optimal),
            pp(l.reference)
        );
    }
    let _ = writeln!(md);
    md
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Design;

    /// A report whose levers at stealth 10 move optimal play by `effects` (the reference by
    /// half as much), from 70%.
    fn balance(effects: &[(&str, f64)]) -> Balance {
        let row = |variant: &str, strategy: &str, effect: f64| VariantRow {
            variant: variant.to_string(),
            rules: String::new(),
            stealth: 10,
            strategy: strategy.to_string(),
            method: String::new(),
            win_rate: 0.7 + effect,
            default_win_rate: 0.7,
            effect,
            raven_version: "",
        };
        let mut levers = vec![row("default", OPTIMAL, 0.0), row("default", REFERENCE, 0.0)];
        for &(variant, effect) in effects {
            levers.push(row(variant, OPTIMAL, effect));
            levers.push(row(variant, REFERENCE, effect / 2.0));
        }
        Balance {
            exact_budget: 0,
            command: String::new(),
            presets: vec![crate::rules::MAIN_TEXT],
            strategies: Vec::new(),
            headline: vec![10],
            win_rates: Vec::new(),
            variants: Vec::new(),
            levers,
            decisions: Vec::new(),
            decisions_left_out: Vec::new(),
            watched: Vec::new(),
            rules_of_thumb: Vec::new(),
            quality: None,
            cards: Vec::new(),
        }
    }

    #[test]
    fn levers_that_print_alike_are_named_as_a_tie() {
        let tied = section(&balance(&[
            ("threshold=6", -0.54801),
            ("wound-faces=3", 0.54799),
            ("team-size=3", 0.1),
        ]));
        assert!(
            tied.contains(
                "The biggest lever is **threshold** (the die a check needs to succeed): from 5 \
                 to 6 it moves optimal play from 70.0% to 15.2% (-54.8 points) and the \
                 reference strategy by -27.4 points. It ties, to the point shown, with \
                 **wound-faces** 2 → 3 (+54.8)."
            ),
            "{tied}"
        );
        let alone = section(&balance(&[
            ("threshold=6", -0.548),
            ("wound-faces=3", 0.52),
        ]));
        assert!(alone.contains("by -27.4 points.\n"), "{alone}");
        assert!(!alone.contains("It ties"), "{alone}");
    }

    #[test]
    fn every_parameter_has_a_meaning() {
        for key in Design::keys() {
            assert!(!meaning(key).is_empty(), "{key}");
        }
    }
}
