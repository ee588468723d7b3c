//! `raven play`: every game ends in a win or a loss (many seeds through the library, a few
//! through the binary, which must agree with the library), and bad input is refused with exit
//! code 2 and one clear error line.

use crate::common;

use common::raven;
use raven::engine::play_seeded;
use raven::game::{Node, Outcome};
use raven::rules::{PRESETS, Rules};
use raven::strategy::{BUILT_IN, built_in};

/// The strategies played here: the reference and the random one (which reaches every branch
/// of the rules). `optimal` is left to `tests/it/exact.rs`: it solves before it plays.
const PLAYED: [&str; 2] = ["reference", "random"];

/// The outcome `raven play` should print for these arguments (stealth 10, game 0 defaults).
fn library_outcome(rules: &Rules, strategy: &str, seed: u64) -> Outcome {
    let strategy = built_in(strategy).expect("built-in strategy");
    play_seeded(rules, strategy.as_ref(), 10, seed, 0, &mut ()).1
}

/// Seeds 1..=1000 × both presets × both strategies, through the library: every game ends,
/// over, in a win or a loss, the same way when replayed.
#[test]
fn library_games_end_in_win_or_loss_for_many_seeds() {
    for preset in PRESETS {
        let mut wins = 0;
        let mut losses = 0;
        for name in PLAYED {
            let strategy = built_in(name).expect("built-in");
            for seed in 1..=1000 {
                let (end, outcome) =
                    play_seeded(&preset.rules, strategy.as_ref(), 10, seed, 0, &mut ());
                assert_eq!(end.node(&preset.rules), Node::Over(outcome));
                let line = outcome.to_string();
                assert!(
                    line == "WIN" || line.starts_with("LOSS: "),
                    "{}/{name}/seed {seed}: {line}",
                    preset.name
                );
                match outcome {
                    Outcome::Win => wins += 1,
                    Outcome::Loss(_) => losses += 1,
                }
                let (_, again) =
                    play_seeded(&preset.rules, strategy.as_ref(), 10, seed, 0, &mut ());
                assert_eq!(outcome, again, "replaying seed {seed} changes the game");
            }
        }
        assert!(
            wins > 0 && losses > 0,
            "{}: {wins} wins, {losses} losses",
            preset.name
        );
    }
}

/// A handful of seeds through the binary: exit 0, a header naming seed, strategy and rules,
/// and a final line `WIN` or `LOSS: …` equal to the library's outcome for the same game.
#[test]
fn binary_final_line_is_the_outcome() {
    for preset in PRESETS {
        for strategy in PLAYED {
            for seed in 1..=4u64 {
                let output = raven()
                    .args(["play", "--seed", &seed.to_string(), "--strategy", strategy])
                    .args(["--rules", preset.name])
                    .output()
                    .expect("raven runs");
                assert!(output.status.success(), "{:?}", output);
                assert!(output.stderr.is_empty());
                let stdout = String::from_utf8(output.stdout).expect("UTF-8");
                let first = stdout.lines().next().expect("a header");
                assert!(first.contains(&format!("seed {seed}")), "{first}");
                assert!(first.contains(&format!("strategy {strategy}")), "{first}");
                // A preset is named, not spelled out (docs/rules.md lists its flags).
                assert!(first.contains(&format!("rules {}", preset.name)), "{first}");
                let last = stdout.lines().last().expect("an outcome line");
                assert!(
                    last == "WIN" || last.starts_with("LOSS: "),
                    "final line {last:?}"
                );
                let expected = library_outcome(&preset.rules, strategy, seed);
                assert_eq!(
                    last,
                    expected.to_string(),
                    "{} {strategy} {seed}",
                    preset.name
                );
            }
        }
    }
}

/// `--rule` overrides reach the game and are named in the header.
#[test]
fn binary_accepts_rule_overrides() {
    let output = raven()
        .args([
            "play",
            "--seed",
            "3",
            "--stealth",
            "0",
            "--rules",
            "clarified",
        ])
        .args([
            "--rule",
            "finale-substitute=yes",
            "--rule",
            "first-aid-after-side=yes",
        ])
        .output()
        .expect("raven runs");
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let first = stdout.lines().next().expect("a header");
    assert!(first.contains("stealth 0"), "{first}");
    assert!(first.contains("discovered-penalty=2"), "{first}");
    assert!(first.contains("finale-substitute=yes"), "{first}");
    assert!(first.contains("first-aid-after-side=yes"), "{first}");
    let last = stdout.lines().last().expect("an outcome line");
    assert!(last == "WIN" || last.starts_with("LOSS: "), "{last}");
}

/// `raven play ARGS`, refused (see [`common::refused`]).
fn refused(args: &[&str]) -> String {
    common::refused(&[&["play"], args].concat())
}

#[test]
fn unknown_strategy_is_refused() {
    let line = refused(&["--strategy", "timid-turtle"]);
    assert!(line.contains("'timid-turtle'"), "{line}");
    for (name, _) in BUILT_IN {
        assert!(line.contains(name), "{line} does not list {name}");
    }
}

#[test]
fn unknown_rule_key_is_refused() {
    let line = refused(&["--rule", "colour=red"]);
    assert!(line.contains("'colour'"), "{line}");
    for key in Rules::keys() {
        assert!(line.contains(key), "{line} does not list {key}");
    }
}

