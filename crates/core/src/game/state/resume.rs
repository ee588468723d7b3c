//! The game's transitions, written once as the rules' own loops: recruitment targets and their
//! checks, the run challenges, the Tough Challenges with their side challenges.
//!
//! [`State::resume`] plays a game on from wherever it stands, asking a [`Script`] at every
//! decision and chance point. Before each question the position is saved in the state
//! ([`Step`], [`Aid`]), so a script that answers `None` leaves a position that
//! [`State::node`] describes and a later `resume` continues. The engines drive it in two ways:
//! - the exact engines and narrated play answer one point at a time
//!   ([`State::apply_action`], [`State::apply_outcome`]): the step-by-step state machine;
//! - Monte Carlo answers every point (a strategy decides, the dice are sampled), so a whole
//!   game is one call in which the program counter, not a `match` on the step, knows where
//!   the game is: after a failed check the loop goes straight back to the next attempt, and
//!   the loss checks run only where a wound can have happened.
//!
//! Both are this one code, so they can never disagree.

use std::ops::ControlFlow::{self, Break, Continue};

use crate::rules::{FirstAidRecruit, RecruitCount, Rules};

use super::super::character::{Character, Health};
use super::super::node::{Action, Chance, Decision, LossCause, Outcome, complications_rolled};
use super::{Aid, Phase, State, Step, reaches};

/// Whoever answers the points of a game as [`State::resume`] plays it.
pub trait Script {
    /// The action at decision point `decision` of `state` (legal there, [`State::actions`]),
    /// or `None` to stop at it.
    fn decide(&mut self, state: &State, rules: &Rules, decision: Decision) -> Option<Action>;
    /// The outcome of chance point `chance` ([`Chance::outcomes`]), or `None` to stop at it.
    fn chance(&mut self, state: &State, chance: Chance) -> Option<u32>;
}

/// Answers one point (an action or an outcome, whichever it was given) and stops at the next.
#[derive(Default)]
pub(super) enum Once {
    /// Answers the first decision.
    Act(Action),
    /// Answers the first chance point.
    Roll(u32),
    /// Answers nothing (any more).
    #[default]
    Done,
}

impl Once {
    /// Whether the answer was taken (it was asked for).
    pub(super) fn used(&self) -> bool {
        matches!(self, Once::Done)
    }
}

impl Script for Once {
    #[inline]
    fn decide(&mut self, _: &State, _: &Rules, _: Decision) -> Option<Action> {
        match *self {
            Once::Act(action) => {
                *self = Once::Done;
                Some(action)
            }
            _ => None,
        }
    }
    #[inline]
    fn chance(&mut self, _: &State, _: Chance) -> Option<u32> {
        match *self {
            Once::Roll(outcome) => {
                *self = Once::Done;
                Some(outcome)
            }
            _ => None,
        }
    }
}

/// Where the run phase is entered.
#[derive(Clone, Copy)]
enum RunEntry {
    /// The challenge's type is to be rolled.
    Type,
    /// The type rolled 6 and is to be picked.
    Pick,
    /// The type is known; a roller is to be named (`Some`: already named).
    Roller(Character, Option<Character>),
}

/// R1: what a face of the highest die does besides deciding the check.
enum Face {
    /// One wound (to the roller; to the patient in first aid).
    Wound,
    /// One stealth point (a wound to the roller once discovered, R2).
    Stealth,
    /// Nothing.
    Clean,
}

/// The answer does not fit the question: a bug in the script.
#[cold]
#[inline(never)]
fn illegal(action: Action, step: Step) -> ! {
    panic!("{action:?} is not an answer at {step:?}")
}

impl State {
    /// Plays the game on from here, asking `script` at every point, until the script stops
    /// at one (the position is then saved there) or the game is over.
    #[inline(always)]
    pub fn resume<S: Script>(&mut self, rules: &Rules, script: &mut S) {
        let _ = self.play_on(rules, script);
    }

    #[inline(always)]
    fn play_on<S: Script>(&mut self, rules: &Rules, s: &mut S) -> ControlFlow<()> {
        if let Step::Over(_) = self.step {
            return Break(());
        }
        self.pending_aid(rules, s)?;
        // Each phase passes through when the game is past it.
        self.recruitment_phase(rules, s)?;
        self.run_phase(rules, s)?;
        self.finale_phase(rules, s)
    }

