//! The solver's table filled a stealth layer at a time, each position's transitions worked out
//! once per class of stealths and replayed at every stealth of the class.
//!
//! The rules read stealth only as "discovered or not" and change it only by one lost point, so
//! a position plays alike at every stealth from 2 up ([`canon::ALIKE_FROM_STEALTH`]); 0 and 1 are
//! classes of their own. Stepping the state machine is most of a solve's cost, so it is
//! stepped once per position and class — at stealth 0, 1 and 2 — and what it finds, the
//! expectimax expression down to the memoised positions, is *compiled* into a program per
//! class ([`crate::engine::program`]). Stealths 3, 4, … replay the class-2 program: no state
//! machine, no canonical forms, a handful of loads a position.
//!
//! A program lists its positions successors first, so replaying it at stealth `s` finds every
//! successor at `s` filled, and those at `s − 1` in the layer below. The arithmetic runs in a
//! fixed order (sums in order of value at chance points that name characters, so that the
//! members of a canonical class agree), so the values do not depend on the layering, the
//! thread count or the order in which parts are solved.
//!
//! Where [`canon::stealth_one_plays_like_two`], stealth 1 is not compiled either: a position
//! plays there as at 2 up to where a point is lost, which lands on 0 and is settled there
//! ([`canon::one_lower`]), so the class-2 program is replayed from stealth 1 up, its reads a
//! point lower at stealth 1 going through a small side program ([`Part::at_one`]) into class 0.
//!
//! The same replay, choosing at each decision the first option of highest value, adds up the
//! optimal policy's figures ([`PolicyFigures`]).

use std::sync::Mutex;

use rustc_hash::FxHashMap;

use crate::engine::Expectation;
use crate::game::{Node, Outcome, State, canon};
use crate::rules::Rules;

use super::memo::{self, Keep, Memo, MemoAddress};
use crate::engine::budget::{Budget, Halt};
use crate::engine::expansion::gathered_outcomes;
use crate::engine::expectation::{add_scaled, sum_in_value_order, terminal};
use crate::engine::positions::worth_memoising;
use crate::engine::program::{Leaf, NO_WEIGHT, NONE, Op, Program, Reads, Weights, term_weight};

/// The lowest stealth of the class that plays alike at every higher stealth: positions are
/// compiled at 0, 1 and this.
pub(super) const COMPILED_AT: u8 = canon::ALIKE_FROM_STEALTH;

/// The number of stealth classes, one program each.
const CLASSES: usize = COMPILED_AT as usize + 1;

/// Where the option a decision chose begins among a position's instructions, and where the
/// decision ends: [`Part::eval`] notes it, [`Part::eval_figures`] jumps to the option and on
/// past the others.
#[derive(Clone, Copy, Debug, Default)]
struct Chosen {
    option: u32,
    end: u32,
}

/// The most terms a chance point below a memoised position has (two side types).
const MAX_TERMS: usize = 36;

/// Local ids by address (at stealth 0): a dense address's in a table of its chunk, so that
/// positions a wound apart share a cache line; hashed addresses (phase 1) in a map.
#[derive(Default)]
struct AddressIds {
    /// By chunk, an id per index ([`NONE`]: not compiled); empty for a chunk not met.
    dense: Vec<Box<[u32]>>,
    hashed: FxHashMap<u64, u32>,
}

impl AddressIds {
    fn get(&self, address: MemoAddress) -> Option<u32> {
        match address {
            MemoAddress::Dense { chunk, index, .. } => {
                let id = *self.dense.get(chunk as usize)?.get(index as usize)?;
                (id != NONE).then_some(id)
            }
            MemoAddress::Hashed(key) => self.hashed.get(&key).copied(),
        }
    }

    fn insert(&mut self, address: MemoAddress, id: u32) {
        match address {
            MemoAddress::Dense {
                chunk,
                index,
                width,
                ..
            } => {
                let chunk = chunk as usize;
                if self.dense.len() <= chunk {
                    self.dense.resize_with(chunk + 1, Box::default);
                }
                if self.dense[chunk].is_empty() {
                    self.dense[chunk] = vec![NONE; width as usize].into_boxed_slice();
                }
                self.dense[chunk][index as usize] = id;
            }
            MemoAddress::Hashed(key) => {
                self.hashed.insert(key, id);
            }
        }
    }
}

