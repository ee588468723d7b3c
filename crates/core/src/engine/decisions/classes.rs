//! A strategy's decisions by canonical class (positions alike up to the names of characters
//! and complications), each class's options valued by optimal play once — whichever strategy
//! meets it first — at every stealth it is met at.

use std::ops::Range;

use crate::par::*;
use rustc_hash::FxHashMap;

use crate::game::canon::{self, Labels};
use crate::game::{Action, Chance, Character, State, key};
use crate::rules::Rules;
use crate::strategy::Choice;

use super::super::solve::Solver;
use super::kinds::matters;
use crate::engine::exact::layered::Decided;
use crate::engine::exact::regret::Block;

/// One rolled position of a decision the reverse pass meets, named by its canonical class (a
/// decision whose second side type is pending is six of them, one per roll, weighted).
#[derive(Clone, Copy, Debug)]
pub(super) struct ClassedRoll {
    class: u32,
    /// The strategy's choice among the class representative's options, in its order, or
    /// [`UNIFORM`].
    option: u8,
    pub(super) p: f64,
    /// The second side type rolled here, for a pending decision.
    pub(super) second: Option<Character>,
}

/// The [`ClassedRoll::option`] of a uniform choice.
const UNIFORM: u8 = u8::MAX;

/// What a decision loses, given that it is reached.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lost {
    /// `V* − Q*` of the strategy's choice.
    pub(super) regret: f64,
    /// Whether its best and worst options differ by more than [`MATTERS`](super::MATTERS).
    pub(super) matters: bool,
    /// How far apart its best and worst options lie.
    pub(super) spread: f64,
}

/// A strategy's decisions as the decomposition values them: by decision, its rolled positions
/// ([`ClassedRoll`]), each in a class of the shared [`CanonicalClasses`].
pub(super) struct ClassedDecisions<'s> {
    pub(super) solver: &'s Solver,
    pub(super) classes: &'s mut CanonicalClasses,
    pub(super) rolls: ClassedRolls,
    pub(super) scratch: Scratch,
}

/// The canonical classes of the decisions met and the optimal values of their options,
/// shared by every strategy decomposed with one solve: each worked out once, however many
/// decisions fall in it and whichever strategy met it first. Numbered in the order met, which
/// does not change a value (the same bits whoever works it out).
pub(super) struct CanonicalClasses {
    class_ids: FxHashMap<u64, u32>,
    /// By class: its canonical form.
    representatives: Vec<State>,
    /// Pending decisions' canonical forms (the second side type a placeholder) by key: the
    /// index of their rolled forms in `rolled_forms`.
    pending_ids: FxHashMap<u64, u32>,
    /// By pending form: the canonical form of each roll of its second side type.
    rolled_forms: Vec<RolledForms>,
    /// By pending form: the class of each of its rolled forms (in [`RolledForms::forms`]'
    /// order), looked up once, when it is first rolled.
    rolled_classes: Vec<[u32; Character::ALL.len()]>,
    /// Stealths valued: 0 up to the highest start.
    width: usize,
    /// By class, then stealth (`class × width + stealth`): where its options begin in `values`,
    /// plus one; 0 when not valued yet, [`PENDING`] while being valued
    /// ([`ClassedDecisions::value`]). A decision is met at the stealths of several starts at once,
    /// a few points apart: their entries share a cache line.
    valued: Vec<u32>,
    /// Per class and stealth valued: [`BEST`], [`WORST`], [`MEAN`] of its options, then each
    /// option's value in the representative's order.
    values: Vec<f64>,
}

impl CanonicalClasses {
    /// None met yet; stealths valued from 0 to the highest of `stealths`.
    pub(super) fn new(stealths: &[u8]) -> Self {
        let highest = stealths.iter().copied().max().unwrap_or(0);
        CanonicalClasses {
            class_ids: FxHashMap::default(),
            representatives: Vec::new(),
            pending_ids: FxHashMap::default(),
            rolled_forms: Vec::new(),
            rolled_classes: Vec::new(),
            width: usize::from(highest) + 1,
            valued: Vec::new(),
            values: Vec::new(),
        }
    }

