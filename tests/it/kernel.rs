//! The Monte Carlo kernel: the coarse, specialised game loop must play exactly the
//! games of the one state machine, step by step — same numbers drawn, same end states — for
//! any thread count, and `raven play --game i` must narrate game `i` of `simulate`.

use assert_cmd::cargo::cargo_bin_cmd;
use rand::Rng;
use raven::engine::montecarlo::{Job, play_one, play_range};
use raven::engine::seed::streams;
use raven::engine::{Observer, play_game, play_seeded};
use raven::game::{Action, Chance, Decision, State};
use raven::rules::{CLARIFIED, MAIN_TEXT, Rules};
use raven::strategy::{Strategy, resolve};

/// Every strategy `--strategy` resolves by name, bundled files included.
fn strategies() -> Vec<Box<dyn Strategy>> {
    let mut names = vec!["reference", "random", "reference.toml"];
    names.extend(
        raven::strategy::BUNDLED
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| *n != "reference"),
    );
    names
        .into_iter()
        .map(|n| resolve(n).expect("bundled strategy"))
        .collect()
}

/// Both presets and each variant flag on its own.
fn rule_sets() -> Vec<Rules> {
    let mut sets = vec![MAIN_TEXT, CLARIFIED];
    for (key, value) in [
        ("recruit-count", "living"),
        ("first-aid-recruit", "per-recruit"),
        ("finale-substitute", "yes"),
        ("first-aid-after-side", "yes"),
    ] {
        let mut rules = MAIN_TEXT;
        rules.set(key, value).expect("a known flag");
        sets.push(rules);
    }
    sets
}

/// Watches every step, so the driver takes no coarse transition.
struct EveryStep(u64);

impl Observer for EveryStep {
    fn decision(&mut self, _: &State, _: Decision, _: Action, _: &State) {
        self.0 += 1;
    }
    fn chance(&mut self, _: &State, _: Chance, _: u32, _: &State) {
        self.0 += 1;
    }
}

/// The coarse transitions (a roller or first-aid decision and its check in one step) and the
/// specialised loops reach the very end state the step-by-step interpreter reaches, drawing
/// the very same numbers: every strategy, every rule set, 300 games each.
#[test]
fn coarse_kernel_plays_the_step_by_step_games() {
    for rules in rule_sets() {
        for strategy in strategies() {
            for game in 0..300 {
                let stealth = [0, 3, 10][game as usize % 3];
                let mut fine = streams(11, stealth, game);
                let mut watcher = EveryStep(0);
                let slow = play_game(
                    &rules,
                    strategy.as_ref(),
                    State::new(stealth),
                    &mut fine,
                    &mut watcher,
                );
                assert!(watcher.0 > 0);
                let fast = play_one(&rules, strategy.as_ref(), 11, stealth, game);
                assert_eq!(slow, fast, "{} {rules} game {game}", strategy.name());
                // Both consumed the same numbers: the streams are left in the same place.
                let mut coarse = streams(11, stealth, game);
                play_game(
                    &rules,
                    strategy.as_ref(),
                    State::new(stealth),
                    &mut coarse,
                    &mut (),
                );
                assert_eq!(fine.dice.next_u64(), coarse.dice.next_u64());
                assert_eq!(fine.scenario.next_u64(), coarse.scenario.next_u64());
            }
        }
    }
}

/// Golden first outputs of the kernel: the end of the first games of the default seed
/// (reference, main-text, stealth 10), as `(won, stealth left, team size, deaths)`. Any change
/// to the seeding, the dice, the rules or the reference strategy moves them; updating them
/// must be deliberate (see the golden 1M-game count in `tests/it/montecarlo.rs`).
#[test]
fn golden_first_games() {
    let first: Vec<(bool, u8, u8, u8)> = (0..8)
        .map(|game| {
            let end = play_one(
                &MAIN_TEXT,
                &raven::strategy::ReferenceStrategy,
                20_261_122,
                10,
                game,
            );
            (
                end.outcome() == Some(raven::game::Outcome::Win),
                end.stealth(),
                end.team().len(),
                end.deaths(),
            )
        })
        .collect();
    assert_eq!(first, GOLDEN_FIRST);
}