/// The compiled positions of one stealth class.
#[derive(Default)]
struct SolverProgram {
    /// Local id of every position compiled so far, by address at stealth 0.
    ids: AddressIds,
    /// By local id, where its value goes (its address at stealth 0).
    addresses: Vec<MemoAddress>,
    program: Program,
}

/// A layer's values (and figures) by local id, and those of the layer below.
struct SolverLayers {
    here: Vec<f64>,
    below: Vec<f64>,
    figures_here: Vec<Expectation>,
    figures_below: Vec<Expectation>,
    /// Whether the layer below is the lowest stealth of the class below (read through
    /// [`Op::Below`]`::lower`) rather than this program one point lower (`same`).
    below_is_lower: bool,
}

impl SolverLayers {
    /// What a position's value reads.
    fn values(&self) -> Reads<'_, f64> {
        Reads {
            here: &self.here,
            below: &self.below,
            below_is_lower: self.below_is_lower,
        }
    }

    /// What a position's figures read.
    fn figures(&self) -> Reads<'_, Expectation> {
        Reads {
            here: &self.figures_here,
            below: &self.figures_below,
            below_is_lower: self.below_is_lower,
        }
    }
}

/// Emptied buffers that parts hand on to the parts after them: a buffer reused is neither
/// grown again by copying nor paid for again in page faults. Dropped with the solve.
#[derive(Default)]
pub(super) struct BufferPool(Mutex<Vec<Buffers>>);

/// The buffers of one part, empty.
#[derive(Default)]
struct Buffers {
    programs: Vec<Program>,
    addresses: Vec<Vec<MemoAddress>>,
    /// Instructions to lay a program out in ([`Program::lay_out`]).
    ops: Vec<Vec<Op>>,
    values: Vec<Vec<f64>>,
    figures: Vec<Vec<Expectation>>,
}

impl BufferPool {
    fn take(&self) -> Buffers {
        let mut pool = self.0.lock().unwrap_or_else(|e| e.into_inner());
        pool.pop().unwrap_or_default()
    }

    fn give(&self, buffers: Buffers) {
        let mut pool = self.0.lock().unwrap_or_else(|e| e.into_inner());
        pool.push(buffers);
    }
}

impl Buffers {
    fn values(&mut self) -> Vec<f64> {
        self.values.pop().unwrap_or_default()
    }

    fn figures(&mut self) -> Vec<Expectation> {
        self.figures.pop().unwrap_or_default()
    }

    /// Keeps `program`'s buffers, emptied.
    fn keep_program(&mut self, program: &mut SolverProgram) {
        let mut kept = std::mem::take(&mut program.program);
        kept.clear();
        self.programs.push(kept);
        let mut addresses = std::mem::take(&mut program.addresses);
        addresses.clear();
        self.addresses.push(addresses);
    }

    /// Keeps a layer's buffers, emptied.
    fn keep_layers(&mut self, layers: SolverLayers) {
        for mut values in [layers.here, layers.below] {
            values.clear();
            self.values.push(values);
        }
        for mut figures in [layers.figures_here, layers.figures_below] {
            figures.clear();
            self.figures.push(figures);
        }
    }
}

/// The optimal policy's figures at the positions other parts read (the finale's from the
/// run, the run's from phase 1), at every stealth; shared by threads.
#[derive(Default)]
pub(super) struct BoundaryFigures(Mutex<FxHashMap<MemoAddress, Expectation>>);

impl BoundaryFigures {
    fn get(&self, address: MemoAddress) -> Option<Expectation> {
        let map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&address).copied()
    }

    fn insert(&self, address: MemoAddress, figures: Expectation) {
        let mut map = self.0.lock().unwrap_or_else(|e| e.into_inner());
        map.insert(address, figures);
    }
}

/// What a part needs to compute the optimal policy's figures besides the values: the ends of
/// the games its positions lead to, and the figures other parts computed.
pub(super) struct PolicyFigures<'s> {
    /// Each finished game of an [`Op::Over`], and how many points below the compiled
    /// position it ends.
    ends: Vec<(State, u8)>,
    shared: &'s BoundaryFigures,
}

impl<'s> PolicyFigures<'s> {
    /// Figures for a part, sharing entry figures through `shared`.
    pub(super) fn new(shared: &'s BoundaryFigures) -> Self {
        PolicyFigures {
            ends: Vec::new(),
            shared,
        }
    }
}

