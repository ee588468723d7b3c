//! Is it a good game? Luck and skill, tension and length for any game, from optimal play's win
//! probability `μ` of every position.
//!
//! Along a game under any strategy, `μ` moves at a chance point by luck (its expected change
//! there is 0) and at a decision by the points the choice gives up (in expectation, the
//! strategy's regret); at the end it is the result. So, game by game,
//! `μ(start) + luck + skill = result`. A strategy's figures are exact, over all its games
//! ([`super::distributions`]); one game's course ([`course`]) follows `μ` step by step, and
//! sampled courses are summed ([`Sampled`]) where games are split by how they started, and
//! as an oracle for the exact figures.

use rand::Rng;

use super::Stop;
use super::distributions::{COMEBACK, DECIDED, HEARTBREAK, POINTS};
use super::distributions::{Distributions, distributions, points};
use super::figures::Figures;
use super::sample::play;
use super::solve::Optimum;
use crate::engine::Budget;
use crate::games::{End, Game, PHASES, Point, Policy};
use crate::par::*;
use crate::stats::wilson;

/// [`Course::entered`] of a stage the game never entered.
const NOT_ENTERED: u8 = u8::MAX;

/// One sampled game's course, as `μ` saw it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Course {
    /// The sum of `μ`'s changes at chance points.
    pub luck: f64,
    /// The sum of `μ`'s changes at decisions (never above 0 but for rounding).
    pub skill: f64,
    /// The sum of the squared changes of `μ`, over every step.
    pub squares: f64,
    /// Chance points met.
    pub rolls: u32,
    /// Decisions met.
    pub decisions: u32,
    /// The lowest `μ` on the way.
    pub low: f64,
    /// The highest.
    pub high: f64,
    /// Whether the game was won.
    pub won: bool,
    /// `μ` now.
    now: f64,
    /// The stage now ([`Game::phase`]).
    stage: u8,
    /// `μ` on entering each stage, in whole points ([`NOT_ENTERED`] where never entered).
    entered: [u8; PHASES],
    /// The last stage at a position where `μ` was more than [`DECIDED`] from a win, and from a
    /// loss (none: never).
    far: [Option<u8>; 2],
}

impl Course {
    /// A game whose start, at stage `stage`, optimal play wins with probability `start`.
    pub fn new(start: f64, stage: u8) -> Course {
        let mut c = Course {
            luck: 0.0,
            skill: 0.0,
            squares: 0.0,
            rolls: 0,
            decisions: 0,
            low: start,
            high: start,
            won: false,
            now: start,
            stage,
            entered: [NOT_ENTERED; PHASES],
            far: [None; 2],
        };
        c.entered[usize::from(stage)] = points(start);
        c.reach(start, stage);
        c
    }

    /// Records a step (a chance point, or a decision) that moved `μ` to `after`, at a position
    /// of stage `stage` (none: the game's end, `after` its result).
    pub fn step(&mut self, chance: bool, after: f64, stage: Option<u8>) {
        let change = after - self.now;
        if chance {
            self.luck += change;
            self.rolls += 1;
        } else {
            self.skill += change;
            self.decisions += 1;
        }
        self.squares += change * change;
        self.low = self.low.min(after);
        self.high = self.high.max(after);
        self.now = after;
        if let Some(stage) = stage {
            if stage != self.stage && self.entered[usize::from(stage)] == NOT_ENTERED {
                self.entered[usize::from(stage)] = points(after);
            }
            self.stage = stage;
            self.reach(after, stage);
        }
    }

    /// Notes a position of stage `stage` where `μ` is `mu`.
    fn reach(&mut self, mu: f64, stage: u8) {
        if mu < 1.0 - DECIDED {
            self.far[0] = Some(stage);
        }
        if mu > DECIDED {
            self.far[1] = Some(stage);
        }
    }

    /// Steps taken: chance points and decisions.
    pub fn steps(&self) -> u32 {
        self.rolls + self.decisions
    }

