use std::time::Instant;
use raven::engine::Exact;
use raven::game::{State, Chance};
use raven::rules::MAIN_TEXT;
use raven::strategy::ReferenceStrategy;
fn main() {
    let stealth: u8 = std::env::args().nth(1).unwrap().parse().unwrap();
    let n: u32 = std::env::args().nth(2).unwrap().parse().unwrap();
    let t = Instant::now();
    let mut e = Exact::new(&MAIN_TEXT, &ReferenceStrategy);
    let step = Chance::Complications.len() / n;
    for i in 0..n { let mut s = State::new(stealth); s.apply_outcome(&MAIN_TEXT, i * step); e.expectation(&s); }
    println!("{} states {:?} {:?}", n, e.states(), t.elapsed());
    println!("{:?}", e.tag_counts());
}
