//! Optimal play: the highest win probability any strategy can reach, by expectimax over the
//! same state machine the other engines drive — a weighted sum at chance points, the best
//! option at decision points.
//!
//! **Information.** A strategy may only use what the rules let a player know. The state
//! machine reveals exactly that: complications once rolled, challenge and side types once
//! rolled, never a future die. So the best value over *all* strategies is plain expectimax on
//! [`State`] — no information set is larger than one state.
//!
//! **Memo key.** The rules never read the counters `attempts`/`failures`, so the memo is keyed
//! on the canonical form of the state without them ([`memo::address`]). Values are
//! deterministic: every state's value is a fixed function of its children, computed in a
//! fixed order.
//!
//! **Ties** between options of equal value go to the first in [`State::actions`] order.

use std::convert::Infallible;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::par::{self, *};

use crate::engine::Expectation;
use crate::game::{Action, Aid, Chance, Character, Node, Outcome, State, Step, canon};
use crate::rules::Rules;

use super::layers::{
    BoundaryFigures, BufferPool, COMPILED_AT, Part, PolicyFigures, SolverTable, class_of,
};
use super::memo::{self, Keep, Memo, MemoAddress};
use super::options::ClassOptions;
use crate::engine::budget::{Budget, Halt};
use crate::engine::expansion::gathered_outcomes;
use crate::engine::expectation::{add_scaled, sum_in_value_order};
use crate::engine::positions::worth_memoising;

/// The most outcomes of a chance point below a memoised position (two side types).
const MAX_TERMS: usize = 36;

/// Stealths valued by one walk of [`Solver::options_at`] (more are valued a group at a time).
const WIDTH: usize = 8;

/// A memoised optimal-value table for one set of rules, filled on demand — by one thread or
/// many at once ([`solve_within`] fills it in parallel).
#[derive(Clone, Debug)]
pub struct Solver {
    rules: Rules,
    memo: Memo,
    /// The options' values of the decisions asked about ([`Solver::options`]), by class.
    options: ClassOptions,
    /// Which of the positions a solve computes the table keeps.
    keep: Keep,
    /// Positions a solve computed and did not keep ([`Keep::PartBoundaries`]).
    unkept: Unkept,
}

/// A count of positions solved and not kept, shared by the threads of a solve.
#[derive(Debug, Default)]
struct Unkept(AtomicUsize);

impl Clone for Unkept {
    fn clone(&self) -> Self {
        Unkept(self.get().into())
    }
}

impl Unkept {
    fn get(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }
}

impl Solver {
    /// An empty table for `rules` that keeps every position it solves.
    pub fn new(rules: Rules) -> Solver {
        Solver::keeping(rules, Keep::Everything)
    }

    /// An empty table for `rules` that keeps the positions `keep` says.
    pub fn keeping(rules: Rules, keep: Keep) -> Solver {
        Solver {
            rules,
            memo: Memo::default(),
            options: ClassOptions::default(),
            keep,
            unkept: Unkept::default(),
        }
    }

    /// Which positions a solve keeps.
    pub(super) fn keep(&self) -> Keep {
        self.keep
    }

    /// Counts `n` positions solved and not kept.
    pub(super) fn not_kept(&self, n: usize) {
        self.unkept.0.fetch_add(n, Ordering::Relaxed);
    }

    /// The rules the table is for.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The table itself.
    pub(super) fn memo(&self) -> &Memo {
        &self.memo
    }

    /// The number of positions solved (memoised, or with [`Keep::PartBoundaries`] solved and
    /// dropped with their layer).
    pub fn states(&self) -> usize {
        self.memo.len() + self.unkept.get()
    }

    /// Readies the table to be read by many threads at once, as games sampled from a finished
    /// solve read it ([`Memo::freeze`]): the values and the answers stay the same bits.
    pub fn freeze(&self) {
        self.memo.freeze();
    }

    /// The optimal win probability from `state`, filling the table below it as needed.
    pub fn value(&self, state: &State) -> f64 {
        self.try_value(state, &Budget::UNLIMITED)
            .expect("an unlimited solve runs to the end")
    }

