//! The optimal engine's dense tables (positions of the run and the finale indexed by roles)
//! against a plain memoised expectimax that keys every position by its full labelled state:
//! no symmetry, no dense index, nothing shared with the engine but the state machine.

use crate::common;

use common::brute::{BruteValues, brute};
use common::oracle::Oracle;
use raven::engine::Solver;
use raven::game::{Aid, Character, Health, State, Step};
use raven::rules::{CLARIFIED, MAIN_TEXT, Rules};
use rayon::prelude::*;

/// Both presets and every single-flag departure from the default reading.
fn every_rule_set() -> Vec<Rules> {
    let mut all = vec![MAIN_TEXT, CLARIFIED];
    all.extend(MAIN_TEXT.variants().into_iter().map(|(_, _, rules)| rules));
    all
}

/// Teams that exercise every role: a Medic main, a Medic member, several interchangeable
/// members in different health, a lone main character.
fn teams() -> Vec<(Character, Vec<(Character, Health)>)> {
    use Character::*;
    use Health::*;
    vec![
        (
            Hacker,
            vec![
                (Hacker, Healthy),
                (Medic, Healthy),
                (Spy, Wounded),
                (Sniper, Healthy),
            ],
        ),
        (
            Medic,
            vec![
                (Medic, Wounded),
                (Mechanic, Healthy),
                (Demolitions, Incapacitated),
            ],
        ),
        (
            Sniper,
            vec![
                (Sniper, Healthy),
                (Hacker, Healthy),
                (Spy, Healthy),
                (Mechanic, Dead),
            ],
        ),
        (Spy, vec![(Spy, Wounded)]),
    ]
}

fn position(stealth: u8, main: Character, members: &[(Character, Health)], step: Step) -> State {
    let mut state = State::new(stealth);
    for &(c, h) in members {
        state = state.with_member(c, h);
    }
    state.with_main(main).at(step, Aid::None)
}

#[test]
fn run_and_finale_values_match_brute_force_under_every_rule_set() {
    // Each rule set on its own (solver and memo), side by side: a sequential loop made this
    // the suite's last test to finish, alone on one core.
    every_rule_set().into_par_iter().for_each(|rules| {
        let solver = Solver::new(rules);
        let mut memo = BruteValues::default();
        for (main, members) in teams() {
            for stealth in [0, 2] {
                for step in [Step::RunType { challenge: 4 }, Step::ChooseFinale] {
                    let start = position(stealth, main, &members, step);
                    let fast = solver.value(&start);
                    let slow = brute(&rules, &start, &mut memo);
                    assert!(
                        (fast - slow).abs() < 1e-12,
                        "{rules}: {step:?} at stealth {stealth}, main {main:?}: {fast} vs {slow}"
                    );
                }
            }
        }
    });
}

/// A parallel solve fills the one table from several threads in whatever order they reach
/// positions; the values and the optimal policy's figures must be the same bits for any
/// number of threads.
#[test]
fn parallel_solves_give_the_same_bits_for_any_thread_count() {
    use raven::engine::solve::solve;
    let stealths = [3u8, 10];
    // The rule sets side by side, each run on pools of its own.
    let rule_sets = [
        MAIN_TEXT,
        CLARIFIED,
        every_rule_set().pop().expect("a variant"),
    ];
    rule_sets.into_par_iter().for_each(|rules| {
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("a pool");
            pool.install(|| {
                let solver = Solver::new(rules);
                let solutions = solve(&solver, &stealths);
                // The figures computed in the layers, by a solver of their own.
                let layered = raven::engine::solve_with_figures(
                    &Solver::new(rules),
                    &stealths,
                    &raven::engine::Budget::UNLIMITED,
                )
                .expect("no limit");
                (format!("{solutions:?}"), format!("{layered:?}"))
            })
        };
        let serial = run(1);
        for threads in [2, 7] {
            assert_eq!(run(threads), serial, "{rules} with {threads} threads");
        }
    });
}

/// What makes the parallel solve's table independent of the thread count: every position of
/// a class gets the same bits, whichever member of it is solved first. Relabelling permutes
/// the outcomes of challenge and side types, so a sum in outcome order would round
/// differently for two members of one class.
#[test]
fn relabelled_positions_get_the_same_bits() {
    use Character::*;
    use Health::*;
    let swap = |c: Character| match c {
        Spy => Mechanic,
        Mechanic => Spy,
        Sniper => Demolitions,
        Demolitions => Sniper,
        c => c,
    };
    for rules in [MAIN_TEXT, CLARIFIED] {
        for stealth in [2u8, 7] {
            let members = [
                (Hacker, Healthy),
                (Spy, Wounded),
                (Sniper, Healthy),
                (Medic, Incapacitated),
            ];
            let relabelled: Vec<_> = members.iter().map(|&(c, h)| (swap(c), h)).collect();
            for step in [Step::RunType { challenge: 2 }, Step::ChooseFinale] {
                let a = Solver::new(rules).value(&position(stealth, Hacker, &members, step));
                let b = Solver::new(rules).value(&position(stealth, Hacker, &relabelled, step));
                assert_eq!(
                    a.to_bits(),
                    b.to_bits(),
                    "{rules}, stealth {stealth}, {step:?}"
                );
            }
        }
    }
}

