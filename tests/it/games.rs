//! The game interface proven on a third game written here and nowhere else: "roll a d6 and add
//! it to the total, then stop or go on; past 10 loses, stopping at total t wins with probability
//! t / 10". The engines solve it, evaluate strategies exactly, sample it and split regret with
//! nothing but this file knowing its rules.

use raven_core::engine::Budget;
use raven_core::engine::generic::{
    Figures, Optimum, evaluate, evaluate_from, regret, simulate, solve,
};
use raven_core::games::{End, Game, Point, Policy};

/// The total so far and what happens next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Pos {
    /// The d6 is about to be rolled onto `total`.
    Roll(u8),
    /// The player decides at `total`.
    Decide(u8),
    /// The player stopped at `total`: a d10 decides.
    Stopped(u8),
    Over(bool),
}

/// With `decisions_stored` false, a strategy is played through its decisions, which are
/// reached from one roll each.
struct PassTen {
    decisions_stored: bool,
}

impl Game for PassTen {
    type Pos = Pos;
    type Option = bool;
    type Key = u64;
    fn name(&self) -> &'static str {
        "pass-ten"
    }
    fn kinds(&self) -> &'static [&'static str] {
        &["stop-or-go"]
    }
    fn causes(&self) -> &'static [&'static str] {
        &["bust", "short"]
    }
    fn start(&self) -> Pos {
        Pos::Roll(0)
    }
    fn point(&self, pos: &Pos) -> Point {
        match *pos {
            Pos::Decide(_) => Point::Decision(0),
            Pos::Over(true) => Point::Over(End::Win),
            Pos::Over(false) => Point::Over(End::Loss(0)),
            _ => Point::Chance,
        }
    }
    fn outcomes(&self, pos: &Pos, each: &mut impl FnMut(Pos, f64)) {
        match *pos {
            Pos::Roll(t) => {
                for d in 1..=6 {
                    let t = t + d;
                    each(
                        if t > 10 {
                            Pos::Over(false)
                        } else {
                            Pos::Decide(t)
                        },
                        1.0 / 6.0,
                    );
                }
            }
            Pos::Stopped(t) => {
                let p = f64::from(t) / 10.0;
                each(Pos::Over(true), p);
                each(Pos::Over(false), 1.0 - p);
            }
            _ => unreachable!(),
        }
    }
    fn options(&self, pos: &Pos, each: &mut impl FnMut(bool, Pos)) {
        let Pos::Decide(t) = *pos else { unreachable!() };
        each(true, Pos::Roll(t));
        each(false, Pos::Stopped(t));
    }
    fn layer(&self, pos: &Pos) -> u32 {
        match *pos {
            Pos::Roll(t) | Pos::Decide(t) => {
                2 * (11 - u32::from(t)) + u32::from(matches!(pos, Pos::Decide(_)))
            }
            _ => 0,
        }
    }
    fn stored(&self, pos: &Pos) -> bool {
        match pos {
            Pos::Stopped(_) => false,
            Pos::Decide(_) => self.decisions_stored,
            _ => true,
        }
    }
    fn key(&self, pos: &Pos) -> u64 {
        match *pos {
            Pos::Roll(t) => u64::from(t),
            Pos::Decide(t) => 100 + u64::from(t),
            Pos::Stopped(t) => 200 + u64::from(t),
            Pos::Over(w) => 300 + u64::from(w),
        }
    }
}

/// Go on below `k`, stop from `k` up.
struct StopAt(u8);

impl Policy<PassTen> for StopAt {
    fn name(&self) -> &str {
        "stop-at"
    }
    fn weigh(&self, _: &PassTen, pos: &Pos, _: &[bool], w: &mut [f64]) {
        let Pos::Decide(t) = *pos else { unreachable!() };
        w[usize::from(t >= self.0)] = 1.0;
    }
}

/// The closed forms, by hand: `best(t)` the optimal value at a decision with total `t`,
/// `follow(k, t)` stopping from `k`.
fn best(t: u8) -> f64 {
    let go: f64 = (1..=6)
        .map(|d| if t + d > 10 { 0.0 } else { best(t + d) })
        .sum::<f64>()
        / 6.0;
    go.max(f64::from(t) / 10.0)
}

