//! The run and the finale solved a stealth layer at a time, each position's transitions worked
//! out once and replayed at every stealth.
//!
//! The rules read stealth only as "discovered or not" and change it only by one lost point, so
//! a position plays alike at every stealth from 2 up ([`canon::stealth_class`]): the same
//! options, the same outcomes, every successor the same number of points higher. Stepping the
//! state machine is most of a solve's cost (about a microsecond a position), so this module
//! steps it once per position, at stealth 2, and *compiles* what it finds — the expectimax
//! expression between the position and the memoised positions it leads to — into a few
//! [`Op`]s. Stealths 3, 4, … are then filled by replaying those expressions over the value
//! table: no state machine, no canonical forms, a handful of loads a position. Stealth 0 and
//! 1, each a class of its own, are solved by the solver's own walk.
//!
//! Positions are compiled in the order the walk finishes them (successors first), so
//! replaying the list in that order at stealth `s` finds every successor at `s` already
//! filled, and those at `s − 1` filled by the previous layer. The replayed arithmetic is the
//! walk's own, in its order (the same merged outcomes, the same value-ordered sums at chance
//! points that name characters, the same maximum), so the table holds the same bits as a walk
//! would have stored: the values do not depend on the layering, the thread count or the
//! order in which parts are solved. A position the compiler cannot express (none is known)
//! falls back to the walk at every stealth.

use rustc_hash::FxHashMap;

use crate::game::{Node, Outcome, State, canon};

use super::exact::{Budget, Halt, worth_memoising};
use super::memo::{self, Place};
use super::solve::Solver;

/// The stealth positions are compiled at: the lowest of the class that plays alike at every
/// higher stealth ([`canon::stealth_class`]).
pub(super) const COMPILED_AT: u8 = canon::ALIKE_FROM_STEALTH;

/// One instruction of a compiled position, in prefix order: an operator, then its operands.
#[derive(Clone, Copy, Debug)]
enum Op {
    /// A finished game: 1 for a win, 0 for a loss.
    Over(bool),
    /// The value of compiled position `id` of this part, `drop` stealth points below (0 or
    /// 1).
    Local { id: u32, drop: u8 },
    /// The stored value of a position solved before this part (`Part::tables[slot]`), `drop`
    /// stealth points below.
    Table { slot: u32, drop: u8 },
    /// A decision: the best of the `n` expressions that follow.
    Max(u8),
    /// A chance point: `n` terms follow, each a [`Op::Weight`] and an expression; summed in
    /// order of value when `by_value` (outcomes that name characters), else in order.
    Chance { n: u8, by_value: bool },
    /// The probability of the term that follows.
    Weight(f64),
}

/// The most terms a chance point below a memoised position has (two side types).
const MAX_TERMS: usize = 36;

/// A compiled position: where its value goes (its place at stealth 0), a position of its
/// class to fall back on, and its instructions (`None`: not expressible, solved by the walk).
struct Compiled {
    place: Place,
    representative: State,
    ops: Option<(u32, u32)>,
}

/// A memoised successor met while compiling: the instruction that reads it (`op`, filled in
/// once it is known whether this part computes it), the position itself and its place.
struct Leaf {
    op: usize,
    state: State,
    place: Place,
}

/// The values of a part's compiled positions at two consecutive stealths, by local id.
struct Layers {
    below: Vec<f64>,
    here: Vec<f64>,
}

/// One part of the table that shares no position with the other parts being filled at the
/// same time (a team shape, a finale character, the positions of phase 1 under one kind of
/// main character), compiled and then replayed layer by layer.
///
/// The part's positions get local ids, and a layer's values sit in a plain array by id while
/// it is computed (copied into the solver's table as they come): a replayed position reads
/// its successors from this layer's array and the one below, small and close together.
pub(super) struct Part<'s> {
    solver: &'s Solver,
    budget: &'s Budget<'s>,
    /// The highest stealth being filled.
    highest: u8,
    /// Local id of every position compiled so far, by place at stealth 0.
    ids: FxHashMap<Place, u32>,
    /// By local id.
    compiled: Vec<Compiled>,
    /// Local ids in the order their values can be computed (successors first).
    order: Vec<u32>,
    ops: Vec<Op>,
    /// Places solved before this part that its positions lead to, at stealth 0.
    tables: Vec<Place>,
}

impl<'s> Part<'s> {
    /// An empty part of `solver`'s table, to be filled up to stealth `highest`.
    pub(super) fn new(solver: &'s Solver, budget: &'s Budget<'s>, highest: u8) -> Self {
        Part {
            solver,
            budget,
            highest,
            ids: FxHashMap::default(),
            compiled: Vec::new(),
            order: Vec::new(),
            ops: Vec::new(),
            tables: Vec::new(),
        }
    }

