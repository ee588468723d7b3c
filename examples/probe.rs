use raven::engine::Solver;
use raven::game::{Action, Chance, Character, State};
use raven::rules::MAIN_TEXT;
fn main() {
    let solver = Solver::new(MAIN_TEXT);
    let t = std::time::Instant::now();
    for (k, (outcome, _)) in Chance::Complications.outcomes().enumerate() {
        let mut s = State::new(10);
        s.apply_outcome(&MAIN_TEXT, outcome);
        for m in Character::ALL {
            let mut n = s;
            n.apply_action(&MAIN_TEXT, Action::Main(m));
            solver.value(&n);
        }
        if [0usize, 1, 10, 100, 1000, 5000, 20000, 46655].contains(&k) {
            println!("{k}: {} positions, {:.2?}", solver.states(), t.elapsed());
        }
    }
}
