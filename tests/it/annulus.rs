//! The Annulus operation challenge through the engines and the command line: the solve against
//! an independent brute-force oracle, closed forms for tiny positions, the variants, symmetry,
//! Monte Carlo against exact, and bad input.

use raven_core::engine::Budget;
use raven_core::engine::generic::{Optimum, evaluate, regret, simulate, solve};
use raven_core::games::annulus::strategy::{BUNDLED, Knobs};
use raven_core::games::annulus::{Annulus, Move, Pos, Rules};
use raven_core::games::{End, Game, Point, Uniform};

use crate::common::annulus_brute::{Design, optimal_success};
use crate::common::{file, raven, refused, stdout};

fn annulus(preset: &str, changes: &[&str]) -> Annulus {
    let changes: Vec<String> = changes.iter().map(|s| s.to_string()).collect();
    Annulus::new(Rules::parse(preset, &changes).unwrap())
}

fn oracle(game: &Annulus) -> f64 {
    let r = game.rules();
    optimal_success(&Design {
        players: r.players,
        target: r.target,
        hidden_faces: r.hidden_faces,
        wrap: r.wrap,
        left_to_right: r.reveal_order == raven_core::games::annulus::RevealOrder::LeftToRight,
        action_limit: r.action_limit,
    })
}

/// The solve agrees with value iteration over explicit hidden positions (the oracle knows
/// nothing of the engine's gaps) for 1 and 2 players under both presets, the ring and the
/// left-to-right reveal.
#[test]
fn the_solve_agrees_with_the_brute_force_oracle() {
    for preset in ["normal", "advanced"] {
        for players in ["players=1", "players=2"] {
            for extra in [&[][..], &["wrap=yes"], &["reveal-order=left-to-right"]] {
                if preset == "advanced" && !extra.is_empty() {
                    continue;
                }
                let mut changes = vec![players];
                changes.extend_from_slice(extra);
                let game = annulus(preset, &changes);
                let solved = solve(&game, Budget::UNLIMITED).unwrap();
                let expected = oracle(&game);
                assert!(
                    (solved.start() - expected).abs() < 1e-9,
                    "{}: {} against the oracle's {expected}",
                    game.rules(),
                    solved.start()
                );
            }
        }
    }
}

/// The same game from another start, or without its symmetry (every position valued apart):
/// the engines value any position as a start, and the symmetry must change no value.
struct Variant {
    game: Annulus,
    start: Option<Pos>,
    symmetric: bool,
}

impl Game for Variant {
    type Pos = Pos;
    type Option = Move;
    type Key = u64;
    fn name(&self) -> &'static str {
        "annulus"
    }
    fn kinds(&self) -> &'static [&'static str] {
        self.game.kinds()
    }
    fn causes(&self) -> &'static [&'static str] {
        self.game.causes()
    }
    fn start(&self) -> Pos {
        self.start.unwrap_or_else(|| self.game.start())
    }
    fn point(&self, pos: &Pos) -> Point {
        self.game.point(pos)
    }
    fn outcomes(&self, pos: &Pos, each: &mut impl FnMut(Pos, f64)) {
        self.game.outcomes(pos, each)
    }
    fn options(&self, pos: &Pos, each: &mut impl FnMut(Move, Pos)) {
        self.game.options(pos, each)
    }
    fn layer(&self, pos: &Pos) -> u32 {
        self.game.layer(pos)
    }
    fn stored(&self, pos: &Pos) -> bool {
        self.game.stored(pos)
    }
    fn canonical(&self, pos: &Pos) -> Pos {
        if self.symmetric {
            self.game.canonical(pos)
        } else {
            *pos
        }
    }
    fn key(&self, pos: &Pos) -> u64 {
        self.game.key(pos)
    }
}

fn value_from(game: Annulus, chain: &[(u8, bool)], hidden: u8) -> f64 {
    let from = Variant {
        game,
        start: Some(game.position(chain, hidden)),
        symmetric: true,
    };
    solve(&from, Budget::UNLIMITED).unwrap().start()
}

