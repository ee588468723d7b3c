//! The advisor of `raven play --advise`: answering one decision — every legal option's
//! optimal win probability and the best — once optimal play is solved for the starting
//! stealth, as `raven play --advise` solves it before the game. Also the optimal win
//! probability after a roll. The positions are those of 200 seeded games of the reference
//! strategy at stealth 10 (main-text rules), answered in turn.
//!
//! `cargo bench --bench advisor` (the solve before the measurement takes a few seconds). It
//! also prints the slowest single answer over every position, the figure the target (< 50 ms
//! a decision) is about, and the slowest ledger of one game (optimal play's win probability
//! after every step of it, as `raven play` ends a game; the target: < 50 ms).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use raven::engine::OptimalStrategy;
use raven::engine::{Observer, Solver, play_seeded, solve};
use raven::game::{Action, Chance, Decision, State};
use raven::rules::MAIN_TEXT;
use raven::strategy::ReferenceStrategy;
use raven::strategy::optimal::best_alike;

const STEALTH: u8 = 10;
const GAMES: u64 = 200;

/// The positions of a game: every decision point, every position right after a roll, and
/// every position after a step, game by game (what the ledger reads).
#[derive(Default)]
struct GamePositions {
    decisions: Vec<State>,
    rolled: Vec<State>,
    steps: Vec<Vec<State>>,
}

impl Observer for GamePositions {
    fn decision(&mut self, before: &State, _: Decision, _: Action, after: &State) {
        self.decisions.push(*before);
        self.steps.last_mut().expect("a game").push(*after);
    }
    fn chance(&mut self, _: &State, _: Chance, _: u32, after: &State) {
        if after.outcome().is_none() {
            self.rolled.push(*after);
        }
        self.steps.last_mut().expect("a game").push(*after);
    }
}

/// The advisor's answer at one decision point: each option's value, and the best (ties as
/// optimal play breaks them).
fn advise(table: &OptimalStrategy, state: &State) -> Option<Action> {
    best_alike(state, &MAIN_TEXT, &table.options(state, &MAIN_TEXT))
}

fn bench_advisor(c: &mut Criterion) {
    let solver = Solver::new(MAIN_TEXT);
    let started = Instant::now();
    solve(&solver, &[STEALTH]);
    let solve_time = started.elapsed();
    let table = OptimalStrategy::from_solver(solver);
    let mut positions = GamePositions::default();
    for game in 0..GAMES {
        positions.steps.push(Vec::new());
        play_seeded(
            &MAIN_TEXT,
            &ReferenceStrategy,
            STEALTH,
            20_261_122,
            game,
            &mut positions,
        );
    }
    // Each position once, timed alone: the slowest answer, first time asked (a position the
    // solve keyed apart is solved then, as in a game).
    let slowest = positions
        .decisions
        .iter()
        .map(|state| {
            let started = Instant::now();
            black_box(advise(&table, state));
            started.elapsed()
        })
        .max()
        .unwrap_or(Duration::ZERO);
    println!(
        "advisor: solve at stealth {STEALTH} {solve_time:.2?}; {} decisions of {GAMES} games, \
         slowest answer {slowest:.2?}",
        positions.decisions.len()
    );
    let slowest_ledger = positions
        .steps
        .iter()
        .map(|game| {
            let started = Instant::now();
            for state in game {
                black_box(table.value(state, &MAIN_TEXT));
            }
            started.elapsed()
        })
        .max()
        .unwrap_or(Duration::ZERO);
    println!("ledger: the slowest of {GAMES} games {slowest_ledger:.2?}");

    let mut group = c.benchmark_group("advisor");
    let mut next = positions.decisions.iter().cycle();
    group.bench_function(format!("one decision/stealth {STEALTH}"), |b| {
        b.iter(|| black_box(advise(&table, next.next().expect("positions"))))
    });
    let mut next = positions.rolled.iter().cycle();
    group.bench_function(
        format!("win probability after a roll/stealth {STEALTH}"),
        |b| b.iter(|| black_box(table.value(next.next().expect("positions"), &MAIN_TEXT))),
    );
    group.finish();
}

criterion_group!(benches, bench_advisor);
criterion_main!(benches);
