//! The regret decomposition (`raven::engine::decisions`): exact, by the performance-difference
//! identity, so its parts must add up to optimal − exact, and a strategy that departs from
//! optimal play at one kind of decision only must lose all its points there.

use std::ffi::OsStr;

use rayon::prelude::*;

use raven::engine::OptimalStrategy;
use raven::engine::decisions::TOP;
use raven::engine::{
    Budget, DecisionKind, Decisions, Engine, Halt, Solved, Solver, Terms, TooLarge, decisions,
    decisions_of_each,
};
use raven::game::{Action, Decision, State};
use raven::rules::{CLARIFIED, MAIN_TEXT, Rules};
use raven::strategy::{BUNDLED, Choice, Sight, Strategy, resolve};

/// Optimal play's values under each of `at` (rules and stealths), solved side by side: the
/// decompositions of one test that share rules and stealths share a solve, as `raven
/// decisions` shares it between the strategies it is given (a solve is most of the work of
/// decomposing a small strategy).
fn solved(at: &[(Rules, &[u8])]) -> Vec<Solved> {
    at.par_iter()
        .map(|(rules, stealths)| Solved::new(rules, stealths, &Budget::UNLIMITED).expect("solved"))
        .collect()
}

/// Several strategies with one solve, side by side with their own parts
/// ([`decisions_of_each`]): a solve that needs more positions than the budget allows stops the
/// run with its own limit — not a strategy's share of it, nor the cancellation it sends the
/// strategies' parts, which cannot be decomposed without it.
#[test]
fn several_strategies_stop_with_the_solve_that_ran_out() {
    let strategies = ["reference", "duo"].map(|name| resolve(name).expect("bundled"));
    let each: Vec<&dyn Strategy> = strategies.iter().map(|s| s.as_ref()).collect();
    let budget = Budget {
        max_states: 1000,
        cancel: &[],
    };
    let result = decisions_of_each(&MAIN_TEXT, &each, &[8, 10], budget);
    assert!(
        matches!(result, Err(Halt::TooLarge(TooLarge { limit: 1000 }))),
        "{:?}",
        result.map(|r| r.len())
    );
}

/// Every bundled strategy and `random`: the regret by kind sums to optimal − exact (1e-9),
/// and no kind has negative regret (no choice beats the optimal one). Both presets from the
/// start discovered (stealth 0), and the reference and random strategies at stealth 2.
#[test]
fn decomposition_sums_to_optimal_minus_exact() {
    let mut names: Vec<&str> = BUNDLED.iter().map(|(name, _)| *name).collect();
    names.push("random");
    let mut cases: Vec<(Rules, u8, &str)> = Vec::new();
    for name in &names {
        cases.push((MAIN_TEXT, 0, name));
        cases.push((CLARIFIED, 0, name));
    }
    for name in ["reference", "random"] {
        cases.push((MAIN_TEXT, 2, name));
    }
    let at: [(Rules, &[u8]); 3] = [(MAIN_TEXT, &[0]), (CLARIFIED, &[0]), (MAIN_TEXT, &[2])];
    let solves = solved(&at);
    cases.par_iter().for_each(|&(rules, stealth, name)| {
        let strategy = resolve(name).expect("a bundled strategy");
        // Every term (and the position-by-position check) for the reference and random only:
        // the sum by kind is the same computation for every strategy, and every term of each
        // bundled file costs the suite minutes.
        let every = matches!(name, "reference" | "random");
        let terms = if every {
            Terms::Every
        } else {
            Terms::Costliest
        };
        let solved = at
            .iter()
            .position(|(r, s)| *r == rules && *s == [stealth])
            .map(|i| &solves[i])
            .expect("solved for the case");
        let result = solved
            .decisions_by(strategy.as_ref(), Budget::UNLIMITED, terms, Engine::Layers)
            .expect("no budget");
        let d = &result[0];
        let regret = d.optimal - d.exact;
        assert!(
            (d.by_kind.total_regret() - regret).abs() < 1e-9,
            "{name} at {stealth}: parts {} against optimal − exact {regret}",
            d.by_kind.total_regret()
        );
        for k in DecisionKind::ALL {
            let i = k as usize;
            assert!(
                d.by_kind.regret[i] > -1e-12,
                "{name}: {k:?} {}",
                d.by_kind.regret[i]
            );
            assert!(d.by_kind.matters[i] <= d.by_kind.arises[i] + 1e-12);
        }
        if every {
            positions_reproduce_the_decomposition(name, d);
        }
    });
}