fn follow(k: u8, t: u8) -> f64 {
    if t >= k {
        return f64::from(t) / 10.0;
    }
    (1..=6)
        .map(|d| if t + d > 10 { 0.0 } else { follow(k, t + d) })
        .sum::<f64>()
        / 6.0
}

fn start(f: impl Fn(u8) -> f64) -> f64 {
    (1..=6).map(f).sum::<f64>() / 6.0
}

#[test]
fn a_third_game_is_solved_evaluated_sampled_and_decomposed_by_the_same_engines() {
    let game = PassTen {
        decisions_stored: true,
    };
    let solved = solve(&game, Budget::UNLIMITED).unwrap();
    let exact_best = start(best);
    assert!(
        (solved.start() - exact_best).abs() < 1e-15,
        "{} {exact_best}",
        solved.start()
    );
    for k in [5, 7, 8, 10] {
        let policy = StopAt(k);
        let f = evaluate(&game, &policy, Budget::UNLIMITED).unwrap();
        let closed = start(|t| follow(k, t));
        assert!(
            (f.win - closed).abs() < 1e-15,
            "stop at {k}: {} {closed}",
            f.win
        );
        let (_, r) = regret(&game, &policy, &solved, Budget::UNLIMITED).unwrap();
        assert!((r.by_kind[0] - (exact_best - f.win)).abs() < 1e-12);
        let n = 400_000;
        let tally = simulate(&game, &policy, n, 5);
        let z =
            (tally.wins as f64 - closed * n as f64) / (closed * (1.0 - closed) * n as f64).sqrt();
        assert!(z.abs() < 4.0, "stop at {k}: z = {z}");
        // Every game rolls once more than it decides, and stopping rolls the d10.
        assert!((f.rolls - f.decisions - 1.0).abs() < 1e-12);
        // Played through its decisions, the strategy has the same figures from fewer positions;
        // its regret, which keeps them, the same too.
        let through = PassTen {
            decisions_stored: false,
        };
        let g = evaluate(&through, &policy, Budget::UNLIMITED).unwrap();
        assert!(g.positions < f.positions, "{} {}", g.positions, f.positions);
        for (a, b) in figure_pairs(&g, &f) {
            assert!((a - b).abs() < 1e-15, "stop at {k}: {a} {b}");
        }
        let solved = solve(&through, Budget::UNLIMITED).unwrap();
        let (_, s) = regret(&through, &policy, &solved, Budget::UNLIMITED).unwrap();
        assert!((s.by_kind[0] - r.by_kind[0]).abs() < 1e-15);
        assert_eq!(s.reach, r.reach);
        // From several starts at once, each as from it alone: from a total of 5 (or 9), the
        // next roll's average.
        let starts = [Pos::Roll(5), Pos::Roll(0), Pos::Roll(9)];
        let each = evaluate_from(&through, &policy, &starts, Budget::UNLIMITED).unwrap();
        let from_five = (1..=5).map(|d| follow(k, 5 + d)).sum::<f64>() / 6.0;
        for (e, closed) in each.iter().zip([from_five, closed, follow(k, 10) / 6.0]) {
            assert!(
                (e.win - closed).abs() < 1e-15,
                "stop at {k}: {} {closed}",
                e.win
            );
        }
        assert!((each[1].decisions - f.decisions).abs() < 1e-15);
    }
}

/// Each figure of `a` beside the same figure of `b`: the win, decisions, rolls and each loss.
fn figure_pairs<'a>(a: &'a Figures, b: &'a Figures) -> impl Iterator<Item = (f64, f64)> + 'a {
    [
        (a.win, b.win),
        (a.decisions, b.decisions),
        (a.rolls, b.rolls),
    ]
    .into_iter()
    .chain(a.losses.iter().copied().zip(b.losses.iter().copied()))
}