    /// [`Solver::value`], stopping when the table would grow past `budget` or its cancel flag
    /// is raised. A position the table does not hold is solved in layers ([`Part`]) with
    /// every position it leads to, at every stealth up to its own; a position the table
    /// never keeps (a check after a decision, say) is worked out from those it leads to.
    pub fn try_value(&self, state: &State, budget: &Budget<'_>) -> Result<f64, Halt> {
        let mut value = [0.0];
        self.expectimax(
            state,
            &[0],
            &mut |a, s, at| self.solved(a, s, at, budget),
            &mut value,
        )?;
        Ok(value[0])
    }

    /// The value of memoised position `state` played at `stealth`, at `address`: from the
    /// table, or else solved into it with every position it leads to ([`Part`]).
    #[inline]
    fn solved(
        &self,
        address: MemoAddress,
        state: &State,
        stealth: u8,
        budget: &Budget<'_>,
    ) -> Result<f64, Halt> {
        match self.memo.get(address) {
            Some(v) => Ok(v),
            None => self.fill(address, &state.with_stealth(stealth), budget),
        }
    }

    /// Solves memoised position `state`, at `address`, into the table ([`Solver::solved`]):
    /// out of line, as it is rare.
    #[cold]
    #[inline(never)]
    fn fill(&self, address: MemoAddress, state: &State, budget: &Budget<'_>) -> Result<f64, Halt> {
        Part::new(self, budget, state.stealth()).fill(&[*state])?;
        Ok((self.memo.get(address)).expect("a filled part keeps its entries"))
    }

    /// The optimal win probability from `state` read from the table alone; `None` when a
    /// position it needs has not been solved yet.
    pub fn peek(&self, state: &State) -> Option<f64> {
        let mut value = [0.0];
        let memoised = &mut |address, _: &State, _| self.memo.get(address).ok_or(());
        self.expectimax(state, &[0], memoised, &mut value).ok()?;
        Some(value[0])
    }

