//! The exact engine in stealth layers: a strategy's figures from each position compiled once
//! per class of stealths the rules and the strategy read alike, then replayed at every stealth
//! of the class — the solver's layering ([`crate::engine::optimal`]) with the strategy's answers in
//! place of the best option.
//!
//! The rules play a position alike at every stealth from [`canon::ALIKE_FROM_STEALTH`] up;
//! a strategy that declares [`Strategy::stealth_alike_from`] answers alike from there up. Above
//! both, one compiled program serves every stealth. A position's expression is the
//! strategy's one action, or the average over all of them (`Uniform`), at a decision, and the
//! weighted sum of the outcomes at a chance point (outcomes with the same successor merged,
//! the second side type rolled late where neither the rules nor the strategy read it), summed
//! in a fixed order — the same bits whatever the layering or the thread count, without a hash
//! table of millions of labelled positions, each looked up at every stealth.
//!
//! Stealth 1 is a class of its own only where a point is lost: it lands on 0, discovered,
//! and the rules settle the position there ([`canon::one_lower`]). When the strategy answers
//! alike from 1 up (and being discovered gives no option back,
//! [`canon::stealth_one_plays_like_two`]), the top program is replayed at stealth 1 too, its
//! reads a point lower naming class 0's positions, and only classes 0 and 2 are compiled — a
//! third less of the compile, which is most of an evaluation.
//!
//! Below the top class each stealth is a class of its own, compiled and evaluated at its own
//! stealth, and no class is needed above the highest stealth asked for: a strategy that may
//! read stealth anywhere (optimal play's values do) has a class per stealth up to the highest,
//! and so do stealths too low to reach the top class. The top class is then evaluated as the
//! others are, never replayed.
//!
//! A replayed layer is evaluated level by level: a position's level is one above the highest
//! it reads in its own layer, so the positions of one level are independent and are shared
//! out over the pool, each evaluated by the same instructions in the same order on whichever
//! thread — the same bits for any thread count.

use crate::par::*;
use rustc_hash::FxHashMap;

use crate::engine::Expectation;
use crate::game::{Action, Chance, Decision, Node, Outcome, State, canon};
use crate::rules::Rules;
use crate::strategy::{Choice, Strategy};

use crate::engine::ExactRun;
use crate::engine::budget::{Budget, Halt};
use crate::engine::expansion::merged_outcomes;
use crate::engine::expectation::{add_scaled, terminal};
use crate::engine::ids::{Ids, NO_ID};
use crate::engine::key;
use crate::engine::key::regret_sight;
use crate::engine::positions::{kept, second_side_type_unread, worth_memoising};
use crate::engine::program::{Leaf, NO_WEIGHT, NONE, Op, Program, Reads, Weights};

pub mod regret;

/// Positions a thread of the replay evaluates at a time: a level of at least two chunks is
/// shared out.
const REPLAY_CHUNK: usize = 1 << 11;

/// The compiled positions of one stealth class.
#[derive(Default)]
struct StrategyProgram {
    /// Local id by key (stealth cleared).
    ids: Ids,
    /// Positions compiled: their local ids are `0..len`.
    len: u32,
    /// By local id: the figures at the class's own stealth, computed as soon as a position
    /// is compiled (its successors are, before it). Empty for a top class replayed from
    /// stealth 1: only the replay evaluates it.
    values: Vec<Expectation>,
    /// The instructions. Every position's are kept only in the top class replayed at other
    /// stealths, and for the reverse pass; lower classes' are dropped once evaluated.
    program: Program,
    /// Laid out for the replay ([`StrategyProgram::lay_out_by_level`]): the id where each
    /// level's positions begin, and the number of positions last.
    levels: Vec<u32>,
    /// Where each position's instructions begin, for the replay's parallel chunks.
    starts: Vec<u32>,
}

