//! The exact engines at the sizes docs/performance.md quotes: the exact expectation of every bundled
//! strategy and of `random` at stealth 8, 10, 12 (one memo shared by the stealths, as
//! `raven exact` does), and the optimal solve at stealth 10, at 8, 10, 12 and at 0..=30, with
//! and without the optimal policy's figures, and as `raven solve --strategy reference` runs it;
//! the regret decomposition of the reference alone and of every bundled strategy in one run,
//! at 8, 10, 12, as `raven decisions` runs them.
//!
//! Some of these take seconds per iteration; criterion's minimum of 10 samples makes the
//! whole file take several minutes. Run one with a filter, e.g.
//! `cargo bench --bench exact -- 'solve/stealth 10$'` or `-- exact/reckless`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use raven::engine::solve::solve_with_figures_beside;
use raven::engine::{
    Budget, Keep, Solver, decisions, decisions_of_each, exact, exact_within, solve,
    solve_with_figures,
};
use raven::rules::MAIN_TEXT;
use raven::strategy::{BUNDLED, RandomStrategy, ReferenceStrategy, Strategy, resolve};

const STEALTHS: [u8; 3] = [8, 10, 12];

fn bench_exact(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact");
    group.sample_size(10);
    let mut strategies: Vec<Box<dyn Strategy>> =
        vec![Box::new(ReferenceStrategy), Box::new(RandomStrategy)];
    for name in BUNDLED.iter().map(|(name, _)| *name) {
        if name != "reference" {
            strategies.push(resolve(name).expect("a bundled strategy"));
        }
    }
    for strategy in &strategies {
        group.bench_function(format!("{}/stealth 8,10,12", strategy.name()), |b| {
            b.iter(|| black_box(exact(&MAIN_TEXT, strategy.as_ref(), &STEALTHS)))
        });
    }
    group.finish();
}

fn bench_solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    let every: Vec<u8> = (0..=30).collect();
    for stealths in [&[10u8][..], &STEALTHS, &every] {
        let name = match stealths {
            [only] => only.to_string(),
            [first, .., last] if stealths.len() > 3 => format!("{first}..={last}"),
            _ => stealths
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(","),
        };
        group.bench_function(format!("stealth {name}"), |b| {
            b.iter(|| {
                let solver = Solver::new(MAIN_TEXT);
                black_box(solve(&solver, stealths))
            })
        });
        // The values and the optimal policy's figures, in a table that keeps every position.
        group.bench_function(format!("stealth {name} with figures"), |b| {
            b.iter(|| {
                let solver = Solver::new(MAIN_TEXT);
                black_box(solve_with_figures(&solver, stealths, &Budget::UNLIMITED))
            })
        });
        // What `raven solve --strategy reference` computes: the same in a table that keeps
        // only its entries, and the reference's exact figures beside the solve.
        group.bench_function(
            format!("stealth {name} as raven solve --strategy reference"),
            |b| {
                b.iter(|| {
                    let solver = Solver::keeping(MAIN_TEXT, Keep::PartBoundaries);
                    black_box(solve_with_figures_beside(
                        &solver,
                        stealths,
                        &Budget::UNLIMITED,
                        || {
                            exact_within(
                                &MAIN_TEXT,
                                &ReferenceStrategy,
                                stealths,
                                Budget::UNLIMITED,
                            )
                        },
                    ))
                })
            },
        );
    }
    group.finish();
}

/// The design what-ifs' target: a 10-point sweep of `run-challenges` (0..=9) at stealth 8,
/// 10, 12, each point solved for optimal play and every bundled strategy evaluated exactly,
/// all of it side by side on the pool as `raven explore` runs it:
/// `raven explore --param run-challenges=0..9 --stealth 8,10,12 --strategy <every bundled>`.
fn bench_sweep(c: &mut Criterion) {
    use rayon::prelude::*;
    let mut group = c.benchmark_group("explore");
    group.sample_size(10);
    let strategies: Vec<Box<dyn Strategy>> = BUNDLED
        .iter()
        .map(|(name, _)| resolve(name).expect("a bundled strategy"))
        .collect();
    group.bench_function(
        "run-challenges 0..=9 x 8,10,12, optimal + every bundled",
        |b| {
            b.iter(|| {
                // One job per (point, method): `None` solves, `Some(i)` evaluates strategy i.
                let jobs: Vec<(u8, Option<usize>)> = (0..=9)
                    .flat_map(|v| {
                        std::iter::once((v, None))
                            .chain((0..strategies.len()).map(move |i| (v, Some(i))))
                    })
                    .collect();
                let wins: Vec<f64> = jobs
                    .par_iter()
                    .map(|&(v, method)| {
                        let mut rules = MAIN_TEXT;
                        rules.design.run_challenges = v;
                        match method {
                            None => solve(&Solver::new(rules), &STEALTHS)[0].value,
                            Some(i) => {
                                exact(&rules, strategies[i].as_ref(), &STEALTHS).expectations[0].win
                            }
                        }
                    })
                    .collect();
                black_box(wins)
            })
        },
    );
    group.finish();
}

/// The regret decomposition (every bundled strategy at 8, 10, 12; its target is in
/// docs/performance.md): the reference alone (its solve beside its noted program), and the eight
/// in one run with one solve, the costliest named first, as `raven decisions --strategy
/// reckless --strategy cautious … --stealth 8,10,12` runs them.
fn bench_decisions(c: &mut Criterion) {
    let mut group = c.benchmark_group("decisions");
    group.sample_size(10);
    group.bench_function("reference/stealth 8,10,12", |b| {
        b.iter(|| {
            black_box(decisions(
                &MAIN_TEXT,
                &ReferenceStrategy,
                &STEALTHS,
                Budget::UNLIMITED,
            ))
        })
    });
    let names = [
        "reckless",
        "cautious",
        "medic-main",
        "side-maximiser",
        "reference",
        "no-first-aid",
        "duo",
        "lone-wolf",
    ];
    assert!(
        BUNDLED.iter().all(|(name, _)| names.contains(name)),
        "every bundled strategy, the costliest first"
    );
    let strategies: Vec<Box<dyn Strategy>> = names
        .iter()
        .map(|name| resolve(name).expect("a bundled strategy"))
        .collect();
    let each: Vec<&dyn Strategy> = strategies.iter().map(|s| s.as_ref()).collect();
    group.bench_function("every bundled/stealth 8,10,12", |b| {
        b.iter(|| {
            black_box(decisions_of_each(
                &MAIN_TEXT,
                &each,
                &STEALTHS,
                Budget::UNLIMITED,
            ))
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_exact,
    bench_solve,
    bench_sweep,
    bench_decisions
);
criterion_main!(benches);
