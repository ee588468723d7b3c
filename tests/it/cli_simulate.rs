//! `raven simulate` driven through the real binary: determinism across thread counts, the CSV
//! contract, input errors (exit 2, no file) and Ctrl-C (exit 130, no file).

use predicates::prelude::*;
use serde::Deserialize;

use crate::common;

use common::{entries, raven};

/// Small enough to keep the suite fast, not a multiple of the chunk size (16 384), so the
/// last chunk is a partial one.
const GAMES: &str = "40001";

/// The exact CSV header: changing it breaks every spreadsheet and script downstream, so it
/// must be a deliberate decision (update the column list of docs/reference.md too).
const HEADER: &str = "strategy,rules,stealth,games,wins,win_rate,ci_low,ci_high,ci_level,seed,\
raven_version,method,loss_recruitment,loss_run,loss_finale,loss_finale_character_down,\
loss_recruitment_rate,loss_run_rate,loss_finale_rate,loss_finale_character_down_rate,\
discovered_rate,mean_stealth_left,mean_team_at_run,mean_deaths";

/// One CSV row as a reader would parse it.
#[derive(Debug, Deserialize)]
struct SimulateRow {
    strategy: String,
    rules: String,
    stealth: u8,
    games: u64,
    wins: u64,
    win_rate: f64,
    ci_low: f64,
    ci_high: f64,
    ci_level: f64,
    seed: u64,
    raven_version: String,
    method: String,
    loss_recruitment: u64,
    loss_run: u64,
    loss_finale: u64,
    loss_finale_character_down: u64,
    loss_recruitment_rate: f64,
    loss_run_rate: f64,
    loss_finale_rate: f64,
    loss_finale_character_down_rate: f64,
    discovered_rate: f64,
    mean_stealth_left: f64,
    mean_team_at_run: f64,
    mean_deaths: f64,
}

/// The CSV `raven simulate --out -` prints with these extra arguments.
fn csv(args: &[&str]) -> String {
    let output = raven()
        .args(["simulate", "--quiet", "--games", GAMES, "--out", "-"])
        .args(args)
        .output()
        .expect("raven runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).expect("UTF-8 CSV")
}

fn rows(text: &str) -> Vec<SimulateRow> {
    csv::Reader::from_reader(text.as_bytes())
        .deserialize()
        .collect::<Result<_, _>>()
        .expect("every row parses")
}

#[test]
fn same_seed_gives_identical_csv_for_one_and_two_threads() {
    let one = csv(&["--threads", "1", "--stealth", "8,12"]);
    let two = csv(&["--threads", "2", "--stealth", "8,12"]);
    assert_eq!(one, two);
}

#[test]
fn different_seeds_give_different_results() {
    let a = rows(&csv(&["--stealth", "10", "--seed", "1"]));
    let b = rows(&csv(&["--stealth", "10", "--seed", "2"]));
    assert_eq!((a[0].seed, b[0].seed), (1, 2));
    assert_ne!(
        (a[0].wins, a[0].loss_run, a[0].loss_finale_character_down),
        (b[0].wins, b[0].loss_run, b[0].loss_finale_character_down)
    );
}

#[test]
fn csv_header_is_exactly_the_documented_one() {
    let text = csv(&["--stealth", "10"]);
    assert_eq!(text.lines().next(), Some(HEADER));
}

#[test]
fn csv_rows_parse_and_are_consistent() {
    let text = csv(&["--stealth", "0,8,12", "--rules", "clarified", "--seed", "7"]);
    let rows = rows(&text);
    assert_eq!(
        rows.iter().map(|r| r.stealth).collect::<Vec<_>>(),
        [0, 8, 12]
    );
    for r in &rows {
        assert_eq!(r.strategy, "reference");
        assert_eq!(r.rules, "clarified");
        assert_eq!(r.method, "monte-carlo");
        assert_eq!(r.raven_version, env!("CARGO_PKG_VERSION"));
        assert_eq!(
            (r.seed, r.games, r.ci_level),
            (7, GAMES.parse().unwrap(), 0.95)
        );
        assert!(r.wins <= r.games, "{r:?}");
        let losses = [
            r.loss_recruitment,
            r.loss_run,
            r.loss_finale,
            r.loss_finale_character_down,
        ];
        assert_eq!(r.wins + losses.iter().sum::<u64>(), r.games, "{r:?}");
        let rates = [
            r.win_rate,
            r.ci_low,
            r.ci_high,
            r.loss_recruitment_rate,
            r.loss_run_rate,
            r.loss_finale_rate,
            r.loss_finale_character_down_rate,
            r.discovered_rate,
        ];
        assert!(rates.iter().all(|x| (0.0..=1.0).contains(x)), "{r:?}");
        assert!(r.ci_low <= r.win_rate && r.win_rate <= r.ci_high, "{r:?}");
        // Rates carry 12 significant digits in the CSV.
        assert!((r.win_rate - r.wins as f64 / r.games as f64).abs() < 1e-12);
        assert!((r.loss_run_rate - r.loss_run as f64 / r.games as f64).abs() < 1e-12);
        assert!(r.mean_stealth_left <= f64::from(r.stealth));
        assert!((1.0..=4.0).contains(&r.mean_team_at_run), "{r:?}");
        assert!((0.0..=4.0).contains(&r.mean_deaths), "{r:?}");
    }
    // Starting discovered, every game is discovered.
    assert_eq!(rows[0].discovered_rate, 1.0);
}

#[test]
fn out_file_gets_the_csv_and_stdout_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("results.csv");
    raven()
        .args(["simulate", "--games", GAMES, "--stealth", "10", "--out"])
        .arg(&path)
        .assert()
        .success()
        .stderr("")
        .stdout(
            predicate::str::starts_with(format!(
                "raven {} simulate: strategy reference; rules main-text; stealth 10; \
                 40001 games per stealth;\n  seed 20261122; 95% Wilson intervals\n",
                env!("CARGO_PKG_VERSION")
            ))
            .and(predicate::str::contains("\nreference      10 37.")),
        );
    let written = std::fs::read_to_string(&path).unwrap();
    assert_eq!(written, csv(&["--stealth", "10"]));
    assert_eq!(entries(dir.path()), ["results.csv"]);
}

