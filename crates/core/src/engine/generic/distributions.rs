//! What a game of a strategy is like over all its games, exactly: how luck and skill spread,
//! how far optimal play's win probability `μ` moves a step, how often a game comes back or
//! breaks a heart, where it is decided, how long it lasts — each a replay of the strategy's
//! program with every step apart ([`Program::compile_steps`]), instead of a sample of games.
//!
//! Along a game, `μ` moves at each step: a roll's change is luck, a decision's is skill. What
//! is a figure of whole games (the spread of luck, whether `μ` ever fell to 20%) is settled
//! from the end backwards, position by position, as what is left of the game from there; what
//! depends on how a position was reached (the stage it was entered at) is summed over the
//! positions' expected visits from the start.

use super::evaluate::{MEANINGFUL, ends_surely};
use super::figures::Figures;
use super::program::{CHANCE, END, Layer, Program};
use super::settle::{settle_by, visits};
use super::solve::Optimum;
use super::{Stop, check_cancel};
use crate::engine::Budget;
use crate::games::{Game, PHASES, Policy};
use crate::par::*;

/// `μ` where a game is as good as decided: within this of its result from there to the end.
pub const DECIDED: f64 = 0.1;

/// A comeback: a won game whose `μ` fell to this or lower on the way.
pub const COMEBACK: f64 = 0.2;

/// A heartbreak: a lost game whose `μ` rose to this or higher on the way.
pub const HEARTBREAK: f64 = 0.8;

/// Bins of `μ` on entering a stage: one per whole point, 0 to 100.
pub const POINTS: usize = 101;

/// `μ` in whole points.
pub(super) fn points(mu: f64) -> u8 {
    (mu * 100.0).round().clamp(0.0, 100.0) as u8
}

/// The figures of a strategy that are distributions over its games, exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct Distributions {
    /// Optimal play's win probability at the start.
    pub start: f64,
    /// The probability of a win.
    pub win: f64,
    /// Decisions per game whose options' optimal values differ by at least [`MEANINGFUL`]`[i]`:
    /// where the choice is real.
    pub meaningful: [f64; 2],
    /// The mean of a game's luck (the sum of `μ`'s changes at rolls) and of its square.
    pub luck: [f64; 2],
    /// The mean of a game's skill (the sum at decisions) and of its square.
    pub skill: [f64; 2],
    /// The mean over games of the sum of `μ`'s squared changes.
    pub squares: f64,
    /// Steps (rolls and decisions) per game, in expectation.
    pub steps: f64,
    /// The probability of a win where `μ` fell to [`COMEBACK`] or lower on the way.
    pub comebacks: f64,
    /// The probability of a loss where `μ` rose to [`HEARTBREAK`] or higher on the way.
    pub heartbreaks: f64,
    /// The probability of a win, and of a loss, decided in each stage: that of the last
    /// position where `μ` was more than [`DECIDED`] from the result; the last entry, never.
    pub decided: [[f64; PHASES + 1]; 2],
    /// The probability of each number of rolls in a game (index `k`: `k` rolls).
    pub rolls: Vec<f64>,
    /// Likewise of decisions.
    pub decisions: Vec<f64>,
    /// The probability of entering each stage with `μ` at each whole point, and winning or
    /// losing: `[stage][lost][point]`, flat.
    pub entered: Vec<f64>,
}

impl Distributions {
    /// Points lost to decisions per game, in expectation: the regret, exactly.
    pub fn skill_loss(&self) -> f64 {
        // Optimal play's +0 rather than −0.
        0.0 - self.skill[0]
    }

    /// The variance of a game's luck.
    pub fn luck_variance(&self) -> f64 {
        (self.luck[1] - self.luck[0] * self.luck[0]).max(0.0)
    }

    /// The variance of a game's skill.
    pub fn skill_variance(&self) -> f64 {
        (self.skill[1] - self.skill[0] * self.skill[0]).max(0.0)
    }
}

/// The exact figures of `policy` playing the game `solved` solved, and its distributions over
/// games, from one compile of its play with every step apart.
pub fn distributions<G: Game, O: Optimum<G> + ?Sized>(
    solved: &O,
    policy: &dyn Policy<G>,
    budget: Budget<'_>,
) -> Result<(Figures, Distributions), Stop> {
    let game = solved.game();
    let p = Program::compile_steps(game, policy, budget)?;
    check_cancel(&budget)?;
    ends_surely(&p, game, policy)?;
    let chance = |id: u32| p.kind_of(id) == CHANCE;
    let layers = &p.layers;
    // The lengths of games apart from the rest, side by side with it.
    let (lengths, replayed) = join(
        || lengths(&p, layers, &chance),
        || along(&p, layers, solved, policy.name(), budget),
    );
    let (figures, mut games) = replayed?;
    [games.rolls, games.decisions] = lengths;
    Ok((figures, games))
}

