//! The game state and its transitions: every ruling of docs/rules.md lives here and nowhere else.

use crate::rules::{Rules, SecondSuccess};

use super::character::{Character, Health, Healths, Team};
use super::node::{Action, Actions, Chance, Decision, Node, Outcome};

pub(super) mod resume;

/// The most run challenges any design has (R10; the printed game has 6,
/// [`crate::rules::Design::run_challenges`]).
pub const RUN_CHALLENGES: u8 = 12;
/// The most Tough Challenges any design has (R5; the printed game has 3).
pub const TOUGH_CHALLENGES: u8 = 6;
/// The largest starting stealth (R2).
pub const MAX_STEALTH: u8 = 99;

/// The three phases of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Phase {
    /// Phase 1: assemble a team.
    Recruitment,
    /// Phase 2: the run.
    Run,
    /// Phase 3: the finale.
    Finale,
    /// The game is over.
    Over,
}

/// Where in the game we are, with what the current task has accumulated.
///
/// `repr(u8)`: an explicit tag byte. Without it the compiler hides the tag in the spare values
/// of a `Character` field (a niche), and every `match` on the step — the interpreter's most
/// frequent operation — first decodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Step {
    /// R6: complications are about to be rolled.
    Complications,
    /// R7: the main character is to be chosen.
    ChooseMain,
    /// R8: a target is to be named, or recruiting stopped.
    ChooseTarget,
    /// R8: a check for `target` is to be made by a member the strategy names.
    Recruit {
        /// The character being recruited.
        target: Character,
        /// Successful checks so far.
        done: u8,
        /// Checks needed (`N`).
        needed: u8,
    },
    /// R8: `roller` rolls for `target`.
    RecruitCheck {
        /// The character being recruited.
        target: Character,
        /// Successful checks so far.
        done: u8,
        /// Checks needed (`N`).
        needed: u8,
        /// Who rolls.
        roller: Character,
    },
    /// R10: the type of run challenge `challenge` (0-based) is about to be rolled.
    RunType {
        /// 0-based index of the challenge.
        challenge: u8,
    },
    /// R10: the challenge rolled 6; the strategy picks its type.
    PickRunType {
        /// 0-based index of the challenge.
        challenge: u8,
    },
    /// R10: someone must attempt challenge `challenge` of type `ty`.
    Run {
        /// 0-based index of the challenge.
        challenge: u8,
        /// Its type.
        ty: Character,
    },
    /// R10: `roller` attempts the challenge.
    RunCheck {
        /// 0-based index of the challenge.
        challenge: u8,
        /// Its type.
        ty: Character,
        /// Who rolls.
        roller: Character,
    },
    /// R11: the finale character is to be chosen.
    ChooseFinale,
    /// R12: the side challenges before Tough Challenge `tough` (0-based) are about to be rolled.
    SideTypes {
        /// 0-based index of the Tough Challenge.
        tough: u8,
    },
    /// R12: side challenge `index` awaits an attempt or a pass.
    Side {
        /// 0-based index of the Tough Challenge.
        tough: u8,
        /// The two rolled types.
        types: [Character; 2],
        /// Which side challenge (0 or 1).
        index: u8,
        /// Side successes so far for this Tough Challenge.
        successes: u8,
    },
    /// R12: `roller` attempts side challenge `index`.
    SideCheck {
        /// 0-based index of the Tough Challenge.
        tough: u8,
        /// The two rolled types.
        types: [Character; 2],
        /// Which side challenge (0 or 1).
        index: u8,
        /// Side successes so far for this Tough Challenge.
        successes: u8,
        /// Who rolls.
        roller: Character,
    },
    /// R14: the finale character makes the Tough check.
    Tough {
        /// 0-based index of the Tough Challenge.
        tough: u8,
        /// Side successes that count for it.
        successes: u8,
    },
    /// R14 variant: a substitute finale character is to be named.
    Substitute {
        /// 0-based index of the Tough Challenge.
        tough: u8,
        /// Side successes that count for it.
        successes: u8,
    },
    /// The game has ended.
    Over(Outcome),
}

/// A pending first-aid opportunity (R15); it interrupts the step it was opened before.
/// `repr(u8)` for a plain tag byte, as [`Step`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Aid {
    /// None pending.
    None,
    /// An opportunity awaits the strategy's decision.
    Open,
    /// `giver` is about to treat `patient`.
    Check {
        /// Who is treated.
        patient: Character,
        /// Who rolls.
        giver: Character,
    },
}

