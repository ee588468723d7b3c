//! Every chart of the report, drawn from a report-sized set of results (every strategy of the
//! playbook, stealth 0..=16, both presets, every rule variant at 8, 10 and 12) and rendered
//! with a real SVG renderer. The numbers are made up, so this runs in a moment; `tests/it/report.rs`
//! renders the charts of a real (small) report as well.

use crate::common;

use raven::engine::Expectation;
use raven::engine::Tally;
use raven::report::balance::{Balance, VariantRow, variant_chart, win_chart};
use raven::report::{Method, Summary};
use raven::rules::{CLARIFIED, MAIN_TEXT};
use raven::strategy::{OPTIMAL, REFERENCE, playbook};

/// A report-sized balance: win probabilities that rise with stealth, lines that end close
/// together (the labels must be nudged apart), one tiny negative effect.
fn balance() -> Balance {
    let mut names = playbook();
    names.push(OPTIMAL.to_string());
    let mut win_rates = Vec::new();
    for rules in [MAIN_TEXT, CLARIFIED] {
        for (i, name) in names.iter().enumerate() {
            for stealth in 0..=16u8 {
                let win = (0.02 + 0.04 * f64::from(stealth) + 0.01 * i as f64).min(0.97);
                let method = if name == OPTIMAL {
                    Method::Optimal
                } else {
                    Method::Exact
                };
                let e = Expectation {
                    win,
                    losses: [1.0 - win, 0.0, 0.0, 0.0],
                    ..Expectation::default()
                };
                win_rates.push(Summary::from_expectation(name, rules, stealth, method, e));
                let games = 100_000;
                let wins = (win * games as f64 + 90.0 * (i as f64 - 4.0)).round() as u64;
                let tally = Tally {
                    games,
                    wins,
                    losses: [games - wins, 0, 0, 0],
                    ..Tally::default()
                };
                win_rates.push(Summary::from_tally(name, rules, stealth, tally, 1, 0.95));
            }
        }
    }
    let mut variants = Vec::new();
    for (k, (key, value, rules)) in MAIN_TEXT.variants().into_iter().enumerate() {
        for stealth in [8u8, 10, 12] {
            for strategy in [REFERENCE, OPTIMAL] {
                // One effect of −1.3e-7 (−1.3e-5 pp): drawn as zero, not as a negative sliver.
                let effect = if k == 0 {
                    -1.3e-7
                } else {
                    (k as f64 - 2.5) * 0.02 + f64::from(stealth) * 1e-3
                };
                variants.push(VariantRow {
                    variant: format!("{key}={value}"),
                    rules: rules.to_string(),
                    stealth,
                    strategy: strategy.to_string(),
                    method: "exact".into(),
                    win_rate: 0.5 + effect,
                    default_win_rate: 0.5,
                    effect,
                    raven_version: "test",
                });
            }
        }
    }
    Balance {
        exact_budget: 1,
        command: "raven report".into(),
        presets: vec![MAIN_TEXT, CLARIFIED],
        strategies: playbook(),
        headline: vec![8, 10, 12],
        win_rates,
        variants,
        levers: Vec::new(),
        decisions: Vec::new(),
        decisions_left_out: Vec::new(),
    }
}

#[test]
fn every_chart_renders_with_every_series_visible() {
    let balance = balance();
    for rules in [MAIN_TEXT, CLARIFIED] {
        let svg = win_chart(&balance, rules);
        common::assert_chart_renders(&format!("win-probability-{rules}.svg"), &svg);
        // An interval per (strategy, stealth), optimal included.
        assert_eq!(
            svg.matches(r#"class="interval""#).count(),
            17 * (balance.strategies.len() + 1)
        );
        // Every line named at its end, percent on the axis as in the tables.
        assert_eq!(
            svg.matches(r#"class="label""#).count(),
            balance.strategies.len() + 1
        );
        assert!(svg.contains(">50%<"), "percent axis");
    }
    let svg = variant_chart(&balance);
    common::assert_chart_renders("rule-variants.svg", &svg);
    for stealth in [8, 10, 12] {
        assert!(
            svg.contains(&format!(">stealth {stealth}<")),
            "panel {stealth}"
        );
    }
    assert_eq!(
        svg.matches(r#"class="value""#).count(),
        svg.matches(r#"class="bar""#).count()
    );
    assert!(!svg.contains("-0.00"), "a tiny effect reads 0.00");
    // Round ticks only.
    for tick in ["+5<", "-5<"] {
        assert!(svg.contains(tick), "tick {tick} missing");
    }
}