/// Everything but the lengths of games ([`distributions`]) from `p`, the program of the
/// strategy `name` playing the game `solved` solved, with its layers.
fn along<G: Game, O: Optimum<G> + ?Sized>(
    p: &Program<G>,
    layers: &[Layer],
    solved: &O,
    name: &str,
    budget: Budget<'_>,
) -> Result<(Figures, Distributions), Stop> {
    let game = solved.game();
    let n = p.len();
    let chance = |id: u32| p.kind_of(id) == CHANCE;
    // Settled together from the end backwards, at each position (at an end, `end`'s): `μ`,
    // the chance of a win, the skill still to come in expectation, and the chance of a win
    // (or a loss) with `μ` within DECIDED of it from here to the end.
    let [mu, win, skill_left, near_win, near_loss] = [0, 1, 2, 3, 4];
    let end = |t: u32| {
        let won = f64::from(u8::from(t == END));
        [won, won, 0.0, won, 1.0 - won]
    };
    // The stage of every stored position; at a decision, `μ` and whether the choice is real
    // (its options' values read from the solve; a chance point's `μ` is what its outcomes
    // give, settled below).
    let (stage, first): (Vec<(u8, u8)>, Vec<[f64; 5]>) = (0..n as u32)
        .into_par_iter()
        .map(|id| {
            let pos = p.position(game, id);
            let (mut mu, mut real) = (0.0, 0u8);
            if !chance(id) {
                let (worst, best) = solved
                    .option_values(&pos)
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &(_, v)| {
                        (lo.min(v), hi.max(v))
                    });
                mu = best;
                for (k, least) in MEANINGFUL.iter().enumerate() {
                    real |= u8::from(best - worst >= *least) << k;
                }
            }
            ((game.phase(&pos), real), [mu, 0.0, 0.0, 0.0, 0.0])
        })
        .unzip();
    let (stage, real): (Vec<u8>, Vec<u8>) = stage.into_iter().unzip();
    check_cancel(&budget)?;
    // A step's change of `μ`: at a decision, one as good as the best gives up nothing,
    // whatever the last bits say.
    let change = |roll: bool, from: f64, to: f64| {
        let c = to - from;
        if !roll && c.abs() <= ROUNDING { 0.0 } else { c }
    };
    let settled = settle_by(layers, first, |id, values| {
        let read = |t: u32| if t >= END { end(t) } else { values[t as usize] };
        let roll = chance(id);
        let here = if roll {
            p.terms(id).map(|(t, w)| w * read(t)[mu]).sum()
        } else {
            values[id as usize][mu]
        };
        let mut v = [here, 0.0, 0.0, 0.0, 0.0];
        for (t, w) in p.terms(id) {
            let next = read(t);
            let skill = if roll {
                0.0
            } else {
                change(false, here, next[mu])
            };
            v[skill_left] += w * (skill + next[skill_left]);
            for k in [win, near_win, near_loss] {
                v[k] += w * next[k];
            }
        }
        if here < 1.0 - DECIDED {
            v[near_win] = 0.0;
        }
        if here > DECIDED {
            v[near_loss] = 0.0;
        }
        v
    });
    check_cancel(&budget)?;
    let at = |id: u32, k: usize| settled[id as usize][k];
    let read = |t: u32, k: usize| if t >= END { end(t)[k] } else { at(t, k) };

    // Summed over every step of every game, each position weighed by its expected visits.
    let visited = visits(p, layers, &|_| true);
    let mut sums = Sums::default();
    let mut losses = vec![0.0; game.causes().len()];
    let mut decided = [[0.0; PHASES + 1]; 2];
    let mut entered = vec![0.0; PHASES * 2 * POINTS];
    let first = p.start();
    let start = (
        usize::from(stage[first as usize]),
        usize::from(points(at(first, mu))),
    );
    entered[start.0 * 2 * POINTS + start.1] += at(first, win);
    entered[(start.0 * 2 + 1) * POINTS + start.1] += 1.0 - at(first, win);
    decided[0][PHASES] = at(first, near_win);
    decided[1][PHASES] = at(first, near_loss);
    for id in 0..n as u32 {
        let (here, v, s) = (at(id, mu), visited[id as usize], stage[id as usize]);
        if v == 0.0 {
            continue;
        }
        let roll = chance(id);
        sums.steps[usize::from(!roll)] += v;
        for (k, meaningful) in sums.meaningful.iter_mut().enumerate() {
            if real[id as usize] >> k & 1 == 1 {
                *meaningful += v;
            }
        }
        // The chance of a win, and of a loss, with `μ` near it all the way after here.
        let mut near_after = [0.0; 2];
        for (t, w) in p.terms(id) {
            near_after[0] += w * read(t, near_win);
            near_after[1] += w * read(t, near_loss);
            let c = change(roll, here, read(t, mu));
            sums.squares += v * w * c * c;
            if roll {
                // Luck's changes have mean 0 at every roll, so the square of their sum is
                // the sum of their squares in expectation.
                sums.luck += v * w * c;
                sums.luck2 += v * w * c * c;
            } else {
                // The square of the sum of the skill changes: each one's square, and twice it
                // times the skill still to come after it.
                sums.skill2 += v * w * c * (c + 2.0 * read(t, skill_left));
            }
            if t > END {
                losses[(t - END - 1) as usize] += v * w;
            }
            // A stage entered: `μ` there, and the result.
            if t < END && stage[t as usize] != s {
                let into =
                    usize::from(stage[t as usize]) * 2 * POINTS + usize::from(points(at(t, mu)));
                entered[into] += v * w * at(t, win);
                entered[into + POINTS] += v * w * (1.0 - at(t, win));
            }
        }
        // Decided here: the last position far from the result, all after it near.
        for (result, far) in [here < 1.0 - DECIDED, here > DECIDED]
            .into_iter()
            .enumerate()
        {
            if far {
                decided[result][usize::from(s)] += v * near_after[result];
            }
        }
    }
    drop(visited);
    check_cancel(&budget)?;
    // A win with `μ` at COMEBACK or lower on the way: summed where it first gets there, each
    // game once; a loss with `μ` at HEARTBREAK or higher likewise.
    let first_at = |there: &dyn Fn(f64) -> bool, result: &dyn Fn(u32) -> f64| -> f64 {
        let before = visits(p, layers, &|id| !there(at(id, mu)));
        (0..n as u32)
            .filter(|&id| there(at(id, mu)))
            .map(|id| before[id as usize] * result(id))
            .sum()
    };
    let comebacks = first_at(&|m| m <= COMEBACK, &|id| at(id, win));
    let heartbreaks = first_at(&|m| m >= HEARTBREAK, &|id| 1.0 - at(id, win));
    check_cancel(&budget)?;
    let (win_rate, skill) = (at(first, win), at(first, skill_left));
    Ok((
        Figures {
            strategy: name.to_string(),
            win: win_rate,
            losses,
            decisions: sums.steps[1],
            rolls: sums.steps[0],
            positions: n,
        },
        Distributions {
            start: at(first, mu),
            win: win_rate,
            meaningful: sums.meaningful,
            luck: [sums.luck, sums.luck2],
            skill: [skill, sums.skill2],
            squares: sums.squares,
            steps: sums.steps[0] + sums.steps[1],
            comebacks,
            heartbreaks,
            decided,
            rolls: Vec::new(),
            decisions: Vec::new(),
            entered,
        },
    ))
}