impl StrategyProgram {
    /// Renumbers the positions by level ([`Program::levels`]), within a level as compiled,
    /// and lays their instructions out in that order ([`Program::lay_out`]): a layer streams
    /// through the instructions front to back, and a level's positions, which read none of
    /// each other, may be evaluated side by side. Returns the new id of each old one.
    fn lay_out_by_level(&mut self) -> Vec<u32> {
        let level = self.program.levels();
        let mut by_level = std::mem::take(&mut self.program.order);
        by_level.sort_by_key(|&old| level[old as usize]);
        let mut renumbered = vec![NONE; by_level.len()];
        for (new, &old) in by_level.iter().enumerate() {
            renumbered[old as usize] = new as u32;
        }
        self.program.lay_out(&by_level, Vec::new(), |op| match op {
            Op::Here { w, id } => Op::Here {
                w,
                id: renumbered[id as usize],
            },
            // Replayed, a point lower is this program one layer down (or, at stealth 1,
            // class 0: `lower` is not this program's).
            Op::Below { w, lower, same } => Op::Below {
                w,
                lower,
                same: renumbered[same as usize],
            },
            op => op,
        });
        let spans = std::mem::take(&mut self.program.spans);
        self.starts = by_level.iter().map(|&old| spans[old as usize].0).collect();
        self.levels = (by_level.iter().enumerate())
            .filter(|&(new, &old)| {
                new == 0 || level[old as usize] != level[by_level[new - 1] as usize]
            })
            .map(|(new, _)| new as u32)
            .chain([by_level.len() as u32])
            .collect();
        if !self.values.is_empty() {
            self.values = by_level
                .iter()
                .map(|&old| self.values[old as usize])
                .collect();
        }
        renumbered
    }
}

/// A term of a weighted sum: the successor, its weight, and whether its second side type is
/// still to be rolled.
type Term = (State, f64, bool);

/// The exact figures of one strategy, layer by layer.
struct Layered<'a, S: ?Sized> {
    rules: &'a Rules,
    strategy: &'a S,
    budget: &'a Budget<'a>,
    /// One program per class: stealth 0, 1, …, `top` (the last serves every higher stealth).
    programs: Vec<StrategyProgram>,
    /// The ends of the games the programs reach, and how many points below their compiled
    /// position each ends; each once.
    ends: Vec<(State, u8)>,
    end_ids: FxHashMap<(State, u8), u32>,
    weights: Weights,
    /// Positions compiled, in all classes.
    compiled: usize,
    /// Emptied buffers for the leaves of a position and the terms of a sum, reused.
    spare_leaves: Vec<Vec<Leaf>>,
    spare_terms: Vec<Vec<Term>>,
    /// Whether stealth 1 is replayed from the top class's program rather than compiled (see
    /// the module documentation): its reads a point lower then name class 0's positions
    /// (`Op::Below::lower`).
    one_from_top: bool,
    /// Whether the top program is replayed at stealths other than its own: then its
    /// instructions are kept, and its reads a point lower name their position at its own
    /// stealth too (`Op::Below::same`).
    replayed: bool,
    /// For the reverse pass ([`regret::program`]): the strategy's decisions with more than
    /// one option, each noted by a [`Op::Local`], positions told apart as optimal play's
    /// values tell them ([`regret_sight`]), and every class's instructions kept. `None`: the
    /// figures alone.
    decided: Option<Noted>,
}

/// The decisions noted for the reverse pass: each position once, however many instructions
/// note it (a decision compiled into every position it is met from), so that its
/// probability of being reached is summed over every way in.
#[derive(Default)]
struct Noted {
    list: Vec<Decided>,
    /// By class (one per program), by key (stealth cleared): the index in `list`, or
    /// [`NO_ID`]; in the slots of the program's [`Ids`] (a decision is keyed as a position).
    ids: Vec<Vec<u32>>,
    /// The position [`Layered::visit`] compiles, its class and its slot: the first decision
    /// noted is often that position's own, whose key is then not worked out again.
    visiting: Option<(State, bool, usize, usize)>,
}

/// A decision of the strategy's met by a compiled program ([`Op::Local`]).
#[derive(Clone, Copy, Debug)]
pub struct Decided {
    /// The position at its class's compiled stealth. With `pending`, its second side type is
    /// a placeholder: neither the rules nor the strategy read it yet.
    pub state: State,
    /// The decision point.
    pub decision: Decision,
    /// The strategy's answer.
    pub choice: Choice,
    /// Whether the second side type is still to be rolled.
    pub pending: bool,
}

/// The exact figures of `strategy` from the start of a game at each of `stealths`, in layers.
pub fn exact<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
    budget: &Budget<'_>,
) -> Result<ExactRun, Halt> {
    let Some(StealthClasses {
        highest,
        top,
        alike,
        replayed,
    }) = classes(strategy, stealths)
    else {
        return Ok(ExactRun {
            expectations: Vec::new(),
            states: 0,
        });
    };
    Layered::new(rules, strategy, budget, top, alike, replayed).run(stealths, highest, top)
}

