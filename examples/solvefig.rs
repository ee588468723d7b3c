//! Times a solve with the optimal policy's figures: `cargo run --release --features tools --example solvefig -- 10`.
use raven::engine::{Budget, Solver, solve_with_figures};
use raven::rules::MAIN_TEXT;
fn main() {
    let stealths: Vec<u8> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a stealth"))
        .collect();
    let stealths = if stealths.is_empty() {
        vec![10]
    } else {
        stealths
    };
    let solver = Solver::new(MAIN_TEXT);
    let started = std::time::Instant::now();
    let solved = solve_with_figures(&solver, &stealths, &Budget::UNLIMITED).expect("no limit");
    for (s, e) in &solved {
        println!("stealth {}: {:.12} {:?}", s.stealth, s.value, e.losses);
    }
    println!("{} positions in {:.2?}", solver.states(), started.elapsed());
}
