//! The Annulus operation challenge (docs/annulus.md): a line of d12s adjusted one risky die at a
//! time until neighbours differ by exactly 1, hidden dice appearing once the chain is solved.
//! Every ruling (`A1`…`A7`) is implemented here, named where it is, and nowhere else.
//!
//! What the player knows is the position: the visible chain (each die's number and whether it
//! is jammed) and how many positions are still hidden, not where. The setup hides each position
//! independently, so whatever was seen, each way of placing the hidden positions among the
//! visible dice is as likely as any other; a random reveal then lands in each gap of the chain
//! alike (each gap holds on average the same share of the hidden positions), and a
//! left-to-right reveal in the first gap that holds one, the rest staying to its right. So the
//! position needs no more than the chain, the count and, for left-to-right, the first gap that
//! may still hold one (`tests/it/annulus.rs` checks this against an oracle that places every
//! hidden position explicitly).

pub mod card;
pub mod play;
pub mod rules;
pub mod strategy;

use crate::games::{End, Game, Point};
pub use rules::{MAX_DICE, RevealOrder, Rules};

/// The jammed flag beside a die's number (1..=12) in [`Pos::dice`].
const JAM: u8 = 0x10;

/// The causes of a failure, as [`End::Loss`] numbers them.
pub const CAUSES: [&str; 3] = ["jammed", "reveal", "action_limit"];
/// A5 after a jam: the jammed dice can no longer be joined.
pub const JAMMED: u8 = 0;
/// A5 after a reveal: the new die breaks the chain for good.
pub const REVEAL: u8 = 1;
/// A6 variant: out of actions.
pub const ACTION_LIMIT: u8 = 2;

/// The kinds of decision: there is one, which die to adjust and which way (A4).
pub const KINDS: [&str; 1] = ["adjust"];

/// Where a position is in the procedure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// A1: `placed` of the line's positions are set up (hidden, or a d12 shown).
    Setup {
        /// Positions set up so far.
        placed: u8,
    },
    /// A4: the players choose an adjustment.
    Act,
    /// A4: the trigger d12 for moving die `die` one up (or down).
    Trigger {
        /// The die's index in the visible chain.
        die: u8,
        /// One higher (or lower).
        up: bool,
    },
    /// A3: the chain is solved and a hidden position is uncovered.
    Reveal,
    /// Won or failed.
    Over(End),
}

/// An adjustment (A4): die `die` (its index in the visible chain) one up or one down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The die's index in the visible chain, from the left.
    pub die: u8,
    /// One higher (or lower).
    pub up: bool,
}

/// A position: what the players see, and where the procedure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pos {
    /// The visible chain in line order: each die's number 1..=12, with [`JAM`] if jammed;
    /// 0 beyond `len`.
    dice: [u8; MAX_DICE],
    /// Visible dice.
    len: u8,
    /// Hidden positions left.
    hidden: u8,
    /// A3 left-to-right: the first gap (0 = before the first visible die) that may hold a
    /// hidden position; 0 under a random reveal order.
    left: u8,
    /// A6: adjustments tried so far (counted only under an action limit).
    tried: u8,
    /// Where the procedure is.
    stage: Stage,
}

impl Pos {
    /// A position at the players' decision: these visible dice (`(number, jammed)`, left to
    /// right) and this many hidden positions, nothing tried, whatever the dice say (see
    /// [`Annulus::position`] for where they lead).
    pub fn at(chain: &[(u8, bool)], hidden: u8) -> Pos {
        let mut dice = [0; MAX_DICE];
        for (d, &(v, jammed)) in dice.iter_mut().zip(chain) {
            *d = v | if jammed { JAM } else { 0 };
        }
        Pos {
            dice,
            len: chain.len() as u8,
            hidden,
            left: 0,
            tried: 0,
            stage: Stage::Act,
        }
    }

    /// The visible dice, left to right: `(number, jammed)`.
    pub fn chain(&self) -> impl Iterator<Item = (u8, bool)> + '_ {
        self.dice[..usize::from(self.len)]
            .iter()
            .map(|&d| (d & !JAM, d & JAM != 0))
    }

    /// The number of die `i`.
    pub fn value(&self, i: usize) -> u8 {
        self.dice[i] & !JAM
    }

    /// Whether die `i` is jammed.
    pub fn jammed(&self, i: usize) -> bool {
        self.dice[i] & JAM != 0
    }

    /// Visible dice.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether no die is visible.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Hidden positions left.
    pub fn hidden(&self) -> u8 {
        self.hidden
    }

    /// Adjustments tried (under an action limit; 0 otherwise).
    pub fn tried(&self) -> u8 {
        self.tried
    }

    /// Where the procedure is.
    pub fn stage(&self) -> Stage {
        self.stage
    }
}

