//! Is Operation Purple Raven a good game? Its strategies' luck and skill, tension and length
//! ([`crate::engine::generic::quality`]) at each starting stealth: optimal play solved once,
//! each strategy decomposed, evaluated exactly and sampled along optimal play's win
//! probability `μ` by the game's own loop.

use crate::engine::generic::distributions::distributions;
use crate::engine::generic::quality::{Course, Quality, Sampled, Step};
use crate::engine::generic::{Optimum, Stop};
use crate::engine::{Budget, Halt, Observer, Solver, play_seeded, solve_within};
use crate::game::interface::PurpleRaven;
use crate::game::{Action, Chance, Character, Decision, Outcome, State, complications_rolled};
use crate::games::Game;
use crate::par::*;
use crate::rules::Rules;
use crate::strategy::optimal::Optimal;
use crate::strategy::{AsPolicy, Strategy};

/// Why an assessment stopped without an answer.
#[derive(Debug, thiserror::Error)]
pub enum Stopped {
    /// Purple Raven's own engines stopped (too large, cancelled).
    #[error(transparent)]
    Halt(#[from] Halt),
    /// The engines for any game stopped.
    #[error(transparent)]
    Stop(#[from] Stop),
}

/// A strategy's quality at one starting stealth.
pub struct Assessed {
    /// The strategy's name.
    pub strategy: String,
    /// The starting stealth.
    pub stealth: u8,
    /// Its figures.
    pub quality: Quality,
    /// Its sampled games split by how they started: by main character, then by complication
    /// deal ([`Group`]); a group no game fell into is left out, and none where no game is
    /// sampled.
    pub by_start: Vec<(Group, Sampled)>,
}

/// How a game started, as the report splits sampled games: by the main character chosen
/// (R7), or by the complication deal (R6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    /// The main character the strategy chose.
    Main(Character),
    /// The complications dealt, by the most characters dealt one complication.
    Deal(Deal),
}

/// A complication deal (R6), by the most characters it deals one complication: the more share
/// one, the more recruits one speciality can bring in. Six dice give no two alike 1.5% of
/// the time, at most two alike 61.7%, three 31.5%, four or more 5.2%.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deal {
    /// Six different complications.
    AllDifferent,
    /// Two characters (or two pairs, or three) share a complication, no three.
    TwoAlike,
    /// Three characters share one.
    ThreeAlike,
    /// Four, five or all six share one.
    FourOrMoreAlike,
}

impl Deal {
    /// Every deal, in order.
    pub const ALL: [Deal; 4] = [
        Deal::AllDifferent,
        Deal::TwoAlike,
        Deal::ThreeAlike,
        Deal::FourOrMoreAlike,
    ];

    /// R6: the deal of complication roll `outcome`.
    pub fn of(outcome: u32) -> Deal {
        let mut dealt = [0u8; 6];
        for c in complications_rolled(outcome) {
            dealt[c.index()] += 1;
        }
        match dealt.iter().max() {
            Some(1) => Deal::AllDifferent,
            Some(2) => Deal::TwoAlike,
            Some(3) => Deal::ThreeAlike,
            _ => Deal::FourOrMoreAlike,
        }
    }

    /// How a CSV names it.
    pub fn key(self) -> &'static str {
        [
            "all-different",
            "two-alike",
            "three-alike",
            "four-or-more-alike",
        ][self as usize]
    }

    /// How a sentence names it.
    pub fn words(self) -> &'static str {
        [
            "six different complications",
            "at most two characters sharing a complication",
            "three sharing one",
            "four or more sharing one",
        ][self as usize]
    }
}

impl Group {
    /// Every group: the main characters in order, then the deals.
    pub const ALL: [Group; 10] = [
        Group::Main(Character::ALL[0]),
        Group::Main(Character::ALL[1]),
        Group::Main(Character::ALL[2]),
        Group::Main(Character::ALL[3]),
        Group::Main(Character::ALL[4]),
        Group::Main(Character::ALL[5]),
        Group::Deal(Deal::ALL[0]),
        Group::Deal(Deal::ALL[1]),
        Group::Deal(Deal::ALL[2]),
        Group::Deal(Deal::ALL[3]),
    ];

    /// Its place in [`Group::ALL`].
    fn index(self) -> usize {
        match self {
            Group::Main(c) => c.index(),
            Group::Deal(d) => Character::ALL.len() + d as usize,
        }
    }

    /// The kind of group, as a CSV names it: `main-character` or `complications`.
    pub fn kind(self) -> &'static str {
        match self {
            Group::Main(_) => "main-character",
            Group::Deal(_) => "complications",
        }
    }

    /// The group, as a CSV names it: the main character's speciality, or the deal's key.
    pub fn key(self) -> &'static str {
        match self {
            Group::Main(c) => c.speciality(),
            Group::Deal(d) => d.key(),
        }
    }
}

