//! "What a player should do": the best strategy file among the bundled ones under the report's
//! rules (the `tuned` files are `raven tune`'s winners), told as advice a person can follow,
//! its win probabilities beside optimal play and the reference, and where it still falls short
//! of optimal play. Every sentence is computed from the report's numbers and the file's knobs.

use std::fmt::Write as _;

use crate::rules::Rules;
use crate::strategy::file::Spec;
use crate::strategy::{OPTIMAL, REFERENCE, bundled, bundled_source};
use crate::tune::Point;

use super::balance::{Balance, exact_of};
use super::decisions::losses;

/// The file the report writes beside its README: the text of the strategy the section
/// recommends under the default reading.
pub const FILE: &str = "tuned.toml";

/// The bundled strategy file with the highest mean exact win probability over the headline
/// stealths under `rules` (reference and strategies without a file aside), if any.
pub fn best_file(balance: &Balance, rules: Rules) -> Option<(&str, f64)> {
    let mut best: Option<(&str, f64)> = None;
    for name in &balance.strategies {
        if name == REFERENCE || bundled_source(name).is_none_or(|s| s.is_err()) {
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
    let _ = writeln!(
        md,
        "The best strategy a person can follow that raven knows under {default} is `{name}`: \
         a strategy file ([`{FILE}`]({FILE}) in this directory) whose every knob is a rule of \
         thumb. In words:\n"
    );
    for line in advice(&spec) {
        let _ = writeln!(md, "- {line}");
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

/// What a `spare` knob keeps out of the rolls, as a clause (empty for `none`).
fn spare(value: &str) -> String {
    let (who, own) = match value {
        "main" => ("the main character", false),
        "finale" => ("the intended finale character", false),
        "main-except-own" => ("the main character", true),
        "finale-except-own" => ("the intended finale character", true),
        _ => return String::new(),
    };
    let except = if own {
        " (but for those of their own speciality)"
    } else {
        ""
    };
    format!("; {who} rolls them only when no one else can{except}")
}

/// The strategy's knobs as advice, one sentence per part of the game.
pub fn advice(spec: &Spec) -> Vec<String> {
    let p = Point::of(spec);
    let k = |key: &str| p.value(key);
    let mut lines = Vec::new();

    let main = match k("main.character") {
        "first-target" => {
            "the character who recruits your first target with 3 dice (the speciality of that \
             target's complication)"
                .to_string()
        }
        "most-needed" => {
            "the character whose speciality is the complication of the most others".to_string()
        }
        "hardest-to-recruit" => {
            "the character whose complication is their own speciality".to_string()
        }
        "random" => "a character drawn at random".to_string(),
        speciality => format!("the {speciality}"),
    };
    lines.push(format!("**Main character**: {main}."));

    let order = p.items("recruit.order");
    let recruits = k("recruit.count");
    let team = if recruits == "0" || order.is_empty() {
        "recruit nobody: play alone".to_string()
    } else {
        let mut s = format!(
            "recruit {}, preferring {}",
            count(recruits, "character"),
            order.join(", then ")
        );
        if k("recruit.easiest_first") == "true" {
            s += " (first those whose complication someone in the team rolls with 3 dice)";
        }
        s += &format!("; the checks are rolled by {}", roller(k("recruit.roller")));
        s += &spare(k("recruit.spare"));
        let mut stops = Vec::new();
        if k("recruit.stealth_floor") != "0" {
            stops.push(format!("below stealth {}", k("recruit.stealth_floor")));
        }
        if k("recruit.stop_at_wounds") != "0" {
            stops.push(format!(
                "once the team carries {}",
                count(k("recruit.stop_at_wounds"), "wound")
            ));
        }
        if k("recruit.stop_after_failures") != "0" {
            stops.push(format!(
                "after {} in a row on one target",
                count(k("recruit.stop_after_failures"), "failed check")
            ));
        }
        if !stops.is_empty() {
            s += &format!("; stop recruiting {}", stops.join(" or "));
        }
        s
    };
    lines.push(format!("**Team**: {team}."));

    let six = match k("run.pick_on_six") {
        "lowest-able" => "the speciality of the lowest-numbered able member".to_string(),
        "least-wounded" => "the speciality of the least wounded member who may roll".to_string(),
        "main" => "the main character's speciality".to_string(),
        speciality => speciality.to_string(),
    };
    lines.push(format!(
        "**Run**: each challenge is rolled by {}{}; on a 6, pick {six}.",
        roller(k("run.roller")),
        spare(k("run.spare"))
    ));

    let phases = p.items("first_aid.phases");
    let aid = match k("first_aid.when") {
        "never" => "never give first aid".to_string(),
        when if phases.is_empty() => format!("never give first aid ({when}, in no phase)"),
        when => {
            let whom = if when == "incapacitated" {
                "only to the incapacitated"
            } else {
                "at every chance"
            };
            let phases: Vec<&str> = phases
                .iter()
                .map(|p| match p.as_str() {
                    "recruitment" => "recruitment",
                    "run" => "the run",
                    _ => "the finale",
                })
                .collect();
            let mut s = format!("give first aid {whom}, in {}", phases.join(", "));
            if k("first_aid.stealth_floor") != "0" {
                s += &format!(
                    ", while stealth is at least {}",
                    k("first_aid.stealth_floor")
                );
                if k("first_aid.discovered_ignores_floor") == "true" {
                    s += " (and always once discovered)";
                }
            }
            if k("first_aid.wounded_floor") != "0" {
                s += &format!(
                    "; treat the merely wounded only while stealth is at least {}",
                    k("first_aid.wounded_floor")
                );
            }
            s += match k("first_aid.finale_gives") {
                "never" => "; the finale character never gives it in the finale",
                "undiscovered" => {
                    "; the finale character gives it in the finale only while undiscovered"
                }
                _ => "",
            };
            s
        }
    };
    lines.push(format!("**First aid**: {aid}."));

    let finale = match k("finale.character") {
        "main" => "the main character".to_string(),
        "main-if-healthy" => "the main character if healthy, else the least wounded".to_string(),
        "least-wounded" => "the least wounded able member".to_string(),
        speciality => format!("the {speciality}"),
    };
    lines.push(format!("**Tough Challenges**: taken by {finale}."));

    let attempts = k("side.max_attempts");
    let side = match k("side.attempt") {
        _ if attempts == "0" => "pass every side challenge".to_string(),
        "never" => "pass every side challenge".to_string(),
        attempt => {
            let when = if attempt == "always" {
                "try every side challenge someone may roll"
            } else {
                "try a side challenge when someone who may roll has its speciality"
            };
            let mut s = format!(
                "{when}, rolled by {}, {} at most",
                roller(k("side.roller")),
                count(attempts, "attempt")
            );
            let passed = p.items("side.pass_types");
            if !passed.is_empty() {
                s += &format!("; always pass {}", passed.join(", "));
            }
            if k("side.stealth_floor") != "0" {
                s += &format!(
                    "; only while stealth is at least {}",
                    k("side.stealth_floor")
                );
            }
            if k("side.second_success") == "false" {
                s += "; after one success, pass the second";
            }
            s
        }
    };
    let mut side = side;
    if k("side.finale_may_roll") == "false" {
        side += "; the finale character never rolls them";
    }
    let until = if k("side.anyone_until") == "1" {
        " until one succeeds"
    } else {
        ""
    };
    for (key, when) in [
        ("side.anyone_last", ""),
        ("side.anyone_last_discovered", " once discovered"),
    ] {
        match k(key) {
            "0" => {}
            n => {
                let last = if n == "1" {
                    "the last Tough Challenge".to_string()
                } else {
                    format!("the last {n} Tough Challenges")
                };
                side += &format!("; at {last}{when}, anyone who may roll tries them{until}");
            }
        }
    }
    lines.push(format!("**Side challenges**: {side}."));
    lines
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

    #[test]
    fn the_advice_follows_the_knobs() {
        let reference = advice(&spec(""));
        assert!(reference[0].contains("the hacker"), "{reference:?}");
        assert!(reference[1].contains("recruit 3 characters, preferring medic"));
        assert!(reference[3].contains("give first aid at every chance"));
        let changed = advice(&spec(
            "[main]\ncharacter = \"first-target\"\n[recruit]\ncount = 0\n\
             [first_aid]\nwhen = \"never\"\n[side]\nanyone_last = 2\n",
        ));
        assert!(
            changed[0].contains("recruits your first target"),
            "{changed:?}"
        );
        assert!(changed[1].contains("play alone"));
        assert!(changed[3].contains("never give first aid"));
        assert!(changed[5].contains("at the last 2 Tough Challenges, anyone"));
        assert!(!reference[5].contains("anyone"));
    }
}
