//! Annulus strategies a person can follow: which chain to aim for and which die to move first,
//! as knobs of a strategy file (`game = "annulus"`, strategies/README.md), and the bundled ones.

use serde::Deserialize;

use super::{Annulus, Move, Pos};
use crate::games::Policy;

/// What the players aim for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Order {
    /// The die with furthest to go (ties: the leftmost).
    Furthest,
    /// The die with least (but some) way to go (ties: the leftmost).
    Closest,
    /// The leftmost die that has to move.
    Leftmost,
}

/// An Annulus strategy file's knobs.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Knobs {
    /// Always `"annulus"`: the game the file is for.
    pub game: String,
    /// The strategy's name in outputs.
    pub name: String,
    /// What to aim for.
    pub aim: Aim,
    /// Which die first (for `aim = "nearest-solved"`).
    #[serde(default = "furthest")]
    pub order: Order,
}

fn furthest() -> Order {
    Order::Furthest
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

/// The bundled Annulus strategy files: `(name, text)`.
pub const BUNDLED: [(&str, &str); 3] = [
    (
        "naive",
        include_str!("../../../../../strategies/annulus/naive.toml"),
    ),
    (
        "planner",
        include_str!("../../../../../strategies/annulus/planner.toml"),
    ),
    (
        "closest-first",
        include_str!("../../../../../strategies/annulus/closest-first.toml"),
    ),
];

/// What a bundled strategy file does, from its opening comment lines.
pub fn about(source: &str) -> String {
    source
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A strategy file that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct KnobsError(pub String);

impl Knobs {
    /// Reads a strategy file's text; `origin` names it in errors.
    pub fn parse(origin: &str, text: &str) -> Result<Knobs, KnobsError> {
        let knobs: Knobs = toml::from_str(text).map_err(|e| {
            let at = e
                .span()
                .map(|s| {
                    let (line, col) = crate::text::line_col(text, s.start);
                    format!(":{line}:{col}")
                })
                .unwrap_or_default();
            KnobsError(format!("{origin}{at}: {}", e.message()))
        })?;
        if knobs.game != "annulus" {
            return Err(KnobsError(format!(
                "{origin}: a strategy file for the game '{}', not for annulus",
                knobs.game
            )));
        }
        Ok(knobs)
    }

    /// Every distinct strategy the knobs express, named by their values: `order` counts only
    /// when aiming for the nearest solved chain.
    pub fn grid() -> Vec<Knobs> {
        let file = |aim: Aim, order: Order, name: String| Knobs {
            game: "annulus".into(),
            name,
            aim,
            order,
        };
        let mut grid = Vec::new();
        for aim in Aim::ALL {
            match aim {
                Aim::FirstConflict => grid.push(file(aim, furthest(), aim.key().into())),
                Aim::NearestSolved => {
                    for order in Order::ALL {
                        grid.push(file(aim, order, format!("{}+{}", aim.key(), order.key())));
                    }
                }
            }
        }
        grid
    }

    /// The file's knobs as a strategy file states them ([`Knobs::parse`] reads them back).
    pub fn to_toml(&self) -> String {
        let mut text = format!(
            "game = \"annulus\"\nname = \"{}\"\naim = \"{}\"\n",
            self.name,
            self.aim.key()
        );
        if self.aim == Aim::NearestSolved {
            text += &format!("order = \"{}\"\n", self.order.key());
        }
        text
    }

    /// A bundled strategy by name.
    pub fn bundled(name: &str) -> Option<Knobs> {
        BUNDLED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(n, text)| Knobs::parse(n, text).expect("bundled files parse"))
    }

    /// The solved chain `aim = "nearest-solved"` aims for at `pos`: the fewest successful
    /// adjustments away, the jammed dice kept.
    pub fn aim(&self, game: &Annulus, pos: &Pos) -> Vec<u8> {
        nearest_solved(game, pos)
    }

    /// The move this strategy makes at decision point `pos`.
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
fn nearest_solved(game: &Annulus, pos: &Pos) -> Vec<u8> {
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

impl Policy<Annulus> for Knobs {
    fn name(&self) -> &str {
        &self.name
    }

    fn weigh(&self, game: &Annulus, pos: &Pos, options: &[Move], weights: &mut [f64]) {
        let chosen = self.choose(game, pos);
        let i = options
            .iter()
            .position(|&m| m == chosen)
            .expect("the strategy's move is legal");
        weights[i] = 1.0;
    }
}