/// What a part reads and writes of the table it fills: the solver's
/// ([`super::solve::Solver`]).
pub(super) trait SolverTable: Sync {
    /// The rules the table is for.
    fn rules(&self) -> &Rules;
    /// The table itself.
    fn memo(&self) -> &Memo;
    /// Which positions a solve keeps.
    fn keep(&self) -> Keep;
    /// The number of positions solved.
    fn states(&self) -> usize;
    /// Counts `n` positions solved and not kept.
    fn not_kept(&self, n: usize);
}

/// One part of the table that shares no position with the other parts being filled at the
/// same time (a team shape, a finale character, the positions of phase 1 under one kind of
/// main character): a program per stealth class, compiled and then replayed.
pub(super) struct Part<'s> {
    solver: &'s dyn SolverTable,
    /// The solver's rules and memo, read at every position: held here, not asked for.
    rules: Rules,
    memo: &'s Memo,
    budget: &'s Budget<'s>,
    /// The highest stealth being filled.
    highest: u8,
    programs: [SolverProgram; CLASSES],
    /// Addresses solved before this part that its positions lead to, at stealth 0
    /// ([`Op::Table`]).
    tables: Vec<MemoAddress>,
    weights: Weights,
    /// The optimal policy's figures, if asked for.
    figures: Option<PolicyFigures<'s>>,
    /// Per class, the local ids of the entries whose figures other parts read.
    entries: [Vec<u32>; CLASSES],
    /// Whether stealth 1 is replayed from the top class's program instead of compiled.
    one_from_top: bool,
    /// Buffers taken from `pool`, given back when the part is done.
    buffers: Buffers,
    pool: Option<&'s BufferPool>,
    /// Replayed at stealth 1, what the top class's reads a point lower read instead: the
    /// position a lost point leads to at stealth 0 ([`canon::one_lower`]) — an [`Op::Here`] of
    /// class 0, an [`Op::Table`] at stealth 0, or the game's end ([`Op::Over`]).
    at_one: Vec<Op>,
}

impl Drop for Part<'_> {
    fn drop(&mut self) {
        if let Some(pool) = self.pool {
            let mut buffers = std::mem::take(&mut self.buffers);
            for program in &mut self.programs {
                buffers.keep_program(program);
            }
            pool.give(buffers);
        }
    }
}

/// The class whose program serves `stealth` under `rules`: stealth 0, 1 and from
/// [`COMPILED_AT`] up each their own, but stealth 1 the top class's where
/// [`canon::stealth_one_plays_like_two`].
pub(super) fn class_of(rules: &crate::rules::Rules, stealth: u8) -> u8 {
    if stealth == 1 && canon::stealth_one_plays_like_two(rules) {
        COMPILED_AT
    } else {
        stealth.min(COMPILED_AT)
    }
}

impl<'s> Part<'s> {
    /// An empty part of `solver`'s table, to be filled up to stealth `highest`.
    pub(super) fn new(solver: &'s dyn SolverTable, budget: &'s Budget<'s>, highest: u8) -> Self {
        Part {
            solver,
            rules: *solver.rules(),
            memo: solver.memo(),
            budget,
            highest,
            programs: Default::default(),
            tables: Vec::new(),
            weights: Weights::default(),
            figures: None,
            entries: Default::default(),
            one_from_top: canon::stealth_one_plays_like_two(solver.rules()),
            buffers: Buffers::default(),
            pool: None,
            at_one: Vec::new(),
        }
    }

    /// The same part, building in buffers earlier parts left in `pool`, and leaving its
    /// own there when done.
    pub(super) fn with_buffer_pool(mut self, pool: &'s BufferPool) -> Self {
        let mut buffers = pool.take();
        for program in &mut self.programs {
            program.program = buffers.programs.pop().unwrap_or_default();
            program.addresses = buffers.addresses.pop().unwrap_or_default();
        }
        self.buffers = buffers;
        self.pool = Some(pool);
        self
    }

    /// The same part, computing the optimal policy's figures too (ties between options of
    /// equal value go to the first in the compiled position's [`State::actions`] order).
    pub(super) fn with_figures(mut self, figures: PolicyFigures<'s>) -> Self {
        self.figures = Some(figures);
        self
    }

    /// The stealths of `class` this part fills, lowest first.
    fn class_stealths(&self, class: usize) -> Vec<u8> {
        let rules = &self.rules;
        (0..=self.highest)
            .filter(|&s| usize::from(class_of(rules, s)) == class)
            .collect()
    }