/// The two engines agree: the reverse pass over the strategy's layered program and the walk
/// give the same regret, arises and matters by kind (1e-9), the layers' parts add up to
/// optimal − exact, and the layers list positions at least as costly as the walk's. Strategies of both layerings:
/// the rules' own classes with stealth 1 read from the top program (the bundled strategies
/// that never read stealth), and one that reads stealth up to 3 and 4 (a class of its own per
/// stealth below 4, the top one replayed above it); starts in a lower class, at the lowest
/// stealth of the top program and above it; both presets.
#[test]
fn layers_and_walk_agree() {
    let floors: Box<dyn Strategy> = Box::new(
        raven::strategy::FileStrategy::parse(
            "floors",
            "test",
            "[recruit]\nstealth_floor = 3\n[side]\nstealth_floor = 4\n",
        )
        .expect("a valid strategy"),
    );
    let mut cases: Vec<(Rules, Box<dyn Strategy>, Vec<u8>)> = Vec::new();
    for rules in [MAIN_TEXT, CLARIFIED] {
        for name in ["reference", "duo", "lone-wolf", "no-first-aid"] {
            let strategy = resolve(name).expect("a bundled strategy");
            cases.push((rules, strategy, vec![0, 2, 5]));
        }
    }
    cases.push((MAIN_TEXT, floors, vec![0, 3, 4, 6]));
    // One solve per rules and stealths for each engine: the two engines are checked against
    // each other, so neither reads values the other's decompositions kept.
    let at: [(Rules, &[u8]); 3] = [
        (MAIN_TEXT, &[0, 2, 5]),
        (CLARIFIED, &[0, 2, 5]),
        (MAIN_TEXT, &[0, 3, 4, 6]),
    ];
    let (for_layers, for_walk) = rayon::join(|| solved(&at), || solved(&at));
    cases.par_iter().for_each(|(rules, strategy, stealths)| {
        let name = strategy.name();
        let i = at
            .iter()
            .position(|(r, s)| r == rules && s == stealths)
            .expect("solved for the case");
        let by = |engine| {
            let solved = match engine {
                Engine::Layers => &for_layers[i],
                Engine::Walk => &for_walk[i],
            };
            solved
                .decisions_by(
                    strategy.as_ref(),
                    Budget::UNLIMITED,
                    Terms::Costliest,
                    engine,
                )
                .expect("no budget")
        };
        let (layers, walk) = rayon::join(|| by(Engine::Layers), || by(Engine::Walk));
        for (l, w) in layers.iter().zip(&walk) {
            let at = format!("{name} at {} ({:?})", l.stealth, rules.preset_name());
            assert_eq!(l.optimal, w.optimal, "{at}");
            // The layers sum the games won in their reverse pass, the walk evaluates the
            // strategy: the same probability, added up in another order.
            assert!(
                (l.exact - w.exact).abs() < 1e-12,
                "{at}: exact {} against {}",
                l.exact,
                w.exact
            );
            assert!(
                (l.by_kind.total_regret() - (l.optimal - l.exact)).abs() < 1e-9,
                "{at}: parts {} against optimal − exact {}",
                l.by_kind.total_regret(),
                l.optimal - l.exact
            );
            for k in DecisionKind::ALL {
                let i = k as usize;
                for (what, a, b) in [
                    ("regret", l.by_kind.regret[i], w.by_kind.regret[i]),
                    ("arises", l.by_kind.arises[i], w.by_kind.arises[i]),
                    ("matters", l.by_kind.matters[i], w.by_kind.matters[i]),
                ] {
                    assert!((a - b).abs() < 1e-9, "{at}: {k:?} {what} {a} against {b}");
                }
            }
            // The layers gather a position's probability over every way in; the walk lists
            // a decision compiled into several positions once per way in. So the layers'
            // list is at least as costly, rank by rank, and lists at least as many.
            assert!(l.top.len() >= w.top.len(), "{at}");
            for (a, b) in l.top.iter().zip(&w.top) {
                assert!(
                    a.regret() >= b.regret() - 1e-12,
                    "{at}: {a:?} against {b:?}"
                );
            }
            for c in &l.top {
                assert!(
                    c.regret() > 0.0 && c.reach > 0.0 && c.reach <= 1.0 + 1e-12,
                    "{at}"
                );
                assert!(
                    c.regret() <= l.by_kind.regret[c.kind() as usize] + 1e-12,
                    "{at}"
                );
            }
            // A position both list (the same up to counters no one reads) costs as much in
            // the layers as on each of the walk's ways in.
            for b in &w.top {
                let same = |a: &&raven::engine::decisions::Costly| {
                    (a.state.with_counters(0, 0), a.choice)
                        == (b.state.with_counters(0, 0), b.choice)
                };
                if let Some(a) = l.top.iter().find(same) {
                    assert!(
                        a.regret() >= b.regret() - 1e-12,
                        "{at}: {a:?} against {b:?}"
                    );
                    assert_eq!(
                        (a.best_value, a.chosen_value),
                        (b.best_value, b.chosen_value)
                    );
                }
            }
        }
    });
}

