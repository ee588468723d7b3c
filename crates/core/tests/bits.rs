//! The same bits with and without the `parallel` feature: a fixed set of figures from every
//! engine, printed in full precision (`{:?}` of an `f64` round-trips), against the committed
//! `bits.golden`. `.ci/run` runs this test under both feature sets, so a result that depended
//! on threads, or on rayon being there at all, fails one of them.
//!
//! After a change that is meant to move the figures, write the file anew with
//! `RAVEN_BLESS=1 cargo test --release -p raven-core --test bits` and review its diff.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use raven_core::engine::{Budget, Job, Solver, decisions, exact, simulate, solve_with_figures};
use raven_core::rules::{Rules, parse_rules};
use raven_core::strategy::{RandomStrategy, ReferenceStrategy, resolve};

fn figures() -> String {
    let mut out = String::new();
    let designs: [(&str, Rules); 3] = [
        ("main-text", Rules::preset("main-text").unwrap()),
        ("clarified", Rules::preset("clarified").unwrap()),
        (
            "main-text team-size=3 run-challenges=4",
            parse_rules(
                "main-text",
                &["team-size=3".to_string(), "run-challenges=4".to_string()],
            )
            .unwrap(),
        ),
    ];
    for (name, rules) in &designs {
        let stealths: &[u8] = if *name == "main-text" { &[6, 10] } else { &[7] };
        let solver = Solver::new(*rules);
        let solved = solve_with_figures(&solver, stealths, &Budget::UNLIMITED).unwrap();
        for (solution, figures) in solved {
            writeln!(out, "{name} optimal {solution:?} {figures:?}").unwrap();
        }
        for strategy in ["reference", "reckless", "duo", "random"] {
            let strategy = resolve(strategy).unwrap();
            let run = exact(rules, strategy.as_ref(), stealths);
            writeln!(
                out,
                "{name} exact {} {:?}",
                strategy.name(),
                run.expectations
            )
            .unwrap();
        }
        let job = Job {
            rules,
            strategy: &ReferenceStrategy,
            stealth: 10,
            games: 50_000,
            seed: 11,
        };
        let tally = simulate(&job, &|_| {}, &AtomicBool::new(false)).unwrap();
        writeln!(out, "{name} monte-carlo reference {tally:?}").unwrap();
        let job = Job {
            rules,
            strategy: &RandomStrategy,
            stealth: 10,
            games: 50_000,
            seed: 11,
        };
        let tally = simulate(&job, &|_| {}, &AtomicBool::new(false)).unwrap();
        writeln!(out, "{name} monte-carlo random {tally:?}").unwrap();
    }
    let rules = Rules::preset("main-text").unwrap();
    for strategy in ["reference"] {
        let strategy = resolve(strategy).unwrap();
        for d in decisions(&rules, strategy.as_ref(), &[8], Budget::UNLIMITED).unwrap() {
            writeln!(
                out,
                "decisions {} {} {:?} {:?} {:?}",
                strategy.name(),
                d.stealth,
                d.optimal,
                d.exact,
                d.by_kind
            )
            .unwrap();
        }
    }
    out
}

#[test]
fn every_engine_gives_the_committed_bits() {
    let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bits.golden");
    let got = figures();
    if std::env::var_os("RAVEN_BLESS").is_some() {
        std::fs::write(&golden, &got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&golden).expect("tests/bits.golden is committed");
    for (line, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "line {} of bits.golden", line + 1);
    }
    assert_eq!(got.lines().count(), want.lines().count());
}
