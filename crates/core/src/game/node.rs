//! What a game is at any moment: a chance point, a decision point, or over.

use std::fmt;
use std::sync::LazyLock;

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::character::{Character, MAX_TEAM};
use super::dice::{HighestOf, MAX_DICE, uniform};

/// Every complication roll at once: six d6, one per character (R6).
pub const COMPLICATION_OUTCOMES: u32 = 6 * 6 * 6 * 6 * 6 * 6;

/// R6: the complication of each character (by index) that complication roll `outcome` gives:
/// character `i` gets `(outcome / 6^i) % 6`.
pub fn complications_rolled(outcome: u32) -> [Character; 6] {
    let mut rest = outcome;
    [0; 6].map(|_| {
        let c = Character::from_index((rest % 6) as usize);
        rest /= 6;
        c
    })
}

/// The complication roll that gives each character (by index) `complications`: the inverse of
/// [`complications_rolled`].
pub fn complications_roll(complications: [Character; 6]) -> u32 {
    complications
        .iter()
        .rev()
        .fold(0, |roll, c| roll * 6 + c.index() as u32)
}

/// The random event a chance point waits for. Outcomes are small integers; [`Chance::outcomes`]
/// lists them with their exact probabilities and [`Chance::sample`] draws one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Chance {
    /// R6: one d6 per character; outcome `o` gives character `i` the complication
    /// `(o / 6^i) % 6`.
    Complications,
    /// R10: the d6 for a run challenge's type; outcome 0..=5 is the face minus one.
    ChallengeType,
    /// R12: two d6 for the side-challenge types; outcome `6 * first + second`.
    SideTypes,
    /// R1: a check rolling `dice` d6; the outcome is the highest die, 1..=6.
    Check {
        /// Effective skill, at least 1.
        dice: u8,
    },
}

/// The two independent random streams of one game. Scenario events (complications, challenge
/// and side types) and dice use separate streams so that two strategies facing game `i` see
/// the same scenario even when they roll a different number of checks.
pub struct Streams<R> {
    /// Complications, challenge types and side-challenge types.
    pub scenario: R,
    /// Checks and the choices of randomised strategies.
    pub dice: R,
}

impl Chance {
    /// The number of distinct outcomes.
    pub fn len(self) -> u32 {
        match self {
            Chance::Complications => COMPLICATION_OUTCOMES,
            Chance::ChallengeType => 6,
            Chance::SideTypes => 36,
            Chance::Check { .. } => 6,
        }
    }

    /// Whether there are no outcomes (never: every chance point has at least one).
    pub fn is_empty(self) -> bool {
        false
    }

    /// Whether the outcomes name characters (complications, challenge and side types), so
    /// that relabelling the five non-medic characters permutes them ([`super::canon`]); a
    /// check's outcomes are die faces, which no relabelling moves.
    pub fn names_characters(self) -> bool {
        !matches!(self, Chance::Check { .. })
    }

    /// Every outcome with its exact probability; the probabilities sum to 1.
    pub fn outcomes(self) -> impl Iterator<Item = (u32, f64)> {
        (0..self.len()).map(move |i| self.outcome(i))
    }

    /// The `i`-th of [`Chance::outcomes`] (`i < len`), without walking the ones before it.
    #[inline]
    pub fn outcome(self, i: u32) -> (u32, f64) {
        match self {
            Chance::Check { dice } => {
                let m = i as u8 + 1;
                (u32::from(m), HighestOf::of(dice).probability(m))
            }
            _ => (i, 1.0 / f64::from(self.len())),
        }
    }

    /// R12: the two side-challenge types of a [`Chance::SideTypes`] outcome.
    pub fn side_types(outcome: u32) -> [Character; 2] {
        [
            Character::from_index((outcome / 6) as usize),
            Character::from_index((outcome % 6) as usize),
        ]
    }

    /// How many dice a person rolls at this chance point: one per character for the
    /// complications (R6), one for a challenge type, two for the side types (R12), the check's
    /// dice (R1).
    pub fn dice(self) -> usize {
        match self {
            Chance::Complications => Character::ALL.len(),
            Chance::ChallengeType => 1,
            Chance::SideTypes => 2,
            Chance::Check { dice } => usize::from(dice.min(MAX_DICE)),
        }
    }

