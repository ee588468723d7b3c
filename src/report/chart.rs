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

/// One axis of a heat map: its name and the labels of its values, in drawing order.
#[derive(Clone, Debug)]
pub struct HeatAxis {
    /// The axis title (a parameter's key).
    pub label: String,
    /// One label per column (x) or row (y) of cells.
    pub values: Vec<String>,
}

/// The cells of one heat-map panel, `cells[y][x]`: a probability (0–1), or `None` where the
/// grid has no value (a point whose parameters do not fit together).
pub type Cells = Vec<Vec<Option<f64>>>;

/// Small multiples of heat maps sharing two axes: a row of panels per entry of `rows` (e.g.
/// a method), a panel per entry of `columns` (e.g. a stealth) within each row.
#[derive(Clone, Debug)]
pub struct HeatMap {
    /// Written above everything.
    pub title: String,
    /// Across each panel, first value on the left.
    pub x: HeatAxis,
    /// Up each panel, first value at the bottom, as on a chart's axis.
    pub y: HeatAxis,
    /// A heading per row of panels.
    pub rows: Vec<String>,
    /// A heading per panel within a row.
    pub columns: Vec<String>,
    /// `panels[row][column]`; a panel or cell that is missing is drawn as one without a value,
    /// so that a short list can never make the drawing fail.
    pub panels: Vec<Vec<Cells>>,
}

/// Viridis at tenths: a sequential scale whose lightness rises steadily, so that it reads in
/// grey and to colour-blind eyes; 0 is dark purple, 1 light yellow.
const VIRIDIS: [[u8; 3]; 11] = [
    [0x44, 0x01, 0x54],
    [0x48, 0x24, 0x75],
    [0x41, 0x44, 0x87],
    [0x35, 0x5f, 0x8d],
    [0x2a, 0x78, 0x8e],
    [0x21, 0x91, 0x8c],
    [0x22, 0xa8, 0x84],
    [0x44, 0xbf, 0x70],
    [0x7a, 0xd1, 0x51],
    [0xbd, 0xdf, 0x26],
    [0xfd, 0xe7, 0x25],
];

/// Gap between the panels of a heat map's row, in pixels.
const PANEL_GAP: f64 = 18.0;
/// Where a heat map's legend sits, and where its first row of panels starts.
const LEGEND_TOP: f64 = 46.0;
const HEAT_TOP: f64 = 92.0;
/// Above each row of panels: its heading, then the panels' headings.
const ROW_HEAD: f64 = 40.0;
/// Below each row of panels: the x values and the gap to the next row.
const ROW_FOOT: f64 = 34.0;

/// The colour of a probability on the sequential scale (clamped to 0–1), interpolated
/// between the tenths of [`VIRIDIS`] and rounded, so that it is the same on every machine.
fn heat_rgb(value: f64) -> [u8; 3] {
    let at = value.clamp(0.0, 1.0) * 10.0;
    let low = (at.floor() as usize).min(9);
    let t = at - low as f64;
    let (a, b) = (VIRIDIS[low], VIRIDIS[low + 1]);
    [0, 1, 2].map(|k| (f64::from(a[k]) + t * (f64::from(b[k]) - f64::from(a[k]))).round() as u8)
}

/// `#rrggbb` for SVG.
fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Black or white, whichever contrasts more with the cell (WCAG relative luminance; the two
/// contrast equally at about 0.18).
fn ink_on([r, g, b]: [u8; 3]) -> &'static str {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.040_45 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    if luminance > 0.179 {
        "#000000"
    } else {
        "#ffffff"
    }
}

/// The percentage written in a cell, as precise as the cell is wide; none in a cell too small
/// to hold one (the value stays in the cell's tooltip).
fn cell_label(value: f64, width: f64, height: f64) -> Option<String> {
    let percent = 100.0 * value;
    if height < 14.0 {
        None
    } else if width >= 40.0 {
        Some(format!("{percent:.1}%"))
    } else if width >= 28.0 {
        Some(format!("{percent:.0}%"))
    } else {
        None
    }
}

