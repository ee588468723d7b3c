//! The rule card as a page to print and keep beside the board: the rules of thumb as sentences
//! by what each is worth, then the ladder — win probability against the number of rules,
//! beside optimal play — as a chart and a table. One self-contained HTML file, no script.

use std::fmt::Write;

use super::chart::{Series, line_chart};

/// What the page shows.
pub struct CardPage<'a> {
    /// The game, as a title names it.
    pub game: &'a str,
    /// What the card was found under: rules, stealths, the knobs behind it.
    pub inputs: &'a str,
    /// The file whose knobs play where no rule matches, as the card names it.
    pub from: &'a str,
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
}

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
do. Where none holds, play as <b>{from}</b> does.</p>
<ol>
"#,
        title = escape(&title),
        inputs = escape(card.inputs),
        from = escape(card.from),
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
    out += "</table>\n<p class=\"inputs\">Win probabilities are exact. A rule's worth is what it \
            gained, in points of win probability averaged over the columns, when it was \
            added.</p>\n</body>\n</html>\n";
    out
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
            rules: &rules,
            axis: "stealth",
            points: &[8, 10],
            ladder: &ladder,
            optimal: &[0.55, 0.7],
        });
        assert!(html.contains("When a &amp; b, stop. <span class=\"worth\">(+1.23 points)"));
        assert!(html.contains("Pass &lt;always&gt;."));
        assert!(html.contains("<td>63.00%</td>"));
        assert!(html.contains("<tr><td>optimal play</td><td>55.00%</td><td>70.00%</td></tr>"));
        assert!(html.contains("<svg") && !html.contains("<?xml"));
        assert_eq!(html.matches("<li>").count(), 2);
    }
}