/// The engines' files name no game: what a game is lives in its own module.
#[test]
fn the_generic_engine_names_no_game() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src/engine/generic");
    let words = [
        "stealth",
        "character",
        "annulus",
        "purple raven",
        "dice",
        "die ",
        "jam",
        "challenge",
        "first aid",
        "reveal",
        "players",
        "crate::game::",
    ];
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap().to_lowercase();
        for w in words {
            assert!(!text.contains(w), "{} names '{w}'", path.display());
        }
    }
}

/// Operation Purple Raven behind the same interface: the generic solve agrees with raven's own
/// solver, and the generic exact evaluation of random play with raven's own exact engine, at
/// low stealth under both presets; at stealth 4 the layers from 2 up are copied from one
/// stepped template ([`Game::alike_from`]), and so is stealth 1, a lost point there settled
/// anew at 0 ([`Game::replayed_from`]), and the solve, and the value of every position met
/// in a few played games (the advisor's), still agree.
#[test]
fn purple_raven_on_the_interface_agrees_with_its_own_engines() {
    use raven_core::engine::generic::OptimalPolicy;
    use raven_core::engine::generic::sample::{play, stream};
    use raven_core::engine::{OptimalStrategy, Solver};
    use raven_core::game::interface::PurpleRaven;
    use raven_core::rules::Rules;
    use raven_core::strategy::{AsPolicy, RandomStrategy};
    for preset in ["main-text", "clarified"] {
        let rules = Rules::preset(preset).unwrap();
        let theirs = raven_core::engine::solve(&Solver::new(rules), &[0, 1, 4]);
        for (i, stealth) in [0u8, 1, 4].into_iter().enumerate() {
            let game = PurpleRaven { rules, stealth };
            let solved = solve(&game, Budget::UNLIMITED).unwrap();
            let expected = theirs[i].value;
            assert!(
                (solved.start() - expected).abs() < 1e-12,
                "{preset} {stealth}: {} {expected}",
                solved.start()
            );
            if stealth == 4 {
                // Play never returns to a position of its stealth: each layer, its positions
                // ordered after what they read, settles in one sweep.
                assert_eq!(solved.sweeps, 5, "{preset}");
                let table = OptimalStrategy::new();
                let optimal = OptimalPolicy::new(&solved);
                for g in 0..3 {
                    play(&game, &optimal, &mut stream(11, g), &mut |pos| {
                        let (mine, theirs) = (solved.value(pos), table.value(pos, &rules));
                        assert!((mine - theirs).abs() < 1e-12, "{pos:?}: {mine} {theirs}");
                    });
                }
                continue;
            }
            // Evaluated, a strategy is played through the decisions the game does not store;
            // its regret keeps them: the same figures either way, and the own engine's win.
            let strategies: [&dyn raven_core::strategy::Strategy; 2] =
                [&RandomStrategy, &raven_core::strategy::ReferenceStrategy];
            for strategy in strategies {
                let policy = AsPolicy(strategy);
                let mine = evaluate(&game, &policy, Budget::UNLIMITED).unwrap();
                let exact = raven_core::engine::exact(&rules, strategy, &[stealth]).expectations[0];
                let name = format!("{preset} {stealth} {}", strategy.name());
                assert!((mine.win - exact.win).abs() < 1e-12, "{name}");
                let (kept, _) = regret(&game, &policy, &solved, Budget::UNLIMITED).unwrap();
                assert!(mine.positions < kept.positions, "{name}");
                assert_same_figures(&mine, &kept, &name);
                // Every start at once, stealth 4's layers from 2 up copies of one template for
                // a strategy that reads stealth as the rules do: each as evaluated alone.
                let starts: Vec<_> = (0..=4)
                    .map(|s| PurpleRaven { rules, stealth: s }.start())
                    .collect();
                let top = PurpleRaven { rules, stealth: 4 };
                let all = evaluate_from(&top, &policy, &starts, Budget::UNLIMITED).unwrap();
                assert_eq!(
                    all[usize::from(stealth)].win.to_bits(),
                    mine.win.to_bits(),
                    "{name}"
                );
                let alone = evaluate(&top, &policy, Budget::UNLIMITED).unwrap();
                assert_eq!(all[4].win.to_bits(), alone.win.to_bits(), "{name}");
            }
        }
    }
    // Where being discovered gives an option back (a finale penalty above the penalty while
    // discovered), stealth 1 is not replayed from 2 but stepped: the solve still agrees.
    let mut rules = Rules::preset("main-text").unwrap();
    rules.design.finale_penalty = 2;
    let game = PurpleRaven { rules, stealth: 4 };
    assert_eq!(game.replayed_from(), game.alike_from());
    let theirs = raven_core::engine::solve(&Solver::new(rules), &[4])[0].value;
    let mine = solve(&game, Budget::UNLIMITED).unwrap().start();
    assert!((mine - theirs).abs() < 1e-12, "{mine} {theirs}");
}

