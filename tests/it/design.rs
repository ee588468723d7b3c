//! The game's numbers as parameters (issue "design what-ifs"): every parameter reaches every
//! engine. For each one a non-default value is played by Monte Carlo, evaluated exactly and
//! solved, and the three must agree; two designs small enough to derive by hand are checked
//! against their closed forms; and the layered solver is checked against a plain expectimax
//! over labelled states on designs whose whole game is small. Run in release.

use crate::common;

use rayon::prelude::*;

use common::brute::{BruteValues, brute};

use raven::engine::seed::streams;
use raven::engine::{Solver, exact, play_game, solve};
use raven::game::{Outcome, State};
use raven::rules::{MAIN_TEXT, Rules, parse_rules};
use raven::strategy::{RandomStrategy, ReferenceStrategy, Strategy};

/// The rules of `settings` (`key=value`) on top of main-text.
fn design(settings: &[&str]) -> Rules {
    let settings: Vec<String> = settings.iter().map(|s| s.to_string()).collect();
    parse_rules("main-text", &settings).expect("a valid design")
}

/// One non-default value of every design parameter, chosen to move the game a lot (so that an
/// engine ignoring it would be caught).
fn one_per_parameter() -> Vec<Rules> {
    [
        "team-size=2",
        "recruit-checks=1",
        "run-challenges=9",
        "first-aid-after-run=no",
        "tough-challenges=5",
        "side-challenges=1",
        "first-aid-after-tough=no",
        "specialist-dice=4",
        "base-dice=1",
        "threshold=4",
        "eased-threshold=1",
        "finale-penalty=2",
        "wound-faces=3",
        "stealth-faces=2",
    ]
    .iter()
    .map(|s| design(&[s]))
    .collect()
}

/// Monte Carlo wins of `strategy` from stealth `stealth` (game `i` on the streams of game `i`).
fn wins<S: Strategy + ?Sized>(rules: &Rules, strategy: &S, stealth: u8, games: u64) -> u64 {
    (0..games)
        .into_par_iter()
        .map(|i| {
            let mut rng = streams(11, stealth, i);
            let end = play_game(rules, strategy, State::new(stealth), &mut rng, &mut ());
            u64::from(end.outcome() == Some(Outcome::Win))
        })
        .sum()
}

/// z of a Monte Carlo win count against an exact probability.
fn z(wins: u64, games: u64, p: f64) -> f64 {
    let mc = wins as f64 / games as f64;
    (mc - p) / (p * (1.0 - p) / games as f64).sqrt()
}

#[test]
fn every_parameter_reaches_monte_carlo_and_the_exact_engine_alike() {
    const STEALTH: u8 = 8;
    const GAMES: u64 = 400_000;
    let strategies: [&dyn Strategy; 2] = [&ReferenceStrategy, &RandomStrategy];
    for strategy in strategies {
        let printed = exact(&MAIN_TEXT, strategy, &[STEALTH]).expectations[0].win;
        for rules in one_per_parameter() {
            let p = exact(&rules, strategy, &[STEALTH]).expectations[0].win;
            let w = wins(&rules, strategy, STEALTH, GAMES);
            let zz = z(w, GAMES, p);
            assert!(
                zz.abs() < 4.0,
                "{rules}, {}: exact {p}, Monte Carlo {w}/{GAMES} (z = {zz:.2})",
                strategy.name()
            );
            // The value moved: an engine that ignored the parameter would play the printed
            // game and be caught above (or is caught here, if both ignored it). The random
            // strategy wins too rarely to show every parameter; the reference shows all.
            let se = (p * (1.0 - p) / GAMES as f64).sqrt();
            if strategy.name() == "reference" {
                assert!(
                    (p - printed).abs() > 6.0 * se,
                    "{rules} moves the reference's value only from {printed} to {p}"
                );
            }
        }
    }
}

#[test]
fn the_solver_bounds_every_strategy_under_every_parameter() {
    const STEALTH: u8 = 4;
    let printed = solve(&Solver::new(MAIN_TEXT), &[STEALTH])[0].value;
    for rules in one_per_parameter() {
        let optimal = solve(&Solver::new(rules), &[STEALTH])[0].value;
        for strategy in [&ReferenceStrategy as &dyn Strategy, &RandomStrategy] {
            let p = exact(&rules, strategy, &[STEALTH]).expectations[0].win;
            assert!(
                optimal >= p - 1e-12,
                "{rules}: optimal {optimal} below {} {p}",
                strategy.name()
            );
        }
        assert!(
            (optimal - printed).abs() > 1e-6,
            "{rules}: the optimal value did not move from the printed game's {printed}"
        );
    }
}