    /// The stage in which the game was decided: that of the last position where `μ` was more
    /// than [`DECIDED`] from the result (none: it never was, the start included).
    pub fn decided(&self) -> Option<u8> {
        self.far[usize::from(!self.won)]
    }
}

/// What sampled games show, summed: the same sums, bit for bit, on any thread count (games
/// are summed in chunks of a fixed size, the chunks in order).
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled {
    /// Games sampled.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// The sums of luck and of its square over games.
    luck: [f64; 2],
    /// The sums of skill and of its square.
    skill: [f64; 2],
    /// The sums of a game's squared changes, of their square, of its steps, of their square,
    /// and of the product of the two.
    squares: [f64; 2],
    steps: [f64; 2],
    cross: f64,
    /// Wins after `μ` fell to [`COMEBACK`], losses after it rose to [`HEARTBREAK`].
    comebacks: u64,
    heartbreaks: u64,
    /// Wins and losses by the stage they were decided in; the last entry, from the start.
    decided: [[u64; PHASES + 1]; 2],
    /// Games by their number of rolls, and of decisions.
    rolls: Vec<u64>,
    decisions: Vec<u64>,
    /// Games by `μ` on entering each stage, in points: `[stage][won][point]`, flat.
    entered: Vec<u64>,
}

impl Default for Sampled {
    fn default() -> Self {
        Sampled {
            games: 0,
            wins: 0,
            luck: [0.0; 2],
            skill: [0.0; 2],
            squares: [0.0; 2],
            steps: [0.0; 2],
            cross: 0.0,
            comebacks: 0,
            heartbreaks: 0,
            decided: [[0; PHASES + 1]; 2],
            rolls: Vec::new(),
            decisions: Vec::new(),
            entered: vec![0; PHASES * 2 * POINTS],
        }
    }
}

impl Sampled {
    /// Adds one game.
    pub fn add(&mut self, c: &Course) {
        self.games += 1;
        self.wins += u64::from(c.won);
        self.luck[0] += c.luck;
        self.luck[1] += c.luck * c.luck;
        self.skill[0] += c.skill;
        self.skill[1] += c.skill * c.skill;
        let steps = f64::from(c.steps());
        self.squares[0] += c.squares;
        self.squares[1] += c.squares * c.squares;
        self.steps[0] += steps;
        self.steps[1] += steps * steps;
        self.cross += c.squares * steps;
        self.comebacks += u64::from(c.won && c.low <= COMEBACK);
        self.heartbreaks += u64::from(!c.won && c.high >= HEARTBREAK);
        let result = usize::from(!c.won);
        self.decided[result][c.decided().map_or(PHASES, usize::from)] += 1;
        count(&mut self.rolls, c.rolls);
        count(&mut self.decisions, c.decisions);
        for (stage, &p) in c.entered.iter().enumerate() {
            if p != NOT_ENTERED {
                self.entered[(stage * 2 + result) * POINTS + usize::from(p)] += 1;
            }
        }
    }

    /// Adds the games of `other`.
    pub fn merge(&mut self, other: &Sampled) {
        self.games += other.games;
        self.wins += other.wins;
        for i in 0..2 {
            self.luck[i] += other.luck[i];
            self.skill[i] += other.skill[i];
            self.squares[i] += other.squares[i];
            self.steps[i] += other.steps[i];
        }
        self.cross += other.cross;
        self.comebacks += other.comebacks;
        self.heartbreaks += other.heartbreaks;
        for (a, b) in self.decided.iter_mut().zip(&other.decided) {
            for (a, b) in a.iter_mut().zip(b) {
                *a += b;
            }
        }
        for (a, b) in [
            (&mut self.rolls, &other.rolls),
            (&mut self.decisions, &other.decisions),
            (&mut self.entered, &other.entered),
        ] {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (a, b) in a.iter_mut().zip(b) {
                *a += b;
            }
        }
    }

