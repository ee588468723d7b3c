//! One colour and one marker per strategy, the same in every chart: a strategy is known by
//! its colour across the report, and optimal play is always black.
//!
//! The colours are Okabe–Ito's (distinct to the common forms of colour blindness) without its
//! near pairs, with darker stand-ins for its faint yellow and sky blue, plus a purple, a wine,
//! a grey, a teal and a magenta from Tol's muted scheme: ten that stay apart on white. Each strategy also has its own
//! marker shape, so that two lines never depend on colour alone.

use crate::strategy::{OPTIMAL, playbook};

/// The colours, in the order the bundled strategies are given them.
pub const PALETTE: [&str; 10] = [
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#997700", "#332288", "#882255", "#666666",
    "#44AA99", "#AA4499",
];

/// Optimal play's colour (its lines are also dashed).
pub const OPTIMAL_COLOUR: &str = "#000000";

/// Where `name` sits in the palette: a bundled strategy by its place in the playbook (so
/// `reference` is always blue, `duo` always purple), any other series by `position` after
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
}
