//! "What a player should do": the best strategy file among the bundled ones under the report's
//! rules (the `tuned` files are `raven tune`'s winners), told as advice a person can follow,
//! its win probabilities beside optimal play and the reference, and where it still falls short
//! of optimal play. Every sentence is computed from the report's numbers and the file's knobs.

use std::fmt::Write as _;

use crate::engine::{Budget, Halt};
use crate::game::DecisionKind;
use crate::rules::Rules;
use crate::strategy::file::Spec;
use crate::strategy::{OPTIMAL, REFERENCE, bundled, bundled_source};
use crate::tune::{KNOBS, Knob, Point, Sensitivity, Task, knob_costs};

use super::balance::{Balance, exact_of};
use super::decisions::losses;

/// The file the report writes beside its README: the text of the strategy the section
/// recommends under the default reading.
pub const FILE: &str = "tuned.toml";

/// The bundled file of knobs with the highest mean exact win probability over the headline
/// stealths under `rules` (reference, strategies without a file and the rule cards aside:
/// the cards are [`super::card::cards`]'), if any.
pub fn best_file(balance: &Balance, rules: Rules) -> Option<(&str, f64)> {
    let mut best: Option<(&str, f64)> = None;
    for name in &balance.strategies {
        let knobs_only = bundled(name).is_some_and(|f| f.is_ok_and(|f| f.spec().card.is_empty()));
        if name == REFERENCE || !knobs_only {
            continue;
        }
        let values: Option<Vec<f64>> = balance
            .headline
            .iter()
            .map(|&s| exact_of(balance, name, rules, s).map(|x| x.win_rate))
            .collect();
        let Some(values) = values else { continue };
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        if best.is_none_or(|(_, b)| mean > b) {
            best = Some((name, mean));
        }
    }
    best
}

/// The text of [`FILE`]: the recommended strategy's file as bundled, if there is one.
pub fn file_text(balance: &Balance) -> Option<String> {
    let (name, _) = best_file(balance, balance.presets[0])?;
    bundled_source(name)?.ok().map(|(_, text)| text)
}

/// The section, or `None` when no bundled file was evaluated exactly.
pub fn section(balance: &Balance) -> Option<String> {
    let default = balance.presets[0];
    let (name, _) = best_file(balance, default)?;
    let spec = bundled(name)?.ok()?.spec().clone();
    let mid = balance.mid();
    let win = |who: &str, rules: Rules, s: u8| exact_of(balance, who, rules, s).map(|x| x.win_rate);
    let mut md = String::new();
    let _ = writeln!(md, "## What a player should do\n");
    let stealths: Vec<String> = balance.headline.iter().map(u8::to_string).collect();
    let _ = writeln!(
        md,
        "The best strategy a person can follow that raven knows under {default} is `{name}`: \
         a strategy file ([`{FILE}`]({FILE}) in this directory) whose every knob is a rule of \
         thumb. In words, the most valuable first, each with what breaking it costs: the points \
         of win probability (mean over stealth {}) lost by the knob's best other setting, as \
         `raven tune` measures them:\n",
        stealths.join(", ")
    );
    for line in advice(&spec, &balance.rules_of_thumb) {
        let _ = writeln!(md, "- {line}");
    }
    if let Some(sentence) = reconciled(balance, name, &spec) {
        let _ = writeln!(md, "\n{sentence}");
    }
    let _ = writeln!(md);
    // Its win probabilities beside optimal play and the reference, under each preset, with
    // the best file of the other presets where it differs.
    let mut rows: Vec<String> = vec![OPTIMAL.to_string(), name.to_string()];
    for &rules in &balance.presets[1..] {
        if let Some((other, _)) = best_file(balance, rules)
            && !rows.iter().any(|r| r == other)
        {
            rows.push(other.to_string());
        }
    }
    rows.push(REFERENCE.to_string());
    let (header, rule) = balance.table_head();
    let _ = writeln!(md, "Exact win probability:\n\n{header}\n{rule}");
    for row in &rows {
        let mut line = format!("| {row} |");
        for &rules in &balance.presets {
            for &st in &balance.headline {
                let cell =
                    win(row, rules, st).map_or("—".into(), |w| format!("{:.1}%", 100.0 * w));
                let _ = write!(line, " {cell} |");
            }
        }
        let _ = writeln!(md, "{line}");
    }
    let _ = writeln!(md);
    // "3.7 points at stealth 8, 3.6 at 10 and 3.6 at 12".
    let gaps = |who: &str, rules: Rules| -> String {
        let gaps: Vec<String> = balance
            .headline
            .iter()
            .filter_map(|&s| {
                let gap = win(OPTIMAL, rules, s)? - win(who, rules, s)?;
                Some(format!("{:.1}", 100.0 * gap))
            })
            .collect();
        let mut text = String::new();
        for (i, (gap, s)) in gaps.iter().zip(&balance.headline).enumerate() {
            text += &match i {
                0 => format!("{gap} points at stealth {s}"),
                i if i + 1 == gaps.len() => format!(" and {gap} at {s}"),
                _ => format!(", {gap} at {s}"),
            };
        }
        text
    };
    if let (Some(o), Some(n), Some(r)) = (
        win(OPTIMAL, default, mid),
        win(name, default, mid),
        win(REFERENCE, default, mid),
    ) {
        let _ = write!(
            md,
            "Under {default} it wins {:.1} points more than the reference at stealth {mid}, \
             and optimal play wins {:.1}%: the rules of thumb stay short of it by {}.",
            100.0 * (n - r),
            100.0 * o,
            gaps(name, default),
        );
    }
    if let Some(told) = balance
        .decisions
        .iter()
        .find(|d| d.strategy == name && d.rules == default)
        .and_then(|d| d.at(mid))
    {
        let lost = losses(told);
        if !lost.is_empty() {
            let _ = write!(
                md,
                " Where it still loses against optimal play at stealth {mid} (points, share of \
                 the gap): {}.",
                lost.join(", ")
            );
        }
    }
    for &rules in &balance.presets[1..] {
        if let Some((other, _)) = best_file(balance, rules).filter(|(o, _)| *o != name) {
            let _ = write!(
                md,
                " Under {rules} the best file is `{other}`, short of optimal play by {}.",
                gaps(other, rules)
            );
        }
    }
    let _ = writeln!(
        md,
        "\n\n`raven tune` searches the knobs again under other rules or stealths, and prints \
         each knob's cost (the rules of thumb in the order they matter); `raven decisions \
         --strategy {name}` lists the positions where it loses most.\n"
    );
    Some(md)
}

