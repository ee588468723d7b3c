//! The regret decomposition (`raven::engine::decisions`): exact, by the performance-difference
//! identity, so its parts must add up to optimal − exact, and a strategy that departs from
//! optimal play at one kind of decision only must lose all its points there.

use std::ffi::OsStr;

use rayon::prelude::*;

use crate::common::oracle::{Oracle, RegretOracle};
use crate::common::strategies::StealthAnywhere;
use raven::engine::OptimalStrategy;
use raven::engine::decisions::TOP;
use raven::engine::{
    Budget, Decisions, Halt, Solved, Solver, TooLarge, decisions, decisions_of_each,
};
use raven::game::{Action, Decision, DecisionKind, KINDS, Node, State};
use raven::rules::{CLARIFIED, MAIN_TEXT, Rules};
use raven::strategy::{
    BUNDLED, Choice, RandomStrategy, ReferenceStrategy, Sight, Strategy, resolve,
};

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
/// no kind has negative regret (no choice beats the optimal one), and the costliest positions
/// listed are terms of the decomposition ([`listed_positions_are_terms`]). Both presets from
/// the start discovered (stealth 0), and the reference and random strategies at stealth 2.
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
    let (solves, solvers) = rayon::join(|| solved(&at), || solvers(&at));
    cases.par_iter().for_each(|&(rules, stealth, name)| {
        let strategy = resolve(name).expect("a bundled strategy");
        let i = at
            .iter()
            .position(|(r, s)| *r == rules && *s == [stealth])
            .expect("solved for the case");
        let result = solves[i]
            .decisions(strategy.as_ref(), Budget::UNLIMITED)
            .expect("no budget");
        let d = &result[0];
        let regret = d.optimal - d.exact;
        assert!(
            (d.by_kind.regret.iter().sum::<f64>() - regret).abs() < 1e-9,
            "{name} at {stealth}: parts {} against optimal − exact {regret}",
            d.by_kind.regret.iter().sum::<f64>()
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
        listed_positions_are_terms(name, d, &solvers[i], strategy.as_ref());
    });
}

/// Optimal play's values under each of `at`, in a table of the oracle's own (not the one the
/// decompositions read).
fn solvers(at: &[(Rules, &[u8])]) -> Vec<Solver> {
    at.par_iter()
        .map(|(rules, stealths)| {
            let solver = Solver::new(*rules);
            raven::engine::solve(&solver, stealths);
            solver
        })
        .collect()
}