/// A value of a panel, `None` where the panel, the cell or a finite value is missing.
fn heat_value(map: &HeatMap, row: usize, column: usize, y: usize, x: usize) -> Option<f64> {
    let value = *map.panels.get(row)?.get(column)?.get(y)?.get(x)?;
    value.filter(|v| v.is_finite())
}

/// Whether some cell of some panel has no value (and the legend must explain the hatching).
fn has_gaps(map: &HeatMap) -> bool {
    let (nx, ny) = (map.x.values.len(), map.y.values.len());
    (0..map.rows.len()).any(|r| {
        (0..map.columns.len())
            .any(|c| (0..ny).any(|yi| (0..nx).any(|xi| heat_value(map, r, c, yi, xi).is_none())))
    })
}

/// Sizes of a heat map, from its counts of values and panels.
struct HeatLayout {
    cell_w: f64,
    cell_h: f64,
    /// Left of the first panel: room for the y axis title and the y values.
    left: f64,
    panel_w: f64,
    panel_h: f64,
    /// From the first panel's left to the last one's right.
    grid_w: f64,
    width: f64,
    height: f64,
    /// Every `x_step`-th x value is written, so that written values never overlap.
    x_step: usize,
}

/// Rough width in pixels of `text` at `size` pixels (no font metrics without a font).
fn text_width(text: &str, size: f64) -> f64 {
    0.6 * size * text.chars().count() as f64
}

impl HeatLayout {
    /// Cells as large as fit in the usual chart width (within limits that keep a label
    /// legible and a cell from looking like a bar), then the drawing sized around them.
    fn new(map: &HeatMap) -> Self {
        let nx = map.x.values.len().max(1) as f64;
        let ny = map.y.values.len().max(1) as f64;
        let columns = map.columns.len().max(1) as f64;
        let rows = map.rows.len().max(1) as f64;
        let widest_y = map.y.values.iter().map(|v| text_width(v, 11.0));
        let left = (36.0 + widest_y.fold(0.0, f64::max)).max(60.0);
        let room = WIDTH - left - 20.0 - PANEL_GAP * (columns - 1.0);
        // A panel at least as wide as its heading ("stealth 12").
        let cell_w = (room / (columns * nx)).clamp(16.0, 56.0).max(80.0 / nx);
        let cell_h = (cell_w * 0.6).clamp(16.0, 26.0);
        let (panel_w, panel_h) = (nx * cell_w, ny * cell_h);
        let grid_w = columns * panel_w + (columns - 1.0) * PANEL_GAP;
        let width = (left + grid_w + 20.0)
            .max(480.0)
            .max(text_width(&map.title, 16.0) + 40.0)
            .ceil();
        let height = HEAT_TOP + rows * (ROW_HEAD + panel_h + ROW_FOOT) + 20.0;
        let widest_x = map.x.values.iter().map(|v| text_width(v, 11.0));
        let x_step = ((widest_x.fold(0.0, f64::max) + 4.0) / cell_w)
            .ceil()
            .max(1.0) as usize;
        Self {
            cell_w,
            cell_h,
            left,
            panel_w,
            panel_h,
            grid_w,
            width,
            height,
            x_step,
        }
    }
}

/// The shared definitions: the scale as a gradient (for the legend) and the hatching of cells
/// without a value.
fn heat_defs(out: &mut String) {
    out.push_str("<defs>\n<linearGradient id=\"heat-scale\">");
    for (i, rgb) in VIRIDIS.iter().enumerate() {
        let _ = write!(
            out,
            r#"<stop offset="{}%" stop-color="{}"/>"#,
            i * 10,
            hex(*rgb)
        );
    }
    out.push_str(
        "</linearGradient>\n<pattern id=\"heat-skipped\" width=\"6\" height=\"6\" \
         patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">\
         <rect width=\"6\" height=\"6\" fill=\"#eeeeee\"/>\
         <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#999999\" stroke-width=\"2\"/>\
         </pattern>\n</defs>\n",
    );
}

