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

/// Counts of paired outcomes over the same games: baseline and other strategy each win or lose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Paired {
    /// Both won.
    pub both: u64,
    /// Only the baseline won.
    pub only_baseline: u64,
    /// Only the other strategy won.
    pub only_other: u64,
    /// Both lost.
    pub neither: u64,
}

impl Paired {
    /// Number of pairs.
    pub fn games(&self) -> u64 {
        self.both + self.only_baseline + self.only_other + self.neither
    }

    /// The other strategy's win rate minus the baseline's: `(only_other - only_baseline) / n`.
    pub fn difference(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        (self.only_other as f64 - self.only_baseline as f64) / n as f64
    }
}

/// The Wald interval for the difference of two proportions measured on the same subjects
/// (Agresti, *Categorical Data Analysis*, 3rd ed., §11.1.1): `d ± z·√((b + c) − (b − c)²/n)/n`
/// with `b`, `c` the discordant counts. Exactly `(0, 0)` when there are no discordant pairs.
pub fn paired_difference(p: &Paired, level: f64) -> (f64, f64) {
    let n = p.games();
    let d = p.difference();
    if n == 0 || p.only_baseline + p.only_other == 0 {
        return (d, d);
    }
    let (b, c, n) = (p.only_other as f64, p.only_baseline as f64, n as f64);
    let se = ((b + c) - (b - c) * (b - c) / n).max(0.0).sqrt() / n;
    let z = z_for(level);
    (d - z * se, d + z * se)
}

/// The Wald interval for `p2 - p1` from two *independent* samples (what the difference would
/// look like without common random numbers): what the tests compare the paired interval to.
#[cfg(test)]
pub(crate) fn unpaired_difference(
    wins1: u64,
    n1: u64,
    wins2: u64,
    n2: u64,
    level: f64,
) -> (f64, f64) {
    let rate = |w: u64, n: u64| if n == 0 { 0.0 } else { w as f64 / n as f64 };
    let (p1, p2) = (rate(wins1, n1), rate(wins2, n2));
    let var = |p: f64, n: u64| {
        if n == 0 {
            0.0
        } else {
            p * (1.0 - p) / n as f64
        }
    };
    let se = (var(p1, n1) + var(p2, n2)).sqrt();
    let z = z_for(level);
    (p2 - p1 - z * se, p2 - p1 + z * se)
}

/// McNemar's test of equal win rates on paired outcomes, normal approximation without
/// continuity correction: `z = (b − c)/√(b + c)`, two-sided p-value. 1 when no pair differs.
pub fn mcnemar_p(p: &Paired) -> f64 {
    let discordant = p.only_baseline + p.only_other;
    if discordant == 0 {
        return 1.0;
    }
    let z = (p.only_other as f64 - p.only_baseline as f64) / (discordant as f64).sqrt();
    let normal = Normal::standard();
    // The survival function keeps precision far in the tail, where 1 - cdf would round to 0.
    (2.0 * normal.sf(z.abs())).clamp(0.0, 1.0)
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

    /// Agresti, Categorical Data Analysis (3rd ed.), table 11.1: presidential approval of
    /// 1600 people at two surveys — 794 yes/yes, 150 yes/no, 86 no/yes, 570 no/no.
    fn agresti() -> Paired {
        Paired {
            both: 794,
            only_baseline: 150,
            only_other: 86,
            neither: 570,
        }
    }

    #[test]
    fn paired_difference_matches_agresti() {
        // Difference 0.55 − 0.59 = −0.04, SE 0.0095, 95% interval (−0.059, −0.021).
        let p = agresti();
        assert!((p.difference() + 0.04).abs() < 1e-12);
        let (lo, hi) = paired_difference(&p, 0.95);
        assert!(
            (lo + 0.0587).abs() < 5e-4 && (hi + 0.0213).abs() < 5e-4,
            "{lo} {hi}"
        );
    }

    #[test]
    fn mcnemar_matches_agresti() {
        // z = (86 − 150)/√236 = −4.17: two-sided p ≈ 3.1e-5.
        let p = mcnemar_p(&agresti());
        assert!((p - 3.08e-5).abs() < 0.05e-5, "{p}");
        // b − c = 1.96·√(b + c) gives p = 0.05: b = 60, c = 40 → z = 2.0, p = 0.0455.
        let p = mcnemar_p(&Paired {
            only_other: 60,
            only_baseline: 40,
            ..Paired::default()
        });
        assert!((p - 0.0455).abs() < 1e-4, "{p}");
        // Far in the tail the p-value stays positive: z = √1000 ≈ 31.6, p ≈ 2.4e-219.
        let p = mcnemar_p(&Paired {
            only_other: 1000,
            ..Paired::default()
        });
        assert!(p > 1e-220 && p < 1e-218, "{p}");
    }

    #[test]
    fn identical_outcomes_give_zero_difference_and_p_one() {
        let same = Paired {
            both: 30,
            neither: 70,
            ..Paired::default()
        };
        assert_eq!(same.difference(), 0.0);
        assert_eq!(paired_difference(&same, 0.95), (0.0, 0.0));
        assert_eq!(mcnemar_p(&same), 1.0);
    }

    #[test]
    fn unpaired_difference_matches_textbook() {
        // Two independent samples 0.59 (944/1600) and 0.55 (880/1600): SE = 0.0175, so the
        // interval is −0.04 ± 0.0343 — much wider than the paired one on the same margins.
        let (lo, hi) = unpaired_difference(944, 1600, 880, 1600, 0.95);
        assert!(
            (lo + 0.0743).abs() < 5e-4 && (hi + 0.0057).abs() < 5e-4,
            "{lo} {hi}"
        );
    }
}