/// The layered solve's figures (`solve_with_figures`, computed while the table is filled)
/// are an optimal policy's: the win probability is the optimal value, the outcomes add up to
/// one, and every figure agrees with the oracle's for optimal play (a table of its own) but
/// where the two break an exact tie differently — between options that all lose, which may
/// lose in the finale with no one able or with the finale character down. So the two finale
/// causes may split differently; their sum, and every other figure, may not.
#[test]
fn layered_policy_figures_agree_with_the_oracle() {
    use raven::engine::solve::solve;
    use raven::engine::{Budget, OptimalStrategy, solve_with_figures};
    let stealths = [0u8, 1, 2, 5];
    for rules in [MAIN_TEXT, CLARIFIED] {
        let layered = solve_with_figures(&Solver::new(rules), &stealths, &Budget::UNLIMITED)
            .expect("no limit");
        let solver = Solver::new(rules);
        solve(&solver, &stealths);
        let optimal = OptimalStrategy::from_solver(solver);
        let mut oracle = Oracle::new(&rules, &optimal);
        for (solution, figures) in layered {
            let expected = oracle.expectation(&State::new(solution.stealth));
            let close = |a: f64, b: f64, what: &str| {
                assert!(
                    (a - b).abs() < 1e-12,
                    "{rules} at {}: {what} {a} vs {b}",
                    solution.stealth
                );
            };
            close(figures.win, solution.value, "win vs value");
            close(
                figures.win + figures.losses.iter().sum::<f64>(),
                1.0,
                "total",
            );
            close(figures.win, expected.win, "win");
            close(figures.losses[0], expected.losses[0], "recruitment losses");
            close(figures.losses[1], expected.losses[1], "run losses");
            close(
                figures.losses[2] + figures.losses[3],
                expected.losses[2] + expected.losses[3],
                "finale losses",
            );
            close(figures.discovered, expected.discovered, "discovered");
            close(figures.stealth_left, expected.stealth_left, "stealth left");
            close(figures.reached_run, expected.reached_run, "reached run");
            close(figures.team_at_run, expected.team_at_run, "team at run");
            close(figures.deaths, expected.deaths, "deaths");
        }
    }
}

/// A table that keeps only where the solve's parts meet (`Keep::PartBoundaries`, a one-shot
/// solve) gives the same bits as one that keeps every position — values and policy figures,
/// under every rule set, stealth 1 (replayed from the top class or not) included — counts the
/// same positions solved, stores far fewer, and still answers a later question about a
/// position it dropped, by walking down to the boundary positions.
#[test]
fn a_table_of_part_boundaries_only_solves_to_the_same_bits() {
    use raven::engine::{Budget, Keep, solve_with_figures};
    let stealths = [0u8, 1, 4, 9];
    for rules in every_rule_set() {
        let everything = Solver::keeping(rules, Keep::Everything);
        let boundaries = Solver::keeping(rules, Keep::PartBoundaries);
        let solve = |solver: &Solver| {
            let solved =
                solve_with_figures(solver, &stealths, &Budget::UNLIMITED).expect("no limit");
            format!("{solved:?}")
        };
        assert_eq!(solve(&boundaries), solve(&everything), "{rules}");
        assert_eq!(boundaries.states(), everything.states(), "{rules}");
        let members = [
            (Character::Spy, Health::Wounded),
            (Character::Medic, Health::Healthy),
        ];
        let inside = position(
            4,
            Character::Hacker,
            &members,
            Step::RunType { challenge: 3 },
        );
        assert_eq!(
            boundaries.value(&inside).to_bits(),
            everything.value(&inside).to_bits(),
            "{rules}"
        );
    }
    // Fewer stored: the kept table's peek finds a run position; the boundaries-only one not.
    let boundaries = Solver::keeping(MAIN_TEXT, Keep::PartBoundaries);
    raven::engine::solve(&boundaries, &[6]);
    let everything = Solver::new(MAIN_TEXT);
    raven::engine::solve(&everything, &[6]);
    let members = [(Character::Spy, Health::Healthy)];
    let inside = position(
        6,
        Character::Hacker,
        &members,
        Step::RunType { challenge: 2 },
    );
    assert!(everything.peek(&inside).is_some());
    assert!(boundaries.peek(&inside).is_none());
}
