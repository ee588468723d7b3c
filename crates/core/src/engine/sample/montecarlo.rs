//! Monte Carlo: many games in parallel, reproducible whatever the thread count.
//!
//! Games are split into fixed-size chunks of consecutive game indices; every game seeds its
//! own streams from (seed, stealth, index), rayon plays chunks in parallel, and integer tallies
//! are added up — integer sums do not depend on the order, so the result is identical for any
//! number of threads. Memory is flat: only one tally per chunk in flight.

use std::ops::{Add, AddAssign};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::par::*;

use crate::game::{LossCause, Outcome, State, Streams};
use crate::rules::{CLARIFIED, MAIN_TEXT, Rules};
use crate::strategy::{Known, RandomStrategy, ReferenceStrategy, Strategy};

use super::play::{Warming, play_game};
use super::seed::streams;
use crate::engine::budget::Cancelled;

/// Games per chunk: the unit of parallel work, progress and cancellation.
pub const CHUNK: u64 = 1 << 14;

/// Integer counts over a set of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games lost, by [`LossCause`] in [`LossCause::ALL`] order.
    pub losses: [u64; 4],
    /// Games in which stealth reached 0.
    pub discovered: u64,
    /// Sum of the stealth left at the end.
    pub stealth_left: u64,
    /// Games that reached the run (phase 2).
    pub reached_run: u64,
    /// Sum of team sizes entering the run, over games that reached it.
    pub team_at_run: u64,
    /// Sum of dead team members at the end.
    pub deaths: u64,
}

impl Tally {
    /// Counts one finished game.
    #[inline]
    pub fn record(&mut self, end: &State) {
        self.games += 1;
        match end.outcome().expect("a recorded game is over") {
            Outcome::Win => self.wins += 1,
            Outcome::Loss(cause) => self.losses[cause as usize] += 1,
        }
        self.discovered += u64::from(end.discovered());
        self.stealth_left += u64::from(end.stealth());
        // The team never changes after phase 1, so its final size is its size entering the run.
        if end.outcome() != Some(Outcome::Loss(LossCause::Recruitment)) {
            self.reached_run += 1;
            self.team_at_run += u64::from(end.team().len());
        }
        self.deaths += u64::from(end.deaths());
    }

    /// Losses of one cause.
    pub fn lost(&self, cause: LossCause) -> u64 {
        self.losses[cause as usize]
    }

    /// `numerator / denominator`, 0 when nothing was counted.
    pub fn ratio(numerator: u64, denominator: u64) -> f64 {
        if denominator == 0 {
            0.0
        } else {
            numerator as f64 / denominator as f64
        }
    }
}

impl AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.games += other.games;
        self.wins += other.wins;
        for (mine, theirs) in self.losses.iter_mut().zip(other.losses) {
            *mine += theirs;
        }
        self.discovered += other.discovered;
        self.stealth_left += other.stealth_left;
        self.reached_run += other.reached_run;
        self.team_at_run += other.team_at_run;
        self.deaths += other.deaths;
    }
}

impl Add for Tally {
    type Output = Tally;
    fn add(mut self, other: Tally) -> Tally {
        self += other;
        self
    }
}

/// One Monte Carlo run: `games` games of `strategy` at starting stealth `stealth`.
#[derive(Clone, Copy)]
pub struct Job<'a, S: ?Sized> {
    /// The rules in force.
    pub rules: &'a Rules,
    /// Who decides.
    pub strategy: &'a S,
    /// Starting stealth.
    pub stealth: u8,
    /// Number of games.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
}

/// Plays games `range` of `job` on this thread and tallies them.
///
/// The game loop is compiled once per known strategy type ([`Strategy::known`]) and per
/// rules preset, and this picks the copy once per range: the strategy's answers and the
/// preset's flags are then constants the compiler folds into the one state machine, which is
/// how a generic engine plays at the speed of a kernel written for one strategy.
pub fn play_range<S: Strategy + ?Sized>(job: &Job<'_, S>, range: std::ops::Range<u64>) -> Tally {
    let (rules, seed, stealth) = (job.rules, job.seed, job.stealth);
    match job.strategy.known() {
        Known::Reference => by_rules(rules, &ReferenceStrategy, seed, stealth, range),
        Known::Random => by_rules(rules, &RandomStrategy, seed, stealth, range),
        Known::File(file) => by_rules(rules, file, seed, stealth, range),
        Known::Other => by_rules(rules, job.strategy, seed, stealth, range),
    }
}

/// Plays game `game` of the run (`seed`, `stealth`) to its end with nothing watching; the
/// strategy and rules are specialised as in [`play_range`].
pub fn play_one<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    seed: u64,
    stealth: u8,
    game: u64,
) -> State {
    match strategy.known() {
        Known::Reference => play_by_rules(rules, &ReferenceStrategy, seed, stealth, game),
        Known::Random => play_by_rules(rules, &RandomStrategy, seed, stealth, game),
        Known::File(file) => play_by_rules(rules, file, seed, stealth, game),
        Known::Other => play_by_rules(rules, strategy, seed, stealth, game),
    }
}