    /// Games `0..games`, game `i`'s course being `course(i)`, summed in fixed chunks.
    pub fn gather(games: u64, course: impl Fn(u64) -> Course + Sync) -> Sampled {
        Sampled::gather_grouped(games, 0, |i| (course(i), [])).0
    }

    /// [`Sampled::gather`], each game also summed into the `K` groups (one of each kind of
    /// grouping the game makes, each below `groups`) that `course` names with it. Chunks are
    /// summed a batch at a time and merged in order, so the sums are the same bits on any
    /// thread count and the memory held does not grow with the number of games.
    pub fn gather_grouped<const K: usize>(
        games: u64,
        groups: usize,
        course: impl Fn(u64) -> (Course, [usize; K]) + Sync,
    ) -> (Sampled, Vec<Sampled>) {
        const CHUNK: u64 = 1 << 13;
        const BATCH: u64 = 32;
        let chunks = games.div_ceil(CHUNK);
        let mut total = Sampled::default();
        let mut by = vec![Sampled::default(); groups];
        for batch in (0..chunks).step_by(BATCH as usize) {
            let summed: Vec<(Sampled, Vec<Option<Sampled>>)> = (batch..(batch + BATCH).min(chunks))
                .into_par_iter()
                .map(|c| {
                    let mut s = Sampled::default();
                    // A group's sums, made on its chunk's first game in it.
                    let mut g: Vec<Option<Sampled>> = vec![None; groups];
                    for i in c * CHUNK..((c + 1) * CHUNK).min(games) {
                        let (course, into) = course(i);
                        s.add(&course);
                        for k in into {
                            g[k].get_or_insert_with(Sampled::default).add(&course);
                        }
                    }
                    (s, g)
                })
                .collect();
            for (s, g) in &summed {
                total.merge(s);
                for (a, b) in by.iter_mut().zip(g) {
                    if let Some(b) = b {
                        a.merge(b);
                    }
                }
            }
        }
        (total, by)
    }

    /// The share of the spread of results over games that chance explains: the variance of
    /// luck over the variances of luck and of skill (1 where decisions never move `μ`, as under
    /// optimal play; defined as 1 when neither moves).
    pub fn luck_share(&self) -> f64 {
        let (l, k) = (
            variance(self.games, self.luck),
            variance(self.games, self.skill),
        );
        if l + k == 0.0 { 1.0 } else { l / (l + k) }
    }

    /// The root-mean-square change of `μ` per step, over every step of every game, with its
    /// 95% interval: the ratio of the squared changes to the steps over games (each game one
    /// draw), its standard error by the delta method, the ends square-rooted.
    pub fn suspense_interval(&self) -> Interval {
        let n = self.games as f64;
        if self.steps[0] == 0.0 {
            return Interval::point(0.0);
        }
        let r = self.squares[0] / self.steps[0];
        let mean_steps = self.steps[0] / n;
        // Σ (squares − r·steps)², expanded.
        let spread = (self.squares[1] - 2.0 * r * self.cross + r * r * self.steps[1]).max(0.0)
            / (n - 1.0).max(1.0);
        let se = (spread / n).sqrt() / mean_steps;
        Interval {
            value: r.sqrt(),
            low: (r - 1.96 * se).max(0.0).sqrt(),
            high: (r + 1.96 * se).sqrt(),
        }
    }

    /// The share of games won, with its 95% Wilson interval.
    pub fn win_rate(&self) -> Interval {
        Interval::share((self.wins, self.games))
    }

    /// Wins where `μ` fell to [`COMEBACK`] or lower on the way, and all wins.
    pub fn comebacks(&self) -> (u64, u64) {
        (self.comebacks, self.wins)
    }

    /// Losses where `μ` rose to [`HEARTBREAK`] or higher on the way, and all losses.
    pub fn heartbreaks(&self) -> (u64, u64) {
        (self.heartbreaks, self.games - self.wins)
    }