/// How a layered evaluation splits stealths into classes.
struct StealthClasses {
    /// The highest stealth asked for.
    highest: u8,
    /// The top class: the lowest stealth from which the rules and the strategy play alike,
    /// or else the highest stealth asked for.
    top: u8,
    /// The lowest stealth from which the strategy answers alike
    /// ([`Strategy::stealth_alike_from`]); above `highest` when it may read stealth anywhere.
    alike: u8,
    /// Whether the top class's program is replayed at stealths other than its own.
    replayed: bool,
}

/// The classes of `strategy`'s layered evaluation at `stealths`, or `None` when no stealth is
/// asked for.
fn classes<S: Strategy + ?Sized>(strategy: &S, stealths: &[u8]) -> Option<StealthClasses> {
    let highest = stealths.iter().copied().max()?;
    // A strategy that may read stealth anywhere: each stealth is a class of its own.
    let alike = strategy
        .stealth_alike_from()
        .unwrap_or_else(|| highest.saturating_add(1));
    let top = alike.max(canon::ALIKE_FROM_STEALTH);
    let replayed = highest > top;
    Some(StealthClasses {
        highest,
        top: top.min(highest),
        alike,
        replayed,
    })
}

impl<'a, S: Strategy + ?Sized> Layered<'a, S> {
    /// Nothing compiled yet: classes 0 to `top`, the strategy answering alike from `alike`,
    /// the top class `replayed` or not ([`StealthClasses`]).
    fn new(
        rules: &'a Rules,
        strategy: &'a S,
        budget: &'a Budget<'a>,
        top: u8,
        alike: u8,
        replayed: bool,
    ) -> Self {
        let one_from_top = replayed
            && top == canon::ALIKE_FROM_STEALTH
            && alike < top
            && canon::stealth_one_plays_like_two(rules);
        Layered {
            rules,
            strategy,
            budget,
            programs: (0..=top).map(|_| StrategyProgram::default()).collect(),
            ends: Vec::new(),
            end_ids: FxHashMap::default(),
            weights: Weights::default(),
            compiled: 0,
            spare_leaves: Vec::new(),
            spare_terms: Vec::new(),
            one_from_top,
            replayed,
            decided: None,
        }
    }
}

