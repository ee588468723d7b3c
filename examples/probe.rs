use std::time::Instant;
use raven::engine::{exact, solve, Solver};
use raven::rules::{MAIN_TEXT};
use raven::strategy::ReferenceStrategy;
fn main() {
    let what = std::env::args().nth(1).unwrap_or_default();
    let stealths: Vec<u8> = std::env::args().skip(2).map(|s| s.parse().unwrap()).collect();
    let t = Instant::now();
    if what == "exact" {
        let r = exact(&MAIN_TEXT, &ReferenceStrategy, &stealths);
        for e in &r.expectations { println!("{:.15} {:?}", e.win, e); }
        println!("states {} in {:?}", r.states, t.elapsed());
    } else {
        let mut s = Solver::new(MAIN_TEXT);
        let r = solve::solve(&mut s, &stealths);
        for x in &r { println!("{:?}", x); }
        println!("states {} in {:?}", s.states(), t.elapsed());
    }
}