/// A whole game position: small and `Copy`, so the exact engines can hash it and the Monte
/// Carlo engine can copy it freely.
// Equality is the derived one's, its fields compared in another order (`PartialEq` below), so
// the derived hash agrees with it.
#[allow(clippy::derived_hash_with_manual_eq)]
#[derive(Clone, Copy, Debug, Eq, Hash)]
pub struct State {
    stealth: u8,
    health: Healths,
    team: Team,
    /// R6: the complication of each character not yet on the team (cleared on joining and at
    /// the end of phase 1, when the markers are removed).
    complications: [Option<Character>; 6],
    main: Option<Character>,
    finale: Option<Character>,
    /// Checks made on the current task (recruitment target, challenge, side challenge, Tough
    /// Challenge); information for strategies, not for the rules.
    attempts: u8,
    /// Consecutive failed checks on the current task; information for strategies.
    failures: u8,
    aid: Aid,
    step: Step,
}

impl PartialEq for State {
    /// Every field equal, those that most often tell apart positions met one after another
    /// (health, the counters, the step) first: the engines compare a position with those met
    /// just before it, and most comparisons fail.
    #[inline]
    fn eq(&self, other: &State) -> bool {
        self.health == other.health
            && self.attempts == other.attempts
            && self.failures == other.failures
            && self.step == other.step
            && self.stealth == other.stealth
            && self.team == other.team
            && self.aid == other.aid
            && self.complications == other.complications
            && self.main == other.main
            && self.finale == other.finale
    }
}

impl State {
    /// A new game at starting stealth `stealth` (R2), before complications are rolled.
    pub fn new(stealth: u8) -> State {
        State {
            stealth,
            health: Healths::default(),
            team: Team::EMPTY,
            complications: [None; 6],
            main: None,
            finale: None,
            attempts: 0,
            failures: 0,
            aid: Aid::None,
            step: Step::Complications,
        }
    }

    /// A game with complications already rolled, waiting for the main character.
    pub fn with_complications(stealth: u8, complications: [Character; 6]) -> State {
        let mut state = State::new(stealth);
        state.complications = complications.map(Some);
        state.step = Step::ChooseMain;
        state
    }

    // ----- building positions (tests, analysis) -----

    /// The position with character `i` renamed `perm[i]` (a permutation of `0..6`) in the
    /// team, the healths and the main and finale characters; `complications`, `step` and
    /// `aid` (already renamed) as given; no counters. For canonical forms
    /// ([`super::canon`]): a few bit operations instead of rebuilding the team member by
    /// member.
    pub(crate) fn relabelled(
        &self,
        perm: &[u8; 6],
        complications: [Option<Character>; 6],
        step: Step,
        aid: Aid,
    ) -> State {
        let map = |c: Character| Character::from_index(usize::from(perm[c.index()]));
        State {
            stealth: self.stealth,
            health: self.health.relabelled(perm),
            team: self.team.relabelled(perm),
            complications,
            main: self.main.map(map),
            finale: self.finale.map(map),
            attempts: 0,
            failures: 0,
            aid,
            step,
        }
    }

    /// Puts `c` on the team with health `health`.
    pub fn with_member(mut self, c: Character, health: Health) -> State {
        self.team = self.team.with(c);
        self.health.set(c, health);
        self.complications[c.index()] = None;
        self
    }
    /// Sets the main character (also on the team).
    pub fn with_main(mut self, c: Character) -> State {
        self.main = Some(c);
        if !self.team.contains(c) {
            self = self.with_member(c, Health::Healthy);
        }
        self
    }
    /// Sets the finale character.
    pub fn with_finale(mut self, c: Character) -> State {
        self.finale = Some(c);
        self
    }
    /// Sets the complication of `c`.
    pub fn with_complication(mut self, c: Character, ty: Character) -> State {
        self.complications[c.index()] = Some(ty);
        self
    }
    /// Sets stealth.
    pub fn with_stealth(mut self, stealth: u8) -> State {
        self.stealth = stealth;
        self
    }
    /// Sets the step and pending first aid.
    pub fn at(mut self, step: Step, aid: Aid) -> State {
        self.step = step;
        self.aid = aid;
        self
    }
    /// R12 rolled in two halves: the second side challenge's type set to `second` while the
    /// first side challenge is under way (its die is independent of everything before it).
    /// For engines that roll it only when it can first matter; the rules never read it at the
    /// first side challenge.
    pub fn with_second_side_type(mut self, second: Character) -> State {
        if let Step::Side { types, .. } | Step::SideCheck { types, .. } = &mut self.step {
            types[1] = second;
        }
        self
    }
    /// R12: whether the first side challenge is under way (deciding or rolling): until it is
    /// over, the rules never read the second side type.
    pub fn on_first_side(&self) -> bool {
        matches!(
            self.step,
            Step::Side { index: 0, .. } | Step::SideCheck { index: 0, .. }
        )
    }