    /// Saves the position at decision `decision` and asks for its answer.
    #[inline(always)]
    fn ask<S: Script>(
        &mut self,
        rules: &Rules,
        s: &mut S,
        at: Step,
        decision: Decision,
    ) -> ControlFlow<(), Action> {
        self.step = at;
        match s.decide(self, rules, decision) {
            Some(action) => Continue(action),
            None => Break(()),
        }
    }

    /// Saves the position at chance point `chance` and asks for its outcome.
    #[inline(always)]
    fn draw<S: Script>(&mut self, s: &mut S, at: Step, chance: Chance) -> ControlFlow<(), u32> {
        self.step = at;
        match s.chance(self, chance) {
            Some(outcome) => Continue(outcome),
            None => Break(()),
        }
    }

    /// R4: the game is lost the moment no team member is able. Only a wound can bring it
    /// about, so it is asked after wounds (and of positions built by hand, [`State::settled`]).
    #[inline(always)]
    pub(super) fn check_able(&mut self) -> ControlFlow<()> {
        if self.team.is_empty() || !self.able_team().is_empty() {
            return Continue(());
        }
        let cause = match self.phase() {
            Phase::Recruitment => LossCause::Recruitment,
            Phase::Run => LossCause::Run,
            _ => LossCause::Finale,
        };
        self.aid = Aid::None;
        self.step = Step::Over(Outcome::Loss(cause));
        Break(())
    }

    /// R15: a pending first-aid opportunity, taken or let go, before the step it interrupts.
    #[inline(always)]
    fn pending_aid<S: Script>(&mut self, rules: &Rules, s: &mut S) -> ControlFlow<()> {
        let (patient, giver) = match self.aid {
            Aid::None => return Continue(()),
            Aid::Open => match s.decide(self, rules, Decision::FirstAid) {
                None => return Break(()),
                Some(Action::SkipAid) => {
                    self.aid = Aid::None;
                    return Continue(());
                }
                Some(Action::Aid { patient, giver }) => {
                    self.aid = Aid::Check { patient, giver };
                    (patient, giver)
                }
                Some(action) => illegal(action, self.step),
            },
            Aid::Check { patient, giver } => (patient, giver),
        };
        let dice = self.aid_dice(rules, giver);
        let Some(r) = s.chance(self, Chance::Check { dice }) else {
            return Break(());
        };
        self.first_aid(rules, patient, giver, r as u8);
        self.aid = Aid::None;
        self.check_able()
    }

    /// R15: a first-aid opportunity opens, unless it has no patient or no giver: then it
    /// passes by itself.
    #[inline(always)]
    fn open_aid(&mut self, rules: &Rules) {
        if !self.patient_team().is_empty() && !self.giver_team(rules).is_empty() {
            self.aid = Aid::Open;
        }
    }

    /// R15 for a position built by hand: an open opportunity no one can use passes.
    pub(super) fn drop_unusable_aid(&mut self, rules: &Rules) {
        if matches!(self.aid, Aid::Open) {
            self.aid = Aid::None;
            self.open_aid(rules);
        }
    }

    // ----- phase 1 -----

    /// R6–R9: complications, the main character, then targets until the team is full or the
    /// strategy stops. Passes through if phase 1 is over.
    ///
    /// The saved step is matched once, on entering; from there the phase runs in the rules'
    /// order, asking only whether the step is still "choose a target": a `match` on the step
    /// at every turn compiles to a jump table whose target changes at every turn, an indirect
    /// branch the processor mispredicts.
    #[inline(always)]
    fn recruitment_phase<S: Script>(&mut self, rules: &Rules, s: &mut S) -> ControlFlow<()> {
        match self.step {
            Step::Complications => {
                // R6: one d6 per character.
                let roll = self.draw(s, Step::Complications, Chance::Complications)?;
                self.complications = complications_rolled(roll).map(Some);
                self.choose_main(rules, s)?;
            }
            Step::ChooseMain => self.choose_main(rules, s)?,
            Step::ChooseTarget => {}
            Step::Recruit {
                target,
                done,
                needed,
            } => self.recruit(rules, s, target, done, needed, None)?,
            Step::RecruitCheck {
                target,
                done,
                needed,
                roller,
            } => self.recruit(rules, s, target, done, needed, Some(roller))?,
            _ => return Continue(()),
        }
        // A target recruited comes back here; a stop has moved on to the run.
        while let Step::ChooseTarget = self.step {
            // R8: recruiting ends when the team has four (`team-size`) members, dead ones
            // count.
            if self.team.len() >= rules.design.team_size {
                return self.start_run(rules);
            }
            let decision = Decision::RecruitTarget;
            match self.ask(rules, s, Step::ChooseTarget, decision)? {
                Action::Stop => return self.start_run(rules),
                // R8: N = team size when the target is named (or living members under the
                // variant), unless the design fixes it (`recruit-checks`).
                Action::Recruit(target) => {
                    let needed = match (rules.design.recruit_checks, rules.recruit_count) {
                        (Some(n), _) => n,
                        (None, RecruitCount::All) => self.team.len(),
                        (None, RecruitCount::Living) => self.living(),
                    };
                    self.new_task();
                    self.recruit(rules, s, target, 0, needed, None)?;
                }
                action => illegal(action, self.step),
            }
        }
        Continue(())
    }