    /// The outcome (as [`Chance::outcomes`] numbers it) that the faces of real dice give: the
    /// complications in character order ([`complications_roll`]), a challenge type's face,
    /// the two side types in order ([`Chance::side_types`]), a check's highest die (R1, which
    /// may be typed alone). `faces` are 1..=6, as many as [`Chance::dice`] asks (one for a
    /// check).
    pub fn outcome_of_faces(self, faces: &[u8]) -> u32 {
        let character = |face: u8| Character::from_index(usize::from(face - 1));
        match self {
            Chance::Complications => {
                complications_roll(std::array::from_fn(|i| character(faces[i])))
            }
            Chance::ChallengeType => u32::from(faces[0] - 1),
            Chance::SideTypes => {
                let types = [character(faces[0]), character(faces[1])];
                Chance::SideTypes
                    .outcomes()
                    .map(|(outcome, _)| outcome)
                    .find(|&outcome| Chance::side_types(outcome) == types)
                    .expect("every pair of types is an outcome")
            }
            Chance::Check { .. } => u32::from(*faces.iter().max().expect("at least one face")),
        }
    }

    /// R12: the second side type's distribution given the first — what a position whose
    /// second side type is rolled late (when the second side challenge begins) averages over.
    /// The two dice are independent, so the odds are those given any first type. Worked out
    /// once: the engines read it at every such position.
    pub fn second_side_type_odds() -> impl Iterator<Item = (Character, f64)> {
        static ODDS: LazyLock<Vec<(Character, f64)>> = LazyLock::new(|| {
            let given_first = |types: [Character; 2]| types[0] == Character::ALL[0];
            let total: f64 = Chance::SideTypes
                .outcomes()
                .filter(|&(outcome, _)| given_first(Chance::side_types(outcome)))
                .map(|(_, p)| p)
                .sum();
            Chance::SideTypes
                .outcomes()
                .filter_map(move |(outcome, p)| {
                    let types = Chance::side_types(outcome);
                    given_first(types).then_some((types[1], p / total))
                })
                .collect()
        });
        ODDS.iter().copied()
    }

    /// Draws one outcome.
    #[inline]
    pub fn sample<R: Rng>(self, streams: &mut Streams<R>) -> u32 {
        match self {
            Chance::Check { dice } => u32::from(HighestOf::of(dice).sample(&mut streams.dice)),
            _ => uniform(&mut streams.scenario, self.len()),
        }
    }
}

/// Why a game was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LossCause {
    /// R4 in phase 1: no able member while assembling the team.
    Recruitment,
    /// R4 in phase 2: no able member during the run.
    Run,
    /// R4 in phase 3: no able member during the finale.
    Finale,
    /// R14: the finale character cannot take a Tough check and no one may (or can) replace them.
    FinaleCharacterDown,
}

impl LossCause {
    /// All causes, in phase order.
    pub const ALL: [LossCause; 4] = [
        LossCause::Recruitment,
        LossCause::Run,
        LossCause::Finale,
        LossCause::FinaleCharacterDown,
    ];

    /// A short snake_case name, used in CSV headers.
    pub fn key(self) -> &'static str {
        match self {
            LossCause::Recruitment => "recruitment",
            LossCause::Run => "run",
            LossCause::Finale => "finale",
            LossCause::FinaleCharacterDown => "finale_character_down",
        }
    }
}

impl fmt::Display for LossCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LossCause::Recruitment => "no able member in recruitment",
            LossCause::Run => "no able member in the run",
            LossCause::Finale => "no able member in the finale",
            LossCause::FinaleCharacterDown => "finale character down",
        })
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// R5: the third Tough Challenge succeeded.
    Win,
    /// R4 or R14.
    Loss(LossCause),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win => f.write_str("WIN"),
            Outcome::Loss(cause) => write!(f, "LOSS: {cause}"),
        }
    }
}