    /// R12 rolled in two halves: the side-type roll at this position with only the first die
    /// read — each position it leads to once (the second type a placeholder until
    /// [`State::with_second_side_type`] rolls it, [`Chance::second_side_type_odds`]), with
    /// its probability, in the order of [`Chance::outcomes`].
    pub fn first_side_types(&self, rules: &Rules) -> impl Iterator<Item = (State, f64)> {
        let mut firsts = [(*self, 0.0); Character::ALL.len()];
        let mut n = 0;
        for (outcome, p) in Chance::SideTypes.outcomes() {
            let mut next = *self;
            next.apply_outcome(rules, outcome);
            let placeholder = next.with_second_side_type(Character::ALL[0]);
            match firsts[..n].iter_mut().find(|(s, _)| *s == placeholder) {
                Some((_, weight)) => *weight += p,
                None => {
                    firsts[n] = (placeholder, p);
                    n += 1;
                }
            }
        }
        firsts.into_iter().take(n)
    }
    /// The position as the rules leave it after any change: over if no member is able (R4)
    /// or the finale character cannot roll (R14), an unusable first-aid opportunity gone
    /// (R15), a finished phase moved on. For positions built field by field (`with_…`, `at`).
    pub fn settled(mut self, rules: &Rules) -> State {
        self.settle(rules);
        self
    }

    /// Sets the strategy-facing counters of the current task.
    pub fn with_counters(mut self, attempts: u8, failures: u8) -> State {
        self.attempts = attempts;
        self.failures = failures;
        self
    }

    // ----- read-only view -----

    /// Current stealth (0 = discovered).
    pub fn stealth(&self) -> u8 {
        self.stealth
    }
    /// R2: whether the team has been discovered.
    pub fn discovered(&self) -> bool {
        self.stealth == 0
    }
    /// A character's health.
    pub fn health(&self, c: Character) -> Health {
        self.health.get(c)
    }
    /// The team (dead members included).
    pub fn team(&self) -> Team {
        self.team
    }
    /// The complication still to be overcome to recruit `c` (phase 1, not on the team).
    pub fn complication(&self, c: Character) -> Option<Character> {
        self.complications[c.index()]
    }
    /// The main character, once chosen.
    pub fn main(&self) -> Option<Character> {
        self.main
    }
    /// The finale character, once chosen.
    pub fn finale(&self) -> Option<Character> {
        self.finale
    }
    /// Checks made so far on the current task.
    pub fn attempts(&self) -> u8 {
        self.attempts
    }
    /// Consecutive failures on the current task.
    pub fn failures(&self) -> u8 {
        self.failures
    }
    /// The current step.
    pub fn step(&self) -> Step {
        self.step
    }
    /// The pending first aid, if any.
    pub fn aid(&self) -> Aid {
        self.aid
    }
    /// R3: whether `c` is on the team and able.
    pub fn is_able(&self, c: Character) -> bool {
        self.able_team().contains(c)
    }
    /// Able team members in character order.
    pub fn able(&self) -> impl Iterator<Item = Character> + use<> {
        self.able_team().iter()
    }
    /// R3: the able team members as a set.
    #[inline]
    pub fn able_team(&self) -> Team {
        self.team.minus(self.health.unable())
    }
    /// Team members with at least one wound (the dead included).
    #[inline]
    pub fn hurt_team(&self) -> Team {
        self.team.and(self.health.hurt())
    }
    /// Team members who are incapacitated or dead.
    #[inline]
    pub fn down_team(&self) -> Team {
        self.team.and(self.health.unable())
    }
    /// Team members that are not dead.
    pub fn living(&self) -> u8 {
        self.team.minus(self.health.dead()).len()
    }
    /// Dead team members.
    pub fn deaths(&self) -> u8 {
        self.team.len() - self.living()
    }
    /// R8: how many more may join a team of `members` (dead ones count) before recruiting
    /// ends: `team-size` (4) less `members`.
    pub fn room_on_team(rules: &Rules, members: u8) -> u8 {
        rules.design.team_size.saturating_sub(members)
    }