/// Every figure of `a` as `b`'s: the win, each loss, the decisions and the rolls per game
/// (which run to 17), each to 1e-12 of its size.
fn assert_same_figures(a: &Figures, b: &Figures, name: &str) {
    for (x, y) in figure_pairs(a, b) {
        assert!((x - y).abs() < 1e-12 * y.max(1.0), "{name}: {x} {y}");
    }
}

/// Every bundled Purple Raven strategy file, evaluated from stealth 5, 3 and 1 at once by the
/// engines for any game (the layers it answers alike copies of one template, what the template
/// reads below them stepped apart), wins as often as its own exact engine says.
#[test]
fn every_bundled_strategy_agrees_with_the_own_exact_engine() {
    use raven_core::game::interface::PurpleRaven;
    use raven_core::rules::Rules;
    use raven_core::strategy::{AsPolicy, BUNDLED, resolve};
    let rules = Rules::preset("main-text").unwrap();
    let top = PurpleRaven { rules, stealth: 5 };
    let starts: Vec<_> = [5, 3, 1]
        .map(|stealth| PurpleRaven { rules, stealth }.start())
        .to_vec();
    for (name, _) in BUNDLED {
        let strategy = resolve(name).unwrap();
        let theirs = raven_core::engine::exact(&rules, strategy.as_ref(), &[5, 3, 1]);
        let mine = evaluate_from(
            &top,
            &AsPolicy(strategy.as_ref()),
            &starts,
            Budget::UNLIMITED,
        );
        for (m, t) in mine.unwrap().iter().zip(&theirs.expectations) {
            assert!((m.win - t.win).abs() < 1e-12, "{name}: {} {}", m.win, t.win);
        }
    }
}

/// A decision a strategy answers with one option, read as the position that option leads to
/// where that position is stored (a strategy's program stores no row for it), still counts as
/// a decision: every figure is that of the program that keeps every decision (the regret's).
/// Fails if such a decision is left uncounted, or read where its option leads elsewhere.
#[test]
fn a_decision_read_as_where_its_answer_leads_still_counts() {
    use raven_core::game::interface::PurpleRaven;
    use raven_core::rules::Rules;
    use raven_core::strategy::{AsPolicy, resolve};
    let rules = Rules::preset("main-text").unwrap();
    let game = PurpleRaven { rules, stealth: 5 };
    let solved = solve(&game, Budget::UNLIMITED).unwrap();
    for name in ["cautious", "reference"] {
        let strategy = resolve(name).unwrap();
        let policy = AsPolicy(strategy.as_ref());
        let f = evaluate(&game, &policy, Budget::UNLIMITED).unwrap();
        let (kept, _) = regret(&game, &policy, &solved, Budget::UNLIMITED).unwrap();
        // Sums of other orders.
        assert_same_figures(&f, &kept, name);
        assert!(f.positions < kept.positions, "{name}");
    }
}

