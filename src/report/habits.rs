//! How a player plays, counted over sampled games: which main character it picks, how large a
//! team it takes into the run, how often it passes a side challenge or skips first aid. The
//! engines give a strategy's results (win, losses, team size on average); these counts say
//! what the player *does*, so that the report can describe optimal play in words and explain
//! a lever that moves one player and not another.
//!
//! The games are those of the report's Monte Carlo runs (same seed, same game numbers), each
//! watched decision by decision ([`Observer`]); the counts are integers added up in a fixed
//! order, so they are the same whatever the thread count.

use std::ops::Add;
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use crate::engine::montecarlo::in_chunks;
use crate::engine::{Cancelled, Observer, play_seeded};
use crate::game::{Action, Character, Decision, LossCause, Outcome, State};
use crate::rules::Rules;
use crate::strategy::Strategy;

/// The largest team the counts tell apart (every character).
pub const MAX_TEAM: usize = Character::ALL.len();

/// What a player did over a number of games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Habits {
    /// Games watched.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games by main character (R7), in character order.
    pub main: [u64; MAX_TEAM],
    /// Games that reached the run, by the team's size entering it (the team never changes
    /// after recruitment).
    pub team_at_run: [u64; MAX_TEAM + 1],
    /// Recruitments abandoned after their first check was rolled or offered (R8: stop
    /// before a check).
    pub recruit_stops: u64,
    /// Side challenges offered before any attempt (R12: try or pass).
    pub side_offered: u64,
    /// Of those, passed.
    pub side_passed: u64,
    /// First-aid opportunities with someone to treat (R15).
    pub aid_offered: u64,
    /// Of those, skipped.
    pub aid_skipped: u64,
}

impl Add for Habits {
    type Output = Habits;
    fn add(mut self, o: Habits) -> Habits {
        self.games += o.games;
        self.wins += o.wins;
        for (a, b) in self.main.iter_mut().zip(o.main) {
            *a += b;
        }
        for (a, b) in self.team_at_run.iter_mut().zip(o.team_at_run) {
            *a += b;
        }
        self.recruit_stops += o.recruit_stops;
        self.side_offered += o.side_offered;
        self.side_passed += o.side_passed;
        self.aid_offered += o.aid_offered;
        self.aid_skipped += o.aid_skipped;
        self
    }
}

impl Observer for Habits {
    fn decision(&mut self, before: &State, decision: Decision, action: Action, _: &State) {
        match (decision, action) {
            (Decision::MainCharacter, Action::Main(c)) => self.main[c.index()] += 1,
            (Decision::RecruitRoller { .. }, Action::Stop) => self.recruit_stops += 1,
            (Decision::SideChallenge { .. }, _) if before.attempts() == 0 => {
                self.side_offered += 1;
                self.side_passed += u64::from(action == Action::Pass);
            }
            (Decision::FirstAid, _) => {
                self.aid_offered += 1;
                self.aid_skipped += u64::from(action == Action::SkipAid);
            }
            _ => {}
        }
    }
}

impl Habits {
    /// Counts the end of a watched game.
    fn end(&mut self, end: &State) {
        self.games += 1;
        let outcome = end.outcome().expect("a watched game is over");
        self.wins += u64::from(outcome == Outcome::Win);
        if outcome != Outcome::Loss(LossCause::Recruitment) {
            self.team_at_run[usize::from(end.team().len()).min(MAX_TEAM)] += 1;
        }
    }

    /// Games that reached the run.
    pub fn reached_run(&self) -> u64 {
        self.team_at_run.iter().sum()
    }

    /// The share of games reaching the run with at most `size` members.
    pub fn team_at_most(&self, size: usize) -> f64 {
        let at_most: u64 = self.team_at_run.iter().take(size + 1).sum();
        ratio(at_most, self.reached_run())
    }

    /// The most common team size entering the run.
    pub fn usual_team(&self) -> usize {
        (0..=MAX_TEAM)
            .rev()
            .max_by_key(|&n| self.team_at_run[n])
            .unwrap_or(0)
    }

    /// The main character picked most often, and the share of games it was picked in.
    pub fn usual_main(&self) -> (Character, f64) {
        let i = (0..MAX_TEAM)
            .rev()
            .max_by_key(|&i| self.main[i])
            .unwrap_or(0);
        (Character::ALL[i], ratio(self.main[i], self.games))
    }

    /// The share of side challenges passed without an attempt.
    pub fn side_pass_rate(&self) -> f64 {
        ratio(self.side_passed, self.side_offered)
    }

    /// The share of first-aid opportunities skipped.
    pub fn aid_skip_rate(&self) -> f64 {
        ratio(self.aid_skipped, self.aid_offered)
    }
}

/// `n / d`, 0 when nothing was counted.
fn ratio(n: u64, d: u64) -> f64 {
    if d == 0 { 0.0 } else { n as f64 / d as f64 }
}

/// Games `0..games` of the Monte Carlo run (`seed`, `stealth`) played by `strategy` under
/// `rules`, watched; in parallel on the current rayon pool.
pub fn watch<S: Strategy + ?Sized + Sync>(
    rules: &Rules,
    strategy: &S,
    stealth: u8,
    games: u64,
    seed: u64,
    cancel: &AtomicBool,
) -> Result<Habits, Cancelled> {
    in_chunks(
        games,
        Habits::default,
        |range| {
            let mut habits = Habits::default();
            for game in range {
                let (end, _) = play_seeded(rules, strategy, stealth, seed, game, &mut habits);
                habits.end(&end);
            }
            habits
        },
        &|_| {},
        cancel,
    )
}

/// How optimal play and the reference strategy play at one headline stealth under the
/// default reading: their habits over the report's first games of optimal play, and optimal
/// play's best win probability with each main character imposed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Watched {
    /// Starting stealth.
    pub stealth: u8,
    /// Optimal play's win probability when each character (in character order) must be the
    /// main one.
    pub by_main: [f64; 6],
    /// Optimal play's habits.
    pub optimal: Habits,
    /// The reference strategy's habits, on the same games' dice.
    pub reference: Habits,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::MAIN_TEXT;
    use crate::strategy::resolve;

    #[test]
    fn counts_add_up_over_the_games_watched() {
        let reference = resolve("reference").unwrap();
        let cancel = AtomicBool::new(false);
        let h = watch(&MAIN_TEXT, reference.as_ref(), 8, 300, 7, &cancel).unwrap();
        assert_eq!(h.games, 300);
        assert_eq!(
            h.main.iter().sum::<u64>(),
            300,
            "one main character per game"
        );
        assert!(h.reached_run() <= h.games);
        assert!(h.side_passed <= h.side_offered && h.aid_skipped <= h.aid_offered);
        // Same games, same counts, whatever the chunking.
        let again = watch(&MAIN_TEXT, reference.as_ref(), 8, 300, 7, &cancel).unwrap();
        assert_eq!(h, again);
        // `lone-wolf` never recruits: every game that reaches the run does so alone.
        let alone = resolve("lone-wolf").unwrap();
        let h = watch(&MAIN_TEXT, alone.as_ref(), 8, 200, 7, &cancel).unwrap();
        assert_eq!(h.team_at_run[1], h.reached_run(), "{h:?}");
    }
}