/// A2, A4 closed forms: two dice that differ by 1 are solved; `[4][6]` is one adjustment from
/// solved (die 1 up), and a jam leaves one more chance (die 2 down): 1 − (1 − s)², s the
/// trigger's odds — 143/144 at target 2, 23/144 at target 12.
#[test]
fn tiny_positions_have_their_closed_forms() {
    let g = annulus("normal", &["hidden-faces=0"]);
    assert_eq!(
        g.point(&g.position(&[(4, false), (5, false)], 0)),
        Point::Over(End::Win)
    );
    for chain in [[(4, false), (4, false)], [(4, false), (6, false)]] {
        assert_eq!(g.point(&g.position(&chain, 0)), Point::Decision(0));
    }
    for (target, expected) in [(2, 143.0 / 144.0), (12, 23.0 / 144.0), (4, 1.0 - 0.0625)] {
        let g = annulus("normal", &[&format!("target={target}"), "hidden-faces=0"]);
        let v = value_from(g, &[(4, false), (6, false)], 0);
        assert!((v - expected).abs() < 1e-15, "target {target}: {v}");
    }
    // Jammed 4 and 6 side by side can never be joined (A5): lost at once.
    assert_eq!(
        g.point(&g.position(&[(4, true), (6, true)], 0)),
        Point::Over(End::Loss(0))
    );
}

/// Mirror images and reflections play alike: the solve with the symmetry gives every position
/// the value the solve without it does.
#[test]
fn mirror_and_reflection_images_have_equal_values() {
    for changes in [
        &["players=2"][..],
        &["players=2", "wrap=yes"],
        &["players=1", "reveal-order=left-to-right"],
    ] {
        let game = annulus("normal", changes);
        let plain = Variant {
            game,
            start: None,
            symmetric: false,
        };
        let solved = solve(&game, Budget::UNLIMITED).unwrap();
        let all = solve(&plain, Budget::UNLIMITED).unwrap();
        assert!(all.positions() > solved.positions());
        let mut checked = 0;
        for (pos, v, _) in all.table() {
            // Two programs sum the same terms in other orders: equal to the last bits but one.
            assert!((solved.value(&pos) - v).abs() < 1e-12, "{pos:?}");
            checked += 1;
        }
        assert!(checked > 1000);
    }
}

/// A4 `wrap`: the ring joins 12 and 1 and never lowers a value; A3 `reveal-order`: with nothing
/// hidden it changes nothing, with hidden dice the player learns where the next one lies.
#[test]
fn the_variants_change_what_they_should_and_nothing_else() {
    let line = annulus("normal", &["players=2"]);
    let ring = annulus("normal", &["players=2", "wrap=yes"]);
    assert_eq!(
        ring.point(&ring.position(&[(12, false), (1, false), (2, false)], 0)),
        Point::Over(End::Win)
    );
    assert_eq!(
        line.point(&line.position(&[(12, false), (1, false), (2, false)], 0)),
        Point::Decision(0)
    );
    let (l, r) = (
        solve(&line, Budget::UNLIMITED).unwrap(),
        solve(&ring, Budget::UNLIMITED).unwrap(),
    );
    assert!(r.start() > l.start());
    let bare = |order: &str| {
        solve(
            &annulus("normal", &["players=2", "hidden-faces=0", order]),
            Budget::UNLIMITED,
        )
        .unwrap()
        .start()
    };
    assert_eq!(
        bare("reveal-order=random").to_bits(),
        bare("reveal-order=left-to-right").to_bits()
    );
    let hidden = |order: &str| {
        solve(&annulus("normal", &["players=2", order]), Budget::UNLIMITED)
            .unwrap()
            .start()
    };
    assert!(hidden("reveal-order=left-to-right") > hidden("reveal-order=random"));
}

/// Optimal play is at least every strategy, at every setting; a strategy's regret by kind sums
/// to what it is behind.
#[test]
fn optimal_play_is_at_least_every_strategy() {
    for preset in ["normal", "advanced"] {
        for changes in [
            &["players=1"][..],
            &["players=2"],
            &["players=2", "wrap=yes"],
            &["players=1", "action-limit=4"],
        ] {
            let game = annulus(preset, changes);
            let solved = solve(&game, Budget::UNLIMITED).unwrap();
            let optimal = solved.figures();
            assert!((optimal.win - solved.start()).abs() < 1e-12);
            for (name, _) in BUNDLED {
                let knobs = Knobs::bundled(name).unwrap();
                let (f, r) = regret(&game, &knobs, &solved, Budget::UNLIMITED).unwrap();
                assert!(f.win <= solved.start() + 1e-12, "{name} {}", game.rules());
                let lost: f64 = r.by_kind.iter().sum();
                assert!((solved.start() - f.win - lost).abs() < 1e-9, "{name}");
            }
            let random = evaluate(&game, &Uniform, Budget::UNLIMITED).unwrap();
            assert!(random.win < solved.start());
        }
    }
}

