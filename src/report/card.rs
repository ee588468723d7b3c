//! The rule card: as a page to print and keep beside the board — the rules of thumb as
//! sentences by what each is worth, then the ladder (win probability against the number of
//! rules, beside optimal play) as a chart and a table, one self-contained HTML file with no
//! script — and in the report, where the bundled cards are read back under each preset's
//! rules ([`cards`]): their section, their tidy rows and their pages.

use std::fmt::Write;

use serde::Serialize;

use crate::card::{bundled_card, mean, rank, sentence};
use crate::engine::{Budget, Halt, exact_within};
use crate::strategy::file::card::{Card, Rule, kind_name};
use crate::strategy::{FileStrategy, OPTIMAL, bundled};
use crate::tune::changed;

use super::balance::{Balance, ShownCard, exact_of};
use super::chart::{Series, line_chart};

/// What the page shows.
pub struct CardPage<'a> {
    /// The game, as a title names it.
    pub game: &'a str,
    /// What the card was found under: rules, stealths, the knobs behind it.
    pub inputs: &'a str,
    /// The file whose knobs play where no rule matches, as the card names it.
    pub from: &'a str,
    /// The knobs that differ from that file's (`section.key = value`).
    pub changed: &'a [String],
    /// The rules by worth: the sentence, the kind of decision, the points it gained.
    pub rules: &'a [(String, String, f64)],
    /// The game's axis, as a column names it (`stealth`, `players`).
    pub axis: &'a str,
    /// Its values the card was found at.
    pub points: &'a [u8],
    /// The ladder: rules added and the exact win probability at each point.
    pub ladder: &'a [(usize, Vec<f64>)],
    /// Optimal play's win probability at each point.
    pub optimal: &'a [f64],
    /// What a rule's worth is, as the page's last note says it.
    pub worth: &'a str,
}

/// What [`CardPage::worth`] says of a card as `raven card` found it.
pub const WORTH_WHEN_ADDED: &str = "what it gained, in points of win probability averaged over \
                                    the columns, when it was added";

/// What [`CardPage::worth`] says of a card read back ([`rank`]).
pub const WORTH_ON_THE_CARD: &str = "what the whole card loses without it, in points of win \
                                     probability averaged over the columns; the ladder keeps \
                                     the most valuable rules";

