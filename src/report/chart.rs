//! Self-contained SVG charts: a line chart of probabilities with Monte Carlo intervals, and
//! small multiples of horizontal bars for signed effects.
//!
//! Hand-written SVG keeps the files small, deterministic (fixed number formatting) and free of
//! font dependencies; they open in any browser and embed in Markdown. What makes them
//! readable, printed in grey as on screen:
//! - colours that stay apart (Okabe–Ito without its near pairs, plus darker stand-ins for its
//!   faint yellow and sky blue), each line also told apart by its marker shape;
//! - names written at the end of each line, nudged apart where lines end close together,
//!   instead of a legend to match colours against;
//! - gridlines at round values (1, 2 or 5 × 10ⁿ), axes in percent as the tables are;
//! - Monte Carlo intervals as error bars in a panel of their own (Monte Carlo minus exact, in
//!   percentage points): at 100,000 games an interval is a fraction of a point, well under a
//!   pixel on a 0–100% axis, so drawn there it could only be invisible;
//! - a value written at the end of every bar, and effects too small to print (under 0.005
//!   percentage points) drawn and written as zero rather than as a sliver of either sign.

use std::fmt::Write;

const WIDTH: f64 = 820.0;
const LEFT: f64 = 70.0;
/// Room on the right of a line chart for the lines' names.
const LABELS: f64 = 130.0;
const TOP: f64 = 50.0;

/// Colours of the series, in order; clearly apart from one another and dark enough to read
/// on white. The last series of a line chart (optimal play) is drawn black and dashed.
pub const PALETTE: [&str; 8] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#997700", "#332288", "#882255", "#666666",
];

/// The colour of a dashed (reference) series.
pub const DASHED: &str = "#000000";

/// Effects smaller than this (in the chart's units) are drawn and labelled as zero.
pub const TINY: f64 = 0.005;

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
    /// Drawn black and dashed, without markers (a reference line such as the optimum).
    pub dashed: bool,
}

/// Escapes text for XML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The SVG preamble: size, title, white background, heading.
fn header(out: &mut String, title: &str, width: f64, height: f64) {
    let _ = writeln!(
        out,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="Helvetica, Arial, sans-serif" font-size="12">
<title>{t}</title>
<rect width="100%" height="100%" fill="white"/>
<text x="{x:.1}" y="28" font-size="16" text-anchor="middle">{t}</text>"#,
        t = escape(title),
        x = width / 2.0
    );
}

/// Round tick values covering `[low, high]`: steps of 1, 2 or 5 × 10ⁿ, about `count` of them.
pub fn nice_ticks(low: f64, high: f64, count: usize) -> Vec<f64> {
    let span = (high - low).abs().max(1e-12);
    let raw = span / count.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    // The round step whose tick count comes closest to the one asked for.
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .min_by(|a, b| {
            let off = |s: &f64| (span / s - count as f64).abs();
            off(a).total_cmp(&off(b))
        })
        .expect("four candidates");
    let first = (low / step).ceil() as i64;
    let last = (high / step).floor() as i64;
    // Multiples of the step, computed from integers so that 0.30000000000000004 never shows.
    (first..=last)
        .map(|i| (i as f64 * step * 1e9).round() / 1e9 + 0.0)
        .collect()
}

/// A tick label with as many decimals as the step needs.
fn tick_label(value: f64, step: f64, suffix: &str, signed: bool) -> String {
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    let value = value + 0.0;
    if signed && value != 0.0 {
        format!("{value:+.decimals$}{suffix}")
    } else {
        format!("{value:.decimals$}{suffix}")
    }
}

