//! Times a solve of the game at the stealths given (default 10): `cargo run --release --features tools --example solvetime -- 8 10 12`.
use raven::engine::{Solver, solve};
use raven::rules::MAIN_TEXT;
fn main() {
    raven::memory::hand_back_large_blocks();
    let mut stealths: Vec<u8> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a stealth"))
        .collect();
    if stealths.is_empty() {
        stealths.push(10);
    }
    let solver = Solver::new(MAIN_TEXT);
    let started = std::time::Instant::now();
    let solutions = solve(&solver, &stealths);
    for s in solutions {
        println!("stealth {}: {:.12}", s.stealth, s.value);
    }
    println!("{} positions in {:.2?}", solver.states(), started.elapsed());
}