/// How one game started: its complication deal and the main character chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Start {
    /// The complication roll (R6), once rolled.
    pub complications: Option<u32>,
    /// The main character (R7), once chosen.
    pub main: Option<Character>,
}

impl Start {
    /// The groups of a game that started so: its main character's and its deal's.
    pub fn groups(self) -> [usize; 2] {
        let main = self.main.expect("every game chooses a main character (R7)");
        let roll = self
            .complications
            .expect("every game rolls complications (R6)");
        [
            Group::Main(main).index(),
            Group::Deal(Deal::of(roll)).index(),
        ]
    }
}

/// The quality of `strategies` (`None`: optimal play) at `stealths` under `rules`, strategy
/// by strategy, every figure exact: optimal play solved once, each strategy's play replayed
/// along `μ` by the engines for any game ([`distributions`]); and `games` games sampled under
/// `seed` to split them by how they started ([`Assessed::by_start`]; none sampled where
/// `games` is 0).
pub fn assess(
    rules: &Rules,
    strategies: &[(String, Option<&dyn Strategy>)],
    stealths: &[u8],
    games: u64,
    seed: u64,
    budget: Budget<'_>,
) -> Result<Vec<Assessed>, Stopped> {
    let solver = Solver::new(*rules);
    solve_within(&solver, stealths, &budget)?;
    solver.freeze();
    let table = Optimal::of(&solver);
    let each: Vec<&dyn Strategy> = strategies
        .iter()
        .map(|(_, s)| s.unwrap_or(&table))
        .collect();
    // Each row's replay: one compile each, serial inside, so the rows side by side, each
    // within its share of the budget, the largest (the highest stealths) first.
    let mut pairs: Vec<(usize, usize)> = (0..each.len())
        .flat_map(|s| (0..stealths.len()).map(move |t| (s, t)))
        .collect();
    pairs.sort_by_key(|&(s, t)| (std::cmp::Reverse(stealths[t]), s));
    let share = Budget {
        max_states: budget.max_states / current_num_threads().clamp(1, pairs.len().max(1)),
        ..budget
    };
    let replayed = pairs
        .par_iter()
        .map(|&(s, t)| {
            let mu = Mu {
                game: PurpleRaven {
                    rules: *rules,
                    stealth: stealths[t],
                },
                solver: &solver,
            };
            distributions(&mu, &AsPolicy(each[s]), share)
        })
        .collect::<Result<Vec<_>, Stop>>()?;
    // Back in order: strategy by strategy, each at every stealth.
    let mut replayed: Vec<_> = pairs.into_iter().zip(replayed).collect();
    replayed.sort_by_key(|&(pair, _)| pair);
    budget.check_cancel()?;
    let mut rows = Vec::new();
    for ((s, t), (figures, games_of)) in replayed {
        let (stealth, strategy) = (stealths[t], each[s]);
        let game = PurpleRaven {
            rules: *rules,
            stealth,
        };
        let by_start = if games == 0 {
            Vec::new()
        } else {
            let start = solver.value(&game.start());
            let (_, by) = Sampled::gather_grouped(games, Group::ALL.len(), |i| {
                let (course, begun) = follow_start(&game, strategy, &solver, start, seed, i);
                (course, begun.groups())
            });
            Group::ALL
                .into_iter()
                .zip(by)
                .filter(|(_, s)| s.games > 0)
                .collect()
        };
        rows.push(Assessed {
            strategy: strategies[s].0.clone(),
            stealth,
            quality: Quality::new(figures, games_of),
            by_start,
        });
    }
    Ok(rows)
}

/// Optimal play's win probability `μ` of one starting stealth's positions, read from a solved
/// table: what the engines for any game read along a game.
struct Mu<'a> {
    game: PurpleRaven,
    solver: &'a Solver,
}

impl Optimum<PurpleRaven> for Mu<'_> {
    fn game(&self) -> &PurpleRaven {
        &self.game
    }

    fn value(&self, pos: &State) -> f64 {
        self.solver.value(pos)
    }

    /// Kept by canonical class ([`Solver::options`]): a class met again costs a lookup.
    fn option_values(&self, pos: &State) -> Vec<(Action, f64)> {
        self.solver.options(pos)
    }
}

/// Plays game `i` of `strategy` under `seed` with Purple Raven's own game loop (as Monte
/// Carlo and `play` play it), telling `each` every step with `μ` read from `table` (solved
/// under the game's rules); returns whether it was won, and how it started.
fn walk(
    game: &PurpleRaven,
    strategy: &dyn Strategy,
    table: &Solver,
    seed: u64,
    i: u64,
    each: &mut dyn FnMut(Step),
) -> (bool, Start) {
    let mut walker = Walker {
        game,
        table,
        each,
        start: Start::default(),
    };
    let (_, outcome) = play_seeded(&game.rules, strategy, game.stealth, seed, i, &mut walker);
    (outcome == Outcome::Win, walker.start)
}

