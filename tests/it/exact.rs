//! The exact and optimal engines against hand-derived closed forms, against Monte Carlo,
//! against the test oracle ([`crate::common::oracle`]) and against each other. Run in release (`cargo test --release --test it exact::`): about a minute
//! on two cores.

use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use crate::common::oracle::{Oracle, assert_agrees};
use crate::common::strategies::StealthAnywhere;
use raven::engine::OptimalStrategy;
use raven::engine::montecarlo::{Job, simulate};
use raven::engine::seed::streams;
use raven::engine::solve::{Solution, solve};
use raven::engine::{Solver, exact, play_game};
use raven::game::{Aid, Character, Health, LossCause, Outcome, State, Step};
use raven::rules::{CLARIFIED, MAIN_TEXT, Rules};
use raven::strategy::{BUNDLED, RandomStrategy, ReferenceStrategy, Strategy};

use Character::{Hacker, Medic, Sniper, Spy};

/// z of a Monte Carlo win count against an exact probability.
fn z(wins: u64, games: u64, p: f64) -> f64 {
    let mc = wins as f64 / games as f64;
    (mc - p) / (p * (1.0 - p) / games as f64).sqrt()
}

/// Monte Carlo wins from an arbitrary starting state (game `i` uses the streams of game `i`).
fn mc_from<S: Strategy + ?Sized>(rules: &Rules, strategy: &S, start: State, games: u64) -> u64 {
    (0..games)
        .into_par_iter()
        .map(|i| {
            let mut rng = streams(7, start.stealth(), i);
            let end = play_game(rules, strategy, start, &mut rng, &mut ());
            u64::from(end.outcome() == Some(Outcome::Win))
        })
        .sum()
}

// ----- closed forms -----

/// P(highest of k d6 = m).
fn highest(k: i32, m: i32) -> f64 {
    ((m as f64 / 6.0).powi(k)) - (((m - 1) as f64) / 6.0).powi(k)
}

/// P(win) of a lone finale character (the main, Hacker) at the last Tough Challenge with no
/// side successes, by hand: 2 dice (3 for the speciality − penalty 1); success on 5+; 3–4 cost
/// a stealth, 1–2 a wound. Once discovered, main-text keeps 2 dice and every failure wounds;
/// clarified drops to 1 die. `spare` = wounds the character can still take and stay able.
fn last_tough(stealth: u8, spare: i32, clarified: bool) -> f64 {
    if spare < 0 {
        return 0.0;
    }
    let two = |lo: i32, hi: i32| (lo..=hi).map(|m| highest(2, m)).sum::<f64>();
    if stealth == 0 {
        // Every failure wounds: a geometric series over the spare wounds.
        let (win, fail) = if clarified {
            (2.0 / 6.0, 4.0 / 6.0)
        } else {
            (two(5, 6), two(1, 4))
        };
        return (0..=spare).map(|j| win * fail.powi(j)).sum();
    }
    two(5, 6)
        + two(3, 4) * last_tough(stealth - 1, spare, clarified)
        + two(1, 2) * last_tough(stealth, spare - 1, clarified)
}

fn one_tough_from_victory(stealth: u8, health: Health) -> State {
    State::new(stealth)
        .with_member(Hacker, health)
        .with_main(Hacker)
        .with_finale(Hacker)
        .at(
            Step::Tough {
                tough: 2,
                successes: 0,
            },
            Aid::None,
        )
}

#[test]
fn last_tough_challenge_matches_closed_form() {
    for (rules, clarified) in [(MAIN_TEXT, false), (CLARIFIED, true)] {
        for stealth in [0, 1, 2, 5, 10] {
            for (health, spare) in [(Health::Healthy, 1), (Health::Wounded, 0)] {
                let state = one_tough_from_victory(stealth, health);
                let e = Oracle::new(&rules, &ReferenceStrategy).expectation(&state);
                let hand = last_tough(stealth, spare, clarified);
                assert!(
                    (e.win - hand).abs() < 1e-14,
                    "stealth {stealth} {health:?} clarified {clarified}: {} vs {hand}",
                    e.win
                );
                // Alone, the finale character's fall is R4 (no able member), not R14.
                let finale = e.losses[LossCause::Finale as usize];
                assert!((e.win + finale - 1.0).abs() < 1e-14);
                // Optimal play has no choice here.
                let v = Solver::new(rules).value(&state);
                assert!((v - hand).abs() < 1e-14);
            }
        }
    }
}

/// Wounded Hacker (main, finale) and a healthy Medic, a first-aid opportunity before the last
/// Tough Challenge. A 1–2 on the aid wounds the patient to incapacitated: the Medic is still
/// able, so R14 loses the game (finale character down).
fn aid_before_last_tough(stealth: u8) -> State {
    State::new(stealth)
        .with_member(Hacker, Health::Wounded)
        .with_member(Medic, Health::Healthy)
        .with_main(Hacker)
        .with_finale(Hacker)
        .at(
            Step::Tough {
                tough: 2,
                successes: 0,
            },
            Aid::Open,
        )
}

/// P(win) after first aid by a giver rolling `dice` on the wounded Hacker, by hand (R15).
fn after_aid(stealth: u8, dice: i32) -> f64 {
    let p = |m: i32| highest(dice, m);
    p(6) * last_tough(stealth, 1, false)
        + p(5) * last_tough(stealth - 1, 1, false)
        + (p(3) + p(4)) * last_tough(stealth - 1, 0, false)
}