/// The layered decomposition agrees with the test oracle ([`RegretOracle`], the
/// performance-difference identity summed term by term over the strategy's games): the same
/// regret, arises and matters by kind (1e-9); the layers' parts add up to optimal − exact
/// (1e-9), and so do the oracle's; the layers' exact win probability is the oracle's
/// ([`Oracle`], 1e-12) and their optimal one the solver's; the positions listed are terms
/// ([`listed_positions_are_terms`]). Strategies of every layering: the rules' own classes
/// with stealth 1 read from the top program (the bundled strategies that never read
/// stealth), one that reads stealth up to 3 and 4 (a class of its own per stealth below 4,
/// the top one replayed above it), strategies that may read stealth anywhere (optimal play,
/// and the reference not saying where it stops), random play; starts in a lower class, at the
/// lowest stealth of the top program and above it, and only low stealths (the top class
/// serving one stealth or none above its own); both presets.
#[test]
fn layered_decomposition_agrees_with_the_oracle() {
    let floors: Box<dyn Strategy> = Box::new(
        raven::strategy::FileStrategy::parse(
            "floors",
            "test",
            "[recruit]\nstealth_floor = 3\n[side]\nstealth_floor = 4\n",
        )
        .expect("a valid strategy"),
    );
    let bundled = |name: &str| resolve(name).expect("a bundled strategy");
    let mut cases: Vec<(Rules, Box<dyn Strategy>, Vec<u8>)> = Vec::new();
    for rules in [MAIN_TEXT, CLARIFIED] {
        for name in ["reference", "duo", "lone-wolf", "no-first-aid"] {
            cases.push((rules, bundled(name), vec![0, 2, 3]));
        }
        cases.push((rules, Box::new(RandomStrategy), vec![0, 2]));
    }
    cases.push((MAIN_TEXT, floors, vec![0, 3, 4, 5]));
    cases.push((MAIN_TEXT, Box::new(OptimalStrategy::new()), vec![0, 2]));
    cases.push((
        MAIN_TEXT,
        Box::new(StealthAnywhere(ReferenceStrategy)),
        vec![0, 2],
    ));
    for stealths in [&[3][..], &[0, 1, 2, 3], &[3, 1]] {
        for name in ["reference", "duo"] {
            cases.push((MAIN_TEXT, bundled(name), stealths.to_vec()));
        }
    }
    // One solve per rules and stealths for the decompositions, and a table of the oracle's
    // own: neither reads values the other kept.
    let mut at: Vec<(Rules, &[u8])> = Vec::new();
    for (rules, _, stealths) in &cases {
        if !at.iter().any(|(r, s)| r == rules && s == stealths) {
            at.push((*rules, stealths));
        }
    }
    let (solves, solvers) = rayon::join(|| solved(&at), || solvers(&at));
    cases.par_iter().for_each(|(rules, strategy, stealths)| {
        let name = strategy.name();
        let i = at
            .iter()
            .position(|(r, s)| r == rules && s == stealths)
            .expect("solved for the case");
        let layered = solves[i]
            .decisions(strategy.as_ref(), Budget::UNLIMITED)
            .expect("no budget");
        let solver = &solvers[i];
        let mut regret = RegretOracle::new(solver, strategy.as_ref());
        let mut exact = Oracle::new(rules, strategy.as_ref());
        assert_eq!(layered.len(), stealths.len());
        for (l, &stealth) in layered.iter().zip(stealths) {
            assert_eq!(l.stealth, stealth);
            let at = format!("{name} at {stealth} of {stealths:?} ({rules})");
            let start = State::new(stealth);
            let optimal = solver.value(&start);
            let win = exact.expectation(&start).win;
            assert!(
                (l.optimal - optimal).abs() < 1e-12,
                "{at}: optimal {} against {optimal}",
                l.optimal
            );
            assert!(
                (l.exact - win).abs() < 1e-12,
                "{at}: exact {} against the oracle's {win}",
                l.exact
            );
            assert!(
                (l.by_kind.regret.iter().sum::<f64>() - (l.optimal - l.exact)).abs() < 1e-9,
                "{at}: parts {} against optimal − exact {}",
                l.by_kind.regret.iter().sum::<f64>(),
                l.optimal - l.exact
            );
            let o = regret.regret(&start);
            assert!(
                (o.regret.iter().sum::<f64>() - (optimal - win)).abs() < 1e-9,
                "{at}: the oracle's parts {} against optimal − exact {}",
                o.regret.iter().sum::<f64>(),
                optimal - win
            );
            for k in DecisionKind::ALL {
                let i = k as usize;
                for (what, a, b) in [
                    ("regret", l.by_kind.regret[i], o.regret[i]),
                    ("arises", l.by_kind.arises[i], o.arises[i]),
                    ("matters", l.by_kind.matters[i], o.matters[i]),
                ] {
                    assert!(
                        (a - b).abs() < 1e-9,
                        "{at}: {k:?} {what} {a} against the oracle's {b}"
                    );
                }
            }
            listed_positions_are_terms(&at, l, solver, strategy.as_ref());
        }
    });
}