/// What the steps of a game add up to, in expectation ([`distributions`]).
#[derive(Default)]
struct Sums {
    /// Rolls, decisions.
    steps: [f64; 2],
    /// `μ`'s squared changes.
    squares: f64,
    /// Luck, and its square.
    luck: f64,
    luck2: f64,
    /// Skill's square.
    skill2: f64,
    /// Decisions whose options' values differ by at least [`MEANINGFUL`]`[k]`.
    meaningful: [f64; 2],
}

/// A decision's change of `μ` within this of none is none: the same value summed in another
/// order.
const ROUNDING: f64 = 1e-12;

/// Chances of the counts so far on arriving at a position: from `first` on.
#[derive(Default)]
struct Counts {
    first: u32,
    chances: Vec<f64>,
}

impl Counts {
    /// Adds `from`'s chances times `w`, each count raised by `by`.
    fn add(&mut self, from: &Counts, by: u32, w: f64) {
        let first = from.first + by;
        if self.chances.is_empty() {
            self.first = first;
        } else if first < self.first {
            let grow = (self.first - first) as usize;
            self.chances.splice(0..0, std::iter::repeat_n(0.0, grow));
            self.first = first;
        }
        let offset = (first - self.first) as usize;
        if self.chances.len() < offset + from.chances.len() {
            self.chances.resize(offset + from.chances.len(), 0.0);
        }
        for (a, b) in self.chances[offset..].iter_mut().zip(&from.chances) {
            *a += w * b;
        }
    }