#[test]
fn first_aid_matches_closed_form() {
    for stealth in [1u8, 3, 8] {
        let state = aid_before_last_tough(stealth);
        // Reference: the Medic (3 dice) treats the Hacker.
        let e = Oracle::new(&MAIN_TEXT, &ReferenceStrategy).expectation(&state);
        let medic = after_aid(stealth, 3);
        assert!((e.win - medic).abs() < 1e-14, "{} vs {medic}", e.win);
        let down = 1.0 - medic - e.losses[LossCause::Finale as usize];
        assert!((e.losses[LossCause::FinaleCharacterDown as usize] - down).abs() < 1e-14);
        // Random: skip, Medic treats, or the Hacker treats himself (2 dice − penalty 1 = 1),
        // each with probability 1/3.
        let e = Oracle::new(&MAIN_TEXT, &RandomStrategy).expectation(&state);
        let skip = last_tough(stealth, 0, false);
        let hand = (skip + medic + after_aid(stealth, 1)) / 3.0;
        assert!((e.win - hand).abs() < 1e-14, "{} vs {hand}", e.win);
        // Optimal: the best of the three.
        let v = Solver::new(MAIN_TEXT).value(&state);
        let best = skip.max(medic).max(after_aid(stealth, 1));
        assert!((v - best).abs() < 1e-14);
    }
}

// ----- Monte Carlo against exact -----

#[test]
fn reference_monte_carlo_agrees_with_exact() {
    const GAMES: u64 = 1_000_000;
    let stealths = [8, 10, 12];
    for rules in [MAIN_TEXT, CLARIFIED] {
        let run = exact(&rules, &ReferenceStrategy, &stealths);
        for (&stealth, e) in stealths.iter().zip(&run.expectations) {
            let job = Job {
                rules: &rules,
                strategy: &ReferenceStrategy,
                stealth,
                games: GAMES,
                seed: 20_261_122,
            };
            let tally = simulate(&job, &|_| {}, &AtomicBool::new(false)).expect("not cancelled");
            let zw = z(tally.wins, GAMES, e.win);
            assert!(zw.abs() < 4.0, "{rules} stealth {stealth}: z = {zw}");
            for (i, cause) in LossCause::ALL.into_iter().enumerate() {
                let p = e.losses[i];
                if p > 0.0 {
                    let zl = z(tally.lost(cause), GAMES, p);
                    assert!(
                        zl.abs() < 4.0,
                        "{rules} stealth {stealth} {cause}: z = {zl}"
                    );
                }
            }
            let zd = z(tally.discovered, GAMES, e.discovered);
            assert!(
                zd.abs() < 4.0,
                "{rules} stealth {stealth} discovered: z = {zd}"
            );
            let total: f64 = e.win + e.losses.iter().sum::<f64>();
            assert!((total - 1.0).abs() < 1e-12);
        }
    }
}

/// The start of the run with a full, healthy team.
fn run_start(stealth: u8) -> State {
    run_start_with(stealth, &[Medic, Spy, Sniper])
}

/// The start of the run with a team of the design's size (the Hacker main, then the Medic, the
/// Spy and the Sniper as many as fit), all healthy.
fn run_start_of_design(rules: &Rules, stealth: u8) -> State {
    let recruits = [Medic, Spy, Sniper];
    run_start_with(
        stealth,
        &recruits[..usize::from(rules.design.team_size) - 1],
    )
}

/// The start of the run with the Hacker as main character and `recruits`, all healthy.
fn run_start_with(stealth: u8, recruits: &[Character]) -> State {
    let team = (recruits.iter()).fold(State::new(stealth), |state, &recruit| {
        state.with_member(recruit, Health::Healthy)
    });
    (team.with_main(Hacker)).at(Step::RunType { challenge: 0 }, Aid::None)
}

#[test]
fn random_monte_carlo_agrees_with_exact() {
    const GAMES: u64 = 250_000;
    for rules in [MAIN_TEXT, CLARIFIED] {
        let start = run_start(6);
        let e = Oracle::new(&rules, &RandomStrategy).expectation(&start);
        let wins = mc_from(&rules, &RandomStrategy, start, GAMES);
        let zw = z(wins, GAMES, e.win);
        assert!(zw.abs() < 4.0, "{rules}: exact {} z = {zw}", e.win);
    }
}

// ----- R13: the side successes that ease the Tough check -----

/// `main-text` with the settings `extra` (as `--rule` takes them).
fn design(extra: &[&str]) -> Rules {
    let settings: Vec<String> = extra.iter().map(|s| s.to_string()).collect();
    raven::rules::parse_rules("main-text", &settings).expect("a valid design")
}

/// With one side challenge the Tough check is eased only when one success is asked for
/// (`side-successes-to-ease = 1`); the printed "second success" never comes. Monte Carlo
/// (fixed streams) agrees with the exact engine under both settings, and the two settings
/// give different values, so the parameter reaches every engine.
#[test]
fn one_side_challenge_monte_carlo_agrees_with_exact_under_both_ease_settings() {
    const GAMES: u64 = 250_000;
    let mut wins = Vec::new();
    for ease in ["2", "1"] {
        let rules = design(&[
            "side-challenges=1",
            &format!("side-successes-to-ease={ease}"),
        ]);
        let start = run_start(6);
        let e = Oracle::new(&rules, &ReferenceStrategy).expectation(&start);
        let mc = mc_from(&rules, &ReferenceStrategy, start, GAMES);
        let zw = z(mc, GAMES, e.win);
        assert!(zw.abs() < 4.0, "{rules}: exact {} z = {zw}", e.win);
        // Optimal play from the run's start, checked the same way.
        let solver = Solver::new(rules);
        let value = solver.value(&start);
        let optimal = OptimalStrategy::from_solver(solver);
        let mc = mc_from(&rules, &optimal, start, GAMES / 5);
        let zo = z(mc, GAMES / 5, value);
        assert!(zo.abs() < 4.0, "{rules}: optimal {value} z = {zo}");
        wins.push((e.win, value));
    }
    assert!(
        wins[1].0 > wins[0].0 + 1e-3 && wins[1].1 > wins[0].1 + 1e-3,
        "easing after one success must help: {wins:?}"
    );
}