    /// The class of canonical form `form`, numbered next if new.
    fn class_of(&mut self, form: &State) -> u32 {
        let next = self.representatives.len() as u32;
        let class = *self.class_ids.entry(key::rules_key(form)).or_insert(next);
        if class == next {
            self.representatives.push(*form);
            self.valued.resize(self.valued.len() + self.width, 0);
        }
        class
    }

    /// What the roll's choice loses at `stealth` (valued already: [`ClassedDecisions::prepare`]).
    #[inline]
    pub(super) fn shortfall(&self, roll: ClassedRoll, stealth: u8) -> Lost {
        let at = self.valued[roll.class as usize * self.width + usize::from(stealth)];
        debug_assert!(at != 0 && at != PENDING, "valued before it is read");
        let options = &self.values[at as usize - 1..];
        let chosen = match roll.option {
            UNIFORM => options[MEAN],
            option => options[OPTIONS + usize::from(option)],
        };
        Lost {
            regret: options[BEST] - chosen,
            matters: matters(options[BEST], options[WORST]),
            spread: options[BEST] - options[WORST],
        }
    }
}

/// Where a class's best option's value is among its [`CanonicalClasses::values`].
const BEST: usize = 0;
/// Its worst option's.
const WORST: usize = 1;
/// Its options' average (a uniform choice's value).
const MEAN: usize = 2;
/// Where its options' own values begin.
const OPTIONS: usize = 3;

impl<'s> ClassedDecisions<'s> {
    pub(super) fn new(
        solver: &'s Solver,
        classes: &'s mut CanonicalClasses,
        decided: usize,
    ) -> Self {
        ClassedDecisions {
            solver,
            classes,
            rolls: ClassedRolls {
                of_decided: vec![None; decided],
                list: Vec::new(),
            },
            scratch: Scratch::default(),
        }
    }

    /// Works out, side by side over the pool, what the decisions of `block` in `batch` that
    /// its rows meet (left in [`Scratch::met`]) need and nobody worked out before: their
    /// classes ([`ClassedDecisions::classify`]), then their options' values
    /// ([`ClassedDecisions::value`]).
    pub(super) fn prepare(&mut self, decided: &[Decided], block: &Block, batch: Range<usize>) {
        let Scratch { met, at, .. } = &mut self.scratch;
        met.clear();
        at.clear();
        for i in batch {
            let mut stealths = 0u128;
            for (k, lanes) in block.lanes.iter().enumerate() {
                if block.reach[k * block.width + i] != 0.0 {
                    for &(_, stealth) in lanes {
                        stealths |= 1 << stealth;
                    }
                }
            }
            if stealths != 0 {
                met.push(block.first + i as u32);
                at.push(stealths);
            }
        }
        self.classify(decided);
        self.value();
    }

