use std::time::Instant;
use raven::engine::Solver;
use raven::game::{State, Chance, Action, Character};
use raven::rules::MAIN_TEXT;
fn main() {
    let stealth: u8 = std::env::args().nth(1).unwrap().parse().unwrap();
    let n: u32 = std::env::args().nth(2).unwrap().parse().unwrap();
    let t = Instant::now();
    let mut e = Solver::new(MAIN_TEXT);
    let step = Chance::Complications.len() / n;
    for i in 0..n { let mut s = State::new(stealth); s.apply_outcome(&MAIN_TEXT, i * step); 
      for c in Character::ALL { let mut x = s; x.apply_action(&MAIN_TEXT, Action::Main(c)); e.value(&x); } }
    println!("{} states {:?} {:?}", n, e.states(), t.elapsed());
    println!("{:?}", e.tag_counts());
}