    /// The chance of each count from 0.
    fn into_whole(self) -> Vec<f64> {
        let mut all = vec![0.0; self.first as usize];
        all.extend(self.chances);
        all
    }
}

/// What is left in a layer play returns to when its cycles are cut: a share of a game this
/// small is dropped, not counted at any length.
const NEGLIGIBLE: f64 = 1e-15;

/// No slot ([`Frontier`]).
const NO_SLOT: u32 = u32::MAX;

/// The counts so far of the positions met and not yet passed on, in slots reused as they are
/// let go (so that only those positions hold memory, and few vectors are made anew).
struct Frontier {
    /// Each position's slot, or [`NO_SLOT`].
    slot: Vec<u32>,
    /// Per slot: the counts of rolls, and of decisions.
    slots: Vec<[Counts; 2]>,
    free: Vec<u32>,
}

impl Frontier {
    /// The counts of position `id`, a slot taken if it has none.
    fn at(&mut self, id: u32) -> &mut [Counts; 2] {
        if self.slot[id as usize] == NO_SLOT {
            let s = self.free.pop().unwrap_or_else(|| {
                self.slots.push(Default::default());
                self.slots.len() as u32 - 1
            });
            self.slot[id as usize] = s;
        }
        &mut self.slots[self.slot[id as usize] as usize]
    }

    /// Takes `id`'s counts out (its slot freed), if it has any.
    fn take(&mut self, id: u32) -> Option<[Counts; 2]> {
        let s = std::mem::replace(&mut self.slot[id as usize], NO_SLOT);
        (s != NO_SLOT).then(|| {
            self.free.push(s);
            std::mem::take(&mut self.slots[s as usize])
        })
    }

    /// Gives back the vectors of counts taken out, emptied, to a free slot.
    fn recycle(&mut self, mut counts: [Counts; 2]) {
        if let Some(&s) = self.free.last() {
            for (slot, c) in self.slots[s as usize].iter_mut().zip(&mut counts) {
                if slot.chances.capacity() == 0 {
                    c.chances.clear();
                    slot.chances = std::mem::take(&mut c.chances);
                }
            }
        }
    }
}

/// The chance of each number of rolls, and of decisions, in a game of `p`'s strategy (`roll`:
/// whether a position is a roll): the counts so far carried from the start down the program,
/// each position's let go once passed on.
fn lengths<G: Game>(p: &Program<G>, layers: &[Layer], roll: &dyn Fn(u32) -> bool) -> [Vec<f64>; 2] {
    let mut f = Frontier {
        slot: vec![NO_SLOT; p.len()],
        slots: Vec::new(),
        free: Vec::new(),
    };
    *f.at(p.start()) = [0, 1].map(|_| Counts {
        first: 0,
        chances: vec![1.0],
    });
    let mut ended: [Counts; 2] = Default::default();
    let mut pass = |id: u32, f: &mut Frontier| {
        if let Some(mut c) = f.take(id) {
            let by = [u32::from(roll(id)), u32::from(!roll(id))];
            // Play that goes one way only, to a position nothing reached yet, takes the counts
            // along as they are, one further.
            let mut terms = p.terms(id);
            if let (Some((t, w)), None) = (terms.next(), terms.next())
                && t < END
                && w == 1.0
                && f.slot[t as usize] == NO_SLOT
            {
                for (c, by) in c.iter_mut().zip(by) {
                    c.first += by;
                }
                std::mem::swap(f.at(t), &mut c);
                f.recycle(c);
                return;
            }
            for (t, w) in p.terms(id) {
                let into = if t >= END { &mut ended } else { f.at(t) };
                for k in 0..2 {
                    into[k].add(&c[k], by[k], w);
                }
            }
            f.recycle(c);
        }
    };
    for (ids, once) in layers.iter().rev() {
        if *once {
            for id in ids.clone().rev() {
                pass(id, &mut f);
            }
            continue;
        }
        // Round after round, what came round again passed on, until it is negligible.
        loop {
            for id in ids.clone().rev() {
                pass(id, &mut f);
            }
            let left: f64 = ids
                .clone()
                .filter_map(|id| {
                    let s = f.slot[id as usize];
                    (s != NO_SLOT).then(|| f.slots[s as usize][0].chances.iter().sum::<f64>())
                })
                .sum();
            if left < NEGLIGIBLE {
                for id in ids.clone() {
                    f.take(id);
                }
                break;
            }
        }
    }
    ended.map(Counts::into_whole)
}