    /// Wounds carried by living team members.
    pub fn wounds(&self) -> u8 {
        // One per living member with a wound, one more per incapacitated one (bit planes).
        let living = self.team.minus(self.health.dead());
        living.and(self.health.hurt()).len() + living.and(self.health.unable()).len()
    }

    /// The phase of the current step.
    pub fn phase(&self) -> Phase {
        match self.step {
            Step::Complications
            | Step::ChooseMain
            | Step::ChooseTarget
            | Step::Recruit { .. }
            | Step::RecruitCheck { .. } => Phase::Recruitment,
            Step::RunType { .. }
            | Step::PickRunType { .. }
            | Step::Run { .. }
            | Step::RunCheck { .. } => Phase::Run,
            Step::ChooseFinale
            | Step::SideTypes { .. }
            | Step::Side { .. }
            | Step::SideCheck { .. }
            | Step::Tough { .. }
            | Step::Substitute { .. } => Phase::Finale,
            Step::Over(_) => Phase::Over,
        }
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.step {
            Step::Over(outcome) => Some(outcome),
            _ => None,
        }
    }

    /// R13: the finale penalty `p` for `c` (0 for anyone but the finale character):
    /// `finale-penalty`, or `discovered-penalty` while discovered.
    pub fn penalty(&self, rules: &Rules, c: Character) -> i8 {
        if self.finale != Some(c) {
            0
        } else if self.discovered() {
            rules.discovered_penalty as i8
        } else {
            rules.design.finale_penalty as i8
        }
    }

    /// R1: dice `c` rolls for a check of type `ty` before penalties: `specialist-dice` for
    /// their own speciality, `base-dice` for any other.
    #[inline(always)]
    fn base_dice(rules: &Rules, c: Character, ty: Character) -> i8 {
        if c == ty {
            rules.design.specialist_dice as i8
        } else {
            rules.design.base_dice as i8
        }
    }

    /// R1 + R13: dice `c` rolls for a check of type `ty` (≤ 0: may not attempt).
    pub fn skill(&self, rules: &Rules, c: Character, ty: Character) -> i8 {
        State::base_dice(rules, c, ty) - self.penalty(rules, c)
    }

    /// R13: dice `c` rolls for a Tough check with `successes` side successes: the main
    /// character's speciality, penalty `max(p - s, 0)`.
    pub fn tough_skill(&self, rules: &Rules, c: Character, successes: u8) -> i8 {
        let ty = self.main.expect("the finale has a main character");
        State::base_dice(rules, c, ty) - (self.penalty(rules, c) - successes as i8).max(0)
    }

    /// Who rolls at the current chance point, if it is a check (first aid, recruitment, run,
    /// side or Tough check).
    pub fn roller(&self) -> Option<Character> {
        if let Aid::Check { giver, .. } = self.aid {
            return Some(giver);
        }
        match self.step {
            Step::RecruitCheck { roller, .. }
            | Step::RunCheck { roller, .. }
            | Step::SideCheck { roller, .. } => Some(roller),
            Step::Tough { .. } => self.finale,
            _ => None,
        }
    }

    /// R1: whether the pending check succeeds when its highest die shows `highest`.
    pub fn check_succeeds(&self, rules: &Rules, highest: u8) -> bool {
        reaches(highest, self.threshold(rules))
    }

    /// R1/R13: the success threshold of the pending check (the eased one only for a Tough
    /// check after `side-successes-to-ease` side successes, under `easier-threshold`).
    pub fn threshold(&self, rules: &Rules) -> u8 {
        match (self.aid, self.step) {
            (Aid::None, Step::Tough { successes, .. }) => self.tough_threshold(rules, successes),
            _ => rules.design.threshold,
        }
    }

    /// R13: the Tough check's threshold: `eased-threshold` (4) under `easier-threshold` once
    /// `side-successes-to-ease` side challenges before it succeeded ("a second success": 2 in
    /// the printed game, so one side challenge never eases it), else `threshold` (5).
    pub fn tough_threshold(&self, rules: &Rules, successes: u8) -> u8 {
        let needed = rules.design.side_successes_to_ease;
        if successes >= needed && rules.second_success == SecondSuccess::EasierThreshold {
            rules.design.eased_threshold
        } else {
            rules.design.threshold
        }
    }

    // ----- what happens next -----