    /// Fills the table for every position reachable from `entries` (positions whose stealth
    /// is set here, settled) at every stealth up to the part's highest.
    pub(super) fn fill(mut self, entries: &[State]) -> Result<(), Halt> {
        let rules = *self.solver.rules();
        let at = |entry: &State, stealth: u8| entry.with_stealth(stealth).settled(&rules);
        // Stealth 0 and 1 are classes of their own: the walk solves them.
        for stealth in 0..=self.highest.min(COMPILED_AT - 1) {
            for entry in entries {
                self.solver.try_value(&at(entry, stealth), self.budget)?;
            }
        }
        if self.highest < COMPILED_AT {
            return Ok(());
        }
        for entry in entries {
            let entry = at(entry, COMPILED_AT);
            if entry.outcome().is_none() {
                self.add(&entry, memo::place(&entry))?;
            }
        }
        self.replay(|_, _| {})
    }

    /// Compiles `entry` (a memoised position at [`COMPILED_AT`], at `place`) and everything it
    /// leads to that is not compiled yet; its local id.
    pub(super) fn add(&mut self, entry: &State, place: Place) -> Result<u32, Halt> {
        debug_assert_eq!(entry.stealth(), COMPILED_AT);
        debug_assert!(entry.outcome().is_none() && worth_memoising(entry));
        self.visit(entry, place.at_stealth(0))
    }

    /// Whether the table holds `place` at every stealth being filled: solved by a part
    /// before this one (the finale met again from the run, the run from phase 1).
    fn solved_before(&self, place: Place) -> bool {
        self.solver
            .memo()
            .get(place.at_stealth(self.highest))
            .is_some()
    }

    /// [`Part::add`] for a position whose place at stealth 0 is `place`.
    fn visit(&mut self, state: &State, place: Place) -> Result<u32, Halt> {
        if let Some(&id) = self.ids.get(&place) {
            return Ok(id);
        }
        let id = self.compiled.len() as u32;
        self.ids.insert(place, id);
        self.compiled.push(Compiled {
            place,
            representative: *state,
            ops: None,
        });
        let start = self.ops.len();
        let mut leaves = Vec::new();
        if self.compile(state, state.stealth(), &mut leaves) {
            for leaf in leaves {
                let drop = state.stealth() - leaf.state.stealth();
                let place = leaf.place.at_stealth(0);
                self.ops[leaf.op] = if self.solved_before(place) {
                    self.tables.push(place);
                    Op::Table {
                        slot: self.tables.len() as u32 - 1,
                        drop,
                    }
                } else {
                    // Met a point lower, it is met a point lower at every higher stealth.
                    let state = leaf.state.with_stealth(COMPILED_AT);
                    Op::Local {
                        id: self.visit(&state, place)?,
                        drop,
                    }
                };
            }
            self.compiled[id as usize].ops = Some((start as u32, self.ops.len() as u32));
        } else {
            self.ops.truncate(start);
        }
        self.order.push(id);
        Ok(id)
    }

    /// Fills the table at stealths [`COMPILED_AT`]`..=highest` for every compiled position,
    /// layer by layer, handing each layer's values (by local id) to `layer`.
    pub(super) fn replay(&mut self, mut layer: impl FnMut(u8, &[f64])) -> Result<(), Halt> {
        let n = self.compiled.len();
        let mut layers = Layers {
            below: vec![f64::NAN; n],
            here: vec![f64::NAN; n],
        };
        // The layer below the first: a class of its own, solved by the walk.
        for (id, entry) in self.compiled.iter().enumerate() {
            layers.here[id] = self.value(entry, COMPILED_AT - 1, None)?;
        }
        for stealth in COMPILED_AT..=self.highest {
            std::mem::swap(&mut layers.below, &mut layers.here);
            for &id in &self.order {
                let entry = &self.compiled[id as usize];
                let replayed = entry.ops.and_then(|(start, end)| {
                    let ops = &self.ops[start as usize..end as usize];
                    let mut at = 0;
                    self.eval(ops, &mut at, stealth, &layers)
                });
                layers.here[id as usize] = self.value(entry, stealth, replayed)?;
            }
            layer(stealth, &layers.here);
        }
        Ok(())
    }

    /// The value of `entry` at `stealth`: the table's if it has one, else `replayed` (stored),
    /// else the walk's.
    fn value(&self, entry: &Compiled, stealth: u8, replayed: Option<f64>) -> Result<f64, Halt> {
        let memo = self.solver.memo();
        let place = entry.place.at_stealth(stealth);
        if let Some(v) = memo.get(place) {
            return Ok(v);
        }
        match replayed {
            Some(v) => {
                self.budget.admit(memo.len())?;
                memo.insert(place, v);
                Ok(v)
            }
            // Not compiled, or a successor missing from the table (none is known).
            None => self
                .solver
                .try_value(&entry.representative.with_stealth(stealth), self.budget),
        }
    }

