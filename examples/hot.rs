//! A fixed workload for `perf stat`: 200k reference games at stealth 10.
use raven::engine::montecarlo::{Job, play_range};
use raven::rules::MAIN_TEXT;
use raven::strategy::ReferenceStrategy;
fn main() {
    let job = Job {
        rules: &MAIN_TEXT,
        strategy: &ReferenceStrategy,
        stealth: 10,
        games: 200_000,
        seed: 1,
    };
    let t = play_range(&job, 0..200_000);
    println!("{}", t.wins);
}
