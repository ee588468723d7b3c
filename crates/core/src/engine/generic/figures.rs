//! A policy's figures from a compiled program: its win probability, its losses by cause, and
//! how many decisions and rolls a game takes, each a replay with other end values and rewards.

use super::program::{CHANCE, Program};
use super::settle;
use crate::games::Game;

/// A strategy's exact figures from the start.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// The strategy's name.
    pub strategy: String,
    /// The probability of a win.
    pub win: f64,
    /// The probability of a loss by each cause ([`Game::causes`]).
    pub losses: Vec<f64>,
    /// Decisions per game, in expectation.
    pub decisions: f64,
    /// Chance points per game (rolls), in expectation.
    pub rolls: f64,
    /// Positions the strategy's program stores.
    pub positions: usize,
}

/// The figures of the program's one policy from each of its starts ([`Program::roots`]): a
/// strategy's program (`only` none) or the solve's with the branch `only` names at each
/// decision.
pub(super) fn figures<G: Game>(
    p: &Program<G>,
    game: &G,
    name: &str,
    only: Option<&[u8]>,
) -> Vec<Figures> {
    let causes = game.causes().len();
    // The win, each cause of a loss, decisions and rolls, settled together.
    let (decisions, rolls) = (causes + 1, causes + 2);
    let ends: Vec<Vec<f64>> = (0..causes + 3)
        .map(|i| {
            let mut e = vec![0.0; 1 + causes];
            if i <= causes {
                e[i] = 1.0;
            }
            e
        })
        .collect();
    let by_start = settle::settle_sums(p, only, &ends, &|id, b, k| {
        let chance = p.kind_of(id) == CHANCE;
        match k {
            _ if k == decisions => p.passed(b) + f64::from(u8::from(!chance)),
            _ if k == rolls => p.rolls[b] + f64::from(u8::from(chance)),
            _ => 0.0,
        }
    });
    by_start
        .into_iter()
        .map(|v| Figures {
            strategy: name.to_string(),
            win: v[0],
            losses: v[1..=causes].to_vec(),
            decisions: v[decisions],
            rolls: v[rolls],
            positions: p.len(),
        })
        .collect()
}