    /// The optimal win probability from `state` played `up[i]` points higher, into `out[i]`
    /// (`up` holds 0 first, at most `N` lanes), `memoised` giving that of each memoised
    /// position it leads to (by its address at the lane's stealth, the position, and that
    /// stealth) or failing: the best option at a decision, the weighted sum at a chance point
    /// (outcomes merged as the layered parts merge them, those that name characters summed in
    /// order of value), down to memoised positions.
    ///
    /// A position plays alike at every stealth from [`canon::ALIKE_FROM_STEALTH`] up (the
    /// same options and outcomes, each successor the same number of points higher), so
    /// stealths there share one walk — most of the cost is stepping the state machine and
    /// canonicalising the memoised positions — and only the memoised values are read at each;
    /// below it, each lane walks on alone. Each lane's value has the same bits as a walk of
    /// its own.
    fn expectimax<const N: usize, E>(
        &self,
        state: &State,
        up: &[u8],
        memoised: &mut impl FnMut(MemoAddress, &State, u8) -> Result<f64, E>,
        out: &mut [f64; N],
    ) -> Result<(), E> {
        // One lane a constant: its loops fold away.
        let lanes = if N == 1 { 1 } else { up.len() };
        let rules = self.rules;
        let node = state.node(&rules);
        // Lanes part below the class that plays alike, and at the root (every complication
        // roll: more outcomes than the lanes' buffers hold).
        let wide = matches!(node, Node::Chance(chance) if chance.len() as usize > MAX_TERMS);
        if N > 1 && (lanes > 1 && state.stealth() < canon::ALIKE_FROM_STEALTH || wide) {
            for (i, v) in out.iter_mut().enumerate().take(lanes) {
                let mut alone = [0.0];
                let at = state.with_stealth(state.stealth() + up[i]);
                self.expectimax(&at, &[0], memoised, &mut alone)?;
                *v = alone[0];
            }
            return Ok(());
        }
        if let Node::Over(outcome) = node {
            out[..lanes].fill(win(outcome));
            return Ok(());
        }
        if worth_memoising(state) {
            let address = memo::address(state, &rules);
            for (i, v) in out.iter_mut().enumerate().take(lanes) {
                let stealth = state.stealth() + up[i];
                let address = if up[i] == 0 {
                    address
                } else {
                    address.at_stealth(stealth)
                };
                *v = memoised(address, state, stealth)?;
            }
            return Ok(());
        }
        let mut sub = [0.0; N];
        match node {
            Node::Over(_) => unreachable!(),
            Node::Chance(chance) if chance.names_characters() => {
                // By outcome, its value in each lane and its weight; then each lane's sum in
                // order of value ([`sum_in_value_order`]), so that every member of a canonical
                // class gets the same bits, whichever is solved first. At most 36 outcomes (two
                // side types) but at the root (every complication roll).
                let n = chance.len() as usize;
                let (mut few_sums, mut many_sums) = ([(0.0, 0.0); MAX_TERMS], Vec::new());
                let sums = if n <= MAX_TERMS {
                    &mut few_sums[..n]
                } else {
                    many_sums.resize(n, (0.0, 0.0));
                    &mut many_sums[..]
                };
                let outcomes = chance.outcomes().map(|(outcome, p)| {
                    let mut next = *state;
                    next.apply_outcome(&rules, outcome);
                    (next, p)
                });
                if N == 1 {
                    for ((next, p), sum) in outcomes.zip(sums.iter_mut()) {
                        self.expectimax(&next, up, memoised, &mut sub)?;
                        *sum = (sub[0], p);
                    }
                    out[0] = sum_in_value_order(sums);
                    return Ok(());
                }
                let mut terms = [([0.0; N], 0.0); MAX_TERMS];
                for ((next, p), (values, weight)) in outcomes.zip(&mut terms) {
                    self.expectimax(&next, up, memoised, values)?;
                    *weight = p;
                }
                for (i, v) in out.iter_mut().enumerate().take(lanes) {
                    for (sum, (values, weight)) in sums.iter_mut().zip(&terms) {
                        *sum = (values[i], *weight);
                    }
                    *v = sum_in_value_order(sums);
                }
            }
            Node::Chance(chance) => {
                out[..lanes].fill(0.0);
                let (terms, n) = gathered_outcomes::<6>(state, chance, &rules);
                for &(next, weight) in &terms[..n] {
                    self.expectimax(&next, up, memoised, &mut sub)?;
                    for i in 0..lanes {
                        out[i] += weight * sub[i];
                    }
                }
            }
            Node::Decision(_) => {
                out[..lanes].fill(f64::NEG_INFINITY);
                for &action in state.actions(&rules).iter() {
                    let mut next = *state;
                    next.apply_action(&rules, action);
                    self.expectimax(&next, up, memoised, &mut sub)?;
                    for i in 0..lanes {
                        out[i] = out[i].max(sub[i]);
                    }
                }
            }
        }
        Ok(())
    }

    /// The value of each legal option at decision point `state`, in [`State::actions`] order,
    /// read from the table alone (`None` if part of it is unsolved).
    pub fn peek_options(&self, state: &State) -> Option<Vec<(Action, f64)>> {
        self.options.options(state, &self.rules, || {
            state
                .actions(&self.rules)
                .iter()
                .map(|&action| {
                    let mut next = *state;
                    next.apply_action(&self.rules, action);
                    self.peek(&next).map(|v| (action, v))
                })
                .collect()
        })
    }

    /// The value of each legal option at decision point `state`, solving what is missing;
    /// kept by canonical class, so that a position of a class met before costs a canonical
    /// form and a lookup.
    pub fn options(&self, state: &State) -> Vec<(Action, f64)> {
        self.options
            .options(state, &self.rules, || Some(self.worked_out_options(state)))
            .expect("worked out in full")
    }

