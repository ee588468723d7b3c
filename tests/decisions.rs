//! The regret decomposition (`raven::engine::decisions`): exact, by the performance-difference
//! identity, so its parts must add up to optimal − exact, and a strategy that departs from
//! optimal play at one kind of decision only must lose all its points there.

use rayon::prelude::*;

use raven::engine::{Budget, DecisionKind, Solver, decisions};
use raven::game::{Action, Decision, State};
use raven::rules::{CLARIFIED, MAIN_TEXT, Rules};
use raven::strategy::{BUNDLED, Choice, OptimalStrategy, Sight, Strategy, resolve};

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
    cases.par_iter().for_each(|&(rules, stealth, name)| {
        let strategy = resolve(name).expect("a bundled strategy");
        let result =
            decisions(&rules, strategy.as_ref(), &[stealth], Budget::UNLIMITED).expect("no budget");
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
    });
}

/// Optimal play, except that first aid is always skipped.
struct NoAidOptimal(OptimalStrategy);

impl Strategy for NoAidOptimal {
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

/// A strategy that departs from optimal play at first aid only loses its points there, and
/// optimal play itself loses none anywhere.
#[test]
fn regret_lands_on_the_one_kind_that_departs_from_optimal() {
    let stealth = 0;
    let rules = MAIN_TEXT;
    let solver = Solver::new(rules);
    raven::engine::solve(&solver, &[stealth]);
    let optimal = OptimalStrategy::from_solver(solver);
    let d = &decisions(&rules, &optimal, &[stealth], Budget::UNLIMITED).expect("no budget")[0];
    assert!(d.by_kind.total_regret().abs() < 1e-12, "{:?}", d.by_kind);

    let no_aid = NoAidOptimal(optimal);
    let d = &decisions(&rules, &no_aid, &[stealth], Budget::UNLIMITED).expect("no budget")[0];
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
}

/// `raven decisions --out -`: tidy CSV, one row per kind of decision and stealth, whose regret
/// column adds up to optimal − exact; the table names every kind.
#[test]
fn cli_decisions_writes_one_row_per_kind() {
    let out = assert_cmd::Command::cargo_bin("raven")
        .expect("the raven binary")
        .args(["decisions", "--stealth", "0,1", "--quiet", "--out", "-"])
        .output()
        .expect("raven decisions runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
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