    /// What the game is now: a chance point, a decision point, or over.
    #[inline(always)]
    pub fn node(&self, rules: &Rules) -> Node {
        match self.aid {
            Aid::Open => return Node::Decision(Decision::FirstAid),
            Aid::Check { giver, .. } => {
                return Node::Chance(Chance::Check {
                    dice: self.aid_dice(rules, giver),
                });
            }
            Aid::None => {}
        }
        match self.step {
            Step::Complications => Node::Chance(Chance::Complications),
            Step::ChooseMain => Node::Decision(Decision::MainCharacter),
            Step::ChooseTarget => Node::Decision(Decision::RecruitTarget),
            Step::Recruit { target, .. } => Node::Decision(Decision::RecruitRoller {
                target,
                complication: self.recruit_type(target),
            }),
            Step::RecruitCheck { roller, .. } => Node::Chance(Chance::Check {
                dice: self.task_dice(rules, roller),
            }),
            Step::RunType { .. } => Node::Chance(Chance::ChallengeType),
            Step::PickRunType { .. } => Node::Decision(Decision::RunType),
            Step::Run { ty, .. } => Node::Decision(Decision::RunRoller { ty }),
            Step::RunCheck { roller, .. } => Node::Chance(Chance::Check {
                dice: self.task_dice(rules, roller),
            }),
            Step::ChooseFinale => Node::Decision(Decision::FinaleCharacter),
            Step::SideTypes { .. } => Node::Chance(Chance::SideTypes),
            Step::Side {
                types,
                index,
                successes,
                ..
            } => Node::Decision(Decision::SideChallenge {
                ty: types[usize::from(index)],
                index,
                successes,
            }),
            Step::SideCheck { roller, .. } => Node::Chance(Chance::Check {
                dice: self.task_dice(rules, roller),
            }),
            Step::Tough { successes, .. } => {
                let finale = self.finale.expect("the finale character is chosen");
                Node::Chance(Chance::Check {
                    dice: self.tough_skill(rules, finale, successes) as u8,
                })
            }
            Step::Substitute { .. } => Node::Decision(Decision::Substitute),
            Step::Over(outcome) => Node::Over(outcome),
        }
    }

    /// R1/R13: the dice `roller` rolls for the check of the current task — a recruitment
    /// check (the target's complication), a run challenge or a side challenge — whether the
    /// roller is still to be named ([`Step::Recruit`], [`Step::Run`], [`Step::Side`]) or
    /// named ([`Step::RecruitCheck`], …): [`State::skill`] for the task's type, as the
    /// transitions ([`State::resume`]) roll it.
    #[inline(always)]
    fn task_dice(&self, rules: &Rules, roller: Character) -> u8 {
        let ty = match self.step {
            Step::Recruit { target, .. } | Step::RecruitCheck { target, .. } => {
                self.recruit_type(target)
            }
            Step::Run { ty, .. } | Step::RunCheck { ty, .. } => ty,
            Step::Side { types, index, .. } | Step::SideCheck { types, index, .. } => {
                types[usize::from(index)]
            }
            step => panic!("no check of a task is pending at {step:?}"),
        };
        self.skill(rules, roller, ty) as u8
    }

    /// The dice of the check that [`Action::Roll`]`(roller)` would start at this decision
    /// point (a recruitment, run or side challenge roller): what [`State::node`] reports
    /// after [`State::apply_action`] with that action (for narration).
    #[inline(always)]
    pub fn roll_dice(&self, rules: &Rules, roller: Character) -> u8 {
        self.task_dice(rules, roller)
    }

    /// R15: the dice `giver` rolls for first aid (a type-6 check, R13 penalty included).
    #[inline(always)]
    pub fn aid_dice(&self, rules: &Rules, giver: Character) -> u8 {
        self.skill(rules, giver, Character::Medic) as u8
    }