    /// [`Solver::options`] worked out from the table, not kept: for a caller that meets each
    /// canonical class once (one walking canonical positions), where keeping them by class
    /// would only add a canonical form and an insertion to every call.
    pub fn worked_out_options(&self, state: &State) -> Vec<(Action, f64)> {
        let actions = state.actions(&self.rules);
        actions
            .iter()
            .map(|&action| {
                let mut next = *state;
                next.apply_action(&self.rules, action);
                (action, self.value(&next))
            })
            .collect()
    }

    /// The value of every legal option at `state` played at each of `stealths` (its own
    /// stealth ignored): `each(i, options)` with the options at `stealths[i]` in
    /// [`State::actions`] order, bit for bit [`Solver::options`]'s. Stealths of one class
    /// share a walk ([`Solver::expectimax`]): the regret decomposition meets a decision `d`
    /// layers below the starts at stealth `S − d` for every start `S`.
    pub(in crate::engine) fn options_at(
        &self,
        state: &State,
        stealths: &[u8],
        mut each: impl FnMut(usize, &[(Action, f64)]),
    ) {
        let mut alike = Vec::with_capacity(stealths.len());
        for (i, &stealth) in stealths.iter().enumerate() {
            if stealth < canon::ALIKE_FROM_STEALTH {
                each(i, &self.worked_out_options(&state.with_stealth(stealth)));
            } else {
                alike.push(i);
            }
        }
        for group in alike.chunks(WIDTH) {
            if let &[i] = group {
                each(
                    i,
                    &self.worked_out_options(&state.with_stealth(stealths[i])),
                );
                continue;
            }
            let lowest = group.iter().map(|&i| stealths[i]).min().unwrap_or(0);
            let mut up = [0u8; WIDTH];
            for (u, &i) in up.iter_mut().zip(group) {
                *u = stealths[i] - lowest;
            }
            let up = &up[..group.len()];
            let base = state.with_stealth(lowest);
            let actions = base.actions(&self.rules);
            // By stealth, by option.
            let mut options = vec![Vec::with_capacity(actions.len()); group.len()];
            for &action in actions.iter() {
                let mut next = base;
                next.apply_action(&self.rules, action);
                let mut lanes = [0.0; WIDTH];
                // Solved without limit: nothing to fail.
                let solved = &mut |address, state: &State, stealth| {
                    let solved = self.solved(address, state, stealth, &Budget::UNLIMITED);
                    Ok::<_, Infallible>(solved.expect("an unlimited solve runs to the end"))
                };
                let Ok(()) = self.expectimax(&next, up, solved, &mut lanes);
                for (o, lane) in options.iter_mut().zip(lanes) {
                    o.push((action, lane));
                }
            }
            for (&i, o) in group.iter().zip(&options) {
                each(i, o);
            }
        }
    }
}

/// The table a layered part fills is the solver's.
impl SolverTable for Solver {
    fn rules(&self) -> &Rules {
        Solver::rules(self)
    }
    fn memo(&self) -> &Memo {
        Solver::memo(self)
    }
    fn keep(&self) -> Keep {
        Solver::keep(self)
    }
    fn states(&self) -> usize {
        Solver::states(self)
    }
    fn not_kept(&self, n: usize) {
        Solver::not_kept(self, n)
    }
}

/// 1 for a win, 0 for a loss.
fn win(outcome: Outcome) -> f64 {
    if outcome == Outcome::Win { 1.0 } else { 0.0 }
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
    let solved = solve_parts(solver, stealths, budget, false, || ()).0?;
    Ok(solved.into_iter().map(|(solution, _)| solution).collect())
}

/// [`solve_within`] with the figures of an optimal policy at each of `stealths` (every
/// figure of [`Expectation`], ties between options of equal value going to the first in
/// [`State::actions`] order of one position of the class), computed in the same layers; their
/// win probability is the solved value.
pub fn solve_with_figures(
    solver: &Solver,
    stealths: &[u8],
    budget: &Budget<'_>,
) -> Result<Vec<(Solution, Expectation)>, Halt> {
    solve_with_figures_beside(solver, stealths, budget, || ()).0
}