    /// The comeback rate ([`Sampled::comebacks`]) with its 95% Wilson interval.
    pub fn comeback_rate(&self) -> Interval {
        Interval::share(self.comebacks())
    }

    /// The heartbreak rate ([`Sampled::heartbreaks`]) with its 95% Wilson interval.
    pub fn heartbreak_rate(&self) -> Interval {
        Interval::share(self.heartbreaks())
    }

    /// The mean of the skill losses (`−skill`) and its standard error.
    pub fn skill_loss(&self) -> (f64, f64) {
        let n = self.games as f64;
        (
            -self.skill[0] / n,
            (variance(self.games, self.skill) / n).sqrt(),
        )
    }

    /// Wins, and losses, by the stage they were decided in ([`Course::decided`]); the last
    /// entry, from the start.
    pub fn decided(&self) -> [[u64; PHASES + 1]; 2] {
        self.decided
    }

    /// Games by their number of rolls (`rolls`), or of decisions: index `k` holds the games of
    /// `k`.
    pub fn lengths(&self, rolls: bool) -> &[u64] {
        if rolls { &self.rolls } else { &self.decisions }
    }

    /// The sum over games of the squared changes of `μ`, and of the steps.
    pub fn squares_and_steps(&self) -> [f64; 2] {
        [self.squares[0], self.steps[0]]
    }
}

/// Counts one more game at `k` in a histogram.
fn count(histogram: &mut Vec<u64>, k: u32) {
    let k = k as usize;
    if histogram.len() <= k {
        histogram.resize(k + 1, 0);
    }
    histogram[k] += 1;
}

/// The smallest `k` at or below which at least `q` of the histogram's games (or chances) lie.
fn quantile(histogram: &[f64], q: f64) -> u32 {
    let n: f64 = histogram.iter().sum();
    let mut below = 0.0;
    for (k, &g) in histogram.iter().enumerate() {
        below += g;
        if below >= q * n && below > 0.0 {
            return k as u32;
        }
    }
    0
}

/// A strategy's quality figures, every one exact.
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
    /// What its games are like, over all of them ([`super::distributions`]).
    pub games: Distributions,
}

impl Quality {
    /// The quality of a strategy whose exact figures are `figures` and its games `games`.
    pub fn new(figures: Figures, games: Distributions) -> Quality {
        Quality {
            figures,
            skill_loss: games.skill_loss(),
            start: games.start,
            meaningful: games.meaningful,
            games,
        }
    }
}

/// Where games are decided: the shares of wins and of losses (in that order) by stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Decided {
    /// Per stage ([`Game::phases`]): the shares of wins, and of losses, decided there.
    pub by_stage: Vec<[f64; 2]>,
    /// Decided from the start: the start already within [`DECIDED`] of the result.
    pub from_start: [f64; 2],
}

/// `part` of `whole`, 0 where there is no whole.
fn share(part: f64, whole: f64) -> f64 {
    if whole > 0.0 { part / whole } else { 0.0 }
}

impl Quality {
    /// The share of the spread of results over games that chance explains: the variance of
    /// luck over the variances of luck and of skill (1 where decisions never move `μ`, as under
    /// optimal play; defined as 1 when neither moves).
    pub fn luck_share(&self) -> f64 {
        let (l, k) = (self.games.luck_variance(), self.games.skill_variance());
        if l + k == 0.0 { 1.0 } else { l / (l + k) }
    }

    /// The root-mean-square change of `μ` per step, over every step of every game: the mean
    /// of a game's squared changes over its mean steps.
    pub fn suspense(&self) -> f64 {
        share(self.games.squares, self.games.steps).sqrt()
    }

    /// The share of wins where `μ` fell to [`COMEBACK`] or lower on the way.
    pub fn comeback_rate(&self) -> f64 {
        share(self.games.comebacks, self.games.win)
    }