    /// Fills the table for every position reachable from `entries` (positions whose stealth
    /// is set here, settled) at every stealth up to the part's highest; the entries' figures
    /// go to the shared [`BoundaryFigures`].
    pub(super) fn fill(mut self, entries: &[State]) -> Result<(), Halt> {
        let rules = self.rules;
        let classes: Vec<usize> = (0..CLASSES)
            .filter(|&c| !self.class_stealths(c).is_empty())
            .collect();
        for class in classes {
            for entry in entries {
                let entry = entry.with_stealth(class as u8).settled(&rules);
                if entry.outcome().is_none() {
                    let id = self.add(&entry, memo::address(&entry, &rules))?;
                    self.entries[class].push(id);
                }
            }
        }
        self.replay(|_, _, _| {})
    }

    /// Compiles `entry` (a memoised position at stealth 0, 1 or [`COMPILED_AT`], at `address`)
    /// and everything it leads to that is not compiled yet; its local id in its class's
    /// program.
    pub(super) fn add(&mut self, entry: &State, address: MemoAddress) -> Result<u32, Halt> {
        debug_assert!(entry.stealth() <= COMPILED_AT);
        debug_assert!(entry.outcome().is_none() && worth_memoising(entry));
        self.visit(entry, address.at_stealth(0))
    }

    /// Whether the table holds `address` at every stealth being filled: solved by a part
    /// before this one (the finale met again from the run, the run from phase 1).
    fn solved_before(&self, address: MemoAddress) -> bool {
        self.memo.get(address.at_stealth(self.highest)).is_some()
    }

    /// [`Part::add`] for a position whose address at stealth 0 is `address`.
    fn visit(&mut self, state: &State, address: MemoAddress) -> Result<u32, Halt> {
        let class = usize::from(state.stealth());
        if let Some(id) = self.programs[class].ids.get(address) {
            return Ok(id);
        }
        let program = &mut self.programs[class];
        let id = program.program.begin();
        program.ids.insert(address, id);
        program.addresses.push(address);
        let start = program.program.ops.len();
        let mut leaves = Vec::new();
        self.compile(class, state, state.stealth(), &mut leaves);
        // Its own instructions; those of the successors it compiles follow.
        let end = self.programs[class].program.ops.len();
        for leaf in leaves {
            let drop = state.stealth() - leaf.state.stealth();
            let address = memo::address(&leaf.state, &self.rules).at_stealth(0);
            // Replayed at stealth 1, a point lower is where a point lost onto 0 leads.
            let top_at_one = self.one_from_top && class + 1 == CLASSES && drop == 1;
            let at_one = if top_at_one {
                self.at_one(&canon::one_lower(&leaf.state, &self.rules))?
            } else {
                NONE
            };
            let w = NO_WEIGHT;
            let read = if self.solved_before(address) {
                Op::Table {
                    w,
                    drop,
                    slot: self.table_slot(address),
                    at_one,
                }
            } else if drop == 0 {
                Op::Here {
                    w,
                    id: self.visit(&leaf.state, address)?,
                }
            } else {
                let lower = if top_at_one {
                    at_one
                } else {
                    self.visit(&leaf.state, address)?
                };
                // In the top class, met a point lower at every higher stealth too.
                let same = if class + 1 == CLASSES {
                    self.visit(&leaf.state.with_stealth(state.stealth()), address)?
                } else {
                    NONE
                };
                Op::Below { w, lower, same }
            };
            self.programs[class].program.fill_read(leaf.op, read);
        }
        self.programs[class].program.finish(id, start, end);
        Ok(id)
    }

    /// The index in [`Part::at_one`] of what a read of `low` (a position at stealth 0) is,
    /// compiling it in class 0 if need be.
    fn at_one(&mut self, low: &State) -> Result<u32, Halt> {
        let rules = self.rules;
        let op = if let Some(outcome) = low.outcome() {
            // At stealth 0, read as such.
            Op::Over {
                w: NO_WEIGHT,
                win: outcome == Outcome::Win,
                end: self.end(low, 0),
            }
        } else {
            let address = memo::address(low, &rules).at_stealth(0);
            if self.solved_before(address) {
                Op::Table {
                    w: NO_WEIGHT,
                    drop: 0,
                    slot: self.table_slot(address),
                    at_one: NONE,
                }
            } else {
                Op::Here {
                    w: NO_WEIGHT,
                    id: self.visit(low, address)?,
                }
            }
        };
        self.at_one.push(op);
        Ok(self.at_one.len() as u32 - 1)
    }