/// [`solve_with_figures`], and `beside` run on the pool beside the solve once the finale's
/// parts (which use every thread) are done: on one thread, before the run and phase 1 of the
/// games with a Medic main character, while the other thread solves the (larger) run and
/// phase 1 of the others. `None` for `beside` if the solve stopped (over budget, cancelled)
/// before it began.
pub fn solve_with_figures_beside<R: Send>(
    solver: &Solver,
    stealths: &[u8],
    budget: &Budget<'_>,
    beside: impl FnOnce() -> R + Send,
) -> (Result<WithFigures, Halt>, Option<R>) {
    let (solved, beside) = solve_parts(solver, stealths, budget, true, beside);
    let solved = solved.map(|solved| {
        solved
            .into_iter()
            .map(|(solution, figures)| {
                let mut figures = figures.expect("figures asked for");
                // The solved value itself: the figures' own sum can differ in the last bit.
                figures.win = solution.value;
                (solution, figures)
            })
            .collect()
    });
    (solved, beside)
}

/// Per stealth, its solution and the optimal policy's figures.
pub type WithFigures = Vec<(Solution, Expectation)>;

/// Per stealth, its solution and, if asked for, the optimal policy's figures.
type Solutions = Vec<(Solution, Option<Expectation>)>;

/// The solutions at `stealths` in the order given, with the policy's figures if `figures`;
/// and `beside` ([`solve_with_figures_beside`]), `None` if the solve stopped before it began.
fn solve_parts<R: Send>(
    solver: &Solver,
    stealths: &[u8],
    budget: &Budget<'_>,
    figures: bool,
    beside: impl FnOnce() -> R + Send,
) -> (Result<Solutions, Halt>, Option<R>) {
    let Some(&highest) = stealths.iter().max() else {
        return (Ok(Vec::new()), Some(beside()));
    };
    let shared = figures.then(BoundaryFigures::default);
    let mut run_and_finale = RunAndFinale::new(solver, highest, budget, shared.as_ref());
    if let Err(halt) = run_and_finale.finale() {
        return (Err(halt), None);
    }
    // The finale's largest buffers are not needed again, and phase 1, the peak of a solve,
    // is not to be allocated on top of the holes they leave.
    run_and_finale.pool = BufferPool::default();
    crate::memory::return_freed_memory();
    let rolls: Vec<(u32, f64)> = Chance::Complications.outcomes().collect();
    let (solved, beside) = phase_one(
        solver,
        &rolls,
        stealths,
        budget,
        shared.as_ref(),
        |mains| run_and_finale.run(mains),
        beside,
    );
    let solved = solved.map(|solved| {
        stealths
            .iter()
            .map(|&stealth| {
                // Cloned, not taken: a stealth may be asked for twice.
                solved
                    .iter()
                    .find(|(s, _)| s.stealth == stealth)
                    .cloned()
                    .expect("every stealth asked for is solved")
            })
            .collect()
    });
    (solved, Some(beside))
}

/// The solution at `stealth` from the value of every complication roll (by index in `rolls`)
/// with every main character (by index), summed in roll order so the sums do not depend on
/// how the rolls were shared out.
fn sum_openings(
    stealth: u8,
    rolls: &[(u32, f64)],
    value: impl Fn(usize, usize) -> f64,
) -> Solution {
    let mut by_main = [0.0; 6];
    let mut total = 0.0;
    for (roll, &(_, p)) in rolls.iter().enumerate() {
        let mut best = f64::NEG_INFINITY;
        for (main, sum) in by_main.iter_mut().enumerate() {
            let v = value(roll, main);
            *sum += p * v;
            best = best.max(v);
        }
        total += p * best;
    }
    Solution {
        stealth,
        value: total,
        by_main,
    }
}

/// The game after complication roll `outcome` and the choice of `main`, at `stealth`.
fn after_main(rules: &Rules, stealth: u8, outcome: u32, main: Character) -> State {
    let mut state = State::new(stealth);
    state.apply_outcome(rules, outcome);
    state.apply_action(rules, Action::Main(main));
    state
}