/// The walk with every term computed, checked against the walk valuing only the positions
/// that may make the list: the same figures, the same costliest positions.
fn every_term(solved: &Solved, strategy: &dyn Strategy) -> Vec<Decisions> {
    // The walk's forward pass (the layers sum their terms position by position already).
    let walk = |terms| {
        solved
            .decisions_by(strategy, Budget::UNLIMITED, terms, Engine::Walk)
            .expect("no budget")
    };
    let every = walk(Terms::Every);
    let listed = walk(Terms::Costliest);
    for (e, l) in every.iter().zip(&listed) {
        assert_eq!(e.by_kind, l.by_kind);
        assert_eq!(e.top, l.top, "{} at {}", strategy.name(), e.stealth);
        assert!(l.by_position.is_none());
    }
    every
}

/// The forward pass's terms, position by position, add up to the walk's regret kind by kind
/// (1e-9); the listed positions are the costliest first, each a term of its kind (no larger
/// than the kind's total), reached with a probability in (0, 1].
fn positions_reproduce_the_decomposition(name: &str, d: &Decisions) {
    let by_position = d.by_position.expect("every term computed");
    for k in DecisionKind::ALL {
        let i = k as usize;
        assert!(
            (by_position[i] - d.by_kind.regret[i]).abs() < 1e-9,
            "{name} at {}: {k:?} by position {} against the walk's {}",
            d.stealth,
            by_position[i],
            d.by_kind.regret[i]
        );
    }
    assert!(d.top.len() <= TOP);
    for pair in d.top.windows(2) {
        assert!(
            pair[0].regret() >= pair[1].regret(),
            "{name}: costliest first"
        );
    }
    for c in &d.top {
        assert!(c.regret() > 0.0 && c.reach > 0.0 && c.reach <= 1.0 + 1e-12);
        assert!(
            c.regret() <= d.by_kind.regret[c.kind() as usize] + 1e-12,
            "{name} at {}: a {:?} position costs {} of its kind's {}",
            d.stealth,
            c.kind(),
            c.regret(),
            d.by_kind.regret[c.kind() as usize]
        );
    }
}

/// The same at higher stealths, where memoised positions are met along many paths and the
/// forward pass must gather their probability before expanding them: the reference strategy
/// and random play, both presets, stealths listed out of order in one run (one memo).
#[test]
fn positions_add_up_to_the_decomposition_at_higher_stealth() {
    let cases: Vec<(Rules, &str)> = [MAIN_TEXT, CLARIFIED]
        .into_iter()
        .flat_map(|rules| ["reference", "random"].map(move |name| (rules, name)))
        .collect();
    let at: [(Rules, &[u8]); 2] = [(MAIN_TEXT, &[4, 3]), (CLARIFIED, &[4, 3])];
    let solves = solved(&at);
    cases.par_iter().for_each(|&(rules, name)| {
        let strategy = resolve(name).expect("a built-in strategy");
        let solved = &solves[usize::from(rules != MAIN_TEXT)];
        let result = every_term(solved, strategy.as_ref());
        for d in &result {
            assert!(((d.optimal - d.exact) - d.by_kind.total_regret()).abs() < 1e-9);
            positions_reproduce_the_decomposition(name, d);
            assert!(!d.top.is_empty(), "{name} loses points somewhere");
        }
    });
}