/// The legend under the title: the scale from 0% to 100%, and the hatching when some cell
/// has no value.
fn heat_legend(out: &mut String, left: f64, any_skipped: bool) {
    let (w, h) = (200.0, 12.0);
    let _ = writeln!(
        out,
        r##"<g class="legend"><rect x="{left:.1}" y="{LEGEND_TOP:.1}" width="{w:.1}" height="{h:.1}" fill="url(#heat-scale)" stroke="#333"/>"##
    );
    for t in [0.0, 25.0, 50.0, 75.0, 100.0] {
        let x = left + t / 100.0 * w;
        let _ = writeln!(
            out,
            r##"<line x1="{x:.1}" y1="{a:.1}" x2="{x:.1}" y2="{b:.1}" stroke="#333"/><text x="{x:.1}" y="{ty:.1}" text-anchor="middle" font-size="11">{t:.0}%</text>"##,
            a = LEGEND_TOP + h,
            b = LEGEND_TOP + h + 4.0,
            ty = LEGEND_TOP + h + 16.0,
        );
    }
    let _ = writeln!(
        out,
        r#"<text x="{x:.1}" y="{y:.1}">win probability</text>"#,
        x = left + w + 10.0,
        y = LEGEND_TOP + h - 1.0,
    );
    if any_skipped {
        let x = left + w + 120.0;
        let _ = writeln!(
            out,
            r##"<rect x="{x:.1}" y="{LEGEND_TOP:.1}" width="14" height="{h:.1}" fill="url(#heat-skipped)" stroke="#999"/><text x="{tx:.1}" y="{y:.1}">not a valid design</text>"##,
            tx = x + 19.0,
            y = LEGEND_TOP + h - 1.0,
        );
    }
    let _ = writeln!(out, "</g>");
}

/// One cell at `(x, y)` pixels: coloured and labelled, or hatched without a number.
fn heat_cell(
    out: &mut String,
    map: &HeatMap,
    at: (f64, f64),
    size: (f64, f64),
    index: (usize, usize),
    value: Option<f64>,
) {
    let ((px, py), (w, h), (xi, yi)) = (at, size, index);
    let name =
        |axis: &HeatAxis, i: usize| axis.values.get(i).map_or("", String::as_str).to_string();
    let point = escape(&format!(
        "{}={}, {}={}",
        map.x.label,
        name(&map.x, xi),
        map.y.label,
        name(&map.y, yi)
    ));
    let Some(value) = value else {
        let _ = writeln!(
            out,
            r##"<rect class="cell skipped" x="{px:.1}" y="{py:.1}" width="{w:.1}" height="{h:.1}" fill="url(#heat-skipped)" stroke="#ffffff"><title>{point}: not a valid design</title></rect>"##
        );
        return;
    };
    let rgb = heat_rgb(value);
    let _ = writeln!(
        out,
        r##"<rect class="cell" x="{px:.1}" y="{py:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}" stroke="#ffffff"><title>{point}: {percent:.2}%</title></rect>"##,
        fill = hex(rgb),
        percent = 100.0 * value,
    );
    if let Some(label) = cell_label(value, w, h) {
        let _ = writeln!(
            out,
            r#"<text class="value" x="{x:.1}" y="{y:.1}" text-anchor="middle" font-size="10" fill="{ink}">{label}</text>"#,
            x = px + w / 2.0,
            y = py + h / 2.0 + 3.5,
            ink = ink_on(rgb),
        );
    }
}