    /// R7: the strategy names the main character.
    #[inline(always)]
    fn choose_main<S: Script>(&mut self, rules: &Rules, s: &mut S) -> ControlFlow<()> {
        match self.ask(rules, s, Step::ChooseMain, Decision::MainCharacter)? {
            // R7: the main character starts on the team, healthy; their complication is
            // ignored.
            Action::Main(c) => {
                self.main = Some(c);
                self.join(c);
                self.step = Step::ChooseTarget;
                Continue(())
            }
            action => illegal(action, self.step),
        }
    }

    /// R8/R9: checks for `target` (`done` of `needed` made, `named` the roller already
    /// named) until the target joins or the strategy stops.
    #[inline(always)]
    fn recruit<S: Script>(
        &mut self,
        rules: &Rules,
        s: &mut S,
        target: Character,
        mut done: u8,
        needed: u8,
        mut named: Option<Character>,
    ) -> ControlFlow<()> {
        let ty = self.recruit_type(target);
        loop {
            let roller = match named.take() {
                Some(roller) => roller,
                None => {
                    let at = Step::Recruit {
                        target,
                        done,
                        needed,
                    };
                    let decision = Decision::RecruitRoller {
                        target,
                        complication: ty,
                    };
                    match self.ask(rules, s, at, decision)? {
                        // R8: the strategy may stop before every check, after a success as
                        // after a failure; stopping discards the target's successes.
                        Action::Stop => return self.start_run(rules),
                        Action::Roll(roller) => roller,
                        action => illegal(action, at),
                    }
                }
            };
            let at = Step::RecruitCheck {
                target,
                done,
                needed,
                roller,
            };
            // R8: the target's complication is the check's type (R1, R13: `State::skill`).
            let dice = self.skill(rules, roller, ty) as u8;
            let r = self.draw(s, at, Chance::Check { dice })? as u8;
            self.side_effects(rules, roller, r);
            if self.succeeded(r, rules.design.threshold) {
                done += 1;
                if done == needed {
                    // R9 (R4's order): the recruit joins before the loss check and before
                    // the first-aid opportunity the success opens.
                    self.join(target);
                    self.new_task();
                    self.open_aid(rules);
                    self.step = Step::ChooseTarget;
                    self.check_able()?;
                    return self.pending_aid(rules, s);
                }
                // R9: per-check opens an opportunity on every successful check.
                if rules.first_aid_recruit == FirstAidRecruit::PerCheck {
                    self.open_aid(rules);
                }
            }
            self.step = Step::Recruit {
                target,
                done,
                needed,
            };
            self.check_able()?;
            self.pending_aid(rules, s)?;
        }
    }

    /// R8: phase 1 ends; all complication markers are removed. With `run-challenges = 0`
    /// the finale follows at once (R11).
    #[inline(always)]
    fn start_run(&mut self, rules: &Rules) -> ControlFlow<()> {
        self.complications = [None; 6];
        self.new_task();
        self.step = if rules.design.run_challenges == 0 {
            Step::ChooseFinale
        } else {
            Step::RunType { challenge: 0 }
        };
        Continue(())
    }

    // ----- phase 2 -----

