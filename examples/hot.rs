//! A fixed workload for `perf stat` and `valgrind --tool=callgrind`: `GAMES` games (default
//! 200 000) of `STRATEGY` (default `reference`; any `--strategy` name) at stealth 10 under
//! main-text rules, on one thread, through the engine's own range player.
//!
//! `cargo run --release --features tools --example hot -- [STRATEGY] [GAMES]`
use raven::engine::montecarlo::{Job, play_range};
use raven::rules::MAIN_TEXT;

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "reference".into());
    let games = args.next().map_or(200_000, |g| g.parse().expect("GAMES"));
    let strategy = raven::strategy::resolve(&name).expect("strategy");
    let job = Job {
        rules: &MAIN_TEXT,
        strategy: strategy.as_ref(),
        stealth: 10,
        games,
        seed: 1,
    };
    let t = play_range(&job, 0..games);
    println!("{}", t.wins);
}
