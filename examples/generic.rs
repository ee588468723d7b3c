//! Operation Purple Raven through the engines written for any game (`engine::generic`), to set
//! beside its own engines, which they are to replace:
//!
//! `cargo run --release --features tools --example generic -- solve 8,10,12`
//! `cargo run --release --features tools --example generic -- exact reckless 8,10,12`
//!
//! (`--rules clarified` after them for the other preset). Prints, per stealth, the win
//! probability (the same as `raven solve` / `raven exact` print, to 1e-12) and the positions
//! stored; time the whole process beside `solvetime` (the own solver alone) or `raven exact
//! --strategy NAME`.
use raven::engine::Budget;
use raven::engine::generic::{Optimum, evaluate_from, solve};
use raven::game::interface::PurpleRaven;
use raven::rules::Rules;
use raven::strategy::{AsPolicy, resolve};
use raven_core::games::Game;

fn main() {
    raven::memory::hand_back_large_blocks();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: generic solve STEALTHS | generic exact STRATEGY STEALTHS [--rules PRESET]";
    let (job, rest) = args.split_first().expect(usage);
    let preset = match rest.iter().position(|a| a == "--rules") {
        Some(i) => rest.get(i + 1).expect(usage).as_str(),
        None => "main-text",
    };
    let rules = Rules::preset(preset).expect("a preset: main-text or clarified");
    let (strategy, stealths) = match job.as_str() {
        "solve" => (None, rest.first().expect(usage)),
        "exact" => (
            Some(resolve(rest.first().expect(usage)).expect("a strategy")),
            rest.get(1).expect(usage),
        ),
        _ => panic!("{usage}"),
    };
    let stealths: Vec<u8> = stealths
        .split(',')
        .map(|s| s.parse().expect("a stealth"))
        .collect();
    let Some(strategy) = strategy else {
        // One solve from the highest stealth holds every lower one's start too: stealth never
        // rises, and where layers play alike they are blocks of one template.
        let top = PurpleRaven {
            rules,
            stealth: *stealths.iter().max().expect("a stealth"),
        };
        let solved = solve(&top, Budget::UNLIMITED).expect("solved");
        for stealth in stealths {
            let start = PurpleRaven { rules, stealth }.start();
            println!("stealth {stealth}: {:.12}", solved.value(&start));
        }
        println!("{} positions", solved.positions());
        return;
    };
    // One program for every start, as for the solve.
    let game = PurpleRaven {
        rules,
        stealth: *stealths.iter().max().expect("a stealth"),
    };
    let starts: Vec<_> = (stealths.iter())
        .map(|&stealth| PurpleRaven { rules, stealth }.start())
        .collect();
    let figures = evaluate_from(
        &game,
        &AsPolicy(strategy.as_ref()),
        &starts,
        Budget::UNLIMITED,
    )
    .expect("evaluated");
    for (stealth, f) in stealths.iter().zip(&figures) {
        println!("stealth {stealth}: {:.12}", f.win);
    }
    println!("{} positions", figures[0].positions);
}