/// A marker shape for series `i` at `(x, y)`: filled shapes first, then hollow ones.
fn marker(i: usize, x: f64, y: f64, colour: &str) -> String {
    let (fill, width) = if i % 8 < 4 {
        (colour, 0.0)
    } else {
        ("white", 1.5)
    };
    let r = 3.5;
    let shape = match i % 4 {
        0 => format!(r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r}""#),
        1 => format!(
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}""#,
            x - r,
            y - r,
            2.0 * r,
            2.0 * r
        ),
        2 => format!(
            r#"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}""#,
            x,
            y - 1.3 * r,
            x + 1.3 * r,
            y,
            x,
            y + 1.3 * r,
            x - 1.3 * r,
            y
        ),
        _ => format!(
            r#"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}""#,
            x,
            y - 1.3 * r,
            x + 1.2 * r,
            y + 0.9 * r,
            x - 1.2 * r,
            y + 0.9 * r
        ),
    };
    format!(r#"{shape} class="marker" fill="{fill}" stroke="{colour}" stroke-width="{width}"/>"#)
}

/// An error bar from `low` to `high` at `x` (pixels), with caps.
fn error_bar(x: f64, low: f64, high: f64, colour: &str) -> String {
    format!(
        r#"<path class="interval" d="M{x:.1},{low:.1}V{high:.1}M{a:.1},{low:.1}H{b:.1}M{a:.1},{high:.1}H{b:.1}" stroke="{colour}" stroke-width="1.5" fill="none"/>"#,
        a = x - 3.0,
        b = x + 3.0
    )
}

/// Spreads label positions (sorted by wanted position) at least `gap` apart within
/// `[top, bottom]`, moving each as little as it can.
fn spread(wanted: &mut [(usize, f64)], gap: f64, top: f64, bottom: f64) {
    wanted.sort_by(|a, b| a.1.total_cmp(&b.1));
    for i in 1..wanted.len() {
        wanted[i].1 = wanted[i].1.max(wanted[i - 1].1 + gap);
    }
    if let Some(last) = wanted.last_mut() {
        last.1 = last.1.min(bottom);
    }
    for i in (0..wanted.len().saturating_sub(1)).rev() {
        wanted[i].1 = wanted[i].1.min(wanted[i + 1].1 - gap);
    }
    if let Some(first) = wanted.first_mut() {
        first.1 = first.1.max(top);
    }
}