    /// R10: the run challenges, each retried until it succeeds. Passes through outside the
    /// run.
    #[inline(always)]
    fn run_phase<S: Script>(&mut self, rules: &Rules, s: &mut S) -> ControlFlow<()> {
        let (mut challenge, mut entry) = match self.step {
            Step::RunType { challenge } => (challenge, RunEntry::Type),
            Step::PickRunType { challenge } => (challenge, RunEntry::Pick),
            Step::Run { challenge, ty } => (challenge, RunEntry::Roller(ty, None)),
            Step::RunCheck {
                challenge,
                ty,
                roller,
            } => (challenge, RunEntry::Roller(ty, Some(roller))),
            _ => return Continue(()),
        };
        loop {
            // R10 → R11: after six (`run-challenges`) challenges comes the finale.
            if challenge >= rules.design.run_challenges {
                self.step = Step::ChooseFinale;
                return Continue(());
            }
            let (ty, mut named) = match entry {
                RunEntry::Type => {
                    let at = Step::RunType { challenge };
                    // R10: on a 6 the strategy picks one of types 1..=5.
                    match Character::from_index(self.draw(s, at, Chance::ChallengeType)? as usize) {
                        Character::Medic => (self.pick_run_type(rules, s, challenge)?, None),
                        ty => {
                            self.new_task();
                            (ty, None)
                        }
                    }
                }
                RunEntry::Pick => (self.pick_run_type(rules, s, challenge)?, None),
                RunEntry::Roller(ty, named) => (ty, named),
            };
            // R10: a failure must be retried; a success opens a first-aid opportunity
            // (`first-aid-after-run`).
            loop {
                let roller = match named.take() {
                    Some(roller) => roller,
                    None => {
                        let at = Step::Run { challenge, ty };
                        match self.ask(rules, s, at, Decision::RunRoller { ty })? {
                            Action::Roll(roller) => roller,
                            action => illegal(action, at),
                        }
                    }
                };
                let at = Step::RunCheck {
                    challenge,
                    ty,
                    roller,
                };
                let dice = self.skill(rules, roller, ty) as u8;
                let r = self.draw(s, at, Chance::Check { dice })? as u8;
                self.side_effects(rules, roller, r);
                let success = self.succeeded(r, rules.design.threshold);
                if success {
                    if rules.design.first_aid_after_run {
                        self.open_aid(rules);
                    }
                    challenge += 1;
                    self.step = Step::RunType { challenge };
                } else {
                    self.step = Step::Run { challenge, ty };
                }
                self.check_able()?;
                self.pending_aid(rules, s)?;
                if success {
                    break;
                }
            }
            entry = RunEntry::Type;
        }
    }

    /// R10: the strategy picks the type of a challenge that rolled 6.
    #[inline(always)]
    fn pick_run_type<S: Script>(
        &mut self,
        rules: &Rules,
        s: &mut S,
        challenge: u8,
    ) -> ControlFlow<(), Character> {
        let at = Step::PickRunType { challenge };
        match self.ask(rules, s, at, Decision::RunType)? {
            Action::RunType(ty) => {
                self.new_task();
                Continue(ty)
            }
            action => illegal(action, at),
        }
    }

    // ----- phase 3 -----

    /// R11–R14: the finale character, then each Tough Challenge after its side challenges.
    /// Always ends the walk: the game is over or the script stopped.
    ///
    /// As in phase 1, the saved step is matched once, on entering; then each Tough Challenge
    /// follows the rules' order (its side challenges' roll, the side challenges, a substitute
    /// finale character if one is due, the Tough check), each part asking only whether the
    /// step is its own — the side challenges too, so that which comes next is
    /// [`State::next_side`]'s alone.
    #[inline(always)]
    fn finale_phase<S: Script>(&mut self, rules: &Rules, s: &mut S) -> ControlFlow<()> {
        match self.step {
            // R11
            Step::ChooseFinale => {
                match self.ask(rules, s, Step::ChooseFinale, Decision::FinaleCharacter)? {
                    Action::Finale(c) => {
                        self.finale = Some(c);
                        self.step = self.before_tough(rules, 0);
                    }
                    action => illegal(action, self.step),
                }
            }
            Step::SideCheck {
                tough,
                types,
                index,
                successes,
                roller,
            } => self.side(rules, s, tough, types, index, successes, Some(roller))?,
            Step::SideTypes { .. }
            | Step::Side { .. }
            | Step::Tough { .. }
            | Step::Substitute { .. } => {}
            _ => return Break(()),
        }
        loop {
            // R12: two d6, 6 = medical.
            if let Step::SideTypes { tough } = self.step {
                let outcome = self.draw(s, Step::SideTypes { tough }, Chance::SideTypes)?;
                self.new_task();
                let types = Chance::side_types(outcome);
                self.side(rules, s, tough, types, 0, 0, None)?;
            }
            // R12: the side challenges in rolled order, then the Tough check.
            while let Step::Side {
                tough,
                types,
                index,
                successes,
            } = self.step
            {
                self.side(rules, s, tough, types, index, successes, None)?;
            }
            // R14 variant: the substitute takes over, with R13 applying to them from now on.
            if let Step::Substitute { tough, successes } = self.step {
                let at = Step::Substitute { tough, successes };
                match self.ask(rules, s, at, Decision::Substitute)? {
                    Action::Finale(c) => {
                        self.finale = Some(c);
                        self.step = Step::Tough { tough, successes };
                    }
                    action => illegal(action, at),
                }
            }
            let Step::Tough { tough, successes } = self.step else {
                return Break(());
            };
            self.tough(rules, s, tough, successes)?;
        }
    }

