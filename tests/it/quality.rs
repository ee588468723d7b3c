//! `raven quality` for Operation Purple Raven: exact where it is an expectation, the identities
//! of luck and skill game by game, reproducible on any thread count, bad input refused.

use raven::cli::quality::assess;
use raven::engine::decisions::decisions;
use raven::engine::{Budget, exact};
use raven::rules::Rules;
use raven::strategy::{ReferenceStrategy, Strategy};

use crate::common::{refused, stdout};

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
        let assessed = assess(&rules, &chosen, &[STEALTH], 4000, 7, Budget::UNLIMITED).unwrap();
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
        assert!(optimal.courses.iter().all(|c| c.skill.abs() < 1e-12));
        assert_eq!(optimal.luck_share(), 1.0);
        assert!((optimal.figures.win - d.optimal).abs() < 1e-12);
        // Game by game: start + luck + skill = result.
        for q in [optimal, strategy] {
            for (i, c) in q.courses.iter().enumerate() {
                let result = f64::from(u8::from(c.won));
                assert!(
                    (q.start + c.luck + c.skill - result).abs() < 1e-12,
                    "{preset}, game {i}: {} + {} + {} against {result}",
                    q.start,
                    c.luck,
                    c.skill
                );
            }
        }
        // The sampled skill losses agree with the exact regret within their interval.
        let (mean, se) = strategy.sampled_skill_loss();
        let z = (mean - strategy.skill_loss) / se;
        assert!(z.abs() < 4.0, "{preset}: z = {z}");
        // Meaningful decisions: at 5 points no more than at 1, and never more than decisions.
        assert!(strategy.meaningful[1] <= strategy.meaningful[0]);
        assert!(strategy.meaningful[0] <= strategy.figures.decisions);
        assert!(strategy.meaningful[0] > 0.0);
        // The sampled win rate agrees with the exact one.
        let wins = strategy.courses.iter().filter(|c| c.won).count() as f64;
        let n = strategy.courses.len() as f64;
        let p = strategy.figures.win;
        let z = (wins / n - p) / (p * (1.0 - p) / n).sqrt();
        assert!(z.abs() < 4.0, "{preset}: win z = {z}");
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
            "--games",
            "3000",
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
        "suspense_low",
        "comeback_rate_high",
    ] {
        assert!(header.split(',').any(|c| c == column), "{column}: {header}");
    }
    assert_eq!(one.lines().count(), 1 + 4);
}

#[test]
fn purple_raven_quality_refuses_what_it_cannot_take() {
    for args in [
        &["quality", "--games", "0"][..],
        &["quality", "--strategy", "nosuch"],
        &["quality", "--stealth", "100"],
        &["quality", "--players", "2"],
    ] {
        refused(args);
    }
}