/// P(win) of a lone finale character at the last Tough Challenge, by hand: `dice` d6, success
/// iff the highest die is at least `threshold`; below it, 3 up to 5 cost a stealth (a wound
/// once discovered) and 1–2 a wound. `spare` = wounds the character can still take and stay
/// able.
fn lone_tough(dice: i32, threshold: i32, stealth: u8, spare: i32) -> f64 {
    if spare < 0 {
        return 0.0;
    }
    let p = |lo: i32, hi: i32| (lo..=hi).map(|m| highest(dice, m)).sum::<f64>();
    let win = p(threshold, 6);
    if stealth == 0 {
        // Every failure wounds: a geometric series over the spare wounds.
        let fail = p(1, threshold - 1);
        return (0..=spare).map(|j| win * fail.powi(j)).sum();
    }
    win + p(3, threshold - 1) * lone_tough(dice, threshold, stealth - 1, spare)
        + p(1, 2) * lone_tough(dice, threshold, stealth, spare - 1)
}

/// The tiny design of no run, one Tough Challenge and one side challenge, a lone Hacker at its
/// Tough check: with the side success (`s = 1`) the penalty is lifted (3 dice) and the
/// threshold is 5, or 4 under `side-successes-to-ease = 1`; without it 2 dice and 5 either way.
/// The exact engine and the solver both give the closed form.
#[test]
fn tiny_design_tough_check_matches_closed_form_under_both_ease_settings() {
    for ease in [2, 1] {
        let rules = design(&[
            "team-size=1",
            "run-challenges=0",
            "tough-challenges=1",
            "side-challenges=1",
            &format!("side-successes-to-ease={ease}"),
        ]);
        for successes in [0, 1] {
            for stealth in [0, 1, 3, 10] {
                for (health, spare) in [(Health::Healthy, 1), (Health::Wounded, 0)] {
                    let state = State::new(stealth)
                        .with_member(Hacker, health)
                        .with_main(Hacker)
                        .with_finale(Hacker)
                        .at(
                            Step::Tough {
                                tough: 0,
                                successes,
                            },
                            Aid::None,
                        );
                    let (dice, threshold) = match (successes, ease) {
                        (0, _) => (2, 5),
                        (_, 2) => (3, 5),
                        _ => (3, 4),
                    };
                    let hand = lone_tough(dice, threshold, stealth, spare);
                    let e = Oracle::new(&rules, &ReferenceStrategy).expectation(&state);
                    let what =
                        format!("ease {ease}, s = {successes}, stealth {stealth}, {health:?}");
                    assert!((e.win - hand).abs() < 1e-14, "{what}: {} vs {hand}", e.win);
                    let v = Solver::new(rules).value(&state);
                    assert!((v - hand).abs() < 1e-14, "{what}: solver {v} vs {hand}");
                }
            }
        }
    }
    // The eased threshold is worth something: discovered and one wound from the end, 3 dice
    // on 4+ win 7/8 of the time, on 5+ 19/27.
    assert!((lone_tough(3, 4, 0, 0) - 7.0 / 8.0).abs() < 1e-15);
    assert!((lone_tough(3, 5, 0, 0) - 19.0 / 27.0).abs() < 1e-15);
}

// ----- optimal -----

/// Stealth of the shared full-game solve (small enough for the test's time budget).
const SOLVED_STEALTH: u8 = 3;

/// One full-game solve under main-text, shared by the tests below: the solution, its table,
/// and the optimal strategy playing from a copy of the table.
fn solved() -> &'static (Solution, Solver, OptimalStrategy) {
    static SOLVED: OnceLock<(Solution, Solver, OptimalStrategy)> = OnceLock::new();
    SOLVED.get_or_init(|| {
        let solver = Solver::new(MAIN_TEXT);
        let solution = solve(&solver, &[SOLVED_STEALTH]).remove(0);
        let optimal = OptimalStrategy::from_solver(solver.clone());
        (solution, solver, optimal)
    })
}

#[test]
fn optimal_is_at_least_every_strategy() {
    let (solution, table, optimal) = solved();
    let reference = exact(&MAIN_TEXT, &ReferenceStrategy, &[SOLVED_STEALTH]).expectations[0];
    assert!(solution.value >= reference.win - 1e-12);
    // Choosing the main character after seeing the complications beats any fixed choice.
    for v in solution.by_main {
        assert!(solution.value >= v - 1e-12);
    }
    assert!((solution.by_main[Hacker as usize] - reference.win) >= -1e-12);
    // From the run start, against the random strategy as well.
    let solver = Solver::new(MAIN_TEXT);
    for stealth in [0, 4] {
        let start = run_start(stealth);
        let v = solver.value(&start);
        for e in [
            Oracle::new(&MAIN_TEXT, &RandomStrategy).expectation(&start),
            Oracle::new(&MAIN_TEXT, &ReferenceStrategy).expectation(&start),
        ] {
            assert!(v >= e.win - 1e-12, "stealth {stealth}: {v} < {}", e.win);
        }
    }
    // The policy read from the table reproduces the value when evaluated exactly on the full
    // state (no canonical keys): a wrong merge of states would show here. Checked under a few
    // complication rolls (the whole game's evaluation is long), and whole over canonical
    // classes.
    let rules = MAIN_TEXT;
    let solver = table.clone();
    for outcome in [1234, 46_655] {
        let mut state = State::new(SOLVED_STEALTH);
        state.apply_outcome(&rules, outcome);
        let v = solver.value(&state);
        let played = Oracle::new(&rules, &FullSight(optimal)).expectation(&state);
        assert!(
            (played.win - v).abs() < 1e-12,
            "roll {outcome}: {} vs {v}",
            played.win
        );
    }
    let e = Oracle::new(&rules, optimal).expectation(&State::new(SOLVED_STEALTH));
    assert!((e.win - solution.value).abs() < 1e-12);
    let total: f64 = e.win + e.losses.iter().sum::<f64>();
    assert!((total - 1.0).abs() < 1e-12);
}