    /// The rolls of the decisions of `batch` met for the first time. Classes are numbered
    /// in the order of the batch, whatever thread worked out their canonical form.
    ///
    /// A decision whose second side type is pending is six rolled positions, but not six
    /// canonical forms: its own form (the placeholder type relabelled with the rest) is
    /// worked out once, and each roll is that form with the type rolled, relabelled alike —
    /// a relabelling of the rolled position, so of the same class. The rolled forms of a
    /// pending form, and their classes, are worked out the first time it is met: many
    /// decisions meet it, each six rolls.
    fn classify(&mut self, decided: &[Decided]) {
        let rules = self.solver.rules();
        let Scratch { met, new, .. } = &mut self.scratch;
        new.clear();
        for &d in met.iter() {
            // Marked as met (no rolls yet), so that a decision is classified once.
            let entry = &mut self.rolls.of_decided[d as usize];
            if entry.is_none() {
                *entry = Some((0, 0));
                new.push(d);
            }
        }
        let new = &self.scratch.new[..];
        let firsts: Vec<First> = (new.par_iter().with_min_len(CHUNK))
            .map(|&d| First::of(&decided[d as usize], rules))
            .collect();
        // Each pending form once, numbered in the order of the batch; those met for the
        // first time rolled side by side.
        let classes = &mut *self.classes;
        let from = classes.rolled_forms.len();
        let mut unrolled = Vec::new();
        let pending: Vec<u32> = (firsts.iter())
            .map(|first| match first {
                First::Own(_) => NONE,
                First::Pending { form, .. } => {
                    let next = (from + unrolled.len()) as u32;
                    let id = *classes
                        .pending_ids
                        .entry(key::rules_key(form))
                        .or_insert(next);
                    if id == next {
                        unrolled.push(*form);
                    }
                    id
                }
            })
            .collect();
        classes
            .rolled_forms
            .par_extend(unrolled.par_iter().map(|form| RolledForms::of(form, rules)));
        for k in from..classes.rolled_forms.len() {
            let forms = classes.rolled_forms[k].forms;
            let rolled_classes = forms.map(|(form, _)| classes.class_of(&form));
            classes.rolled_classes.push(rolled_classes);
        }
        // Each roll, with its class where it is a roll of a pending form.
        let (rolled_forms, rolled_classes) = (&classes.rolled_forms, &classes.rolled_classes);
        let rolled: Vec<Vec<(u32, Rolled, u32)>> = (new.par_chunks(CHUNK).enumerate())
            .map(|(k, chunk)| {
                let mut rolled = Vec::with_capacity(chunk.len());
                for (i, &d) in chunk.iter().enumerate() {
                    let at = k * CHUNK + i;
                    let choice = decided[d as usize].choice;
                    match &firsts[at] {
                        First::Own(own) => rolled.push((d, *own, NONE)),
                        First::Pending { labels, .. } => {
                            let id = pending[at] as usize;
                            let forms = rolled_forms[id].rolled(*labels, choice);
                            let classes = &rolled_classes[id];
                            rolled.extend(forms.map(|(f, r)| (d, r, classes[f])));
                        }
                    }
                }
                rolled
            })
            .collect();
        for (d, rolled, class) in rolled.into_iter().flatten() {
            let class = if class == NONE {
                classes.class_of(&rolled.form)
            } else {
                class
            };
            let start = self.rolls.list.len() as u32;
            let (first, n) = (self.rolls.of_decided[d as usize].as_mut()).expect("marked as met");
            if *n == 0 {
                *first = start;
            }
            *n += 1;
            self.rolls.list.push(ClassedRoll {
                class,
                option: rolled.option,
                p: rolled.p,
                second: rolled.second,
            });
        }
    }

    /// Values the options of the classes of the decisions met ([`Scratch::met`]) at each
    /// stealth they are met at and not valued before, each class in one walk for all its
    /// stealths ([`Solver::options_at`]).
    fn value(&mut self) {
        let Scratch {
            met,
            at,
            missing,
            stealths,
            ..
        } = &mut self.scratch;
        missing.clear();
        stealths.clear();
        let classes = &mut *self.classes;
        for (&d, &at) in met.iter().zip(&*at) {
            for roll in self.rolls.of(d) {
                let row = roll.class as usize * classes.width;
                let from = stealths.len() as u32;
                let mut left = at;
                while left != 0 {
                    let stealth = left.trailing_zeros() as u8;
                    left &= left - 1;
                    let entry = &mut classes.valued[row + usize::from(stealth)];
                    if *entry == 0 {
                        *entry = PENDING;
                        stealths.push(stealth);
                    }
                }
                let to = stealths.len() as u32;
                if to > from {
                    missing.push((roll.class, from, to));
                }
            }
        }
        let (solver, representatives) = (self.solver, &classes.representatives);
        let stealths = &stealths[..];
        let worked: Vec<Worked> = missing
            .par_chunks(CLASSES_PER_TASK)
            .map(|chunk| {
                let mut worked = Worked::default();
                for &(class, from, to) in chunk {
                    let at = &stealths[from as usize..to as usize];
                    solver.options_at(&representatives[class as usize], at, |j, options| {
                        worked.keep(class, at[j], options.iter().map(|o| o.1));
                    });
                }
                worked
            })
            .collect();
        for worked in worked {
            let mut values = &worked.values[..];
            for (class, stealth, n) in worked.blocks {
                let (block, rest) = values.split_at(n as usize);
                values = rest;
                let at = u32::try_from(classes.values.len() + 1)
                    .ok()
                    .filter(|&at| at < PENDING)
                    .expect("fewer than 4 G option values");
                classes.valued[class as usize * classes.width + usize::from(stealth)] = at;
                classes.values.extend_from_slice(block);
            }
        }
    }
}

// A stealth is a bit of `Scratch::at`.
const _: () = assert!(crate::game::MAX_STEALTH < 128);

