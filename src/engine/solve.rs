//! Optimal play: the highest win probability any strategy can reach, by expectimax over the
//! same state machine the other engines drive — a weighted sum at chance points, the best
//! option at decision points.
//!
//! **Information.** A strategy may only use what the rules let a player know. The state
//! machine reveals exactly that: complications once rolled, challenge and side types once
//! rolled, never a future die. So the best value over *all* strategies is plain expectimax on
//! [`State`] — no information set is larger than one state.
//!
//! **Memo key.** The counters `attempts`/`failures` exist for strategies only; the rules never
//! read them, so two states that differ only there have the same optimal value, and the memo
//! is keyed on the canonical form of the state without counters ([`memo::place`]). Checks that follow a decision
//! are not memoised (see [`super::exact::worth_memoising`]). Values are deterministic: every
//! state's value is a fixed function of its children, computed in a fixed order.
//!
//! **Ties** between options of equal value go to the first in [`State::actions`] order.

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::game::{Action, Aid, Chance, Character, Node, Outcome, State, Step, canon};
use crate::report::Expectation;
use crate::rules::Rules;

use super::exact::{Budget, Halt, add_scaled, terminal, worth_memoising};
use super::layers::{COMPILED_AT, Part};
use super::memo::{self, Memo};

/// A memoised optimal-value table for one set of rules, filled on demand — by one thread or
/// many at once ([`solve_within`] fills it in parallel).
#[derive(Clone, Debug)]
pub struct Solver {
    rules: Rules,
    memo: Memo,
}

impl Solver {
    /// An empty table for `rules`.
    pub fn new(rules: Rules) -> Solver {
        Solver {
            rules,
            memo: Memo::default(),
        }
    }

    /// The rules the table is for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The table itself.
    pub(super) fn memo(&self) -> &Memo {
        &self.memo
    }

    /// The number of memoised states.
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    /// The optimal win probability from `state`, filling the table below it as needed.
    pub fn value(&self, state: &State) -> f64 {
        self.try_value(state, &Budget::UNLIMITED)
            .expect("an unlimited solve runs to the end")
    }

    /// [`Solver::value`], stopping when the table would grow past `budget` or its cancel flag
    /// is raised.
    pub fn try_value(&self, state: &State, budget: &Budget<'_>) -> Result<f64, Halt> {
        let node = state.node(&self.rules);
        if let Node::Over(outcome) = node {
            return Ok(win(outcome));
        }
        // Places are computed only for memoised positions: canonicalising costs more than a
        // step of the state machine.
        let place = worth_memoising(state).then(|| memo::place(state));
        if let Some(place) = place
            && let Some(v) = self.memo.get(place)
        {
            return Ok(v);
        }
        let rules = self.rules;
        let v = match node {
            Node::Over(_) => unreachable!(),
            Node::Chance(chance) => {
                if chance.names_characters() {
                    self.chance_value_by_value(state, chance, budget)?
                } else {
                    // Outcomes with the same effect (a highest die of 1 or 2, of 3 or 4) lead
                    // to the same position, evaluated once with the summed weight.
                    let mut v = 0.0;
                    let mut pending: Option<(State, f64)> = None;
                    for (outcome, p) in chance.outcomes() {
                        let mut next = *state;
                        next.apply_outcome(&rules, outcome);
                        match &mut pending {
                            Some((same, weight)) if *same == next => *weight += p,
                            _ => {
                                if let Some((previous, weight)) = pending.replace((next, p)) {
                                    v += weight * self.try_value(&previous, budget)?;
                                }
                            }
                        }
                    }
                    if let Some((last, weight)) = pending {
                        v += weight * self.try_value(&last, budget)?;
                    }
                    v
                }
            }
            Node::Decision(_) => {
                let mut best = f64::NEG_INFINITY;
                for &action in state.actions(&rules).iter() {
                    let mut next = *state;
                    next.apply_action(&rules, action);
                    best = best.max(self.try_value(&next, budget)?);
                }
                best
            }
        };
        if let Some(place) = place {
            budget.admit(self.memo.len())?;
            self.memo.insert(place, v);
        }
        Ok(v)
    }