/// The presets as compile-time constants, any other rules read at run time.
fn by_rules<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    seed: u64,
    stealth: u8,
    range: std::ops::Range<u64>,
) -> Tally {
    if *rules == MAIN_TEXT {
        tally_games(&MAIN_TEXT, strategy, seed, stealth, range)
    } else if *rules == CLARIFIED {
        tally_games(&CLARIFIED, strategy, seed, stealth, range)
    } else {
        tally_games(rules, strategy, seed, stealth, range)
    }
}

/// One game, with the presets as compile-time constants.
fn play_by_rules<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    seed: u64,
    stealth: u8,
    game: u64,
) -> State {
    if *rules == MAIN_TEXT {
        seeded_game(&MAIN_TEXT, strategy, seed, stealth, game)
    } else if *rules == CLARIFIED {
        seeded_game(&CLARIFIED, strategy, seed, stealth, game)
    } else {
        seeded_game(rules, strategy, seed, stealth, game)
    }
}

#[inline(always)]
fn tally_games<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    seed: u64,
    stealth: u8,
    range: std::ops::Range<u64>,
) -> Tally {
    if strategy.prefetches() {
        return tally_side_by_side(rules, strategy, seed, stealth, range);
    }
    let mut tally = Tally::default();
    for game in range {
        tally.record(&seeded_game(rules, strategy, seed, stealth, game));
    }
    tally
}

/// Games a thread plays side by side for a strategy that prefetches: enough that the answer
/// one game warms has arrived by the time its turn comes round again.
const LANES: usize = 8;

/// One of the games played side by side: where it stands, its own streams, and what warming
/// the answer to the decision it stopped at returned (`None`: not warmed yet).
struct Lane<R> {
    state: State,
    streams: Streams<R>,
    warm: Option<u64>,
}

/// [`tally_games`] for a strategy that prefetches ([`Strategy::prefetches`]): [`LANES`] games
/// at a time, each played from one decision to the next in turn; at each decision the game
/// warms its answer ([`Strategy::prefetch`]) and stops, and answers it on its next turn.
/// Every game is played from its own streams to the same end as alone (a game stopped at a
/// decision resumes there), and the counts are integers: the tally is the same.
fn tally_side_by_side<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    seed: u64,
    stealth: u8,
    range: std::ops::Range<u64>,
) -> Tally {
    let lane = |game| Lane {
        state: State::new(stealth),
        streams: streams(seed, stealth, game),
        warm: None,
    };
    let mut games = range;
    let mut lanes: Vec<_> = games.by_ref().take(LANES).map(lane).collect();
    let mut tally = Tally::default();
    while !lanes.is_empty() {
        let mut i = 0;
        while i < lanes.len() {
            let Lane {
                state,
                streams,
                warm,
            } = &mut lanes[i];
            state.resume(rules, &mut Warming::new(strategy, streams, warm));
            if state.outcome().is_none() {
                i += 1;
                continue;
            }
            tally.record(state);
            match games.next() {
                Some(game) => {
                    lanes[i] = lane(game);
                    i += 1;
                }
                None => {
                    lanes.swap_remove(i);
                }
            }
        }
    }
    tally
}

/// Game `game` of a run, from its own streams, with nothing watching (one [`State::resume`]).
#[inline(always)]
fn seeded_game<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    seed: u64,
    stealth: u8,
    game: u64,
) -> State {
    let mut streams = streams(seed, stealth, game);
    play_game(rules, strategy, State::new(stealth), &mut streams, &mut ())
}

/// Plays the job in parallel on the current rayon pool. `progress` is called with the number
/// of games of each finished chunk; `cancel` is polled between chunks.
pub fn simulate<S: Strategy + ?Sized>(
    job: &Job<'_, S>,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
) -> Result<Tally, Cancelled> {
    in_chunks(
        job.games,
        Tally::default,
        |range| play_range(job, range),
        progress,
        cancel,
    )
}

/// Plays games `0..games` in fixed-size chunks on the current rayon pool: `play` tallies one
/// chunk's range, and the chunk tallies are added up. Tallies are integer counts, so the sum
/// does not depend on which thread played what: the result is the same for any thread count.
/// `progress` hears of every finished chunk; `cancel` is polled between chunks.
pub fn in_chunks<T: Add<Output = T> + Send>(
    games: u64,
    empty: impl Fn() -> T + Sync + Send,
    play: impl Fn(std::ops::Range<u64>) -> T + Sync + Send,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
) -> Result<T, Cancelled> {
    let tally = (0..games.div_ceil(CHUNK))
        .into_par_iter()
        .map(|chunk| {
            if cancel.load(Ordering::Relaxed) {
                return Err(Cancelled);
            }
            let range = chunk * CHUNK..((chunk + 1) * CHUNK).min(games);
            let played = range.end - range.start;
            let tally = play(range);
            progress(played);
            Ok(tally)
        })
        .try_reduce(&empty, |a, b| Ok(a + b))?;
    if cancel.load(Ordering::Relaxed) {
        return Err(Cancelled);
    }
    Ok(tally)
}