    /// The legal options at the current decision point (empty at chance points and the end).
    pub fn actions(&self, rules: &Rules) -> Actions {
        let mut out = Actions::new();
        let Node::Decision(decision) = self.node(rules) else {
            return out;
        };
        match decision {
            Decision::MainCharacter => Character::ALL
                .into_iter()
                .for_each(|c| out.push(Action::Main(c))),
            Decision::RecruitTarget => {
                out.push(Action::Stop);
                for c in Character::ALL
                    .into_iter()
                    .filter(|c| !self.team.contains(*c))
                {
                    out.push(Action::Recruit(c));
                }
            }
            // R8: the strategy may stop before every check, after a success as after a failure.
            Decision::RecruitRoller { .. } => {
                out.push(Action::Stop);
                self.able().for_each(|c| out.push(Action::Roll(c)));
            }
            Decision::RunType => Character::ALL[..5]
                .iter()
                .for_each(|c| out.push(Action::RunType(*c))),
            Decision::RunRoller { .. } => self.able().for_each(|c| out.push(Action::Roll(c))),
            Decision::FinaleCharacter => self.able().for_each(|c| out.push(Action::Finale(c))),
            Decision::SideChallenge { ty, .. } => {
                out.push(Action::Pass);
                (self.side_rollers(rules, ty).iter()).for_each(|c| out.push(Action::Roll(c)));
            }
            Decision::Substitute => {
                for c in self.substitutes(rules) {
                    out.push(Action::Finale(c));
                }
            }
            Decision::FirstAid => {
                out.push(Action::SkipAid);
                for patient in self.patients() {
                    for giver in self.givers(rules) {
                        out.push(Action::Aid { patient, giver });
                    }
                }
            }
        }
        out
    }

    /// Whether the decision here has two legal options or more ([`State::actions`]): told
    /// from the sets the options are drawn from, without listing them. The regret
    /// decomposition asks it at every decision a strategy meets.
    pub fn has_choice(&self, rules: &Rules) -> bool {
        let Node::Decision(decision) = self.node(rules) else {
            return false;
        };
        let able = self.able_team();
        match decision {
            // Six characters; five types.
            Decision::MainCharacter | Decision::RunType => true,
            // Stop, or a character not on the team.
            Decision::RecruitTarget => usize::from(self.team.len()) < Character::ALL.len(),
            // Stop, or an able member.
            Decision::RecruitRoller { .. } => !able.is_empty(),
            Decision::RunRoller { .. } | Decision::FinaleCharacter => able.len() >= 2,
            // Pass, or a roller.
            Decision::SideChallenge { ty, .. } => !self.side_rollers(rules, ty).is_empty(),
            Decision::Substitute => self.substitutes(rules).nth(1).is_some(),
            // Skip, or a patient with a giver.
            Decision::FirstAid => {
                !self.patient_team().is_empty() && !self.giver_team(rules).is_empty()
            }
        }
    }

    /// R12: the members who may attempt a side challenge of type `ty`: able, with dice for it.
    fn side_rollers(&self, rules: &Rules, ty: Character) -> Team {
        (self.able())
            .filter(|&c| self.skill(rules, c, ty) > 0)
            .fold(Team::EMPTY, Team::with)
    }

    /// R15: team members first aid can help.
    pub fn patients(&self) -> impl Iterator<Item = Character> + use<> {
        self.patient_team().iter()
    }

    /// R15: the patients as a set (wounded or incapacitated team members).
    #[inline]
    pub fn patient_team(&self) -> Team {
        self.team.and(self.health.hurt()).minus(self.health.dead())
    }

    /// R15: the givers as a set: able members, less a finale character whose penalty leaves
    /// no dice (R13).
    #[inline]
    pub fn giver_team(&self, rules: &Rules) -> Team {
        let able = self.able_team();
        match self.finale {
            Some(f) if self.skill(rules, f, Character::Medic) <= 0 => able.without(f),
            _ => able,
        }
    }

    /// R15: able members whose type-6 skill is above 0.
    pub fn givers(&self, rules: &Rules) -> impl Iterator<Item = Character> + use<> {
        self.giver_team(rules).iter()
    }

    /// R14 variant: able members, other than the current finale character, whose skill for
    /// the due Tough check is above 0.
    pub fn substitutes<'a>(&'a self, rules: &'a Rules) -> impl Iterator<Item = Character> + 'a {
        let successes = match self.step {
            Step::Tough { successes, .. } | Step::Substitute { successes, .. } => successes,
            _ => 0,
        };
        self.able().filter(move |c| {
            Some(*c) != self.finale && self.tough_skill_as(rules, *c, successes) > 0
        })
    }

    /// The Tough skill `c` would have as finale character.
    fn tough_skill_as(&self, rules: &Rules, c: Character, successes: u8) -> i8 {
        let mut as_finale = *self;
        as_finale.finale = Some(c);
        as_finale.tough_skill(rules, c, successes)
    }

    /// The check type for recruiting `target`: their complication.
    fn recruit_type(&self, target: Character) -> Character {
        self.complications[target.index()].expect("a target not on the team has a complication")
    }
}

/// R1: a check succeeds iff its highest die reaches the threshold.
#[inline(always)]
pub(super) fn reaches(highest: u8, threshold: u8) -> bool {
    highest >= threshold
}