/// One panel with its heading, cells, frame and x values; `(x0, y0)` is its top left.
fn heat_panel(
    out: &mut String,
    map: &HeatMap,
    layout: &HeatLayout,
    (row, column): (usize, usize),
    (x0, y0): (f64, f64),
) {
    let heading = map.columns.get(column).map_or("", String::as_str);
    let _ = writeln!(
        out,
        r#"<g class="panel" data-name="{h}"><text x="{cx:.1}" y="{ty:.1}" text-anchor="middle">{h}</text>"#,
        h = escape(heading),
        cx = x0 + layout.panel_w / 2.0,
        ty = y0 - 6.0,
    );
    let ny = map.y.values.len();
    for yi in 0..ny {
        // The first value at the bottom.
        let py = y0 + (ny - 1 - yi) as f64 * layout.cell_h;
        for xi in 0..map.x.values.len() {
            let px = x0 + xi as f64 * layout.cell_w;
            let value = heat_value(map, row, column, yi, xi);
            heat_cell(
                out,
                map,
                (px, py),
                (layout.cell_w, layout.cell_h),
                (xi, yi),
                value,
            );
        }
    }
    let _ = writeln!(
        out,
        r##"<rect x="{x0:.1}" y="{y0:.1}" width="{w:.1}" height="{h:.1}" fill="none" stroke="#333"/>"##,
        w = layout.panel_w,
        h = layout.panel_h,
    );
    for (xi, value) in map.x.values.iter().enumerate().step_by(layout.x_step) {
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{y:.1}" text-anchor="middle" font-size="11">{v}</text>"#,
            x = x0 + (xi as f64 + 0.5) * layout.cell_w,
            y = y0 + layout.panel_h + 14.0,
            v = escape(value),
        );
    }
    let _ = writeln!(out, "</g>");
}

/// The y values left of a row's first panel, first value at the bottom.
fn heat_y_values(out: &mut String, map: &HeatMap, layout: &HeatLayout, y0: f64) {
    let ny = map.y.values.len();
    for (yi, value) in map.y.values.iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{y:.1}" text-anchor="end" font-size="11">{v}</text>"#,
            x = layout.left - 6.0,
            y = y0 + ((ny - 1 - yi) as f64 + 0.5) * layout.cell_h + 4.0,
            v = escape(value),
        );
    }
}