/// Optimal play, except that first aid is always skipped.
struct NoAidOptimal<'a>(&'a OptimalStrategy);

impl Strategy for NoAidOptimal<'_> {
    fn name(&self) -> &str {
        "optimal-without-first-aid"
    }
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        match decision {
            Decision::FirstAid => Choice::Act(Action::SkipAid),
            _ => self.0.decide(state, rules, decision),
        }
    }
    fn sight(&self, state: &State, rules: &Rules) -> Sight {
        self.0.sight(state, rules)
    }
}

/// A strategy that departs from optimal play at first aid only loses its points there, its
/// costliest positions are all first aid where it skips and should not, and optimal play
/// itself loses none anywhere (and lists no position). Optimal play's walks follow canonical
/// classes, its ties broken alike in each (the test: 1.7 s, against 50 s of CPU when they
/// walked labelled positions).
#[test]
fn regret_lands_on_the_one_kind_that_departs_from_optimal() {
    let stealth = 0;
    let rules = MAIN_TEXT;
    let solver = Solver::new(rules);
    raven::engine::solve(&solver, &[stealth]);
    let optimal = OptimalStrategy::from_solver(solver);
    let no_aid = NoAidOptimal(&optimal);
    // The two decompositions (each a long walk reading the solved table) side by side.
    let (by_optimal, by_no_aid) = rayon::join(
        || decisions(&rules, &optimal, &[stealth], Budget::UNLIMITED).expect("no budget"),
        || decisions(&rules, &no_aid, &[stealth], Budget::UNLIMITED).expect("no budget"),
    );
    let d = &by_optimal[0];
    assert!(d.by_kind.total_regret().abs() < 1e-12, "{:?}", d.by_kind);
    assert!(d.top.is_empty(), "{:?}", d.top);

    let d = &by_no_aid[0];
    let aid = DecisionKind::FirstAid as usize;
    assert!(
        d.by_kind.regret[aid] > 0.01,
        "skipping first aid costs: {:?}",
        d.by_kind
    );
    for k in DecisionKind::ALL {
        if k != DecisionKind::FirstAid {
            assert!(
                d.by_kind.regret[k as usize].abs() < 1e-12,
                "{k:?}: {}",
                d.by_kind.regret[k as usize]
            );
        }
    }
    assert!((d.by_kind.regret[aid] - (d.optimal - d.exact)).abs() < 1e-9);
    assert!(!d.top.is_empty());
    for c in &d.top {
        assert_eq!(c.kind(), DecisionKind::FirstAid, "{c:?}");
        assert_eq!(c.choice, Choice::Act(Action::SkipAid));
        assert_ne!(c.best, Action::SkipAid);
        assert!(c.shortfall() > 0.0 && c.regret() <= d.by_kind.regret[aid] + 1e-12);
    }
}

