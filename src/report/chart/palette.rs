//! One colour and one marker per strategy, the same in every chart: a strategy is known by
//! its colour across the report, and optimal play is always black.
//!
//! The colours are twelve from Tableau's, Tol's, Okabe–Ito's and ColorBrewer's categorical
//! schemes, chosen so that no two are nearer than 38 in CIELAB (ΔE*76; a just-noticeable
//! difference is about 2, and lines of the same hue family at 20 read as one), and none near
//! black: the strategies the report emphasises (the reference blue, `tuned` orange,
//! `tuned-clarified` green, their rule cards a darker gold and green, optimal play black)
//! stand apart from each other and from the rest. Each strategy also has its own
//! marker shape, so that two lines never depend on colour alone.

use crate::strategy::{OPTIMAL, playbook};

/// The colours, in the order the bundled strategies are given them.
pub const PALETTE: [&str; 12] = [
    "#1F77B4", "#7F7F7F", "#D62728", "#CC79A7", "#BCBD22", "#332288", "#17BECF", "#EE3377",
    "#FF7F0E", "#2CA02C", "#A6761D", "#225522",
];

/// Optimal play's colour (its lines are also dashed).
pub const OPTIMAL_COLOUR: &str = "#000000";

/// Where `name` sits in the palette: a bundled strategy by its place in the playbook (so
/// `reference` is always blue, `tuned` always orange), any other series by `position` after
/// them; `None` for optimal play.
fn slot(name: &str, position: usize) -> Option<usize> {
    if name == OPTIMAL {
        return None;
    }
    let bundled = playbook();
    Some(
        bundled
            .iter()
            .position(|n| n == name)
            .unwrap_or(bundled.len() + position),
    )
}

/// The colour of series `name`, drawn `position`-th in its chart (which only matters for a
/// name that is not a bundled strategy).
pub fn colour(name: &str, position: usize) -> &'static str {
    slot(name, position).map_or(OPTIMAL_COLOUR, |i| PALETTE[i % PALETTE.len()])
}

/// The marker of series `name` (as [`colour`]) at `(x, y)`.
pub fn marker_of(name: &str, position: usize, x: f64, y: f64) -> String {
    marker(
        slot(name, position).unwrap_or(0),
        x,
        y,
        colour(name, position),
    )
}

/// A marker shape for series `i` at `(x, y)`: filled shapes first, then hollow ones.
pub(super) fn marker(i: usize, x: f64, y: f64, colour: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_strategy_has_its_own_colour_and_optimal_is_black() {
        let names = playbook();
        assert!(names.len() <= PALETTE.len(), "one colour each");
        let colours: Vec<&str> = names.iter().map(|n| colour(n, 99)).collect();
        for (i, c) in colours.iter().enumerate() {
            assert!(!colours[..i].contains(c), "{} shares {c}", names[i]);
            assert_ne!(*c, OPTIMAL_COLOUR);
        }
        assert_eq!(colour(OPTIMAL, 0), OPTIMAL_COLOUR);
        // A strategy's colour does not depend on where it is drawn.
        assert_eq!(colour("duo", 0), colour("duo", 5));
    }

    /// CIELAB (D65) of `#rrggbb`.
    fn lab(hex: &str) -> [f64; 3] {
        let channel = |i: usize| {
            let c = f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
            if c <= 0.040_45 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        };
        let (r, g, b) = (channel(1), channel(3), channel(5));
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.950_47;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.088_83;
        let f = |t: f64| {
            if t > 0.008_856 {
                t.cbrt()
            } else {
                7.787 * t + 16.0 / 116.0
            }
        };
        [
            116.0 * f(y) - 16.0,
            500.0 * (f(x) - f(y)),
            200.0 * (f(y) - f(z)),
        ]
    }

    fn delta_e(a: &str, b: &str) -> f64 {
        let (a, b) = (lab(a), lab(b));
        (0..3).map(|k| (a[k] - b[k]).powi(2)).sum::<f64>().sqrt()
    }

    #[test]
    fn the_colours_stay_far_apart_and_away_from_optimal_black() {
        for (i, a) in PALETTE.iter().enumerate() {
            for b in &PALETTE[..i] {
                let d = delta_e(a, b);
                assert!(d >= 38.0, "{a} and {b} are {d:.1} apart");
            }
            let d = delta_e(a, OPTIMAL_COLOUR);
            assert!(d >= 40.0, "{a} is {d:.1} from optimal play's black");
        }
        // The conversion: white is L* 100, black 0, a grey has no hue.
        assert!((lab("#FFFFFF")[0] - 100.0).abs() < 0.01);
        assert!(lab("#000000")[0].abs() < 1e-9);
        assert!(lab("#7F7F7F")[1].abs() < 0.01 && lab("#7F7F7F")[2].abs() < 0.01);
    }
}