/// A rule of the file that optimal play breaks most of the time, reconciled: the file gives
/// first aid at every chance where optimal play skips most chances, because a rule of thumb
/// cannot tell the chances apart; what that costs is the file's regret at first aid.
fn reconciled(balance: &Balance, name: &str, spec: &Spec) -> Option<String> {
    let p = Point::of(spec);
    if p.value("first_aid.when") != "always" {
        return None;
    }
    let mid = balance.mid();
    let skipped = balance
        .watched
        .iter()
        .find(|w| w.stealth == mid)?
        .optimal
        .aid_skip_rate();
    if skipped <= 0.5 {
        return None;
    }
    let told = balance
        .decisions
        .iter()
        .find(|d| d.strategy == name && d.rules == balance.presets[0])?
        .at(mid)?;
    let at_aid = told.by_kind.regret[DecisionKind::FirstAid as usize];
    let when = balance
        .rules_of_thumb
        .iter()
        .find(|s| KNOBS[s.knob].name() == "first_aid.when")
        .and_then(|s| s.alternative.as_ref())
        .map_or(String::new(), |(other, cost)| {
            let knob = KNOBS
                .iter()
                .position(|k| k.name() == "first_aid.when")
                .expect("a knob");
            let instead = rule(&p.with(knob, other), &KNOBS[knob]);
            let instead = instead
                .split_once(": ")
                .map_or(instead.as_str(), |(_, r)| r);
            format!(
                " (the rule to {instead} costs {:.1} points more)",
                100.0 * cost
            )
        });
    Some(format!(
        "Optimal play skips {:.0}% of its chances to give first aid at stealth {mid} (*What \
         does optimal play do?*), yet the rule is to give it at every chance: optimal play \
         weighs each chance against the position, which no rule of thumb can, and giving it \
         always is the best the file's rules can do{when}. Its first-aid decisions cost it {:.1} \
         points against optimal play at stealth {mid} (its shortfall at first aid below).",
        100.0 * skipped,
        100.0 * at_aid,
    ))
}

