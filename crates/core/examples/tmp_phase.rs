use raven_core::engine::Budget;
use raven_core::engine::generic::{Program, Rule};
use raven_core::game::interface::PurpleRaven;
use raven_core::games::Game;
use raven_core::rules::Rules;
use raven_core::strategy::{AsPolicy, resolve};
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let rules = Rules::preset("main-text").unwrap();
    let s = resolve(&a[0]).unwrap();
    let game = PurpleRaven { rules, stealth: 12 };
    let starts: Vec<_> = [12u8, 10, 8]
        .iter()
        .map(|&s| PurpleRaven { rules, stealth: s }.start())
        .collect();
    let pol = AsPolicy(s.as_ref());
    let t = std::time::Instant::now();
    let p = Program::compile_from(&game, Rule::Follow(&pol), &starts, Budget::UNLIMITED).unwrap();
    println!(
        "compile {:?} {} positions, {} bytes",
        t.elapsed(),
        p.len(),
        p.bytes()
    );
}
