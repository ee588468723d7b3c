//! A policy's figures from a compiled program: its win probability, its losses by cause, and
//! how many decisions and rolls a game takes, each a replay with other end values and rewards.

use super::program::{CHANCE, Program};
use super::settle::{self, Replay};
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

/// The figures of the program's one policy from its start: a strategy's program (`only` none)
/// or the solve's with the branch `only` names at each decision.
pub(super) fn figures<G: Game>(
    p: &Program<G>,
    game: &G,
    name: &str,
    only: Option<&[u8]>,
) -> Figures {
    let settle = |ends: &[f64], reward: &(dyn Fn(u32, usize) -> f64 + Sync)| {
        settle::settle(
            p,
            &Replay {
                ends,
                best: false,
                reward,
                only,
            },
        )
        .0[0]
    };
    {
        let causes = game.causes().len();
        let unit = |i: usize| {
            let mut e = vec![0.0; 1 + causes];
            e[i] = 1.0;
            e
        };
        let none = vec![0.0; 1 + causes];
        Figures {
            strategy: name.to_string(),
            win: settle(&unit(0), &|_, _| 0.0),
            losses: (0..causes)
                .map(|c| settle(&unit(1 + c), &|_, _| 0.0))
                .collect(),
            decisions: settle(&none, &|id, _| f64::from(u8::from(p.kind_of(id) != CHANCE))),
            rolls: settle(&none, &|id, b| {
                p.rolls[b] + f64::from(u8::from(p.kind_of(id) == CHANCE))
            }),
            positions: p.len(),
        }
    }
}
