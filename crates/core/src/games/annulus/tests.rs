//! Unit tests of the Annulus state machine: one per ruling where the engines are not needed.

use super::*;
use crate::games::{options_of, outcomes_of};

fn game(changes: &[&str]) -> Annulus {
    let changes: Vec<String> = changes.iter().map(|s| s.to_string()).collect();
    Annulus::new(Rules::parse("normal", &changes).unwrap())
}

#[test]
fn a2_neighbours_differ_by_exactly_one() {
    let g = game(&[]);
    for (chain, solved) in [
        (&[1, 2, 3][..], true),
        (&[3, 2, 1], true),
        (&[1, 2, 1], true),
        (&[1, 3, 2], false),
        (&[12, 1, 2], false),
        (&[5], true),
        (&[], true),
    ] {
        let c: Vec<(u8, bool)> = chain.iter().map(|&v| (v, false)).collect();
        assert_eq!(g.solved(&Pos::at(&c, 0)), solved, "{chain:?}");
    }
    // A4 wrap: 12 and 1 are neighbours on the ring.
    let w = game(&["wrap=yes"]);
    assert!(w.solved(&Pos::at(&[(12, false), (1, false), (2, false)], 0)));
}

#[test]
fn a5_jammed_dice_too_far_apart_or_of_the_wrong_parity_fail() {
    let g = game(&[]);
    let at = |a: (u8, bool), b: (u8, bool), c: (u8, bool)| Pos::at(&[a, b, c], 0);
    // Two apart: 3 … 5 can be joined (4 between), 3 … 6 cannot (parity), 3 … 7 cannot (far).
    assert!(g.solvable(&at((3, true), (9, false), (5, true))));
    assert!(!g.solvable(&at((3, true), (9, false), (6, true))));
    assert!(!g.solvable(&at((3, true), (9, false), (7, true)))); // far
    assert!(g.solvable(&at((3, true), (9, false), (3, true))));
    // Neighbours jammed 1 apart are solved for good; 2 apart never.
    assert!(g.solvable(&at((3, true), (4, true), (1, false))));
    assert!(!g.solvable(&at((3, true), (5, true), (1, false))));
    // On the ring 12 and 2 are two apart.
    let w = game(&["wrap=yes"]);
    assert!(w.solvable(&at((12, true), (5, false), (2, true))));
    assert!(!g.solvable(&at((12, true), (5, false), (2, true))));
}

#[test]
fn a4_an_adjustment_moves_on_target_or_more_and_jams_below() {
    for target in [2u8, 4, 7, 12] {
        let g = game(&[&format!("target={target}")]);
        let pos = Pos::at(&[(5, false), (9, false), (2, false)], 0);
        let options = options_of(&g, &pos);
        // Every die both ways.
        assert_eq!(options.len(), 6);
        let (m, trigger) = options[0];
        assert_eq!(m, Move { die: 0, up: true });
        let outs = outcomes_of(&g, &trigger);
        assert_eq!(outs.len(), 2);
        assert_eq!(outs[0].0.value(0), 6);
        assert!(!outs[0].0.jammed(0));
        assert_eq!(outs[0].1, f64::from(13 - target) / 12.0);
        assert_eq!(outs[1].0.value(0), 5);
        assert!(outs[1].0.jammed(0));
        assert_eq!(outs[1].1, f64::from(target - 1) / 12.0);
    }
    // Within 1..=12 unless the ring wraps; a jammed die never moves.
    let g = game(&[]);
    let pos = Pos::at(&[(12, false), (1, false), (4, true)], 0);
    let moves: Vec<Move> = options_of(&g, &pos).into_iter().map(|(m, _)| m).collect();
    assert_eq!(
        moves,
        [Move { die: 0, up: false }, Move { die: 1, up: true }]
    );
    let w = game(&["wrap=yes"]);
    assert_eq!(options_of(&w, &pos).len(), 4);
}

