//! Statistics: confidence intervals and significance tests.

use statrs::distribution::{ContinuousCDF, Normal};

/// The two-sided standard-normal quantile for confidence `level` (e.g. 1.96 for 0.95).
pub fn z_for(level: f64) -> f64 {
    let normal = Normal::standard();
    normal.inverse_cdf(0.5 + level / 2.0)
}

/// The Wilson score interval for `successes` out of `trials` at confidence `level`.
/// Returns `(0, 1)` when there are no trials.
pub fn wilson(successes: u64, trials: u64, level: f64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z = z_for(level);
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At 0 or n successes the bound is exactly 0 or 1; rounding must not move it.
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if successes == trials {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z_matches_textbook_quantiles() {
        assert!((z_for(0.95) - 1.959_964).abs() < 1e-6);
        assert!((z_for(0.99) - 2.575_829).abs() < 1e-6);
    }

    #[test]
    fn wilson_matches_textbook_values() {
        // Newcombe (1998), Statistics in Medicine 17:857, table I: 81/263 → 0.2553–0.3662.
        let (lo, hi) = wilson(81, 263, 0.95);
        assert!(
            (lo - 0.2553).abs() < 5e-5 && (hi - 0.3662).abs() < 5e-5,
            "{lo} {hi}"
        );
        // 15/148 → 0.0624–0.1605 (same table).
        let (lo, hi) = wilson(15, 148, 0.95);
        assert!(
            (lo - 0.0624).abs() < 5e-5 && (hi - 0.1605).abs() < 5e-5,
            "{lo} {hi}"
        );
        // Edge cases stay inside [0, 1] and contain the estimate.
        let (lo, hi) = wilson(0, 10, 0.95);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.0 && hi < 0.35);
        let (lo, hi) = wilson(10, 10, 0.95);
        assert!(lo > 0.65 && (hi - 1.0).abs() < 1e-12);
    }
}