/// R12, rolled late: a strategy that ignores the second side type until the second side
/// challenge is played with it rolled there, which stores fewer positions; played as if it read
/// it (the roll whole), every figure is the same — the win, each loss, the decisions and the
/// rolls (the late half counts as no roll of its own). Fails if the late half is rolled with
/// other odds, counted as a roll, or rolled where the rules or the strategy already read it.
#[test]
fn the_second_side_type_rolled_late_changes_no_figure() {
    use raven_core::game::interface::PurpleRaven;
    use raven_core::game::{Action, State};
    use raven_core::rules::Rules;
    use raven_core::strategy::{AsPolicy, resolve};
    /// The strategy, reading every roll whole.
    struct Whole<'a>(AsPolicy<'a>);
    impl Policy<PurpleRaven> for Whole<'_> {
        fn name(&self) -> &str {
            self.0.name()
        }
        fn weigh(&self, game: &PurpleRaven, pos: &State, options: &[Action], w: &mut [f64]) {
            self.0.weigh(game, pos, options, w)
        }
        fn view(&self, game: &PurpleRaven, pos: &State) -> State {
            self.0.view(game, pos)
        }
        fn alike_from(&self, game: &PurpleRaven) -> Option<u32> {
            self.0.alike_from(game)
        }
    }
    for preset in ["main-text", "clarified"] {
        let rules = Rules::preset(preset).unwrap();
        let game = PurpleRaven { rules, stealth: 2 };
        for name in ["reference", "reckless", "random"] {
            let strategy = resolve(name).unwrap();
            let policy = AsPolicy(strategy.as_ref());
            assert!(policy.ignores_late(&game, &game.start()), "{name}");
            let late = evaluate(&game, &policy, Budget::UNLIMITED).unwrap();
            let whole = evaluate(&game, &Whole(policy), Budget::UNLIMITED).unwrap();
            let name = format!("{preset} {name}");
            assert!(late.positions < whole.positions, "{name}");
            assert_same_figures(&late, &whole, &name);
        }
    }
}

/// A game with no decision at all: one d6, won on 4 or more. Every quality figure is defined:
/// the dice explain everything, no decision is real, the suspense is the one roll's.
#[test]
fn a_game_without_decisions_has_every_figure_defined() {
    use raven_core::engine::generic::quality::quality;
    use raven_core::games::Uniform;
    struct OneRoll;
    impl Game for OneRoll {
        type Pos = u8;
        type Option = ();
        type Key = u8;
        fn name(&self) -> &'static str {
            "one-roll"
        }
        fn kinds(&self) -> &'static [&'static str] {
            &[]
        }
        fn causes(&self) -> &'static [&'static str] {
            &["low"]
        }
        fn start(&self) -> u8 {
            0
        }
        fn point(&self, pos: &u8) -> Point {
            match pos {
                0 => Point::Chance,
                1 => Point::Over(End::Win),
                _ => Point::Over(End::Loss(0)),
            }
        }
        fn outcomes(&self, _: &u8, each: &mut impl FnMut(u8, f64)) {
            each(1, 0.5);
            each(2, 0.5);
        }
        fn options(&self, _: &u8, _: &mut impl FnMut((), u8)) {
            unreachable!()
        }
        fn layer(&self, pos: &u8) -> u32 {
            u32::from(*pos == 0)
        }
        fn key(&self, pos: &u8) -> u8 {
            *pos
        }
    }
    let solved = solve(&OneRoll, Budget::UNLIMITED).unwrap();
    let q = quality(&solved, &Uniform, Budget::UNLIMITED).unwrap();
    assert_eq!(q.figures.win, 0.5);
    assert_eq!((q.figures.decisions, q.meaningful[0]), (0.0, 0.0));
    assert_eq!(q.skill_loss, 0.0);
    assert_eq!(q.luck_share(), 1.0);
    assert_eq!(q.suspense(), 0.5);
    assert_eq!((q.comeback_rate(), q.heartbreak_rate()), (0.0, 0.0));
    assert_eq!(q.lengths(true), [0.0, 1.0]);
    assert_eq!(q.lengths(false), [1.0]);
}