    /// R12: attempts at side challenge `index` until it succeeds or is passed (a failure may
    /// be retried or given up).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn side<S: Script>(
        &mut self,
        rules: &Rules,
        s: &mut S,
        tough: u8,
        types: [Character; 2],
        index: u8,
        successes: u8,
        mut named: Option<Character>,
    ) -> ControlFlow<()> {
        let ty = types[usize::from(index)];
        loop {
            let roller = match named.take() {
                Some(roller) => roller,
                None => {
                    let at = Step::Side {
                        tough,
                        types,
                        index,
                        successes,
                    };
                    let decision = Decision::SideChallenge {
                        ty,
                        index,
                        successes,
                    };
                    match self.ask(rules, s, at, decision)? {
                        Action::Pass => {
                            self.step = self.next_side(rules, tough, types, index, successes);
                            return Continue(());
                        }
                        Action::Roll(roller) => roller,
                        action => illegal(action, at),
                    }
                }
            };
            let at = Step::SideCheck {
                tough,
                types,
                index,
                successes,
                roller,
            };
            let dice = self.skill(rules, roller, ty) as u8;
            let r = self.draw(s, at, Chance::Check { dice })? as u8;
            self.side_effects(rules, roller, r);
            if self.succeeded(r, rules.design.threshold) {
                // R15 variant: a side success opens a first-aid opportunity.
                if rules.first_aid_after_side {
                    self.open_aid(rules);
                }
                self.step = self.next_side(rules, tough, types, index, successes + 1);
                self.check_able()?;
                return self.pending_aid(rules, s);
            }
            self.step = Step::Side {
                tough,
                types,
                index,
                successes,
            };
            self.check_able()?;
        }
    }

    /// R13/R14: the finale character's Tough checks until one succeeds; failures are
    /// retried, side successes kept.
    #[inline(always)]
    fn tough<S: Script>(
        &mut self,
        rules: &Rules,
        s: &mut S,
        tough: u8,
        successes: u8,
    ) -> ControlFlow<()> {
        let finale = self.finale.expect("the finale character is chosen");
        let threshold = self.tough_threshold(rules, successes);
        loop {
            // R14: a finale character who cannot roll is replaced (variant) or loses.
            let dice = self.tough_skill(rules, finale, successes);
            if !self.health(finale).is_able() || dice <= 0 {
                self.step = if rules.finale_substitute && self.substitutes(rules).next().is_some() {
                    Step::Substitute { tough, successes }
                } else {
                    Step::Over(Outcome::Loss(LossCause::FinaleCharacterDown))
                };
                return Continue(());
            }
            let at = Step::Tough { tough, successes };
            let r = self.draw(s, at, Chance::Check { dice: dice as u8 })? as u8;
            self.side_effects(rules, finale, r);
            if !self.succeeded(r, threshold) {
                self.step = at;
                self.check_able()?;
                continue;
            }
            if tough + 1 >= rules.design.tough_challenges {
                // R5 (R4's order): the last (third) Tough Challenge wins the game, whatever
                // its roll did to the team.
                self.step = Step::Over(Outcome::Win);
                return Break(());
            }
            // R14: each success but the last opens a first-aid opportunity
            // (`first-aid-after-tough`).
            if rules.design.first_aid_after_tough {
                self.open_aid(rules);
            }
            self.step = self.before_tough(rules, tough + 1);
            self.check_able()?;
            return self.pending_aid(rules, s);
        }
    }

    // ----- the pieces every check shares -----

    /// R1: success iff the highest die reaches the threshold; counts attempts and failures.
    #[inline(always)]
    fn succeeded(&mut self, r: u8, threshold: u8) -> bool {
        let success = reaches(r, threshold);
        self.attempts = self.attempts.saturating_add(1);
        self.failures = if success {
            0
        } else {
            self.failures.saturating_add(1)
        };
        success
    }

    /// R1: side effects depend on the highest die only: the lowest `wound-faces` faces (1–2)
    /// wound the roller, the next `stealth-faces` (3–5) cost one stealth, the rest (6) none.
    #[inline(always)]
    fn side_effects(&mut self, rules: &Rules, roller: Character, r: u8) {
        match Self::face(rules, r) {
            Face::Wound => self.wound(roller),
            Face::Stealth => self.lose_stealth(roller),
            Face::Clean => {}
        }
    }

    /// R1: what face `r` does besides deciding the check.
    #[inline(always)]
    fn face(rules: &Rules, r: u8) -> Face {
        let design = &rules.design;
        if r <= design.wound_faces {
            Face::Wound
        } else if r <= design.wound_faces + design.stealth_faces {
            Face::Stealth
        } else {
            Face::Clean
        }
    }

    /// R2: stealth drops by one; once discovered (0) the loss wounds `roller` instead.
    #[inline(always)]
    fn lose_stealth(&mut self, roller: Character) {
        if self.stealth > 0 {
            self.stealth -= 1;
        } else {
            self.wound(roller);
        }
    }

    /// R3: one wound is one step towards death.
    #[inline(always)]
    fn wound(&mut self, c: Character) {
        self.health.wound(c);
    }

    /// R15: one type-6 check by `giver` on `patient`; a success (5+) heals one step, the
    /// stealth faces (3–5) cost stealth (wounding the giver once discovered), the wounding
    /// faces (1–2) wound the patient.
    #[inline(always)]
    fn first_aid(&mut self, rules: &Rules, patient: Character, giver: Character, r: u8) {
        if r >= rules.design.threshold {
            self.health.heal(patient);
        }
        match Self::face(rules, r) {
            Face::Wound => self.wound(patient),
            Face::Stealth => self.lose_stealth(giver),
            Face::Clean => {}
        }
    }

    /// R7/R8: `c` joins the team healthy; their complication marker is removed.
    #[inline(always)]
    fn join(&mut self, c: Character) {
        self.team = self.team.with(c);
        self.health.set(c, Health::Healthy);
        self.complications[c.index()] = None;
    }

    /// The counters a strategy may read start again for a new task.
    #[inline(always)]
    fn new_task(&mut self) {
        self.attempts = 0;
        self.failures = 0;
    }

    /// R12: on to the next side challenge, or to the Tough check after the last one.
    #[inline(always)]
    fn next_side(
        &mut self,
        rules: &Rules,
        tough: u8,
        types: [Character; 2],
        index: u8,
        successes: u8,
    ) -> Step {
        self.new_task();
        if index + 1 < rules.design.side_challenges {
            Step::Side {
                tough,
                types,
                index: index + 1,
                successes,
            }
        } else {
            Step::Tough { tough, successes }
        }
    }

    /// R12: what comes before Tough Challenge `tough`: its side challenges' roll, or with
    /// `side-challenges = 0` the Tough check itself.
    #[inline(always)]
    fn before_tough(&mut self, rules: &Rules, tough: u8) -> Step {
        if rules.design.side_challenges == 0 {
            self.new_task();
            Step::Tough {
                tough,
                successes: 0,
            }
        } else {
            Step::SideTypes { tough }
        }
    }
}

