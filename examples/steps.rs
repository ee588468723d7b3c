//! Interpreter steps per game (reference, stealth 10, main-text): decisions, chance points and
//! checks, and how many steps the Monte Carlo engine's coarse transitions leave (a roller or
//! first-aid decision and its check are one step there).
use raven::engine::{Observer, play_seeded};
use raven::game::{Action, Chance, Decision, State};
use raven::rules::MAIN_TEXT;
use raven::strategy::ReferenceStrategy;

#[derive(Default)]
struct Count {
    decisions: u64,
    chances: u64,
    checks: u64,
    fused: u64,
}

impl Observer for Count {
    fn decision(&mut self, _: &State, _: Decision, action: Action, _: &State) {
        self.decisions += 1;
        if matches!(action, Action::Roll(_) | Action::Aid { .. }) {
            self.fused += 1;
        }
    }
    fn chance(&mut self, _: &State, c: Chance, _: u32, _: &State) {
        self.chances += 1;
        if matches!(c, Chance::Check { .. }) {
            self.checks += 1;
        }
    }
}

fn main() {
    let mut c = Count::default();
    let n = 100_000;
    for g in 0..n {
        play_seeded(&MAIN_TEXT, &ReferenceStrategy, 10, 1, g, &mut c);
    }
    let per = |x: u64| x as f64 / n as f64;
    println!(
        "decisions/game {:.1} chance/game {:.1} checks/game {:.1} steps/game {:.1} coarse steps/game {:.1}",
        per(c.decisions),
        per(c.chances),
        per(c.checks),
        per(c.decisions + c.chances),
        per(c.decisions + c.chances - c.fused)
    );
}