    /// The index of game `end`, finished `drop` points below the compiled position, among the
    /// ends kept for the figures (0 when they are not computed).
    fn end(&mut self, end: &State, drop: u8) -> u32 {
        match &mut self.figures {
            Some(figures) => {
                figures.ends.push((*end, drop));
                figures.ends.len() as u32 - 1
            }
            None => 0,
        }
    }

    /// The slot of `address`, solved before this part, in [`Part::tables`].
    fn table_slot(&mut self, address: MemoAddress) -> u32 {
        self.tables.push(address);
        self.tables.len() as u32 - 1
    }

    /// Whether a read a point lower goes through [`Part::at_one`]: replaying the top class at
    /// stealth 1, with class 0's layer below.
    fn reads_at_one<T>(&self, reads: &Reads<'_, T>) -> bool {
        self.one_from_top && reads.below_is_lower
    }

    /// The value of [`Part::at_one`]`[at]`, class 0's layer below.
    fn value_at_one(&self, at: u32, values: &Reads<'_, f64>) -> f64 {
        match self.at_one[at as usize] {
            Op::Over { win, .. } => f64::from(u8::from(win)),
            Op::Here { id, .. } => values.below[id as usize],
            Op::Table { slot, .. } => {
                (self.memo.get(self.tables[slot as usize])).expect("solved before this part")
            }
            _ => unreachable!("a read or an end"),
        }
    }

    /// The optimal policy's figures of [`Part::at_one`]`[at]`, class 0's layer below.
    fn figures_at_one(&self, at: u32, figures: &Reads<'_, Expectation>) -> Expectation {
        let policy = self.figures.as_ref().expect("figures are computed");
        match self.at_one[at as usize] {
            Op::Over { end, .. } => terminal(&policy.ends[end as usize].0),
            Op::Here { id, .. } => figures.below[id as usize],
            Op::Table { slot, .. } => {
                (policy.shared.get(self.tables[slot as usize])).expect("solved before this part")
            }
            _ => unreachable!("a read or an end"),
        }
    }

    /// Fills the table at every stealth up to the highest for every compiled position, layer
    /// by layer, handing each layer's values (by local id in its class's program) and, if
    /// computed, figures to `layer`.
    pub(super) fn replay(
        &mut self,
        mut layer: impl FnMut(u8, &[f64], &[Expectation]),
    ) -> Result<(), Halt> {
        let mut layers = SolverLayers {
            here: self.buffers.values(),
            below: self.buffers.values(),
            figures_here: self.buffers.figures(),
            figures_below: self.buffers.figures(),
            below_is_lower: true,
        };
        for class in 0..CLASSES {
            let stealths = self.class_stealths(class);
            if stealths.is_empty() {
                continue;
            }
            let program = &mut self.programs[class].program;
            let order = std::mem::take(&mut program.order);
            let spare = self.buffers.ops.pop().unwrap_or_default();
            let mut left = program.lay_out(&order, spare, |op| op);
            program.order = order;
            left.clear();
            self.buffers.ops.push(left);
            // With `Keep::PartBoundaries`, the positions the table keeps: those other parts read,
            // this part's entries.
            let kept = (self.solver.keep() == Keep::PartBoundaries).then(|| {
                let mut kept = vec![false; self.programs[class].addresses.len()];
                for &id in &self.entries[class] {
                    kept[id as usize] = true;
                }
                kept
            });
            for (k, &stealth) in stealths.iter().enumerate() {
                std::mem::swap(&mut layers.below, &mut layers.here);
                std::mem::swap(&mut layers.figures_below, &mut layers.figures_here);
                // The class's lowest stealth reads the class below.
                layers.below_is_lower = k == 0;
                // The buffers of two layers down, reused: a fresh one per layer costs page
                // faults.
                let n = self.programs[class].addresses.len();
                layers.here.clear();
                layers.here.resize(n, f64::NAN);
                if self.figures.is_some() {
                    layers.figures_here.clear();
                    layers.figures_here.resize(n, Expectation::default());
                }
                self.replay_layer(class, stealth, &mut layers, kept.as_deref())?;
                if let Some(figures) = &self.figures {
                    for &id in &self.entries[class] {
                        let address = self.programs[class].addresses[id as usize];
                        let e = layers.figures_here[id as usize];
                        figures.shared.insert(address.at_stealth(stealth), e);
                    }
                }
                layer(stealth, &layers.here, &layers.figures_here);
            }
        }
        self.buffers.keep_layers(layers);
        Ok(())
    }