impl State {
    /// Applies the strategy's answer at a decision point and plays on to the next point.
    /// Panics on an illegal action (a bug in the strategy): check with [`State::actions`]
    /// when in doubt.
    #[inline(always)]
    pub fn apply_action(&mut self, rules: &Rules, action: Action) {
        debug_assert!(
            self.actions(rules).contains(action),
            "illegal {action:?} at {self:?}"
        );
        let mut once = Once::Act(action);
        let before = self.step;
        self.resume(rules, &mut once);
        assert!(once.used(), "{action:?} is not an answer at {before:?}");
    }

    /// Applies the outcome of a chance point (as listed by [`Chance::outcomes`]) and plays on
    /// to the next point.
    #[inline(always)]
    pub fn apply_outcome(&mut self, rules: &Rules, outcome: u32) {
        let mut once = Once::Roll(outcome);
        let before = self.step;
        self.resume(rules, &mut once);
        assert!(once.used(), "no chance outcome is expected at {before:?}");
    }

    /// The position as the rules leave it, played on to its first point without answering.
    pub(super) fn settle(&mut self, rules: &Rules) {
        if matches!(self.step, Step::Over(_)) {
            return;
        }
        // R4 first: a position built field by field may already be lost.
        if self.check_able().is_break() {
            return;
        }
        self.drop_unusable_aid(rules);
        self.resume(rules, &mut Once::default());
    }
}