/// The standard output of `raven` run with `args`, which must succeed.
fn raven_ok<A: AsRef<OsStr>>(args: impl IntoIterator<Item = A>) -> Vec<u8> {
    let out = assert_cmd::Command::cargo_bin("raven")
        .expect("the raven binary")
        .args(args)
        .output()
        .expect("raven runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `raven decisions --out -`: tidy CSV, one row per kind of decision and stealth, whose regret
/// column adds up to optimal − exact; the table names every kind.
#[test]
fn cli_decisions_writes_one_row_per_kind() {
    let out = raven_ok(["decisions", "--stealth", "0,1", "--quiet", "--out", "-"]);
    let mut reader = csv::Reader::from_reader(out.as_slice());
    let headers = reader.headers().expect("a header").clone();
    for column in ["strategy", "rules", "stealth", "decision", "regret"] {
        assert!(
            headers.iter().any(|h| h == column),
            "{column} in {headers:?}"
        );
    }
    let at = |name: &str| headers.iter().position(|h| h == name).expect("column");
    let records: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("a row")).collect();
    assert_eq!(records.len(), 2 * DecisionKind::ALL.len());
    for stealth in ["0", "1"] {
        let rows: Vec<&csv::StringRecord> = records
            .iter()
            .filter(|r| &r[at("stealth")] == stealth)
            .collect();
        let number = |r: &csv::StringRecord, c: &str| r[at(c)].parse::<f64>().expect("a number");
        let total: f64 = rows.iter().map(|r| number(r, "regret")).sum();
        let regret = number(rows[0], "optimal") - number(rows[0], "exact");
        assert!((total - regret).abs() < 1e-9, "{total} against {regret}");
        assert_eq!(&rows[0][at("strategy")], "reference");
        assert_eq!(&rows[0][at("rules")], "main-text");
    }
    let table = assert_cmd::Command::cargo_bin("raven")
        .expect("the raven binary")
        .args(["decisions", "--stealth", "0", "--quiet"])
        .output()
        .expect("raven decisions runs");
    let text = String::from_utf8_lossy(&table.stdout);
    for kind in DecisionKind::ALL {
        assert!(text.contains(kind.key()), "{} in\n{text}", kind.key());
    }
}

/// `raven decisions --top-out FILE`: tidy CSV of the costliest positions, ranked from 1 per
/// stealth, costliest first, each term `reach × shortfall` and no larger than its kind's
/// regret in the `--out` CSV, described in words; the table lists them too. Both CSVs on
/// standard output at once is refused (exit 2).
#[test]
fn cli_decisions_top_out_lists_the_costliest_positions() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let kinds = dir.path().join("kinds.csv");
    let top = dir.path().join("top.csv");
    let args: [&OsStr; 8] = [
        "decisions".as_ref(),
        "--stealth".as_ref(),
        "1,2".as_ref(),
        "--quiet".as_ref(),
        "--out".as_ref(),
        kinds.as_os_str(),
        "--top-out".as_ref(),
        top.as_os_str(),
    ];
    let out = raven_ok(args);
    let table = String::from_utf8_lossy(&out);
    assert!(table.contains("costliest positions"), "{table}");

    let mut reader = csv::Reader::from_path(&kinds).expect("kinds.csv");
    let kind_headers = reader.headers().expect("a header").clone();
    let kind_at = |name: &str| kind_headers.iter().position(|h| h == name).expect(name);
    let kind_rows: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("a row")).collect();
    let regret_of = |stealth: &str, decision: &str| -> f64 {
        let row = kind_rows
            .iter()
            .find(|r| &r[kind_at("stealth")] == stealth && &r[kind_at("decision")] == decision)
            .expect("a row per stealth and kind");
        row[kind_at("regret")].parse().expect("a number")
    };

    let mut reader = csv::Reader::from_path(&top).expect("top.csv");
    let headers = reader.headers().expect("a header").clone();
    assert_eq!(
        headers.iter().collect::<Vec<_>>(),
        [
            "strategy",
            "rules",
            "stealth",
            "rank",
            "decision",
            "position",
            "choice",
            "best",
            "regret",
            "reach",
            "shortfall",
            "best_value",
            "choice_value",
            "raven_version"
        ]
    );
    let at = |name: &str| headers.iter().position(|h| h == name).expect(name);
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("a row")).collect();
    for stealth in ["1", "2"] {
        let ranked: Vec<&csv::StringRecord> = rows
            .iter()
            .filter(|r| &r[at("stealth")] == stealth)
            .collect();
        assert_eq!(ranked.len(), TOP, "stealth {stealth}");
        let number = |r: &csv::StringRecord, c: &str| r[at(c)].parse::<f64>().expect("a number");
        for (i, r) in ranked.iter().enumerate() {
            assert_eq!(r[at("rank")].parse::<usize>().expect("a rank"), i + 1);
            let regret = number(r, "regret");
            // The CSV carries 12 significant digits: the relations hold to that precision.
            assert!((regret - number(r, "reach") * number(r, "shortfall")).abs() < 1e-12);
            assert!(
                (number(r, "shortfall") - (number(r, "best_value") - number(r, "choice_value")))
                    .abs()
                    < 1e-11
            );
            assert!(regret <= regret_of(stealth, &r[at("decision")]) + 1e-12);
            assert!(!r[at("position")].is_empty() && !r[at("best")].is_empty());
            assert_ne!(
                &r[at("choice")],
                &r[at("best")],
                "a costly choice is not the best"
            );
            if i > 0 {
                assert!(regret <= number(ranked[i - 1], "regret"));
            }
        }
    }

    assert_cmd::Command::cargo_bin("raven")
        .expect("the raven binary")
        .args([
            "decisions",
            "--stealth",
            "0",
            "--quiet",
            "--out",
            "-",
            "--top-out",
            "-",
        ])
        .assert()
        .code(2);
}

