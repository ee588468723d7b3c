//! Horizontal bars of signed or plain values, in side-by-side panels sharing one axis: rule
//! variants, levers (a tornado: biggest first), regret by kind of decision, loss causes.

use std::fmt::Write;

use super::axes::{nice_ticks, tick_label};
use super::palette::colour;
use super::{TOP, WIDTH, escape, header, text_width};
use crate::report::table::lines_within;

/// Effects smaller than this (in the chart's units) are drawn and labelled as zero.
pub const TINY: f64 = 0.005;

/// One panel of a bar chart: a heading and one value per label for each series.
#[derive(Clone, Debug)]
pub struct Panel {
    /// Written above the panel.
    pub heading: String,
    /// Values per series, one per label, in the chart's units.
    pub values: Vec<Vec<f64>>,
}

/// What a bar chart draws and how.
#[derive(Clone, Copy, Debug)]
pub struct Bars<'a> {
    /// Written above everything.
    pub title: &'a str,
    /// Written under the axis.
    pub value_label: &'a str,
    /// One row of bars per label, top to bottom.
    pub labels: &'a [String],
    /// One bar per series within a row (strategy names: each has its colour).
    pub series: &'a [String],
    /// Side by side, sharing the axis.
    pub panels: &'a [Panel],
    /// Values of either sign (written `+1.25`, axis centred on zero), or plain values of
    /// one sign (written `1.25`, axis from zero).
    pub signed: bool,
    /// Each row in the colour of its label (the labels are strategies and there is one
    /// series), rather than each series in its own.
    pub colour_rows: bool,
}