/// The layered solver (every table, the canonical forms, the parts by team shape) against
/// brute force from the start of a game, on designs whose whole game is small enough: a team
/// of one or two, short runs, under every parameter that changes the shape of the game.
#[test]
fn the_layered_solver_matches_brute_force_on_small_designs() {
    let small = ["team-size=1", "run-challenges=2", "tough-challenges=2"];
    let variations: [&[&str]; 10] = [
        &[],
        &["side-challenges=0"],
        &["side-challenges=1", "eased-threshold=3"],
        &[
            "side-challenges=1",
            "eased-threshold=3",
            "side-successes-to-ease=1",
        ],
        &["tough-challenges=4", "first-aid-after-tough=no"],
        &["run-challenges=0"],
        &["specialist-dice=5", "base-dice=4", "finale-penalty=2"],
        &[
            "threshold=6",
            "eased-threshold=5",
            "wound-faces=3",
            "stealth-faces=2",
        ],
        &["team-size=2", "recruit-checks=2", "first-aid-after-run=no"],
        &["team-size=2", "threshold=4", "finale-substitute=yes"],
    ];
    // Side by side, each design with a memo of its own.
    variations.into_par_iter().for_each(|extra| {
        let mut settings: Vec<&str> = small
            .iter()
            .copied()
            .filter(|s| {
                let key = s.split('=').next().unwrap();
                !extra.iter().any(|e| e.starts_with(key))
            })
            .collect();
        settings.extend_from_slice(extra);
        let rules = design(&settings);
        // Stealth 5: layered (the classes 0, 1, 2 compiled, the top one replayed).
        let solved = solve(&Solver::new(rules), &[1, 5]);
        let mut memo = BruteValues::default();
        for solution in solved {
            let slow = brute(&rules, &State::new(solution.stealth), &mut memo);
            assert!(
                (solution.value - slow).abs() < 1e-12,
                "{rules} at stealth {}: solver {} vs brute force {slow}",
                solution.stealth,
                solution.value
            );
        }
    });
}

/// Complications are forgotten only where no play can read them again (R8), and that depends
/// on the team size: with room for five, a team of three can still recruit a complication's
/// specialist before the character it belongs to. The solver against brute force from such
/// a position, where every complication points at another non-member and a specialist rolls
/// far more dice.
#[test]
fn complications_a_larger_team_can_still_read_are_kept() {
    use raven::game::{Aid, Character, Health, Step};
    for size in ["4", "5"] {
        let team_size = format!("team-size={size}");
        let rules = design(&[
            team_size.as_str(),
            "recruit-checks=1",
            "run-challenges=3",
            "tough-challenges=1",
            "side-challenges=0",
            "specialist-dice=6",
            "base-dice=2",
        ]);
        let start = State::with_complications(4, [Character::Hacker; 6])
            .with_main(Character::Hacker)
            .with_member(Character::Spy, Health::Healthy)
            .with_member(Character::Sniper, Health::Healthy)
            .at(Step::ChooseTarget, Aid::None);
        // Each pointing at another non-member, or at itself (no specialist, ever): one table
        // for both, so a wrong merge of the two would show.
        let chained = start
            .with_complication(Character::Medic, Character::Demolitions)
            .with_complication(Character::Demolitions, Character::Mechanic)
            .with_complication(Character::Mechanic, Character::Medic);
        let own = start
            .with_complication(Character::Medic, Character::Medic)
            .with_complication(Character::Demolitions, Character::Demolitions)
            .with_complication(Character::Mechanic, Character::Mechanic);
        let solver = Solver::new(rules);
        for state in [chained, own] {
            let fast = solver.value(&state);
            let slow = brute(&rules, &state, &mut BruteValues::default());
            assert!(
                (fast - slow).abs() < 1e-12,
                "{rules}: solver {fast} vs brute force {slow} at {state:?}"
            );
        }
    }
}

#[test]
fn checks_that_always_succeed_at_no_cost_always_win() {
    // Closed form: every check succeeds (threshold 1) and no face costs anything, so every
    // strategy wins every game.
    let rules = design(&[
        "threshold=1",
        "eased-threshold=1",
        "wound-faces=0",
        "stealth-faces=0",
    ]);
    for strategy in [&ReferenceStrategy as &dyn Strategy, &RandomStrategy] {
        let p = exact(&rules, strategy, &[0, 10]);
        for e in p.expectations {
            // 1 up to the rounding of sums of probabilities.
            assert!(
                (e.win - 1.0).abs() < 1e-12,
                "{}: {}",
                strategy.name(),
                e.win
            );
        }
        assert_eq!(wins(&rules, strategy, 10, 10_000), 10_000);
    }
    let optimal = solve(&Solver::new(rules), &[10])[0].value;
    assert!((optimal - 1.0).abs() < 1e-12, "optimal {optimal}");
}

#[test]
fn a_lone_tough_challenge_discovered_matches_its_closed_form() {
    // Closed form: a team of one (team-size 1), no run, no side challenges, one Tough
    // Challenge, discovered from the start. The main character rolls their speciality, 3
    // dice, less the penalty 1: 2 dice, P(5+) = 20/36 = 5/9. Every failure wounds (faces 1–2
    // directly, 3–4 as lost stealth while discovered, R2); a second wound incapacitates (R4).
    // So P(win) = 5/9 + 4/9 · 5/9 = 65/81, whatever the strategy.
    let rules = design(&[
        "team-size=1",
        "run-challenges=0",
        "side-challenges=0",
        "tough-challenges=1",
    ]);
    let closed = 65.0 / 81.0;
    for strategy in [&ReferenceStrategy as &dyn Strategy, &RandomStrategy] {
        let p = exact(&rules, strategy, &[0]).expectations[0].win;
        assert!((p - closed).abs() < 1e-12, "{}: {p}", strategy.name());
        let w = wins(&rules, strategy, 0, 400_000);
        assert!(
            z(w, 400_000, closed).abs() < 4.0,
            "{}: {w}",
            strategy.name()
        );
    }
    let optimal = solve(&Solver::new(rules), &[0])[0].value;
    assert!((optimal - closed).abs() < 1e-12, "optimal {optimal}");
}
