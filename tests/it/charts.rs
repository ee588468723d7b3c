//! Every chart of the report, drawn from a report-sized set of results (every strategy of the
//! playbook, stealth 0..=16, both presets, every rule variant and lever at 8, 10 and 12, the
//! reference's regret by kind of decision) and rendered with a real SVG renderer. The numbers are made up, so this runs in a moment; `tests/it/report.rs`
//! renders the charts of a real (small) report as well.

use crate::common;

use std::collections::BTreeMap;

use raven::engine::Expectation;
use raven::engine::{ByKind, Tally};
use raven::game::DecisionKind;
use raven::report::balance::{Balance, VariantRow};
use raven::report::chart::palette::OPTIMAL_COLOUR;
use raven::report::charts::{charts, variant_chart, win_chart};
use raven::report::decisions::{Decomposed, Told};
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
    let mut levers = Vec::new();
    for (k, (key, value, design)) in MAIN_TEXT.design.levers().into_iter().enumerate() {
        let rules = raven::rules::Rules {
            design,
            ..MAIN_TEXT
        };
        for stealth in [8u8, 10, 12] {
            for strategy in [REFERENCE, OPTIMAL] {
                let effect = (k as f64 - 10.0) * 0.01 * if strategy == OPTIMAL { 1.0 } else { 0.5 };
                levers.push(VariantRow {
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
    let told = |stealth: u8| {
        let mut by_kind = ByKind::default();
        for (i, k) in DecisionKind::ALL.into_iter().enumerate() {
            by_kind.regret[k as usize] = 0.01 * i as f64;
            by_kind.arises[k as usize] = 1.0;
        }
        Told {
            stealth,
            optimal: 0.7,
            exact: 0.7 - by_kind.regret.iter().sum::<f64>(),
            by_kind,
            top: Vec::new(),
        }
    };
    let decisions = vec![Decomposed {
        strategy: REFERENCE.to_string(),
        rules: MAIN_TEXT,
        results: [8, 10, 12].map(told).to_vec(),
    }];
    Balance {
        exact_budget: 1,
        command: "raven report".into(),
        presets: vec![MAIN_TEXT, CLARIFIED],
        strategies: playbook(),
        headline: vec![8, 10, 12],
        win_rates,
        variants,
        levers,
        decisions,
        decisions_left_out: Vec::new(),
        watched: Vec::new(),
        rules_of_thumb: Vec::new(),
    }
}

#[test]
fn every_chart_renders_with_every_series_visible() {
    let balance = balance();
    for rules in [MAIN_TEXT, CLARIFIED] {
        let svg = win_chart(&balance, rules);
        common::assert_chart_renders(&format!("win-probability-{rules}.svg"), &svg);
        // No Monte Carlo check on the designer's chart; the headline stealths marked.
        assert_eq!(svg.matches(r#"class="interval""#).count(), 0);
        assert_eq!(svg.matches(r#"class="mark""#).count(), 3);
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

/// Every chart the report draws renders, the validation charts hold the Monte Carlo check
/// the designer's charts leave out, and a strategy has one colour in every chart: the same
/// for a line, a marker, a bar or a name, optimal play always black, no two strategies alike.
#[test]
fn every_report_chart_renders_and_a_strategy_has_one_colour_everywhere() {
    let balance = balance();
    let charts = charts(&balance);
    let files: Vec<&str> = charts.iter().map(|c| c.file.as_str()).collect();
    for file in [
        "levers.svg",
        "regret-by-decision.svg",
        "loss-causes.svg",
        "check-monte-carlo-main-text.svg",
    ] {
        assert!(files.contains(&file), "{file} in {files:?}");
    }
    let mut colours: BTreeMap<String, String> = BTreeMap::new();
    for chart in &charts {
        common::assert_chart_renders(&chart.file, &chart.svg);
        let svg = roxmltree::Document::parse(&chart.svg).expect("well-formed SVG");
        for node in svg.descendants() {
            let Some(name) = node.attribute("data-name") else {
                continue;
            };
            let colour = node.attribute("data-colour").or_else(|| {
                (node.attribute("class") == Some("bar"))
                    .then(|| node.attribute("fill"))
                    .flatten()
            });
            let Some(colour) = colour else { continue };
            let first = colours
                .entry(name.to_string())
                .or_insert(colour.to_string());
            assert_eq!(first, colour, "{name} changes colour in {}", chart.file);
        }
    }
    // Every strategy and optimal play is drawn somewhere; distinct strategies, distinct colours.
    let mut names = playbook();
    names.push(OPTIMAL.to_string());
    for name in &names {
        assert!(
            colours.contains_key(name),
            "{name} is in no chart: {colours:?}"
        );
    }
    assert_eq!(colours[OPTIMAL], OPTIMAL_COLOUR);
    for (i, a) in names.iter().enumerate() {
        for b in &names[..i] {
            assert_ne!(colours[a], colours[b], "{a} and {b} share a colour");
        }
    }
    // The Monte Carlo check: an interval per (strategy, stealth), in the validation chart.
    let check = &charts
        .iter()
        .find(|c| c.file == "check-monte-carlo-main-text.svg")
        .unwrap()
        .svg;
    assert_eq!(
        check.matches(r#"class="interval""#).count(),
        17 * names.len()
    );
    // The tornado: a bar per lever and player, biggest effect on optimal play on top.
    let levers = &charts.iter().find(|c| c.file == "levers.svg").unwrap().svg;
    assert_eq!(
        levers.matches(r#"class="bar""#).count(),
        2 * MAIN_TEXT.design.levers().len()
    );
}
