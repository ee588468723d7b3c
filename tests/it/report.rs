//! `raven report`: every file, the expected columns and series, reproducibility, and that the
//! committed `reports/` holds what raven computes now.

use std::fs;
use std::path::Path;

use rayon::prelude::*;

use crate::common;

use common::{raven, small_report};

use raven::engine::{Solver, exact, solve};
use raven::rules::{Rules, parse_rules};
use raven::strategy::{OPTIMAL, Strategy, built_in, playbook, resolve};

const FILES: [&str; 11] = [
    "README.md",
    "win-rates.csv",
    "rule-variants.csv",
    "levers.csv",
    "loss-causes.csv",
    "strategy-comparison.csv",
    "decisions.csv",
    "decisions-top.csv",
    "win-probability-main-text.svg",
    "win-probability-clarified.svg",
    "rule-variants.svg",
];

fn header(path: &Path) -> String {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string()
}

/// Every file of the small report, with the expected columns and series. That the same seed
/// gives the same files, whatever the process and the thread count, is
/// `cli_shard::report_shards_merge_to_the_whole_report_byte_for_byte` (on the same report).
#[test]
fn report_writes_every_file_with_its_columns_and_series() {
    let dir = &small_report().dir.join("rep");
    for file in FILES {
        assert!(dir.join(file).is_file(), "{file} written");
    }
    assert!(header(&dir.join("win-rates.csv")).starts_with(
        "strategy,rules,stealth,games,wins,win_rate,ci_low,ci_high,ci_level,seed,raven_version,method,"
    ));
    assert_eq!(
        header(&dir.join("rule-variants.csv")),
        "variant,rules,stealth,strategy,method,win_rate,default_win_rate,effect,raven_version"
    );
    // Levers: the columns of the rule variants, and every design parameter moved.
    assert_eq!(
        header(&dir.join("levers.csv")),
        header(&dir.join("rule-variants.csv"))
    );
    let mut reader = csv::Reader::from_path(dir.join("levers.csv")).unwrap();
    let levers: Vec<String> = reader
        .records()
        .map(|r| r.unwrap()[0].to_string())
        .collect();
    for key in raven::rules::Design::keys() {
        assert!(
            levers.iter().any(|l| l.starts_with(&format!("{key}="))),
            "{key} is not among the levers"
        );
    }
    assert!(
        std::fs::read_to_string(dir.join("README.md"))
            .unwrap()
            .contains("What would change the balance?")
    );
    assert_eq!(
        header(&dir.join("loss-causes.csv")),
        "strategy,rules,stealth,method,phase,cause,probability,games,losses,raven_version"
    );
    assert!(
        header(&dir.join("strategy-comparison.csv")).starts_with(
            "strategy,baseline,rules,stealth,games,wins,win_rate,ci_low,ci_high,diff,"
        )
    );

    // Every CSV parses, and its rows have the header's width.
    for file in FILES.iter().filter(|f| f.ends_with(".csv")) {
        let mut reader = csv::Reader::from_path(dir.join(file)).unwrap();
        let width = reader.headers().unwrap().len();
        let rows: Vec<_> = reader.records().map(|r| r.unwrap()).collect();
        assert!(!rows.is_empty(), "{file} has rows");
        assert!(rows.iter().all(|r| r.len() == width), "{file}");
    }

    // win-rates: every strategy and optimal, both presets, both methods, every stealth.
    let mut reader = csv::Reader::from_path(dir.join("win-rates.csv")).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    let mut strategies = playbook();
    strategies.push(OPTIMAL.to_string());
    for strategy in &strategies {
        for rules in ["main-text", "clarified"] {
            for stealth in ["0", "1"] {
                let methods: Vec<&str> = rows
                    .iter()
                    .filter(|r| r[0] == **strategy && &r[1] == rules && &r[2] == stealth)
                    .map(|r| r.get(11).unwrap())
                    .collect();
                assert_eq!(
                    methods.len(),
                    2,
                    "{strategy} {rules} {stealth}: {methods:?}"
                );
                assert!(methods.contains(&"monte-carlo"));
            }
        }
    }

    // Charts: well-formed XML with one series per strategy (and optimal).
    for rules in ["main-text", "clarified"] {
        let text = fs::read_to_string(dir.join(format!("win-probability-{rules}.svg"))).unwrap();
        let svg = roxmltree::Document::parse(&text).expect("well-formed SVG");
        let series: Vec<&str> = svg
            .descendants()
            .filter(|n| n.attribute("class") == Some("series"))
            .filter_map(|n| n.attribute("data-name"))
            .collect();
        assert_eq!(series, strategies, "{rules}");
    }
    let text = fs::read_to_string(dir.join("rule-variants.svg")).unwrap();
    let svg = roxmltree::Document::parse(&text).expect("well-formed SVG");
    let bars = svg
        .descendants()
        .filter(|n| n.attribute("class") == Some("bar"))
        .count();
    assert_eq!(
        bars,
        2 * 2 * Rules::keys().count(),
        "one bar per headline stealth, variant and series"
    );

    // Every chart renders with a real SVG renderer, and every series shows on it.
    for file in FILES.iter().filter(|f| f.ends_with(".svg")) {
        let text = fs::read_to_string(dir.join(file)).unwrap();
        common::assert_chart_renders(file, &text);
    }
    // The Monte Carlo intervals are drawn, one per (series, stealth) of the sampled rows.
    let text = fs::read_to_string(dir.join("win-probability-main-text.svg")).unwrap();
    assert_eq!(
        text.matches(r#"class="interval""#).count(),
        2 * strategies.len(),
        "an interval per strategy and stealth (0, 1)"
    );
    // The rule-variant chart has a panel per headline stealth and a value on every bar.
    let text = fs::read_to_string(dir.join("rule-variants.svg")).unwrap();
    assert_eq!(text.matches(r#"class="panel""#).count(), 2);
    assert_eq!(
        text.matches(r#"class="value""#).count(),
        text.matches(r#"class="bar""#).count()
    );

    let readme = fs::read_to_string(dir.join("README.md")).unwrap();
    for needle in [
        "raven report",
        "win-probability-main-text.svg",
        "| **optimal** |",
    ] {
        assert!(readme.contains(needle), "README lacks {needle}");
    }
}

#[test]
fn unwritable_report_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    fs::write(&file, "x").unwrap();
    raven()
        .args(["report", "--quiet", "--out"])
        .arg(file.join("sub"))
        .assert()
        .code(2);
}

/// The committed `reports/win-rates.csv` holds the exact and optimal values raven computes
/// now: every strategy and optimal play at stealth 0..=6, and the whole range for the
/// strategies whose exact evaluation is quick (the full regeneration is `raven report`).
#[test]
fn committed_report_matches_exact_values_now() {
    const QUICK: [&str; 4] = ["reference", "duo", "lone-wolf", "no-first-aid"];
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/win-rates.csv");
    let mut reader = csv::Reader::from_path(&path).expect("reports/win-rates.csv is committed");
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    let mut names = playbook();
    names.push(OPTIMAL.to_string());
    let cases: Vec<(&str, &str)> = names
        .iter()
        .flat_map(|name| ["main-text", "clarified"].map(|preset| (name.as_str(), preset)))
        .collect();
    cases.par_iter().for_each(|&(name, preset)| {
        let rules = parse_rules(preset, &[]).unwrap();
        let method = if name == OPTIMAL { "optimal" } else { "exact" };
        let committed: Vec<(u8, f64)> = rows
            .iter()
            .filter(|r| &r[0] == name && &r[1] == preset && &r[11] == method)
            .map(|r| (r[2].parse().unwrap(), r[5].parse().unwrap()))
            .filter(|(stealth, _)| *stealth <= 6 || QUICK.contains(&name))
            .collect();
        assert!(!committed.is_empty(), "{name} {preset} rows committed");
        let stealths: Vec<u8> = committed.iter().map(|(s, _)| *s).collect();
        let now: Vec<f64> = if name == OPTIMAL {
            solve(&Solver::new(rules), &stealths)
                .iter()
                .map(|s| s.value)
                .collect()
        } else {
            let strategy: Box<dyn Strategy> = built_in(name)
                .or_else(|| resolve(name).ok())
                .expect("a bundled strategy");
            exact(&rules, strategy.as_ref(), &stealths)
                .expectations
                .iter()
                .map(|e| e.win)
                .collect()
        };
        for ((stealth, old), new) in committed.iter().zip(&now) {
            assert!(
                (old - new).abs() < 1e-12,
                "{name} {preset} stealth {stealth}: committed {old}, now {new} — rerun `raven report`"
            );
        }
    });
}
