//! Self-contained SVG charts, one module per kind: line charts of probabilities ([`line`]),
//! small multiples of horizontal bars ([`bar`]), fans along a game's stages ([`fan`]), heat
//! maps ([`heat`]), on shared axes
//! ([`axes`]) and one colour per strategy ([`palette`]).
//!
//! Hand-written SVG keeps the files small, deterministic (fixed number formatting) and free of
//! font dependencies; they open in any browser and embed in Markdown. What makes them
//! readable in five seconds, printed in grey as on screen:
//! - one colour and one marker per strategy, the same in every chart (optimal play always
//!   black), from a palette whose colours stay far apart;
//! - a few lines emphasised and named at their ends, nudged apart where they end close
//!   together, the others thin and grey behind them: a legend of eleven colours takes longer
//!   to match than five seconds;
//! - room for every text sized from the text itself ([`text_width`]), so that nothing is
//!   clipped and no two labels run into each other;
//! - gridlines at round values (1, 2 or 5 × 10ⁿ), axes in percent as the tables are, the
//!   headline values of the x axis marked;
//! - Monte Carlo intervals in a validation chart of their own (Monte Carlo minus exact, in
//!   percentage points): at 100,000 games an interval is a fraction of a point, well under a
//!   pixel on a 0–100% axis, so drawn there it could only be invisible;
//! - a value written at the end of every bar, and effects too small to print (under 0.005
//!   percentage points) drawn and written as zero rather than as a sliver of either sign.

mod axes;
mod bar;
mod fan;
mod heat;
mod line;
pub mod palette;

pub use axes::nice_ticks;
pub use bar::{Bars, Panel, TINY, bar_chart, bars};
pub use fan::{FanPanel, fan_chart};
pub use heat::{Cells, HeatAxis, HeatMap, heat_map};
pub use line::{Series, check_chart, line_chart, line_chart_marked};

use std::fmt::Write;

const WIDTH: f64 = 820.0;
const LEFT: f64 = 70.0;
const TOP: f64 = 50.0;

/// The width in pixels `text` takes at `size` pixels, estimated without a font: 0.6 em a
/// character, above the average of Helvetica, Arial or the sans-serif that stands in for them,
/// so that room sized by it is never too small.
fn text_width(text: &str, size: f64) -> f64 {
    0.6 * size * text.chars().count() as f64
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