/// What one part of phase 1 found: for each stealth class, for each (roll, main) of its kind
/// of main character, the index of its position among the class's distinct openings; and per
/// stealth asked for, the value (and figures) of each distinct opening of its class.
struct PhaseOne {
    mains: &'static [Character],
    opening: Vec<Vec<u32>>,
    layers: Vec<(u8, Vec<f64>, Vec<Expectation>)>,
}

/// Phase 1 solved in layers ([`Part`]) at every stealth up to the highest of `stealths`, once
/// the run is solved; the solutions (and figures, with `shared`) at `stealths`.
///
/// Games with a Medic main character and with any other never meet, so they are two parts,
/// solved side by side, each after `run` has filled the run of the teams its main characters
/// lead; `beside` runs before the Medic's (the smaller).
fn phase_one<R: Send>(
    solver: &Solver,
    rolls: &[(u32, f64)],
    stealths: &[u8],
    budget: &Budget<'_>,
    shared: Option<&BoundaryFigures>,
    run: impl Fn(&[Character]) -> Result<(), Halt> + Sync,
    beside: impl FnOnce() -> R + Send,
) -> (Result<Solutions, Halt>, R) {
    let rules = *solver.rules();
    let highest = stealths.iter().copied().max().unwrap_or(0);
    debug_assert!(rolls.iter().enumerate().all(|(k, &(o, _))| o as usize == k));
    // The stealth each class is compiled at, if a stealth of the class is asked for.
    let classes: Vec<u8> = (0..=COMPILED_AT)
        .filter(|&c| stealths.iter().any(|&s| class_of(&rules, s) == c))
        .collect();
    let part = |mains: &'static [Character]| -> Result<PhaseOne, Halt> {
        // The run of the teams these main characters lead, first.
        run(mains)?;
        let mut part = Part::new(solver, budget, highest);
        if let Some(shared) = shared {
            part = part.with_figures(PolicyFigures::new(shared));
        }
        // Per class, the local ids of the rolls' positions, roll by roll, and the
        // distinct ones.
        let mut distinct = Vec::new();
        let mut opening = Vec::new();
        for &class in &classes {
            // The canonical forms, the costliest step, of the first main character's openings
            // only (in parallel): another's are the first's after the roll with the two
            // characters' complications swapped (`canon::complications_swapped`). A roll's
            // outcome is its index among the rolls.
            let first = mains[0];
            let addresses: Vec<memo::MemoAddress> = rolls
                .par_iter()
                .map(|&(outcome, _)| {
                    memo::address(&after_main(&rules, class, outcome, first), &rules)
                })
                .collect();
            let address = |outcome: u32, main: Character| {
                let outcome = if main == first {
                    outcome
                } else {
                    canon::complications_swapped(outcome, main, first)
                };
                addresses[outcome as usize]
            };
            // Added in roll order, each main in turn, as met: the first position met of a
            // class is the one compiled.
            let mut ids = Vec::with_capacity(rolls.len() * mains.len());
            for &(outcome, _) in rolls {
                for &main in mains {
                    let state = after_main(&rules, class, outcome, main);
                    ids.push(part.add(&state, address(outcome, main))?);
                }
            }
            let mut unique = ids.clone();
            unique.sort_unstable();
            unique.dedup();
            opening.push(
                ids.iter()
                    .map(|id| unique.binary_search(id).expect("listed") as u32)
                    .collect(),
            );
            distinct.push(unique);
        }
        let mut layers = Vec::new();
        part.replay(|stealth, values, figures| {
            if stealths.contains(&stealth) {
                let class = classes
                    .iter()
                    .position(|&c| c == class_of(&rules, stealth))
                    .expect("a class asked for");
                let distinct = &distinct[class];
                let values = distinct.iter().map(|&id| values[id as usize]).collect();
                let figures = if figures.is_empty() {
                    Vec::new()
                } else {
                    distinct.iter().map(|&id| figures[id as usize]).collect()
                };
                layers.push((stealth, values, figures));
            }
        })?;
        Ok(PhaseOne {
            mains,
            opening,
            layers,
        })
    };
    // The larger part (the non-medic mains, all relabellings of each other, and their teams'
    // run) on this thread; `beside`, then the Medic's, on another: the two sides about equal.
    let [medic, others] = canon::MAIN_KINDS;
    let (others, (medic, beside)) = par::join(
        || part(others),
        || {
            let beside = beside();
            (part(medic), beside)
        },
    );
    let parts = match (medic, others) {
        (Ok(medic), Ok(others)) => [medic, others],
        (Err(halt), _) | (_, Err(halt)) => return (Err(halt), beside),
    };
    // Where each main character's openings are: (part, position among its mains).
    let mut of_main = [(0, 0); 6];
    for (k, part) in parts.iter().enumerate() {
        for (j, main) in part.mains.iter().enumerate() {
            of_main[main.index()] = (k, j);
        }
    }
    let solved = (0..parts[0].layers.len())
        .map(|layer| {
            let stealth = parts[0].layers[layer].0;
            let class = classes
                .iter()
                .position(|&c| c == class_of(&rules, stealth))
                .expect("a class asked for");
            let opening = |roll: usize, main: usize| {
                let (k, j) = of_main[main];
                let part = &parts[k];
                part.opening[class][roll * part.mains.len() + j] as usize
            };
            let value = |roll: usize, main: usize| {
                let (k, _) = of_main[main];
                parts[k].layers[layer].1[opening(roll, main)]
            };
            let solution = sum_openings(stealth, rolls, value);
            let figures = shared.map(|_| {
                // The first main character of highest value.
                let mut e = Expectation::default();
                for (roll, &(_, p)) in rolls.iter().enumerate() {
                    let mut best = 0;
                    for main in 1..6 {
                        if value(roll, main) > value(roll, best) {
                            best = main;
                        }
                    }
                    let (k, _) = of_main[best];
                    let figures = &parts[k].layers[layer].2[opening(roll, best)];
                    add_scaled(&mut e, figures, p);
                }
                e
            });
            (solution, figures)
        })
        .collect();
    (Ok(solved), beside)
}