/// Buffers [`ClassedDecisions::prepare`] reuses from batch to batch.
#[derive(Default)]
pub(super) struct Scratch {
    /// The batch's decisions that the block's rows meet, in order.
    pub(super) met: Vec<u32>,
    /// By decision met: the stealths it is met at, a bit each.
    at: Vec<u128>,
    /// The decisions of a batch met for the first time.
    new: Vec<u32>,
    /// The classes with stealths not valued: the class, and the range of `stealths` that
    /// are its own.
    missing: Vec<(u32, u32, u32)>,
    stealths: Vec<u8>,
}

/// The options of one task's chunk of classes ([`ClassedDecisions::value`]): blocks of
/// [`CanonicalClasses::values`], each with its class, stealth and length.
#[derive(Default)]
struct Worked {
    values: Vec<f64>,
    blocks: Vec<(u32, u8, u32)>,
}

impl Worked {
    /// Appends a class's option `values` at `stealth`: their best, worst and mean, then
    /// each option's.
    fn keep(&mut self, class: u32, stealth: u8, values: impl Iterator<Item = f64> + Clone) {
        let (mut best, mut worst, mut sum, mut n) = (f64::MIN, f64::MAX, 0.0, 0);
        for v in values.clone() {
            (best, worst, sum, n) = (best.max(v), worst.min(v), sum + v, n + 1);
        }
        self.values.extend([best, worst, sum / f64::from(n)]);
        self.values.extend(values);
        let n = OPTIONS + n as usize;
        self.blocks.push((class, stealth, n as u32));
    }
}

/// A class being valued ([`CanonicalClasses::valued`]), not yet done.
const PENDING: u32 = u32::MAX;

/// Decisions a task classifies ([`ClassedDecisions::classify`]).
const CHUNK: usize = 256;

/// Classes a task values ([`ClassedDecisions::value`]): a walk costs about eight canonical forms.
const CLASSES_PER_TASK: usize = CHUNK / 8;

/// The rolled positions of each decision met, by canonical class ([`ClassedDecisions::classify`]).
pub(super) struct ClassedRolls {
    /// By decision, once met: where its rolls begin in `list`, and how many.
    of_decided: Vec<Option<(u32, u8)>>,
    list: Vec<ClassedRoll>,
}

impl ClassedRolls {
    /// The rolls of decision `d`, classified already.
    #[inline]
    pub(super) fn of(&self, d: u32) -> &[ClassedRoll] {
        let (start, n) = self.of_decided[d as usize].expect("classified before it is read");
        &self.list[start as usize..start as usize + usize::from(n)]
    }
}

/// A rolled position of a decision, in its canonical class's labels.
#[derive(Clone, Copy)]
struct Rolled {
    form: State,
    option: u8,
    p: f64,
    second: Option<Character>,
}

impl Rolled {
    /// `state`, a decision with every die rolled, in its class's labels, with `choice`
    /// among its options there.
    fn of(
        state: &State,
        choice: Choice,
        p: f64,
        second: Option<Character>,
        rules: &Rules,
    ) -> Rolled {
        let (form, labels) = canon::canonical_labelled(state, rules);
        Rolled {
            form,
            option: option_of(&form.actions(rules), labels, choice),
            p,
            second,
        }
    }
}

/// The [`ClassedRoll::option`] of `choice` (in a position's own labels) among `actions`, the
/// options of the form `labels` carries the position to.
fn option_of(actions: &[Action], labels: Labels, choice: Choice) -> u8 {
    match choice {
        Choice::Act(action) => {
            let theirs = labels.action(action);
            actions
                .iter()
                .position(|&a| a == theirs)
                .expect("the strategy's action is legal") as u8
        }
        Choice::Uniform => UNIFORM,
    }
}

/// Where a decision met for the first time starts its rolls ([`ClassedDecisions::classify`]).
enum First {
    /// A position with every die rolled: its one roll.
    Own(Rolled),
    /// A decision whose second side type is pending: its canonical form, the placeholder
    /// type relabelled with the rest, and the relabelling.
    Pending { form: State, labels: Labels },
}

