//! Where a strategy loses its points: its regret (optimal − exact) split exactly over the
//! decisions it makes, by the performance-difference identity
//!
//! ```text
//! V*(x) − V_S(x) = Σ over the positions y the strategy reaches from x:
//!                  P_S(reach y) · (V*(y) − Q*(y, S's choice at y))
//! ```
//!
//! where `V*` is the optimal win probability and `Q*(y, a)` that of taking `a` at `y` and
//! playing optimally afterwards. It is the exact engine's walk ([`super::exact::Exact`]) with
//! another [`Measure`]: at each decision the strategy makes, the optimal value of every option
//! is read from the solver ([`Solver::options`]), and the shortfall of the strategy's choice
//! is added to the decision's kind. The same walk counts how often each kind of decision
//! arises with more than one option, and how often its best and worst options differ by more
//! than one point ([`MATTERS`]): a designer's measure of how much real choice the game offers.

use crate::game::{Decision, Node, State, canon};
use crate::rules::Rules;
use crate::strategy::{Choice, Sight, Strategy};

use super::exact::{Budget, Exact, Figures, Halt, Measure, second_side_type_odds};
use super::solve::{Solver, solve_within};

/// A choice *matters* when its best and worst options differ by more than this (one point of
/// win probability).
pub const MATTERS: f64 = 0.01;

/// The kinds of decision: one per decision point of the state machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

/// Per decision kind (in [`DecisionKind::ALL`] order): the expected regret, how many such
/// decisions with more than one option a game meets, and how many of them matter.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
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
    /// The regret summed over the kinds.
    pub fn total_regret(&self) -> f64 {
        self.regret.iter().sum()
    }
}

/// The [`Measure`] of the decomposition: the optimal value of every option from `solver`.
pub struct Regret<'s> {
    solver: &'s mut Solver,
}

impl Measure for Regret<'_> {
    type Value = ByKind;

    fn zero(&self) -> ByKind {
        ByKind::default()
    }

    fn terminal(&self, _: &State) -> ByKind {
        ByKind::default()
    }

    /// The optimal values read every complication optimal play may still read: those a
    /// strategy never names as a target (and so may forget) are kept unless no play can read
    /// them again ([`canon::unread_complications`]).
    fn sight(&self, state: &State, sight: Sight) -> Sight {
        match sight {
            Sight::Partial {
                counters,
                unread_complications,
                first_side_type,
                second_side_type,
            } => Sight::Partial {
                counters,
                unread_complications: unread_complications.and(canon::unread_complications(state)),
                first_side_type,
                second_side_type,
            },
            Sight::RulesOnly => Sight::RulesOnly,
        }
    }

    fn decision(
        &mut self,
        state: &State,
        rules: &Rules,
        choice: Choice,
        pending: bool,
    ) -> Result<Option<ByKind>, Halt> {
        let Node::Decision(decision) = state.node(rules) else {
            return Ok(None);
        };
        if state.actions(rules).len() < 2 {
            return Ok(None);
        }
        if !pending {
            return Ok(Some(self.shortfall(state, decision, choice)));
        }
        // The optimal values read the second side type the strategy does not: its
        // shortfall is the average over the second type's roll.
        let mut local = ByKind::default();
        for (second, p) in second_side_type_odds() {
            let rolled = state.with_second_side_type(second);
            Self::add_scaled(&mut local, &self.shortfall(&rolled, decision, choice), p);
        }
        Ok(Some(local))
    }

    fn add_scaled(acc: &mut ByKind, value: &ByKind, weight: f64) {
        for k in 0..KINDS {
            acc.regret[k] += weight * value.regret[k];
            acc.arises[k] += weight * value.arises[k];
            acc.matters[k] += weight * value.matters[k];
        }
    }
}

impl Regret<'_> {
    /// The shortfall of `choice` at `state` against the best option, and whether the choice
    /// matters there.
    fn shortfall(&mut self, state: &State, decision: Decision, choice: Choice) -> ByKind {
        let options = self.solver.options(state);
        let best = options.iter().map(|(_, v)| *v).fold(f64::MIN, f64::max);
        let worst = options.iter().map(|(_, v)| *v).fold(f64::MAX, f64::min);
        let chosen = match choice {
            Choice::Act(action) => {
                options
                    .iter()
                    .find(|(a, _)| *a == action)
                    .expect("the strategy's action is legal")
                    .1
            }
            Choice::Uniform => options.iter().map(|(_, v)| v).sum::<f64>() / options.len() as f64,
        };
        let k = DecisionKind::of(decision) as usize;
        let mut local = ByKind::default();
        local.regret[k] = best - chosen;
        local.arises[k] = 1.0;
        local.matters[k] = f64::from(u8::from(best - worst > MATTERS));
        local
    }
}

/// A strategy's decisions at one starting stealth.
#[derive(Clone, Debug, PartialEq)]
pub struct Decisions {
    /// Starting stealth.
    pub stealth: u8,
    /// The optimal win probability.
    pub optimal: f64,
    /// The strategy's exact win probability.
    pub exact: f64,
    /// Its regret by decision kind (summing to `optimal − exact`), and how often each kind
    /// arises and matters.
    pub by_kind: ByKind,
}

/// The regret decomposition of `strategy` at each of `stealths`, within `budget` (each of
/// the three walks — solve, exact, decomposition — counts its own positions against it).
pub fn decisions<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
    budget: Budget<'_>,
) -> Result<Vec<Decisions>, Halt> {
    let mut solver = Solver::new(*rules);
    let optimal = solve_within(&solver, stealths, &budget)?;
    let mut exact = Exact::with_measure(rules, strategy, Figures, budget);
    let mut order: Vec<usize> = (0..stealths.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(stealths[i]));
    let mut wins = vec![0.0; stealths.len()];
    for &i in &order {
        wins[i] = exact.value(&State::new(stealths[i]))?.win;
    }
    drop(exact);
    let mut walk = Exact::with_measure(
        rules,
        strategy,
        Regret {
            solver: &mut solver,
        },
        budget,
    );
    let mut by_kind = vec![ByKind::default(); stealths.len()];
    for &i in &order {
        by_kind[i] = walk.value(&State::new(stealths[i]))?;
    }
    Ok(stealths
        .iter()
        .enumerate()
        .map(|(i, &stealth)| Decisions {
            stealth,
            optimal: optimal[i].value,
            exact: wins[i],
            by_kind: by_kind[i],
        })
        .collect())
}
