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
use super::evaluate::regret;
use super::figures::Figures;
use super::sample::{play, stream};
use super::solve::Optimum;
use crate::engine::Budget;
use crate::games::{End, Game, Point, Policy};
use crate::par::*;
use crate::stats::wilson;

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

impl Course {
    /// A game whose start optimal play wins with probability `start`.
    pub fn new(start: f64) -> Course {
        Course {
            low: start,
            high: start,
            ..Course::default()
        }
    }

    /// Records a step (a chance point, or a decision) that moved `μ` from `before` to `after`.
    pub fn step(&mut self, chance: bool, before: f64, after: f64) {
        let change = after - before;
        if chance {
            self.luck += change;
        } else {
            self.skill += change;
        }
        self.squares += change * change;
        self.steps += 1;
        self.low = self.low.min(after);
        self.high = self.high.max(after);
    }
}

/// Follows one game, recording `μ` before and after every step.
pub fn course<G: Game, O: Optimum<G> + ?Sized>(
    solved: &O,
    policy: &dyn Policy<G>,
    rng: &mut impl Rng,
) -> Course {
    let game = solved.game();
    let mut c = Course::new(solved.value(&game.start()));
    let mut last: Option<(f64, bool)> = None;
    let (end, _) = play(game, policy, rng, &mut |pos| {
        // An end's value is its result.
        let mu = solved.value(pos);
        if let Some((before, chance)) = last {
            c.step(chance, before, mu);
        }
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
    /// Points lost to decisions per game, in expectation: the regret, exactly.
    pub skill_loss: f64,
    /// Optimal play's win probability at the start.
    pub start: f64,
    /// Decisions per game whose options' optimal values differ by at least 1 point, and by 5
    /// ([`super::evaluate::Regret::meaningful`]).
    pub meaningful: [f64; 2],
    /// The sampled games.
    pub courses: Vec<Course>,
}

impl Quality {
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

    /// [`Quality::suspense`] with its 95% interval: the ratio of the squared changes to the
    /// steps over games (each game one draw), its standard error by the delta method, the
    /// ends square-rooted.
    pub fn suspense_interval(&self) -> Interval {
        let n = self.courses.len() as f64;
        let steps: f64 = self.courses.iter().map(|c| f64::from(c.steps)).sum();
        if steps == 0.0 {
            return Interval::point(0.0);
        }
        let r = self.courses.iter().map(|c| c.squares).sum::<f64>() / steps;
        let mean_steps = steps / n;
        let spread: f64 = self
            .courses
            .iter()
            .map(|c| (c.squares - r * f64::from(c.steps)).powi(2))
            .sum::<f64>()
            / (n - 1.0).max(1.0);
        let se = (spread / n).sqrt() / mean_steps;
        Interval {
            value: r.sqrt(),
            low: (r - 1.96 * se).max(0.0).sqrt(),
            high: (r + 1.96 * se).sqrt(),
        }
    }

    /// The comeback rate ([`Quality::comebacks`]) with its 95% Wilson interval.
    pub fn comeback_rate(&self) -> Interval {
        Interval::share(self.comebacks())
    }

    /// The heartbreak rate ([`Quality::heartbreaks`]) with its 95% Wilson interval.
    pub fn heartbreak_rate(&self) -> Interval {
        Interval::share(self.heartbreaks())
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

/// A sampled figure and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The estimate.
    pub value: f64,
    /// The interval's lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

impl Interval {
    fn point(value: f64) -> Interval {
        Interval {
            value,
            low: value,
            high: value,
        }
    }

    /// `k` of `n` and its Wilson interval; 0 with an interval of 0..1 when nothing is counted.
    fn share((k, n): (u64, u64)) -> Interval {
        if n == 0 {
            return Interval {
                value: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let (low, high) = wilson(k, n, 0.95);
        Interval {
            value: k as f64 / n as f64,
            low,
            high,
        }
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

/// `games` games of `policy` sampled under `seed`, each followed by `μ` (the same courses on
/// any thread count).
pub fn courses<G: Game, O: Optimum<G> + ?Sized>(
    solved: &O,
    policy: &dyn Policy<G>,
    games: u64,
    seed: u64,
) -> Vec<Course> {
    (0..games)
        .into_par_iter()
        .map(|i| course(solved, policy, &mut stream(seed, i)))
        .collect()
}

/// The quality figures of `policy` on a solved game: exact expectations, and `games` games
/// sampled under `seed` ([`courses`]).
pub fn quality<G: Game, O: Optimum<G> + ?Sized>(
    solved: &O,
    policy: &dyn Policy<G>,
    games: u64,
    seed: u64,
    budget: Budget<'_>,
) -> Result<Quality, Stop> {
    let game = solved.game();
    let (figures, lost) = regret(game, policy, solved, budget)?;
    Ok(Quality {
        figures,
        skill_loss: lost.by_kind.iter().sum(),
        start: solved.start(),
        meaningful: lost.meaningful,
        courses: courses(solved, policy, games, seed),
    })
}
