//! Line charts of probabilities against a number (starting stealth, a design parameter),
//! each line named at its end, with chosen x values marked; and the validation chart of
//! Monte Carlo estimates against exact values.

use std::fmt::Write;

use super::axes::{nice_ticks, spread, tick_label};
use super::palette::{colour, marker_of};
use super::{LEFT, TOP, WIDTH, escape, header, text_width};

/// One line of a line chart.
#[derive(Clone, Debug)]
pub struct Series {
    /// The line's name, written at its end.
    pub name: String,
    /// `(x, y)` points in drawing order.
    pub points: Vec<(f64, f64)>,
    /// Monte Carlo intervals: `(x, estimate, low, high)`. Where the series also has a point
    /// at `x` they are drawn in the lower panel against it; elsewhere in the main panel.
    pub intervals: Vec<(f64, f64, f64, f64)>,
    /// Drawn dashed, without markers (a line to measure the others against, such as optimal
    /// play).
    pub dashed: bool,
    /// Drawn thin and grey behind the others, without markers or a name at its end (named
    /// once under the chart instead), so that the lines that matter read at a glance.
    pub muted: bool,
}

/// A muted line's colour: light enough to stay behind the emphasised ones.
const MUTED: &str = "#c0c0c0";

/// Room on the right of a line chart for the emphasised lines' names: the widest name, the
/// leader and the key before it, and a margin.
fn label_room(series: &[Series]) -> f64 {
    let widest = series
        .iter()
        .filter(|s| !s.muted)
        .map(|s| text_width(&s.name, 12.0))
        .fold(0.0, f64::max);
    (widest + 27.0 + 8.0).max(60.0)
}

/// An error bar from `low` to `high` at `x` (pixels), with caps.
fn error_bar(x: f64, low: f64, high: f64, colour: &str) -> String {
    format!(
        r#"<path class="interval" d="M{x:.1},{low:.1}V{high:.1}M{a:.1},{low:.1}H{b:.1}M{a:.1},{high:.1}H{b:.1}" stroke="{colour}" stroke-width="1.5" fill="none"/>"#,
        a = x - 3.0,
        b = x + 3.0
    )
}

/// The x axis of a line chart: its range with half a step of room at either end (for the
/// markers and intervals drawn around a point), its round ticks and their step.
struct XAxis {
    min: f64,
    max: f64,
    ticks: Vec<f64>,
    step: f64,
}

impl XAxis {
    fn of(series: &[Series]) -> XAxis {
        let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
        let (min, max) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
            (lo.min(x), hi.max(x))
        });
        let (min, max) = if min < max {
            (min, max)
        } else if min.is_finite() {
            (min.min(0.0), min.max(0.0) + 1.0)
        } else {
            (0.0, 1.0)
        };
        // Whole numbers (stealths, players) are ticked at whole numbers only.
        let whole = series
            .iter()
            .flat_map(|s| s.points.iter())
            .all(|p| p.0.fract() == 0.0);
        let count = if whole {
            ((max - min).round() as usize).clamp(1, 16)
        } else {
            16
        };
        let ticks = nice_ticks(min, max, count);
        let step = ticks.get(1).map_or(1.0, |t| t - ticks[0]);
        XAxis {
            min: min - step / 2.0,
            max: max + step / 2.0,
            ticks,
            step,
        }
    }
}

/// A line chart of probabilities (0–1, shown in percent) against `x`.
pub fn line_chart(title: &str, x_label: &str, y_label: &str, series: &[Series]) -> String {
    line_chart_marked(title, x_label, y_label, series, &[])
}

