//! How a [`Spec`] answers each decision point. Every answer is built from the legal options the
//! state exposes (able members, patients, givers, substitutes), so it is legal by construction;
//! nothing about the rules is re-derived here.

use crate::game::{Action, Character, Decision, Health, Phase, State, Step, Team};

use super::card::{Choose, MainPick, Who};
use crate::rules::Rules;
use crate::strategy::{
    Choice, Sight, future_targets, least_wounded, least_wounded_of, lowest_able_type,
};

use super::spec::{
    AidWhen, FinaleGives, FinaleRule, GiverRule, MainRule, PatientRule, PhaseName, Roller,
    RunTypeRule, SideAttempt, Spare, Spec, SubstituteRule,
};

impl Spec {
    /// What the knobs read ([`crate::strategy::Strategy::sight`]). Side challenges compare
    /// attempts with `side.max_attempts`; recruitment compares failures with
    /// `recruit.stop_after_failures` when it is set; counters start afresh with each task, so
    /// nothing else reads them. Complications are read only of the targets still to come
    /// (all candidates under `easiest_first`), and no side knob reads the other side
    /// challenge's type (only the one being attempted).
    ///
    /// The rules of `[rules]` read what their conditions name: the attempts up to the highest
    /// bound a condition sets, the complications of every target a rule may name (beyond
    /// `count`, by complication) or a condition reads, and the members by name when a rule
    /// names one; everything else they read (phase, Tough
    /// Challenge, health, roles) is part of the position the engine keys on already.
    pub fn sight(&self, state: &State, rules: &Rules) -> Sight {
        let attempts_seen = self.card.alike_from(super::card::Fact::Attempts);
        let counters = match state.step() {
            Step::Side { .. } | Step::SideCheck { .. } => (
                state
                    .attempts()
                    .min(self.side.max_attempts.0.max(attempts_seen)),
                0,
            ),
            // "Did the last check fail?" decides whether the stop conditions are looked at.
            Step::Recruit { .. } | Step::RecruitCheck { .. } => (
                0,
                state
                    .failures()
                    .min(self.recruit.stop_after_failures.0.max(1)),
            ),
            _ => (0, 0),
        };
        let counters = (
            counters.0.max(state.attempts().min(attempts_seen)),
            counters.1,
        );
        let r = &self.recruit;
        // A recruitment rule may name targets beyond `count`, by complication.
        let count = if self.card.recruits() { 5 } else { r.count.0 };
        let by_complication = r.easiest_first || self.card.by_complication();
        let targets = future_targets(state, rules, &r.order.0, count, by_complication);
        let targets: Team = (targets.iter())
            .chain(self.card.complications_read().iter())
            .collect();
        Sight::Partial {
            counters,
            unread_complications: Team::ALL.minus(targets),
            first_side_type: false,
            second_side_type: false,
            member_order: self.tells_members_by_order(),
        }
    }

    /// Whether, after phase 1, the knobs tell members apart only by their order: every rule
    /// picks by type, wounds, role or lowest number, unless a run type, a finale character
    /// or a side type to pass is named (the Medic, numbered last, may be).
    fn tells_members_by_order(&self) -> bool {
        let named = |c: Character| c != Character::Medic;
        !self.card.names_characters()
            && !matches!(self.run.pick_on_six, RunTypeRule::Fixed(_))
            && !matches!(self.finale.character, FinaleRule::Fixed(c) if named(c))
            && !self.side.pass_types.iter().any(|t| named(t.0))
    }