#[test]
fn optimal_strategy_monte_carlo_agrees_with_solve() {
    const GAMES: u64 = 200_000;
    let (solution, _, optimal) = solved();
    let job = Job {
        rules: &MAIN_TEXT,
        strategy: optimal,
        stealth: SOLVED_STEALTH,
        games: GAMES,
        seed: 99,
    };
    let tally = simulate(&job, &|_| {}, &AtomicBool::new(false)).expect("not cancelled");
    let zw = z(tally.wins, GAMES, solution.value);
    assert!(zw.abs() < 4.0, "optimal {} z = {zw}", solution.value);
}

/// The optimal strategy keeps its answers by position, and the solver its options' values by
/// canonical class; a kept answer, and the kept values, are those worked out afresh from the
/// table — the option of highest value, ties broken by the class's own order
/// ([`raven::strategy::optimal::best_alike`]) — at every
/// decision of many games, including positions first met as a relabelling of one met before.
#[test]
fn kept_optimal_answers_are_the_answers_worked_out_afresh() {
    use raven::game::{Action, Decision, Node};
    use raven::strategy::Choice;
    use raven::strategy::optimal::best_alike;
    let (_, table, _) = solved();
    let rules = MAIN_TEXT;
    let optimal = OptimalStrategy::from_solver(table.clone());
    let mut decisions = 0;
    let mut exact_ties = 0;
    for game in 0..1_000 {
        let mut rng = streams(17, SOLVED_STEALTH, game);
        let mut state = State::new(SOLVED_STEALTH);
        loop {
            match state.node(&rules) {
                Node::Over(_) => break,
                Node::Chance(chance) => {
                    let outcome = chance.sample(&mut rng);
                    state.apply_outcome(&rules, outcome);
                }
                Node::Decision(decision) => {
                    let Choice::Act(kept) = optimal.decide(&state, &rules, decision) else {
                        panic!("optimal play is deterministic")
                    };
                    // Worked out afresh from the table: each option's value, in order (the
                    // solver keeps options by class, so `options` may read them kept).
                    let worked_out: Vec<_> = state
                        .actions(&rules)
                        .iter()
                        .map(|&a| {
                            let mut next = state;
                            next.apply_action(&rules, a);
                            (a, table.value(&next))
                        })
                        .collect();
                    // Phase-1 values may differ in the last bit between representatives of
                    // a class (the one that fills a table entry first decides its rounding):
                    // the kept values agree to that, and the kept answer is a best option.
                    let kept_values = optimal.options(&state, &rules);
                    for ((a, v), (b, w)) in kept_values.iter().zip(&worked_out) {
                        assert_eq!(a, b);
                        assert!((v - w).abs() <= 4.0 * f64::EPSILON, "{state:?}: {v} vs {w}");
                    }
                    let afresh = best_alike(&state, &rules, &worked_out).expect("an option");
                    let value_of = |x: Action| worked_out.iter().find(|(a, _)| *a == x).unwrap().1;
                    assert!(value_of(kept) >= value_of(afresh) - 4.0 * f64::EPSILON);
                    exact_ties += usize::from(kept != afresh);
                    // Asked again, from the kept answer.
                    let again = optimal.decide(&state, &rules, decision);
                    assert_eq!(again, Choice::Act(kept));
                    decisions += usize::from(!matches!(decision, Decision::MainCharacter));
                    state.apply_action(&rules, kept);
                }
            }
        }
    }
    assert!(decisions > 5_000, "only {decisions} decisions");
    // A different answer only where two options tie to the last bits.
    assert!(
        exact_ties * 1000 < decisions,
        "{exact_ties} ties in {decisions}"
    );
}

#[test]
fn lazy_optimal_strategy_solves_on_demand() {
    // Built by name, with an empty table: solves the positions it meets.
    let optimal = raven::engine::resolve("optimal").expect("built in");
    // The strategy module alone does not build it: optimal play is the solver's product.
    assert!(raven::strategy::built_in("optimal").is_none());
    assert!(raven::strategy::resolve("optimal").is_err());
    let start = run_start(3);
    let v = Solver::new(CLARIFIED).value(&start);
    let e = Oracle::new(&CLARIFIED, &optimal).expectation(&start);
    assert!((e.win - v).abs() < 1e-12, "{} vs {v}", e.win);
    let wins = mc_from(&CLARIFIED, &optimal, start, 200_000);
    let zw = z(wins, 200_000, v);
    assert!(zw.abs() < 4.0, "z = {zw}");
}

// ----- command line -----

fn raven() -> assert_cmd::Command {
    assert_cmd::Command::cargo_bin("raven").expect("the raven binary")
}

