//! Exact expectation of the reference strategy (one memo shared by the stealths, as
//! `raven exact` does). The optimal solve takes tens of seconds, too long for criterion: it is
//! timed with `/usr/bin/time -v target/release/raven solve` (see README, "Exact and optimal").

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use raven::engine::exact;
use raven::rules::MAIN_TEXT;
use raven::strategy::ReferenceStrategy;

fn bench_exact(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact");
    group.sample_size(10);
    for stealths in [&[8u8][..], &[10], &[12], &[8, 10, 12]] {
        let name = stealths
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(",");
        group.bench_function(format!("reference/stealth {name}"), |b| {
            b.iter(|| black_box(exact(&MAIN_TEXT, &ReferenceStrategy, stealths)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_exact);
criterion_main!(benches);
