//! A fan along a game's stages: a probability's median and quartiles at each stage, over the
//! games that were won and over those that were lost, a panel per player stacked so that the
//! stages keep the chart's whole width.

use std::fmt::Write;

use super::axes::{nice_ticks, tick_label};
use super::palette::marker;
use super::{LEFT, TOP, WIDTH, escape, header, text_width};

/// The two results' colours (Okabe–Ito's bluish green and vermilion, apart for every kind of
/// colour vision) and names; the lost games' median is also dashed, so colour is never alone.
const RESULTS: [(&str, &str); 2] = [("#009E73", "won games"), ("#D55E00", "lost games")];

/// One panel of a fan chart.
#[derive(Clone, Debug)]
pub struct FanPanel {
    /// Written above the panel.
    pub heading: String,
    /// Per result (won, lost), per stage: the quartiles (25th, median, 75th) in percent;
    /// `None` where no such game entered the stage.
    pub fans: [Vec<Option<[f64; 3]>>; 2],
}

/// The lines of a stage's name under its slot `width` pixels wide, words kept whole.
fn wrapped(name: &str, width: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in name.split(' ') {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line} {word}"), 11.0) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// A fan chart: `stages` along x, 0–100% up, a panel per entry of `panels`.
pub fn fan_chart(title: &str, y_label: &str, stages: &[String], panels: &[FanPanel]) -> String {
    let plot_w = WIDTH - LEFT - 20.0;
    let plot_h = 190.0;
    let slot = plot_w / stages.len().max(1) as f64;
    let label_lines = stages
        .iter()
        .map(|s| wrapped(s, slot - 6.0).len())
        .max()
        .unwrap_or(1) as f64;
    let block = 24.0 + plot_h + 14.0 * label_lines + 20.0;
    let legend = 24.0;
    let height = TOP + legend + block * panels.len() as f64 + 10.0;
    let px = |i: usize| LEFT + (i as f64 + 0.5) * slot;

    let mut out = String::new();
    header(&mut out, title, WIDTH, height);
    let mut x = LEFT;
    for (colour, name) in RESULTS {
        let text = format!("{name}: median and quartiles");
        let _ = writeln!(
            out,
            r#"<g class="legend"><rect x="{x:.1}" y="{y:.1}" width="14" height="10" fill="{colour}" fill-opacity="0.3" stroke="{colour}"/><text x="{tx:.1}" y="{ty:.1}">{text}</text></g>"#,
            y = TOP - 2.0,
            tx = x + 20.0,
            ty = TOP + 7.0,
        );
        x += 20.0 + text_width(&text, 12.0) + 24.0;
    }
    let ticks = nice_ticks(0.0, 100.0, 5);
    let step = ticks.get(1).map_or(20.0, |t| t - ticks[0]);
    for (k, panel) in panels.iter().enumerate() {
        let top = TOP + legend + block * k as f64 + 24.0;
        let py = |v: f64| top + (1.0 - v / 100.0) * plot_h;
        let _ = writeln!(
            out,
            r#"<g class="panel"><text x="{LEFT}" y="{y:.1}" font-size="13">{}</text>"#,
            escape(&panel.heading),
            // Clear of the top tick's label below it.
            y = top - 12.0,
        );
        for &t in &ticks {
            let _ = writeln!(
                out,
                r##"<line class="grid" x1="{LEFT}" y1="{y:.1}" x2="{r:.1}" y2="{y:.1}" stroke="#dddddd"/><text x="{tx:.1}" y="{ty:.1}" text-anchor="end">{label}</text>"##,
                y = py(t),
                r = LEFT + plot_w,
                tx = LEFT - 6.0,
                ty = py(t) + 4.0,
                label = tick_label(t, step, "%", false),
            );
        }
        for (i, stage) in stages.iter().enumerate() {
            for (j, line) in wrapped(stage, slot - 6.0).iter().enumerate() {
                let _ = writeln!(
                    out,
                    r#"<text class="stage" x="{x:.1}" y="{y:.1}" text-anchor="middle" font-size="11">{}</text>"#,
                    escape(line),
                    x = px(i),
                    y = top + plot_h + 16.0 + 14.0 * j as f64,
                );
            }
        }
        let _ = writeln!(
            out,
            r##"<rect x="{LEFT}" y="{top:.1}" width="{plot_w:.1}" height="{plot_h:.1}" fill="none" stroke="#333"/>"##
        );
        for (r, (colour, name)) in RESULTS.iter().enumerate() {
            let points: Vec<(usize, [f64; 3])> = panel.fans[r]
                .iter()
                .enumerate()
                .filter_map(|(i, q)| q.map(|q| (i, q)))
                .collect();
            if points.is_empty() {
                continue;
            }
            let _ = writeln!(
                out,
                r#"<g class="series" data-name="{} {name}" data-colour="{colour}">"#,
                escape(&panel.heading)
            );
            // The band: up along the 75th percentile, back along the 25th.
            let band: Vec<String> = points
                .iter()
                .map(|&(i, q)| format!("{:.1},{:.1}", px(i), py(q[2])))
                .chain(
                    points
                        .iter()
                        .rev()
                        .map(|&(i, q)| format!("{:.1},{:.1}", px(i), py(q[0]))),
                )
                .collect();
            let _ = writeln!(
                out,
                r#"<polygon class="band" points="{}" fill="{colour}" fill-opacity="0.2"/>"#,
                band.join(" ")
            );
            let median: Vec<String> = points
                .iter()
                .map(|&(i, q)| format!("{:.1},{:.1}", px(i), py(q[1])))
                .collect();
            let dash = if r == 1 {
                r#" stroke-dasharray="7 4""#
            } else {
                ""
            };
            let _ = writeln!(
                out,
                r#"<polyline class="median" points="{}" fill="none" stroke="{colour}" stroke-width="2.5"{dash}/>"#,
                median.join(" ")
            );
            for &(i, q) in &points {
                let _ = writeln!(out, "{}", marker(r, px(i), py(q[1]), colour));
            }
            let _ = writeln!(out, "</g>");
        }
        let _ = writeln!(out, "</g>");
    }
    let _ = writeln!(
        out,
        r#"<text transform="translate(18 {cy:.1}) rotate(-90)" text-anchor="middle">{}</text>"#,
        escape(y_label),
        cy = (TOP + height) / 2.0,
    );
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fan_has_a_band_per_result_and_panel_and_wraps_long_stage_names() {
        let stages: Vec<String> = ["recruitment", "the run", "Tough Challenge 1"]
            .map(String::from)
            .to_vec();
        let panel = |heading: &str| FanPanel {
            heading: heading.into(),
            fans: [
                vec![Some([10.0, 20.0, 30.0]), None, Some([50.0, 70.0, 90.0])],
                vec![Some([5.0, 10.0, 15.0]), Some([1.0, 2.0, 3.0]), None],
            ],
        };
        let svg = fan_chart("t", "y", &stages, &[panel("a<b"), panel("c")]);
        assert_eq!(svg.matches(r#"class="panel""#).count(), 2);
        assert_eq!(svg.matches(r#"class="band""#).count(), 4);
        // A stage no such game entered is left out of its line: two points each.
        assert_eq!(svg.matches(r#"class="marker""#).count(), 8);
        assert!(svg.contains("a&lt;b"));
        assert_eq!(wrapped("Tough Challenge 1", 80.0), ["Tough", "Challenge 1"]);
        assert_eq!(wrapped("the run", 80.0), ["the run"]);
        assert!(svg.ends_with("</svg>\n"));
    }
}