/// [`line_chart`] with the x values `marks` marked by a vertical line and their value written
/// above it (the report's headline stealths). Each line has its strategy's colour and marker
/// ([`colour`]); Monte Carlo intervals are drawn only where a series has no exact point (the
/// rest is [`check_chart`]'s).
pub fn line_chart_marked(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    marks: &[f64],
) -> String {
    let axis = XAxis::of(series);
    let (x_min, x_max) = (axis.min, axis.max);
    let plot_w = WIDTH - LEFT - label_room(series);
    let plot_h = 330.0;
    let muted: Vec<&str> = series
        .iter()
        .filter(|s| s.muted)
        .map(|s| s.name.as_str())
        .collect();
    let height = TOP + plot_h + if muted.is_empty() { 55.0 } else { 75.0 };
    let px = |x: f64| LEFT + (x - x_min) / (x_max - x_min) * plot_w;
    let py = |y: f64| TOP + (1.0 - y) * plot_h;

    let mut out = String::new();
    header(&mut out, title, WIDTH, height);
    // Gridlines at round percentages, and at every x.
    let y_ticks = nice_ticks(0.0, 100.0, 10);
    let y_step = y_ticks.get(1).map_or(10.0, |t| t - y_ticks[0]);
    for &t in &y_ticks {
        let y = py(t / 100.0);
        let _ = writeln!(
            out,
            r##"<line class="grid" x1="{LEFT}" y1="{y:.1}" x2="{r:.1}" y2="{y:.1}" stroke="#dddddd"/><text x="{tx:.1}" y="{ty:.1}" text-anchor="end">{label}</text>"##,
            r = LEFT + plot_w,
            tx = LEFT - 6.0,
            ty = y + 4.0,
            label = tick_label(t, y_step, "%", false),
        );
    }
    for &t in &axis.ticks {
        let x = px(t);
        let _ = writeln!(
            out,
            r##"<line class="grid" x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{b:.1}" stroke="#eeeeee"/><text x="{x:.1}" y="{ty:.1}" text-anchor="middle">{label}</text>"##,
            b = TOP + plot_h,
            ty = TOP + plot_h + 18.0,
            label = tick_label(t, axis.step, "", false),
        );
    }
    // An even game: the line a designer reads every other against.
    let _ = writeln!(
        out,
        r##"<line class="even" x1="{LEFT}" y1="{y:.1}" x2="{r:.1}" y2="{y:.1}" stroke="#555555" stroke-width="1.5" stroke-dasharray="1 3"/>"##,
        y = py(0.5),
        r = LEFT + plot_w,
    );
    // The marked values: a grey band under the lines, the value above the frame.
    for &m in marks.iter().filter(|m| (x_min..=x_max).contains(*m)) {
        let x = px(m);
        let _ = writeln!(
            out,
            r##"<g class="mark"><line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{b:.1}" stroke="#888888" stroke-width="1" stroke-dasharray="2 3"/><text x="{x:.1}" y="{ty:.1}" text-anchor="middle" font-size="11" fill="#555555">{label}</text></g>"##,
            b = TOP + plot_h,
            ty = TOP - 4.0,
            label = tick_label(m, axis.step, "", false),
        );
    }
    let _ = writeln!(
        out,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w:.1}" height="{plot_h:.1}" fill="none" stroke="#333"/>
<text x="{cx:.1}" y="{xy:.1}" text-anchor="middle">{xl}</text>
<text transform="translate(18 {cy:.1}) rotate(-90)" text-anchor="middle">{yl}</text>"##,
        cx = LEFT + plot_w / 2.0,
        xy = TOP + plot_h + 38.0,
        xl = escape(x_label),
        cy = TOP + plot_h / 2.0,
        yl = escape(y_label),
    );
    if !muted.is_empty() {
        // The grey lines named once, or counted where their names do not fit on a line.
        let named = format!("in grey: {}", muted.join(", "));
        let note = if text_width(&named, 11.0) <= WIDTH - 2.0 * LEFT {
            named
        } else {
            format!("in grey: the {} other lines", muted.len())
        };
        let _ = writeln!(
            out,
            r##"<text class="muted-key" x="{cx:.1}" y="{y:.1}" text-anchor="middle" font-size="11" fill="#666666">{}</text>"##,
            escape(&note),
            cx = LEFT + plot_w / 2.0,
            y = TOP + plot_h + 58.0,
        );
    }

    // Where each emphasised line's name goes: beside its last point, nudged apart.
    let mut ends: Vec<(usize, f64)> = series
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.muted)
        .filter_map(|(i, s)| s.points.last().map(|p| (i, py(p.1))))
        .collect();
    let wanted: Vec<(usize, f64)> = ends.clone();
    spread(&mut ends, 13.0, TOP + 4.0, TOP + plot_h);

    for (i, s) in series.iter().enumerate() {
        let points: Vec<String> = s
            .points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        if s.muted {
            let _ = writeln!(
                out,
                r#"<g id="series-{i}" class="series" data-name="{name}" data-muted="true"><title>{name}</title><polyline class="line" points="{}" fill="none" stroke="{MUTED}" stroke-width="1.2"/></g>"#,
                points.join(" "),
                name = escape(&s.name),
            );
            continue;
        }
        let colour = colour(&s.name, i);
        let _ = writeln!(
            out,
            r#"<g id="series-{i}" class="series" data-name="{}" data-colour="{colour}">"#,
            escape(&s.name)
        );
        let dash = if s.dashed {
            r#" stroke-dasharray="7 4""#
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r#"<polyline class="line" points="{}" fill="none" stroke="{colour}" stroke-width="2.5"{dash}/>"#,
            points.join(" ")
        );
        if !s.dashed {
            for &(x, y) in &s.points {
                let _ = writeln!(out, "{}", marker_of(&s.name, i, px(x), py(y)));
            }
        }
        // Intervals with no exact value to compare with are the line's only values.
        for &(x, _, lo, hi) in &s.intervals {
            if !s.points.iter().any(|p| p.0 == x) {
                let _ = writeln!(out, "{}", error_bar(px(x), py(lo), py(hi), colour));
            }
        }
        if let (Some(&(_, to)), Some(&(_, from))) = (
            ends.iter().find(|e| e.0 == i),
            wanted.iter().find(|e| e.0 == i),
        ) {
            let x = LEFT + plot_w;
            let _ = writeln!(
                out,
                r#"<path class="leader" d="M{x:.1},{from:.1}L{a:.1},{to:.1}H{b:.1}" stroke="{colour}" fill="none"/><rect class="key" x="{b:.1}" y="{ky:.1}" width="10" height="8" fill="{colour}"/><text class="label" x="{tx:.1}" y="{ty:.1}" fill="{colour}">{}</text>"#,
                escape(&s.name),
                a = x + 10.0,
                b = x + 14.0,
                ky = to - 4.0,
                tx = x + 27.0,
                ty = to + 4.0,
            );
        }
        let _ = writeln!(out, "</g>");
    }
    out.push_str("</svg>\n");
    out
}