/// The costliest positions a decomposition lists are its own terms: at most [`TOP`],
/// costliest first, each reached with a probability in (0, 1] and costing something, but no
/// more than its kind's total; each the strategy's own answer at its decision, and its best
/// and chosen values (and so its shortfall) those of `solver` (a table of its own, 1e-12):
/// the best option of the highest value, the choice's value that of the strategy's action or
/// the options' average for a uniform choice.
fn listed_positions_are_terms(what: &str, d: &Decisions, solver: &Solver, strategy: &dyn Strategy) {
    let rules = solver.rules();
    assert!(d.top.len() <= TOP, "{what}");
    for pair in d.top.windows(2) {
        assert!(
            pair[0].regret() >= pair[1].regret(),
            "{what}: costliest first"
        );
    }
    for c in &d.top {
        assert!(
            c.regret() > 0.0 && c.reach > 0.0 && c.reach <= 1.0 + 1e-12,
            "{what}: {c:?}"
        );
        assert!(
            c.regret() <= d.by_kind.regret[c.kind() as usize] + 1e-12,
            "{what}: a {:?} position costs {} of its kind's {}",
            c.kind(),
            c.regret(),
            d.by_kind.regret[c.kind() as usize]
        );
        assert_eq!(c.state.node(rules), Node::Decision(c.decision), "{what}");
        assert!(c.state.has_choice(rules), "{what}: {c:?}");
        assert_eq!(
            c.choice,
            strategy.decide(&c.state, rules, c.decision),
            "{what}: {c:?}"
        );
        let options = solver.options(&c.state);
        let value_of = |action: Action| {
            let found = options.iter().find(|(a, _)| *a == action);
            found.expect("a legal option").1
        };
        let best = options.iter().map(|&(_, v)| v).fold(f64::MIN, f64::max);
        let chosen = match c.choice {
            Choice::Act(action) => value_of(action),
            Choice::Uniform => options.iter().map(|&(_, v)| v).sum::<f64>() / options.len() as f64,
        };
        for (name, a, b) in [
            ("best value", c.best_value, best),
            ("the best option's value", value_of(c.best), best),
            ("chosen value", c.chosen_value, chosen),
        ] {
            assert!(
                (a - b).abs() < 1e-12,
                "{what}: {name} {a} against {b}: {c:?}"
            );
        }
    }
}

/// The same at higher stealths, where positions are met along many paths and the reverse
/// pass must gather their probability: the costliest positions of the reference strategy and
/// random play are terms of the decomposition ([`listed_positions_are_terms`]), and each loses
/// points somewhere; both presets, stealths listed out of order in one run.
#[test]
fn listed_positions_are_terms_of_the_decomposition_at_higher_stealth() {
    let cases: Vec<(Rules, &str)> = [MAIN_TEXT, CLARIFIED]
        .into_iter()
        .flat_map(|rules| ["reference", "random"].map(move |name| (rules, name)))
        .collect();
    let at: [(Rules, &[u8]); 2] = [(MAIN_TEXT, &[4, 3]), (CLARIFIED, &[4, 3])];
    let (solves, solvers) = rayon::join(|| solved(&at), || solvers(&at));
    cases.par_iter().for_each(|&(rules, name)| {
        let strategy = resolve(name).expect("a built-in strategy");
        let i = usize::from(rules != MAIN_TEXT);
        let result = solves[i]
            .decisions(strategy.as_ref(), Budget::UNLIMITED)
            .expect("no budget");
        for d in &result {
            let what = format!("{name} at {} ({rules})", d.stealth);
            assert!(((d.optimal - d.exact) - d.by_kind.regret.iter().sum::<f64>()).abs() < 1e-9);
            listed_positions_are_terms(&what, d, &solvers[i], strategy.as_ref());
            assert!(!d.top.is_empty(), "{what} loses points somewhere");
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
/// itself loses none anywhere (and lists no position). Optimal play is followed by canonical
/// class, its ties broken alike in each.
#[test]
fn regret_lands_on_the_one_kind_that_departs_from_optimal() {
    let stealth = 0;
    let rules = MAIN_TEXT;
    let solver = Solver::new(rules);
    raven::engine::solve(&solver, &[stealth]);
    let optimal = OptimalStrategy::from_solver(solver);
    let no_aid = NoAidOptimal(&optimal);
    // The two decompositions (each reading the solved table) side by side.
    let (by_optimal, by_no_aid) = rayon::join(
        || decisions(&rules, &optimal, &[stealth], Budget::UNLIMITED).expect("no budget"),
        || decisions(&rules, &no_aid, &[stealth], Budget::UNLIMITED).expect("no budget"),
    );
    let d = &by_optimal[0];
    // Exactly nothing: the optimal strategy values its options by the same sums, in the same
    // order, as the solver's table, so its choice is always one the solver values highest.
    assert_eq!(d.by_kind.regret, [0.0; KINDS], "{:?}", d.by_kind);
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
