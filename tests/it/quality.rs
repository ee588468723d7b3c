//! `raven quality` for Operation Purple Raven: exact where it is an expectation, the identities
//! of luck and skill game by game, reproducible on any thread count, bad input refused.

use raven::engine::decisions::decisions;
use raven::engine::generic::quality::Sampled;
use raven::engine::{Budget, OptimalStrategy, Solver, SolverPolicy, exact, solve_within};
use raven::game::interface::PurpleRaven;
use raven::rules::Rules;
use raven::strategy::{ReferenceStrategy, Strategy};
use raven_core::games::Game;
use raven_core::quality::{assess, follow};

use crate::common::{SAMPLED, agrees_with_sampled_games, refused, stdout};

const STEALTH: u8 = 5;

#[test]
fn purple_raven_quality_is_exact_where_it_is_an_expectation_and_sums_game_by_game() {
    for preset in ["main-text", "clarified"] {
        let rules = Rules::preset(preset).unwrap();
        let reference: &dyn Strategy = &ReferenceStrategy;
        let chosen = [
            ("optimal".to_string(), None),
            ("reference".to_string(), Some(reference)),
        ];
        let assessed = assess(&rules, &chosen, &[STEALTH], 0, 0, Budget::UNLIMITED).unwrap();
        assert!(assessed.iter().all(|a| a.by_start.is_empty()));
        let (optimal, strategy) = (&assessed[0].quality, &assessed[1].quality);
        // The win probability of the engines for any game is the exact engine's.
        let own = exact(&rules, &ReferenceStrategy, &[STEALTH]).expectations[0].win;
        assert!((strategy.figures.win - own).abs() < 1e-12, "{preset}");
        // The skill loss is the regret: optimal − exact, split by kind and summed.
        let d = &decisions(&rules, &ReferenceStrategy, &[STEALTH], Budget::UNLIMITED).unwrap()[0];
        assert!(
            (strategy.skill_loss - (d.optimal - own)).abs() < 1e-9,
            "{preset}: {} against {}",
            strategy.skill_loss,
            d.optimal - own
        );
        assert!(strategy.skill_loss > 0.01);
        // Optimal play gives nothing up, game by game.
        assert!(optimal.skill_loss.abs() < 1e-12, "{preset}");
        assert_eq!(optimal.games.skill, [0.0, 0.0]);
        assert_eq!(optimal.luck_share(), 1.0);
        assert!((optimal.figures.win - d.optimal).abs() < 1e-12);
        // Game by game: start + luck + skill = result, and every step counted.
        let solver = Solver::new(rules);
        solve_within(&solver, &[STEALTH], &Budget::UNLIMITED).unwrap();
        let table = SolverPolicy::of(&solver);
        let game = PurpleRaven {
            rules,
            stealth: STEALTH,
        };
        let start = solver.value(&game.start());
        assert!((start - strategy.start).abs() < 1e-12);
        for s in [&table as &dyn Strategy, reference] {
            for i in 0..500 {
                let c = follow(&game, s, &solver, start, 7, i);
                let result = f64::from(u8::from(c.won));
                assert!(
                    (start + c.luck + c.skill - result).abs() < 1e-12,
                    "{preset}, game {i}: {start} + {} + {} against {result}",
                    c.luck,
                    c.skill
                );
            }
        }
        // Meaningful decisions: at 5 points no more than at 1, and never more than decisions.
        assert!(strategy.meaningful[1] <= strategy.meaningful[0]);
        assert!(strategy.meaningful[0] <= strategy.figures.decisions);
        assert!(strategy.meaningful[0] > 0.0);
        // The oracle: games played by the game's own loop, `μ` read from the solve after each
        // step, agree with every exact figure within their sampling error.
        for (s, q) in [(&table as &dyn Strategy, optimal), (reference, strategy)] {
            agrees_with_sampled_games(
                q,
                &Sampled::gather(SAMPLED, |i| follow(&game, s, &solver, start, 7, i)),
                preset,
            );
        }
    }
}