/// A line chart of probabilities (0–1, shown in percent) against `x`, with a lower panel of
/// Monte Carlo intervals around the exact values (percentage points).
pub fn line_chart(title: &str, x_label: &str, y_label: &str, series: &[Series]) -> String {
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (x_min, x_max) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    let (x_min, x_max) = if x_min < x_max {
        (x_min, x_max)
    } else {
        (x_min.min(0.0), x_min.max(0.0) + 1.0)
    };
    let x_ticks = nice_ticks(x_min, x_max, 16);
    let x_step = x_ticks.get(1).map_or(1.0, |t| t - x_ticks[0]);
    // Half a step of room at either end, for the markers and intervals drawn around a point.
    let (x_min, x_max) = (x_min - x_step / 2.0, x_max + x_step / 2.0);
    // Monte Carlo minus exact, with its interval, wherever both exist.
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
    let has_residuals = residuals.iter().any(|r| !r.is_empty());

    let plot_w = WIDTH - LEFT - LABELS;
    let plot_h = 330.0;
    let gap = 70.0;
    let res_h = if has_residuals { 130.0 } else { 0.0 };
    let res_top = TOP + plot_h + gap;
    let height = TOP + plot_h + if has_residuals { gap + res_h } else { 0.0 } + 55.0;
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
    for &t in &x_ticks {
        let x = px(t);
        let _ = writeln!(
            out,
            r##"<line class="grid" x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{b:.1}" stroke="#eeeeee"/><text x="{x:.1}" y="{ty:.1}" text-anchor="middle">{label}</text>"##,
            b = TOP + plot_h,
            ty = TOP + plot_h + 18.0,
            label = tick_label(t, x_step, "", false),
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

    // Where each line's name goes: beside its last point, nudged apart.
    let mut ends: Vec<(usize, f64)> = series
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.points.last().map(|p| (i, py(p.1))))
        .collect();
    let wanted: Vec<(usize, f64)> = ends.clone();
    spread(&mut ends, 13.0, TOP + 4.0, TOP + plot_h);

    for (i, s) in series.iter().enumerate() {
        let colour = if s.dashed {
            DASHED
        } else {
            PALETTE[i % PALETTE.len()]
        };
        let _ = writeln!(
            out,
            r#"<g id="series-{i}" class="series" data-name="{}">"#,
            escape(&s.name)
        );
        let points: Vec<String> = s
            .points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        let dash = if s.dashed {
            r#" stroke-dasharray="7 4""#
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r#"<polyline class="line" points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"#,
            points.join(" ")
        );
        if !s.dashed {
            for &(x, y) in &s.points {
                let _ = writeln!(out, "{}", marker(i, px(x), py(y), colour));
            }
        }
        // Intervals with no exact value to compare with stay in the main panel.
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
                r#"<path class="leader" d="M{x:.1},{from:.1}L{a:.1},{to:.1}H{b:.1}" stroke="{colour}" fill="none"/><text class="label" x="{tx:.1}" y="{ty:.1}" fill="{colour}">{}</text>"#,
                escape(&s.name),
                a = x + 10.0,
                b = x + 14.0,
                tx = x + 17.0,
                ty = to + 4.0,
            );
        }
        let _ = writeln!(out, "</g>");
    }

    if has_residuals {
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
            ty = res_top - 10.0,
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
        for &t in &x_ticks {
            let _ = writeln!(
                out,
                r##"<text x="{x:.1}" y="{ty:.1}" text-anchor="middle">{label}</text>"##,
                x = px(t),
                ty = res_top + res_h + 18.0,
                label = tick_label(t, x_step, "", false),
            );
        }
        let _ = writeln!(
            out,
            r##"<rect x="{LEFT}" y="{res_top:.1}" width="{plot_w:.1}" height="{res_h:.1}" fill="none" stroke="#333"/>"##
        );
        // Side by side within each x, so that no two intervals hide each other.
        let n = series.len().max(1) as f64;
        let slot = (px(x_min + x_step) - px(x_min)).min(plot_w) * 0.8 / n;
        for (i, (s, r)) in series.iter().zip(&residuals).enumerate() {
            let colour = if s.dashed {
                DASHED
            } else {
                PALETTE[i % PALETTE.len()]
            };
            let _ = writeln!(
                out,
                r#"<g class="residual" data-name="{}">"#,
                escape(&s.name)
            );
            for &(x, e, lo, hi) in r {
                let cx = px(x) + (i as f64 - (n - 1.0) / 2.0) * slot;
                let _ = writeln!(out, "{}", error_bar(cx, ry(lo), ry(hi), colour));
                let _ = writeln!(out, "{}", marker(i, cx, ry(e), colour));
            }
            let _ = writeln!(out, "</g>");
        }
        let _ = writeln!(out, "</g>");
    }
    out.push_str("</svg>\n");
    out
}

/// One panel of a bar chart: a heading and one value per label for each series.
#[derive(Clone, Debug)]
pub struct Panel {
    /// Written above the panel.
    pub heading: String,
    /// Values per series, one per label, in the chart's units.
    pub values: Vec<Vec<f64>>,
}

/// The value written at the end of a bar: two decimals, signed, tiny values as `0.00`.
fn bar_label(v: f64) -> String {
    if v.abs() < TINY {
        "0.00".into()
    } else {
        format!("{v:+.2}")
    }
}