#[test]
fn bad_rule_value_is_refused() {
    let line = refused(&["--rule", "discovered-penalty=3"]);
    assert!(line.contains("discovered-penalty"), "{line}");
    assert!(line.contains("'3'"), "{line}");
    assert!(line.contains("1, 2"), "{line}");
    let line = refused(&["--rule", "finale-substitute=maybe"]);
    assert!(
        line.contains("'maybe'") && line.contains("no, yes"),
        "{line}"
    );
}

#[test]
fn rule_without_value_is_refused() {
    let line = refused(&["--rule", "recruit-count"]);
    assert!(line.contains("key=value"), "{line}");
}

#[test]
fn stealth_out_of_range_is_refused() {
    let line = refused(&["--stealth", "100"]);
    assert!(line.contains("100"), "{line}");
    assert!(line.contains("0..=99"), "{line}");
    let line = refused(&["--stealth", "-1"]);
    assert!(line.contains("-1") || line.contains("stealth"), "{line}");
}

#[test]
fn unknown_rules_preset_is_refused() {
    let line = refused(&["--rules", "house"]);
    assert!(line.contains("'house'"), "{line}");
    for preset in PRESETS {
        assert!(
            line.contains(preset.name),
            "{line} does not list {}",
            preset.name
        );
    }
}

/// R8: a strategy may stop right after a *successful* recruitment check (here: a stealth floor
/// crossed by a success that rolled 5, with `stop_after_success`); the narration says so and
/// names the abandoned target's progress.
#[test]
fn r8_stop_after_a_success_is_narrated() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("stop-after-success.toml");
    std::fs::write(
        &path,
        "[recruit]\nstealth_floor = 10\nstop_after_success = true\n",
    )
    .expect("write strategy");
    let mut found = false;
    for game in 0..200 {
        let out = raven()
            .args([
                "play",
                "--stealth",
                "10",
                "--game",
                &game.to_string(),
                "--strategy",
            ])
            .arg(&path)
            .output()
            .expect("raven play runs");
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        let Some(i) = lines.iter().position(|l| l.contains("abandoning")) else {
            continue;
        };
        let last_roll = lines[..i].iter().rev().find(|l| l.contains(" rolls "));
        if last_roll.is_some_and(|l| l.ends_with("success")) {
            assert!(lines[i].contains("after 1 of 2"), "{}", lines[i]);
            found = true;
            break;
        }
    }
    assert!(found, "no game stopped right after a successful check");
}

/// Narration counts what the design has, not what the printed game has: 8 run challenges,
/// 2 Tough Challenges of one side challenge each, told by the narrated game and by the
/// advisor alike.
#[test]
fn narration_counts_the_designs_challenges() {
    let design = [
        "--rule",
        "run-challenges=8",
        "--rule",
        "tough-challenges=2",
        "--rule",
        "side-challenges=1",
    ];
    // Seeds until a game reaches the finale, so both counts are told.
    let finale = (1..=200u64)
        .map(|seed| {
            let out = raven()
                .args(["play", "--stealth", "16", "--seed", &seed.to_string()])
                .args(design)
                .output()
                .expect("raven runs");
            assert!(out.status.success());
            String::from_utf8(out.stdout).expect("UTF-8")
        })
        .find(|text| text.contains("Tough Challenge 1 of"))
        .expect("a game of 200 reaches the finale");
    assert!(finale.contains("Run challenge 8 of 8"), "{finale}");
    assert!(!finale.contains(" of 6:"), "{finale}");
    assert!(finale.contains("Tough Challenge 1 of 2"), "{finale}");
    assert!(!finale.contains("Tough Challenge 3"), "{finale}");
    let advised = raven()
        .args(["play", "--advise", "--stealth", "16", "--seed", "1"])
        .args(design)
        .output()
        .expect("raven runs");
    assert!(advised.status.success());
    let advised = String::from_utf8(advised.stdout).expect("UTF-8");
    assert!(advised.contains("Run challenge 1 of 8"), "{advised}");
    assert!(!advised.contains(" of 6:"), "{advised}");
}

/// A game ends with its ledger (plain, and with advice): it starts from optimal play's exact
/// win probability at the stealth, ends at the result (100 for a win, 0 for a loss), the
/// printed sum checks, a strategy's decisions never gain, and optimal play gives up nothing.
#[test]
fn a_game_ends_with_its_ledger() {
    use raven::engine::{Solver, solve};
    let rules = raven::rules::MAIN_TEXT;
    let start = solve(&Solver::new(rules), &[6])[0].value;
    for (strategy, advise) in [
        ("reference", false),
        ("optimal", false),
        ("reference", true),
    ] {
        for seed in 1..=3u64 {
            let mut cmd = raven();
            cmd.args(["play", "--stealth", "6", "--seed", &seed.to_string()])
                .args(["--strategy", strategy]);
            if advise {
                cmd.arg("--advise");
            }
            let out = cmd.output().expect("raven runs");
            assert!(out.status.success(), "{out:?}");
            let text = String::from_utf8(out.stdout).unwrap();
            let [at_start, luck, decisions, result] = common::ledger_figures(&text);
            assert_eq!(at_start, (1000.0 * start).round() / 10.0, "{text}");
            let won = text.lines().last() == Some("WIN");
            assert_eq!(result, if won { 100.0 } else { 0.0 }, "{text}");
            assert_eq!(
                (10.0 * (at_start + luck + decisions)).round(),
                10.0 * result,
                "{text}"
            );
            assert!(decisions <= 0.0, "{text}");
            if strategy == "optimal" {
                assert!(text.contains("no decision gave up anything"), "{text}");
            }
        }
    }
}
