//! Games per second of the Monte Carlo hot path (one thread): the built-in reference and
//! random strategies and every bundled strategy file, resolved by name exactly as
//! `raven simulate --strategy NAME` resolves them (so the engine specialises on the same
//! types it does there).
//!
//! Optimal play is measured from a table solved once, outside the timing; its kept answers
//! warm up over the iterations as they do over a long run.
//!
//! `cargo bench --bench games -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use raven::engine::montecarlo::{Job, play_range};
use raven::engine::{OptimalStrategy, Solver, solve};
use raven::rules::MAIN_TEXT;
use raven::strategy::{BUNDLED, Strategy, resolve};

const GAMES: u64 = 100_000;

fn bench_strategy(c: &mut Criterion, label: &str, strategy: &dyn Strategy) {
    let mut group = c.benchmark_group("games");
    group.throughput(Throughput::Elements(GAMES));
    group.sample_size(10);
    let rules = MAIN_TEXT;
    group.bench_function(format!("{label}/stealth10/1-thread"), |b| {
        let mut seed = 0;
        b.iter(|| {
            seed += 1;
            let job = Job {
                rules: &rules,
                strategy,
                stealth: 10,
                games: GAMES,
                seed,
            };
            black_box(play_range(&job, 0..GAMES))
        })
    });
    group.finish();
}

fn games(c: &mut Criterion) {
    let mut names = vec!["reference", "random"];
    // `reference` alone is the built-in; the bundled file is `reference.toml`.
    names.extend(BUNDLED.iter().map(|(n, _)| match *n {
        "reference" => "reference.toml",
        n => n,
    }));
    for name in names {
        let strategy = resolve(name).expect("bundled strategy");
        bench_strategy(c, name, strategy.as_ref());
    }
    let solver = Solver::new(MAIN_TEXT);
    solve(&solver, &[10]);
    bench_strategy(c, "optimal", &OptimalStrategy::from_solver(solver));
}

criterion_group!(benches, games);
criterion_main!(benches);