/// `n` `what`, plural as needed.
fn count(n: &str, what: &str) -> String {
    if n == "1" {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Who a roller knob names.
fn roller(value: &str) -> &'static str {
    if value == "least-wounded" {
        "the least wounded member who may roll"
    } else {
        "the specialist of the type when there is one, else the least wounded"
    }
}

/// Who a `spare` knob keeps out of the rolls, as a clause (`None` for `none`).
fn spare(value: &str) -> Option<String> {
    let (who, own) = match value {
        "main" => ("the main character", false),
        "finale" => ("the intended finale character", false),
        "main-except-own" => ("the main character", true),
        "finale-except-own" => ("the intended finale character", true),
        _ => return None,
    };
    let except = if own {
        " (but for those of their own speciality)"
    } else {
        ""
    };
    Some(format!(
        "{who} rolls them only when no one else can{except}"
    ))
}

/// The part of the game a knob's section is about, as the advice names it.
fn part(section: &str) -> &'static str {
    match section {
        "main" => "Main character",
        "recruit" => "Team",
        "run" => "Run",
        "first_aid" => "First aid",
        "finale" => "Tough Challenges",
        "side" => "Side challenges",
        _ => "Substitute",
    }
}

/// One knob of a strategy file as a rule a person can follow: `**part**: sentence`. Knobs
/// without words of their own say what they decide and their value.
pub fn rule(p: &Point, knob: &Knob) -> String {
    let k = |key: &str| p.value(key);
    let v = k(&knob.name());
    let floor = |n: &str, below: &str, otherwise: &str| {
        if n == "0" {
            otherwise.to_string()
        } else {
            format!("{below} {n}")
        }
    };
    let text = match knob.name().as_str() {
        "main.character" => match v {
            "first-target" => "the character who recruits your first target with 3 dice (the \
                               speciality of that target's complication)"
                .to_string(),
            "most-needed" => {
                "the character whose speciality is the complication of the most others".into()
            }
            "hardest-to-recruit" => {
                "the character whose complication is their own speciality".into()
            }
            "random" => "a character drawn at random".into(),
            speciality => format!("the {speciality}"),
        },
        "recruit.count" if v == "0" => "recruit nobody: play alone".into(),
        "recruit.count" => match p.items("recruit.order") {
            order if order.is_empty() => format!("recruit {}", count(v, "character")),
            order => format!(
                "recruit {}, preferring {}",
                count(v, "character"),
                order.join(", then ")
            ),
        },
        "recruit.order" => match p.items("recruit.order") {
            order if order.is_empty() => "recruit nobody".into(),
            order => format!("prefer {}", order.join(", then ")),
        },
        "recruit.easiest_first" if v == "true" => {
            "recruit first those whose complication someone in the team rolls with 3 dice".into()
        }
        "recruit.easiest_first" => "recruit in the order of preference".into(),
        "recruit.roller" => format!("recruitment checks are rolled by {}", roller(v)),
        "recruit.spare" | "run.spare" => {
            let what = if knob.section == "run" {
                "run challenges"
            } else {
                "recruitment checks"
            };
            spare(v).map_or_else(
                || format!("anyone able may roll {what}"),
                |who| who.replace("rolls them", &format!("rolls {what}")),
            )
        }
        "recruit.stealth_floor" => {
            floor(v, "stop recruiting below stealth", "recruit at any stealth")
        }
        "recruit.stop_at_wounds" if v == "0" => "recruit however wounded the team".into(),
        "recruit.stop_at_wounds" => {
            format!(
                "stop recruiting once the team carries {}",
                count(v, "wound")
            )
        }
        "recruit.stop_after_failures" if v == "0" => {
            "never give up a target after failed checks".into()
        }
        "recruit.stop_after_failures" => format!(
            "give up a target after {} in a row",
            count(v, "failed check")
        ),
        "run.roller" => format!("each run challenge is rolled by {}", roller(v)),
        "run.pick_on_six" => format!(
            "on a 6, pick {}",
            match v {
                "lowest-able" => "the speciality of the lowest-numbered able member",
                "least-wounded" => "the speciality of the least wounded member who may roll",
                "main" => "the main character's speciality",
                speciality => speciality,
            }
        ),
        "first_aid.when" => match v {
            "never" => "never give first aid".to_string(),
            "incapacitated" => "give first aid only to the incapacitated".into(),
            _ => "give first aid at every chance".into(),
        },
        "first_aid.phases" => match p.items("first_aid.phases") {
            phases if phases.is_empty() => "give first aid in no phase".into(),
            phases => {
                let phases: Vec<&str> = phases
                    .iter()
                    .map(|p| match p.as_str() {
                        "recruitment" => "recruitment",
                        "run" => "the run",
                        _ => "the finale",
                    })
                    .collect();
                format!("give first aid in {}", phases.join(", "))
            }
        },
        "first_aid.stealth_floor" => floor(
            v,
            "give first aid only while stealth is at least",
            "give first aid at any stealth",
        ),
        "first_aid.wounded_floor" => floor(
            v,
            "treat the merely wounded only while stealth is at least",
            "treat the merely wounded at any stealth",
        ),
        "first_aid.patient" => match v {
            "finale-first" => {
                "treat the finale character first, else the incapacitated first".to_string()
            }
            "lowest-number" => "treat the lowest-numbered member who needs it".into(),
            _ => "treat the incapacitated first".into(),
        },
        "first_aid.giver" => match v {
            "self-first" => "patients treat themselves when able, else the medic".to_string(),
            "least-wounded" => "the least wounded able member gives first aid".into(),
            _ => "the medic gives first aid when able, else the patient".into(),
        },
        "first_aid.finale_gives" => match v {
            "never" => "the finale character never gives first aid in the finale".into(),
            "undiscovered" => {
                "the finale character gives first aid in the finale only while undiscovered".into()
            }
            _ => "the finale character gives first aid in the finale too".into(),
        },
        "finale.character" => format!(
            "taken by {}",
            match v {
                "main" => "the main character".to_string(),
                "main-if-healthy" => {
                    "the main character if healthy, else the least wounded".into()
                }
                "least-wounded" => "the least wounded able member".into(),
                speciality => format!("the {speciality}"),
            }
        ),
        "side.attempt" => match v {
            "always" => "try every side challenge someone may roll".to_string(),
            "never" => "pass every side challenge".into(),
            _ => "try a side challenge when someone who may roll has its speciality".into(),
        },
        "side.pass_types" => match p.items("side.pass_types") {
            passed if passed.is_empty() => "pass no type of side challenge on sight".into(),
            passed => format!("always pass {} side challenges", passed.join(", ")),
        },
        "side.roller" => format!("side challenges are rolled by {}", roller(v)),
        "side.max_attempts" => format!("{} at most at a side challenge", count(v, "attempt")),
        "side.stealth_floor" => floor(
            v,
            "try side challenges only while stealth is at least",
            "try side challenges at any stealth",
        ),
        "side.second_success" if v == "false" => {
            "after one side challenge succeeds, pass the second".into()
        }
        "side.second_success" => "after one side challenge succeeds, try the second too".into(),
        "side.finale_may_roll" if v == "false" => {
            "the finale character never rolls side challenges".into()
        }
        "side.finale_may_roll" => "the finale character may roll side challenges".into(),
        "side.anyone_last" | "side.anyone_last_discovered" => {
            let when = if knob.key == "anyone_last" {
                ""
            } else {
                " once discovered"
            };
            match v {
                "0" => format!("at no Tough Challenge{when} does anyone try side challenges"),
                "1" => format!(
                    "at the last Tough Challenge{when}, anyone who may roll tries the side \
                     challenges"
                ),
                n => format!(
                    "at the last {n} Tough Challenges{when}, anyone who may roll tries the side \
                     challenges"
                ),
            }
        }
        "side.anyone_until" if v == "1" => {
            "anyone tries side challenges only until one succeeds".into()
        }
        "side.anyone_until" => {
            format!("anyone tries side challenges only while fewer than {v} have succeeded")
        }
        _ => format!("{}: {}", knob.what, v.trim_matches('"')),
    };
    format!("**{}**: {text}", part(knob.section))
}