/// Horizontal bars of signed values (e.g. effects in percentage points) in side-by-side
/// panels sharing one axis: one row of bars per label, one bar per series within the row.
pub fn bar_chart(
    title: &str,
    value_label: &str,
    labels: &[String],
    series: &[String],
    panels: &[Panel],
) -> String {
    let values = panels
        .iter()
        .flat_map(|p| p.values.iter().flatten().copied());
    let max = values.fold(0.0f64, |m, v| m.max(v.abs())).max(0.1);
    // Room beyond the largest bar for its value.
    let room = max * 1.35;
    let ticks = nice_ticks(-room, room, 4);
    let step = ticks.get(1).map_or(max, |t| t - ticks[0]);
    let extent = ticks.iter().fold(room, |m, t| m.max(t.abs()));
    let left = 200.0;
    let right = 20.0;
    let panel_gap = 16.0;
    let n_panels = panels.len().max(1) as f64;
    let panel_w = (WIDTH - left - right - panel_gap * (n_panels - 1.0)) / n_panels;
    let bar_h = 13.0;
    let group_h = bar_h * series.len() as f64 + 12.0;
    let top = TOP + 40.0;
    let plot_h = group_h * labels.len() as f64;
    let height = top + plot_h + 60.0;

    let mut out = String::new();
    header(&mut out, title, WIDTH, height);
    // Legend: one swatch per series, in a row under the title.
    let mut lx = left;
    for (i, name) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let _ = writeln!(
            out,
            r#"<rect class="swatch" x="{lx:.1}" y="{y:.1}" width="14" height="12" fill="{colour}"/><text x="{tx:.1}" y="{ty:.1}">{}</text>"#,
            escape(name),
            y = TOP - 8.0,
            tx = lx + 19.0,
            ty = TOP + 2.0,
        );
        lx += 40.0 + 7.0 * name.chars().count() as f64;
    }
    for (g, label) in labels.iter().enumerate() {
        let gy = top + g as f64 * group_h;
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{y:.1}" text-anchor="end">{}</text>"#,
            escape(label),
            x = left - 8.0,
            y = gy + group_h / 2.0 + 4.0,
        );
    }
    for (p, panel) in panels.iter().enumerate() {
        let x0 = left + p as f64 * (panel_w + panel_gap);
        let px = |v: f64| x0 + (v + extent) / (2.0 * extent) * panel_w;
        let _ = writeln!(
            out,
            r#"<g class="panel" data-name="{h}"><text x="{cx:.1}" y="{y:.1}" text-anchor="middle" font-weight="bold">{h}</text>"#,
            h = escape(&panel.heading),
            cx = x0 + panel_w / 2.0,
            y = top - 10.0,
        );
        for &t in &ticks {
            let x = px(t);
            let stroke = if t == 0.0 { "#333333" } else { "#dddddd" };
            let _ = writeln!(
                out,
                r##"<line class="grid" x1="{x:.1}" y1="{top:.1}" x2="{x:.1}" y2="{b:.1}" stroke="{stroke}"/><text x="{x:.1}" y="{ty:.1}" text-anchor="middle" fill="#444">{label}</text>"##,
                b = top + plot_h,
                ty = top + plot_h + 16.0,
                label = tick_label(t, step, "", true),
            );
        }
        for (i, values) in panel.values.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let name = series.get(i).map_or("", String::as_str);
            let _ = writeln!(out, r#"<g class="series" data-name="{}">"#, escape(name));
            for (g, &v) in values.iter().enumerate() {
                let v = if v.abs() < TINY { 0.0 } else { v };
                let y = top + g as f64 * group_h + 6.0 + bar_h * i as f64;
                let zero = px(0.0);
                let (a, b) = if v >= 0.0 {
                    (zero, px(v))
                } else {
                    (px(v), zero)
                };
                let (tx, anchor) = if v >= 0.0 {
                    (b + 3.0, "start")
                } else {
                    (a - 3.0, "end")
                };
                let _ = writeln!(
                    out,
                    r#"<rect class="bar" x="{a:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{colour}"><title>{n}: {v:+.4}</title></rect><text class="value" x="{tx:.1}" y="{ty:.1}" text-anchor="{anchor}" font-size="10">{label}</text>"#,
                    n = escape(name),
                    w = b - a,
                    h = bar_h - 2.0,
                    ty = y + bar_h - 4.0,
                    label = bar_label(v),
                );
            }
            let _ = writeln!(out, "</g>");
        }
        let _ = writeln!(out, "</g>");
    }
    let _ = writeln!(
        out,
        r#"<text x="{cx:.1}" y="{y:.1}" text-anchor="middle">{}</text>"#,
        escape(value_label),
        cx = left + (WIDTH - left - right) / 2.0,
        y = height - 18.0,
    );
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(
            nice_ticks(0.0, 100.0, 10),
            (0..=10).map(|i| f64::from(i) * 10.0).collect::<Vec<_>>()
        );
        // The rule-variant chart once had ticks at ±10.76.
        assert_eq!(
            nice_ticks(-10.76, 10.76, 4),
            vec![-10.0, -5.0, 0.0, 5.0, 10.0]
        );
        assert_eq!(nice_ticks(-0.3, 0.3, 4), vec![-0.2, 0.0, 0.2]);
        assert_eq!(tick_label(-0.2, 0.2, "", true), "-0.2");
        assert_eq!(tick_label(0.0, 0.2, "", true), "0.0");
        assert_eq!(tick_label(40.0, 10.0, "%", false), "40%");
    }

    #[test]
    fn spread_labels_keep_their_distance_and_stay_in_bounds() {
        let mut ends = vec![(0, 100.0), (1, 101.0), (2, 102.0), (3, 300.0)];
        spread(&mut ends, 13.0, 50.0, 290.0);
        let ys: Vec<f64> = ends.iter().map(|e| e.1).collect();
        for w in ys.windows(2) {
            assert!(w[1] - w[0] >= 13.0 - 1e-9, "{ys:?}");
        }
        assert!(ys.iter().all(|y| (50.0..=290.0).contains(y)), "{ys:?}");
    }

    #[test]
    fn line_chart_has_one_group_per_series_and_escapes_names() {
        let series = vec![
            Series {
                name: "a<b".into(),
                points: vec![(0.0, 0.1), (1.0, 0.2)],
                intervals: vec![(0.0, 0.11, 0.05, 0.15), (1.0, 0.19, 0.15, 0.25)],
                dashed: false,
            },
            Series {
                name: "optimal".into(),
                points: vec![(0.0, 0.3), (1.0, 0.4)],
                intervals: vec![],
                dashed: true,
            },
        ];
        let svg = line_chart("t", "x", "y", &series);
        assert_eq!(svg.matches(r#"class="series""#).count(), 2);
        assert!(svg.contains("a&lt;b"));
        // Both intervals of the first series, against its exact values.
        assert_eq!(svg.matches(r#"class="interval""#).count(), 2);
        assert_eq!(svg.matches(r#"class="label""#).count(), 2);
        assert!(svg.contains(">40%<"), "percent axis");
        assert!(svg.ends_with("</svg>\n"));
    }

    #[test]
    fn bar_chart_draws_every_value_and_tiny_ones_as_zero() {
        let labels = vec!["x".to_string(), "y".to_string()];
        let series = vec!["s".to_string()];
        let panels = vec![
            Panel {
                heading: "one".into(),
                values: vec![vec![0.5, -0.25]],
            },
            Panel {
                heading: "two".into(),
                values: vec![vec![-0.0013, 0.25]],
            },
        ];
        let svg = bar_chart("t", "pp", &labels, &series, &panels);
        assert_eq!(svg.matches(r#"class="bar""#).count(), 4);
        assert!(svg.contains(">+0.50<") && svg.contains(">-0.25<"), "{svg}");
        // −0.0013 is drawn as zero: no width, labelled 0.00, not −0.00.
        assert!(svg.contains(">0.00<"), "{svg}");
        assert!(!svg.contains("-0.00"), "{svg}");
        assert_eq!(svg.matches(r#"width="0.0""#).count(), 1, "{svg}");
    }
}