/// Monte Carlo agrees with exact evaluation within its interval for every bundled strategy and
/// for random play (fixed seed, |z| < 4).
#[test]
fn monte_carlo_agrees_with_exact() {
    let game = annulus("normal", &["players=2"]);
    let games = 200_000;
    let mut strategies: Vec<Box<dyn raven_core::games::Policy<Annulus>>> = BUNDLED
        .iter()
        .map(|(n, _)| Box::new(Knobs::bundled(n).unwrap()) as _)
        .collect();
    strategies.push(Box::new(Uniform));
    for s in &strategies {
        let exact = evaluate(&game, s.as_ref(), Budget::UNLIMITED).unwrap();
        let tally = simulate(&game, s.as_ref(), games, 11);
        let p = exact.win;
        let z = (tally.wins as f64 - p * games as f64) / (p * (1.0 - p) * games as f64).sqrt();
        assert!(z.abs() < 4.0, "{}: z = {z}", s.name());
        let mean = tally.decisions as f64 / games as f64;
        assert!(
            (mean - exact.decisions).abs() < 0.05 * exact.decisions,
            "{}",
            s.name()
        );
    }
}

/// The same seed gives the same tally whatever the thread count.
#[test]
fn sampling_is_the_same_on_any_thread_count() {
    let game = annulus("normal", &["players=2"]);
    let knobs = Knobs::bundled("planner").unwrap();
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| simulate(&game, &knobs, 50_000, 3))
    };
    assert_eq!(run(1), run(2));
    let out = |threads: &str| {
        stdout(&[
            "--game",
            "annulus",
            "simulate",
            "--games",
            "20000",
            "--players",
            "1,2",
            "--threads",
            threads,
            "--out",
            "-",
        ])
    };
    assert_eq!(out("1"), out("2"));
}

#[test]
fn the_commands_name_the_game_in_every_row() {
    let csv = stdout(&[
        "--game",
        "annulus",
        "solve",
        "--players",
        "1,2",
        "--out",
        "-",
    ]);
    let mut lines = csv.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("game,strategy,rules,players,method")
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 8);
    assert!(rows.iter().all(|r| r.starts_with("annulus,")));
    let table = stdout(&["--game", "annulus", "decisions", "--players", "1"]);
    assert!(table.contains("adjust"), "{table}");
    let games = stdout(&["games"]);
    assert!(games.contains("annulus") && games.contains("purple-raven"));
    let narrated = stdout(&["--game", "annulus", "play", "--players", "2", "--advise"]);
    assert!(narrated.contains("<- planner"), "{narrated}");
    let optimal = stdout(&["--game", "annulus", "play", "--strategy", "optimal"]);
    assert!(optimal.contains("1 player, 3 dice"), "{optimal}");
    assert!(
        narrated.contains("Setup:") && narrated.contains("advice"),
        "{narrated}"
    );
    assert!(narrated.contains("SUCCESS") || narrated.contains("FAILURE"));
}

#[test]
fn the_interactive_player_reads_moves() {
    let output = raven()
        .args([
            "--game",
            "annulus",
            "play",
            "--interactive",
            "--players",
            "1",
            "--rule",
            "hidden-faces=0",
        ])
        .write_stdin("?\n9-\n2\u{2212}\n1+\nq\n")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("advice"), "{text}");
    assert!(text.contains("not a legal move"), "{text}");
}

