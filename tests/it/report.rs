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

const FILES: [&str; 28] = [
    "README.md",
    "tuned.toml",
    "card.csv",
    "card-rules.csv",
    "card.html",
    "card-clarified.html",
    "win-rates.csv",
    "rule-variants.csv",
    "levers.csv",
    "loss-causes.csv",
    "strategy-comparison.csv",
    "decisions.csv",
    "decisions-top.csv",
    "quality.csv",
    "quality-decided.csv",
    "quality-by-start.csv",
    "win-probability-main-text.svg",
    "win-probability-clarified.svg",
    "rule-variants.svg",
    "levers.svg",
    "regret-by-decision.svg",
    "loss-causes.svg",
    "check-monte-carlo-main-text.svg",
    "check-monte-carlo-clarified.svg",
    "quality-fan.svg",
    "quality-luck-skill.svg",
    "quality-length.svg",
    "quality-game.svg",
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
    // The Monte Carlo intervals are drawn in the validation chart, one per (series,
    // stealth) of the sampled rows, not in the designer's chart.
    let text = fs::read_to_string(dir.join("check-monte-carlo-main-text.svg")).unwrap();
    assert_eq!(
        text.matches(r#"class="interval""#).count(),
        2 * strategies.len(),
        "an interval per strategy and stealth (0, 1)"
    );
    let text = fs::read_to_string(dir.join("win-probability-main-text.svg")).unwrap();
    assert_eq!(text.matches(r#"class="interval""#).count(), 0);
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
        "## What the numbers say",
        "levers.svg",
        "## Checks",
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

/// The rows of `file` in `dir` as header-keyed records.
fn records(dir: &Path, file: &str) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(dir.join(file)).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .cloned()
                .zip(r.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// The recommendations of a report's README checked against its CSVs: the starting stealth
/// that makes each player's game even, the reading to settle first and the biggest lever are
/// the ones the numbers give. Returns the "What the numbers say" section.
fn recommendations_follow_the_csvs(dir: &Path) -> String {
    let readme = fs::read_to_string(dir.join("README.md")).unwrap();
    let start = readme
        .find("## What the numbers say")
        .expect("recommendations");
    let end = start + readme[start..].find("\n## ").unwrap();
    let said = readme[start..end].to_string();
    let num =
        |r: &std::collections::HashMap<String, String>, k: &str| -> f64 { r[k].parse().unwrap() };
    // The default reading, as the rule-variant rows name it.
    let variants = records(dir, "rule-variants.csv");
    let default = variants.iter().find(|r| r["variant"] == "default").unwrap()["rules"].clone();
    let mid: u8 = 1;
    // Even game: the covered stealth nearest 50% (the lower on a tie), per player.
    let win_rates = records(dir, "win-rates.csv");
    for (strategy, who) in [("optimal", "optimal play"), ("reference", "the reference")] {
        let mut curve: Vec<(u8, f64)> = win_rates
            .iter()
            .filter(|r| {
                r["strategy"] == strategy && r["rules"] == default && r["method"] != "monte-carlo"
            })
            .map(|r| (r["stealth"].parse().unwrap(), num(r, "win_rate")))
            .collect();
        curve.sort_by_key(|p| p.0);
        let (s, w) = curve
            .iter()
            .copied()
            .min_by(|a, b| (a.1 - 0.5).abs().total_cmp(&(b.1 - 0.5).abs()))
            .unwrap();
        let expected = if (w - 0.5).abs() <= 0.05 {
            format!("{who} at starting stealth **{s}** ({:.1}%)", 100.0 * w)
        } else {
            format!(
                "{who} at no starting stealth from 0 to 1 (the closest is {s}, {:.1}%)",
                100.0 * w
            )
        };
        assert!(said.contains(&expected), "{expected}\nnot in\n{said}");
    }
    // The reading to settle first: the largest effect on either player at the middle stealth.
    let effect = |rows: &[std::collections::HashMap<String, String>], variant: &str, who: &str| {
        rows.iter()
            .find(|r| {
                r["variant"] == variant && r["strategy"] == who && r["stealth"] == mid.to_string()
            })
            .map(|r| num(r, "effect"))
            .unwrap()
    };
    let largest = |rows: &[std::collections::HashMap<String, String>]| {
        let mut names: Vec<String> = rows
            .iter()
            .filter(|r| r["variant"] != "default")
            .map(|r| r["variant"].clone())
            .collect();
        names.dedup();
        names
            .into_iter()
            .map(|v| {
                let size = effect(rows, &v, "optimal")
                    .abs()
                    .max(effect(rows, &v, "reference").abs());
                (v, size)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap()
            .0
    };
    let first = largest(&variants);
    assert!(
        said.contains(&format!("settle first?** `{first}`")),
        "{first} should be settled first:\n{said}"
    );
    // The biggest lever: the first one listed is the parameter that moves a player most.
    let levers = records(dir, "levers.csv");
    let key = largest(&levers).split('=').next().unwrap().to_string();
    let listed = said.split("- **").nth(1).expect("a lever listed");
    assert!(
        listed.starts_with(&format!("{key}**")),
        "{key} first:\n{said}"
    );
    said
}

/// The report's recommendations are computed, not written: regenerated under one changed
/// design parameter (the die a check needs, 5 → 4), every recommendation still follows that
/// report's own numbers, and the sentences say something else than the default report's.
#[test]
fn report_recommendations_change_with_the_rules() {
    let report = small_report();
    let printed = recommendations_follow_the_csvs(&report.dir.join("rep"));
    let temp = tempfile::tempdir().unwrap();
    common::run_in(
        temp.path(),
        &[
            &common::SMALL_REPORT[..],
            &["--rule", "threshold=4", "--out", "changed"],
        ]
        .concat(),
    );
    let dir = temp.path().join("changed");
    let changed = recommendations_follow_the_csvs(&dir);
    assert_ne!(printed, changed);
    // When games are decided follows each report's own rows: at stealth 1 the printed game's
    // optimal losses are decided in recruitment most, the easier checks' in the run.
    let decided = |dir: &Path| {
        let said = quality_follows_the_csvs(dir);
        let at = said
            .find("under optimal play ")
            .expect("optimal play's clause");
        said[at..said[at..].find(';').map_or(said.len(), |e| at + e)].to_string()
    };
    let (before, after) = (decided(&report.dir.join("rep")), decided(&dir));
    assert!(
        before.contains("of losses are decided in recruitment"),
        "{before}"
    );
    assert!(
        after.contains("of losses are decided in the run"),
        "{after}"
    );
    let readme = fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.contains("--rule threshold=4"), "the command quoted");
    assert!(readme.contains("This report is about a changed game"));
    // The levers move from the changed value: the threshold is now 4.
    assert!(readme.contains("| `threshold` | the die a check needs to succeed | 4 → 5 |"));
    assert!(!printed.contains("changed game"));
    // Easier checks, a more winnable game: the headline sentence's numbers follow.
    let win = |said: &str| -> f64 {
        let at = said
            .find("optimal play (the best any player can do) wins ")
            .unwrap();
        let rest = &said[at + 47..];
        rest[..rest.find('%').unwrap()].parse().unwrap()
    };
    assert!(win(&changed) > win(&printed) + 10.0, "{printed}\n{changed}");
}

/// "What a player should do" recommends the bundled strategy file with the highest mean exact
/// win probability over the headline stealths under the default reading (the reference and
/// the rule cards aside), as the win-rate CSV has it, and `tuned.toml` is that file as
/// bundled.
#[test]
fn the_report_recommends_the_best_strategy_file() {
    let dir = small_report().dir.join("rep");
    let readme = fs::read_to_string(dir.join("README.md")).unwrap();
    let rows = records(&dir, "win-rates.csv");
    let mut means: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
    for r in rows
        .iter()
        .filter(|r| r["rules"] == "main-text" && r["method"] == "exact")
    {
        let knobs_only = raven::strategy::bundled(&r["strategy"])
            .is_some_and(|f| f.is_ok_and(|f| f.spec().card.is_empty()));
        if r["strategy"] != "reference" && knobs_only {
            means
                .entry(r["strategy"].clone())
                .or_default()
                .push(r["win_rate"].parse().unwrap());
        }
    }
    let mean = |v: &Vec<f64>| v.iter().sum::<f64>() / v.len() as f64;
    let best = means
        .iter()
        .max_by(|a, b| mean(a.1).total_cmp(&mean(b.1)))
        .map(|(name, _)| name.clone())
        .unwrap();
    assert!(
        readme.contains(&format!(
            "## What a player should do\n\nThe best strategy a person can follow that raven \
             knows under main-text is `{best}`"
        )),
        "{best}"
    );
    let (_, text) = raven::strategy::bundled_source(&best).unwrap().unwrap();
    assert_eq!(fs::read_to_string(dir.join("tuned.toml")).unwrap(), text);
    // The written file plays as the strategy recommended.
    raven()
        .args(["strategies", "check"])
        .arg(dir.join("tuned.toml"))
        .assert()
        .success();
}

/// How a player is named in the quality section.
fn who(name: &str) -> String {
    match name {
        "optimal" => "optimal play".to_string(),
        "reference" => "the reference".to_string(),
        _ => format!("`{name}`"),
    }
}

/// "Is it a good game?" checked against the report's CSVs: the players are optimal play, the
/// recommended file and the reference at every headline stealth; every win probability is
/// `win-rates.csv`'s; every row of its table and of the difficulty ladder holds the CSVs'
/// numbers; each player's share of wins and of losses decided per stage adds up to one, and
/// the sentence names the stage (or the stages, tied) of the largest. Returns the paragraph
/// on when the game is decided.
fn quality_follows_the_csvs(dir: &Path) -> String {
    let readme = fs::read_to_string(dir.join("README.md")).unwrap();
    let start = readme.find("## Is it a good game?").expect("the section");
    let end = start + readme[start..].find("\n## ").unwrap();
    let said = &readme[start..end];
    let num = |r: &std::collections::HashMap<String, String>, k: &str| -> f64 {
        r[k].parse().unwrap_or_else(|_| panic!("{k}: {}", r[k]))
    };
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let rows = records(dir, "quality.csv");
    let default = rows[0]["rules"].clone();
    let recommended = readme
        .split(&format!("knows under {default} is `"))
        .nth(1)
        .and_then(|r| r.split('`').next())
        .expect("a recommended file");
    let players = ["optimal", recommended, "reference"];
    let mut stealths: Vec<u8> = rows.iter().map(|r| r["stealth"].parse().unwrap()).collect();
    stealths.sort_unstable();
    stealths.dedup();
    let order: Vec<(String, u8)> = rows
        .iter()
        .map(|r| (r["strategy"].clone(), r["stealth"].parse().unwrap()))
        .collect();
    let expected: Vec<(String, u8)> = players
        .iter()
        .flat_map(|p| stealths.iter().map(|&s| (p.to_string(), s)))
        .collect();
    assert_eq!(order, expected);
    let win_rates = records(dir, "win-rates.csv");
    let exact = |strategy: &str, stealth: u8| {
        win_rates
            .iter()
            .find(|r| {
                r["strategy"] == strategy
                    && r["rules"] == default
                    && r["stealth"] == stealth.to_string()
                    && r["method"] != "monte-carlo"
            })
            .map(|r| num(r, "win_rate"))
    };
    for r in &rows {
        let stealth: u8 = r["stealth"].parse().unwrap();
        assert_eq!(
            Some(num(r, "win_rate")),
            exact(&r["strategy"], stealth),
            "one figure per quantity"
        );
        let line = format!(
            "| {} | {stealth} | {} | {:.2} | {} | {:.1} | {} | {} | {:.1} | {:.1} | {} ({}–{}) |",
            who(&r["strategy"]),
            pct(num(r, "win_rate")),
            100.0 * num(r, "skill_loss"),
            pct(num(r, "luck_share")),
            100.0 * num(r, "suspense"),
            pct(num(r, "comeback_rate")),
            pct(num(r, "heartbreak_rate")),
            num(r, "mean_rolls"),
            num(r, "mean_decisions"),
            r["rolls_median"],
            r["rolls_p10"],
            r["rolls_p90"],
        );
        assert!(said.contains(&line), "{line}\nnot in\n{said}");
    }
    // The ladder: the lowest stealth from 1 up at which the exact win probability reaches each
    // rung.
    let top: u8 = win_rates
        .iter()
        .map(|r| r["stealth"].parse::<u8>().unwrap())
        .max()
        .unwrap();
    for p in players {
        let cells: Vec<String> = [0.25, 0.5, 0.75]
            .iter()
            .map(|&rung| {
                (1..=top)
                    .find_map(|s| exact(p, s).filter(|&w| w >= rung).map(|w| (s, w)))
                    .map_or(format!("not by {top}"), |(s, w)| {
                        format!("{s} ({})", pct(w))
                    })
            })
            .collect();
        let line = format!("| {} | {} |", who(p), cells.join(" | "));
        assert!(said.contains(&line), "{line}\nnot in\n{said}");
    }
    // When the game is decided, at the middle headline stealth.
    let decided = records(dir, "quality-decided.csv");
    let mid = stealths[stealths.len() / 2];
    let paragraph = said
        .split("\n\n")
        .find(|p| p.starts_with("**When the game is decided.**"))
        .expect("the paragraph")
        .to_string();
    for p in players {
        for &(result, plural) in &[("loss", "losses"), ("win", "wins")] {
            let these: Vec<_> = decided
                .iter()
                .filter(|r| r["strategy"] == p && r["result"] == result)
                .filter(|r| r["stealth"] == mid.to_string())
                .collect();
            let shares: Vec<f64> = these.iter().map(|r| num(r, "share")).collect();
            let sum: f64 = shares.iter().sum();
            assert!((sum - 1.0).abs() < 1e-9, "{p} {plural}: {shares:?}");
            let best = shares.iter().copied().fold(0.0, f64::max);
            let shown = |x: f64| format!("{:.0}%", 100.0 * x);
            let top: Vec<String> = these
                .iter()
                .filter(|r| shown(num(r, "share")) == shown(best))
                .map(|r| match r["stage"].as_str() {
                    "start" => "from the start".to_string(),
                    stage => format!("in {stage}"),
                })
                .collect();
            let clause = if top.len() == 1 {
                format!("{} of {plural} are decided {}", shown(best), top[0])
            } else {
                format!("{plural} are decided {} as often as", top[0])
            };
            let whose = format!("under {} ", who(p));
            let at = paragraph.find(&whose).expect("a clause per player");
            assert!(
                paragraph[at..].contains(&clause),
                "{clause}\nnot in\n{paragraph}"
            );
        }
    }
    paragraph
}

/// The report's quality files are `raven quality`'s for the same players, stealths, games and
/// seed (the win probability aside, which is `win-rates.csv`'s figure), and its charts draw
/// each player.
#[test]
fn the_quality_section_reads_its_csvs_and_they_are_raven_quality_s() {
    let report = small_report();
    let dir = report.dir.join("rep");
    quality_follows_the_csvs(&dir);
    let rows = records(&dir, "quality.csv");
    let mut players: Vec<String> = Vec::new();
    for r in &rows {
        if !players.contains(&r["strategy"]) {
            players.push(r["strategy"].clone());
        }
    }
    let temp = tempfile::tempdir().unwrap();
    common::run_in(
        temp.path(),
        &[
            "quality",
            "--quiet",
            "--strategy",
            &players.join(","),
            "--stealth",
            "0,1",
            "--out",
            "q.csv",
            "--decided",
            "d.csv",
        ],
    );
    assert_eq!(
        fs::read(temp.path().join("d.csv")).unwrap(),
        fs::read(dir.join("quality-decided.csv")).unwrap()
    );
    assert_eq!(
        header(&temp.path().join("q.csv")),
        header(&dir.join("quality.csv"))
    );
    let alone = records(temp.path(), "q.csv");
    assert_eq!(alone.len(), rows.len());
    for (a, b) in alone.iter().zip(&rows) {
        for (k, v) in a {
            if k == "win_rate" {
                let (x, y): (f64, f64) = (v.parse().unwrap(), b[k].parse().unwrap());
                assert!((x - y).abs() <= 1e-12, "{x} {y}");
            } else {
                assert_eq!(v, &b[k], "{k}");
            }
        }
    }
    // By start: the columns of quality.csv where the figure is the same; per row, each kind
    // of group partitions the report's sampled games; the section reads the recommended
    // file's groups.
    assert_eq!(
        header(&dir.join("quality-by-start.csv")),
        "game,strategy,rules,stealth,by,group,games,wins,win_rate,win_rate_low,win_rate_high,\
         luck_share,suspense,suspense_low,suspense_high,comeback_rate,comeback_rate_low,\
         comeback_rate_high,heartbreak_rate,heartbreak_rate_low,heartbreak_rate_high,seed,\
         raven_version"
    );
    let by_start = records(&dir, "quality-by-start.csv");
    for r in &rows {
        for by in ["main-character", "complications"] {
            let these: Vec<_> = by_start
                .iter()
                .filter(|g| g["strategy"] == r["strategy"] && g["stealth"] == r["stealth"])
                .filter(|g| g["by"] == by)
                .collect();
            let sum = |k: &str| -> u64 { these.iter().map(|g| g[k].parse::<u64>().unwrap()).sum() };
            assert_eq!(sum("games").to_string(), common::SMALL_REPORT[2], "{by}");
            for g in &these {
                assert_eq!(g["rules"], r["rules"]);
            }
        }
    }
    let readme = fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.contains("| `quality-by-start.csv` |"));
    let paragraph = readme
        .split("\n\n")
        .find(|p| p.starts_with("**By main character and complication deal.**"))
        .expect("the paragraph");
    let stealth = paragraph
        .split("At stealth ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .expect("its stealth");
    let player = paragraph
        .split("the sampled games of ")
        .nth(1)
        .and_then(|r| r.split(" are split").next())
        .expect("its player");
    // Each kind of group reads as its rows give it: one group, too few large enough to
    // compare (the threshold, 1000 games, is above this report's 700), or compared.
    for (by, title) in [
        ("main-character", "By main character: "),
        ("complications", "By complication deal: "),
    ] {
        let these: Vec<_> = by_start
            .iter()
            .filter(|g| who(&g["strategy"]) == player && g["stealth"] == stealth && g["by"] == by)
            .collect();
        let large = these
            .iter()
            .filter(|g| g["games"].parse::<u64>().unwrap() >= 1000)
            .count();
        let clause = match (these.len(), large) {
            (1, _) => "every game has".to_string(),
            (n, 0 | 1) => format!(
                "{large} of its {n} groups {} 1000 games or more, too few to compare.",
                if large == 1 { "has" } else { "have" }
            ),
            _ => "the win rate is".to_string(),
        };
        assert!(
            paragraph.contains(&format!("{title}{clause}")),
            "{title}{clause}\nnot in\n{paragraph}"
        );
    }
    // The fan: a panel for optimal play and one for the reference; the other charts a line
    // per player.
    let text = fs::read_to_string(dir.join("quality-fan.svg")).unwrap();
    assert_eq!(text.matches(r#"class="panel""#).count(), 2);
    for file in ["quality-luck-skill.svg", "quality-length.svg"] {
        let text = fs::read_to_string(dir.join(file)).unwrap();
        let svg = roxmltree::Document::parse(&text).expect("well-formed SVG");
        let series: Vec<&str> = svg
            .descendants()
            .filter(|n| n.attribute("class") == Some("series"))
            .filter_map(|n| n.attribute("data-name"))
            .collect();
        assert_eq!(series, players, "{file}");
    }
    // The example game: its ledger in words sums, to the rounding of its figures, to its
    // result, and its chart is one line.
    let readme = fs::read_to_string(dir.join("README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.starts_with("**One game.**"))
        .expect("the example game");
    let number = |after: &str| -> f64 {
        let rest = &line[line.find(after).expect(after) + after.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
            .unwrap_or(rest.len());
        rest[..end].parse().expect(after)
    };
    let start = number("chance of winning starts at ");
    let (gave, took) = (number("the dice gave "), number(" points and took "));
    let gave_up = if line.contains("gave up nothing") {
        0.0
    } else {
        number("the decisions gave up ")
    };
    let result = if line.contains("the game was won") {
        100.0
    } else {
        0.0
    };
    assert!(
        (start + gave + took + gave_up - result).abs() <= 0.2,
        "{line}"
    );
    let text = fs::read_to_string(dir.join("quality-game.svg")).unwrap();
    assert_eq!(text.matches(r#"class="series""#).count(), 1, "{text}");
}

/// The rule card section reads back each bundled card exactly: its whole card is
/// `raven exact`'s value of the bundled file, the ladder's first rung the file's knobs alone
/// (any that differ from the knob file it started from named),
/// each rule's worth what the card loses without it, every rule and rung in the README as in
/// the CSVs, and a page to print per card.
#[test]
fn the_rule_card_section_reads_back_the_bundled_cards_exactly() {
    use raven::strategy::file::card::Card;
    use raven::strategy::{FileStrategy, bundled};
    let dir = small_report().dir.join("rep");
    let readme = fs::read_to_string(dir.join("README.md")).unwrap();
    let rungs = records(&dir, "card.csv");
    let rules_of = records(&dir, "card-rules.csv");
    let stealths = [0u8, 1];
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    for (preset, card, from) in [
        ("main-text", "card", "tuned"),
        ("clarified", "card-clarified", "tuned-clarified"),
    ] {
        let rules = parse_rules(preset, &[]).unwrap();
        let file = bundled(card).unwrap().unwrap();
        let value = |strategy: &dyn Strategy| -> Vec<f64> {
            let run = exact(&rules, strategy, &stealths);
            run.expectations.iter().map(|e| e.win).collect()
        };
        let rung = |kept: usize| -> Vec<f64> {
            stealths
                .iter()
                .map(|s| {
                    let r = rungs
                        .iter()
                        .find(|r| {
                            r["card"] == card
                                && r["rules_kept"] == kept.to_string()
                                && r["stealth"] == s.to_string()
                        })
                        .unwrap_or_else(|| panic!("{card} {kept} {s}"));
                    r["win_rate"].parse().unwrap()
                })
                .collect()
        };
        let n = file.spec().card.rules.len();
        assert!(n > 0, "{card} has rules");
        let whole = value(&file);
        for (a, b) in rung(n).iter().zip(&whole) {
            assert!(
                (a - b).abs() < 1e-12,
                "{card}: the whole card {a} against {b}"
            );
        }
        // The first rung: the card's knobs alone, those of `from` but for the ones the
        // search changed, which the section names.
        let mut alone = file.spec().clone();
        alone.card = Card::new(Vec::new());
        let knobs = value(&FileStrategy::from_spec(card, alone.clone()));
        for (a, b) in rung(0).iter().zip(&knobs) {
            assert!(
                (a - b).abs() < 1e-12,
                "{card}: no rules {a} against its knobs' {b}"
            );
        }
        let tuned = bundled(from).unwrap().unwrap();
        for change in raven::tune::changed(tuned.spec(), &alone) {
            assert!(readme.contains(&change), "{card}: {change} unsaid");
        }
        // Each rule's worth, by removing it from the file's card; listed by worth.
        let listed: Vec<_> = rules_of.iter().filter(|r| r["card"] == card).collect();
        assert_eq!(listed.len(), n, "{card}");
        let mut last = f64::INFINITY;
        for (rank, r) in listed.iter().enumerate() {
            assert_eq!(r["rank"], (rank + 1).to_string());
            assert_eq!(r["rules"], preset);
            let at = (file.spec().card.rules.iter())
                .position(|x| x.to_string() == r["rule"])
                .unwrap_or_else(|| panic!("{card}: {} is on the card", r["rule"]));
            let mut spec = file.spec().clone();
            let mut kept = spec.card.rules.clone();
            kept.remove(at);
            spec.card = Card::new(kept);
            let without = value(&FileStrategy::from_spec("without", spec));
            let worth: f64 = r["worth"].parse().unwrap();
            assert!(
                (worth - (mean(&whole) - mean(&without))).abs() < 1e-12,
                "{card}: {}",
                r["rule"]
            );
            assert!(worth <= last, "{card}: listed by worth");
            last = worth;
            let line = format!("1. {} ({:+.2})", r["sentence"], 100.0 * worth);
            assert!(readme.contains(&line), "README lacks {line}");
        }
        let page = fs::read_to_string(dir.join(format!("{card}.html"))).unwrap();
        assert_eq!(page.matches("<li>").count(), n, "{card}.html");
        assert!(readme.contains(&format!("[{card}.html]({card}.html)")));
    }
}
