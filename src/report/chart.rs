//! Self-contained SVG charts: a line chart with interval bands and a horizontal bar chart.
//!
//! Hand-written SVG keeps the files small, deterministic (fixed number formatting) and free of
//! font dependencies; they open in any browser and embed in Markdown.

use std::fmt::Write;

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 460.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 200.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;

/// Colour-blind-safe palette (Okabe–Ito), then greys.
const PALETTE: [&str; 10] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000",
    "#777777", "#AAAAAA",
];

/// One line of a line chart.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// `(x, y)` points in drawing order.
    pub points: Vec<(f64, f64)>,
    /// Optional interval band: `(x, low, high)`.
    pub band: Vec<(f64, f64, f64)>,
    /// Draw dashed (e.g. for a reference line such as the optimum).
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
fn header(out: &mut String, title: &str, height: f64) {
    let _ = writeln!(
        out,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height:.0}" viewBox="0 0 {WIDTH} {height:.0}" font-family="Helvetica, Arial, sans-serif" font-size="12">
<title>{t}</title>
<rect width="100%" height="100%" fill="white"/>
<text x="{x:.1}" y="28" font-size="16" text-anchor="middle">{t}</text>"#,
        t = escape(title),
        x = WIDTH / 2.0
    );
}

/// A line chart of `series` over x, with y in `[y_min, y_max]`; bands drawn translucent.
pub fn line_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    y_range: (f64, f64),
) -> String {
    let xs = series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (x_min, x_max) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
        (lo.min(x), hi.max(x))
    });
    let (x_min, x_max) = if x_min < x_max {
        (x_min, x_max)
    } else {
        (0.0, 1.0)
    };
    let (y_min, y_max) = y_range;
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let px = |x: f64| LEFT + (x - x_min) / (x_max - x_min) * plot_w;
    let py = |y: f64| TOP + (1.0 - (y - y_min) / (y_max - y_min)) * plot_h;

    let mut out = String::new();
    header(&mut out, title, HEIGHT);
    // Grid and ticks.
    for i in 0..=10 {
        let y = y_min + (y_max - y_min) * f64::from(i) / 10.0;
        let _ = writeln!(
            out,
            r##"<line x1="{LEFT}" y1="{v:.1}" x2="{r:.1}" y2="{v:.1}" stroke="#e5e5e5"/><text x="{t:.1}" y="{ty:.1}" text-anchor="end">{y:.1}</text>"##,
            v = py(y),
            r = LEFT + plot_w,
            t = LEFT - 6.0,
            ty = py(y) + 4.0,
        );
    }
    let mut x = x_min.ceil();
    while x <= x_max {
        let _ = writeln!(
            out,
            r##"<line x1="{v:.1}" y1="{b:.1}" x2="{v:.1}" y2="{b2:.1}" stroke="#333"/><text x="{v:.1}" y="{ty:.1}" text-anchor="middle">{x}</text>"##,
            v = px(x),
            b = TOP + plot_h,
            b2 = TOP + plot_h + 5.0,
            ty = TOP + plot_h + 18.0,
        );
        x += 1.0;
    }
    let _ = writeln!(
        out,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w:.1}" height="{plot_h:.1}" fill="none" stroke="#333"/>
<text x="{cx:.1}" y="{xy:.1}" text-anchor="middle">{xl}</text>
<text transform="translate(18 {cy:.1}) rotate(-90)" text-anchor="middle">{yl}</text>"##,
        cx = LEFT + plot_w / 2.0,
        xy = HEIGHT - 18.0,
        xl = escape(x_label),
        cy = TOP + plot_h / 2.0,
        yl = escape(y_label),
    );
    for (i, s) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let id = format!("series-{i}");
        let _ = writeln!(
            out,
            r#"<g id="{id}" class="series" data-name="{}">"#,
            escape(&s.name)
        );
        if !s.band.is_empty() {
            let upper = s
                .band
                .iter()
                .map(|&(x, _, hi)| format!("{:.1},{:.1}", px(x), py(hi)));
            let lower = s
                .band
                .iter()
                .rev()
                .map(|&(x, lo, _)| format!("{:.1},{:.1}", px(x), py(lo)));
            let points: Vec<String> = upper.chain(lower).collect();
            let _ = writeln!(
                out,
                r#"<polygon class="band" points="{}" fill="{colour}" fill-opacity="0.18" stroke="none"/>"#,
                points.join(" ")
            );
        }
        let points: Vec<String> = s
            .points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        let dash = if s.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = writeln!(
            out,
            r#"<polyline class="line" points="{}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>"#,
            points.join(" ")
        );
        let ly = TOP + 10.0 + 20.0 * i as f64;
        let lx = LEFT + plot_w + 14.0;
        let _ = writeln!(
            out,
            r#"<line x1="{lx:.1}" y1="{ly:.1}" x2="{lx2:.1}" y2="{ly:.1}" stroke="{colour}" stroke-width="3"{dash}/><text x="{tx:.1}" y="{ty:.1}">{}</text>
</g>"#,
            escape(&s.name),
            lx2 = lx + 22.0,
            tx = lx + 28.0,
            ty = ly + 4.0,
        );
    }
    out.push_str("</svg>\n");
    out
}

