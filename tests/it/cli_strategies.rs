//! The strategy subcommands through the real binary: listing, checking files, clear errors
//! with file:line:column and exit code 2 (never a panic), compare and sweep outputs.

use std::path::PathBuf;

use predicates::prelude::*;

use crate::common;

use common::{file, raven};

/// Runs `args` with the file, expecting exit 2 and one error line naming `place`.
fn refused(args: &[&str], path: &PathBuf, place: &str, what: &str) {
    let out = raven().args(args).arg(path).assert().code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let expected = format!("{}{place}", path.display());
    assert!(
        stderr.contains(&expected) && stderr.contains(what),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
}

#[test]
fn lists_built_in_and_bundled_strategies_with_their_ideas() {
    raven()
        .arg("strategies")
        .assert()
        .success()
        .stdout(predicate::str::contains("reference.toml"))
        .stdout(predicate::str::contains("cautious"))
        .stdout(predicate::str::contains("never give first aid"));
}

#[test]
fn check_accepts_every_bundled_file() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("strategies");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(files.len() >= 6);
    raven()
        .args(["strategies", "check"])
        .args(&files)
        .assert()
        .success()
        .stdout(predicate::str::contains("ok ").count(files.len()));
}

#[test]
fn malformed_files_are_refused_with_file_line_column() {
    let cases = [
        ("syntax.toml", "[recruit\ncount = 1\n", ":1:9:", "expected"),
        (
            "unknown.toml",
            "[recruit]\ncounts = 1\n",
            ":2:1:",
            "unknown field `counts`",
        ),
        (
            "type.toml",
            "[side]\nmax_attempts = \"three\"\n",
            ":2:16:",
            "invalid type",
        ),
        (
            "range.toml",
            "[recruit]\ncount = 6\n",
            ":2:9:",
            "out of range (allowed: 0..=5)",
        ),
        (
            "keyword.toml",
            "[run]\nroller = \"best\"\n",
            ":2:10:",
            "specialist, least-wounded",
        ),
        (
            "medic.toml",
            "[run]\npick_on_six = \"medic\"\n",
            ":2:15:",
            "never medical",
        ),
    ];
    for (name, text, place, what) in cases {
        let (_dir, path) = file(name, text);
        refused(&["strategies", "check"], &path, place, what);
        refused(&["play", "--strategy"], &path, place, what);
    }
}

/// Rules of thumb: an unknown fact or option, a range that can never hold, a kind of decision
/// that does not exist — each one line naming the place, exit 2; a rule an earlier one
/// shadows — a warning naming both lines, and the file is accepted.
#[test]
fn rules_are_checked_with_file_line_column() {
    let cases = [
        (
            "fact.toml",
            "[rules]\nfirst-aid = [\"when moon = full -> skip\"]\n",
            ":2:20:",
            "'moon' is not a fact",
        ),
        (
            "option.toml",
            "[rules]\nside-challenge = [\"when discovered -> skip\"]\n",
            ":2:39:",
            "not an option of a side-challenge decision",
        ),
        (
            "range.toml",
            "[rules]\nfirst-aid = [\"when stealth > 99 -> skip\"]\n",
            ":2:20:",
            "can never hold",
        ),
        (
            "kind.toml",
            "[rules]\nlunch = [\"-> skip\"]\n",
            ":2:1:",
            "unknown field `lunch`",
        ),
    ];
    for (name, text, place, what) in cases {
        let (_dir, path) = file(name, text);
        refused(&["strategies", "check"], &path, place, what);
        refused(&["play", "--strategy"], &path, place, what);
    }
    let shadowed = "[rules]\nfirst-aid = [\n  \"when discovered -> skip\",\n  \"when discovered and tough = 2 -> treat finale\",\n]\n";
    let (_dir, path) = file("shadowed.toml", shadowed);
    raven()
        .args(["strategies", "check"])
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("ok "))
        .stderr(predicate::str::contains(format!(
            "{}:4: warning",
            path.display()
        )))
        .stderr(predicate::str::contains("line 3"));
}

#[test]
fn check_stops_at_the_first_bad_file() {
    let (_a, good) = file("good.toml", "[recruit]\ncount = 1\n");
    let (_b, bad) = file("bad.toml", "[recruit]\ncount = -1\n");
    raven()
        .args(["strategies", "check"])
        .arg(&good)
        .arg(&bad)
        .arg(&good)
        .assert()
        .code(2)
        .stdout(predicate::str::contains("ok ").count(1))
        .stderr(predicate::str::contains(format!("{}:2:9:", bad.display())));
}

