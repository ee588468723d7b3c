//! Optimal play for any game: the best win probability of every stored position (one per
//! class of positions it values alike), any position's value and its options' values from
//! them, and the policy that takes the best option.

use super::Stop;
use super::figures::{Figures, figures};
use super::program::{CHANCE, Program, Rule};
use super::settle::{branch_value, settle, value_at};
use crate::engine::Budget;
use crate::games::{Game, Point, Policy, options_of};

/// Optimal play's win probability of any position of a game, wherever it comes from: this
/// module's solve, or a game's own solver. What reads `μ` along a game (regret, quality, the
/// ledger) takes any of them.
pub trait Optimum<G: Game>: Sync {
    /// The game solved.
    fn game(&self) -> &G;
    /// The win probability of optimal play from `pos`, any position play can reach.
    fn value(&self, pos: &G::Pos) -> f64;
    /// Each option of decision point `pos`, in [`Game::options`]' order, with optimal play's
    /// win probability after it.
    fn option_values(&self, pos: &G::Pos) -> Vec<(G::Option, f64)> {
        options_of(self.game(), pos)
            .into_iter()
            .map(|(option, next)| (option, self.value(&next)))
            .collect()
    }
    /// The win probability of optimal play from the start.
    fn start(&self) -> f64 {
        self.value(&self.game().start())
    }
}

/// A solved game: optimal play's win probability at every stored position.
pub struct Solved<'g, G: Game> {
    game: &'g G,
    program: Program<G>,
    values: Vec<f64>,
    /// Sweeps spent settling the values (one per layer where play never returns).
    pub sweeps: u64,
}

/// The value of each end for the win probability: 1 for a win, 0 for every loss.
fn win_ends<G: Game>(game: &G) -> Vec<f64> {
    let mut ends = vec![0.0; 1 + game.causes().len()];
    ends[0] = 1.0;
    ends
}

/// Solves `game` from its start: the win probability of optimal play everywhere it can reach.
pub fn solve<'g, G: Game>(game: &'g G, budget: Budget<'_>) -> Result<Solved<'g, G>, Stop> {
    let program = Program::compile(game, Rule::Best, budget)?;
    let ends = win_ends(game);
    let (values, sweeps) = settle(&program, &ends);
    Ok(Solved {
        game,
        program,
        values,
        sweeps,
    })
}

impl<G: Game> Optimum<G> for Solved<'_, G> {
    /// The win probability of optimal play from the start.
    fn start(&self) -> f64 {
        self.values[self.program.start() as usize]
    }

    /// The game solved.
    fn game(&self) -> &G {
        self.game
    }

    /// The win probability of optimal play from `pos`, any position play can reach: a stored
    /// one read, an end as it is, a chance point the sum of what it leads to, a decision the
    /// best of its options. A game whose canonical form is not the same for every member of a
    /// class may meet, in play, a position whose form the solve never stored: it is worked
    /// out from what it leads to, as a position not stored is.
    fn value(&self, pos: &G::Pos) -> f64 {
        let point = self.game.point(pos);
        // A position the game does not store has a row, if any, found from nowhere else.
        let stored = || {
            (self.game.stored(pos))
                .then(|| self.program.id(self.game, pos))
                .flatten()
        };
        match point {
            Point::Over(end) => f64::from(u8::from(end == crate::games::End::Win)),
            _ if let Some(id) = stored() => self.values[id as usize],
            Point::Chance => {
                let mut sum = 0.0;
                self.game
                    .outcomes(pos, &mut |next, p| sum += p * self.value(&next));
                sum
            }
            Point::Decision(_) => self
                .option_values(pos)
                .into_iter()
                .map(|(_, v)| v)
                .fold(f64::NEG_INFINITY, f64::max),
        }
    }
}

impl<'g, G: Game> Solved<'g, G> {
    /// Stored positions: one per class of positions optimal play values alike.
    pub fn positions(&self) -> usize {
        self.program.len()
    }

    /// The value stored for `pos`'s class, if the solve stored it: what [`Optimum::value`]
    /// reads without working anything out, for tests of the lookup.
    pub fn stored_value(&self, pos: &G::Pos) -> Option<f64> {
        let id = self.program.id(self.game, pos)?;
        Some(self.values[id as usize])
    }

    /// Whether the value stored at `id` is its sum (or best option) over what it reads: the
    /// fixed point holds. For tests.
    pub fn settled(&self) -> bool {
        let ends = win_ends(self.game);
        (0..self.program.len() as u32)
            .all(|id| value_at(&self.program, &ends, &self.values, id) == self.values[id as usize])
    }

    /// Optimal play's figures (losses by cause, decisions and rolls per game): the solve's
    /// program replayed with the best option at every decision, the first of equals in the
    /// stored position's order (so where options tie, the figures beside the win
    /// probability may differ from [`OptimalPolicy`]'s, which takes the first in the actual
    /// position's order).
    pub fn figures(&self) -> Figures {
        let p = &self.program;
        let ends = win_ends(self.game);
        let best: Vec<u8> = (0..p.len() as u32)
            .map(|id| {
                if p.kind_of(id) == CHANCE {
                    return 0;
                }
                let mut best = (0, f64::NEG_INFINITY);
                for i in 0..p.branches(id).count() {
                    let v = branch_value(p, &ends, &self.values, id, i);
                    if v > best.1 {
                        best = (i as u8, v);
                    }
                }
                best.0
            })
            .collect();
        figures(p, self.game, "optimal", Some(&best)).remove(0)
    }

    /// The stored positions and their values (each its class's canonical form, or where the
    /// class has a place, [`Game::index`], the first position met there), and whether each is a
    /// decision, for tests and figures.
    pub fn table(&self) -> impl Iterator<Item = (G::Pos, f64, bool)> + '_ {
        let p = &self.program;
        (0..p.len() as u32).map(|id| {
            (
                p.position(self.game, id),
                self.values[id as usize],
                p.kind_of(id) != CHANCE,
            )
        })
    }
}

/// Optimal play as a strategy: the option of the highest value, the first of equals.
pub struct OptimalPolicy<'s, 'g, G: Game> {
    solved: &'s Solved<'g, G>,
}

impl<'s, 'g, G: Game> OptimalPolicy<'s, 'g, G> {
    /// The policy of a solved game.
    pub fn new(solved: &'s Solved<'g, G>) -> Self {
        OptimalPolicy { solved }
    }
}

impl<G: Game> Policy<G> for OptimalPolicy<'_, '_, G> {
    fn name(&self) -> &str {
        "optimal"
    }
    fn weigh(&self, _: &G, pos: &G::Pos, _: &[G::Option], weights: &mut [f64]) {
        let values = self.solved.option_values(pos);
        let mut best = 0;
        for (i, &(_, v)) in values.iter().enumerate() {
            if v > values[best].1 {
                best = i;
            }
        }
        weights[best] = 1.0;
    }
}