/// Small multiples of heat maps: one cell per (x, y) value pair in every panel, coloured by
/// its probability on a fixed 0–100% scale (so that panels and charts compare), its
/// percentage written where the cell has room, cells without a value hatched; a row of panels
/// per row heading, a panel per column heading. The same map gives the same bytes.
pub fn heat_map(map: &HeatMap) -> String {
    let layout = HeatLayout::new(map);
    let mut out = String::new();
    header(&mut out, &map.title, layout.width, layout.height);
    heat_defs(&mut out);
    heat_legend(&mut out, layout.left, has_gaps(map));
    let row_h = ROW_HEAD + layout.panel_h + ROW_FOOT;
    for (r, heading) in map.rows.iter().enumerate() {
        let top = HEAT_TOP + r as f64 * row_h;
        let _ = writeln!(
            out,
            r#"<g class="row" data-name="{h}"><text x="{x:.1}" y="{y:.1}" font-size="13" font-weight="bold">{h}</text>"#,
            h = escape(heading),
            x = layout.left,
            y = top + 14.0,
        );
        let y0 = top + ROW_HEAD;
        heat_y_values(&mut out, map, &layout, y0);
        for c in 0..map.columns.len() {
            let x0 = layout.left + c as f64 * (layout.panel_w + PANEL_GAP);
            heat_panel(&mut out, map, &layout, (r, c), (x0, y0));
        }
        let _ = writeln!(out, "</g>");
    }
    let grid_h = layout.height - HEAT_TOP - 20.0;
    let _ = writeln!(
        out,
        r#"<text x="{cx:.1}" y="{xy:.1}" text-anchor="middle">{xl}</text>
<text transform="translate(18 {cy:.1}) rotate(-90)" text-anchor="middle">{yl}</text>"#,
        cx = layout.left + layout.grid_w / 2.0,
        xy = layout.height - 10.0,
        xl = escape(&map.x.label),
        cy = HEAT_TOP + grid_h / 2.0,
        yl = escape(&map.y.label),
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

    /// Two methods at one stealth over a 3 × 2 grid, with one point that is not a design.
    fn small_heat_map() -> HeatMap {
        let values = |v: &[&str]| v.iter().map(|s| (*s).to_string()).collect();
        HeatMap {
            title: "Win probability <main-text>".into(),
            x: HeatAxis {
                label: "run-challenges".into(),
                values: values(&["0", "1", "2"]),
            },
            y: HeatAxis {
                label: "tough-challenges".into(),
                values: values(&["1", "2"]),
            },
            rows: values(&["optimal", "reference"]),
            columns: values(&["stealth 8"]),
            panels: vec![
                vec![vec![
                    vec![Some(0.1), Some(0.5), None],
                    vec![Some(0.9), Some(1.0), Some(0.0)],
                ]],
                vec![vec![
                    vec![Some(0.05), Some(0.4), None],
                    vec![Some(0.8), Some(0.95), Some(0.0)],
                ]],
            ],
        }
    }

    /// The elements of `svg` with `class` among their classes.
    fn with_class<'a>(svg: &'a roxmltree::Document, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
        svg.descendants()
            .filter(|n| {
                n.attribute("class")
                    .is_some_and(|c| c.split(' ').any(|c| c == class))
            })
            .collect()
    }

    #[test]
    fn heat_map_draws_a_cell_per_point_and_panel_with_a_legend() {
        let map = small_heat_map();
        let svg = heat_map(&map);
        // Well-formed: every tag closed, every attribute quoted, the title escaped.
        let document = roxmltree::Document::parse(&svg).expect("well-formed SVG");
        assert!(svg.contains("Win probability &lt;main-text&gt;"), "{svg}");
        assert!(svg.ends_with("</svg>\n"));
        // 2 methods × 1 stealth × 3 × 2 points.
        assert_eq!(with_class(&document, "cell").len(), 12);
        assert_eq!(with_class(&document, "panel").len(), 2);
        assert_eq!(with_class(&document, "row").len(), 2);
        // The gaps are hatched and carry no number; every other cell is written.
        assert_eq!(with_class(&document, "skipped").len(), 2);
        assert_eq!(with_class(&document, "value").len(), 10);
        assert!(svg.contains(">50.0%<") && svg.contains(">100.0%<"), "{svg}");
        let legend = with_class(&document, "legend");
        assert_eq!(legend.len(), 1);
        let text: String = legend[0].descendants().filter_map(|n| n.text()).collect();
        assert!(text.contains("0%") && text.contains("100%"), "{text}");
        assert!(text.contains("not a valid design"), "{text}");
        // Deterministic: the same map, the same bytes.
        assert_eq!(heat_map(&map), svg);
    }

    #[test]
    fn heat_map_cells_too_small_for_a_number_and_short_panels_still_draw() {
        let values: Vec<String> = (0..20).map(|v| v.to_string()).collect();
        let axis = |label: &str| HeatAxis {
            label: label.into(),
            values: values.clone(),
        };
        let map = HeatMap {
            title: "t".into(),
            x: axis("threshold"),
            y: axis("team-size"),
            rows: vec!["optimal".into()],
            columns: vec!["stealth 8".into(), "stealth 10".into(), "stealth 12".into()],
            // One panel, one row of it, a NaN: everything else is a gap.
            panels: vec![vec![vec![vec![Some(0.5), Some(f64::NAN)]]]],
        };
        let svg = heat_map(&map);
        let document = roxmltree::Document::parse(&svg).expect("well-formed SVG");
        assert_eq!(with_class(&document, "cell").len(), 3 * 400);
        assert_eq!(with_class(&document, "skipped").len(), 3 * 400 - 1);
        assert!(
            with_class(&document, "value").is_empty(),
            "16-pixel cells hold no number"
        );
    }

    #[test]
    fn heat_colours_run_dark_to_light_and_clamp() {
        assert_eq!(heat_rgb(0.0), VIRIDIS[0]);
        assert_eq!(heat_rgb(-1.0), VIRIDIS[0]);
        assert_eq!(heat_rgb(1.0), VIRIDIS[10]);
        assert_eq!(heat_rgb(7.0), VIRIDIS[10]);
        assert_eq!(heat_rgb(0.5), VIRIDIS[5]);
        assert_eq!(ink_on(VIRIDIS[0]), "#ffffff");
        assert_eq!(ink_on(VIRIDIS[10]), "#000000");
        assert_eq!(cell_label(0.523, 56.0, 26.0).as_deref(), Some("52.3%"));
        assert_eq!(cell_label(0.523, 30.0, 18.0).as_deref(), Some("52%"));
        assert_eq!(cell_label(0.523, 16.0, 16.0), None);
    }
}