/// The value written at the end of a bar: two decimals, signed if asked, tiny values as
/// `0.00`.
fn bar_label(v: f64, signed: bool) -> String {
    if v.abs() < TINY {
        "0.00".into()
    } else if signed {
        format!("{v:+.2}")
    } else {
        format!("{v:.2}")
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
    bars(&Bars {
        title,
        value_label,
        labels,
        series,
        panels,
        signed: true,
        colour_rows: false,
    })
}

/// The horizontal layout of a bar chart: the value axis and where the panels go.
struct Across {
    /// The axis's ends, in the chart's units.
    from: f64,
    extent: f64,
    ticks: Vec<f64>,
    step: f64,
    /// Left of the first panel (right of the labels), the panels' width and the gap between.
    left: f64,
    panel_w: f64,
    panel_gap: f64,
}

impl Across {
    /// Room for the widest label on the left, a gap between panels wide enough that one
    /// panel's last tick and the next one's first read as two numbers, and room beyond the
    /// longest bar for its value.
    fn of(b: &Bars<'_>) -> Across {
        let max = b
            .panels
            .iter()
            .flat_map(|p| p.values.iter().flatten().copied())
            .fold(0.0f64, |m, v| m.max(v.abs()))
            .max(0.1);
        let widest = b
            .labels
            .iter()
            .map(|l| text_width(l, 12.0))
            .fold(0.0, f64::max);
        let left = (widest + 16.0).max(100.0);
        let value_w = 3.0 + text_width(&bar_label(-max, b.signed), 10.0);
        let n_panels = b.panels.len().max(1) as f64;
        let mut room = max * 1.35;
        // Widening the axis narrows nothing else, so a pass or two settles it.
        for attempt in 0.. {
            let low = if b.signed { -room } else { 0.0 };
            let ticks = nice_ticks(low, room, if b.signed { 4 } else { 3 });
            let step = ticks.get(1).map_or(max, |t| t - ticks[0]);
            let extent = ticks.iter().fold(room, |m, t| m.max(t.abs()));
            let from = if b.signed { -extent } else { 0.0 };
            let label = |t: Option<&f64>| {
                t.map_or(0.0, |&t| {
                    text_width(&tick_label(t, step, "", b.signed), 12.0) / 2.0
                })
            };
            let panel_gap = (label(ticks.first()) + label(ticks.last()) + 12.0).max(16.0);
            let panel_w = (WIDTH - left - 20.0 - panel_gap * (n_panels - 1.0)) / n_panels;
            // The room a bar of `max` leaves on its side of zero, in pixels.
            let side = if b.signed { panel_w / 2.0 } else { panel_w };
            let spare = side * (1.0 - max / extent);
            if spare >= value_w || side <= value_w || attempt == 4 {
                return Across {
                    from,
                    extent,
                    ticks,
                    step,
                    left,
                    panel_w,
                    panel_gap,
                };
            }
            room = max / (1.0 - value_w / side) * 1.05;
        }
        unreachable!("the fifth pass returns")
    }
}

/// The bar chart `b` describes.
pub fn bars(b: &Bars<'_>) -> String {
    let (labels, series, panels) = (b.labels, b.series, b.panels);
    let Across {
        from,
        extent,
        ticks,
        step,
        left,
        panel_w,
        panel_gap,
    } = Across::of(b);
    let right = 20.0;
    let bar_h = 13.0;
    let group_h = bar_h * series.len() as f64 + 12.0;
    let top = TOP + 40.0;
    let plot_h = group_h * labels.len() as f64;
    let height = top + plot_h + 60.0;

    let mut out = String::new();
    header(&mut out, b.title, WIDTH, height);
    // Legend: one swatch per series, in a row under the title (rows coloured by their label
    // need none: the label is beside its bar).
    let mut lx = left;
    for (i, name) in series.iter().enumerate().filter(|_| !b.colour_rows) {
        let colour = colour(name, i);
        let _ = writeln!(
            out,
            r#"<rect class="swatch" x="{lx:.1}" y="{y:.1}" width="14" height="12" fill="{colour}"/><text x="{tx:.1}" y="{ty:.1}">{}</text>"#,
            escape(name),
            y = TOP - 8.0,
            tx = lx + 19.0,
            ty = TOP + 2.0,
        );
        lx += 19.0 + text_width(name, 12.0) + 24.0;
    }
    // The labels in black: a light colour (lone-wolf's olive) would be hard to read as text;
    // the bars beside them carry the colour.
    for (g, label) in labels.iter().enumerate() {
        let gy = top + g as f64 * group_h;
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{y:.1}" text-anchor="end">{}</text>"#,
            escape(label),
            x = left - 10.0,
            y = gy + group_h / 2.0 + 4.0,
        );
    }
    for (p, panel) in panels.iter().enumerate() {
        let x0 = left + p as f64 * (panel_w + panel_gap);
        let px = |v: f64| x0 + (v - from) / (extent - from) * panel_w;
        let _ = write!(
            out,
            r#"<g class="panel" data-name="{}">"#,
            escape(&panel.heading)
        );
        let lines = lines_within(&panel.heading, |l| text_width(l, 12.0) <= panel_w);
        for (k, line) in lines.iter().enumerate() {
            let _ = write!(
                out,
                r#"<text x="{cx:.1}" y="{y:.1}" text-anchor="middle" font-weight="bold">{}</text>"#,
                escape(line),
                cx = x0 + panel_w / 2.0,
                y = top - 10.0 - 14.0 * (lines.len() - 1 - k) as f64,
            );
        }
        out.push('\n');
        for &t in &ticks {
            let x = px(t);
            let stroke = if t == 0.0 { "#333333" } else { "#dddddd" };
            let _ = writeln!(
                out,
                r##"<line class="grid" x1="{x:.1}" y1="{top:.1}" x2="{x:.1}" y2="{b:.1}" stroke="{stroke}"/><text x="{x:.1}" y="{ty:.1}" text-anchor="middle" fill="#444">{label}</text>"##,
                b = top + plot_h,
                ty = top + plot_h + 16.0,
                label = tick_label(t, step, "", b.signed),
            );
        }
        for (i, values) in panel.values.iter().enumerate() {
            let name = series.get(i).map_or("", String::as_str);
            let _ = writeln!(out, r#"<g class="series" data-name="{}">"#, escape(name));
            for (g, &v) in values.iter().enumerate() {
                // Who the bar stands for: its row's label, or its series.
                let (who, colour) = if b.colour_rows {
                    (labels[g].as_str(), colour(&labels[g], g))
                } else {
                    (name, colour(name, i))
                };
                let v = if v.abs() < TINY { 0.0 } else { v };
                let y = top + g as f64 * group_h + 6.0 + bar_h * i as f64;
                let zero = px(0.0);
                let (a, e) = if v >= 0.0 {
                    (zero, px(v))
                } else {
                    (px(v), zero)
                };
                let (tx, anchor) = if v >= 0.0 {
                    (e + 3.0, "start")
                } else {
                    (a - 3.0, "end")
                };
                let _ = writeln!(
                    out,
                    r#"<rect class="bar" data-name="{d}" x="{a:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{colour}"><title>{n}: {v:+.4}</title></rect><text class="value" x="{tx:.1}" y="{ty:.1}" text-anchor="{anchor}" font-size="10">{label}</text>"#,
                    n = escape(name),
                    d = escape(who),
                    w = e - a,
                    h = bar_h - 2.0,
                    ty = y + bar_h - 4.0,
                    label = bar_label(v, b.signed),
                );
            }
            let _ = writeln!(out, "</g>");
        }
        let _ = writeln!(out, "</g>");
    }
    // Under the panels' middle, moved in where it would leave the canvas.
    let half = text_width(b.value_label, 12.0) / 2.0;
    let _ = writeln!(
        out,
        r#"<text x="{cx:.1}" y="{y:.1}" text-anchor="middle">{}</text>"#,
        escape(b.value_label),
        cx = (left + (WIDTH - left - right) / 2.0)
            .min(WIDTH - 8.0 - half)
            .max(8.0 + half),
        y = height - 18.0,
    );
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

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