/// The Annulus operation challenge under one reading of its rules.
#[derive(Clone, Copy, Debug)]
pub struct Annulus {
    rules: Rules,
}

impl Annulus {
    /// The game under `rules`.
    pub fn new(rules: Rules) -> Annulus {
        Annulus { rules }
    }

    /// The rules in force.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The position these visible dice (`(number, jammed)`, left to right) and this many hidden
    /// positions make once settled: over, a reveal, or the players' decision.
    pub fn position(&self, chain: &[(u8, bool)], hidden: u8) -> Pos {
        self.settle(Pos::at(chain, hidden), JAMMED)
    }

    /// How far apart two numbers are, counting steps of one (A4: on a ring of 12 under `wrap`).
    pub fn distance(&self, a: u8, b: u8) -> u8 {
        let d = a.abs_diff(b);
        if self.rules.wrap { d.min(12 - d) } else { d }
    }

    /// A2: every pair of neighbours differs by exactly 1 (a chain of 0 or 1 dice is solved).
    pub fn solved(&self, pos: &Pos) -> bool {
        (1..pos.len()).all(|i| self.distance(pos.value(i - 1), pos.value(i)) == 1)
    }

    /// A5: some numbers for the dice that are not jammed solve the chain. Two jammed dice `k`
    /// places apart can be joined by a chain of steps of one iff their distance is at most `k`
    /// and has `k`'s parity (on the ring of 12 too, as 12 is even); free dice at the ends can
    /// always follow their neighbour.
    pub fn solvable(&self, pos: &Pos) -> bool {
        let mut last: Option<(usize, u8)> = None;
        for i in (0..pos.len()).filter(|&i| pos.jammed(i)) {
            let v = pos.value(i);
            if let Some((j, w)) = last {
                let (apart, d) = ((i - j) as u8, self.distance(v, w));
                if d > apart || (apart - d) % 2 == 1 {
                    return false;
                }
            }
            last = Some((i, v));
        }
        true
    }

    /// The number `value` becomes one step up (or down), if the rules allow the step (A4).
    pub fn step(&self, value: u8, up: bool) -> Option<u8> {
        match (up, value) {
            (true, 12) => self.rules.wrap.then_some(1),
            (false, 1) => self.rules.wrap.then_some(12),
            (true, v) => Some(v + 1),
            (false, v) => Some(v - 1),
        }
    }

    /// Where play goes once the dice settle: failed (A5, A6), a reveal (A3), won, or the next
    /// adjustment. `cause` is what made the chain unsolvable, if it is.
    fn settle(&self, mut pos: Pos, cause: u8) -> Pos {
        pos.stage = if !self.solvable(&pos) {
            Stage::Over(End::Loss(cause)) // A5
        } else if self.solved(&pos) {
            if pos.hidden > 0 {
                Stage::Reveal // A3
            } else {
                Stage::Over(End::Win) // A3: solved with nothing hidden
            }
        } else if self.rules.action_limit == Some(pos.tried) {
            Stage::Over(End::Loss(ACTION_LIMIT)) // A6 variant
        } else {
            Stage::Act
        };
        pos
    }

    /// A3: the chance that a reveal lands in gap `g` (0..=len), among gaps `left..=len` that may
    /// hold the `hidden` positions, every way of placing them alike.
    fn reveal_odds(&self, pos: &Pos, g: usize) -> f64 {
        let (len, left, k) = (pos.len(), usize::from(pos.left), u64::from(pos.hidden));
        if g < left {
            return 0.0;
        }
        match self.rules.reveal_order {
            RevealOrder::Random => 1.0 / (len + 1) as f64,
            RevealOrder::LeftToRight => {
                // The leftmost lies in gap g: gaps left..g hold none, gap g at least one, so
                // the other k - 1 lie anywhere in gaps g..=len.
                let gaps = (len + 1 - left) as u64;
                let from_g = (len + 1 - g) as u64;
                binomial(k - 1 + from_g - 1, from_g - 1) as f64
                    / binomial(k + gaps - 1, gaps - 1) as f64
            }
        }
    }