    /// The value of a chance point whose outcomes name characters (challenge and side types):
    /// the weighted values summed in order of value, not of outcome. Relabelling a position
    /// permutes such outcomes, so in outcome order two positions of one class would round
    /// differently; in value order every member of a class gets the same bits, whichever of
    /// them — on whichever thread — is solved first. That is what makes a parallel solve give
    /// the same table as a serial one.
    fn chance_value_by_value(
        &self,
        state: &State,
        chance: Chance,
        budget: &Budget<'_>,
    ) -> Result<f64, Halt> {
        // At most 36 outcomes (two side types) but at the root (every complication roll).
        let len = chance.len() as usize;
        let mut few = [(0.0, 0.0); 36];
        let mut many = Vec::new();
        let terms: &mut [(f64, f64)] = if len <= few.len() {
            &mut few[..len]
        } else {
            many.resize(len, (0.0, 0.0));
            &mut many
        };
        for ((outcome, p), term) in chance.outcomes().zip(terms.iter_mut()) {
            let mut next = *state;
            next.apply_outcome(&self.rules, outcome);
            *term = (self.try_value(&next, budget)?, p);
        }
        terms.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        Ok(terms.iter().map(|(v, p)| p * v).sum())
    }

    /// The optimal win probability from `state` read from the table alone; `None` when a state
    /// it needs has not been solved yet.
    pub fn peek(&self, state: &State) -> Option<f64> {
        let node = state.node(&self.rules);
        if let Node::Over(outcome) = node {
            return Some(win(outcome));
        }
        if worth_memoising(state) {
            return self.memo.get(memo::place(state));
        }
        let rules = &self.rules;
        match node {
            Node::Over(_) => unreachable!(),
            Node::Chance(chance) => {
                let mut v = 0.0;
                for (outcome, p) in chance.outcomes() {
                    let mut next = *state;
                    next.apply_outcome(rules, outcome);
                    v += p * self.peek(&next)?;
                }
                Some(v)
            }
            Node::Decision(_) => {
                let mut best = f64::NEG_INFINITY;
                for &action in state.actions(rules).iter() {
                    let mut next = *state;
                    next.apply_action(rules, action);
                    best = best.max(self.peek(&next)?);
                }
                Some(best)
            }
        }
    }

    /// The value of each legal option at decision point `state`, in [`State::actions`] order,
    /// read from the table alone (`None` if part of it is unsolved).
    pub fn peek_options(&self, state: &State) -> Option<Vec<(Action, f64)>> {
        state
            .actions(&self.rules)
            .iter()
            .map(|&action| {
                let mut next = *state;
                next.apply_action(&self.rules, action);
                self.peek(&next).map(|v| (action, v))
            })
            .collect()
    }

    /// The value of each legal option at decision point `state`, solving what is missing.
    pub fn options(&self, state: &State) -> Vec<(Action, f64)> {
        let rules = self.rules;
        state
            .actions(&rules)
            .iter()
            .map(|&action| {
                let mut next = *state;
                next.apply_action(&rules, action);
                (action, self.value(&next))
            })
            .collect()
    }
}

/// Every reported figure of an optimal policy (win probability and the functionals of
/// [`crate::report::Expectation`]), by evaluating the table's greedy policy (ties to the first
/// option) over the same canonical classes as the values. The win probability equals
/// [`Solver::value`]; the other figures are those of an optimal policy, and can differ from
/// [`crate::strategy::OptimalStrategy`]'s only where two options tie exactly in win
/// probability (the class representative met first decides the tie for its class).
pub struct PolicyEvaluation<'a> {
    solver: &'a Solver,
    /// Sparse: a policy reaches few of the positions a dense chunk spans, and an expectation
    /// is twelve numbers (dense chunks of them measured 2.4× the process's peak memory).
    memo: FxHashMap<memo::Place, Expectation>,
}

impl<'a> PolicyEvaluation<'a> {
    /// An evaluation of `solver`'s greedy policy (solving what is missing).
    pub fn new(solver: &'a Solver) -> Self {
        PolicyEvaluation {
            solver,
            memo: FxHashMap::default(),
        }
    }