#[test]
fn cli_exact_writes_exact_rows_with_full_precision() {
    let out = raven()
        .args(["exact", "--stealth", "3,5", "--rules", "clarified"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).expect("utf-8");
    let run = exact(&CLARIFIED, &ReferenceStrategy, &[3, 5]);
    for (stealth, e) in [3, 5].iter().zip(&run.expectations) {
        let line = format!("stealth {stealth:>2}: P(win) = {:.15}", e.win);
        assert!(text.contains(&line), "missing {line:?} in\n{text}");
    }
    let csv = raven()
        .args(["exact", "--stealth", "3", "--out", "-"])
        .assert()
        .success();
    let csv = String::from_utf8(csv.get_output().stdout.clone()).expect("utf-8");
    let mut lines = csv.lines();
    assert!(
        lines
            .next()
            .expect("header")
            .starts_with("strategy,rules,stealth,")
    );
    let row = lines.next().expect("one row");
    assert!(row.starts_with("reference,main-text,3,,,"), "{row}");
    assert!(row.contains(",exact,"), "{row}");
}

#[test]
fn cli_solve_reports_optimal_and_regret() {
    let out = raven()
        .args(["solve", "--stealth", "0", "--explain"])
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).expect("utf-8");
    let solver = Solver::new(MAIN_TEXT);
    let solution = solve(&solver, &[0]).remove(0);
    assert!(text.contains(&format!("optimal P(win) = {:.12}", solution.value)));
    assert!(text.contains("regret"));
    // --explain's cells: the opening's optimal values as percentages, a row per main character.
    let opening = raven::opening::opening(&solver, 0);
    let hacker_row = format!(
        "    {:<12} {:>10.2}%",
        "hacker",
        100.0 * opening.first_target[0][0]
    );
    assert!(text.contains(&hacker_row), "{hacker_row:?} in {text}");
    assert!(text.contains("first recruitment (columns)"));
    let csv = raven()
        .args(["solve", "--stealth", "0", "--out", "-"])
        .assert()
        .success();
    let csv = String::from_utf8(csv.get_output().stdout.clone()).expect("utf-8");
    assert!(
        csv.lines()
            .any(|l| l.starts_with("optimal,main-text,0,") && l.contains(",optimal,"))
    );
    assert!(
        csv.lines()
            .any(|l| l.starts_with("reference,main-text,0,") && l.contains(",exact,"))
    );
}

#[test]
fn cli_bad_input_exits_2_and_too_large_exits_1() {
    for args in [
        &["exact", "--strategy", "nope"][..],
        &["exact", "--stealth", "100"],
        &["solve", "--rules", "nope"],
        &["solve", "--strategy", "nope", "--stealth", "0"],
    ] {
        raven().args(args).assert().code(2);
    }
    // Both engines honour --max-states (the solver too, and the exact evaluations beside it).
    for command in ["exact", "solve"] {
        raven()
            .args([
                command,
                "--strategy",
                "random",
                "--stealth",
                "2",
                "--max-states",
                "1000",
            ])
            .assert()
            .code(1)
            .stderr(predicates::str::contains(
                "more than 1000 memoised positions",
            ));
    }
    // The same limit in bytes: 1 MiB holds about 5,500 positions.
    raven()
        .args(["exact", "--strategy", "random", "--stealth", "2"])
        .args(["--max-memory", "1M"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "more than 5518 memoised positions",
        ))
        .stderr(predicates::str::contains("raise --max-memory"));
    for bad in [
        &["--max-memory", "6Q"][..],
        &["--max-memory", "1K"],
        &["--max-memory", "1G", "--max-states", "5"],
    ] {
        raven()
            .args(["exact", "--stealth", "2"])
            .args(bad)
            .assert()
            .code(2);
    }
}

/// Every bundled strategy at stealth 10 (main-text): Monte Carlo (1,000,000 games) agrees with
/// the exact value (|z| < 4), and optimal play is at least as good (to 1e-12).
#[test]
fn bundled_strategies_monte_carlo_agree_with_exact_and_stay_below_optimal() {
    const GAMES: u64 = 1_000_000;
    const STEALTH: u8 = 10;
    let rules = MAIN_TEXT;
    let solver = Solver::new(rules);
    let optimal = solve(&solver, &[STEALTH])[0].value;
    let names: Vec<&str> = BUNDLED.iter().map(|(n, _)| *n).collect();
    names.par_iter().for_each(|&name| {
        // `reference` resolves to the built-in; the bundled file is `reference.toml`.
        let spec = if name == "reference" {
            "reference.toml"
        } else {
            name
        };
        let strategy = raven::strategy::resolve(spec).expect("bundled strategy");
        let e = exact(&rules, strategy.as_ref(), &[STEALTH]).expectations[0];
        let job = Job {
            rules: &rules,
            strategy: strategy.as_ref(),
            stealth: STEALTH,
            games: GAMES,
            seed: 20_261_122,
        };
        let tally = simulate(&job, &|_| {}, &AtomicBool::new(false)).expect("not cancelled");
        let zw = z(tally.wins, GAMES, e.win);
        assert!(zw.abs() < 4.0, "{name}: z = {zw}");
        assert!(
            optimal >= e.win - 1e-12,
            "{name}: exact {} above optimal {optimal}",
            e.win
        );
    });
}