#[test]
fn zero_games_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    raven()
        .args(["simulate", "--games", "0", "--out"])
        .arg(dir.path().join("x.csv"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("at least 1 game is needed"));
    assert!(entries(dir.path()).is_empty());
}

#[test]
fn unwritable_out_path_fails_fast_without_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing").join("x.csv");
    raven()
        // A huge run: the error must come before any game is played.
        .args(["simulate", "--games", "1000000000000", "--out"])
        .arg(&path)
        .timeout(std::time::Duration::from_secs(60))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("does not exist").and(predicate::str::contains("x.csv")));
    assert!(entries(dir.path()).is_empty());
    // A directory is not a file either.
    raven()
        .args(["simulate", "--games", "1000000000000", "--out"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is a directory"));
}

#[test]
fn bad_stealth_lists_are_refused_without_a_file() {
    for (list, why) in [
        ("8,x", "invalid digit"),
        ("100", "100 is not in 0..=99"),
        ("8,,10", "empty string"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        raven()
            .args(["simulate", "--stealth", list, "--out"])
            .arg(dir.path().join("x.csv"))
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("--stealth").and(predicate::str::contains(why)));
        assert!(entries(dir.path()).is_empty(), "{list}");
    }
}

#[test]
fn unknown_strategy_or_rules_are_refused_without_a_file() {
    for (args, why) in [
        (
            ["--strategy", "timid-turtle"],
            "unknown strategy 'timid-turtle'",
        ),
        (["--rules", "house"], "unknown rules preset 'house'"),
        (["--rule", "colour=red"], "unknown rule key 'colour'"),
        (["--confidence", "95"], "not strictly between 0 and 1"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        raven()
            .arg("simulate")
            .args(args)
            .arg("--out")
            .arg(dir.path().join("x.csv"))
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(why).and(predicate::str::contains("panicked").not()));
        assert!(entries(dir.path()).is_empty(), "{args:?}");
    }
}

/// Ctrl-C mid-run: exit 130, a message, and neither the output file nor its temporary file.
#[cfg(unix)]
#[test]
fn ctrl_c_exits_130_and_leaves_no_file() {
    use std::time::{Duration, Instant};

    let dir = tempfile::tempdir().unwrap();
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("raven"))
        .args([
            "simulate",
            "--games",
            "1000000000000",
            "--threads",
            "1",
            "--out",
        ])
        .arg(dir.path().join("x.csv"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The temporary file is created after the handler is installed: once it exists, SIGINT
    // reaches the handler rather than killing the process outright.
    let start = Instant::now();
    while entries(dir.path()).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "raven never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(130), "{output:?}");
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("interrupted"));
    assert!(entries(dir.path()).is_empty(), "{:?}", entries(dir.path()));
}