    /// The share of losses where `μ` rose to [`HEARTBREAK`] or higher on the way.
    pub fn heartbreak_rate(&self) -> f64 {
        share(self.games.heartbreaks, 1.0 - self.games.win)
    }

    /// Where games are decided, over `stages` stages.
    pub fn decided(&self, stages: usize) -> Decided {
        let d = &self.games.decided;
        let of = [self.games.win, 1.0 - self.games.win];
        let shares = |i: usize| [share(d[0][i], of[0]), share(d[1][i], of[1])];
        Decided {
            by_stage: (0..stages).map(shares).collect(),
            from_start: shares(PHASES),
        }
    }

    /// The `q`-quantile of rolls per game, and of decisions.
    pub fn length_quantile(&self, q: f64) -> [u32; 2] {
        [
            quantile(&self.games.rolls, q),
            quantile(&self.games.decisions, q),
        ]
    }

    /// The chance of each number of rolls per game (`rolls`), or of decisions: index `k`
    /// holds that of `k`.
    pub fn lengths(&self, rolls: bool) -> &[f64] {
        if rolls {
            &self.games.rolls
        } else {
            &self.games.decisions
        }
    }

    /// The quartiles of `μ` on entering stage `stage`, over the won games (`won`) or the
    /// lost, in whole points, and the chance of a game that enters it and ends so; none if
    /// none does.
    pub fn entering(&self, stage: usize, won: bool) -> Option<([u32; 3], f64)> {
        let at = (stage * 2 + usize::from(!won)) * POINTS;
        let bins = &self.games.entered[at..at + POINTS];
        let n: f64 = bins.iter().sum();
        (n > 0.0).then(|| {
            (
                [
                    quantile(bins, 0.25),
                    quantile(bins, 0.5),
                    quantile(bins, 0.75),
                ],
                n,
            )
        })
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
    pub fn share((k, n): (u64, u64)) -> Interval {
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

/// The variance of what was summed as `[Σx, Σx²]` over `n` draws (0 for fewer than two).
fn variance(n: u64, [sum, squares]: [f64; 2]) -> f64 {
    if n < 2 {
        return 0.0;
    }
    let n = n as f64;
    ((squares - sum * sum / n) / (n - 1.0)).max(0.0)
}

/// One step of a game as optimal play's win probability `μ` saw it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Step {
    /// A roll (else a decision).
    pub chance: bool,
    /// `μ` after it (at the end, the result).
    pub mu: f64,
    /// The stage of the position it led to ([`Game::phase`]); none at the end.
    pub stage: Option<u8>,
}

/// Plays one game of `policy` with `rng`, telling `each` every step with `μ`; returns whether
/// it was won.
pub fn walk<G: Game, O: Optimum<G> + ?Sized>(
    solved: &O,
    policy: &dyn Policy<G>,
    rng: &mut impl Rng,
    each: &mut dyn FnMut(Step),
) -> bool {
    let game = solved.game();
    let mut chance: Option<bool> = None;
    let (end, _) = play(game, policy, rng, &mut |pos| {
        let point = game.point(pos);
        if let Some(chance) = chance {
            let stage = (!matches!(point, Point::Over(_))).then(|| game.phase(pos));
            // An end's value is its result.
            each(Step {
                chance,
                mu: solved.value(pos),
                stage,
            });
        }
        chance = Some(point == Point::Chance);
    });
    end == End::Win
}

/// Follows one game, recording `μ` after every step.
pub fn course<G: Game, O: Optimum<G> + ?Sized>(
    solved: &O,
    policy: &dyn Policy<G>,
    rng: &mut impl Rng,
) -> Course {
    let game = solved.game();
    let start = game.start();
    let mut c = Course::new(solved.value(&start), game.phase(&start));
    c.won = walk(solved, policy, rng, &mut |s| {
        c.step(s.chance, s.mu, s.stage)
    });
    c
}

/// The quality figures of `policy` on a solved game, every one exact, from one replay of its
/// play ([`distributions`]).
pub fn quality<G: Game, O: Optimum<G> + ?Sized>(
    solved: &O,
    policy: &dyn Policy<G>,
    budget: Budget<'_>,
) -> Result<Quality, Stop> {
    let (figures, games) = distributions(solved, policy, budget)?;
    Ok(Quality::new(figures, games))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A made-up game `i`: a few steps of a `μ` that wanders by a hash of `i`, in group
    /// `i % 3` of one kind and `3 + i % 2` of the other.
    fn made_up(i: u64) -> (Course, [usize; 2]) {
        let mut h = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xD1B5_4A32_D192_ED03;
        let mut next = || {
            h ^= h >> 29;
            h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            (h >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut c = Course::new(next(), 0);
        for k in 0..(3 + i % 5) {
            c.step(k % 2 == 0, next(), Some((k / 2) as u8));
        }
        c.won = next() < 0.6;
        c.step(true, f64::from(u8::from(c.won)), None);
        (c, [(i % 3) as usize, 3 + (i % 2) as usize])
    }

    /// Enough games for several batches of chunks.
    const GAMES: u64 = 300_000;

    #[test]
    fn the_groups_of_each_kind_partition_the_games() {
        let (total, by) = Sampled::gather_grouped(GAMES, 5, made_up);
        assert_eq!(total.games, GAMES);
        for kind in [&by[..3], &by[3..]] {
            let mut sum = Sampled::default();
            for g in kind {
                assert!(g.games > 0);
                sum.merge(g);
            }
            // Counts add up exactly; sums to their rounding.
            let counts = |s: &Sampled| {
                (
                    s.games,
                    s.wins,
                    s.comebacks,
                    s.heartbreaks,
                    s.decided,
                    s.rolls.clone(),
                    s.decisions.clone(),
                    s.entered.clone(),
                )
            };
            assert_eq!(counts(&sum), counts(&total));
            let sums = |s: &Sampled| {
                [
                    s.luck[0],
                    s.luck[1],
                    s.skill[0],
                    s.skill[1],
                    s.squares[0],
                    s.squares[1],
                    s.steps[0],
                    s.steps[1],
                    s.cross,
                ]
            };
            for (a, b) in sums(&sum).into_iter().zip(sums(&total)) {
                assert!((a - b).abs() <= 1e-9 * b.abs().max(1.0), "{a} against {b}");
            }
        }
        // A game lands in exactly the groups it names: game 4 in 1 and 3.
        let (_, one) = Sampled::gather_grouped(1, 5, |i| made_up(i + 4));
        let games: Vec<u64> = one.iter().map(|s| s.games).collect();
        assert_eq!(games, [0, 1, 0, 1, 0]);
    }

    #[test]
    fn the_total_is_the_games_summed_chunk_by_chunk_in_order() {
        let (total, _) = Sampled::gather_grouped(GAMES, 5, made_up);
        assert_eq!(total, Sampled::gather(GAMES, |i| made_up(i).0));
        let mut by_hand = Sampled::default();
        for c in 0..GAMES.div_ceil(1 << 13) {
            let mut s = Sampled::default();
            for i in c << 13..((c + 1) << 13).min(GAMES) {
                s.add(&made_up(i).0);
            }
            by_hand.merge(&s);
        }
        assert_eq!(total, by_hand);
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn the_groups_are_the_same_on_one_thread_and_two() {
        let on = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| Sampled::gather_grouped(GAMES, 5, made_up))
        };
        let one = on(1);
        let bits = |(t, by): &(Sampled, Vec<Sampled>)| {
            let mut b = vec![t.luck[1].to_bits(), t.cross.to_bits()];
            b.extend(by.iter().map(|s| s.squares[1].to_bits()));
            b
        };
        let two = on(2);
        assert_eq!(one, two);
        assert_eq!(bits(&one), bits(&two));
    }
}