/// `raven decisions` with several `--strategy` (one solve shared, strategies decomposed side
/// by side): each strategy's rows of both CSVs are those of the strategy decomposed alone, in
/// the order asked, whatever the thread count. Under the clarified rules, where a class may
/// have fewer options at some stealths than at others (first aid while discovered: R13,
/// R15), which the options the strategies share by class must keep apart.
#[test]
fn cli_decisions_of_several_strategies_are_each_alone() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let run = |strategies: &[&str], threads: &str, name: &str| -> (String, String) {
        let kinds = dir.path().join(format!("{name}.csv"));
        let top = dir.path().join(format!("{name}.top.csv"));
        let mut args: Vec<&OsStr> = vec![
            "decisions".as_ref(),
            "--rules".as_ref(),
            "clarified".as_ref(),
            "--stealth".as_ref(),
            "3,5".as_ref(),
            "--quiet".as_ref(),
            "--threads".as_ref(),
            threads.as_ref(),
            "--out".as_ref(),
            kinds.as_os_str(),
            "--top-out".as_ref(),
            top.as_os_str(),
        ];
        for s in strategies {
            args.push("--strategy".as_ref());
            args.push(s.as_ref());
        }
        raven_ok(args);
        let read = |p: &std::path::Path| std::fs::read_to_string(p).expect("a CSV");
        (read(&kinds), read(&top))
    };
    let strategies = ["duo", "random", "lone-wolf"];
    let mut alone = (String::new(), String::new());
    for (i, s) in strategies.iter().enumerate() {
        let (kinds, top) = run(&[s], "2", s);
        // The header once, then each strategy's rows.
        let skip = |csv: String| -> String {
            if i == 0 {
                csv
            } else {
                csv.split_once('\n').expect("a header").1.to_string()
            }
        };
        alone.0 += &skip(kinds);
        alone.1 += &skip(top);
    }
    for threads in ["1", "2", "3"] {
        let together = run(&strategies, threads, &format!("together{threads}"));
        assert_eq!(together.0, alone.0, "{threads} threads");
        assert_eq!(together.1, alone.1, "{threads} threads");
    }
}

/// Within one strategy's decomposition the work is shared out over the pool (its decisions'
/// classes and their options worked out side by side, each start's sums on a thread of its
/// own): the figures and the costliest positions are the same bits on a pool of one thread
/// as on several — each with a solve of its own, so that the options are worked out on that
/// pool, and once more reading the options a decomposition kept.
#[test]
fn decomposition_is_the_same_bits_on_any_pool() {
    let strategy = resolve("reference").expect("a bundled strategy");
    let pool = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool")
    };
    let solve = |threads: usize| {
        pool(threads).install(|| Solved::new(&MAIN_TEXT, &[4, 6], &Budget::UNLIMITED))
    };
    let decompose = |threads: usize, solved: &Solved| -> String {
        let found =
            pool(threads).install(|| solved.decisions(strategy.as_ref(), Budget::UNLIMITED));
        // `Debug` writes each float as the shortest text that reads back as its bits.
        format!("{:?}", found.expect("no budget"))
    };
    let one = decompose(1, &solve(1).expect("solved"));
    let solved = solve(3).expect("solved");
    assert_eq!(decompose(3, &solved), one, "3 threads");
    assert_eq!(
        decompose(2, &solved),
        one,
        "2 threads, reading the options kept"
    );
}
