//! Games per second of the Monte Carlo hot path (one thread), per strategy.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use raven::engine::montecarlo::{Job, play_range};
use raven::rules::MAIN_TEXT;
use raven::strategy::{RandomStrategy, ReferenceStrategy, Strategy};

const GAMES: u64 = 100_000;

fn bench_strategy<S: Strategy>(c: &mut Criterion, strategy: &S) {
    let mut group = c.benchmark_group("games");
    group.throughput(Throughput::Elements(GAMES));
    group.sample_size(10);
    let rules = MAIN_TEXT;
    group.bench_function(format!("{}/stealth10/1-thread", strategy.name()), |b| {
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
    bench_strategy(c, &ReferenceStrategy);
    bench_strategy(c, &RandomStrategy);
}

criterion_group!(benches, games);
criterion_main!(benches);
