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
use raven::report::charts::{annulus_success_chart, charts, variant_chart, win_chart};
use raven::report::decisions::{Decomposed, Told};
use raven::report::{Method, Summary};
use raven::rules::{CLARIFIED, MAIN_TEXT, Rules};
use raven::strategy::{OPTIMAL, REFERENCE, playbook};
use raven_core::games::annulus::strategy::BUNDLED;

/// A report-sized balance under the two presets.
fn balance() -> Balance {
    balance_of([MAIN_TEXT, CLARIFIED])
}

/// A report-sized balance under `presets`: win probabilities that rise with stealth, lines
/// that end close together (the labels must be nudged apart), one strategy far below the rest
/// (as `reckless` is), losses in every phase, one tiny negative effect.
fn balance_of(presets: [Rules; 2]) -> Balance {
    let mut names = playbook();
    names.push(OPTIMAL.to_string());
    let mut win_rates = Vec::new();
    for rules in presets {
        for (i, name) in names.iter().enumerate() {
            for stealth in 0..=16u8 {
                let win = if name == "reckless" {
                    0.01 + 0.01 * f64::from(stealth)
                } else {
                    (0.02 + 0.04 * f64::from(stealth) + 0.01 * i as f64).min(0.97)
                };
                // Most games lost with the finale character down, as in the game.
                let share = [0.05, 0.15, 0.1, 0.7];
                let method = if name == OPTIMAL {
                    Method::Optimal
                } else {
                    Method::Exact
                };
                let e = Expectation {
                    win,
                    losses: share.map(|s| s * (1.0 - win)),
                    ..Expectation::default()
                };
                win_rates.push(Summary::from_expectation(name, rules, stealth, method, e));
                let games = 100_000;
                let wins = (win * games as f64 + 90.0 * (i as f64 - 4.0)).round() as u64;
                let tally = Tally {
                    games,
                    wins,
                    losses: {
                        let lost = share.map(|s| (s * (games - wins) as f64) as u64);
                        [
                            games - wins - lost[1] - lost[2] - lost[3],
                            lost[1],
                            lost[2],
                            lost[3],
                        ]
                    },
                    ..Tally::default()
                };
                win_rates.push(Summary::from_tally(name, rules, stealth, tally, 1, 0.95));
            }
        }
    }
    let mut variants = Vec::new();
    for (k, (key, value, rules)) in presets[0].variants().into_iter().enumerate() {
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
    for (k, (key, value, design)) in presets[0].design.levers().into_iter().enumerate() {
        let rules = Rules {
            design,
            ..presets[0]
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
        rules: presets[0],
        results: [8, 10, 12].map(told).to_vec(),
    }];
    Balance {
        exact_budget: 1,
        command: "raven report".into(),
        presets: presets.to_vec(),
        strategies: playbook(),
        headline: vec![8, 10, 12],
        win_rates,
        variants,
        levers,
        decisions,
        decisions_left_out: Vec::new(),
        watched: Vec::new(),
        rules_of_thumb: Vec::new(),
        quality: None,
        cards: Vec::new(),
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
        // Optimal play, the reference and the best strategy file named at their ends, the
        // others muted and named once; percent on the axis as in the tables, an even game
        // marked.
        assert_eq!(svg.matches(r#"class="label""#).count(), 3);
        assert_eq!(
            svg.matches(r#"data-muted="true""#).count(),
            balance.strategies.len() + 1 - 3
        );
        let best = raven::report::player::best_file(&balance, rules).unwrap().0;
        for name in [OPTIMAL, REFERENCE, best] {
            assert!(
                svg.contains(&format!(">{name}</text>")),
                "{name} named in {rules}"
            );
        }
        assert!(svg.contains(">50%<"), "percent axis");
        assert!(svg.contains(r#"class="even""#), "the 50% line");
        assert!(svg.contains(">win probability<") && !svg.contains("P(win)"));
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

/// A text's box on the canvas, `[left, top, right, bottom]` in pixels.
type TextBox = [f64; 4];

/// The box `text` is drawn in, estimated without a font: every character 0.6 em wide (above
/// the average of Helvetica, Arial or any sans-serif that stands in, so the estimate errs
/// towards a box too wide), from 0.75 em above the baseline to 0.25 em below it, placed by
/// its anchor and turned by its transform (`translate` and `rotate` are all the charts use).
/// Its font size is its own or its nearest ancestor's.
fn text_box(text: roxmltree::Node<'_, '_>) -> TextBox {
    let attribute = |name: &str| text.attribute(name).map(|v| v.parse::<f64>().unwrap());
    let size = text
        .ancestors()
        .find_map(|n| n.attribute("font-size"))
        .map_or(16.0, |v| v.parse::<f64>().unwrap());
    let chars = text
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect::<String>()
        .chars()
        .count() as f64;
    let width = 0.6 * size * chars;
    let (x, y) = (attribute("x").unwrap_or(0.0), attribute("y").unwrap_or(0.0));
    let left = match text
        .ancestors()
        .find_map(|n| n.attribute("text-anchor"))
        .unwrap_or("start")
    {
        "middle" => x - width / 2.0,
        "end" => x - width,
        _ => x,
    };
    let corners = [
        (left, y - 0.75 * size),
        (left + width, y - 0.75 * size),
        (left, y + 0.25 * size),
        (left + width, y + 0.25 * size),
    ];
    // `translate(a b) rotate(d)`: rotate first, then translate.
    let (mut shift, mut turn) = ((0.0, 0.0), 0.0f64);
    if let Some(transform) = text.attribute("transform") {
        for part in transform
            .split(')')
            .map(str::trim)
            .filter(|p| !p.is_empty())
        {
            let (op, args) = part.split_once('(').unwrap();
            let args: Vec<f64> = args
                .split([' ', ','])
                .filter(|a| !a.is_empty())
                .map(|a| a.parse().unwrap())
                .collect();
            match op.trim() {
                "translate" => shift = (args[0], args.get(1).copied().unwrap_or(0.0)),
                "rotate" => turn = args[0].to_radians(),
                other => panic!("a transform the test does not know: {other}"),
            }
        }
    }
    let placed = corners.map(|(cx, cy)| {
        (
            shift.0 + cx * turn.cos() - cy * turn.sin(),
            shift.1 + cx * turn.sin() + cy * turn.cos(),
        )
    });
    let xs = placed.map(|p| p.0);
    let ys = placed.map(|p| p.1);
    let min = |v: [f64; 4]| v.into_iter().fold(f64::INFINITY, f64::min);
    let max = |v: [f64; 4]| v.into_iter().fold(f64::NEG_INFINITY, f64::max);
    [min(xs), min(ys), max(xs), max(ys)]
}

/// Whether two texts' boxes come closer than an em side by side (two numbers closer than
/// that read as one: a tick `80` 7 pixels from the next panel's `0` reads "80 0") or overlap
/// at all one above the other.
fn too_close(a: TextBox, b: TextBox, em: f64) -> bool {
    let apart_x = a[2] + em <= b[0] || b[2] + em <= a[0];
    let apart_y = a[3] <= b[1] || b[3] <= a[1];
    !(apart_x || apart_y)
}

/// What is wrong with the texts of `svg`: each one that leaves its canvas, each pair that
/// comes too close.
fn text_faults(name: &str, svg: &str) -> Vec<String> {
    let document = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let root = document.root_element();
    let size = |key: &str| root.attribute(key).unwrap().parse::<f64>().unwrap();
    let (width, height) = (size("width"), size("height"));
    let texts: Vec<(String, TextBox)> = document
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let words: String = n
                .descendants()
                .filter(|t| t.is_text())
                .filter_map(|t| t.text())
                .collect();
            (words, text_box(n))
        })
        .collect();
    let mut faults = Vec::new();
    for (words, b) in &texts {
        if b[0] < 0.0 || b[1] < 0.0 || b[2] > width || b[3] > height {
            faults.push(format!(
                "{name}: {words:?} at {b:.0?} leaves the {width}×{height} canvas"
            ));
        }
    }
    for (i, (a_words, a)) in texts.iter().enumerate() {
        for (b_words, b) in &texts[..i] {
            if too_close(*a, *b, 12.0) {
                faults.push(format!(
                    "{name}: {a_words:?} at {a:.0?} runs into {b_words:?} at {b:.0?}"
                ));
            }
        }
    }
    faults
}

/// Every chart the reports write, under both presets and under a changed design (a
/// threshold of 4, which names itself in every title): no text leaves its canvas, no two run
/// into each other. The Annulus report's charts as well, for both its difficulties.
#[test]
fn every_report_chart_keeps_its_texts_inside_the_canvas_and_apart() {
    let mut changed = [MAIN_TEXT, CLARIFIED];
    for rules in &mut changed {
        rules.set("threshold", "4").unwrap();
    }
    let mut faults = Vec::new();
    for presets in [[MAIN_TEXT, CLARIFIED], changed] {
        let balance = balance_of(presets);
        for chart in charts(&balance) {
            faults.extend(text_faults(
                &format!("{} ({})", chart.file, presets[0]),
                &chart.svg,
            ));
        }
    }
    let mut lines: Vec<(String, Vec<(u8, f64)>)> = vec![("optimal".to_string(), Vec::new())];
    lines.extend(BUNDLED.iter().map(|(n, _)| ((*n).to_string(), Vec::new())));
    lines.push(("random".to_string(), Vec::new()));
    for (i, (_, points)) in lines.iter_mut().enumerate() {
        // Lines that end close together at 4 players.
        *points = (1..=4u8)
            .map(|p| (p, (0.9 - 0.15 * f64::from(p) - 0.01 * i as f64).max(0.0)))
            .collect();
    }
    for difficulty in ["normal", "advanced"] {
        let svg = annulus_success_chart(difficulty, &lines);
        faults.extend(text_faults(
            &format!("annulus success-{difficulty}.svg"),
            &svg,
        ));
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// The charts committed under `reports/` (drawn from the real figures, which the made-up ones
/// above cannot foresee) keep their texts inside the canvas and apart as well.
#[test]
fn committed_report_charts_keep_their_texts_inside_the_canvas_and_apart() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reports");
    let mut faults = Vec::new();
    let mut seen = 0;
    for dir in [root.clone(), root.join("annulus")] {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "svg") {
                let svg = std::fs::read_to_string(&path).unwrap();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                common::assert_chart_renders(&name, &svg);
                faults.extend(text_faults(&path.display().to_string(), &svg));
                seen += 1;
            }
        }
    }
    assert!(seen >= 10, "{seen} charts under {}", root.display());
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}