/// The question a decision point asks. The rest of the situation is read from the state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Decision {
    /// R7: pick the main character.
    MainCharacter,
    /// R8: name a recruitment target or stop.
    RecruitTarget,
    /// R8: who makes the next check for `target` (whose complication is `complication`), or
    /// stop: stopping is allowed before every check, after a success as after a failure.
    RecruitRoller {
        /// The character being recruited.
        target: Character,
        /// The check type: the target's complication.
        complication: Character,
    },
    /// R10: the run challenge rolled a 6: pick its type among 1..=5.
    RunType,
    /// R10: who attempts (or retries) the run challenge of type `ty`.
    RunRoller {
        /// The challenge type.
        ty: Character,
    },
    /// R11: pick the finale character.
    FinaleCharacter,
    /// R12: attempt the side challenge of type `ty` (naming who rolls) or pass / give up.
    SideChallenge {
        /// The challenge type (Medic = medical).
        ty: Character,
        /// Which of the two side challenges (0 or 1).
        index: u8,
        /// Side successes already won before this Tough Challenge.
        successes: u8,
    },
    /// R14 variant: name a substitute finale character.
    Substitute,
    /// R15: a first-aid opportunity: skip, or pick patient and giver.
    FirstAid,
}

/// The kinds of decision: one per decision point of the state machine, without its payload
/// (the figures summed by kind, a CSV's `kind` column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DecisionKind {
    /// R7: the main character.
    MainCharacter,
    /// R8: name a recruitment target, or stop.
    RecruitTarget,
    /// R8: who rolls the next recruitment check, or stop.
    RecruitRoller,
    /// R10: the type of a run challenge that rolled 6.
    RunType,
    /// R10: who attempts a run challenge.
    RunRoller,
    /// R11: the finale character.
    FinaleCharacter,
    /// R12: attempt a side challenge (and who), pass, or give up.
    SideChallenge,
    /// R14 variant: the substitute finale character.
    Substitute,
    /// R15: first aid: skip, or patient and giver.
    FirstAid,
}

/// The number of decision kinds.
pub const KINDS: usize = 9;

impl DecisionKind {
    /// Every kind, in the order of a game.
    pub const ALL: [DecisionKind; KINDS] = [
        DecisionKind::MainCharacter,
        DecisionKind::RecruitTarget,
        DecisionKind::RecruitRoller,
        DecisionKind::RunType,
        DecisionKind::RunRoller,
        DecisionKind::FinaleCharacter,
        DecisionKind::SideChallenge,
        DecisionKind::Substitute,
        DecisionKind::FirstAid,
    ];

    /// The kind of a decision point.
    pub fn of(decision: Decision) -> DecisionKind {
        match decision {
            Decision::MainCharacter => DecisionKind::MainCharacter,
            Decision::RecruitTarget => DecisionKind::RecruitTarget,
            Decision::RecruitRoller { .. } => DecisionKind::RecruitRoller,
            Decision::RunType => DecisionKind::RunType,
            Decision::RunRoller { .. } => DecisionKind::RunRoller,
            Decision::FinaleCharacter => DecisionKind::FinaleCharacter,
            Decision::SideChallenge { .. } => DecisionKind::SideChallenge,
            Decision::Substitute => DecisionKind::Substitute,
            Decision::FirstAid => DecisionKind::FirstAid,
        }
    }

    /// A short kebab-case name, used in CSV.
    pub fn key(self) -> &'static str {
        match self {
            DecisionKind::MainCharacter => "main-character",
            DecisionKind::RecruitTarget => "recruit-target-or-stop",
            DecisionKind::RecruitRoller => "recruit-roller-or-stop",
            DecisionKind::RunType => "run-type-on-6",
            DecisionKind::RunRoller => "run-roller",
            DecisionKind::FinaleCharacter => "finale-character",
            DecisionKind::SideChallenge => "side-challenge",
            DecisionKind::Substitute => "substitute",
            DecisionKind::FirstAid => "first-aid",
        }
    }
}