impl<S: Strategy + ?Sized> Layered<'_, S> {
    /// Compiles every class, replays them up to `highest`, and sums the complication rolls
    /// at each of `stealths`.
    fn run(&mut self, stealths: &[u8], highest: u8, top: u8) -> Result<ExactRun, Halt> {
        let rolls: Vec<(u32, f64)> = Chance::Complications.outcomes().collect();
        let replayed_from = self.replayed_from(top);
        let roots = self.compile_roots(stealths, top)?;
        let mut expectations = vec![Expectation::default(); stealths.len()];
        let sum_roots = |here: &[Expectation], ids: &[u32]| {
            let mut e = Expectation::default();
            for (&(_, p), &id) in rolls.iter().zip(ids) {
                add_scaled(&mut e, &here[id as usize], p);
            }
            e
        };
        // Every compiled class below the replayed stealths is evaluated (at its own stealth)
        // as it is compiled.
        let mut positions: usize = self.programs.iter().map(|p| p.values.len()).sum();
        for (i, &stealth) in stealths.iter().enumerate() {
            if stealth < replayed_from {
                let class = usize::from(stealth);
                expectations[i] = sum_roots(&self.programs[class].values, &roots[class]);
            }
        }
        if !self.replayed {
            return Ok(ExactRun {
                expectations,
                states: positions,
            });
        }
        // The top class replayed at every stealth from `replayed_from`. What only compiling
        // reads is freed first (but class 0's figures when stealth 1 reads them): the
        // replay's two layers take its place at the memory peak.
        let mut program = std::mem::take(&mut self.programs[usize::from(top)]);
        let mut class_zero = if self.one_from_top {
            std::mem::take(&mut self.programs[0].values)
        } else {
            Vec::new()
        };
        self.programs.clear();
        self.end_ids = FxHashMap::default();
        self.weights.compiled();
        program.ids = Ids::default();
        let renumbered = program.lay_out_by_level();
        let top_roots: Vec<u32> = roots[usize::from(top)]
            .iter()
            .map(|&id| renumbered[id as usize])
            .collect();
        drop(renumbered);
        let StrategyProgram {
            program: Program { ops, .. },
            values,
            len,
            levels,
            starts,
            ..
        } = program;
        // Two layers, reused: every position is written before anything reads it, so
        // neither needs clearing.
        let mut below = if values.is_empty() {
            vec![Expectation::default(); len as usize]
        } else {
            values
        };
        let mut here = vec![Expectation::default(); below.len()];
        let consts = self.consts();
        for stealth in replayed_from..=highest {
            // At stealth 1 a point lower is class 0's, through `lower`.
            let lower = stealth == 1;
            for level in levels.windows(2) {
                self.budget.check_cancel()?;
                let (first, end) = (level[0] as usize, level[1] as usize);
                // A level reads only the levels before it in its own layer.
                let (done, rest) = here.split_at_mut(first);
                let layers = Reads {
                    here: done,
                    below: if lower { &class_zero } else { &below },
                    below_is_lower: lower,
                };
                let chunk = |from: usize, out: &mut [Expectation]| {
                    let mut at = starts[from] as usize;
                    for value in out {
                        *value = consts.eval(&ops, &mut at, stealth, &layers);
                    }
                };
                let level = &mut rest[..end - first];
                if level.len() >= 2 * REPLAY_CHUNK {
                    // Each position in the same bits whichever thread evaluates it.
                    level
                        .par_chunks_mut(REPLAY_CHUNK)
                        .enumerate()
                        .for_each(|(k, out)| chunk(first + k * REPLAY_CHUNK, out));
                } else {
                    chunk(first, level);
                }
            }
            positions += here.len();
            for (i, _) in stealths.iter().enumerate().filter(|(_, s)| **s == stealth) {
                expectations[i] = sum_roots(&here, &top_roots);
            }
            std::mem::swap(&mut below, &mut here);
            if lower {
                class_zero = Vec::new();
            }
        }
        Ok(ExactRun {
            expectations,
            states: positions,
        })
    }

    /// The stealths the top program is replayed at: from 1 when class 1 is not compiled
    /// (`one_from_top`), else above the top class (evaluated as it is compiled).
    fn replayed_from(&self, top: u8) -> u8 {
        if self.one_from_top { 1 } else { top + 1 }
    }

    /// Compiles the games after each complication roll (in [`Chance::outcomes`] order), at
    /// each compiled class's stealth that is asked for: the roots, by class, local ids.
    fn compile_roots(&mut self, stealths: &[u8], top: u8) -> Result<Vec<Vec<u32>>, Halt> {
        let replayed_from = self.replayed_from(top);
        let mut roots = vec![Vec::new(); usize::from(top) + 1];
        // A class below the replayed stealths needs its roots only if its stealth is asked
        // for: the classes above compile what they read of it.
        let asked = |c: u8| c == top || (c < replayed_from && stealths.contains(&c));
        for class in (0..=top).filter(|&c| asked(c)) {
            let ids = &mut roots[usize::from(class)];
            for (outcome, _) in Chance::Complications.outcomes() {
                let mut state = State::new(class);
                state.apply_outcome(self.rules, outcome);
                ids.push(self.visit(&state, false)?);
            }
        }
        Ok(roots)
    }

    /// The local id of `state` (at its class's compiled stealth) in its class's program,
    /// compiling it and everything it leads to first if need be.
    fn visit(&mut self, state: &State, pending: bool) -> Result<u32, Halt> {
        let class = usize::from(state.stealth());
        let key = self.key(state, pending);
        let program = &mut self.programs[class];
        let index = program.ids.index(key);
        let slot = program.ids.at(index);
        if *slot != NO_ID {
            return Ok(*slot);
        }
        if let Some(noted) = &mut self.decided {
            noted.visiting = Some((*state, pending, class, index));
        }
        self.budget.admit(self.compiled)?;
        let id = program.len;
        *slot = id;
        self.compiled += 1;
        let top = self.programs.len() - 1;
        // The reverse pass reads every class's instructions, and no figures.
        let kept = (class == top && self.replayed) || self.decided.is_some();
        let program = &mut self.programs[class];
        program.len += 1;
        // Evaluated as it is compiled, but for the top class replayed from stealth 1.
        let evaluated = !(class == top && self.one_from_top) && self.decided.is_none();
        if evaluated {
            program.values.push(Expectation::default());
        }
        if kept {
            let begun = program.program.begin();
            debug_assert_eq!(begun, id);
        }
        let start = program.program.ops.len();
        let mut leaves = self.spare_leaves.pop().unwrap_or_default();
        self.compile(class, state, pending, state.stealth(), &mut leaves);
        let end = self.programs[class].program.ops.len();
        for leaf in leaves.drain(..) {
            let w = NO_WEIGHT;
            // R2: a roll costs one point at most, and only positions at the compiled stealth
            // are compiled in place: every read is at most a point lower.
            assert!(
                leaf.state.stealth() + 1 >= state.stealth(),
                "a read two points lower"
            );
            let read = if leaf.state.stealth() == state.stealth() {
                Op::Here {
                    w,
                    id: self.visit(&leaf.state, leaf.pending)?,
                }
            } else {
                let lower = if class == top && self.one_from_top {
                    // Replayed at stealth 1, the point is lost onto 0.
                    self.visit(&canon::one_lower(&leaf.state, self.rules), leaf.pending)?
                } else {
                    self.visit(&leaf.state, leaf.pending)?
                };
                // In a replayed top class, met a point lower at every higher stealth too.
                let same = if class == top && self.replayed {
                    self.visit(&leaf.state.with_stealth(state.stealth()), leaf.pending)?
                } else {
                    NONE
                };
                Op::Below { w, lower, same }
            };
            self.programs[class].program.fill_read(leaf.op, read);
        }
        self.spare_leaves.push(leaves);
        // Every successor is evaluated by now: this position too, at its own stealth — but
        // for the top class replayed from stealth 1, which the replay evaluates.
        if evaluated {
            let (lower, upper) = self.programs.split_at(class);
            let program = &upper[0];
            let layers = Reads {
                here: &program.values,
                below: lower.last().map_or(&[][..], |p| &p.values[..]),
                below_is_lower: true,
            };
            let ops = &program.program.ops[start..end];
            let value = self.consts().eval(ops, &mut 0, state.stealth(), &layers);
            self.programs[class].values[id as usize] = value;
        }
        let program = &mut self.programs[class];
        if kept {
            program.program.finish(id, start, end);
        } else {
            program.program.ops.truncate(start);
        }
        Ok(id)
    }

    /// The key of a position as the strategy tells positions apart, stealth cleared.
    fn key(&self, state: &State, pending: bool) -> u128 {
        let mut sight = self.strategy.sight(state, self.rules);
        if self.decided.is_some() {
            sight = regret_sight(state, sight, self.rules);
        }
        let key = key::strategy_key(state, sight, self.rules) | u128::from(pending) << 127;
        crate::game::key::counted_with_stealth(key, 0)
    }

    /// The strategy's answer at `state`, noted for the reverse pass ([`Layered::note`]).
    fn decide(&mut self, class: usize, state: &State, pending: bool, decision: Decision) -> Choice {
        let choice = self.strategy.decide(state, self.rules, decision);
        self.note(class, state, pending, decision, choice);
        choice
    }

    /// For the reverse pass, a [`Op::Local`] before the instructions of a decision with
    /// more than one option.
    fn note(
        &mut self,
        class: usize,
        state: &State,
        pending: bool,
        decision: Decision,
        choice: Choice,
    ) {
        if self.decided.is_none() || !state.has_choice(self.rules) {
            return;
        }
        let index = match self.decided.as_ref().and_then(|n| n.visiting) {
            Some((visited, p, c, index)) if (p, c) == (pending, class) && visited == *state => {
                index
            }
            _ => {
                let key = self.key(state, pending);
                self.programs[class].ids.index(key)
            }
        };
        let Some(noted) = &mut self.decided else {
            return;
        };
        let next = noted.list.len() as u32;
        let ids = &mut noted.ids[class];
        if ids.len() <= index {
            ids.resize(self.programs[class].ids.len(), NO_ID);
        }
        let slot = &mut ids[index];
        if *slot == NO_ID {
            *slot = next;
        }
        let d = *slot;
        if d == next {
            noted.list.push(Decided {
                state: *state,
                decision,
                choice,
                pending,
            });
        }
        self.programs[class].program.ops.push(Op::Local(d));
    }

    /// A weighted sum of `terms`, each through `child`; the buffer is kept for reuse.
    fn sum(
        &mut self,
        class: usize,
        mut terms: Vec<Term>,
        root: u8,
        leaves: &mut Vec<Leaf>,
        child: fn(&mut Self, usize, &State, bool, u8, &mut Vec<Leaf>),
    ) {
        self.programs[class].program.push_sum(terms.len(), false);
        for &(next, p, pending) in &terms {
            let w = self.weights.id(p);
            self.programs[class].program.push_weight(w);
            child(self, class, &next, pending, root, leaves);
        }
        terms.clear();
        self.spare_terms.push(terms);
    }

    /// An empty buffer for the terms of a sum.
    fn terms(&mut self) -> Vec<Term> {
        self.spare_terms.pop().unwrap_or_default()
    }

    /// Appends the instructions of `state`'s expression, down to memoised positions and
    /// finished games.
    fn compile(
        &mut self,
        class: usize,
        state: &State,
        pending: bool,
        root: u8,
        leaves: &mut Vec<Leaf>,
    ) {
        let rules = self.rules;
        debug_assert!(
            state.stealth() == root || state.outcome().is_some(),
            "only finished games are compiled in place below the compiled position"
        );
        match state.node(rules) {
            Node::Over(outcome) => {
                // Counters aside, a game's end is its figures.
                let end = (state.with_counters(0, 0), root - state.stealth());
                let next = self.ends.len() as u32;
                let id = *self.end_ids.entry(end).or_insert(next);
                if id == next {
                    self.ends.push(end);
                }
                self.programs[class].program.push_term(|w| Op::Over {
                    w,
                    win: outcome == Outcome::Win,
                    end: id,
                });
            }
            Node::Decision(decision) => match self.decide(class, state, pending, decision) {
                Choice::Act(action) => {
                    let mut next = *state;
                    next.apply_action(rules, action);
                    self.child(class, &next, pending, root, leaves);
                }
                Choice::Uniform => {
                    let actions = state.actions(rules);
                    let weight = 1.0 / actions.len() as f64;
                    let mut terms = self.terms();
                    terms.extend(actions.iter().map(|&action| {
                        let mut next = *state;
                        next.apply_action(rules, action);
                        (next, weight, pending)
                    }));
                    self.sum(class, terms, root, leaves, Self::child);
                }
            },
            Node::Chance(Chance::SideTypes)
                if second_side_type_unread(rules, self.strategy, state) =>
            {
                // R12: the first die now, the second when the second side challenge begins.
                let mut first_types = self.terms();
                first_types.extend(state.first_side_types(rules).map(|(s, p)| (s, p, true)));
                self.sum(class, first_types, root, leaves, Self::walk);
            }
            Node::Chance(chance) => {
                let mut terms = self.terms();
                merged_outcomes(state, chance, rules, |next, p| {
                    terms.push((next, p, pending))
                });
                self.sum(class, terms, root, leaves, Self::child);
            }
        }
    }

    /// A successor of a position whose second side type is `pending` or not: once the first
    /// side challenge is over, the second type is rolled.
    fn child(
        &mut self,
        class: usize,
        next: &State,
        pending: bool,
        root: u8,
        leaves: &mut Vec<Leaf>,
    ) {
        if !pending || next.on_first_side() || next.outcome().is_some() {
            return self.walk(class, next, pending, root, leaves);
        }
        let mut terms = self.terms();
        terms.extend(
            Chance::second_side_type_odds()
                .map(|(second, p)| (next.with_second_side_type(second), p, false)),
        );
        self.sum(class, terms, root, leaves, Self::walk);
    }

    /// A position met from a compiled one: read if memoised (filled in by
    /// [`Layered::visit`]), else compiled in place.
    fn walk(
        &mut self,
        class: usize,
        next: &State,
        pending: bool,
        root: u8,
        leaves: &mut Vec<Leaf>,
    ) {
        if next.outcome().is_some() {
            return self.compile(class, next, pending, root, leaves);
        }
        // A point lower, a position is read even where it would not be kept: compiled in
        // place, its successors a point lower still would be two below the compiled
        // position, which no layer holds. A decision answered with one action is read
        // through only where the answer cannot differ at the stealths a program is replayed
        // at, and no decision is noted.
        let here = next.stealth() == root;
        let top = self.programs.len() - 1;
        if here || (self.decided.is_none() && !(class == top && self.replayed)) {
            match self.met(next, pending) {
                HowMet::Read => {}
                HowMet::Compiled if !here => {}
                HowMet::Compiled => return self.compile(class, next, pending, root, leaves),
                // What compiling the decision would do, without asking the strategy again.
                HowMet::Forwarded(after, decision, action) => {
                    self.note(class, next, pending, decision, Choice::Act(action));
                    return self.child(class, &after, pending, root, leaves);
                }
            }
        }
        // Filled in by `visit`.
        self.programs[class]
            .program
            .push_read(next, pending, leaves);
    }

    /// Whether `state` (at the compiled position's stealth) gets a compiled position of its
    /// own ([`Layered::kept`]), or is a decision answered with one action that leads to a
    /// kept position (whose value is its own), or is compiled into the positions it is met
    /// from.
    fn met(&self, state: &State, pending: bool) -> HowMet {
        if !self.kept(state) {
            return HowMet::Compiled;
        }
        let Node::Decision(decision) = state.node(self.rules) else {
            return HowMet::Read;
        };
        let Choice::Act(action) = self.strategy.decide(state, self.rules, decision) else {
            return HowMet::Read;
        };
        let mut next = *state;
        next.apply_action(self.rules, action);
        let same_pending = !pending || next.on_first_side();
        if same_pending && next.outcome().is_none() && self.kept(&next) {
            HowMet::Forwarded(next, decision, action)
        } else {
            HowMet::Read
        }
    }

    /// Whether `state` is kept as a position of its own ([`kept`]).
    fn kept(&self, state: &State) -> bool {
        worth_memoising(state) && kept(state, || self.strategy.sight(state, self.rules))
    }

    /// What an instruction reads besides the layers.
    fn consts(&self) -> Consts<'_> {
        Consts {
            ends: &self.ends,
            weights: self.weights.list(),
        }
    }
}