const GOLDEN_FIRST: [(bool, u8, u8, u8); 8] = [
    (false, 0, 4, 0),
    (false, 0, 4, 1),
    (false, 0, 4, 0),
    (false, 0, 4, 0),
    (true, 0, 4, 0),
    (false, 10, 1, 0),
    (true, 0, 4, 1),
    (true, 0, 4, 1),
];

/// The final stealth `raven play` narrates: the last "stealth a → b" line, or the start.
fn narrated(args: &[&str], start: u8) -> (String, u8) {
    let output = cargo_bin_cmd!("raven")
        .arg("play")
        .args(args)
        .output()
        .expect("raven runs");
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let stealth = text
        .lines()
        .rev()
        .find_map(|l| {
            let change = l.trim().strip_prefix("stealth ")?;
            change
                .split('→')
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(start);
    let outcome = text.lines().next_back().unwrap_or("").to_string();
    (outcome, stealth)
}

/// `raven play --seed S --game i` narrates exactly game `i` of `raven simulate --seed S`:
/// the same outcome and the same stealth left as that game's share of the simulate tally.
#[test]
fn play_narrates_game_i_of_simulate() {
    for (strategy, stealth, seed, rules) in [
        ("reference", 10u8, 20_261_122u64, "main-text"),
        ("random", 6, 7, "clarified"),
        ("cautious", 8, 3, "main-text"),
        ("reckless", 12, 99, "clarified"),
    ] {
        let resolved = resolve(strategy).unwrap();
        let preset = if rules == "main-text" {
            MAIN_TEXT
        } else {
            CLARIFIED
        };
        for game in [0u64, 1, 17, 16_384, 40_000] {
            let job = Job {
                rules: &preset,
                strategy: resolved.as_ref(),
                stealth,
                games: game + 1,
                seed,
            };
            // Game `game`'s share of the tally of a run of `game + 1` games.
            let tally = play_range(&job, game..game + 1);
            let (line, left) = narrated(
                &[
                    "--seed",
                    &seed.to_string(),
                    "--game",
                    &game.to_string(),
                    "--stealth",
                    &stealth.to_string(),
                    "--strategy",
                    strategy,
                    "--rules",
                    rules,
                ],
                stealth,
            );
            let what = format!("{strategy} {rules} seed {seed} game {game}");
            assert_eq!(line.starts_with("WIN"), tally.wins == 1, "{what}: {line}");
            assert!(
                line.starts_with("WIN") || line.starts_with("LOSS"),
                "{what}: {line}"
            );
            assert_eq!(u64::from(left), tally.stealth_left, "{what}");
            // And the library's narrated replay agrees with both.
            let (end, _) = play_seeded(
                &preset,
                resolved.as_ref(),
                stealth,
                seed,
                game,
                &mut EveryStep(0),
            );
            assert_eq!(u64::from(end.stealth()), tally.stealth_left, "{what}");
        }
    }
}

/// The CSV a subcommand prints to standard output.
fn csv_of(command: &str, args: &[&str], threads: usize) -> String {
    let output = cargo_bin_cmd!("raven")
        .arg(command)
        .args(["--quiet", "--out", "-", "--threads", &threads.to_string()])
        .args(args)
        .output()
        .expect("raven runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).expect("UTF-8 CSV")
}

/// simulate, compare and sweep write byte-identical CSVs with 1, 2 and 7 worker threads
/// (40 001 games: two full chunks and a partial one).
#[test]
fn csvs_do_not_depend_on_thread_count() {
    let runs: [(&str, Vec<&str>); 4] = [
        (
            "simulate",
            vec![
                "--games",
                "40001",
                "--stealth",
                "4,10",
                "--strategy",
                "cautious",
            ],
        ),
        (
            "simulate",
            vec![
                "--games",
                "40001",
                "--stealth",
                "7",
                "--strategy",
                "random",
                "--rules",
                "clarified",
            ],
        ),
        (
            "compare",
            vec![
                "--games",
                "40001",
                "--stealth",
                "10",
                "--strategy",
                "reference",
                "--strategy",
                "reckless",
                "--strategy",
                "random",
            ],
        ),
        (
            "sweep",
            vec![
                "--games",
                "40001",
                "--stealth",
                "10",
                "--strategy",
                "cautious",
                "--param",
                "side.max_attempts=1..3",
            ],
        ),
    ];
    for (command, args) in runs {
        let one = csv_of(command, &args, 1);
        assert!(one.lines().count() >= 2, "{command}: {one}");
        for threads in [2, 7] {
            assert_eq!(
                csv_of(command, &args, threads),
                one,
                "{command} {args:?} with {threads} threads"
            );
        }
    }
}

/// `(count - n p) / sqrt(n p (1 - p))`; 0 when `p` is 0 or 1 and the count is as certain.
fn z(count: u64, n: u64, p: f64) -> f64 {
    let expected = n as f64 * p;
    let sd = (expected * (1.0 - p)).sqrt();
    if sd == 0.0 {
        if (count as f64 - expected).abs() < 0.5 {
            0.0
        } else {
            f64::INFINITY
        }
    } else {
        (count as f64 - expected) / sd
    }
}

/// Monte Carlo (500 000 games per cell, fixed seeds) agrees with the exact engine at |z| < 4
/// on the win, every loss cause and discovery, for the built-in reference and random
/// strategies and every bundled strategy file, under both presets and each variant flag.
///
/// Starting stealth 6 where the exact engine is quick, 2 for the three strategies whose exact
/// walk is still expensive at higher stealth (random, reckless, medic-main: seconds per cell).
#[test]
fn monte_carlo_agrees_with_exact_for_every_strategy_and_rule_set() {
    use rayon::prelude::*;
    const GAMES: u64 = 500_000;
    let mut cells = Vec::new();
    for (r, rules) in rule_sets().into_iter().enumerate() {
        for (s, strategy) in strategies().into_iter().enumerate() {
            cells.push((r, rules, s, strategy));
        }
    }
    let failures: Vec<String> = cells
        .par_iter()
        .flat_map_iter(|(r, rules, s, strategy)| {
            let stealth = match strategy.name() {
                "random" | "reckless" | "medic-main" => 2,
                _ => 6,
            };
            let e = raven::engine::exact(rules, strategy.as_ref(), &[stealth]).expectations[0];
            let job = Job {
                rules,
                strategy: strategy.as_ref(),
                stealth,
                games: GAMES,
                seed: 1_000 + (10 * r + s) as u64,
            };
            let tally = play_range(&job, 0..GAMES);
            let mut checks = vec![
                ("win", tally.wins, e.win),
                ("discovered", tally.discovered, e.discovered),
            ];
            for cause in raven::game::LossCause::ALL {
                checks.push((cause.key(), tally.lost(cause), e.losses[cause as usize]));
            }
            let name = strategy.name().to_string();
            let rules = *rules;
            checks.into_iter().filter_map(move |(what, count, p)| {
                let zv = z(count, GAMES, p);
                (zv.abs() >= 4.0).then(|| {
                    format!("{name} {rules} stealth {stealth} {what}: exact {p}, z = {zv:.2}")
                })
            })
        })
        .collect();
    // Both presets and four variant flags; the built-in strategies, `reference.toml` and
    // every other bundled file.
    assert_eq!(cells.len(), 6 * (2 + raven::strategy::BUNDLED.len()));
    assert!(failures.is_empty(), "{failures:#?}");
}