/// The random strategy from the very start (every main character and recruitment order under
/// every complication roll), summed exactly over its symmetric key, against Monte Carlo.
#[test]
fn random_strategy_from_the_start_agrees_with_monte_carlo() {
    const GAMES: u64 = 400_000;
    const STEALTH: u8 = 4;
    let rules = CLARIFIED;
    let e = exact(&rules, &RandomStrategy, &[STEALTH]).expectations[0];
    let job = Job {
        rules: &rules,
        strategy: &RandomStrategy,
        stealth: STEALTH,
        games: GAMES,
        seed: 5,
    };
    let tally = simulate(&job, &|_| {}, &AtomicBool::new(false)).expect("not cancelled");
    for (what, count, p) in [
        ("win", tally.wins, e.win),
        ("discovered", tally.discovered, e.discovered),
    ] {
        let zw = z(count, GAMES, p);
        assert!(zw.abs() < 4.0, "{what}: exact {p} z = {zw}");
    }
    for cause in LossCause::ALL {
        let zl = z(
            tally.losses[cause as usize],
            GAMES,
            e.losses[cause as usize],
        );
        assert!(zl.abs() < 4.0, "{cause}: z = {zl}");
    }
}

/// A strategy that plays like `S` but claims to read everything (the default
/// [`Strategy::sight`]), so the exact engine keeps every detail of every state.
struct FullSight<S>(S);

impl<S: Strategy> Strategy for FullSight<S> {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn decide(
        &self,
        state: &State,
        rules: &Rules,
        decision: raven::game::Decision,
    ) -> raven::strategy::Choice {
        self.0.decide(state, rules, decision)
    }
}

/// The clarified rules with every variant at once, played with a team of three: the identity
/// checks that evaluate labelled positions, whose cost is the game's size, not what they check.
fn every_variant_with_a_team_of_three() -> Rules {
    let mut every_variant = Rules {
        recruit_count: raven::rules::RecruitCount::Living,
        first_aid_recruit: raven::rules::FirstAidRecruit::PerRecruit,
        finale_substitute: true,
        first_aid_after_side: true,
        ..CLARIFIED
    };
    every_variant.design.team_size = 3;
    every_variant
}

/// What a strategy says it does not read ([`Strategy::sight`]) really does not matter: the
/// exact values with and without forgetting it agree, for every bundled strategy (the
/// layered engine) and the random one (the oracle, from a run's start), under the presets and
/// under every variant at once. Every variant is played with a team of three (the variants
/// change what a team meets, not what a strategy may forget): the evaluations that forget
/// nothing, every label and every counter, are most of the test's cost.
#[test]
fn forgetting_what_a_strategy_does_not_read_keeps_exact_values() {
    let every_variant = every_variant_with_a_team_of_three();
    // The random strategy's evaluations from a run's start (a team of the design's size) are
    // the longest: first, and side by side with the rest.
    let random = [MAIN_TEXT, every_variant].map(|rules| (rules, None));
    let bundled = [MAIN_TEXT, CLARIFIED, every_variant]
        .into_iter()
        .flat_map(|rules| BUNDLED.iter().map(move |(name, _)| (rules, Some(*name))));
    let cases: Vec<(Rules, Option<&str>)> = random.into_iter().chain(bundled).collect();
    cases.par_iter().for_each(|&(rules, name)| {
        let Some(name) = name else {
            let start = run_start_of_design(&rules, 1);
            let symmetric = Oracle::new(&rules, &RandomStrategy).expectation(&start);
            let full = Oracle::new(&rules, &FullSight(RandomStrategy)).expectation(&start);
            assert!((symmetric.win - full.win).abs() < 1e-12, "{rules}");
            assert!((symmetric.deaths - full.deaths).abs() < 1e-12, "{rules}");
            return;
        };
        let strategy = raven::strategy::resolve(name).expect("bundled strategy");
        let stealths = [1];
        let forgetting = exact(&rules, strategy.as_ref(), &stealths);
        let full = exact(&rules, &FullSight(strategy.as_ref()), &stealths);
        assert!(forgetting.states <= full.states);
        for (a, b) in forgetting.expectations.iter().zip(&full.expectations) {
            assert!((a.win - b.win).abs() < 1e-12, "{rules} {name}");
            for (x, y) in a.losses.iter().zip(&b.losses) {
                assert!((x - y).abs() < 1e-12, "{rules} {name}");
            }
            assert!((a.deaths - b.deaths).abs() < 1e-12, "{rules} {name}");
        }
    });
}

/// Optimal play breaks ties alike in every position of a canonical class
/// ([`raven::strategy::optimal::best_alike`]), so it may be followed by class, as the solver
/// does ([`raven::strategy::Sight::RulesOnly`]): every figure the oracle gives by class is the
/// one it gives over labelled positions that forget nothing, and the win probability the
/// solver's, under the presets and every variant at once (a team of three), from the start of
/// a run and from the start of a game after several complication rolls (where the
/// recruitment's relabellings and forgotten complications are) — in under half the positions.
#[test]
fn optimal_play_followed_by_class_keeps_every_figure() {
    let every_variant = every_variant_with_a_team_of_three();
    let starts = |rules: &Rules| {
        let run = run_start_of_design(rules, 2);
        let game = |outcome| {
            let mut game = State::new(1);
            game.apply_outcome(rules, outcome);
            game
        };
        [run, game(0), game(9_331), game(27_005)]
    };
    let cases: Vec<(Rules, State)> = [MAIN_TEXT, CLARIFIED, every_variant]
        .into_iter()
        .flat_map(|rules| starts(&rules).map(|start| (rules, start)))
        .collect();
    cases.par_iter().for_each(|(rules, start)| {
        let optimal = OptimalStrategy::new();
        let full_sight = FullSight(&optimal);
        let mut by_class = Oracle::new(rules, &optimal);
        let mut labelled = Oracle::new(rules, &full_sight);
        let (a, b) = (by_class.expectation(start), labelled.expectation(start));
        let value = Solver::new(*rules).value(start);
        assert!(
            (a.win - value).abs() < 1e-12,
            "{rules}: {} vs {value}",
            a.win
        );
        assert!((a.win - b.win).abs() < 1e-12, "{rules}");
        for (x, y) in a.losses.iter().zip(&b.losses) {
            assert!(
                (x - y).abs() < 1e-12,
                "{rules}: {:?} vs {:?}",
                a.losses,
                b.losses
            );
        }
        let others = |e: &raven::engine::Expectation| {
            [
                e.discovered,
                e.stealth_left,
                e.reached_run,
                e.team_at_run,
                e.deaths,
            ]
        };
        for (x, y) in others(&a).iter().zip(others(&b)) {
            assert!((x - y).abs() < 1e-12, "{rules}: {a:?} vs {b:?}");
        }
        assert!(
            by_class.states() * 2 < labelled.states(),
            "{rules}: {} by class, {} labelled",
            by_class.states(),
            labelled.states()
        );
    });
}