#[test]
fn purple_raven_quality_is_the_same_on_any_thread_count() {
    let run = |threads: &str| {
        stdout(&[
            "quality",
            "--stealth",
            "3,5",
            "--strategy",
            "optimal,cautious",
            "--threads",
            threads,
            "--out",
            "-",
            "-q",
        ])
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let header = one.lines().next().unwrap();
    for column in [
        "strategy",
        "rules",
        "stealth",
        "win_rate",
        "skill_loss",
        "luck_share",
        "suspense",
        "comeback_rate",
        "heartbreak_rate",
        "mean_rolls",
        "mean_decisions",
        "meaningful_decisions",
        "rolls_median",
    ] {
        assert!(header.split(',').any(|c| c == column), "{column}: {header}");
    }
    assert_eq!(one.lines().count(), 1 + 4);
}

#[test]
fn purple_raven_quality_refuses_what_it_cannot_take() {
    for args in [
        &["quality", "--games", "1000"][..],
        &["quality", "--strategy", "nosuch"],
        &["quality", "--stealth", "100"],
        &["quality", "--players", "2"],
    ] {
        refused(args);
    }
}

#[test]
fn stages_never_fall_along_play_in_either_game() {
    use raven_core::engine::generic::sample::{play, stream};
    use raven_core::games::annulus::Annulus;
    use raven_core::games::{Point, Uniform};
    fn check<G: Game>(game: &G, stages: usize) {
        assert_eq!(game.phases().len(), stages);
        let mut seen = vec![false; stages];
        for i in 0..300 {
            let mut last = 0u8;
            play(game, &Uniform, &mut stream(11, i), &mut |pos| {
                let stage = game.phase(pos);
                assert!(stage >= last, "{pos:?}");
                assert!(usize::from(stage) < stages);
                if !matches!(game.point(pos), Point::Over(_)) {
                    seen[usize::from(stage)] = true;
                }
                last = stage;
            });
        }
        assert!(seen.iter().filter(|&&s| s).count() >= 2, "{seen:?}");
    }
    for tough in [1u8, 3, 6] {
        let mut rules = Rules::preset("main-text").unwrap();
        rules.design.tough_challenges = tough;
        // R5: recruitment, the run, then each Tough Challenge.
        check(&PurpleRaven { rules, stealth: 12 }, 2 + usize::from(tough));
    }
    let mut rules = raven_core::games::annulus::rules::Rules::preset("normal").unwrap();
    rules.players = 3;
    let annulus = Annulus::new(rules);
    // A1, A3: the set-up, then the chain by how many are still hidden (none to all).
    check(&annulus, 2 + annulus.rules().dice());
}

/// A row's sampled games split by how they started: each kind of group (main character,
/// complication deal) partitions them — games, wins, comebacks, heartbreaks and lengths add
/// up exactly, the sums of skill and of squared changes to their rounding — and the groups
/// are the same bits on one thread and two.
#[test]
fn purple_raven_groups_by_start_partition_a_row_s_games_on_any_thread_count() {
    use raven::game::{Action, Chance, Decision, State};
    use raven::strategy::Choice;
    use raven_core::quality::{Deal, Group};
    let rules = Rules::preset("main-text").unwrap();
    let reference: &dyn Strategy = &ReferenceStrategy;
    let chosen = [
        ("optimal".to_string(), None),
        ("reference".to_string(), Some(reference)),
    ];
    // More games than a chunk (8,192), so that the threads share them.
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| assess(&rules, &chosen, &[3], 10_000, 5, Budget::UNLIMITED))
            .unwrap()
    };
    let one = on(1);
    let two = on(2);
    for (a, b) in one.iter().zip(&two) {
        assert_eq!(a.quality, b.quality);
        assert_eq!(a.by_start, b.by_start, "{}", a.strategy);
    }
    for a in &one {
        // Each kind of group partitions the same games: the sums over one kind are those over
        // the other.
        let sums = |kind: &str| {
            let mut total = Sampled::default();
            for (_, s) in a.by_start.iter().filter(|(g, _)| g.kind() == kind) {
                total.merge(s);
            }
            total
        };
        let (mains, deals) = (sums("main-character"), sums("complications"));
        assert_eq!(mains.games, 10_000);
        let counts = |s: &Sampled| {
            (
                s.games,
                s.wins,
                s.comebacks(),
                s.heartbreaks(),
                s.decided(),
                s.lengths(true).to_vec(),
            )
        };
        assert_eq!(counts(&mains), counts(&deals), "{}", a.strategy);
        let squares = |s: &Sampled| {
            let [squares, steps] = s.squares_and_steps();
            [s.skill_loss().0 * s.games as f64, squares, steps]
        };
        for (m, d) in squares(&mains).into_iter().zip(squares(&deals)) {
            assert!((m - d).abs() <= 1e-9 * d.abs().max(1.0), "{m} against {d}");
        }
        // The reference always chooses the Hacker (R7); every deal comes up.
        if a.strategy == "reference" {
            let mains: Vec<Group> = a
                .by_start
                .iter()
                .map(|(g, _)| *g)
                .filter(|g| g.kind() == "main-character")
                .collect();
            assert_eq!(mains, [Group::Main(raven::game::Character::Hacker)]);
        }
        let deals = a
            .by_start
            .iter()
            .filter(|(g, _)| g.kind() == "complications")
            .count();
        assert_eq!(deals, 4, "{}", a.strategy);
    }
    // Optimal play's games by deal: each deal's share of the games and its win rate agree
    // with the exact ones, over the complication rolls of that deal (R6), optimal play's
    // value after each.
    let solver = Solver::new(rules);
    solve_within(&solver, &[3], &Budget::UNLIMITED).unwrap();
    let table = OptimalStrategy::from_solver(solver);
    // Each group's probability and optimal play's probability of winning from it, by the
    // group's place in `Group::ALL`.
    let mut exact = [(0.0, 0.0); Group::ALL.len()];
    for (outcome, p) in Chance::Complications.outcomes() {
        let mut after = State::new(3);
        after.apply_outcome(&rules, outcome);
        let win = table.value(&after, &rules);
        let Choice::Act(Action::Main(main)) = table.decide(&after, &rules, Decision::MainCharacter)
        else {
            panic!("optimal play names a main character");
        };
        for group in [Group::Main(main), Group::Deal(Deal::of(outcome))] {
            let e = &mut exact[Group::ALL.iter().position(|g| *g == group).unwrap()];
            e.0 += p;
            e.1 += p * win;
        }
    }
    let optimal = &one[0];
    assert_eq!(optimal.strategy, "optimal");
    let n = 10_000.0;
    for (group, (share, win)) in Group::ALL.into_iter().zip(exact) {
        let z = |k: u64, of: f64, p: f64| (k as f64 / of - p) / (p * (1.0 - p) / of).sqrt();
        match optimal.by_start.iter().find(|(g, _)| *g == group) {
            Some((_, s)) => {
                let z_share = z(s.games, n, share);
                let z_win = z(s.wins, s.games as f64, win / share);
                assert!(z_share.abs() < 4.0, "{group:?}: share z = {z_share}");
                assert!(z_win.abs() < 4.0, "{group:?}: win z = {z_win}");
            }
            // A group no game fell into: rare enough to be missed.
            None => assert!(
                share * n < 4.0,
                "{group:?}: {share} of {n} games, none sampled"
            ),
        }
    }
}