/// The tables of the finale and of the run, for every team and every stealth up to
/// `highest` — backwards by layers, in parallel ([`Part`]): the finale's first, then the run
/// of the teams of each kind of main character before that kind's phase 1.
///
/// Most of a solve is there. The work is split where positions cannot meet: teams of
/// different shapes ([`canon::team_shapes`]) and, in the finale, different finale characters.
struct RunAndFinale<'a> {
    solver: &'a Solver,
    highest: u8,
    budget: &'a Budget<'a>,
    shared: Option<&'a BoundaryFigures>,
    /// What a finished part built in, for the next one.
    pool: BufferPool,
    shapes: Vec<Vec<Character>>,
}

impl<'a> RunAndFinale<'a> {
    fn new(
        solver: &'a Solver,
        highest: u8,
        budget: &'a Budget<'a>,
        shared: Option<&'a BoundaryFigures>,
    ) -> Self {
        RunAndFinale {
            solver,
            highest,
            budget,
            shared,
            pool: BufferPool::default(),
            shapes: canon::team_shapes(solver.rules()),
        }
    }

    fn part(&self) -> Part<'_> {
        let part = Part::new(self.solver, self.budget, self.highest).with_buffer_pool(&self.pool);
        match self.shared {
            Some(shared) => part.with_figures(PolicyFigures::new(shared)),
            None => part,
        }
    }

    /// Fills the finale's tables.
    fn finale(&self) -> Result<(), Halt> {
        // Larger teams first: the longest tasks start first, the short ones fill in. One
        // finale character of each role: the others' parts would hold the same addresses.
        let mut finales: Vec<(&[Character], Character)> = self
            .shapes
            .iter()
            .flat_map(|team| {
                canon::finale_roles(team)
                    .into_iter()
                    .map(move |finale| (team.as_slice(), finale))
            })
            .collect();
        finales.sort_by_key(|(team, _)| std::cmp::Reverse(team.len()));
        // R14 variant: a substitute moves play to another finale character's positions, so
        // the finale characters of a team are one part.
        let substitute = self.solver.rules().finale_substitute;
        finales.retain(|(team, finale)| !substitute || *finale == team[0]);
        largest_first(&finales, |&(team, finale)| {
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
            self.part().fill(&entries)
        })
    }

    /// Fills the run's tables of the teams one of `mains` leads, once the finale's are.
    fn run(&self, mains: &[Character]) -> Result<(), Halt> {
        let mut teams: Vec<&[Character]> = self
            .shapes
            .iter()
            .filter(|team| mains.contains(&team[0]))
            .map(Vec::as_slice)
            .collect();
        teams.sort_by_key(|team| std::cmp::Reverse(team.len()));
        largest_first(&teams, |&team| {
            let entries: Vec<State> = canon::team_healths(team, 0)
                .map(|state| state.at(Step::RunType { challenge: 0 }, Aid::None))
                .collect();
            self.part().fill(&entries)
        })
    }
}