/// The knobs worth a line of their own: a rule of thumb whose best other value costs at least
/// this much (0–1) is one a player should know; the others are named together.
const WORTH_A_LINE: f64 = 1e-3;

/// The strategy's rules of thumb as advice, the most valuable first: one line per knob whose
/// best other value costs at least [`WORTH_A_LINE`], with that cost in points (`costs`:
/// `raven tune`'s sensitivities of the file, costliest first), then one line naming the
/// knobs that matter less. Without `costs`, every knob's rule in file order.
pub fn advice(spec: &Spec, costs: &[Sensitivity]) -> Vec<String> {
    let p = Point::of(spec);
    if costs.is_empty() {
        return KNOBS.iter().map(|knob| rule(&p, knob)).collect();
    }
    let mut lines = Vec::new();
    let mut minor = Vec::new();
    for s in costs {
        let knob = &KNOBS[s.knob];
        match s.alternative {
            Some((_, cost)) if cost >= WORTH_A_LINE => {
                lines.push(format!(
                    "{} — **{:.1} points** (`{}`).",
                    rule(&p, knob),
                    100.0 * cost,
                    knob.name()
                ));
            }
            _ => minor.push(format!("`{}`", knob.name())),
        }
    }
    if !minor.is_empty() {
        lines.push(format!(
            "Each other knob costs under {:.1} points when changed: {} (their values are in \
             the file).",
            100.0 * WORTH_A_LINE,
            minor.join(", ")
        ));
    }
    lines
}