/// `exact` evaluates a strategy that declares where its answers stop depending on stealth in
/// stealth layers (each position compiled once per class of stealths, replayed above); every
/// figure must be the oracle's (1e-12: the same terms summed in another order), under the
/// presets and every variant at once.
#[test]
fn layered_exact_agrees_with_the_oracle() {
    use raven::rules::{FirstAidRecruit, RecruitCount};
    let every_variant = Rules {
        recruit_count: RecruitCount::Living,
        first_aid_recruit: FirstAidRecruit::PerRecruit,
        finale_substitute: true,
        first_aid_after_side: true,
        ..CLARIFIED
    };
    let light = ["duo", "lone-wolf", "side-maximiser", "no-first-aid"];
    /// A strategy, the rule sets and the stealths to compare it under.
    type Case = (Box<dyn Strategy>, Vec<Rules>, Vec<u8>);
    let mut cases: Vec<Case> = vec![
        (
            Box::new(ReferenceStrategy),
            vec![MAIN_TEXT, CLARIFIED, every_variant],
            vec![0, 1, 2, 5],
        ),
        (
            Box::new(RandomStrategy),
            vec![MAIN_TEXT, CLARIFIED, every_variant],
            vec![0, 1, 2, 5],
        ),
    ];
    for name in light {
        cases.push((
            raven::strategy::resolve(name).expect("bundled"),
            vec![MAIN_TEXT, CLARIFIED, every_variant],
            vec![0, 3, 5],
        ));
    }
    for name in ["reckless", "medic-main"] {
        cases.push((
            raven::strategy::resolve(name).expect("bundled"),
            vec![MAIN_TEXT],
            vec![0, 4],
        ));
    }
    // A strategy that reads stealth above the rules' own classes (as `cautious` does, up to
    // 6): a class per stealth up to its floor, the top one replayed (at least two stealths
    // above it).
    cases.push((
        Box::new(floors()),
        vec![MAIN_TEXT, CLARIFIED, every_variant],
        vec![0, 3, 4, 6],
    ));
    // The game's numbers one step either way, for the reference; among them
    // `finale-penalty = 2` under the main text, where stealth 1 is compiled as a class of its
    // own (being discovered lowers the finale penalty there), for random too.
    let levers = MAIN_TEXT.design.levers().into_iter();
    let levers: Vec<Rules> = levers
        .map(|(_, _, design)| Rules {
            design,
            ..MAIN_TEXT
        })
        .collect();
    let penalty_two = *levers
        .iter()
        .find(|r| r.design.finale_penalty == 2)
        .expect("a finale-penalty lever");
    cases.push((Box::new(ReferenceStrategy), levers, vec![0, 1, 5]));
    cases.push((Box::new(RandomStrategy), vec![penalty_two], vec![0, 1, 5]));
    // Side by side: one after the other, this is a minute on one core.
    cases
        .par_iter()
        .for_each(|(strategy, rule_sets, stealths)| {
            assert!(strategy.stealth_alike_from().is_some());
            for rules in rule_sets {
                layered_agrees_with_the_oracle(rules, strategy.as_ref(), stealths);
            }
        });
}

/// A strategy that reads stealth at recruitment (a floor of 3) and at side challenges (4).
fn floors() -> raven::strategy::FileStrategy {
    raven::strategy::FileStrategy::parse(
        "floors",
        "test",
        "[recruit]\nstealth_floor = 3\n[side]\nstealth_floor = 4\n",
    )
    .expect("a valid strategy")
}

/// `exact` against the oracle, every figure within 1e-12, for `strategy` under `rules` at
/// `stealths` (one run, one memo).
fn layered_agrees_with_the_oracle<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
) {
    let layered = exact(rules, strategy, stealths);
    assert_eq!(layered.expectations.len(), stealths.len());
    let mut oracle = Oracle::new(rules, strategy);
    for (&stealth, e) in stealths.iter().zip(&layered.expectations) {
        let expected = oracle.expectation(&State::new(stealth));
        let what = format!(
            "{} under {rules} at {stealth} of {stealths:?}",
            strategy.name()
        );
        assert_agrees(e, &expected, &what);
    }
}

/// Stealths at which the top class serves one stealth or none above its own: every class
/// compiled and evaluated at its own stealth, or the top one replayed once.
const LOW_STEALTHS: [&[u8]; 3] = [&[2], &[0, 1, 2, 3], &[3, 1]];