    /// The answer to `decision` in `state`.
    #[inline]
    pub fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        // The rules of thumb first: the first that matches decides, where its option can be
        // taken; the knobs otherwise.
        if !self.card.is_empty()
            && let Some(choose) = self.card.choose(state, rules, decision)
            && let Some(action) = self.resolve(choose, state, rules, decision)
        {
            return Choice::Act(action);
        }
        let action = match decision {
            Decision::MainCharacter => match self.main_character(state) {
                Some(c) => Action::Main(c),
                None => return Choice::Uniform,
            },
            Decision::RecruitTarget => self.recruit_target(state),
            Decision::RecruitRoller { complication, .. } => {
                // R8 allows stopping before every check; the knobs are looked at after a
                // failure, and after a success too with `stop_after_success`.
                let after_failure = state.failures() > 0;
                if (after_failure || self.recruit.stop_after_success)
                    && self.stop_recruiting(state, after_failure)
                {
                    Action::Stop
                } else {
                    Action::Roll(self.roller(
                        state,
                        complication,
                        self.recruit.roller,
                        self.recruit.spare,
                    ))
                }
            }
            Decision::RunType => Action::RunType(self.run_type(state)),
            Decision::RunRoller { ty } => {
                Action::Roll(self.roller(state, ty, self.run.roller, self.run.spare))
            }
            Decision::FinaleCharacter => Action::Finale(self.finale_character(state)),
            Decision::SideChallenge { ty, successes, .. } => self
                .side_roller(state, rules, ty, successes)
                .map_or(Action::Pass, Action::Roll),
            Decision::Substitute => Action::Finale(self.substitute(state, rules)),
            Decision::FirstAid => self.first_aid(state, rules).unwrap_or(Action::SkipAid),
        };
        Choice::Act(action)
    }

    /// R7: `None` means uniformly at random.
    fn main_character(&self, state: &State) -> Option<Character> {
        self.main_by(state, self.main.character)
    }

    /// R7: the main character `rule` picks (`None`: uniformly at random).
    pub(super) fn main_by(&self, state: &State, rule: MainRule) -> Option<Character> {
        let most_needed_of = |among: &[Character]| {
            // Fewest-numbered among the highest counts: max_by_key keeps the last maximum,
            // so scan in reverse order.
            among.iter().copied().rev().max_by_key(|c| {
                Character::ALL
                    .into_iter()
                    .filter(|o| o != c && state.complication(*o) == Some(*c))
                    .count()
            })
        };
        let most_needed = || most_needed_of(&Character::ALL);
        match rule {
            MainRule::Fixed(c) => Some(c),
            MainRule::Random => None,
            MainRule::MostNeeded => most_needed(),
            MainRule::MostNeededNotMedic => most_needed_of(&Character::ALL[..5]),
            MainRule::HardestToRecruit => Character::ALL
                .into_iter()
                .find(|c| state.complication(*c) == Some(*c))
                .or_else(most_needed),
            MainRule::FirstTarget => match self.recruit.order.0.first() {
                Some(first) => state
                    .complication(*first)
                    .filter(|ty| ty != first)
                    .or_else(most_needed),
                None => most_needed(),
            },
        }
    }

    /// R8: whether to stop recruiting now (`after_failure`: right after a failed check).
    fn stop_recruiting(&self, state: &State, after_failure: bool) -> bool {
        let r = &self.recruit;
        (r.stealth_floor.0 > 0 && state.stealth() < r.stealth_floor.0)
            || (r.stop_at_wounds.0 > 0 && state.wounds() >= r.stop_at_wounds.0)
            || (after_failure
                && r.stop_after_failures.0 > 0
                && state.failures() >= r.stop_after_failures.0)
    }

    /// R8: the next target, or stop.
    fn recruit_target(&self, state: &State) -> Action {
        let recruited = state.team().len().saturating_sub(1);
        if recruited >= self.recruit.count.0 || self.stop_recruiting(state, false) {
            return Action::Stop;
        }
        let mut candidates = self
            .recruit
            .order
            .0
            .iter()
            .copied()
            .filter(|c| !state.team().contains(*c));
        let easy = |c: &Character| state.complication(*c).is_some_and(|ty| state.is_able(ty));
        let target = if self.recruit.easiest_first {
            candidates.clone().find(easy).or_else(|| candidates.next())
        } else {
            candidates.next()
        };
        target.map_or(Action::Stop, Action::Recruit)
    }

    /// Who may roll a check of type `ty` (`None`: any type) under `spare`: the able members
    /// but the spared one, or all able members if that leaves no one (a set, so the choices
    /// below are bit operations).
    #[inline]
    fn candidates(&self, state: &State, spare: Spare, ty: Option<Character>) -> Team {
        let spared = match spare {
            Spare::Nobody => None,
            Spare::Main => state.main(),
            Spare::Finale => Some(self.finale_character(state)),
            Spare::MainExceptOwn => state.main().filter(|m| Some(*m) != ty),
            Spare::FinaleExceptOwn => Some(self.finale_character(state)).filter(|f| Some(*f) != ty),
        };
        let able = state.able_team();
        let others = spared.map_or(able, |c| able.without(c));
        if others.is_empty() { able } else { others }
    }

    /// Who rolls a recruitment check or run challenge of type `ty`.
    #[inline]
    fn roller(&self, state: &State, ty: Character, roller: Roller, spare: Spare) -> Character {
        let candidates = self.candidates(state, spare, Some(ty));
        pick(state, ty, roller, candidates).expect("R4 leaves an able member")
    }

    /// R10: the type of a run challenge that rolled 6.
    fn run_type(&self, state: &State) -> Character {
        let lowest_able = || lowest_able_type(state);
        match self.run.pick_on_six {
            RunTypeRule::LowestAble => lowest_able(),
            RunTypeRule::LeastWounded => least_wounded_of(
                state,
                self.candidates(state, self.run.spare, None)
                    .without(Character::Medic),
            )
            .unwrap_or_else(lowest_able),
            RunTypeRule::Main => match state.main() {
                Some(m) if m != Character::Medic && state.is_able(m) => m,
                _ => lowest_able(),
            },
            RunTypeRule::Fixed(ty) => ty,
        }
    }

    /// R11: the finale character — or, before phase 3, who it would be now.
    pub(super) fn finale_character(&self, state: &State) -> Character {
        if let Some(finale) = state.finale() {
            return finale;
        }
        let least =
            || least_wounded_of(state, state.able_team()).expect("R4 leaves an able member");
        let main = state.main().filter(|m| state.is_able(*m));
        match self.finale.character {
            FinaleRule::Main => main.unwrap_or_else(least),
            FinaleRule::MainIfHealthy => main
                .filter(|m| state.health(*m) == Health::Healthy)
                .unwrap_or_else(least),
            FinaleRule::LeastWounded => least(),
            FinaleRule::Fixed(c) if state.is_able(c) => c,
            FinaleRule::Fixed(_) => main.unwrap_or_else(least),
        }
    }

    /// R12: who attempts the side challenge of type `ty`, or `None` to pass / give up.
    fn side_roller(
        &self,
        state: &State,
        rules: &Rules,
        ty: Character,
        successes: u8,
    ) -> Option<Character> {
        let s = &self.side;
        let tough = match state.step() {
            Step::Side { tough, .. } => tough,
            _ => 0,
        };
        // Tough Challenges left, this one included.
        let left = rules.design.tough_challenges.saturating_sub(tough);
        let last = if state.discovered() {
            s.anyone_last.0.max(s.anyone_last_discovered.0)
        } else {
            s.anyone_last.0
        };
        let anyone = left <= last && successes < s.anyone_until.0;
        if anyone {
            if state.attempts() >= s.max_attempts.0 || (successes >= 1 && !s.second_success) {
                return None;
            }
        } else if s.attempt == SideAttempt::Never
            || s.pass_types.iter().any(|p| p.0 == ty)
            || state.stealth() < s.stealth_floor.0
            || state.attempts() >= s.max_attempts.0
            || (successes >= 1 && !s.second_success)
        {
            return None;
        }
        let finale = state.finale();
        let may_roll = |c: &Character| {
            state.is_able(*c)
                && state.skill(rules, *c, ty) > 0
                && (s.finale_may_roll || Some(*c) != finale)
        };
        let eligible: Team = Character::ALL.into_iter().filter(may_roll).collect();
        if !anyone && s.attempt == SideAttempt::WithSpecialist && !eligible.contains(ty) {
            return None;
        }
        pick(state, ty, s.roller, eligible)
    }

    /// R14 variant: the substitute finale character.
    fn substitute(&self, state: &State, rules: &Rules) -> Character {
        let main = state.main();
        let chosen = match self.substitute.character {
            SubstituteRule::MainFirst => state.substitutes(rules).find(|c| Some(*c) == main),
            SubstituteRule::LeastWounded => None,
        };
        chosen
            .or_else(|| least_wounded(state, state.substitutes(rules)))
            .expect("a substitute exists")
    }

    /// The action a rule's option names in `state`, when it names a legal one.
    pub fn resolve(
        &self,
        choose: Choose,
        state: &State,
        rules: &Rules,
        decision: Decision,
    ) -> Option<Action> {
        let member = |who: Who, ty: Option<Character>, candidates: crate::game::Team| match who {
            Who::Specialist => ty
                .filter(|t| candidates.contains(*t))
                .or_else(|| crate::strategy::least_wounded_of(state, candidates)),
            Who::LeastWounded => crate::strategy::least_wounded_of(state, candidates),
            Who::Main => state.main().filter(|c| candidates.contains(*c)),
            Who::Finale => Some(self.finale_character(state)).filter(|c| candidates.contains(*c)),
            Who::Named(c) => Some(c).filter(|c| candidates.contains(*c)),
            Who::Patient | Who::Incapacitated | Who::Wounded => None,
        };
        let able = state.able_team();
        let action = match (choose, decision) {
            (Choose::Stop, _) => Action::Stop,
            (Choose::Pass, _) => Action::Pass,
            (Choose::Skip, _) => Action::SkipAid,
            (Choose::Pick(c), Decision::MainCharacter) => Action::Main(c),
            (Choose::MainBy(pick), Decision::MainCharacter) => {
                let rule = match pick {
                    MainPick::MostNeeded => MainRule::MostNeeded,
                    MainPick::MostNeededNotMedic => MainRule::MostNeededNotMedic,
                    MainPick::HardestToRecruit => MainRule::HardestToRecruit,
                    MainPick::FirstTarget => MainRule::FirstTarget,
                };
                Action::Main(self.main_by(state, rule)?)
            }
            (Choose::MainBy(_), _) => return None,
            (Choose::Easiest, Decision::RecruitTarget) => {
                let mut candidates =
                    (self.recruit.order.0.iter().copied()).filter(|c| !state.team().contains(*c));
                let easy =
                    |c: &Character| state.complication(*c).is_some_and(|ty| state.is_able(ty));
                Action::Recruit(
                    candidates
                        .clone()
                        .find(easy)
                        .or_else(|| candidates.next())?,
                )
            }
            (Choose::Easiest, _) => return None,
            (Choose::Pick(c), Decision::RecruitTarget) => Action::Recruit(c),
            (Choose::Pick(c), Decision::RunType) => Action::RunType(c),
            (Choose::Pick(_), _) => return None,
            (
                Choose::By(w),
                Decision::RecruitRoller {
                    complication: ty, ..
                },
            )
            | (Choose::By(w), Decision::RunRoller { ty }) => {
                Action::Roll(member(w, Some(ty), able)?)
            }
            (Choose::By(w), Decision::FinaleCharacter) => Action::Finale(member(w, None, able)?),
            (Choose::By(w), Decision::Substitute) => {
                Action::Finale(member(w, None, state.substitutes(rules).collect())?)
            }
            (Choose::By(_), _) => return None,
            (Choose::Try(w), Decision::SideChallenge { ty, .. }) => {
                // The finale character rolls when named (by role or speciality), or when the
                // knobs let them; a rule by rank (specialist, least wounded) follows the knobs.
                let finale = state.finale();
                let named = matches!(w, Some(Who::Finale | Who::Main | Who::Named(_)));
                let may_roll: crate::game::Team = (able.iter())
                    .filter(|c| state.skill(rules, *c, ty) > 0)
                    .filter(|c| named || self.side.finale_may_roll || Some(*c) != finale)
                    .collect();
                let w = w.unwrap_or(match self.side.roller {
                    Roller::Specialist => Who::Specialist,
                    Roller::LeastWounded => Who::LeastWounded,
                });
                Action::Roll(member(w, Some(ty), may_roll)?)
            }
            (Choose::Try(_), _) => return None,
            (Choose::Treat(p, g), Decision::FirstAid) => {
                let patients = state.patient_team();
                let patient = match p {
                    Who::Incapacitated => patients.and(state.down_team()).first(),
                    Who::Wounded => patients.minus(state.down_team()).first(),
                    Who::Main => state.main().filter(|c| patients.contains(*c)),
                    Who::Finale => {
                        Some(self.finale_character(state)).filter(|c| patients.contains(*c))
                    }
                    Who::Named(c) => Some(c).filter(|c| patients.contains(*c)),
                    _ => None,
                }?;
                let giver = match g {
                    None => self.giver(state, patient)?,
                    Some(Who::Patient) => Some(patient).filter(|c| able.contains(*c))?,
                    Some(w) => member(w, None, able)?,
                };
                Action::Aid { patient, giver }
            }
            (Choose::Treat(..), _) => return None,
        };
        state.actions(rules).contains(action).then_some(action)
    }

    /// R15: who `[first_aid]`'s knobs have treat `patient` (`None`: no one may).
    pub(super) fn giver(&self, state: &State, patient: Character) -> Option<Character> {
        let f = &self.first_aid;
        let finale_gives = match f.finale_gives {
            FinaleGives::Always => true,
            FinaleGives::Undiscovered => !state.discovered(),
            FinaleGives::Never => false,
        };
        let able = match state.finale() {
            Some(finale) if !finale_gives => state.able_team().without(finale),
            _ => state.able_team(),
        };
        let medic = able.contains(Character::Medic).then_some(Character::Medic);
        let own = able.contains(patient).then_some(patient);
        let least = || least_wounded_of(state, able);
        match f.giver {
            GiverRule::MedicFirst => medic.or(own).or_else(least),
            GiverRule::SelfFirst => own.or(medic).or_else(least),
            GiverRule::LeastWounded => least(),
        }
    }

    /// R15: patient and giver, or `None` to skip.
    fn first_aid(&self, state: &State, rules: &Rules) -> Option<Action> {
        let f = &self.first_aid;
        let phase = match state.phase() {
            Phase::Recruitment => PhaseName::Recruitment,
            Phase::Run => PhaseName::Run,
            _ => PhaseName::Finale,
        };
        let floor = if f.discovered_ignores_floor && state.discovered() {
            0
        } else {
            f.stealth_floor.0
        };
        if f.when == AidWhen::Never || !f.phases.contains(&phase) || state.stealth() < floor {
            return None;
        }
        // Patients are never dead, so a patient who is down is incapacitated.
        let incapacitated = state.patient_team().and(state.down_team());
        let patients = if f.when == AidWhen::Incapacitated || state.stealth() < f.wounded_floor.0 {
            incapacitated
        } else {
            state.patient_team()
        };
        let incapacitated_first = || incapacitated.first().or(patients.first());
        let patient = match f.patient {
            PatientRule::IncapacitatedFirst => incapacitated_first(),
            PatientRule::FinaleFirst => {
                let finale = self.finale_character(state);
                Some(finale)
                    .filter(|c| patients.contains(*c))
                    .or_else(incapacitated_first)
            }
            PatientRule::LowestNumber => patients.first(),
        }?;
        let giver = self.giver(state, patient)?;
        // The chosen giver may be unable to roll (the finale character while discovered
        // under discovered-penalty = 2): then the opportunity is skipped, as the reference does.
        (state.skill(rules, giver, Character::Medic) > 0).then_some(Action::Aid { patient, giver })
    }
}

/// The roller among `candidates` for a check of type `ty`.
#[inline]
fn pick(state: &State, ty: Character, roller: Roller, candidates: Team) -> Option<Character> {
    match roller {
        Roller::Specialist if candidates.contains(ty) => Some(ty),
        _ => least_wounded_of(state, candidates),
    }
}