/// `tune` evaluates every file of the knob grid exactly: the file it writes is the grid's
/// best by mean success (recomputed here file by file), read back it plays that mean, and
/// optimal play's mean is stated beside it, never below.
#[test]
fn tune_writes_the_best_file_of_the_grid() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tuned.toml");
    let printed = stdout(&[
        "--game",
        "annulus",
        "tune",
        "--players",
        "1,2",
        "--rules",
        "advanced",
        "--out",
        out.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    let figure = |after: &str| -> f64 {
        let at = text.find(after).unwrap() + after.len();
        text[at..]
            .split([' ', ')', '\n'])
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let (claimed, optimal) = (figure("success "), figure("(optimal play "));
    let games = [1, 2].map(|p| annulus("advanced", &[&format!("players={p}")]));
    let mean = |knobs: &Knobs| {
        games
            .iter()
            .map(|g| evaluate(g, knobs, Budget::UNLIMITED).unwrap().win)
            .sum::<f64>()
            / 2.0
    };
    let best = Knobs::grid().iter().map(mean).fold(f64::MIN, f64::max);
    assert!((claimed - best).abs() < 1e-11, "{claimed} {best}");
    let written = Knobs::parse("tuned", &text).unwrap();
    assert_eq!(written.name, "tuned");
    assert!((mean(&written) - claimed).abs() < 1e-11);
    let solved = games
        .iter()
        .map(|g| solve(g, Budget::UNLIMITED).unwrap().start())
        .sum::<f64>()
        / 2.0;
    assert!((optimal - solved).abs() < 1e-11 && claimed <= optimal);
    assert!(
        printed.contains("best") && printed.contains("below optimal"),
        "{printed}"
    );
}

/// A challenge ends with its ledger: from optimal play's success probability to the result,
/// the printed sum checking; optimal play gives up nothing.
#[test]
fn a_challenge_ends_with_its_ledger() {
    let game = annulus("normal", &["players=2"]);
    let start = solve(&game, Budget::UNLIMITED).unwrap().start();
    for strategy in ["naive", "optimal"] {
        for seed in 1..=3u64 {
            let text = stdout(&[
                "--game",
                "annulus",
                "play",
                "--players",
                "2",
                "--strategy",
                strategy,
                "--seed",
                &seed.to_string(),
            ]);
            let [at_start, luck, decisions, result] = crate::common::ledger_figures(&text);
            assert_eq!(at_start, (1000.0 * start).round() / 10.0, "{text}");
            let won = text.lines().last().unwrap().starts_with("SUCCESS");
            assert_eq!(result, if won { 100.0 } else { 0.0 }, "{text}");
            assert_eq!(
                (10.0 * (at_start + luck + decisions)).round(),
                10.0 * result
            );
            assert!(decisions <= 0.0, "{text}");
            if strategy == "optimal" {
                assert!(text.contains("no decision gave up anything"), "{text}");
            }
        }
    }
}

/// Bad input: each a clear message, exit 2, nothing written.
#[test]
fn bad_input_is_refused_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv");
    let out = out.to_str().unwrap();
    for (args, says) in [
        (
            vec!["--game", "nosuch", "simulate"],
            "unknown game 'nosuch'",
        ),
        (
            vec!["--game", "annulus", "exact", "--players", "9"],
            "1..=4",
        ),
        (
            vec!["--game", "annulus", "exact", "--rule", "target=13"],
            "target",
        ),
        (
            vec!["--game", "annulus", "exact", "--rule", "stealth-faces=2"],
            "not an Annulus rule",
        ),
        (
            vec!["--game", "annulus", "exact", "--stealth", "8"],
            "no stealth",
        ),
        (
            vec!["exact", "--rule", "target=4"],
            "unknown rule key 'target'",
        ),
        (
            vec!["--game", "annulus", "exact", "--strategy", "duo"],
            "unknown Annulus strategy",
        ),
        (
            vec!["--game", "annulus", "sweep"],
            "not a command for the Annulus",
        ),
    ] {
        let mut args = args.clone();
        if args.contains(&"exact") {
            args.extend(["--out", out]);
        }
        let message = refused(&args);
        assert!(message.contains(says), "{args:?}: {message}");
        assert!(!std::path::Path::new(out).exists());
    }
    // A strategy file of one game given to the other.
    let (_d, raven_file) = file("duo.toml", include_str!("../../strategies/duo.toml"));
    let message = refused(&[
        "--game",
        "annulus",
        "exact",
        "--strategy",
        raven_file.to_str().unwrap(),
    ]);
    assert!(
        message.contains("not an Annulus strategy file"),
        "{message}"
    );
    let (_e, annulus_file) = file("mine.toml", BUNDLED[1].1);
    let message = refused(&["exact", "--strategy", annulus_file.to_str().unwrap()]);
    assert!(message.contains("annulus"), "{message}");
}

#[test]
fn strategies_lists_and_checks_the_bundled_files() {
    let list = stdout(&["--game", "annulus", "strategies"]);
    for (name, _) in BUNDLED {
        assert!(list.contains(name), "{list}");
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("strategies/annulus");
    let mut args = vec![
        "--game".to_string(),
        "annulus".into(),
        "strategies".into(),
        "check".into(),
    ];
    for entry in std::fs::read_dir(dir).unwrap() {
        args.push(entry.unwrap().path().display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(stdout(&args).matches(": ok").count(), BUNDLED.len());
    let (_d, bad) = file(
        "bad.toml",
        "game = \"annulus\"\nname = \"x\"\naim = \"sideways\"\n",
    );
    let message = refused(&[
        "--game",
        "annulus",
        "strategies",
        "check",
        bad.to_str().unwrap(),
    ]);
    assert!(message.contains("bad.toml:3:"), "{message}");
}

/// Every figure docs/annulus.md states is what `solve` prints now.
#[test]
fn the_documented_figures_are_the_solved_ones() {
    let doc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/annulus.md"),
    )
    .unwrap();
    let section = doc.split("## Figures").nth(1).expect("a Figures section");
    let mut checked = 0;
    for line in section
        .lines()
        .filter(|l| l.starts_with("| normal") || l.starts_with("| advanced"))
    {
        let cells: Vec<&str> = line
            .split('|')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect();
        let game = annulus(cells[0], &[&format!("players={}", cells[1])]);
        let solved = solve(&game, Budget::UNLIMITED).unwrap();
        let percent = |p: f64| format!("{:.1}%", 100.0 * p);
        assert_eq!(cells[2], percent(solved.start()), "{line}");
        for (cell, name) in cells[3..].iter().zip(["planner", "naive"]) {
            let f = evaluate(&game, &Knobs::bundled(name).unwrap(), Budget::UNLIMITED).unwrap();
            assert_eq!(*cell, percent(f.win), "{line}: {name}");
        }
        checked += 1;
    }
    assert_eq!(checked, 6);
}

#[test]
fn explore_and_report_run_for_annulus() {
    let table = stdout(&[
        "--game",
        "annulus",
        "explore",
        "--param",
        "target=3..5",
        "--players",
        "1",
        "--band",
        "40..60",
    ]);
    assert!(
        table.contains("optimal between 40% and 60%: target=4 with 1 player (47.1%)\n"),
        "{table}"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("annulus");
    stdout(&[
        "--game",
        "annulus",
        "report",
        "--players",
        "1",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let readme = std::fs::read_to_string(out.join("README.md")).unwrap();
    assert!(readme.contains("| optimal | 47.1% |"), "{readme}");
    assert!(
        readme.contains("a tie of planner and closest-first"),
        "{readme}"
    );
    for chart in ["success-normal.svg", "success-advanced.svg"] {
        let svg = std::fs::read_to_string(out.join(chart)).unwrap();
        crate::common::assert_chart_renders(chart, &svg);
    }
    let levers = std::fs::read_to_string(out.join("levers.csv")).unwrap();
    assert!(
        levers
            .lines()
            .next()
            .unwrap()
            .starts_with("game,difficulty,players,key,value")
    );
    report_is_a_good_game(&out, dir.path());
}

/// The Annulus report's "Is it a good game?": its quality files are `raven --game annulus
/// quality`'s for the bundled strategies and optimal play (the normal operation, one player,
/// the report's games and seed), the same on one thread; every row of its tables holds the
/// CSV's numbers, and the sentence on when the challenge is decided names the stage of the
/// largest share of optimal play's failures and successes.
fn report_is_a_good_game(out: &std::path::Path, temp: &std::path::Path) {
    let records = |path: std::path::PathBuf| -> Vec<std::collections::HashMap<String, String>> {
        let mut reader = csv::Reader::from_path(path).unwrap();
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        reader
            .records()
            .map(|r| {
                header
                    .iter()
                    .cloned()
                    .zip(r.unwrap().iter().map(String::from))
                    .collect()
            })
            .collect()
    };
    let names: Vec<&str> = std::iter::once("optimal")
        .chain(BUNDLED.iter().map(|(n, _)| *n))
        .collect();
    let alone = temp.join("q.csv");
    let decided_alone = temp.join("d.csv");
    stdout(&[
        "--game",
        "annulus",
        "quality",
        "--players",
        "1",
        "--strategy",
        &names.join(","),
        "--out",
        alone.to_str().unwrap(),
        "--decided",
        decided_alone.to_str().unwrap(),
    ]);
    let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap();
    let (q, d) = (
        read(&out.join("quality.csv")),
        read(&out.join("quality-decided.csv")),
    );
    // The normal operation's rows come first and are the command's, byte for byte.
    let alone = read(&alone);
    assert!(q.starts_with(&alone), "{q}\n{alone}");
    assert!(d.starts_with(&read(&decided_alone)));
    assert_eq!(q.lines().count(), 1 + 2 * names.len(), "both operations");
    // The same on one thread.
    let one = temp.join("one-thread");
    stdout(&[
        "--game",
        "annulus",
        "report",
        "--players",
        "1",
        "--threads",
        "1",
        "--quiet",
        "--out",
        one.to_str().unwrap(),
    ]);
    for file in ["quality.csv", "quality-decided.csv", "README.md"] {
        assert_eq!(read(&one.join(file)), read(&out.join(file)), "{file}");
    }
    let readme = read(&out.join("README.md"));
    let said = &readme[readme.find("## Is it a good game?").expect("the section")..];
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let num =
        |r: &std::collections::HashMap<String, String>, k: &str| -> f64 { r[k].parse().unwrap() };
    for r in records(out.join("quality.csv")) {
        let line = format!(
            "| {} | {} | {} | {:.2} | {} | {:.1} | {} | {} | {:.2} | {:.2} | {} ({}–{}) |",
            r["strategy"],
            r["players"],
            pct(num(&r, "win_rate")),
            100.0 * num(&r, "skill_loss"),
            pct(num(&r, "luck_share")),
            100.0 * num(&r, "suspense"),
            pct(num(&r, "comeback_rate")),
            pct(num(&r, "heartbreak_rate")),
            num(&r, "mean_decisions"),
            num(&r, "mean_rolls"),
            r["rolls_median"],
            r["rolls_p10"],
            r["rolls_p90"],
        );
        assert!(said.contains(&line), "{line}\nnot in\n{said}");
    }
    let decided = records(out.join("quality-decided.csv"));
    let sentences: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("**When the challenge is decided**"))
        .collect();
    assert_eq!(sentences.len(), 2, "one per operation");
    let rules: Vec<String> = {
        let mut r: Vec<String> = decided.iter().map(|r| r["rules"].clone()).collect();
        r.dedup();
        r
    };
    for (sentence, rules) in sentences.iter().zip(&rules) {
        for (result, plural) in [("loss", "failures"), ("win", "successes")] {
            let these: Vec<_> = decided
                .iter()
                .filter(|r| r["rules"] == *rules && r["strategy"] == "optimal")
                .filter(|r| r["result"] == result)
                .collect();
            let best = these.iter().map(|r| num(r, "share")).fold(0.0, f64::max);
            let top: Vec<&str> = these
                .iter()
                .filter(|r| {
                    format!("{:.0}", 100.0 * num(r, "share")) == format!("{:.0}", 100.0 * best)
                })
                .map(|r| r["stage"].as_str())
                .collect();
            let stage = match top[0] {
                "start" => "from the start".to_string(),
                "set-up" => "at set-up".to_string(),
                other => format!("with {other}"),
            };
            let clause = if top.len() == 1 {
                format!("{:.0}% of {plural} are decided {stage}", 100.0 * best)
            } else {
                format!("{plural} are decided {stage} as often as")
            };
            assert!(sentence.contains(&clause), "{clause}\nnot in\n{sentence}");
        }
    }
}

/// A7: knacks and training abilities are not modelled, and the help says so where a user looks
/// for them, with what stands in for training.
#[test]
fn a7_the_help_says_knacks_are_not_modelled() {
    let help = stdout(&["--game", "annulus", "solve", "--help"]);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("Knacks") && help.contains("not modelled"),
        "{help}"
    );
    assert!(
        help.contains("lower target stands in for training"),
        "{help}"
    );
}

/// The committed report (`reports/annulus/`) holds the values the engines give now.
#[test]
fn the_committed_annulus_report_is_current() {
    let csv = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reports/annulus/success.csv"),
    )
    .unwrap();
    let mut checked = 0;
    for line in csv.lines().skip(1).filter(|l| l.contains(",optimal,")) {
        let cells: Vec<&str> = line.split(',').collect();
        let game = annulus(cells[2], &[&format!("players={}", cells[3])]);
        let solved = solve(&game, Budget::UNLIMITED).unwrap();
        let written: f64 = cells[5].parse().unwrap();
        assert_eq!(written, raven_core::rows::rounded(solved.start()), "{line}");
        checked += 1;
    }
    assert_eq!(checked, 6);
}

/// Luck and skill: game by game `μ(start) + luck + skill = result`; the sampled skill losses
/// average to the exact regret within their interval; optimal play loses nothing to decisions;
/// at every chance point `μ`'s probability-weighted change is 0; the same figures on any thread
/// count.
#[test]
fn quality_identities_hold() {
    use crate::common::{SAMPLED, agrees_with_sampled_games};
    use raven_core::engine::generic::OptimalPolicy;
    use raven_core::engine::generic::ledger::Ledger;
    use raven_core::engine::generic::quality::{Sampled, course, quality};
    use raven_core::engine::generic::sample::{play, stream};
    let game = annulus("normal", &["players=2"]);
    let solved = solve(&game, Budget::UNLIMITED).unwrap();
    let planner = Knobs::bundled("naive").unwrap();
    for i in 0..2000 {
        let c = course(&solved, &planner, &mut stream(5, i));
        let result = f64::from(u8::from(c.won));
        assert!(
            (solved.start() + c.luck + c.skill - result).abs() < 1e-12,
            "game {i}"
        );
        assert!(c.skill <= 1e-12);
    }
    for (pos, v, decision) in solved.table() {
        if !decision {
            let mut sum = 0.0;
            game.outcomes(&pos, &mut |next, p| sum += p * solved.value(&next));
            assert!((sum - v).abs() < 1e-12, "{pos:?}");
        }
    }
    // Play returns to positions here: the exact figures settle its cycles, and games played
    // one by one agree with them.
    let q = quality(&solved, &planner, Budget::UNLIMITED).unwrap();
    assert!(q.luck_share() < 1.0 && q.luck_share() > 0.5);
    let sampled = Sampled::gather(SAMPLED, |i| course(&solved, &planner, &mut stream(9, i)));
    agrees_with_sampled_games(&q, &sampled, "naive");
    let optimal = OptimalPolicy::new(&solved);
    let best = quality(&solved, &optimal, Budget::UNLIMITED).unwrap();
    assert!(best.skill_loss.abs() < 1e-12);
    assert_eq!(best.games.skill, [0.0, 0.0]);
    assert_eq!(best.luck_share(), 1.0);
    let sampled = Sampled::gather(SAMPLED, |i| course(&solved, &optimal, &mut stream(9, i)));
    agrees_with_sampled_games(&best, &sampled, "optimal");
    let out = |threads: &str| {
        stdout(&[
            "--game",
            "annulus",
            "quality",
            "--players",
            "1",
            "--threads",
            threads,
            "--out",
            "-",
        ])
    };
    // One game's ledger reads the same changes of `μ` as its course.
    for i in 0..200 {
        let mut ledger = Ledger::new(solved.start());
        let mut last: Option<Pos> = None;
        play(&game, &planner, &mut stream(5, i), &mut |pos: &Pos| {
            if let Some(last) = last {
                ledger.record(game.point(&last) == Point::Chance, solved.value(pos));
            }
            last = Some(*pos);
        });
        let c = course(&solved, &planner, &mut stream(5, i));
        assert_eq!(
            (ledger.luck(), ledger.skill()),
            (c.luck, c.skill),
            "game {i}"
        );
        assert_eq!(ledger.now(), f64::from(u8::from(c.won)));
    }
    let csv = out("1");
    assert_eq!(csv, out("2"));
    assert!(csv.starts_with("game,strategy,rules,players,win_rate,skill_loss,luck_share,suspense"));
}

/// An Annulus file with these rules of thumb on the planner's knobs.
fn with_rules(rules: &[&str]) -> String {
    let listed: Vec<String> = rules.iter().map(|r| format!("  \"{r}\",\n")).collect();
    format!(
        "game = \"annulus\"\nname = \"ruled\"\naim = \"nearest-solved\"\norder = \"furthest\"\n\
         [rules]\nadjust = [\n{}]\n",
        listed.concat()
    )
}

/// Rules of thumb play where they hold and nowhere else: a rule that always holds plays as its
/// play's knobs do, one that never holds leaves the knobs, one that holds sometimes is
/// neither.
#[test]
fn annulus_rules_of_thumb_play_where_they_hold() {
    let game = annulus("normal", &["players=2"]);
    let win = |k: &Knobs| evaluate(&game, k, Budget::UNLIMITED).unwrap().win;
    let parse = |rules: &[&str]| Knobs::parse("t.toml", &with_rules(rules)).unwrap();
    let planner = Knobs::bundled("planner").unwrap();
    let naive = Knobs::bundled("naive").unwrap();
    assert_eq!(win(&parse(&["-> first-conflict"])), win(&naive));
    // Four positions on the line: never five hidden.
    assert_eq!(
        win(&parse(&["when hidden = 5..6 -> first-conflict"])),
        win(&planner)
    );
    let some = win(&parse(&["when hidden >= 1 -> first-conflict"]));
    assert!(some != win(&planner) && some != win(&naive), "{some}");
    // The first rule that holds decides.
    assert_eq!(
        win(&parse(&["-> first-conflict", "-> nearest-solved closest"])),
        win(&naive)
    );
}

/// The card the search writes reads back, evaluated exactly, as the values it printed; the
/// page to print holds its rules; bad rules are refused with their line and column; a rule an
/// earlier one shadows is warned of with both lines.
#[test]
fn the_annulus_card_reads_back_as_claimed() {
    let (dir, _) = file("unused", "");
    let (out, page) = (dir.path().join("card.toml"), dir.path().join("card.html"));
    let (out_s, page_s) = (out.display().to_string(), page.display().to_string());
    let printed = stdout(&[
        "--game",
        "annulus",
        "card",
        "--players",
        "1",
        "--rules",
        "advanced",
        "--max-rules",
        "3",
        "--out",
        &out_s,
        "--page",
        &page_s,
        "-q",
    ]);
    let claimed: f64 = printed
        .lines()
        .find_map(|l| l.strip_prefix("card, players  1: P(win) = "))
        .expect(&printed)
        .parse()
        .unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let knobs = Knobs::parse("card.toml", &text).unwrap();
    assert!(
        text.contains(&format!("# rules: {}\n", knobs.card.len())),
        "{text}"
    );
    let game = annulus("advanced", &["players=1"]);
    let exact = evaluate(&game, &knobs, Budget::UNLIMITED).unwrap().win;
    assert!((exact - claimed).abs() < 1e-12, "{exact} against {claimed}");
    let optimal = solve(&game, Budget::UNLIMITED).unwrap().start();
    assert!(exact <= optimal + 1e-12);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<li>").count(), knobs.card.len(), "{html}");
    assert!(html.contains("players 1"), "{html}");

    let (_d, bad) = file(
        "bad.toml",
        &with_rules(&["when colour = 2 -> first-conflict"]),
    );
    let message = refused(&[
        "--game",
        "annulus",
        "strategies",
        "check",
        bad.to_str().unwrap(),
    ]);
    assert!(
        message.contains("bad.toml:7:9: unknown fact `colour`"),
        "{message}"
    );
    let (_d, shadowed) = file(
        "shadowed.toml",
        &with_rules(&[
            "when hidden <= 2 -> first-conflict",
            "when hidden = 1 -> nearest-solved closest",
        ]),
    );
    raven()
        .args(["--game", "annulus", "strategies", "check"])
        .arg(&shadowed)
        .assert()
        .success()
        .stderr(predicates::str::contains(
            "shadowed.toml:8: warning: this adjust rule can never decide: the rule on line 7",
        ));
}

/// Where challenges are decided, by each design's own stages: with 1 and 2 players (three and
/// four positions) the shares of each result sum to 1, and the stages are those of the line.
#[test]
fn annulus_decided_shares_use_each_designs_stages() {
    let (dir, _) = file("unused", "");
    let out = dir.path().join("decided.csv");
    let out_s = out.display().to_string();
    stdout(&[
        "--game",
        "annulus",
        "quality",
        "--players",
        "1,2",
        "--strategy",
        "planner",
        "--decided",
        &out_s,
        "-q",
    ]);
    let text = std::fs::read_to_string(&out).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let mut sums = std::collections::BTreeMap::new();
    let mut stages = std::collections::BTreeMap::<String, Vec<String>>::new();
    for row in reader.records() {
        let row = row.unwrap();
        let key = (
            row[col("players")].to_string(),
            row[col("result")].to_string(),
        );
        *sums.entry(key).or_insert(0.0) += row[col("share")].parse::<f64>().unwrap();
        stages
            .entry(row[col("players")].to_string())
            .or_default()
            .push(row[col("stage")].to_string());
    }
    assert_eq!(sums.len(), 4);
    for (key, sum) in sums {
        assert!((sum - 1.0).abs() < 1e-9, "{key:?}: {sum}");
    }
    assert!(stages["2"].contains(&"4 hidden".to_string()));
    assert!(!stages["1"].contains(&"4 hidden".to_string()));
}