    /// The value of the expression at `ops[*at..]` for its compiled position at `stealth`,
    /// with the walk's arithmetic in the walk's order; `None` if a position solved before
    /// this part is missing from the table.
    fn eval(&self, ops: &[Op], at: &mut usize, stealth: u8, layers: &Layers) -> Option<f64> {
        let op = ops[*at];
        *at += 1;
        match op {
            Op::Over(win) => Some(if win { 1.0 } else { 0.0 }),
            Op::Local { id, drop: 0 } => Some(layers.here[id as usize]),
            Op::Local { id, .. } => Some(layers.below[id as usize]),
            Op::Table { slot, drop } => {
                let place = self.tables[slot as usize].at_stealth(stealth - drop);
                self.solver.memo().get(place)
            }
            Op::Max(n) => {
                let mut best = f64::NEG_INFINITY;
                for _ in 0..n {
                    best = best.max(self.eval(ops, at, stealth, layers)?);
                }
                Some(best)
            }
            Op::Chance { n, by_value } => {
                let mut terms = [(0.0, 0.0); MAX_TERMS];
                let terms = &mut terms[..usize::from(n)];
                for term in terms.iter_mut() {
                    let Op::Weight(p) = ops[*at] else {
                        unreachable!("a weight opens every term")
                    };
                    *at += 1;
                    *term = (self.eval(ops, at, stealth, layers)?, p);
                }
                if by_value {
                    // As the walk: in order of value, so relabellings of a position agree.
                    terms.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
                    Some(terms.iter().map(|(v, p)| p * v).sum())
                } else {
                    let mut v = 0.0;
                    for (value, p) in terms.iter() {
                        v += p * value;
                    }
                    Some(v)
                }
            }
            Op::Weight(_) => unreachable!("a weight only opens a term"),
        }
    }

    /// Appends the instructions of `state`'s expression — what the walk computes there —
    /// down to memoised positions (pushed on `leaves`, their reads to be filled in) and
    /// finished games. `false` when the expression cannot be compiled: more than one point
    /// of stealth lost before a memoised position, an outsized chance point.
    fn compile(&mut self, state: &State, root: u8, leaves: &mut Vec<Leaf>) -> bool {
        let rules = *self.solver.rules();
        match state.node(&rules) {
            Node::Over(outcome) => {
                self.ops.push(Op::Over(outcome == Outcome::Win));
                true
            }
            // Only checks follow a lost point before a memoised position; stepping on from a
            // point lower would leave the class the expression was compiled in.
            _ if state.stealth() < root => false,
            Node::Chance(chance) if chance.names_characters() => {
                let n = chance.len() as usize;
                if n > MAX_TERMS {
                    return false;
                }
                self.ops.push(Op::Chance {
                    n: n as u8,
                    by_value: true,
                });
                chance.outcomes().all(|(outcome, p)| {
                    let mut next = *state;
                    next.apply_outcome(&rules, outcome);
                    self.ops.push(Op::Weight(p));
                    self.child(&next, root, leaves)
                })
            }
            Node::Chance(chance) => {
                // Outcomes with the same successor merged, as the walk merges them.
                let mut terms: [(State, f64); 6] = [(*state, 0.0); 6];
                let mut n = 0;
                for (outcome, p) in chance.outcomes() {
                    let mut next = *state;
                    next.apply_outcome(&rules, outcome);
                    if n > 0 && terms[n - 1].0 == next {
                        terms[n - 1].1 += p;
                    } else if n < terms.len() {
                        terms[n] = (next, p);
                        n += 1;
                    } else {
                        return false;
                    }
                }
                self.ops.push(Op::Chance {
                    n: n as u8,
                    by_value: false,
                });
                terms[..n].iter().all(|(next, p)| {
                    self.ops.push(Op::Weight(*p));
                    self.child(next, root, leaves)
                })
            }
            Node::Decision(_) => {
                let actions = state.actions(&rules);
                self.ops.push(Op::Max(actions.len() as u8));
                actions.iter().all(|&action| {
                    let mut next = *state;
                    next.apply_action(&rules, action);
                    self.child(&next, root, leaves)
                })
            }
        }
    }

    /// The instructions for a successor: a read of its value if memoised (filled in by
    /// [`Part::visit`]), else its own expression.
    fn child(&mut self, next: &State, root: u8, leaves: &mut Vec<Leaf>) -> bool {
        if next.outcome().is_some() || !worth_memoising(next) {
            return self.compile(next, root, leaves);
        }
        if next.stealth() + 1 < root {
            return false;
        }
        leaves.push(Leaf {
            op: self.ops.len(),
            state: *next,
            place: memo::place(next),
        });
        // A placeholder, filled in by `visit`.
        self.ops.push(Op::Over(false));
        true
    }
}