/// What an instruction reads besides the layers: the finished games and the weights. Shared
/// by the threads of a replay.
struct Consts<'a> {
    ends: &'a [(State, u8)],
    weights: &'a [f64],
}

impl Consts<'_> {
    /// The figures of finished game `end` for a compiled position at `stealth`.
    fn end(&self, end: u32, stealth: u8) -> Expectation {
        let (end, drop) = self.ends[end as usize];
        terminal(&end.with_stealth(stealth - drop))
    }

    /// The figures of the expression at `ops[*at..]` at `stealth`.
    fn eval(
        &self,
        ops: &[Op],
        at: &mut usize,
        stealth: u8,
        layers: &Reads<'_, Expectation>,
    ) -> Expectation {
        let op = ops[*at];
        *at += 1;
        match op {
            Op::Over { end, .. } => self.end(end, stealth),
            Op::Here { id, .. } => layers.here[id as usize],
            Op::Below { lower, same, .. } => *layers.below(lower, same),
            Op::Sum { n, .. } => {
                let mut e = Expectation::default();
                for _ in 0..n {
                    // A read or a finished game carrying its weight is read here, not called.
                    let (w, value) = match ops[*at] {
                        Op::Weight(w) => {
                            *at += 1;
                            (w, self.eval(ops, at, stealth, layers))
                        }
                        Op::Over { w, end, .. } => {
                            *at += 1;
                            (w, self.end(end, stealth))
                        }
                        Op::Here { w, id } => {
                            *at += 1;
                            (w, layers.here[id as usize])
                        }
                        Op::Below { w, lower, same } => {
                            *at += 1;
                            (w, *layers.below(lower, same))
                        }
                        _ => unreachable!("a weight opens a sum's term"),
                    };
                    add_scaled(&mut e, &value, self.weights[usize::from(w)]);
                }
                e
            }
            Op::Local(_) => self.eval(ops, at, stealth, layers),
            Op::Weight(_) | Op::Table { .. } | Op::Max(_) => {
                unreachable!("not an expression of a strategy's")
            }
        }
    }
}

/// How a position met from a compiled one enters its program ([`Layered::met`]).
enum HowMet {
    /// Memoised: read by its id.
    Read,
    /// Compiled in place.
    Compiled,
    /// A decision answered with one action, compiled as the position that action leads to.
    Forwarded(State, Decision, Action),
}