    /// The figures of the optimal policy from `state`.
    pub fn expectation(&mut self, state: &State) -> Expectation {
        let rules = *self.solver.rules();
        let node = state.node(&rules);
        if let Node::Over(_) = node {
            return terminal(state);
        }
        let place = worth_memoising(state).then(|| memo::place(state));
        if let Some(place) = place
            && let Some(e) = self.memo.get(&place)
        {
            return *e;
        }
        let e = match node {
            Node::Over(_) => unreachable!(),
            Node::Chance(chance) => {
                let mut e = Expectation::default();
                for (outcome, p) in chance.outcomes() {
                    let mut next = *state;
                    next.apply_outcome(&rules, outcome);
                    let value = self.expectation(&next);
                    add_scaled(&mut e, &value, p);
                }
                e
            }
            Node::Decision(_) => {
                let options = self.solver.options(state);
                let action = best(&options).expect("a decision point has a legal option");
                let mut next = *state;
                next.apply_action(&rules, action);
                self.expectation(&next)
            }
        };
        if let Some(place) = place {
            self.memo.insert(place, e);
        }
        e
    }
}

/// 1 for a win, 0 for a loss.
fn win(outcome: Outcome) -> f64 {
    if outcome == Outcome::Win { 1.0 } else { 0.0 }
}

/// The first option of highest value (ties to the earliest in [`State::actions`] order).
pub fn best(options: &[(Action, f64)]) -> Option<Action> {
    let mut best: Option<(Action, f64)> = None;
    for &(action, v) in options {
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((action, v));
        }
    }
    best.map(|(a, _)| a)
}

/// Optimal values from the start of a game at one starting stealth.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// Starting stealth.
    pub stealth: u8,
    /// The optimal win probability.
    pub value: f64,
    /// For each main character (in character order), the best win probability when that
    /// character must be the main one: the value after choosing them, averaged over the
    /// complication rolls.
    pub by_main: [f64; 6],
}

/// Solves the game from the start at each of `stealths` into `solver`'s table (shared across
/// stealths: a game from stealth 12 passes through the positions of one from stealth 10).
/// The complication rolls are solved in parallel on the current rayon pool, and summed in
/// order: the values are the same bits for any number of threads.
pub fn solve(solver: &Solver, stealths: &[u8]) -> Vec<Solution> {
    solve_within(solver, stealths, &Budget::UNLIMITED).expect("an unlimited solve runs to the end")
}

/// [`solve`], stopping when the table would grow past `budget` or its cancel flag is raised.
pub fn solve_within(
    solver: &Solver,
    stealths: &[u8],
    budget: &Budget<'_>,
) -> Result<Vec<Solution>, Halt> {
    let Some(&highest) = stealths.iter().max() else {
        return Ok(Vec::new());
    };
    solve_layers(solver, highest, budget)?;
    let rolls: Vec<(u32, f64)> = Chance::Complications.outcomes().collect();
    let mut openings = if highest >= COMPILED_AT {
        phase_one(solver, &rolls, stealths, budget)?
    } else {
        Vec::new()
    };
    stealths
        .iter()
        .map(|&stealth| {
            let by_roll = match openings.iter().position(|o| o.stealth == stealth) {
                Some(i) => std::mem::take(&mut openings[i].by_roll),
                None => walk_openings(solver, &rolls, stealth, budget)?,
            };
            // Summed in roll order, so the sums do not depend on how the rolls were shared out.
            let mut by_main = [0.0; 6];
            let mut value = 0.0;
            for (&(_, p), values) in rolls.iter().zip(&by_roll) {
                let mut best = f64::NEG_INFINITY;
                for (sum, &v) in by_main.iter_mut().zip(values) {
                    *sum += p * v;
                    best = best.max(v);
                }
                value += p * best;
            }
            Ok(Solution {
                stealth,
                value,
                by_main,
            })
        })
        .collect()
}

/// The value of every complication roll (in outcome order) with each main character, at one
/// starting stealth.
#[derive(Debug)]
struct Openings {
    stealth: u8,
    by_roll: Vec<[f64; 6]>,
}

/// The game after complication roll `outcome` and the choice of `main`, at `stealth`.
fn after_main(rules: &Rules, stealth: u8, outcome: u32, main: Character) -> State {
    let mut state = State::new(stealth);
    state.apply_outcome(rules, outcome);
    state.apply_action(rules, Action::Main(main));
    state
}

