//! Decision points and their options in words: for a person choosing at the table (the
//! advisor of `raven play`), and for the positions a strategy loses most at (`raven
//! decisions`, the report).
//!
//! Nothing here decides what is legal or what an option does: the options are
//! [`State::actions`], and where a label needs a consequence (the checks a recruitment
//! needs, the dice a roll takes) it reads it from the state machine.

use crate::game::{Action, Character, Decision, State, Step};
use crate::rules::Rules;
use crate::strategy::Choice;

/// The question decision point `decision` asks in `state`.
pub fn question(state: &State, rules: &Rules, decision: Decision) -> String {
    let retry = state.attempts() > 0;
    match decision {
        Decision::MainCharacter => "Main character?".to_string(),
        Decision::RecruitTarget => format!(
            "Recruit whom, or stop? (team of {}, stealth {})",
            state.team().len(),
            state.stealth()
        ),
        Decision::RecruitRoller {
            target,
            complication,
        } => match state.step() {
            Step::Recruit { done, needed, .. } => format!(
                "Who rolls for {} to recruit {} (check {} of {needed}), or stop?",
                complication.complication(),
                target.name(),
                done + 1
            ),
            _ => format!("Who rolls to recruit {}, or stop?", target.name()),
        },
        Decision::RunType => match state.step() {
            Step::PickRunType { challenge } => {
                format!("Run challenge {} rolled 6: which type?", challenge + 1)
            }
            _ => "Which type for the run challenge?".to_string(),
        },
        Decision::RunRoller { ty } => {
            let n = match state.step() {
                Step::Run { challenge, .. } => challenge + 1,
                _ => 0,
            };
            let again = if retry { " (again)" } else { "" };
            format!("Who takes run challenge {n} ({}){again}?", ty.speciality())
        }
        Decision::FinaleCharacter => "Finale character (takes the Tough Challenges)?".to_string(),
        Decision::SideChallenge {
            ty,
            index,
            successes,
        } => {
            let what = if retry {
                "who tries again, or give up"
            } else {
                "who tries, or pass"
            };
            format!(
                "Side challenge {} of {} ({}, {successes} side successes so far): {what}?",
                index + 1,
                rules.design.side_challenges,
                ty.speciality()
            )
        }
        Decision::Substitute => "The finale character cannot go on: who takes over?".to_string(),
        Decision::FirstAid => "First aid: who treats whom, or skip?".to_string(),
    }
}

/// Option `action` of the decision point `state`, in words.
pub fn option(state: &State, rules: &Rules, action: Action) -> String {
    let who = |c: Character| format!("{} ({}, {})", c.name(), c.speciality(), health(state, c));
    match action {
        Action::Main(c) => format!("{c}"),
        Action::Recruit(c) => {
            let ty = state.complication(c).expect("a target has a complication");
            // R8: the checks needed, as the state machine counts them.
            let mut next = *state;
            next.apply_action(rules, action);
            let needed = match next.step() {
                Step::Recruit { needed, .. } => needed,
                _ => 0,
            };
            format!(
                "recruit {c}: {} ({}), {needed} check{}",
                ty.complication(),
                ty.speciality(),
                if needed == 1 { "" } else { "s" }
            )
        }
        Action::Stop => match state.step() {
            Step::Recruit { target, .. } => {
                format!("stop recruiting (abandon {})", target.name())
            }
            _ => "stop recruiting".to_string(),
        },
        Action::Roll(c) => format!("{} rolls {}d6", who(c), state.roll_dice(rules, c)),
        Action::RunType(c) => format!("type {} ({})", c.number(), c.speciality()),
        Action::Finale(c) => who(c),
        Action::Pass if state.attempts() > 0 => "give up".to_string(),
        Action::Pass => "pass".to_string(),
        Action::Aid { patient, giver } => {
            let whom = if patient == giver {
                "themself".to_string()
            } else {
                format!("{} ({})", patient.name(), health(state, patient))
            };
            format!(
                "{} treats {whom}, {}d6",
                who(giver),
                state.aid_dice(rules, giver)
            )
        }
        Action::SkipAid => "skip first aid".to_string(),
    }
}

/// A strategy's answer at decision point `state`, in words.
pub fn choice(state: &State, rules: &Rules, choice: Choice) -> String {
    match choice {
        Choice::Act(action) => option(state, rules, action),
        Choice::Uniform => "any option, uniformly at random".to_string(),
    }
}

/// Decision point `decision` in `state`: where the game and the team stand, and the
/// question asked.
pub fn position(state: &State, rules: &Rules, decision: Decision) -> String {
    format!(
        "{}; {}: {}",
        stage(state, rules),
        status(state),
        question(state, rules, decision)
    )
}

/// Where in the game `state` is: the phase, the challenge (of as many as `rules` has), the
/// finale character.
pub fn stage(state: &State, rules: &Rules) -> String {
    let runs = rules.design.run_challenges;
    let toughs = rules.design.tough_challenges;
    let finale = state
        .finale()
        .map(|c| format!(", finale character {}", c.name()))
        .unwrap_or_default();
    match state.step() {
        Step::Complications | Step::ChooseMain | Step::ChooseTarget => "recruiting".to_string(),
        Step::Recruit {
            target,
            done,
            needed,
        }
        | Step::RecruitCheck {
            target,
            done,
            needed,
            ..
        } => format!(
            "recruiting {} ({done} of {needed} checks done)",
            target.name()
        ),
        // After the last challenge's success, its first aid comes before the finale.
        Step::RunType { challenge } if challenge >= runs => {
            format!("after run challenge {runs} of {runs}")
        }
        Step::RunType { challenge } => {
            format!("before run challenge {} of {runs}", challenge + 1)
        }
        Step::PickRunType { challenge }
        | Step::Run { challenge, .. }
        | Step::RunCheck { challenge, .. } => {
            format!("run challenge {} of {runs}", challenge + 1)
        }
        Step::ChooseFinale => "before the finale".to_string(),
        Step::SideTypes { tough } => {
            format!("before Tough Challenge {} of {toughs}{finale}", tough + 1)
        }
        Step::Side { tough, .. }
        | Step::SideCheck { tough, .. }
        | Step::Tough { tough, .. }
        | Step::Substitute { tough, .. } => {
            format!("Tough Challenge {} of {toughs}{finale}", tough + 1)
        }
        Step::Over(_) => "game over".to_string(),
    }
}

/// The team at a glance: stealth, then each member's health.
pub fn status(state: &State) -> String {
    let members: Vec<_> = state
        .team()
        .iter()
        .map(|c| format!("{} {}", c.name(), health(state, c)))
        .collect();
    let stealth = if state.discovered() {
        "discovered".to_string()
    } else {
        format!("stealth {}", state.stealth())
    };
    if members.is_empty() {
        format!("{stealth}; no team yet")
    } else {
        format!("{stealth}; {}", members.join(", "))
    }
}

/// A member's health in words.
fn health(state: &State, c: Character) -> &'static str {
    state.health(c).label()
}
