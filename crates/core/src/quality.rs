//! Is Operation Purple Raven a good game? Its strategies' luck and skill, tension and length
//! ([`crate::engine::generic::quality`]) at each starting stealth: optimal play solved once,
//! each strategy decomposed, evaluated exactly and sampled along optimal play's win
//! probability `μ` by the game's own loop.

use crate::engine::decisions::decisions_of_each;
use crate::engine::generic::quality::{Course, Quality, Sampled, Step};
use crate::engine::generic::{Stop, evaluate};
use crate::engine::{Budget, Halt, Observer, Solver, play_seeded, solve_within};
use crate::game::interface::PurpleRaven;
use crate::game::{Action, Chance, Decision, Outcome, State};
use crate::games::Game;
use crate::par::*;
use crate::rules::Rules;
use crate::strategy::optimal::Optimal;
use crate::strategy::{AsPolicy, Strategy};

/// Why an assessment stopped without an answer.
#[derive(Debug, thiserror::Error)]
pub enum Stopped {
    /// Purple Raven's own engines stopped (too large, cancelled).
    #[error(transparent)]
    Halt(#[from] Halt),
    /// The engines for any game stopped.
    #[error(transparent)]
    Stop(#[from] Stop),
}

/// A strategy's quality at one starting stealth.
pub struct Assessed {
    /// The strategy's name.
    pub strategy: String,
    /// The starting stealth.
    pub stealth: u8,
    /// Its figures.
    pub quality: Quality,
}

/// The quality of `strategies` (`None`: optimal play) at `stealths` under `rules`, strategy
/// by strategy: optimal play solved once, each strategy decomposed exactly (its skill loss
/// and meaningful decisions), evaluated exactly by the engines for any game (its win
/// probability and length) and sampled along `μ` for the rest.
pub fn assess(
    rules: &Rules,
    strategies: &[(String, Option<&dyn Strategy>)],
    stealths: &[u8],
    games: u64,
    seed: u64,
    budget: Budget<'_>,
) -> Result<Vec<Assessed>, Stopped> {
    let solver = Solver::new(*rules);
    solve_within(&solver, stealths, &budget)?;
    let table = Optimal::of(&solver);
    let each: Vec<&dyn Strategy> = strategies
        .iter()
        .map(|(_, s)| s.unwrap_or(&table))
        .collect();
    let decomposed = decisions_of_each(rules, &each, stealths, budget)?;
    // Each row's exact figures: one compile each, serial inside, so the rows side by side,
    // each within its share of the budget.
    let pairs: Vec<(usize, usize)> = (0..each.len())
        .flat_map(|s| (0..stealths.len()).map(move |t| (s, t)))
        .collect();
    let share = Budget {
        max_states: budget.max_states / current_num_threads().clamp(1, pairs.len().max(1)),
        ..budget
    };
    let figures = pairs
        .par_iter()
        .map(|&(s, t)| {
            let game = PurpleRaven {
                rules: *rules,
                stealth: stealths[t],
            };
            evaluate(&game, &AsPolicy(each[s]), share)
        })
        .collect::<Result<Vec<_>, Stop>>()?;
    budget.check_cancel()?;
    let mut rows = Vec::new();
    for (&(s, t), figures) in pairs.iter().zip(figures) {
        let (d, stealth, strategy) = (&decomposed[s][t], stealths[t], each[s]);
        let game = PurpleRaven {
            rules: *rules,
            stealth,
        };
        let start = solver.value(&game.start());
        let q = Quality {
            figures,
            skill_loss: d.by_kind.regret.iter().sum(),
            start: d.optimal,
            meaningful: d.by_kind.meaningful,
            sampled: Sampled::gather(games, |i| follow(&game, strategy, &solver, start, seed, i)),
        };
        rows.push(Assessed {
            strategy: strategies[s].0.clone(),
            stealth,
            quality: q,
        });
    }
    Ok(rows)
}

/// Plays game `i` of `strategy` under `seed` with Purple Raven's own game loop (as Monte
/// Carlo and `play` play it), telling `each` every step with `μ` read from `table` (solved
/// under the game's rules); returns whether it was won.
pub fn walk(
    game: &PurpleRaven,
    strategy: &dyn Strategy,
    table: &Solver,
    seed: u64,
    i: u64,
    each: &mut dyn FnMut(Step),
) -> bool {
    let mut walker = Walker { game, table, each };
    let (_, outcome) = play_seeded(&game.rules, strategy, game.stealth, seed, i, &mut walker);
    outcome == Outcome::Win
}

/// Game `i` of `strategy` under `seed`, followed by optimal play's win probability from
/// `table` (`start` at the start: it sums every complication deal, so it is worked out once).
pub fn follow(
    game: &PurpleRaven,
    strategy: &dyn Strategy,
    table: &Solver,
    start: f64,
    seed: u64,
    i: u64,
) -> Course {
    let mut course = Course::new(start, game.phase(&game.start()));
    let won = walk(game, strategy, table, seed, i, &mut |s| {
        course.step(s.chance, s.mu, s.stage)
    });
    course.won = won;
    course
}

/// One game as `raven play` plays it — game `i` of `seed` at `game`'s starting stealth, by
/// `strategy` (none: optimal play) — with optimal play solved first: `μ` at the start, every
/// step, and whether it was won.
pub fn one_game(
    game: &PurpleRaven,
    strategy: Option<&dyn Strategy>,
    seed: u64,
    i: u64,
    budget: Budget<'_>,
) -> Result<(f64, Vec<Step>, bool), Stopped> {
    let solver = Solver::new(game.rules);
    solve_within(&solver, &[game.stealth], &budget)?;
    let table = Optimal::of(&solver);
    let start = solver.value(&game.start());
    let mut steps = Vec::new();
    let won = walk(
        game,
        strategy.unwrap_or(&table),
        &solver,
        seed,
        i,
        &mut |s| steps.push(s),
    );
    Ok((start, steps, won))
}

/// Tells each step of a game, reading `μ` from the table after it.
struct Walker<'a, 'e> {
    game: &'a PurpleRaven,
    table: &'a Solver,
    each: &'e mut dyn FnMut(Step),
}

impl Walker<'_, '_> {
    fn step(&mut self, chance: bool, after: &State) {
        (self.each)(Step {
            chance,
            mu: self.table.value(after),
            stage: after.outcome().is_none().then(|| self.game.phase(after)),
        });
    }
}

impl Observer for Walker<'_, '_> {
    fn decision(&mut self, _: &State, _: Decision, _: Action, after: &State) {
        self.step(false, after);
    }
    fn chance(&mut self, _: &State, _: Chance, _: u32, after: &State) {
        self.step(true, after);
    }
}
