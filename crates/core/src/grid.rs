//! Design grids: every combination of a few design parameters' values on top of given rules —
//! the what-if sweeps of `raven explore` and of the browser explorer, laid out once so that
//! both visit the same points in the same order and skip the same ones.

use serde::Deserialize;

use crate::rules::{Design, Rules, RulesError};

/// The most points one sweep evaluates: each is a solve of optimal play and an exact
/// evaluation of every strategy asked for.
pub const MAX_POINTS: usize = 400;

/// One swept design parameter and its values, in the order given.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Axis {
    /// The parameter's key (`rules.md`'s design parameters).
    pub key: String,
    /// Its values, as written on the command line.
    pub values: Vec<String>,
}

/// One point of a grid: a value per axis and the rules they make.
#[derive(Clone, Debug, PartialEq)]
pub struct GridPoint {
    /// The axes' values, in axis order.
    pub values: Vec<String>,
    /// `base` with those values set.
    pub rules: Rules,
}

/// A combination of values the design refuses together, and why.
pub type Refused = (Vec<String>, RulesError);

/// Every combination of `axes`' values on top of `base`, the last axis varying fastest: per
/// combination, its point, or its values and why the design refuses them together
/// ([`Design::check`]). An error when an axis is no design parameter, a value does not fit
/// its key, or the grid has more than [`MAX_POINTS`] combinations.
pub fn points(base: &Rules, axes: &[Axis]) -> Result<Vec<Result<GridPoint, Refused>>, String> {
    for axis in axes {
        if !Design::keys().any(|k| k == axis.key) {
            let allowed = Design::keys().collect::<Vec<_>>().join(", ");
            return Err(format!(
                "'{}' is not a design parameter (allowed: {allowed})",
                axis.key
            ));
        }
    }
    let mut combos: Vec<Vec<String>> = vec![Vec::new()];
    for axis in axes {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                axis.values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push(v.clone());
                    c
                })
            })
            .collect();
    }
    if combos.len() > MAX_POINTS {
        return Err(format!(
            "the grid has {} points; explore evaluates at most {MAX_POINTS} in one run",
            combos.len()
        ));
    }
    combos
        .into_iter()
        .map(|values| {
            let mut rules = *base;
            for (axis, value) in axes.iter().zip(&values) {
                rules.set(&axis.key, value).map_err(|e| e.to_string())?;
            }
            Ok(match rules.design.check() {
                Ok(()) => Ok(GridPoint { values, rules }),
                Err(e) => Err((values, e)),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::MAIN_TEXT;

    fn axis(key: &str, values: &[&str]) -> Axis {
        Axis {
            key: key.to_string(),
            values: values.iter().map(|v| v.to_string()).collect(),
        }
    }

    #[test]
    fn points_follow_the_axes_last_fastest_and_skip_what_the_design_refuses() {
        let grid = points(
            &MAIN_TEXT,
            &[
                axis("threshold", &["4", "5"]),
                axis("eased-threshold", &["4", "5"]),
            ],
        )
        .unwrap();
        let values: Vec<Vec<String>> = grid
            .iter()
            .map(|p| match p {
                Ok(p) => p.values.clone(),
                Err((v, _)) => v.clone(),
            })
            .collect();
        assert_eq!(values, [["4", "4"], ["4", "5"], ["5", "4"], ["5", "5"]]);
        for p in grid.iter().flatten() {
            assert_eq!(p.rules.design.threshold.to_string(), p.values[0]);
            assert_eq!(p.rules.design.eased_threshold.to_string(), p.values[1]);
        }
        // An eased threshold above the threshold is no design.
        assert!(grid[1].is_err(), "{:?}", grid[1]);
        assert!(grid[0].is_ok() && grid[3].is_ok());
    }

    #[test]
    fn unknown_keys_and_grids_too_large_are_refused() {
        assert!(
            points(&MAIN_TEXT, &[axis("recruit.count", &["1"])])
                .unwrap_err()
                .contains("not a design parameter")
        );
        let many: Vec<String> = (0..21).map(|v| v.to_string()).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert!(
            points(
                &MAIN_TEXT,
                &[axis("run-challenges", &many), axis("threshold", &many)]
            )
            .unwrap_err()
            .contains("at most 400")
        );
    }
}
