//! Small multiples of heat maps: a probability per cell of a two-parameter grid, on a
//! sequential colour scale that reads in grey and to colour-blind eyes (`raven explore` over
//! two parameters).

use std::fmt::Write;

use super::{WIDTH, escape, header, text_width};

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
