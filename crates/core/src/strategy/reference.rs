//! The reference strategy of docs/rules.md, exactly as specified there.

use crate::game::{Action, Character, Decision, State, Step, Team};
use crate::rules::Rules;

use super::{
    Choice, Known, Sight, Strategy, future_targets, least_wounded, least_wounded_of,
    lowest_able_type,
};

/// docs/rules.md "The reference strategy": Hacker main character, recruit Medic, Spy, Sniper,
/// Mechanic, Demolitions, specialists roll, first aid whenever possible. Ties go to the lowest
/// character number.
#[derive(Clone, Copy, Debug, Default)]
pub struct ReferenceStrategy;

/// Recruitment order.
const RECRUIT_ORDER: [Character; 5] = [
    Character::Medic,
    Character::Spy,
    Character::Sniper,
    Character::Mechanic,
    Character::Demolitions,
];

/// Most attempts at one side challenge.
const SIDE_ATTEMPTS: u8 = 3;

impl ReferenceStrategy {
    /// Who rolls a check of type `ty`: the able specialist, else the least wounded able member.
    #[inline]
    fn roller(state: &State, ty: Character) -> Character {
        if state.is_able(ty) {
            ty
        } else {
            least_wounded_of(state, state.able_team()).expect("R4 leaves an able member")
        }
    }

    #[inline]
    fn first_aid(state: &State, rules: &Rules) -> Option<Action> {
        // The lowest-numbered incapacitated patient (patients are never dead, so a patient
        // who is down is incapacitated), else the lowest-numbered wounded one: bit operations.
        let patients = state.patient_team();
        let patient = patients
            .and(state.down_team())
            .first()
            .or(patients.first())?;
        let giver = if state.is_able(Character::Medic) {
            Character::Medic
        } else if state.is_able(patient) {
            patient
        } else {
            least_wounded_of(state, state.able_team())?
        };
        (state.skill(rules, giver, Character::Medic) > 0).then_some(Action::Aid { patient, giver })
    }
}

impl Strategy for ReferenceStrategy {
    fn name(&self) -> &str {
        super::REFERENCE
    }

    /// It reads stealth only as the rules do: through the penalty while discovered (a finale
    /// character out of dice gives no first aid).
    fn stealth_alike_from(&self) -> Option<u8> {
        Some(1)
    }

    fn known(&self) -> Known<'_> {
        Known::Reference
    }

    #[inline(always)]
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        let action = match decision {
            Decision::MainCharacter => Action::Main(Character::Hacker),
            Decision::RecruitTarget => RECRUIT_ORDER
                .into_iter()
                .find(|c| !state.team().contains(*c))
                .map_or(Action::Stop, Action::Recruit),
            Decision::RecruitRoller { complication, .. } => {
                Action::Roll(Self::roller(state, complication))
            }
            Decision::RunType => Action::RunType(lowest_able_type(state)),
            Decision::RunRoller { ty } => Action::Roll(Self::roller(state, ty)),
            Decision::FinaleCharacter => {
                let main = state.main().expect("main character chosen");
                Action::Finale(if state.is_able(main) {
                    main
                } else {
                    least_wounded_of(state, state.able_team()).expect("R4 leaves an able member")
                })
            }
            Decision::SideChallenge { ty, .. } => {
                let specialist = state.is_able(ty) && state.finale() != Some(ty);
                if specialist && state.attempts() < SIDE_ATTEMPTS {
                    Action::Roll(ty)
                } else {
                    Action::Pass
                }
            }
            Decision::Substitute => Action::Finale(
                least_wounded(
                    state,
                    state.substitutes(rules).fold(Team::EMPTY, Team::with),
                )
                .expect("a substitute exists"),
            ),
            Decision::FirstAid => Self::first_aid(state, rules).unwrap_or(Action::SkipAid),
        };
        Choice::Act(action)
    }

    /// Only side challenges read a counter (fewer than 3 attempts?); their counters start
    /// afresh with each side challenge, so outside one they cannot matter. Complications are
    /// read only of the next targets in order, and side challenges only read their own type (not
    /// the other one's).
    fn sight(&self, state: &State, rules: &Rules) -> Sight {
        let counters = match state.step() {
            Step::Side { .. } | Step::SideCheck { .. } => (state.attempts().min(SIDE_ATTEMPTS), 0),
            _ => (0, 0),
        };
        Sight::Partial {
            counters,
            unread_complications: Team::ALL.minus(future_targets(
                state,
                rules,
                &RECRUIT_ORDER,
                5,
                false,
            )),
            first_side_type: false,
            second_side_type: false,
            // Specialists by type, ties to the lowest number; a 6 picks the lowest able
            // non-Medic member's type, else the lowest non-Medic member's.
            member_order: true,
        }
    }
}
