//! `raven compare`: several strategies on the same games (common random numbers), each
//! compared with the first: paired difference with its interval and McNemar's p-value.

use std::fmt::Write as _;

use clap::Args;
use serde::Serialize;

use crate::engine::{PairedJob, PairedTally, simulate_paired};
use crate::error::{Error, Result};
use crate::rules::Rules;
use crate::stats::{mcnemar_p, paired_difference, wilson};
use crate::strategy::Strategy;

use super::args::{RulesArgs, RunArgs, load_strategies};
use super::interrupt;
use super::output::Output;
use super::progress::Progress;

/// Arguments of `raven compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// A strategy (built-in or bundled name, or a .toml file); repeat for each one, at least
    /// two. The first is the baseline every other is compared with.
    #[arg(
        long = "strategy",
        value_name = "NAME|FILE",
        required = true,
        num_args = 1
    )]
    pub strategies: Vec<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
}

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
    pub win_rate: f64,
    /// Wilson interval, low end.
    pub ci_low: f64,
    /// Wilson interval, high end.
    pub ci_high: f64,
    /// Win rate minus the baseline's (same games).
    pub diff: f64,
    /// Paired interval of `diff`, low end.
    pub diff_ci_low: f64,
    /// Paired interval of `diff`, high end.
    pub diff_ci_high: f64,
    /// McNemar's two-sided p-value for "same win rate as the baseline".
    pub p_value: f64,
    /// Games only the baseline won.
    pub only_baseline_won: u64,
    /// Games only this strategy won.
    pub only_strategy_won: u64,
    /// Confidence level of both intervals.
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
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<16} {:>7} {:>8} {:>17} {:>8} {:>17} {:>10}",
        "strategy", "stealth", "win", "interval", "diff pp", "diff interval", "p"
    );
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
        let _ = writeln!(
            out,
            "{:<16} {:>7} {:>8} {:>17} {:>8} {:>17} {:>10}",
            r.strategy,
            r.stealth,
            pct(r.win_rate),
            format!("{}–{}", pct(r.ci_low), pct(r.ci_high)),
            diff,
            interval,
            p
        );
    }
    out
}

/// Runs `raven compare`.
pub fn run(args: &CompareArgs) -> Result<()> {
    if args.strategies.len() < 2 {
        return Err(Error::Input(
            "compare needs at least two --strategy (the first is the baseline)".into(),
        ));
    }
    let rules = args.rules.rules()?;
    let loaded = load_strategies(&args.strategies)?;
    let strategies: Vec<&dyn Strategy> = loaded.iter().map(|s| s.as_ref() as _).collect();
    let names: Vec<String> = loaded.iter().map(|s| s.name().to_string()).collect();
    let cancel = interrupt::flag();
    let output = Output::open(args.run.out.as_deref())?;
    let pool = args.run.pool()?;
    let total = args
        .run
        .games
        .saturating_mul((args.run.stealth.len() * strategies.len()) as u64);
    let progress = Progress::new(total, args.run.quiet);
    let polled = interrupt::polled();
    let mut all = Vec::new();
    for &stealth in &args.run.stealth {
        let job = PairedJob {
            rules: &rules,
            strategies: &strategies,
            stealth,
            games: args.run.games,
            seed: args.run.seed,
        };
        let per = strategies.len() as u64;
        let tally =
            pool.install(|| simulate_paired(&job, &|n| progress.advance(n * per), cancel))?;
        all.extend(rows(
            &names,
            rules,
            stealth,
            &tally,
            args.run.seed,
            args.run.confidence,
        ));
    }
    progress.finish();
    drop(polled);
    let text = format!("rules: {}\n{}", rules.spelled_out(), table(&all));
    output.write(&text, &all)
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