/// Luck is fair: at every chance point a game meets, optimal play's win probability is the
/// probability-weighted sum of what its outcomes leave (1e-12), so its expected change there
/// is 0 — the start's deal of complications once, then every roll of 200 games.
#[test]
fn purple_raven_luck_has_mean_zero_at_every_chance_point_met() {
    use raven_core::engine::generic::sample::{play, stream};
    use raven_core::games::Point;
    use raven_core::strategy::AsPolicy;
    let rules = Rules::preset("main-text").unwrap();
    let solver = Solver::new(rules);
    solve_within(&solver, &[STEALTH], &Budget::UNLIMITED).unwrap();
    let game = PurpleRaven {
        rules,
        stealth: STEALTH,
    };
    let mut checked = 0;
    for i in 0..200 {
        play(
            &game,
            &AsPolicy(&ReferenceStrategy),
            &mut stream(3, i),
            &mut |pos| {
                if game.point(pos) == Point::Chance && (i == 0 || *pos != game.start()) {
                    let mut sum = 0.0;
                    game.outcomes(pos, &mut |next, p| sum += p * solver.value(&next));
                    let mu = solver.value(pos);
                    assert!((sum - mu).abs() < 1e-12, "{pos:?}: {sum} against {mu}");
                    checked += 1;
                }
            },
        );
    }
    assert!(checked > 2000, "{checked} chance points");
}