/// A strategy whose play can go on for ever is refused with a message, not looped on: in a game
/// where waiting returns to the same position, "always wait" never ends, while the solve (which
/// never has to wait) and a strategy that sometimes goes on are exact.
#[test]
fn a_strategy_that_never_ends_is_refused() {
    use raven_core::engine::generic::Stop;
    /// Wait (back to the same decision) or roll a d6 once: won on 4 or more.
    struct Waiting;
    impl Game for Waiting {
        type Pos = u8;
        type Option = bool;
        type Key = u8;
        fn name(&self) -> &'static str {
            "waiting"
        }
        fn kinds(&self) -> &'static [&'static str] {
            &["wait-or-roll"]
        }
        fn causes(&self) -> &'static [&'static str] {
            &["low"]
        }
        fn start(&self) -> u8 {
            0
        }
        fn point(&self, pos: &u8) -> Point {
            match pos {
                0 => Point::Decision(0),
                1 => Point::Chance,
                2 => Point::Over(End::Win),
                _ => Point::Over(End::Loss(0)),
            }
        }
        fn outcomes(&self, _: &u8, each: &mut impl FnMut(u8, f64)) {
            each(2, 0.5);
            each(3, 0.5);
        }
        fn options(&self, _: &u8, each: &mut impl FnMut(bool, u8)) {
            each(true, 0);
            each(false, 1);
        }
        fn layer(&self, pos: &u8) -> u32 {
            u32::from(*pos <= 1) + u32::from(*pos == 0)
        }
        fn key(&self, pos: &u8) -> u8 {
            *pos
        }
    }
    struct Always(bool);
    impl Policy<Waiting> for Always {
        fn name(&self) -> &str {
            "always-wait"
        }
        fn weigh(&self, _: &Waiting, _: &u8, _: &[bool], w: &mut [f64]) {
            w[usize::from(!self.0)] = 1.0;
        }
    }
    let solved = solve(&Waiting, Budget::UNLIMITED).unwrap();
    assert_eq!(solved.start(), 0.5);
    let refused = evaluate(&Waiting, &Always(true), Budget::UNLIMITED).unwrap_err();
    assert!(matches!(refused, Stop::Endless { .. }), "{refused}");
    assert!(refused.to_string().contains("always-wait"), "{refused}");
    assert_eq!(
        evaluate(&Waiting, &Always(false), Budget::UNLIMITED)
            .unwrap()
            .win,
        0.5
    );
    // Waiting half the time ends for sure, and wins as often.
    let half = raven_core::games::Uniform;
    let f = evaluate(&Waiting, &half, Budget::UNLIMITED).unwrap();
    assert!((f.win - 0.5).abs() < 1e-15);
    assert!((f.decisions - 2.0).abs() < 1e-12);
}