    /// Mirror (read right to left) and reflection (`v → 13 − v`), and under `wrap` the turns of
    /// the ring: the images of `pos` that play alike. A mirror image plays alike only while the
    /// reveal order does not tell left from right.
    fn images(&self, pos: &Pos, each: &mut impl FnMut(Pos)) {
        let mirror = self.rules.reveal_order == RevealOrder::Random || pos.hidden == 0;
        let turns = if self.rules.wrap { 12 } else { 1 };
        for reversed in [false, true] {
            if reversed && !mirror {
                continue;
            }
            for reflected in [false, true] {
                for turn in 0..turns {
                    let mut image = *pos;
                    for i in 0..pos.len() {
                        let from = if reversed { pos.len() - 1 - i } else { i };
                        let (v, jam) = (pos.value(from), pos.dice[from] & JAM);
                        let v = if reflected { 13 - v } else { v };
                        let v = (v - 1 + turn) % 12 + 1;
                        image.dice[i] = v | jam;
                    }
                    each(image);
                }
            }
        }
    }
}

/// `n` choose `k`, exactly (small numbers).
fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

impl Game for Annulus {
    type Pos = Pos;
    type Option = Move;
    type Key = u64;

    fn name(&self) -> &'static str {
        "annulus"
    }

    fn kinds(&self) -> &'static [&'static str] {
        &KINDS
    }

    fn causes(&self) -> &'static [&'static str] {
        &CAUSES
    }

    /// The set-up (A1), then the chain by how many positions are still hidden (A3): a reveal
    /// starts the next stage.
    fn phases(&self) -> Vec<String> {
        let dice = self.rules.dice();
        let mut phases = vec!["set-up".to_string()];
        phases.extend((0..=dice).rev().map(|hidden| match hidden {
            0 => "nothing hidden".to_string(),
            1 => "1 hidden".to_string(),
            h => format!("{h} hidden"),
        }));
        phases
    }

    fn phase(&self, pos: &Pos) -> u8 {
        match pos.stage {
            Stage::Setup { .. } => 0,
            Stage::Over(_) => self.rules.dice() as u8 + 1,
            _ => 1 + self.rules.dice() as u8 - pos.hidden,
        }
    }

    fn start(&self) -> Pos {
        Pos {
            dice: [0; MAX_DICE],
            len: 0,
            hidden: 0,
            left: 0,
            tried: 0,
            stage: Stage::Setup { placed: 0 },
        }
    }

    fn point(&self, pos: &Pos) -> Point {
        match pos.stage {
            Stage::Act => Point::Decision(0),
            Stage::Over(end) => Point::Over(end),
            _ => Point::Chance,
        }
    }

    fn outcomes(&self, pos: &Pos, each: &mut impl FnMut(Pos, f64)) {
        match pos.stage {
            Stage::Setup { placed } => {
                let last = usize::from(placed) + 1 == self.rules.dice();
                let next = |mut p: Pos| {
                    p.stage = Stage::Setup { placed: placed + 1 };
                    if last { self.settle(p, JAMMED) } else { p }
                };
                // A1: a d4 per position; a face in the hiding set hides it.
                let hide = f64::from(self.rules.hidden_faces) / 4.0;
                if hide > 0.0 {
                    let mut p = *pos;
                    p.hidden += 1;
                    each(next(p), hide);
                }
                // A1: every other position shows a d12, in line order.
                for v in 1..=12 {
                    let mut p = *pos;
                    p.dice[p.len()] = v;
                    p.len += 1;
                    each(next(p), (1.0 - hide) / 12.0);
                }
            }
            Stage::Trigger { die, up } => {
                let i = usize::from(die);
                let mut p = *pos;
                if self.rules.action_limit.is_some() {
                    p.tried += 1; // A6 variant: every adjustment tried counts
                }
                // A4: target or more on the trigger d12 moves the die...
                let mut moved = p;
                moved.dice[i] = self.step(p.value(i), up).expect("a legal move");
                each(self.settle(moved, JAMMED), self.rules.success());
                // ...anything less jams it where it is, for good.
                let mut jammed = p;
                jammed.dice[i] |= JAM;
                each(self.settle(jammed, JAMMED), self.rules.jam());
            }
            Stage::Reveal => {
                // A3: one hidden position uncovered, a fresh d12 in its gap, not jammed.
                for g in 0..=pos.len() {
                    let odds = self.reveal_odds(pos, g);
                    if odds == 0.0 {
                        continue;
                    }
                    for v in 1..=12 {
                        let mut p = *pos;
                        p.dice.copy_within(g..pos.len(), g + 1);
                        p.dice[g] = v;
                        p.len += 1;
                        p.hidden -= 1;
                        if self.rules.reveal_order == RevealOrder::LeftToRight {
                            // Nothing hidden is left of the revealed die; with nothing hidden
                            // at all, no gap matters (one position, not one per gap).
                            p.left = if p.hidden == 0 { 0 } else { g as u8 + 1 };
                        }
                        each(self.settle(p, REVEAL), odds / 12.0);
                    }
                }
            }
            Stage::Act | Stage::Over(_) => unreachable!("not a chance point: {pos:?}"),
        }
    }

    #[inline]
    fn options(&self, pos: &Pos, each: &mut impl FnMut(Move, Pos)) {
        self.moves(pos, &mut |m| each(m, self.after(pos, m)));
    }

    #[inline]
    fn moves(&self, pos: &Pos, each: &mut impl FnMut(Move)) {
        // A4: any die not jammed, one up or one down, within 1..=12 unless the ring wraps.
        // A6: who acts does not matter, so this is the whole choice.
        for i in (0..pos.len()).filter(|&i| !pos.jammed(i)) {
            for up in [true, false] {
                if self.step(pos.value(i), up).is_some() {
                    each(Move { die: i as u8, up });
                }
            }
        }
    }

    /// A4: the trigger d12 for the move is rolled next.
    #[inline]
    fn after(&self, pos: &Pos, m: Move) -> Pos {
        let mut p = *pos;
        p.stage = Stage::Trigger {
            die: m.die,
            up: m.up,
        };
        p
    }

    fn layer(&self, pos: &Pos) -> u32 {
        let dice = self.rules.dice() as u32;
        match pos.stage {
            Stage::Setup { placed } => 1 << 20 | (dice - u32::from(placed)),
            Stage::Over(_) => 0,
            // A reveal lowers the hidden count, a jam the free dice, an adjustment under a
            // limit the actions left; nothing raises any of them.
            _ => {
                let free = (0..pos.len()).filter(|&i| !pos.jammed(i)).count() as u32;
                let left = self
                    .rules
                    .action_limit
                    .map_or(0, |n| u32::from(n - pos.tried));
                (u32::from(pos.hidden) * 8 + free) * 128 + left
            }
        }
    }

    fn stored(&self, pos: &Pos) -> bool {
        matches!(pos.stage, Stage::Setup { .. } | Stage::Act)
    }

    fn canonical(&self, pos: &Pos) -> Pos {
        if pos.stage != Stage::Act {
            return *pos;
        }
        let mut best = *pos;
        let mut best_key = self.key(pos);
        self.images(pos, &mut |image| {
            let key = self.key(&image);
            if key < best_key {
                (best, best_key) = (image, key);
            }
        });
        best
    }

    fn key(&self, pos: &Pos) -> u64 {
        let dice = pos
            .dice
            .iter()
            .fold(0u64, |key, &d| key << 5 | u64::from(d));
        let stage = match pos.stage {
            Stage::Setup { placed } => u64::from(placed),
            Stage::Act => 8,
            Stage::Trigger { die, up } => 16 | u64::from(die) << 1 | u64::from(up),
            Stage::Reveal => 32,
            Stage::Over(End::Win) => 33,
            Stage::Over(End::Loss(c)) => 34 + u64::from(c),
        };
        dice | u64::from(pos.len) << 30
            | u64::from(pos.hidden) << 33
            | u64::from(pos.left) << 36
            | u64::from(pos.tried) << 39
            | stage << 46
    }

    fn stored_bound(&self) -> Option<u64> {
        // Each decision point is a chain of `dice - hidden` visible dice, each a number and a
        // jammed flag, per count of actions tried and (left to right) per first gap; the
        // reflection pairs every chain with another, so halves that. The setup points are a
        // chain's prefix with its hidden count, 13 outcomes a position.
        let dice = self.rules.dice() as u32;
        let tries = self.rules.action_limit.map_or(1, u64::from);
        let gaps = match self.rules.reveal_order {
            RevealOrder::Random => 1,
            RevealOrder::LeftToRight => u64::from(dice) + 1,
        };
        let chains: u64 = (0..=dice).map(|k| 24u64.pow(dice - k)).sum();
        Some(chains * tries * gaps / 2 + 13u64.pow(dice))
    }
}

#[cfg(test)]
mod tests;
