//! Is it a good game? Luck and skill, tension and length for any game, from optimal play's win
//! probability `μ` of every position.
//!
//! Along a game under any strategy, `μ` moves at a chance point by luck (its expected change
//! there is 0) and at a decision by the points the choice gives up (in expectation, the
//! strategy's regret); at the end it is the result. So, game by game,
//! `μ(start) + luck + skill = result`. Expectations are exact (replays of the strategy's
//! program); what is a distribution over games (spreads, suspense, comebacks) is sampled.

use rand::Rng;

use super::Stop;
use super::evaluate::{Regret, regret};
use super::figures::Figures;
use super::sample::{play, stream};
use super::solve::Solved;
use crate::engine::Budget;
use crate::games::{End, Game, Point, Policy};
use crate::par::*;

/// One sampled game's course, as `μ` saw it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Course {
    /// The sum of `μ`'s changes at chance points.
    pub luck: f64,
    /// The sum of `μ`'s changes at decisions (never above 0 but for rounding).
    pub skill: f64,
    /// The sum of the squared changes of `μ`, over every step.
    pub squares: f64,
    /// Steps (chance points and decisions).
    pub steps: u32,
    /// The lowest and highest `μ` on the way.
    pub low: f64,
    /// The highest.
    pub high: f64,
    /// Whether the game was won.
    pub won: bool,
}

/// Follows one game, recording `μ` before and after every step.
pub fn course<G: Game>(
    solved: &Solved<'_, G>,
    policy: &dyn Policy<G>,
    rng: &mut impl Rng,
) -> Course {
    let game = solved.game();
    let start = solved.value(&game.start());
    let mut c = Course {
        low: start,
        high: start,
        ..Course::default()
    };
    let mut last: Option<(f64, bool)> = None;
    let (end, _) = play(game, policy, rng, &mut |pos| {
        // An end's value is its result.
        let mu = solved.value(pos);
        if let Some((before, chance)) = last {
            let change = mu - before;
            if chance {
                c.luck += change;
            } else {
                c.skill += change;
            }
            c.squares += change * change;
            c.steps += 1;
        }
        c.low = c.low.min(mu);
        c.high = c.high.max(mu);
        last = Some((mu, game.point(pos) == Point::Chance));
    });
    c.won = end == End::Win;
    c
}

/// A strategy's quality figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Quality {
    /// The strategy's exact figures (win probability, decisions and rolls per game).
    pub figures: Figures,
    /// Where its points go, exactly.
    pub regret: Regret,
    /// Optimal play's win probability at the start.
    pub start: f64,
    /// Decisions per game whose options' optimal values differ by at least 1 point, and by 5
    /// ([`Regret::meaningful`]).
    pub meaningful: [f64; 2],
    /// The sampled games.
    pub courses: Vec<Course>,
}

impl Quality {
    /// Points lost to decisions per game, in expectation: the regret.
    pub fn skill_loss(&self) -> f64 {
        self.regret.by_kind.iter().sum()
    }

    /// The share of the spread of results over games that chance explains: the variance of
    /// luck over the variances of luck and of skill (1 where decisions never move `μ`, as under
    /// optimal play; defined as 1 when neither moves).
    pub fn luck_share(&self) -> f64 {
        let (l, s) = (
            variance(self.courses.iter().map(|c| c.luck)),
            variance(self.courses.iter().map(|c| c.skill)),
        );
        if l + s == 0.0 { 1.0 } else { l / (l + s) }
    }

    /// The root-mean-square change of `μ` per step, over every step of every sampled game.
    pub fn suspense(&self) -> f64 {
        let steps: u64 = self.courses.iter().map(|c| u64::from(c.steps)).sum();
        let squares: f64 = self.courses.iter().map(|c| c.squares).sum();
        if steps == 0 {
            0.0
        } else {
            (squares / steps as f64).sqrt()
        }
    }

    /// Wins where `μ` fell to 20% or lower on the way, and all wins.
    pub fn comebacks(&self) -> (u64, u64) {
        let wins = self.courses.iter().filter(|c| c.won);
        let n = wins.clone().count() as u64;
        (wins.filter(|c| c.low <= 0.2).count() as u64, n)
    }

    /// Losses where `μ` rose to 80% or higher on the way, and all losses.
    pub fn heartbreaks(&self) -> (u64, u64) {
        let losses = self.courses.iter().filter(|c| !c.won);
        let n = losses.clone().count() as u64;
        (losses.filter(|c| c.high >= 0.8).count() as u64, n)
    }

    /// The mean of the sampled skill losses (`−skill`) and its standard error.
    pub fn sampled_skill_loss(&self) -> (f64, f64) {
        let n = self.courses.len() as f64;
        let mean = -self.courses.iter().map(|c| c.skill).sum::<f64>() / n;
        (
            mean,
            (variance(self.courses.iter().map(|c| c.skill)) / n).sqrt(),
        )
    }
}

/// The variance of `xs` (0 for fewer than two), summed in order.
fn variance(xs: impl Iterator<Item = f64> + Clone) -> f64 {
    let n = xs.clone().count() as f64;
    if n < 2.0 {
        return 0.0;
    }
    let mean = xs.clone().sum::<f64>() / n;
    xs.map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0)
}

/// The quality figures of `policy` on a solved game: exact expectations, and `games` games
/// sampled under `seed` (the same courses on any thread count).
pub fn quality<G: Game>(
    solved: &Solved<'_, G>,
    policy: &dyn Policy<G>,
    games: u64,
    seed: u64,
    budget: Budget<'_>,
) -> Result<Quality, Stop> {
    let game = solved.game();
    let (figures, lost) = regret(game, policy, solved, budget)?;
    let meaningful = lost.meaningful;
    let courses: Vec<Course> = (0..games)
        .into_par_iter()
        .map(|i| course(solved, policy, &mut stream(seed, i)))
        .collect();
    Ok(Quality {
        figures,
        regret: lost,
        start: solved.start(),
        meaningful,
        courses,
    })
}
