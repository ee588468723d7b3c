use raven::engine::{Observer, play_seeded};
use raven::game::{Action, Chance, Decision, State};
use raven::rules::MAIN_TEXT;
use raven::strategy::ReferenceStrategy;
struct Count(u64, u64, u64);
impl Observer for Count {
    fn decision(&mut self, _: &State, _: Decision, _: Action, _: &State) {
        self.0 += 1
    }
    fn chance(&mut self, _: &State, c: Chance, _: u32, _: &State) {
        self.1 += 1;
        if matches!(c, Chance::Check { .. }) {
            self.2 += 1
        }
    }
}
fn main() {
    let mut c = Count(0, 0, 0);
    let n = 100_000;
    for g in 0..n {
        play_seeded(&MAIN_TEXT, &ReferenceStrategy, 10, 1, g, &mut c);
    }
    println!(
        "decisions/game {:.1} chance/game {:.1} checks/game {:.1}",
        c.0 as f64 / n as f64,
        c.1 as f64 / n as f64,
        c.2 as f64 / n as f64
    );
}