/// Runs `work` on every item, each taken by the next free thread in the order given (the
/// largest first), so the longest parts start first and the short ones fill in at the end.
fn largest_first<T: Sync>(
    items: &[T],
    work: impl Fn(&T) -> Result<(), Halt> + Sync,
) -> Result<(), Halt> {
    use std::sync::atomic::AtomicBool;
    let next = AtomicUsize::new(0);
    // A part that stops (over the budget, cancelled) stops the others at their next part.
    let stopped = AtomicBool::new(false);
    let workers = par::current_num_threads().min(items.len());
    (0..workers).into_par_iter().try_for_each(|_| {
        while !stopped.load(Ordering::Relaxed)
            && let Some(item) = items.get(next.fetch_add(1, Ordering::Relaxed))
        {
            work(item).inspect_err(|_| stopped.store(true, Ordering::Relaxed))?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Action, Chance, Node};
    use crate::rules::MAIN_TEXT;
    use crate::strategy::{Choice, ReferenceStrategy, Strategy};

    /// Every decision the reference strategy meets in a few games, valued at stealths of
    /// both classes at once: the same bits as one stealth at a time.
    #[test]
    fn options_at_several_stealths_are_those_at_each() {
        let rules = MAIN_TEXT;
        let solver = Solver::new(rules);
        let stealths = [0, 1, 2, 3, 5, 6, 9, 12, 4];
        let mut checked = 0;
        for complications in Chance::Complications.outcomes().map(|(o, _)| o).step_by(7) {
            let mut state = State::new(12);
            state.apply_outcome(&rules, complications);
            let mut dice = 0u32;
            while let Node::Chance(_) | Node::Decision(_) = state.node(&rules) {
                match state.node(&rules) {
                    Node::Decision(decision) => {
                        if state.actions(&rules).len() >= 2 {
                            solver.options_at(&state, &stealths, |i, values| {
                                let alone: Vec<f64> = solver
                                    .options(&state.with_stealth(stealths[i]))
                                    .into_iter()
                                    .map(|(_, v)| v)
                                    .collect();
                                let same = alone.len() == values.len()
                                    && alone
                                        .iter()
                                        .zip(values)
                                        .all(|(a, b)| a.to_bits() == b.1.to_bits());
                                assert!(same, "{state:?} at {}: {alone:?} {values:?}", stealths[i]);
                                checked += 1;
                            });
                        }
                        let action: Action =
                            match ReferenceStrategy.decide(&state, &rules, decision) {
                                Choice::Act(a) => a,
                                Choice::Uniform => state.actions(&rules)[0],
                            };
                        state.apply_action(&rules, action);
                    }
                    Node::Chance(chance) => {
                        dice = dice.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        state.apply_outcome(&rules, chance.outcome((dice >> 16) % chance.len()).0);
                    }
                    Node::Over(_) => unreachable!(),
                }
            }
        }
        assert!(checked > 100, "{checked} decisions checked");
    }
}