/// An answer to a decision point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Action {
    /// R7: this character is the main character.
    Main(Character),
    /// R8: recruit this character next.
    Recruit(Character),
    /// R8: stop recruiting (ends phase 1).
    Stop,
    /// This member makes the pending check.
    Roll(Character),
    /// R10: the type chosen for a run challenge that rolled 6.
    RunType(Character),
    /// R11/R14: this member takes the Tough Challenges.
    Finale(Character),
    /// R12: pass a side challenge, or give up after a failure.
    Pass,
    /// R15: first aid by `giver` on `patient`.
    Aid {
        /// Who is treated.
        patient: Character,
        /// Who makes the type-6 check.
        giver: Character,
    },
    /// R15: let the opportunity go.
    SkipAid,
}

/// The largest number of legal options at any decision point: first aid in the largest team
/// any design allows, every patient × every giver, plus skipping (R15).
pub const MAX_ACTIONS: usize = 1 + MAX_TEAM as usize * MAX_TEAM as usize;

/// The legal options at a decision point, in a fixed order, without allocating.
#[derive(Clone, Copy, Debug)]
pub struct Actions {
    items: [Action; MAX_ACTIONS],
    len: u8,
}

impl Actions {
    pub(crate) fn new() -> Actions {
        Actions {
            items: [Action::Stop; MAX_ACTIONS],
            len: 0,
        }
    }

    pub(crate) fn push(&mut self, action: Action) {
        self.items[usize::from(self.len)] = action;
        self.len += 1;
    }

    /// The options as a slice.
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..usize::from(self.len)]
    }

    /// Whether `action` is legal here.
    pub fn contains(&self, action: Action) -> bool {
        self.as_slice().contains(&action)
    }
}

impl std::ops::Deref for Actions {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        self.as_slice()
    }
}

/// What the game is at this moment.
///
/// This and the other enums of the state machine are `repr(u8)`: a plain tag byte is cheaper
/// to match than a tag hidden in a field's spare values (see [`crate::game::Step`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Node {
    /// Waiting for a random event.
    Chance(Chance),
    /// Waiting for the strategy.
    Decision(Decision),
    /// Finished.
    Over(Outcome),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R1, R6, R12: the faces of real dice name the outcome the engines number them by.
    #[test]
    fn faces_of_real_dice_give_the_outcome_they_stand_for() {
        for (outcome, _) in Chance::Complications.outcomes() {
            let faces = complications_rolled(outcome).map(|c| c.index() as u8 + 1);
            assert_eq!(Chance::Complications.outcome_of_faces(&faces), outcome);
        }
        for (outcome, _) in Chance::SideTypes.outcomes() {
            let faces = Chance::side_types(outcome).map(|c| c.index() as u8 + 1);
            assert_eq!(Chance::SideTypes.outcome_of_faces(&faces), outcome);
        }
        for face in 1..=6 {
            assert_eq!(
                Chance::ChallengeType.outcome_of_faces(&[face]),
                u32::from(face - 1)
            );
        }
        let check = Chance::Check { dice: 3 };
        assert_eq!(check.dice(), 3);
        assert_eq!(check.outcome_of_faces(&[2, 6, 4]), 6);
        assert_eq!(check.outcome_of_faces(&[3]), 3);
        assert_eq!(Chance::Complications.dice(), 6);
        assert_eq!(Chance::SideTypes.dice(), 2);
    }

    #[test]
    fn a_complication_roll_gives_character_i_its_ith_base_6_digit_and_back() {
        for (outcome, _) in Chance::Complications.outcomes() {
            let rolled = complications_rolled(outcome);
            for (i, c) in rolled.iter().enumerate() {
                assert_eq!(c.index() as u32, outcome / 6u32.pow(i as u32) % 6);
            }
            assert_eq!(complications_roll(rolled), outcome);
        }
    }

    #[test]
    fn chance_outcomes_sum_to_one() {
        let mut chances = vec![
            Chance::Complications,
            Chance::ChallengeType,
            Chance::SideTypes,
        ];
        chances.extend((1..=3).map(|dice| Chance::Check { dice }));
        for chance in chances {
            let total: f64 = chance.outcomes().map(|(_, p)| p).sum();
            assert!((total - 1.0).abs() < 1e-9, "{chance:?} sums to {total}");
            assert_eq!(chance.outcomes().count() as u32, chance.len());
        }
    }
}