/// [`Openings`] at `stealth` by the walk, the rolls in parallel.
fn walk_openings(
    solver: &Solver,
    rolls: &[(u32, f64)],
    stealth: u8,
    budget: &Budget<'_>,
) -> Result<Vec<[f64; 6]>, Halt> {
    let rules = *solver.rules();
    rolls
        .par_iter()
        .map(|&(outcome, _)| {
            let mut values = [0.0; 6];
            for c in Character::ALL {
                values[c.index()] =
                    solver.try_value(&after_main(&rules, stealth, outcome, c), budget)?;
            }
            Ok(values)
        })
        .collect()
}

/// Phase 1 solved in layers ([`Part`]) at every stealth from [`COMPILED_AT`] to the highest
/// of `stealths`, once the run is solved; the [`Openings`] of those of `stealths` it covers.
///
/// Games with a Medic main character and with any other never meet (the main character is
/// for the whole game), so they are two parts, solved side by side. The places of the 46 656
/// rolls × 6 main characters — canonical forms, the costliest step — are found first, in
/// parallel.
fn phase_one(
    solver: &Solver,
    rolls: &[(u32, f64)],
    stealths: &[u8],
    budget: &Budget<'_>,
) -> Result<Vec<Openings>, Halt> {
    let rules = *solver.rules();
    let highest = stealths.iter().copied().max().unwrap_or(0);
    let places: Vec<[memo::Place; 6]> = rolls
        .par_iter()
        .map(|&(outcome, _)| {
            Character::ALL.map(|c| memo::place(&after_main(&rules, COMPILED_AT, outcome, c)))
        })
        .collect();
    let kinds: [&[Character]; 2] = [
        &[Character::Medic],
        &[
            Character::Hacker,
            Character::Spy,
            Character::Sniper,
            Character::Demolitions,
            Character::Mechanic,
        ],
    ];
    let wanted: Vec<u8> = stealths
        .iter()
        .copied()
        .filter(|&s| s >= COMPILED_AT)
        .collect();
    let parts = kinds
        .par_iter()
        .map(|mains| {
            let mut part = Part::new(solver, budget, highest);
            // Local ids of the rolls' positions, roll by roll.
            let mut ids = Vec::with_capacity(rolls.len() * mains.len());
            for (&(outcome, _), places) in rolls.iter().zip(&places) {
                for &main in *mains {
                    let state = after_main(&rules, COMPILED_AT, outcome, main);
                    ids.push(part.add(&state, places[main.index()])?);
                }
            }
            let mut openings: Vec<Openings> = Vec::new();
            part.replay(|stealth, values| {
                if wanted.contains(&stealth) {
                    let by_roll = ids
                        .chunks(mains.len())
                        .map(|ids| {
                            let mut row = [f64::NAN; 6];
                            for (&main, &id) in mains.iter().zip(ids) {
                                row[main.index()] = values[id as usize];
                            }
                            row
                        })
                        .collect();
                    openings.push(Openings { stealth, by_roll });
                }
            })?;
            Ok(openings)
        })
        .collect::<Result<Vec<Vec<Openings>>, Halt>>()?;
    // The two kinds' values side by side.
    let [medic, others]: [Vec<Openings>; 2] = parts.try_into().expect("two kinds of main");
    Ok(others
        .into_iter()
        .zip(medic)
        .map(|(mut all, medic)| {
            for (row, medic_row) in all.by_roll.iter_mut().zip(medic.by_roll) {
                row[Character::Medic.index()] = medic_row[Character::Medic.index()];
            }
            all
        })
        .collect())
}