/// What the recommended file's rules of thumb are worth: `raven tune`'s sensitivities of the
/// file [`section`] recommends, under the default reading at the headline stealths (the
/// objective `raven tune` climbs), within `budget`. Empty when no file is recommended.
pub fn rules_of_thumb(balance: &Balance, budget: Budget<'_>) -> Result<Vec<Sensitivity>, Halt> {
    let default = balance.presets[0];
    let Some((name, _)) = best_file(balance, default) else {
        return Ok(Vec::new());
    };
    let Some(Ok(strategy)) = bundled(name) else {
        return Ok(Vec::new());
    };
    let task = Task {
        rules: default,
        stealths: balance.headline.clone(),
        starts: Vec::new(),
        random_starts: 0,
        seed: 0,
        knobs: (0..KNOBS.len()).collect(),
    };
    knob_costs(&task, budget, &Point::of(strategy.spec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> Spec {
        crate::strategy::FileStrategy::parse("t", "t", text)
            .expect("a valid file")
            .spec()
            .clone()
    }

    /// The rule of `knob` under `spec`.
    fn rule_of(spec: &Spec, knob: &str) -> String {
        let knob = KNOBS.iter().find(|k| k.name() == knob).expect("a knob");
        rule(&Point::of(spec), knob)
    }

    #[test]
    fn the_advice_follows_the_knobs() {
        let reference = spec("");
        assert!(rule_of(&reference, "main.character").contains("the hacker"));
        assert_eq!(
            rule_of(&reference, "recruit.count"),
            "**Team**: recruit 3 characters, preferring medic, then spy, then sniper, then \
             mechanic, then demolitions"
        );
        assert!(rule_of(&reference, "first_aid.when").contains("give first aid at every chance"));
        assert!(rule_of(&reference, "side.anyone_last").contains("no Tough Challenge"));
        let changed = spec(
            "[main]\ncharacter = \"first-target\"\n[recruit]\ncount = 0\n\
             [first_aid]\nwhen = \"never\"\n[side]\nanyone_last = 2\n",
        );
        assert!(rule_of(&changed, "main.character").contains("recruits your first target"));
        assert!(rule_of(&changed, "recruit.count").contains("play alone"));
        assert!(rule_of(&changed, "first_aid.when").contains("never give first aid"));
        assert!(
            rule_of(&changed, "side.anyone_last")
                .contains("at the last 2 Tough Challenges, anyone")
        );
        // Without costs, every knob's rule in file order.
        assert_eq!(advice(&reference, &[]).len(), KNOBS.len());
    }

    #[test]
    fn the_advice_lists_the_rules_by_their_worth_then_names_the_minor_ones() {
        let reference = spec("");
        let cost = |knob: &str, cost: f64| Sensitivity {
            knob: KNOBS.iter().position(|k| k.name() == knob).expect("a knob"),
            value: String::new(),
            alternative: Some(("x".into(), cost)),
        };
        // As `raven tune` gives them: the costliest first.
        let costs = [
            cost("side.finale_may_roll", 0.2575),
            cost("recruit.count", 0.0494),
            cost("finale.character", 0.0017),
            cost("recruit.order", 0.0004),
            Sensitivity {
                knob: 0,
                value: String::new(),
                alternative: None,
            },
        ];
        let lines = advice(&reference, &costs);
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert_eq!(
            lines[0],
            "**Side challenges**: the finale character never rolls side challenges — **25.8 points** \
             (`side.finale_may_roll`)."
        );
        assert!(lines[1].ends_with("then demolitions — **4.9 points** (`recruit.count`)."));
        assert!(lines[2].ends_with("— **0.2 points** (`finale.character`)."));
        assert!(
            lines[3].contains("under 0.1 points")
                && lines[3].contains("`recruit.order`, `main.character`"),
            "{}",
            lines[3]
        );
    }
}