    /// Computes one layer: every position of `class`'s program at `stealth`, stored in the
    /// table unless `kept` says otherwise (by local id; `None`: every one).
    fn replay_layer(
        &mut self,
        class: usize,
        stealth: u8,
        layers: &mut SolverLayers,
        kept: Option<&[bool]>,
    ) -> Result<(), Halt> {
        let memo = self.memo;
        let n = self.programs[class].program.order.len();
        // The budget and the cancel flag, once a layer.
        if n > 0 {
            self.budget.admit(self.solver.states() + n - 1)?;
        }
        self.budget.check_cancel()?;
        let (mut stored, mut dropped) = (0, 0);
        // With figures: the option each decision of a position chose, by the decision's
        // instruction, from its value to its figures.
        let mut choices = Vec::new();
        for i in 0..n {
            let SolverProgram {
                addresses, program, ..
            } = &self.programs[class];
            let id = program.order[i];
            let ops = program.ops_of(id);
            if self.figures.is_some() {
                choices.resize(ops.len(), Chosen::default());
            }
            let v = self.eval(ops, &mut 0, stealth, &layers.values(), &mut choices);
            let id = id as usize;
            // A value already there (an earlier solve) has the same bits.
            if kept.is_none_or(|kept| kept[id]) {
                stored += usize::from(memo.store(addresses[id].at_stealth(stealth), v));
            } else {
                dropped += 1;
            }
            layers.here[id] = v;
            if self.figures.is_some() {
                layers.figures_here[id] =
                    self.eval_figures(ops, &mut 0, stealth, &layers.figures(), &choices);
            }
        }
        memo.counted(stored);
        self.solver.not_kept(dropped);
        Ok(())
    }

    /// The value of the expression at `ops[*at..]` for its compiled position at `stealth`.
    ///
    /// At each decision, the first option of highest value is noted in `choices` at the
    /// decision's instruction, if `choices` reaches that far (with figures), for
    /// [`Part::eval_figures`].
    fn eval(
        &self,
        ops: &[Op],
        at: &mut usize,
        stealth: u8,
        values: &Reads<'_, f64>,
        choices: &mut [Chosen],
    ) -> f64 {
        let op = ops[*at];
        *at += 1;
        match op {
            Op::Over { win, .. } => f64::from(u8::from(win)),
            Op::Here { id, .. } => values.here[id as usize],
            Op::Below { lower: at, .. } | Op::Table { at_one: at, .. }
                if at != NONE && self.reads_at_one(values) =>
            {
                self.value_at_one(at, values)
            }
            Op::Below { lower, same, .. } => *values.below(lower, same),
            Op::Table { slot, drop, .. } => {
                let address = self.tables[slot as usize].at_stealth(stealth - drop);
                self.memo.get(address).expect("solved before this part")
            }
            Op::Max(n) => {
                let decision = *at - 1;
                let mut best = f64::NEG_INFINITY;
                let mut first = *at;
                for _ in 0..n {
                    let option = *at;
                    let v = self.eval(ops, at, stealth, values, choices);
                    if v > best {
                        first = option;
                    }
                    best = best.max(v);
                }
                if let Some(choice) = choices.get_mut(decision) {
                    *choice = Chosen {
                        option: first as u32,
                        end: *at as u32,
                    };
                }
                best
            }
            Op::Sum { n, by_value: false } => {
                let mut v = 0.0;
                for _ in 0..n {
                    let p = self.weights[term_weight(ops, at)];
                    v += p * self.eval(ops, at, stealth, values, choices);
                }
                v
            }
            Op::Sum { n, by_value: true } => {
                let mut terms = [(0.0, 0.0); MAX_TERMS];
                let terms = &mut terms[..usize::from(n)];
                for term in terms.iter_mut() {
                    let p = self.weights[term_weight(ops, at)];
                    *term = (self.eval(ops, at, stealth, values, choices), p);
                }
                // In order of value, so relabellings of a position agree.
                sum_in_value_order(terms)
            }
            Op::Weight(_) | Op::Local(_) => unreachable!("not an expression of the solver's"),
        }
    }