#[test]
fn missing_file_and_unknown_name_are_input_errors() {
    raven()
        .args(["strategies", "check", "/nonexistent/x.toml"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "/nonexistent/x.toml: cannot read strategy file",
        ));
    raven()
        .args(["play", "--strategy", "no-such-strategy"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("unknown strategy 'no-such-strategy'")
                .and(predicate::str::contains("cautious"))
                .and(predicate::str::contains("random")),
        );
}

#[test]
fn bundled_names_work_from_any_directory() {
    let dir = tempfile::tempdir().unwrap();
    raven()
        .current_dir(dir.path())
        .args(["play", "--strategy", "reference.toml", "--game", "2"])
        .assert()
        .success()
        .stdout(predicate::str::contains("strategy reference.toml"));
}

#[test]
fn compare_self_gives_exactly_zero_difference_and_tidy_csv() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.csv");
    raven()
        .args([
            "compare",
            "--strategy",
            "reference",
            "--strategy",
            "reference",
            "--strategy",
            "no-first-aid",
            "--stealth",
            "8,12",
            "--games",
            "3000",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success()
        .stdout(predicate::str::contains("no-first-aid"));
    let mut reader = csv::Reader::from_path(&out).unwrap();
    let headers = reader.headers().unwrap().clone();
    let col = |name: &str| headers.iter().position(|h| h == name).unwrap();
    for expected in [
        "strategy",
        "baseline",
        "rules",
        "stealth",
        "games",
        "wins",
        "win_rate",
        "ci_low",
        "ci_high",
        "diff",
        "diff_ci_low",
        "diff_ci_high",
        "p_value",
        "ci_level",
        "seed",
        "raven_version",
    ] {
        col(expected);
    }
    let rows: Vec<_> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 6);
    for row in rows.iter().filter(|r| &r[col("strategy")] == "reference") {
        assert_eq!(&row[col("diff")], "0.0");
        assert_eq!(&row[col("diff_ci_low")], "0.0");
        assert_eq!(&row[col("diff_ci_high")], "0.0");
        assert_eq!(&row[col("p_value")], "1e0");
    }
    let other = rows
        .iter()
        .find(|r| &r[col("strategy")] == "no-first-aid")
        .unwrap();
    assert_ne!(&other[col("diff")], "0.0");
}

#[test]
fn compare_needs_two_strategies() {
    raven()
        .args(["compare", "--strategy", "reference", "--games", "10"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at least two"));
}

#[test]
fn sweep_writes_one_row_per_point_and_stealth_with_parameters_first() {
    raven()
        .args([
            "sweep",
            "--strategy",
            "cautious",
            "--param",
            "recruit.stealth_floor=0..6:3",
            "--param",
            "side.max_attempts=1..2",
            "--stealth",
            "8,10",
            "--games",
            "500",
            "--out",
            "-",
        ])
        .assert()
        .success()
        .stdout(
            predicate::str::starts_with("recruit.stealth_floor,side.max_attempts,strategy,")
                .and(predicate::str::contains("\n6,2,cautious,main-text,10,500,")),
        )
        .stdout(predicate::function(|s: &str| {
            s.lines().count() == 1 + 3 * 2 * 2
        }));
}

#[test]
fn sweep_refuses_bad_parameters_and_values() {
    raven()
        .args([
            "sweep",
            "--strategy",
            "cautious",
            "--param",
            "recruit.roller=0..1",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("not a numeric knob"));
    raven()
        .args([
            "sweep",
            "--strategy",
            "cautious",
            "--param",
            "recruit.count=4..7",
            "--games",
            "10",
        ])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("recruit.count=6")
                .and(predicate::str::contains("out of range")),
        );
}

/// Several strategies are named one way in every command that takes several: a
/// comma-separated list and the option repeated are the same request, with the same output
/// byte for byte (`compare`, `decisions`, `solve`, `explore`).
#[test]
fn several_strategies_are_accepted_comma_separated_or_repeated() {
    let commands: [&[&str]; 4] = [
        &[
            "compare",
            "--games",
            "300",
            "--stealth",
            "2",
            "--quiet",
            "--out",
            "-",
        ],
        &["decisions", "--stealth", "0", "--quiet", "--out", "-"],
        &["solve", "--stealth", "0", "--quiet", "--out", "-"],
        &[
            "explore",
            "--param",
            "run-challenges=5,6",
            "--stealth",
            "0",
            "--quiet",
            "--out",
            "-",
        ],
    ];
    for args in commands {
        let listed = common::stdout(&[args, &["--strategy", "reference,duo"]].concat());
        let repeated =
            common::stdout(&[args, &["--strategy", "reference", "--strategy", "duo"]].concat());
        assert_eq!(listed, repeated, "{args:?}");
        assert!(
            listed.contains("duo") && listed.contains("reference"),
            "{args:?}: both strategies in\n{listed}"
        );
    }
}