/// One decision, then one check: play safe (a d6, won on 4 or more) or bold (won on a 6),
/// the decision in a stage of its own. Under a coin-flip strategy every figure of `quality`
/// follows by hand:
/// - `μ(start) = 1/2`; safe leaves it there, bold drops it to 1/6 (skill −1/3 half the time:
///   the skill loss 1/6, its variance 1/36);
/// - luck is ±1/2 after safe, +5/6 or −1/6 after bold: its variance
///   ½·¼ + ½·(⅙·25/36 + ⅚·1/36) = 7/36, so luck's share is (7/36)/(8/36) = 7/8;
/// - squared changes per game ½·¼ + ½·(1/9 + 5/36) = 1/4 over two steps: suspense √(1/8);
/// - every game is one roll and one decision, decided in the check's stage (the last
///   position before the end is never within 10 points of the result);
/// - comebacks: bold wins over all wins, (1/12)/(1/4 + 1/12) = 1/4; heartbreaks: none.
#[test]
fn one_decision_and_one_check_give_the_quality_worked_out_by_hand() {
    use raven_core::engine::generic::quality::quality;
    use raven_core::games::Uniform;
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    enum P {
        Choose,
        Check(u8),
        Over(bool),
    }
    struct SafeOrBold;
    impl Game for SafeOrBold {
        type Pos = P;
        type Option = bool;
        type Key = u8;
        fn name(&self) -> &'static str {
            "safe-or-bold"
        }
        fn kinds(&self) -> &'static [&'static str] {
            &["bold"]
        }
        fn causes(&self) -> &'static [&'static str] {
            &["low"]
        }
        fn phases(&self) -> Vec<String> {
            vec!["choice".into(), "check".into()]
        }
        fn phase(&self, pos: &P) -> u8 {
            u8::from(*pos != P::Choose)
        }
        fn start(&self) -> P {
            P::Choose
        }
        fn point(&self, pos: &P) -> Point {
            match pos {
                P::Choose => Point::Decision(0),
                P::Check(_) => Point::Chance,
                P::Over(true) => Point::Over(End::Win),
                P::Over(false) => Point::Over(End::Loss(0)),
            }
        }
        fn outcomes(&self, pos: &P, each: &mut impl FnMut(P, f64)) {
            let P::Check(least) = *pos else {
                unreachable!()
            };
            for face in 1..=6u8 {
                each(P::Over(face >= least), 1.0 / 6.0);
            }
        }
        fn options(&self, _: &P, each: &mut impl FnMut(bool, P)) {
            each(false, P::Check(4));
            each(true, P::Check(6));
        }
        fn layer(&self, pos: &P) -> u32 {
            match pos {
                P::Choose => 2,
                P::Check(_) => 1,
                P::Over(_) => 0,
            }
        }
        fn key(&self, pos: &P) -> u8 {
            match *pos {
                P::Choose => 0,
                P::Check(least) => least,
                P::Over(won) => 10 + u8::from(won),
            }
        }
    }
    let solved = solve(&SafeOrBold, Budget::UNLIMITED).unwrap();
    let q = quality(&solved, &Uniform, Budget::UNLIMITED).unwrap();
    let near = |a: f64, b: f64| (a - b).abs() < 1e-15;
    assert!(near(q.start, 0.5));
    assert!(near(q.skill_loss, 1.0 / 6.0));
    assert_eq!((q.figures.rolls, q.figures.decisions), (1.0, 1.0));
    assert_eq!(q.length_quantile(0.1), [1, 1]);
    assert_eq!(q.length_quantile(0.9), [1, 1]);
    assert!(near(q.luck_share(), 7.0 / 8.0), "{}", q.luck_share());
    assert!(near(q.suspense(), 0.125f64.sqrt()), "{}", q.suspense());
    assert!(near(q.comeback_rate(), 0.25), "{}", q.comeback_rate());
    assert_eq!(q.heartbreak_rate(), 0.0);
    let d = q.decided(2);
    assert_eq!(d.by_stage[0], [0.0, 0.0]);
    assert!(near(d.by_stage[1][0], 1.0) && near(d.by_stage[1][1], 1.0));
    assert_eq!(d.from_start, [0.0, 0.0]);
    // μ on entering the check: 50 after safe, 17 after bold; wins are bold a quarter of
    // the time, so their median is 50; every win entered it.
    let (quartiles, entered) = q.entering(1, true).unwrap();
    assert!(near(entered, q.figures.win));
    assert_eq!(quartiles[1..], [50, 50]);
    assert!(q.entering(0, true).is_some());
}

/// A level of a layer settles side by side, each value as it would be alone: a strategy's
/// figures and optimal play's values are the same bits on one thread as on four. Purple
/// Raven at stealth 6 has levels of thousands of positions, so the threads share them.
#[test]
fn figures_and_values_are_the_same_bits_on_any_number_of_threads() {
    use raven_core::game::interface::PurpleRaven;
    use raven_core::rules::Rules;
    use raven_core::strategy::{AsPolicy, resolve};
    let game = PurpleRaven {
        rules: Rules::preset("main-text").unwrap(),
        stealth: 6,
    };
    let strategy = resolve("reckless").unwrap();
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let figures = evaluate(&game, &AsPolicy(strategy.as_ref()), Budget::UNLIMITED).unwrap();
            let solved = solve(&game, Budget::UNLIMITED).unwrap();
            let values: Vec<u64> = solved.table().map(|(_, v, _)| v.to_bits()).collect();
            (figures, values)
        })
    };
    let (one, four) = (on(1), on(4));
    assert_eq!(one.0, four.0);
    assert!(one.1.len() > 10_000, "{}", one.1.len());
    assert!(one.1 == four.1, "optimal play's values differ");
}