    /// The optimal policy's figures from the expression at `ops[*at..]` for its compiled
    /// position at `stealth`: at a decision, those of the first option of highest value, as
    /// [`Part::eval`] noted it in `choices`.
    fn eval_figures(
        &self,
        ops: &[Op],
        at: &mut usize,
        stealth: u8,
        figures: &Reads<'_, Expectation>,
        choices: &[Chosen],
    ) -> Expectation {
        let policy = self.figures.as_ref().expect("figures are computed");
        let op = ops[*at];
        *at += 1;
        match op {
            Op::Over { end, .. } => {
                let (end, drop) = policy.ends[end as usize];
                terminal(&end.with_stealth(stealth - drop))
            }
            Op::Here { id, .. } => figures.here[id as usize],
            Op::Below { lower: at, .. } | Op::Table { at_one: at, .. }
                if at != NONE && self.reads_at_one(figures) =>
            {
                self.figures_at_one(at, figures)
            }
            Op::Below { lower, same, .. } => *figures.below(lower, same),
            Op::Table { slot, drop, .. } => {
                let address = self.tables[slot as usize].at_stealth(stealth - drop);
                policy.shared.get(address).expect("solved before this part")
            }
            Op::Max(_) => {
                // The first option of highest value.
                let chosen = choices[*at - 1];
                *at = chosen.option as usize;
                let e = self.eval_figures(ops, at, stealth, figures, choices);
                *at = chosen.end as usize;
                e
            }
            Op::Sum { n, .. } => {
                let mut e = Expectation::default();
                for _ in 0..n {
                    let p = self.weights[term_weight(ops, at)];
                    let term = self.eval_figures(ops, at, stealth, figures, choices);
                    add_scaled(&mut e, &term, p);
                }
                e
            }
            Op::Weight(_) | Op::Local(_) => unreachable!("not an expression of the solver's"),
        }
    }

    /// Appends to `class`'s program the instructions of `state`'s expression — the best
    /// option at a decision, the weighted sum at a chance point — down to memoised positions
    /// (pushed on `leaves`, their reads to be filled in) and finished games.
    fn compile(&mut self, class: usize, state: &State, root: u8, leaves: &mut Vec<Leaf>) {
        let rules = self.rules;
        let node = state.node(&rules);
        // R2: a roll costs one point at most, and only checks follow a lost point before a
        // memoised position: an expression never steps on from a point lower, which would
        // leave the class it is compiled in.
        assert!(
            state.stealth() == root || matches!(node, Node::Over(_)),
            "a position compiled below its class's stealth"
        );
        match node {
            Node::Over(outcome) => {
                let drop = root - state.stealth();
                let end = self.end(state, drop);
                self.programs[class].program.push_term(|w| Op::Over {
                    w,
                    win: outcome == Outcome::Win,
                    end,
                });
            }
            Node::Chance(chance) if chance.names_characters() => {
                let n = chance.len() as usize;
                assert!(
                    n <= MAX_TERMS,
                    "at most two side types below a memoised position"
                );
                self.programs[class].program.push_sum(n, true);
                for (outcome, p) in chance.outcomes() {
                    let mut next = *state;
                    next.apply_outcome(&rules, outcome);
                    let w = self.weights.id(p);
                    self.programs[class].program.push_weight(w);
                    self.child(class, &next, root, leaves);
                }
            }
            Node::Chance(chance) => {
                let (terms, n) = gathered_outcomes::<6>(state, chance, &rules);
                self.programs[class].program.push_sum(n, false);
                for &(next, p) in &terms[..n] {
                    let w = self.weights.id(p);
                    self.programs[class].program.push_weight(w);
                    self.child(class, &next, root, leaves);
                }
            }
            Node::Decision(_) => {
                let actions = state.actions(&rules);
                let n = u8::try_from(actions.len()).expect("a handful of options");
                self.programs[class].program.ops.push(Op::Max(n));
                for &action in actions.iter() {
                    let mut next = *state;
                    next.apply_action(&rules, action);
                    self.child(class, &next, root, leaves);
                }
            }
        }
    }

    /// The instructions for a successor: a read of its value if memoised (filled in by
    /// [`Part::visit`]), else its own expression.
    fn child(&mut self, class: usize, next: &State, root: u8, leaves: &mut Vec<Leaf>) {
        if next.outcome().is_some() || !worth_memoising(next) {
            return self.compile(class, next, root, leaves);
        }
        assert!(next.stealth() + 1 >= root, "a read two points lower");
        self.programs[class].program.push_read(next, false, leaves);
    }
}
