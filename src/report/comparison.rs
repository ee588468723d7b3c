//! Paired comparisons of strategies on the same games (`raven compare`, the report's
//! `strategy-comparison.csv`): each strategy against the first, as CSV rows and a table.

use serde::Serialize;

use crate::engine::PairedTally;
use crate::rules::Rules;
use crate::stats::{mcnemar_p, paired_difference, wilson};

use super::table::{Align, Table};

/// One CSV row: a strategy at one starting stealth, against the baseline.
#[derive(Debug, Serialize, PartialEq)]
pub struct CompareRow {
    /// The strategy.
    pub strategy: String,
    /// The first strategy given.
    pub baseline: String,
    /// Rules in force.
    pub rules: String,
    /// Starting stealth.
    pub stealth: u8,
    /// Games played by each strategy.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// `wins / games`.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub win_rate: f64,
    /// Wilson interval, low end.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub ci_low: f64,
    /// Wilson interval, high end.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub ci_high: f64,
    /// Win rate minus the baseline's (same games).
    #[serde(serialize_with = "raven_core::rows::round")]
    pub diff: f64,
    /// Paired interval of `diff`, low end.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub diff_ci_low: f64,
    /// Paired interval of `diff`, high end.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub diff_ci_high: f64,
    /// McNemar's two-sided p-value for "same win rate as the baseline" (in scientific
    /// notation; one below the smallest double is written as it, `5e-324`).
    #[serde(serialize_with = "raven_core::rows::p_value")]
    pub p_value: f64,
    /// Games only the baseline won.
    pub only_baseline_won: u64,
    /// Games only this strategy won.
    pub only_strategy_won: u64,
    /// Confidence level of both intervals.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub ci_level: f64,
    /// The run's seed.
    pub seed: u64,
    /// The raven version that produced the row.
    pub raven_version: &'static str,
}

/// The rows of one stealth's paired tally.
pub fn rows(
    names: &[String],
    rules: Rules,
    stealth: u8,
    tally: &PairedTally,
    seed: u64,
    level: f64,
) -> Vec<CompareRow> {
    names
        .iter()
        .zip(tally.tallies.iter().zip(&tally.joint))
        .map(|(name, (t, joint))| {
            let ci = wilson(t.wins, t.games, level);
            let diff_ci = paired_difference(joint, level);
            CompareRow {
                strategy: name.clone(),
                baseline: names[0].clone(),
                rules: rules.to_string(),
                stealth,
                games: t.games,
                wins: t.wins,
                win_rate: if t.games == 0 {
                    0.0
                } else {
                    t.wins as f64 / t.games as f64
                },
                ci_low: ci.0,
                ci_high: ci.1,
                diff: joint.difference(),
                diff_ci_low: diff_ci.0,
                diff_ci_high: diff_ci.1,
                p_value: mcnemar_p(joint),
                only_baseline_won: joint.only_baseline,
                only_strategy_won: joint.only_other,
                ci_level: level,
                seed,
                raven_version: env!("CARGO_PKG_VERSION"),
            }
        })
        .collect()
}

/// A readable table of comparison rows.
pub fn table(rows: &[CompareRow]) -> String {
    let pct = |x: f64| format!("{:.2}%", 100.0 * x);
    let pp = |x: f64| format!("{:+.2}", 100.0 * x);
    let mut table = Table::new([
        ("strategy", Align::Left),
        ("stealth", Align::Right),
        ("win", Align::Right),
        ("interval", Align::Right),
        ("diff pp", Align::Right),
        ("diff interval", Align::Right),
        ("p", Align::Right),
    ]);
    for r in rows {
        let (diff, interval, p) = if r.strategy == r.baseline && r.diff == 0.0 && r.p_value == 1.0 {
            ("base".into(), String::new(), String::new())
        } else {
            (
                pp(r.diff),
                format!("{} … {}", pp(r.diff_ci_low), pp(r.diff_ci_high)),
                if r.p_value < 1e-300 {
                    "<1e-300".into()
                } else {
                    format!("{:.2e}", r.p_value)
                },
            )
        };
        table.row(vec![
            r.strategy.clone(),
            r.stealth.to_string(),
            pct(r.win_rate),
            format!("{:.2}–{}", 100.0 * r.ci_low, pct(r.ci_high)),
            diff,
            interval,
            p,
        ]);
    }
    table.render()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::Paired;

    #[test]
    fn rows_report_differences_against_the_first() {
        let mut tally = PairedTally::new(2);
        tally.tallies[0].games = 100;
        tally.tallies[0].wins = 40;
        tally.tallies[1].games = 100;
        tally.tallies[1].wins = 50;
        tally.joint[0] = Paired {
            both: 40,
            neither: 60,
            ..Paired::default()
        };
        tally.joint[1] = Paired {
            both: 35,
            only_baseline: 5,
            only_other: 15,
            neither: 45,
        };
        let names = ["a".to_string(), "b".to_string()];
        let rows = rows(&names, Rules::default(), 10, &tally, 1, 0.95);
        assert_eq!(rows[0].diff, 0.0);
        assert_eq!((rows[0].diff_ci_low, rows[0].diff_ci_high), (0.0, 0.0));
        assert!((rows[1].diff - 0.10).abs() < 1e-12);
        assert!(rows[1].diff_ci_low > 0.0 && rows[1].p_value < 0.05);
        assert_eq!(rows[1].baseline, "a");
        assert!(table(&rows).contains("+10.00"));
    }
}