/// Game `i` of `strategy` under `seed`, followed by optimal play's win probability from
/// `table` (`start` at the start: it sums every complication deal, so it is worked out once).
pub fn follow(
    game: &PurpleRaven,
    strategy: &dyn Strategy,
    table: &Solver,
    start: f64,
    seed: u64,
    i: u64,
) -> Course {
    follow_start(game, strategy, table, start, seed, i).0
}

/// [`follow`], and how the game started.
fn follow_start(
    game: &PurpleRaven,
    strategy: &dyn Strategy,
    table: &Solver,
    start: f64,
    seed: u64,
    i: u64,
) -> (Course, Start) {
    let mut course = Course::new(start, game.phase(&game.start()));
    let (won, begun) = walk(game, strategy, table, seed, i, &mut |s| {
        course.step(s.chance, s.mu, s.stage)
    });
    course.won = won;
    (course, begun)
}

/// One game as `raven play` plays it — game `i` of `seed` at `game`'s starting stealth, by
/// `strategy` (none: optimal play) — with optimal play solved first: `μ` at the start, every
/// step, and whether it was won.
pub fn one_game(
    game: &PurpleRaven,
    strategy: Option<&dyn Strategy>,
    seed: u64,
    i: u64,
    budget: Budget<'_>,
) -> Result<(f64, Vec<Step>, bool), Stopped> {
    let solver = Solver::new(game.rules);
    solve_within(&solver, &[game.stealth], &budget)?;
    solver.freeze();
    let table = Optimal::of(&solver);
    let start = solver.value(&game.start());
    let mut steps = Vec::new();
    let (won, _) = walk(
        game,
        strategy.unwrap_or(&table),
        &solver,
        seed,
        i,
        &mut |s| steps.push(s),
    );
    Ok((start, steps, won))
}

/// Tells each step of a game, reading `μ` from the table after it, and notes how it started.
struct Walker<'a, 'e> {
    game: &'a PurpleRaven,
    table: &'a Solver,
    each: &'e mut dyn FnMut(Step),
    start: Start,
}

impl Walker<'_, '_> {
    fn step(&mut self, chance: bool, after: &State) {
        (self.each)(Step {
            chance,
            mu: self.table.value(after),
            stage: after.outcome().is_none().then(|| self.game.phase(after)),
        });
    }
}

impl Observer for Walker<'_, '_> {
    fn decision(&mut self, _: &State, _: Decision, action: Action, after: &State) {
        if let Action::Main(c) = action {
            self.start.main = Some(c);
        }
        self.step(false, after);
    }
    fn chance(&mut self, _: &State, chance: Chance, outcome: u32, after: &State) {
        if chance == Chance::Complications {
            self.start.complications = Some(outcome);
        }
        self.step(true, after);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R6: six dice deal no two alike in 6! of 6⁶ rolls; two alike (a pair and four singles,
    /// two pairs, three pairs) in 10,800 + 16,200 + 1,800; four or more in
    /// 6 · (C(6,4)·5² + C(6,5)·5 + 1); three alike in the rest.
    #[test]
    fn deals_are_counted_as_the_dice_give_them() {
        let mut n = [0u32; 4];
        for (outcome, _) in Chance::Complications.outcomes() {
            n[Deal::of(outcome) as usize] += 1;
        }
        let four = 6 * (15 * 25 + 6 * 5 + 1);
        let two = 10_800 + 16_200 + 1_800;
        assert_eq!(n, [720, two, 46_656 - 720 - two - four, four]);
        let roll = |faces: [u8; 6]| Chance::Complications.outcome_of_faces(&faces);
        assert_eq!(Deal::of(roll([3, 3, 3, 1, 2, 4])), Deal::ThreeAlike);
        assert_eq!(Deal::of(roll([6, 5, 4, 3, 2, 1])), Deal::AllDifferent);
        assert_eq!(Deal::of(roll([6, 6, 6, 6, 6, 6])), Deal::FourOrMoreAlike);
        assert_eq!(Deal::of(roll([1, 1, 2, 2, 3, 3])), Deal::TwoAlike);
    }

    #[test]
    fn every_group_has_its_place_and_its_own_name() {
        for (i, g) in Group::ALL.into_iter().enumerate() {
            assert_eq!(g.index(), i);
            let same = Group::ALL
                .iter()
                .filter(|h| (h.kind(), h.key()) == (g.kind(), g.key()))
                .count();
            assert_eq!(same, 1, "{g:?}");
        }
    }
}