/// A horizontal bar chart of signed values (e.g. effects in percentage points), one group of
/// bars per label and one bar per series within the group.
pub fn bar_chart(
    title: &str,
    value_label: &str,
    labels: &[String],
    series: &[(String, Vec<f64>)],
) -> String {
    let values = series.iter().flat_map(|(_, v)| v.iter().copied());
    let extent = values.fold(0.0f64, |m, v| m.max(v.abs())).max(1e-9) * 1.1;
    let left = 230.0;
    let plot_w = WIDTH - left - 150.0;
    let bar_h = 12.0;
    let group_h = bar_h * series.len() as f64 + 10.0;
    let height = TOP + BOTTOM + group_h * labels.len() as f64;
    let px = |v: f64| left + (v + extent) / (2.0 * extent) * plot_w;

    let mut out = String::new();
    header(&mut out, title, height);
    let zero = px(0.0);
    let bottom = height - BOTTOM;
    let _ = writeln!(
        out,
        r##"<line x1="{zero:.1}" y1="{TOP}" x2="{zero:.1}" y2="{bottom:.1}" stroke="#333"/>
<text x="{cx:.1}" y="{ly:.1}" text-anchor="middle">{vl}</text>"##,
        cx = left + plot_w / 2.0,
        ly = height - 18.0,
        vl = escape(value_label),
    );
    for i in 0..=4 {
        let v = -extent + 2.0 * extent * f64::from(i) / 4.0;
        let _ = writeln!(
            out,
            r##"<text x="{x:.1}" y="{y:.1}" text-anchor="middle" fill="#555">{v:+.2}</text>"##,
            x = px(v),
            y = bottom + 16.0,
        );
    }
    for (g, label) in labels.iter().enumerate() {
        let gy = TOP + g as f64 * group_h;
        let _ = writeln!(
            out,
            r#"<text x="{x:.1}" y="{y:.1}" text-anchor="end">{}</text>"#,
            escape(label),
            x = left - 8.0,
            y = gy + group_h / 2.0 + 2.0,
        );
    }
    for (i, (name, values)) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let _ = writeln!(
            out,
            r#"<g id="series-{i}" class="series" data-name="{}">"#,
            escape(name)
        );
        for (g, v) in values.iter().enumerate() {
            let y = TOP + g as f64 * group_h + 5.0 + bar_h * i as f64;
            let (x0, x1) = if *v >= 0.0 {
                (zero, px(*v))
            } else {
                (px(*v), zero)
            };
            let _ = writeln!(
                out,
                r#"<rect class="bar" x="{x0:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="{colour}"><title>{}: {v:+.4}</title></rect>"#,
                escape(name),
                w = (x1 - x0).max(0.5),
                h = bar_h - 2.0,
            );
        }
        let lx = WIDTH - 140.0;
        let ly = TOP + 10.0 + 20.0 * i as f64;
        let _ = writeln!(
            out,
            r#"<rect x="{lx:.1}" y="{y:.1}" width="14" height="10" fill="{colour}"/><text x="{tx:.1}" y="{ty:.1}">{}</text>
</g>"#,
            escape(name),
            y = ly - 5.0,
            tx = lx + 20.0,
            ty = ly + 4.0,
        );
    }
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
                band: vec![(0.0, 0.05, 0.15), (1.0, 0.15, 0.25)],
                dashed: false,
            },
            Series {
                name: "optimal".into(),
                points: vec![(0.0, 0.3), (1.0, 0.4)],
                band: vec![],
                dashed: true,
            },
        ];
        let svg = line_chart("t", "x", "y", &series, (0.0, 1.0));
        assert_eq!(svg.matches(r#"class="series""#).count(), 2);
        assert!(svg.contains("a&lt;b"));
        assert_eq!(svg.matches("<polygon").count(), 1);
        assert!(svg.ends_with("</svg>\n"));
    }

    #[test]
    fn bar_chart_draws_every_value() {
        let labels = vec!["x".to_string(), "y".to_string()];
        let series = vec![("s".to_string(), vec![0.5, -0.25])];
        let svg = bar_chart("t", "pp", &labels, &series);
        assert_eq!(svg.matches(r#"class="bar""#).count(), 2);
    }
}