/// The validation chart: every Monte Carlo estimate minus the exact value at the same x, with
/// its interval, in percentage points, one colour and marker per series side by side within
/// each x (one engine checked against the other; for us, not for the designer).
pub fn check_chart(title: &str, x_label: &str, series: &[Series]) -> String {
    let axis = XAxis::of(series);
    let (x_min, x_max) = (axis.min, axis.max);
    let residuals: Vec<Vec<(f64, f64, f64, f64)>> = series
        .iter()
        .map(|s| {
            s.intervals
                .iter()
                .filter_map(|&(x, est, lo, hi)| {
                    let exact = s.points.iter().find(|p| p.0 == x)?.1;
                    Some((
                        x,
                        100.0 * (est - exact),
                        100.0 * (lo - exact),
                        100.0 * (hi - exact),
                    ))
                })
                .collect()
        })
        .collect();
    let widest = series
        .iter()
        .map(|s| text_width(&s.name, 12.0))
        .fold(0.0, f64::max);
    let plot_w = WIDTH - LEFT - (widest + 17.0 + 8.0).max(60.0);
    let res_h = 260.0;
    let res_top = TOP + 20.0;
    let height = res_top + res_h + 55.0;
    let px = |x: f64| LEFT + (x - x_min) / (x_max - x_min) * plot_w;

    let mut out = String::new();
    header(&mut out, title, WIDTH, height);
    let extent = residuals
        .iter()
        .flatten()
        .flat_map(|&(_, e, lo, hi)| [e.abs(), lo.abs(), hi.abs()])
        .fold(0.0f64, f64::max)
        .max(0.01)
        * 1.1;
    let ticks = nice_ticks(-extent, extent, 4);
    let step = ticks.get(1).map_or(extent, |t| t - ticks[0]);
    let extent = ticks.iter().fold(extent, |m, t| m.max(t.abs())).max(step);
    let ry = |v: f64| res_top + (1.0 - (v + extent) / (2.0 * extent)) * res_h;
    let _ = writeln!(
        out,
        r##"<g class="residuals"><text x="{LEFT}" y="{ty:.1}">Monte Carlo − exact (percentage points): estimate and 95% interval per line</text>"##,
        ty = res_top - 8.0,
    );
    for &t in &ticks {
        let y = ry(t);
        let stroke = if t == 0.0 { "#888888" } else { "#dddddd" };
        let _ = writeln!(
            out,
            r##"<line class="grid" x1="{LEFT}" y1="{y:.1}" x2="{r:.1}" y2="{y:.1}" stroke="{stroke}"/><text x="{tx:.1}" y="{ty:.1}" text-anchor="end">{label}</text>"##,
            r = LEFT + plot_w,
            tx = LEFT - 6.0,
            ty = y + 4.0,
            label = tick_label(t, step, "", true),
        );
    }
    for &t in &axis.ticks {
        let _ = writeln!(
            out,
            r##"<text x="{x:.1}" y="{ty:.1}" text-anchor="middle">{label}</text>"##,
            x = px(t),
            ty = res_top + res_h + 18.0,
            label = tick_label(t, axis.step, "", false),
        );
    }
    let _ = writeln!(
        out,
        r##"<rect x="{LEFT}" y="{res_top:.1}" width="{plot_w:.1}" height="{res_h:.1}" fill="none" stroke="#333"/>
<text x="{cx:.1}" y="{xy:.1}" text-anchor="middle">{xl}</text>"##,
        cx = LEFT + plot_w / 2.0,
        xy = res_top + res_h + 38.0,
        xl = escape(x_label),
    );
    // Side by side within each x, so that no two intervals hide each other; a legend of
    // names in the series' colours on the right.
    let n = series.len().max(1) as f64;
    let slot = (px(x_min + axis.step) - px(x_min)).min(plot_w) * 0.8 / n;
    for (i, (s, r)) in series.iter().zip(&residuals).enumerate() {
        let colour = colour(&s.name, i);
        let _ = writeln!(
            out,
            r#"<g class="residual" data-name="{}" data-colour="{colour}">"#,
            escape(&s.name)
        );
        for &(x, e, lo, hi) in r {
            let cx = px(x) + (i as f64 - (n - 1.0) / 2.0) * slot;
            let _ = writeln!(out, "{}", error_bar(cx, ry(lo), ry(hi), colour));
            let _ = writeln!(out, "{}", marker_of(&s.name, i, cx, ry(e)));
        }
        let _ = writeln!(
            out,
            r#"<text class="label" x="{x:.1}" y="{y:.1}" fill="{colour}">{}</text>"#,
            escape(&s.name),
            x = LEFT + plot_w + 17.0,
            y = res_top + 12.0 + 14.0 * i as f64,
        );
        let _ = writeln!(out, "</g>");
    }
    let _ = writeln!(out, "</g>");
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_chart_has_one_group_per_series_and_escapes_names() {
        let series = vec![
            Series {
                name: "a<b".into(),
                points: vec![(0.0, 0.1), (1.0, 0.2)],
                intervals: vec![(0.0, 0.11, 0.05, 0.15), (1.0, 0.19, 0.15, 0.25)],
                dashed: false,
                muted: false,
            },
            Series {
                name: "optimal".into(),
                points: vec![(0.0, 0.3), (1.0, 0.4)],
                intervals: vec![],
                dashed: true,
                muted: false,
            },
            Series {
                name: "grey".into(),
                points: vec![(0.0, 0.5), (1.0, 0.6)],
                intervals: vec![],
                dashed: false,
                muted: true,
            },
        ];
        let svg = line_chart_marked("t", "x", "y", &series, &[1.0]);
        assert_eq!(svg.matches(r#"class="series""#).count(), 3);
        // The muted line is drawn, named once under the chart, not at its end.
        assert_eq!(svg.matches(r#"data-muted="true""#).count(), 1);
        assert!(svg.contains("in grey: grey"), "{svg}");
        assert_eq!(svg.matches(r#"class="even""#).count(), 1, "the 50% line");
        assert_eq!(svg.matches(r#"class="mark""#).count(), 1);
        assert!(svg.contains("a&lt;b"));
        // The intervals of the first series are checked against its exact values elsewhere.
        assert_eq!(svg.matches(r#"class="interval""#).count(), 0);
        let check = check_chart("t", "x", &series);
        assert_eq!(check.matches(r#"class="interval""#).count(), 2);
        assert!(check.ends_with("</svg>\n"));
        assert_eq!(svg.matches(r#"class="label""#).count(), 2);
        assert!(svg.contains(">40%<"), "percent axis");
        assert!(svg.ends_with("</svg>\n"));
    }
}
