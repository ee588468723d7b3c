//! Monte Carlo for any game: game `i` under seed `s` draws from its own stream, so a result is
//! the same for any thread count and any game can be replayed alone.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::engine::seed::splitmix;
use crate::games::{End, Game, Point, Policy};
use crate::par::*;

/// Counts over sampled games: integers, so the same whatever order chunks are added in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games lost, by cause ([`Game::causes`]).
    pub losses: Vec<u64>,
    /// Decisions answered, over all games.
    pub decisions: u64,
    /// Chance points rolled, over all games.
    pub rolls: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.add(&other);
    }
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.wins += other.wins;
        if self.losses.len() < other.losses.len() {
            self.losses.resize(other.losses.len(), 0);
        }
        for (a, b) in self.losses.iter_mut().zip(&other.losses) {
            *a += b;
        }
        self.decisions += other.decisions;
        self.rolls += other.rolls;
    }
}

/// The stream of game `i` under `seed`.
pub fn stream(seed: u64, i: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(splitmix(splitmix(seed) ^ i))
}

/// A uniform number in [0, 1) from 53 random bits.
fn unit(rng: &mut impl Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// The index drawn from `weights` (summing to 1) by one uniform number; the last with weight
/// takes what rounding leaves.
fn draw(weights: impl Iterator<Item = f64>, u: f64) -> usize {
    let mut acc = 0.0;
    let mut last = 0;
    for (i, w) in weights.enumerate() {
        if w > 0.0 {
            acc += w;
            last = i;
            if u < acc {
                return i;
            }
        }
    }
    last
}

/// The outcome of chance point `pos` drawn with one uniform number of `rng`; `outcomes` is
/// scratch space (it is cleared first).
pub fn roll<G: Game>(
    game: &G,
    pos: &G::Pos,
    rng: &mut impl Rng,
    outcomes: &mut Vec<(G::Pos, f64)>,
) -> G::Pos {
    outcomes.clear();
    game.outcomes(pos, &mut |next, p| outcomes.push((next, p)));
    outcomes[draw(outcomes.iter().map(|&(_, p)| p), unit(rng))].0
}

/// One game of `policy` from the start with `rng`, told to `see` position by position.
pub fn play<G: Game>(
    game: &G,
    policy: &dyn Policy<G>,
    rng: &mut impl Rng,
    see: &mut impl FnMut(&G::Pos),
) -> (End, Tally) {
    let mut tally = Tally::default();
    let mut pos = game.start();
    let mut outcomes = Vec::new();
    let mut moves = Vec::new();
    let mut weights = Vec::new();
    loop {
        see(&pos);
        match game.point(&pos) {
            Point::Over(end) => return (end, tally),
            Point::Chance => {
                tally.rolls += 1;
                pos = roll(game, &pos, rng, &mut outcomes);
            }
            Point::Decision(_) => {
                tally.decisions += 1;
                moves.clear();
                game.moves(&pos, &mut |m| moves.push(m));
                weights.clear();
                weights.resize(moves.len(), 0.0);
                policy.weigh(game, &pos, &moves, &mut weights);
                let i = if weights.iter().filter(|&&w| w > 0.0).count() == 1 {
                    weights.iter().position(|&w| w > 0.0).expect("one weight")
                } else {
                    draw(weights.iter().copied(), unit(rng))
                };
                pos = game.after(&pos, moves[i]);
            }
        }
    }
}

/// Games `0..games` of `policy` under `seed`, tallied.
pub fn simulate<G: Game>(game: &G, policy: &dyn Policy<G>, games: u64, seed: u64) -> Tally {
    simulate_range(game, policy, 0..games, seed)
}

/// Games `games` of a run of `policy` under `seed`, tallied: game `i` plays the same in any
/// range, so the tallies of ranges that cover `0..n` once add up to the whole run's (the
/// counts are integers).
pub fn simulate_range<G: Game>(
    game: &G,
    policy: &dyn Policy<G>,
    games: std::ops::Range<u64>,
    seed: u64,
) -> Tally {
    const CHUNK: u64 = 1 << 14;
    let chunks = (games.end.saturating_sub(games.start)).div_ceil(CHUNK);
    let tallies: Vec<Tally> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut tally = Tally {
                losses: vec![0; game.causes().len()],
                ..Tally::default()
            };
            let first = games.start + c * CHUNK;
            for i in first..(first + CHUNK).min(games.end) {
                let (end, one) = play(game, policy, &mut stream(seed, i), &mut |_| {});
                tally.games += 1;
                match end {
                    End::Win => tally.wins += 1,
                    End::Loss(cause) => tally.losses[usize::from(cause)] += 1,
                }
                tally.decisions += one.decisions;
                tally.rolls += one.rolls;
            }
            tally
        })
        .collect();
    let mut total = Tally {
        losses: vec![0; game.causes().len()],
        ..Tally::default()
    };
    for t in &tallies {
        total.add(t);
    }
    total
}
