//! The kinds of decision a game meets, and the decomposition's figures summed by kind: the
//! regret, how often each kind arises with a real choice, and how often that choice matters.

use serde::{Deserialize, Serialize};

use crate::game::Decision;

/// A choice *matters* when its best and worst options differ by more than this (one point of
/// win probability).
pub const MATTERS: f64 = 0.01;

/// The kinds of decision: one per decision point of the state machine.
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

/// The decomposition's figures per decision kind, in [`DecisionKind::ALL`] order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ByKind {
    /// Win probability lost at decisions of this kind (0–1), against optimal play.
    pub regret: [f64; KINDS],
    /// Decisions of this kind with more than one legal option, per game.
    pub arises: [f64; KINDS],
    /// Of those, per game, the ones whose best and worst options differ by more than
    /// [`MATTERS`].
    pub matters: [f64; KINDS],
}

impl ByKind {
    /// Adds `other`'s figures, kind by kind.
    pub(super) fn add(&mut self, other: &ByKind) {
        for (sums, others) in [
            (&mut self.regret, &other.regret),
            (&mut self.arises, &other.arises),
            (&mut self.matters, &other.matters),
        ] {
            for (sum, other) in sums.iter_mut().zip(others) {
                *sum += other;
            }
        }
    }
}

/// Whether a decision whose best and worst options are worth `best` and `worst` matters.
pub(super) fn matters(best: f64, worst: f64) -> bool {
    best - worst > MATTERS
}