/// Escapes text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The chart of the ladder: a line per stealth, optimal play's value dashed beside it.
fn ladder_chart(card: &CardPage<'_>) -> String {
    let mut series = Vec::new();
    for (i, &at) in card.points.iter().enumerate() {
        series.push(Series {
            name: format!("{} {at}", card.axis),
            points: card
                .ladder
                .iter()
                .map(|(n, values)| (*n as f64, values[i]))
                .collect(),
            intervals: Vec::new(),
            dashed: false,
            muted: false,
        });
    }
    let last = card.ladder.last().map_or(0, |(n, _)| *n) as f64;
    for (i, &at) in card.points.iter().enumerate() {
        series.push(Series {
            name: format!("optimal, {at}"),
            points: vec![(0.0, card.optimal[i]), (last, card.optimal[i])],
            intervals: Vec::new(),
            dashed: true,
            muted: false,
        });
    }
    let svg = line_chart(
        "The ladder: win probability against the rules on the card",
        "rules on the card",
        "win probability",
        &series,
    );
    // Inline in the page: without the XML declaration.
    svg.lines()
        .filter(|l| !l.starts_with("<?xml"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The page.
pub fn page(card: &CardPage<'_>) -> String {
    let mut out = String::new();
    let title = format!("{} — the rule card", card.game);
    let _ = write!(
        out,
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
@page {{ size: A4; margin: 12mm; }}
body {{ font-family: Helvetica, Arial, sans-serif; max-width: 46em; margin: 1.5em auto; color: #111; }}
h1 {{ font-size: 1.4em; margin-bottom: 0.2em; }}
p.inputs {{ color: #555; margin-top: 0; }}
ol li {{ margin: 0.35em 0; }}
span.worth {{ font-variant-numeric: tabular-nums; color: #333; }}
span.kind {{ color: #777; font-size: 0.85em; }}
table {{ border-collapse: collapse; font-variant-numeric: tabular-nums; }}
th, td {{ padding: 0.15em 0.7em; text-align: right; border-bottom: 1px solid #ddd; }}
th:first-child, td:first-child {{ text-align: left; }}
svg {{ max-width: 100%; height: auto; }}
@media print {{ body {{ margin: 0; }} }}
</style>
</head>
<body>
<h1>{title}</h1>
<p class="inputs">{inputs}</p>
<p>At each decision, read the rules of its kind from the top: the first that holds says what to
do. Where none holds, play as <b>{from}</b> does{changed}.</p>
<ol>
"#,
        title = escape(&title),
        inputs = escape(card.inputs),
        from = escape(card.from),
        changed = match card.changed {
            [] => String::new(),
            changed => format!(
                ", but for {}",
                (changed.iter())
                    .map(|c| format!("<code>{}</code>", escape(c)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        },
    );
    for (sentence, kind, gain) in card.rules {
        let _ = writeln!(
            out,
            r#"<li>{} <span class="worth">({:+.2} points)</span> <span class="kind">{}</span></li>"#,
            escape(sentence),
            100.0 * gain,
            escape(kind)
        );
    }
    out += "</ol>\n";
    out += &ladder_chart(card);
    out += "\n<table>\n<tr><th>rules on the card</th>";
    for s in card.points {
        let _ = write!(out, "<th>{} {s}</th>", card.axis);
    }
    out += "</tr>\n";
    let row = |out: &mut String, name: &str, values: &[f64]| {
        let _ = write!(out, "<tr><td>{}</td>", escape(name));
        for v in values {
            let _ = write!(out, "<td>{:.2}%</td>", 100.0 * v);
        }
        out.push_str("</tr>\n");
    };
    for (n, values) in card.ladder {
        row(&mut out, &n.to_string(), values);
    }
    row(&mut out, "optimal play", card.optimal);
    let _ = write!(
        out,
        "</table>\n<p class=\"inputs\">Win probabilities are exact. A rule's worth is {}.</p>\n\
         </body>\n</html>\n",
        escape(card.worth)
    );
    out
}

impl ShownCard {
    /// The page to print, named after the card.
    pub fn file(&self) -> String {
        format!("{}.html", self.name)
    }

    /// The page, at the report's headline stealths.
    pub fn page(&self, headline: &[u8]) -> String {
        let rules: Vec<(String, String, f64)> = (self.ranked.by_worth.iter())
            .map(|(r, worth)| (sentence(r), kind_name(r.kind).to_string(), *worth))
            .collect();
        page(&CardPage {
            game: "Operation Purple Raven",
            inputs: &format!(
                "Rules {}, starting stealth {}; the bundled card `{}` (knobs of {}), as \
                 `raven report` reads it back.",
                self.rules,
                join(headline),
                self.name,
                self.from
            ),
            from: self.from,
            changed: &self.changed,
            rules: &rules,
            axis: "stealth",
            points: headline,
            ladder: &self.ranked.ladder,
            optimal: &self.optimal,
            worth: WORTH_ON_THE_CARD,
        })
    }

    /// How far the whole card is short of optimal play, mean over the headline stealths.
    fn short(&self) -> f64 {
        let whole = self.ranked.ladder.last().map_or(&[][..], |(_, v)| v);
        mean(&self.optimal) - mean(whole)
    }
}

/// The bundled card of each preset the report covers, read back: each rule's worth on the
/// whole card and the ladder of its most valuable rules, valued exactly at the headline
/// stealths (a card is left out where optimal play has no exact value there).
pub fn cards(balance: &Balance, budget: Budget<'_>) -> Result<Vec<ShownCard>, Halt> {
    let mut out = Vec::new();
    for &rules in &balance.presets {
        let Some((from, name)) = rules.preset_name().and_then(bundled_card) else {
            continue;
        };
        let Some(Ok(file)) = bundled(name) else {
            continue;
        };
        let optimal: Option<Vec<f64>> = (balance.headline.iter())
            .map(|&s| exact_of(balance, OPTIMAL, rules, s).map(|x| x.win_rate))
            .collect();
        let Some(optimal) = optimal else { continue };
        let value = |card: &[Rule]| -> Result<Vec<f64>, Halt> {
            let mut spec = file.spec().clone();
            spec.card = Card::new(card.to_vec());
            let strategy = FileStrategy::from_spec(name, spec);
            let run = exact_within(&rules, &strategy, &balance.headline, budget)?;
            Ok(run.expectations.iter().map(|e| e.win).collect())
        };
        let changed = match bundled(from) {
            Some(Ok(knobs)) => changed(knobs.spec(), file.spec()),
            _ => Vec::new(),
        };
        out.push(ShownCard {
            rules,
            name,
            from,
            changed,
            ranked: rank(&file.spec().card.rules, value)?,
            optimal,
        });
    }
    Ok(out)
}

/// A rung of a card's ladder at one stealth, as `card.csv` holds it.
#[derive(Clone, Debug, Serialize)]
pub struct RungRow {
    /// The rules the card is read under.
    pub rules: String,
    /// The bundled card.
    pub card: String,
    /// The card's most valuable rules kept.
    pub rules_kept: usize,
    /// The starting stealth.
    pub stealth: u8,
    /// Exact win probability with those rules.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub win_rate: f64,
    /// Optimal play's exact win probability.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub optimal: f64,
}

/// A rule of a card, as `card-rules.csv` holds it.
#[derive(Clone, Debug, Serialize)]
pub struct RuleRow {
    /// The rules the card is read under.
    pub rules: String,
    /// The bundled card.
    pub card: String,
    /// Its place by worth, 1 the most valuable.
    pub rank: usize,
    /// The kind of decision it answers.
    pub kind: String,
    /// The rule as the strategy file writes it.
    pub rule: String,
    /// The rule as a sentence.
    pub sentence: String,
    /// What the whole card loses without it: win probability, mean over the headline stealths.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub worth: f64,
}

/// Every rung of every card at every headline stealth.
pub fn rung_rows(cards: &[ShownCard], headline: &[u8]) -> Vec<RungRow> {
    let mut rows = Vec::new();
    for c in cards {
        for (kept, values) in &c.ranked.ladder {
            for (i, &stealth) in headline.iter().enumerate() {
                rows.push(RungRow {
                    rules: c.rules.to_string(),
                    card: c.name.to_string(),
                    rules_kept: *kept,
                    stealth,
                    win_rate: values[i],
                    optimal: c.optimal[i],
                });
            }
        }
    }
    rows
}

/// Every rule of every card, by worth.
pub fn rule_rows(cards: &[ShownCard]) -> Vec<RuleRow> {
    let mut rows = Vec::new();
    for c in cards {
        for (i, (rule, worth)) in c.ranked.by_worth.iter().enumerate() {
            rows.push(RuleRow {
                rules: c.rules.to_string(),
                card: c.name.to_string(),
                rank: i + 1,
                kind: kind_name(rule.kind).to_string(),
                rule: rule.to_string(),
                sentence: sentence(rule),
                worth: *worth,
            });
        }
    }
    rows
}

/// `8, 10, 12`.
fn join(values: &[u8]) -> String {
    values
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The report's section: each card's rules by worth and its ladder beside optimal play.
pub fn section(balance: &Balance) -> String {
    let cards = &balance.cards;
    if cards.is_empty() {
        return String::new();
    }
    let headline = &balance.headline;
    let mut md = String::new();
    let _ = writeln!(
        md,
        "## The rule card\n\n\
         A strategy file's knobs each read one or two facts; a rule of thumb may read several: \
         *when the main character is healthy, skip first aid*. `raven card` adds such rules \
         one at a time in front of the best file of knobs, each the one that gains the most \
         exact win probability (and, when no rule gains enough, changes the knobs behind them \
         where that gains), and prints the card. The cards it found are bundled: \
         `--strategy card` plays the one for main-text. Each rule's worth below is what the \
         whole card loses without it (points of win probability, mean over stealth {}); the \
         ladder keeps the most valuable rules only, so it shows how few a player needs.\n",
        join(headline)
    );
    for c in cards {
        let whole = c.ranked.ladder.last().map_or(&[][..], |(_, v)| v);
        let gaps: Vec<String> = (headline.iter().zip(c.optimal.iter().zip(whole)))
            .map(|(s, (o, v))| format!("{:.1} at {s}", 100.0 * (o - v)))
            .collect();
        let _ = writeln!(
            md,
            "**Under {}**, the card `{}` ([{}]({}) to print): the knobs of `{}`{} and {} rules, \
             short of optimal play by {:.1} points on average ({}).\n",
            c.rules,
            c.name,
            c.file(),
            c.file(),
            c.from,
            match &c.changed[..] {
                [] => String::new(),
                changed => format!(" (but for `{}`)", changed.join("`, `")),
            },
            c.ranked.by_worth.len(),
            100.0 * c.short(),
            gaps.join(", ")
        );
        for (rule, worth) in &c.ranked.by_worth {
            let _ = writeln!(md, "1. {} ({:+.2})", sentence(rule), 100.0 * worth);
        }
        let mut head = "| rules kept |".to_string();
        let mut bar = "|---|".to_string();
        for s in headline {
            let _ = write!(head, " stealth {s} |");
            bar += "---:|";
        }
        head += " short of optimal (mean) |";
        bar += "---:|";
        let _ = writeln!(md, "\n{head}\n{bar}");
        let rows = (c.ranked.ladder.iter())
            .map(|(kept, values)| (kept.to_string(), values))
            .chain([("optimal".to_string(), &c.optimal)]);
        for (name, values) in rows {
            let mut line = format!("| {name} |");
            for v in values {
                let _ = write!(line, " {:.1}% |", 100.0 * v);
            }
            let _ = write!(line, " {:.1} |", 100.0 * (mean(&c.optimal) - mean(values)));
            let _ = writeln!(md, "{line}");
        }
        let _ = writeln!(md);
    }
    let _ = writeln!(
        md,
        "`card.csv` holds every rung, `card-rules.csv` every rule with its worth. `raven card` \
         searches again under other rules or stealths (`--out` writes the card, `--page` its \
         page to print).\n"
    );
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_holds_every_rule_and_rung_escaped() {
        let rules = [
            (
                "When a & b, stop.".to_string(),
                "recruit-target".to_string(),
                0.0123,
            ),
            (
                "Pass <always>.".to_string(),
                "side-challenge".to_string(),
                0.0011,
            ),
        ];
        let ladder = [
            (0, vec![0.5, 0.6]),
            (1, vec![0.51, 0.62]),
            (2, vec![0.52, 0.63]),
        ];
        let html = page(&CardPage {
            game: "Operation Purple Raven",
            inputs: "rules main-text",
            from: "tuned",
            changed: &["recruit.order = [\"spy\"]".to_string()],
            rules: &rules,
            axis: "stealth",
            points: &[8, 10],
            ladder: &ladder,
            optimal: &[0.55, 0.7],
            worth: WORTH_WHEN_ADDED,
        });
        assert!(html.contains("When a &amp; b, stop. <span class=\"worth\">(+1.23 points)"));
        assert!(html.contains("Pass &lt;always&gt;."));
        assert!(html.contains(
            "play as <b>tuned</b> does, but for <code>recruit.order = [&quot;spy&quot;]</code>."
        ));
        assert!(html.contains("<td>63.00%</td>"));
        assert!(html.contains("<tr><td>optimal play</td><td>55.00%</td><td>70.00%</td></tr>"));
        assert!(html.contains("<svg") && !html.contains("<?xml"));
        assert_eq!(html.matches("<li>").count(), 2);
    }
}
