//! How the players pick the next adjustment (A4): what they aim for and which die they move
//! first — the words of strategy files' knobs and of their rules of thumb.

use std::fmt;

use serde::Deserialize;

use super::{Annulus, Move, Pos};

/// What the players aim for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aim {
    /// Mend the first pair of neighbours (from the left) that does not differ by 1: move its
    /// right die if it is free, else its left one, towards its partner (away from it when equal).
    FirstConflict,
    /// The solved chain that the fewest successful adjustments reach, given the jammed dice
    /// (ties: the lowest numbers from the left).
    NearestSolved,
}

/// Which die to move towards the chain aimed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// The die with furthest to go (ties: the leftmost).
    Furthest,
    /// The die with least (but some) way to go (ties: the leftmost).
    Closest,
    /// The leftmost die that has to move.
    Leftmost,
}

impl Aim {
    /// Every aim, in the order a search tries them.
    pub const ALL: [Aim; 2] = [Aim::FirstConflict, Aim::NearestSolved];

    /// The aim as a strategy file spells it.
    pub fn key(self) -> &'static str {
        match self {
            Aim::FirstConflict => "first-conflict",
            Aim::NearestSolved => "nearest-solved",
        }
    }
}

impl Order {
    /// Every order, in the order a search tries them.
    pub const ALL: [Order; 3] = [Order::Furthest, Order::Closest, Order::Leftmost];

    /// The order as a strategy file spells it.
    pub fn key(self) -> &'static str {
        match self {
            Order::Furthest => "furthest",
            Order::Closest => "closest",
            Order::Leftmost => "leftmost",
        }
    }
}

/// How the players pick the adjustment where a rule holds: an aim, and for the nearest solved
/// chain, which die first (the knobs' words).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    /// What to aim for.
    pub aim: Aim,
    /// Which die first (for [`Aim::NearestSolved`]).
    pub order: Order,
}

impl Play {
    /// Every play, in the order a search tries them.
    pub fn all() -> Vec<Play> {
        let mut all = vec![Play {
            aim: Aim::FirstConflict,
            order: Order::Furthest,
        }];
        all.extend(Order::ALL.map(|order| Play {
            aim: Aim::NearestSolved,
            order,
        }));
        all
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.aim {
            Aim::FirstConflict => write!(f, "{}", self.aim.key()),
            Aim::NearestSolved => write!(f, "{} {}", self.aim.key(), self.order.key()),
        }
    }
}

impl Play {
    /// The move this play makes at decision point `pos`.
    pub fn choose(&self, game: &Annulus, pos: &Pos) -> Move {
        match self.aim {
            Aim::FirstConflict => first_conflict(game, pos),
            Aim::NearestSolved => {
                let aim = nearest_solved(game, pos);
                let gap = |i: usize| game.distance(pos.value(i), aim[i]);
                let moving = (0..pos.len()).filter(|&i| !pos.jammed(i) && gap(i) > 0);
                let die = match self.order {
                    Order::Leftmost => moving.min(),
                    // max_by_key keeps the last of equals: reversed, that is the leftmost.
                    Order::Furthest => moving.rev().max_by_key(|&i| gap(i)),
                    Order::Closest => moving.min_by_key(|&i| gap(i)),
                }
                .expect("an unsolved chain has a die to move");
                towards(game, pos, die, aim[die])
            }
        }
    }
}

/// The move that takes die `die` one step nearer `to` (the shorter way round a ring; up when
/// both are as short).
fn towards(game: &Annulus, pos: &Pos, die: usize, to: u8) -> Move {
    let v = pos.value(die);
    let up = game
        .step(v, true)
        .is_some_and(|w| game.distance(w, to) < game.distance(v, to));
    Move { die: die as u8, up }
}

fn first_conflict(game: &Annulus, pos: &Pos) -> Move {
    let i = (1..pos.len())
        .find(|&i| game.distance(pos.value(i - 1), pos.value(i)) != 1)
        .expect("an unsolved chain has a pair that does not differ by 1");
    let (die, partner) = if pos.jammed(i) {
        (i - 1, i)
    } else {
        (i, i - 1)
    };
    let (v, w) = (pos.value(die), pos.value(partner));
    if v == w {
        let up = game.step(v, true).is_some();
        Move { die: die as u8, up }
    } else {
        towards(game, pos, die, w)
    }
}

/// The numbers of the solved chain nearest to `pos` (the fewest steps of the free dice; jammed
/// dice keep theirs), by a shortest path over the line: a die's number against its left
/// neighbour's.
pub(super) fn nearest_solved(game: &Annulus, pos: &Pos) -> Vec<u8> {
    const FAR: u32 = u32::MAX / 2;
    let n = pos.len();
    let cost = |i: usize, t: u8| -> u32 {
        if pos.jammed(i) {
            if pos.value(i) == t { 0 } else { FAR }
        } else {
            u32::from(game.distance(pos.value(i), t))
        }
    };
    // best[i][t]: the fewest steps for dice i.. with die i at t.
    let mut best = vec![[FAR; 13]; n];
    for t in 1..=12 {
        best[n - 1][usize::from(t)] = cost(n - 1, t);
    }
    for i in (0..n - 1).rev() {
        for t in 1..=12u8 {
            let next = (1..=12u8)
                .filter(|&u| game.distance(t, u) == 1)
                .map(|u| best[i + 1][usize::from(u)])
                .min()
                .unwrap_or(FAR);
            best[i][usize::from(t)] = (cost(i, t) + next).min(FAR);
        }
    }
    let mut aim = Vec::with_capacity(n);
    let first = (1..=12u8)
        .min_by_key(|&t| best[0][usize::from(t)])
        .expect("twelve numbers");
    aim.push(first);
    for i in 1..n {
        let prev = aim[i - 1];
        let t = (1..=12u8)
            .filter(|&u| game.distance(prev, u) == 1)
            .min_by_key(|&u| best[i][usize::from(u)])
            .expect("a number has a neighbour");
        aim.push(t);
    }
    aim
}