/// Fills the tables of the finale, then of the run, for every team and every stealth up to
/// `highest`, before phase 1 is solved — backwards by layers, in parallel ([`Part`]).
///
/// Most of a solve is there (at stealth 10, 85 % of the positions), and every complication
/// roll reaches nearly all of it. The work is split where positions cannot meet: teams of
/// different shapes ([`canon::team_shapes`]) and, in the finale, different finale characters
/// never lead to each other's positions. The run then finds its finale solved, and phase 1
/// its run.
fn solve_layers(solver: &Solver, highest: u8, budget: &Budget<'_>) -> Result<(), Halt> {
    let rules = *solver.rules();
    let shapes = canon::team_shapes();
    // Larger teams first: the longest tasks start first, the short ones fill in.
    let mut finales: Vec<(&[Character], Character)> = shapes
        .iter()
        .flat_map(|team| team.iter().map(move |&finale| (team.as_slice(), finale)))
        .collect();
    finales.sort_by_key(|(team, _)| std::cmp::Reverse(team.len()));
    // R14 variant: a substitute moves play to another finale character's positions, so the
    // finale characters of a team are one part.
    let substitute = rules.finale_substitute;
    finales.retain(|(team, finale)| !substitute || *finale == team[0]);
    finales
        .par_iter()
        .with_max_len(1)
        .try_for_each(|&(team, finale)| {
            let finales: &[Character] = if substitute { team } else { &[finale] };
            // Every health of the team: the part's entries, before stealth is set.
            let entries: Vec<State> = finales
                .iter()
                .flat_map(|&finale| {
                    canon::team_healths(team, 0).map(move |state| {
                        state
                            .with_finale(finale)
                            .at(Step::SideTypes { tough: 0 }, Aid::None)
                    })
                })
                .collect();
            Part::new(solver, budget, highest).fill(&entries)
        })?;
    let mut teams: Vec<&[Character]> = shapes.iter().map(Vec::as_slice).collect();
    teams.sort_by_key(|team| std::cmp::Reverse(team.len()));
    teams.par_iter().with_max_len(1).try_for_each(|&team| {
        let entries: Vec<State> = canon::team_healths(team, 0)
            .map(|state| state.at(Step::RunType { challenge: 0 }, Aid::None))
            .collect();
        Part::new(solver, budget, highest).fill(&entries)
    })
}

/// How much the opening decisions matter at one starting stealth: values of options,
/// averaged over the complication rolls (every value is an optimal win probability when that
/// option is taken and play is optimal afterwards).
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// Starting stealth.
    pub stealth: u8,
    /// `first_target[m][o]`: with main character `m`, the value of the first recruitment
    /// option `o` — 0 = stop at once, `1 + c` = recruit character `c` (`NAN` where `c` is `m`).
    pub first_target: [[f64; 7]; 6],
    /// `by_complication[m][c][t]`: with main character `m`, the value of recruiting `c` first
    /// when `c`'s complication is type `t`, averaged over the other complications.
    pub by_complication: [[[f64; 6]; 6]; 6],
    /// `best_main_share[m]`: the share of complication rolls for which `m` is the best main
    /// character (ties to the first).
    pub best_main_share: [f64; 6],
}

/// The values of the opening options at `stealth`, solving what the table lacks.
pub fn opening(solver: &Solver, stealth: u8) -> Opening {
    let rules = *solver.rules();
    let mut first_target = [[0.0; 7]; 6];
    let mut by_complication = [[[0.0; 6]; 6]; 6];
    let mut best_main_share = [0.0; 6];
    for (outcome, p) in Chance::Complications.outcomes() {
        let mut start = State::new(stealth);
        start.apply_outcome(&rules, outcome);
        let mut best: Option<(usize, f64)> = None;
        for main in Character::ALL {
            let mut after_main = start;
            after_main.apply_action(&rules, Action::Main(main));
            let v = solver.value(&after_main);
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((main.index(), v));
            }
            let row = &mut first_target[main.index()];
            row[0] += p * {
                let mut stop = after_main;
                stop.apply_action(&rules, Action::Stop);
                solver.value(&stop)
            };
            for c in Character::ALL.into_iter().filter(|c| *c != main) {
                let mut next = after_main;
                next.apply_action(&rules, Action::Recruit(c));
                let v = solver.value(&next);
                row[1 + c.index()] += p * v;
                let t = start.complication(c).expect("rolled").index();
                // Six values of `t`, each with probability 1/6: a conditional average.
                by_complication[main.index()][c.index()][t] += 6.0 * p * v;
            }
            first_target[main.index()][1 + main.index()] = f64::NAN;
        }
        if let Some((m, _)) = best {
            best_main_share[m] += p;
        }
    }
    Opening {
        stealth,
        first_target,
        by_complication,
        best_main_share,
    }
}