impl First {
    fn of(decided: &Decided, rules: &Rules) -> First {
        if decided.pending {
            let (form, labels) = canon::canonical_labelled(&decided.state, rules);
            First::Pending { form, labels }
        } else {
            First::Own(Rolled::of(&decided.state, decided.choice, 1.0, None, rules))
        }
    }
}

/// The rolls of a pending form's second side type, by the type rolled (in the form's
/// labels): each roll's canonical form and the relabelling to it, and their options one
/// after the other (the first `ends[0]`, the next up to `ends[1]`, …).
struct RolledForms {
    forms: [(State, Labels); Character::ALL.len()],
    options: Box<[Action]>,
    ends: [u8; Character::ALL.len()],
}

impl RolledForms {
    fn of(form: &State, rules: &Rules) -> RolledForms {
        let forms = Character::ALL
            .map(|second| canon::canonical_labelled(&form.with_second_side_type(second), rules));
        let mut options = Vec::new();
        let ends = forms.map(|(rolled, _)| {
            options.extend_from_slice(&rolled.actions(rules));
            options.len() as u8
        });
        RolledForms {
            forms,
            options: options.into(),
            ends,
        }
    }

    /// The rolls of a pending decision that `labels` carries to this form, choosing
    /// `choice`: each roll of its second side type, with its probability and the index of its
    /// form in [`RolledForms::forms`]. A roll of the decision and the same roll of the form
    /// share a class ([`ClassedDecisions::classify`]); the strategy's choice follows both
    /// relabellings.
    fn rolled(&self, labels: Labels, choice: Choice) -> impl Iterator<Item = (usize, Rolled)> + '_ {
        // The choice in this form's labels, once for every roll.
        let choice = match choice {
            Choice::Act(action) => Choice::Act(labels.action(action)),
            Choice::Uniform => Choice::Uniform,
        };
        Chance::second_side_type_odds().map(move |(second, p)| {
            let i = labels.character(second).index();
            let (form, to_form) = self.forms[i];
            let from = if i == 0 { 0 } else { self.ends[i - 1] };
            let options = &self.options[usize::from(from)..usize::from(self.ends[i])];
            let rolled = Rolled {
                form,
                option: option_of(options, to_form, choice),
                p,
                second: Some(second),
            };
            (i, rolled)
        })
    }
}

/// No pending form: a decision with every die rolled ([`ClassedDecisions::classify`]), whose class
/// is looked up on its own.
const NONE: u32 = u32::MAX;

#[cfg(test)]
mod tests {
    use super::super::super::budget::Budget;
    use super::*;
    use crate::engine::exact::regret;
    use crate::game::Chance;
    use crate::rules::{CLARIFIED, MAIN_TEXT};
    use crate::strategy::ReferenceStrategy;

    /// A pending decision's rolls, from its one canonical form and its form's rolls, are
    /// those of each roll canonicalised on its own: the same class representative, the
    /// same option, probability and type rolled, in the same order.
    #[test]
    fn pending_decisions_roll_through_their_form() {
        for rules in [MAIN_TEXT, CLARIFIED] {
            let compiled = regret::program(&rules, &ReferenceStrategy, &[6], &Budget::UNLIMITED)
                .expect("within no limit");
            let mut checked = 0;
            for decided in compiled.decided().iter().filter(|d| d.pending) {
                let direct: Vec<Rolled> = Chance::second_side_type_odds()
                    .map(|(second, p)| {
                        let state = decided.state.with_second_side_type(second);
                        Rolled::of(&state, decided.choice, p, Some(second), &rules)
                    })
                    .collect();
                let First::Pending { form, labels } = First::of(decided, &rules) else {
                    panic!("a pending decision")
                };
                let through_form: Vec<Rolled> = RolledForms::of(&form, &rules)
                    .rolled(labels, decided.choice)
                    .map(|(_, rolled)| rolled)
                    .collect();
                assert_eq!(direct.len(), through_form.len());
                for (a, b) in direct.iter().zip(&through_form) {
                    assert_eq!(a.form, b.form, "{:?}", decided.state);
                    assert_eq!(a.option, b.option, "{:?}", decided.state);
                    assert_eq!(a.p.to_bits(), b.p.to_bits());
                    assert_eq!(a.second, b.second);
                }
                checked += 1;
            }
            assert!(checked > 1000, "{checked} pending decisions");
        }
    }
}