/// Low stealths in layers agree with the oracle, for strategies the rules' classes serve
/// (stealth 1 replayed from stealth 2 or not) and one with a class per stealth up to 4.
#[test]
fn layered_exact_at_low_stealths_agrees_with_the_oracle() {
    let penalty_two = Rules {
        design: raven::rules::Design {
            finale_penalty: 2,
            ..MAIN_TEXT.design
        },
        ..MAIN_TEXT
    };
    let strategies: Vec<Box<dyn Strategy>> = vec![
        Box::new(ReferenceStrategy),
        Box::new(RandomStrategy),
        Box::new(floors()),
    ];
    strategies.par_iter().for_each(|strategy| {
        for rules in [MAIN_TEXT, penalty_two] {
            for stealths in LOW_STEALTHS {
                layered_agrees_with_the_oracle(&rules, strategy.as_ref(), stealths);
            }
        }
    });
    // The top class (4) replayed once.
    layered_agrees_with_the_oracle(&CLARIFIED, &strategies[2], &[5, 4]);
}

/// A strategy that may read stealth anywhere is evaluated in layers too, a class per stealth:
/// it agrees with the oracle, low stealths and high, random play and the reference under both
/// presets.
#[test]
fn layered_exact_of_a_strategy_reading_stealth_anywhere_agrees_with_the_oracle() {
    let strategies: Vec<Box<dyn Strategy>> = vec![
        Box::new(StealthAnywhere(ReferenceStrategy)),
        Box::new(StealthAnywhere(RandomStrategy)),
        Box::new(StealthAnywhere(
            raven::strategy::resolve("cautious").expect("bundled"),
        )),
    ];
    strategies.par_iter().for_each(|strategy| {
        assert!(strategy.stealth_alike_from().is_none());
        for stealths in LOW_STEALTHS {
            layered_agrees_with_the_oracle(&MAIN_TEXT, strategy.as_ref(), stealths);
        }
        layered_agrees_with_the_oracle(&CLARIFIED, strategy.as_ref(), &[5]);
    });
}

/// Optimal play reads stealth anywhere (its values do): in layers, a class per stealth, it
/// agrees with the oracle, and its win probability is the solver's value.
#[test]
fn layered_exact_of_optimal_play_agrees_with_the_oracle_and_the_solver() {
    let (solution, _, optimal) = solved();
    assert!(optimal.stealth_alike_from().is_none());
    let stealths: Vec<u8> = (0..=SOLVED_STEALTH).collect();
    layered_agrees_with_the_oracle(&MAIN_TEXT, optimal, &stealths);
    let layered = exact(&MAIN_TEXT, optimal, &[SOLVED_STEALTH]);
    let v = solution.value;
    assert!(
        (layered.expectations[0].win - v).abs() < 1e-12,
        "{} vs {v}",
        layered.expectations[0].win
    );
}

/// The layered exact engine replays each layer's independent positions side by side; every
/// figure must be the same bits for any number of threads.
#[test]
fn layered_exact_gives_the_same_bits_for_any_thread_count() {
    let strategies: Vec<Box<dyn Strategy>> = vec![
        Box::new(ReferenceStrategy),
        Box::new(RandomStrategy),
        raven::strategy::resolve("medic-main").expect("bundled"),
    ];
    for rules in [MAIN_TEXT, CLARIFIED] {
        for strategy in &strategies {
            let run = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("a pool");
                let run = pool.install(|| exact(&rules, strategy.as_ref(), &[2, 9]));
                format!("{:?}", run.expectations)
            };
            let serial = run(1);
            for threads in [2, 7] {
                assert_eq!(
                    run(threads),
                    serial,
                    "{rules} {} {threads}",
                    strategy.name()
                );
            }
        }
    }
}

/// A strategy file with rules of thumb that read what the knobs never do — stealth up to 5,
/// the attempts up to 2, characters by name, a recruitment target beyond the knobs' count,
/// complications —
/// is keyed by the exact engine on all of it: every figure is the oracle's (which keys on
/// the whole state), and Monte Carlo agrees with the exact win probability.
#[test]
fn a_file_with_rules_is_evaluated_exactly() {
    let text = r#"
[recruit]
count = 2
[rules]
main-character = ["when medic-needs = spy -> most-needed"]
recruit-target = ["when spy = absent and stealth >= 5 -> spy"]
recruit-roller = ["when sniper-needs = hacker and attempts >= 1 -> stop"]
side-challenge = [
  "when attempts >= 2 -> pass",
  "when left = 1 and successes = 0 -> try by least-wounded",
  "when type = sniper and stealth = 2..4 -> pass",
]
first-aid = [
  "when discovered and finale-health = wounded -> skip",
  "when stealth <= 3 and tough >= 2 -> treat finale by medic",
  "when phase = run and hacker = wounded -> treat hacker by self",
]
finale-character = ["when main-health = wounded -> least-wounded"]
"#;
    let strategy = raven::strategy::FileStrategy::parse("ruled", "test", text).expect("valid");
    assert_eq!(strategy.stealth_alike_from(), Some(5));
    for rules in [MAIN_TEXT, CLARIFIED] {
        layered_agrees_with_the_oracle(&rules, &strategy, &[0, 3, 6]);
    }
    const GAMES: u64 = 400_000;
    let rules = MAIN_TEXT;
    let run = exact(&rules, &strategy, &[8]);
    let job = Job {
        rules: &rules,
        strategy: &strategy,
        stealth: 8,
        games: GAMES,
        seed: 20_261_129,
    };
    let tally = simulate(&job, &|_| {}, &AtomicBool::new(false)).expect("not cancelled");
    let zw = z(tally.wins, GAMES, run.expectations[0].win);
    assert!(zw.abs() < 4.0, "z = {zw}");
}