#[test]
fn a1_setup_hides_a_position_on_the_hiding_faces() {
    for faces in 0..=3u8 {
        let g = game(&[&format!("hidden-faces={faces}")]);
        let outs = outcomes_of(&g, &g.start());
        let hidden: f64 = outs
            .iter()
            .filter(|(p, _)| p.hidden() == 1)
            .map(|(_, p)| p)
            .sum();
        assert_eq!(hidden, f64::from(faces) / 4.0);
        let total: f64 = outs.iter().map(|(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-15);
    }
    // players + 2 positions.
    for players in 1..=4u8 {
        let g = game(&[&format!("players={players}"), "hidden-faces=0"]);
        let mut pos = g.start();
        let mut rolls = 0;
        while g.point(&pos) == Point::Chance {
            pos = outcomes_of(&g, &pos)[0].0;
            rolls += 1;
        }
        assert_eq!(rolls, usize::from(players) + 2);
        assert_eq!(pos.len(), usize::from(players) + 2);
    }
}

#[test]
fn a3_a_solved_chain_reveals_one_hidden_die_in_a_gap() {
    let g = game(&[]);
    // Solved with two hidden: a reveal, each of the three gaps alike, twelve numbers each.
    let mut pos = Pos::at(&[(4, false), (5, false)], 2);
    pos = g.settle(pos, 0);
    assert_eq!(pos.stage(), Stage::Reveal);
    let outs = outcomes_of(&g, &pos);
    assert_eq!(outs.len(), 36);
    for (next, p) in &outs {
        assert!((p - 1.0 / 36.0).abs() < 1e-15);
        assert_eq!((next.len(), next.hidden()), (3, 1));
    }
    // Left to right, the leftmost hidden position: with two hidden around two dice, it lies in
    // the first gap in 3 of the 6 ways to place them, the second in 2, the last in 1.
    let l = game(&["reveal-order=left-to-right"]);
    let outs = outcomes_of(&l, &l.settle(Pos::at(&[(4, false), (5, false)], 2), 0));
    for (gap, odds) in [(0, 3.0 / 6.0), (1, 2.0 / 6.0), (2, 1.0 / 6.0)] {
        let p: f64 = outs
            .iter()
            .filter(|(n, _)| n.left == gap + 1)
            .map(|(_, p)| p)
            .sum();
        assert!((p - odds).abs() < 1e-15, "gap {gap}: {p}");
    }
    // A solved chain with nothing hidden is a success.
    assert_eq!(
        g.settle(Pos::at(&[(4, false), (5, false), (6, false)], 0), 0)
            .stage(),
        Stage::Over(End::Win)
    );
}

#[test]
fn a6_an_action_limit_ends_the_challenge() {
    let g = game(&["action-limit=1"]);
    let pos = Pos::at(&[(4, false), (9, false), (1, false)], 0);
    let (_, trigger) = options_of(&g, &pos)[0];
    for (next, _) in outcomes_of(&g, &trigger) {
        assert_eq!(next.stage(), Stage::Over(End::Loss(ACTION_LIMIT)));
    }
    let free = game(&[]);
    let (_, trigger) = options_of(&free, &pos)[0];
    for (next, _) in outcomes_of(&free, &trigger) {
        assert_eq!(next.stage(), Stage::Act);
    }
}

#[test]
fn canonical_forms_are_mirror_and_reflection_images() {
    let g = game(&[]);
    let a = Pos::at(&[(2, false), (7, true), (11, false)], 1);
    let mirrored = Pos::at(&[(11, false), (7, true), (2, false)], 1);
    let reflected = Pos::at(&[(11, false), (6, true), (2, false)], 1);
    assert_eq!(g.canonical(&a), g.canonical(&mirrored));
    assert_eq!(g.canonical(&a), g.canonical(&reflected));
    // Left to right, a mirror image plays otherwise while something is hidden.
    let l = game(&["reveal-order=left-to-right"]);
    assert_ne!(l.canonical(&a), l.canonical(&mirrored));
}

/// A5 after a reveal: a die revealed between two jammed neighbours that differ by 1 breaks the
/// chain for good, and the failure is the reveal's.
#[test]
fn a5_a_revealed_die_can_break_the_chain_for_good() {
    let g = game(&[]);
    let pos = g.position(&[(3, true), (4, true)], 1);
    assert_eq!(pos.stage(), Stage::Reveal);
    let mut between = 0;
    for (next, p) in outcomes_of(&g, &pos) {
        if next.value(0) == 3 && next.value(2) == 4 && next.jammed(0) && next.jammed(2) {
            assert_eq!(next.stage(), Stage::Over(End::Loss(REVEAL)));
            between += 1;
            assert!((p - 1.0 / 36.0).abs() < 1e-15);
        }
    }
    assert_eq!(between, 12);
}

/// The planner's aim is a solved chain the fewest steps away: checked against every solved
/// chain of four dice.
#[test]
fn the_nearest_solved_chain_is_the_nearest() {
    use super::strategy::Knobs;
    let g = game(&["players=2"]);
    let planner = Knobs::bundled("planner").unwrap();
    let steps_to = |pos: &Pos, aim: &[u8]| -> Option<u32> {
        let mut total = 0;
        for (i, &t) in aim.iter().enumerate() {
            if pos.jammed(i) && pos.value(i) != t {
                return None;
            }
            total += u32::from(g.distance(pos.value(i), t));
        }
        Some(total)
    };
    let mut solved = Vec::new();
    for a in 1..=12u8 {
        for b in [a.wrapping_sub(1), a + 1]
            .into_iter()
            .filter(|v| (1..=12).contains(v))
        {
            for c in [b.wrapping_sub(1), b + 1]
                .into_iter()
                .filter(|v| (1..=12).contains(v))
            {
                for d in [c.wrapping_sub(1), c + 1]
                    .into_iter()
                    .filter(|v| (1..=12).contains(v))
                {
                    solved.push([a, b, c, d]);
                }
            }
        }
    }
    for chain in [[3u8, 2, 7, 9], [1, 12, 1, 12], [6, 6, 6, 6], [2, 9, 4, 11]] {
        for jam in [None, Some(1), Some(3)] {
            let dice: Vec<(u8, bool)> = chain
                .iter()
                .enumerate()
                .map(|(i, &v)| (v, Some(i) == jam))
                .collect();
            let pos = Pos::at(&dice, 0);
            if !g.solvable(&pos) || g.solved(&pos) {
                continue;
            }
            let best = solved
                .iter()
                .filter_map(|aim| steps_to(&pos, aim))
                .min()
                .unwrap();
            let aim = planner.aim(&g, &pos);
            assert_eq!(
                steps_to(&pos, &aim),
                Some(best),
                "{chain:?} jam {jam:?}: {aim:?}"
            );
        }
    }
}

mod engines {
    use super::*;
    use crate::engine::Budget;
    use crate::engine::generic::{OptimalPolicy, Optimum, evaluate, regret, simulate, solve};
    use crate::games::annulus::strategy::Knobs;

    #[test]
    fn solve_and_evaluate_agree() {
        for preset in ["normal", "advanced"] {
            for players in 1..=2u8 {
                let rules = Rules::parse(preset, &[format!("players={players}")]).unwrap();
                let g = Annulus::new(rules);
                let t = std::time::Instant::now();
                let solved = solve(&g, Budget::UNLIMITED).unwrap();
                println!(
                    "{preset} players {players}: {} ({} positions, {} sweeps, {:?})",
                    solved.start(),
                    solved.positions(),
                    solved.sweeps,
                    t.elapsed()
                );
                assert!(solved.settled());
                let opt = evaluate(&g, &OptimalPolicy::new(&solved), Budget::UNLIMITED).unwrap();
                assert!(
                    (opt.win - solved.start()).abs() < 1e-12,
                    "{} {}",
                    opt.win,
                    solved.start()
                );
                for name in ["naive", "planner", "closest-first"] {
                    let k = Knobs::bundled(name).unwrap();
                    let (f, r) = regret(&g, &k, &solved, Budget::UNLIMITED).unwrap();
                    let total: f64 = r.by_kind.iter().sum();
                    let mc = simulate(&g, &k, 100_000, 7);
                    println!(
                        "  {name}: {} regret {total} mc {} decisions {} rolls {}",
                        f.win,
                        mc.wins as f64 / mc.games as f64,
                        f.decisions,
                        f.rolls
                    );
                    assert!(f.win <= solved.start() + 1e-12);
                    assert!((solved.start() - f.win - total).abs() < 1e-9);
                }
            }
        }
    }
}

/// Every file of the knob grid is written as it is read back, and the grid holds each
/// distinct strategy once (the bundled ones among them).
#[test]
fn the_knob_grid_round_trips() {
    use super::strategy::{BUNDLED, Knobs};
    let grid = Knobs::grid();
    for k in &grid {
        assert_eq!(&Knobs::parse("grid", &k.to_toml()).unwrap(), k);
    }
    let plays = |k: &Knobs| (k.aim, k.order);
    for (i, a) in grid.iter().enumerate() {
        assert!(
            grid[..i].iter().all(|b| plays(a) != plays(b)),
            "{a:?} twice"
        );
    }
    for (name, _) in BUNDLED {
        let b = Knobs::bundled(name).unwrap();
        assert!(
            grid.iter().any(|k| plays(k) == plays(&b)),
            "{name} not in the grid"
        );
    }
}

/// Every value a key lists is one its parser takes.
#[test]
fn every_listed_value_is_accepted() {
    use super::rules::PARAMS;
    for p in &PARAMS {
        let choices = p.choices();
        assert!(!choices.is_empty(), "{}", p.key);
        for v in choices {
            let mut r = Rules::preset("normal").unwrap();
            assert!(r.set(p.key, &v).is_ok(), "{}={v}", p.key);
        }
    }
}
