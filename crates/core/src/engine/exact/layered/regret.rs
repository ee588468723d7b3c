//! The probability that a strategy reaches each of its decisions, as the reverse (adjoint) pass
//! of its layered program ([`super`]): where the replay computes a position's figures from
//! those of the positions it reads, weighted, this pass pushes a position's probability of
//! being reached down the same instructions to the positions it reads, with the same weights.
//!
//! Layers are visited from the highest stealth down and, within a layer, positions in the reverse
//! of the order the replay computes them (successors first): every position that reads another is
//! visited before it, so a position's probability is whole when it is pushed on. A decision's
//! [`Op::Local`] receives the probability of the expression it opens, which is its term's
//! weight in the replay's sum: the reach of the decision itself.
//!
//! The top program is the same at every stealth it serves, so the probability of reaching a
//! position `d` layers below a game's start is the same whatever the starting stealth: one
//! pass from the highest start serves every start, a start at stealth `S` reading layer `d`
//! as its own stealth `S − d`. Only where a start's games leave the top program (into the
//! class below it) do the starts part, each followed through the lower classes on its own.

use rustc_hash::FxHashMap;

use crate::engine::budget::{Budget, Halt};
use crate::game::Chance;
use crate::rules::Rules;
use crate::strategy::Strategy;

use super::{Decided, Layered, Noted, StealthClasses, classes};
use crate::engine::program::{NONE, Op, term_weight};

/// A strategy's compiled positions at every stealth class, its decisions with more than one
/// option noted, positions told apart as optimal play's values tell them.
pub struct RegretProgram {
    /// One program per class (stealth 0, 1, …, `top`), flattened for the pass; the top
    /// one's positions numbered in the order they were compiled (successors first).
    programs: Vec<Flat>,
    /// In the order the pass meets them in each class's flattened program (class 0 first,
    /// the top program last).
    decided: Vec<Decided>,
    /// By class, where its decisions begin in `decided` (a decision is noted by one class's
    /// program only), and last, their number: class `c`'s are `firsts[c]..firsts[c + 1]`.
    firsts: Vec<u32>,
    /// The roots by class (the games after each complication roll), local ids.
    roots: Vec<Vec<u32>>,
    top: u8,
    /// The lowest stealth at which the top program is met: 1 when stealth 1 is read from it
    /// ([`Layered::one_from_top`]), else the top class's own.
    first_top: u8,
}

/// `strategy`'s program for the stealths `stealths` (at least one), its classes those of
/// the exact evaluation ([`super::exact`]).
pub fn program<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
    budget: &Budget<'_>,
) -> Result<RegretProgram, Halt> {
    let StealthClasses {
        top,
        alike,
        replayed,
        ..
    } = classes(strategy, stealths).expect("a stealth to decompose at");
    let mut layered = Layered::new(rules, strategy, budget, top, alike, replayed);
    layered.decided = Some(Noted {
        ids: vec![Vec::new(); usize::from(top) + 1],
        ..Noted::default()
    });
    let mut roots = layered.compile_roots(stealths, top)?;
    let first_top = if layered.one_from_top { 1 } else { top };
    let mut programs = std::mem::take(&mut layered.programs);
    for program in &mut programs {
        program.ids = Default::default();
    }
    // The top program renumbered in the order the replay would compute its positions as
    // compiled (successors first), so that the pass, which visits them in reverse, reads
    // and writes each layer front to back; the lower classes keep their ids.
    let top_program = &programs[usize::from(top)];
    let mut renumbered = vec![NONE; top_program.len as usize];
    for (new, &old) in top_program.program.order.iter().enumerate() {
        renumbered[old as usize] = new as u32;
    }
    for id in &mut roots[usize::from(top)] {
        *id = renumbered[*id as usize];
    }
    let weights = layered.weights.list();
    let mut programs: Vec<Flat> = programs
        .into_iter()
        .enumerate()
        .map(|(class, program)| {
            let program = &program.program;
            let spans = &program.spans;
            let visits = (program.order.iter().rev()).map(|&id| (id, spans[id as usize].0));
            let renumbered = (class == usize::from(top)).then_some(&renumbered[..]);
            Flat::of(&program.ops, visits, renumbered, weights)
        })
        .collect();
    let (decided, firsts) = in_order(
        &mut programs,
        layered.decided.take().unwrap_or_default().list,
    );
    Ok(RegretProgram {
        programs,
        decided,
        firsts,
        roots,
        top,
        first_top,
    })
}

/// `decided` renumbered in the order the pass meets them, so that it writes them in order
/// too; with where each class's decisions begin ([`RegretProgram::firsts`]).
fn in_order(programs: &mut [Flat], decided: Vec<Decided>) -> (Vec<Decided>, Vec<u32>) {
    let mut ordered = Vec::with_capacity(decided.len());
    let mut renumbered = vec![NONE; decided.len()];
    let mut firsts = Vec::with_capacity(programs.len() + 1);
    for program in programs {
        firsts.push(ordered.len() as u32);
        for leaf in &mut program.leaves {
            if leaf.to & KIND == LOCAL {
                let d = leaf.to & !KIND;
                let new = &mut renumbered[d as usize];
                if *new == NONE {
                    ordered.push(decided[d as usize]);
                    *new = (ordered.len() - 1) as u32;
                }
                debug_assert!(*new >= *firsts.last().unwrap_or(&0), "one class's decision");
                leaf.to = LOCAL | *new;
            }
        }
    }
    firsts.push(ordered.len() as u32);
    (ordered, firsts)
}

/// Layers of the reverse pass handed on together ([`RegretProgram::reach`]): one program's
/// decisions, and, row by row, the starts that meet a layer of them and each decision's
/// probability of being reached there. Dense: a layer meets most of its program's
/// decisions, and a decision's rows side by side let its options be valued at every
/// stealth it is met at in one walk.
#[derive(Debug)]
pub struct Block {
    /// The program's first decision: its decisions are `first..first + width`.
    pub first: u32,
    /// The number of its decisions.
    pub width: usize,
    /// By row: the starts that meet it (lane `i` is the `i`th stealth asked for), each with
    /// the stealth it meets the row's positions at.
    pub lanes: Vec<Vec<(usize, u8)>>,
    /// Row by row, `width` each: the probability of reaching each decision from each of
    /// the row's starts (0: not met).
    pub reach: Vec<f64>,
}

impl Block {
    /// No rows yet, for class `class`'s decisions.
    fn new(firsts: &[u32], class: usize, rows: usize) -> Block {
        let (first, end) = (firsts[class], firsts[class + 1]);
        let width = (end - first) as usize;
        Block {
            first,
            width,
            lanes: Vec::with_capacity(rows),
            reach: Vec::with_capacity(rows * width),
        }
    }

    /// A new row, all zeros, met by `lanes`: its reaches to fill in.
    fn row(&mut self, lanes: Vec<(usize, u8)>) -> &mut [f64] {
        self.lanes.push(lanes);
        let from = self.reach.len();
        self.reach.resize(from + self.width, 0.0);
        &mut self.reach[from..]
    }
}

impl RegretProgram {
    /// The decisions noted, by the index a [`Op::Local`] names.
    pub fn decided(&self) -> &[Decided] {
        &self.decided
    }

    /// How many layers of the top program [`RegretProgram::reach`] passes through from the highest
    /// of `stealths` (0 if none starts in it).
    pub fn top_layers(&self, stealths: &[u8]) -> usize {
        (stealths.iter().copied().filter(|&s| s >= self.first_top))
            .max()
            .map_or(0, |highest| usize::from(highest - self.first_top) + 1)
    }

    /// The decisions noted, the program itself freed.
    pub fn into_decided(self) -> Vec<Decided> {
        self.decided
    }

    /// Follows the games from the start at each of `stealths` (lane `i` is `stealths[i]`),
    /// handing on the decisions met as [`Block`]s: the top program's layers, from the starts
    /// down, `rows` layers to a block at most (one row per layer: the decisions met at the
    /// same distance below the starts that read it), then each lower class's, one row per
    /// start whose games reach it. Returns each lane's probability of winning: the
    /// strategy's exact win probability, summed over the games it wins.
    pub fn reach(
        &self,
        stealths: &[u8],
        budget: &Budget<'_>,
        rows: usize,
        met: &mut impl FnMut(Block),
    ) -> Result<Vec<f64>, Halt> {
        let rows = rows.max(1);
        let mut wins = vec![0.0; stealths.len()];
        let first_top = self.first_top;
        let lowest = usize::from(first_top);
        let top_class = usize::from(self.top);
        // By lane: the probabilities of the classes below the top program, each met at its
        // own stealth (filled from the top program where the lane's games leave it).
        let mut lower: Vec<Vec<Vec<f64>>> = stealths
            .iter()
            .map(|_| {
                self.programs[..lowest]
                    .iter()
                    .map(|p| vec![0.0; p.len as usize])
                    .collect()
            })
            .collect();
        let rolls: Vec<f64> = Chance::Complications.outcomes().map(|(_, p)| p).collect();
        let start = |roots: &[u32], reach: &mut [f64]| {
            for (&id, &p) in roots.iter().zip(&rolls) {
                reach[id as usize] += p;
            }
        };
        if let Some(highest) = stealths.iter().copied().filter(|&s| s >= first_top).max() {
            let top = &self.programs[top_class];
            let mut here = vec![0.0; top.len as usize];
            let mut below = vec![0.0; top.len as usize];
            start(&self.roots[top_class], &mut here);
            // Distance `d` below the start: stealth `S − d` of a start at `S`.
            let deepest = highest - first_top;
            let layers = usize::from(deepest) + 1;
            let mut block = Block::new(&self.firsts, top_class, rows.min(layers));
            for d in 0..=deepest {
                budget.check_cancel()?;
                // The start whose games leave the top program from this layer.
                let leaving = stealths
                    .iter()
                    .position(|&s| s >= first_top && s - first_top == d);
                // The starts that read this layer, each at its own stealth.
                let lanes: Vec<(usize, u8)> = (stealths.iter().enumerate())
                    .filter(|&(_, &s)| s >= first_top + d)
                    .map(|(lane, &s)| (lane, s - d))
                    .collect();
                let mut push = Push {
                    wins: 0.0,
                    here: &mut here,
                    same: (d < deepest).then_some(&mut below[..]),
                    lower: leaving
                        .and_then(|lane| lower[lane].last_mut())
                        .map(|v| &mut v[..]),
                    first: block.first,
                    decided: block.row(lanes.clone()),
                };
                push.program(top);
                for &(lane, _) in &lanes {
                    wins[lane] += push.wins;
                }
                let left = layers - usize::from(d) - 1;
                if block.lanes.len() == rows && left > 0 {
                    let next = Block::new(&self.firsts, top_class, rows.min(left));
                    met(std::mem::replace(&mut block, next));
                }
                std::mem::swap(&mut here, &mut below);
                below.fill(0.0);
            }
            met(block);
        }
        for class in (0..lowest).rev() {
            budget.check_cancel()?;
            // The starts whose games reach this class: those at or above it.
            let reading: Vec<usize> = (0..stealths.len())
                .filter(|&lane| usize::from(stealths[lane]) >= class)
                .collect();
            let mut block = Block::new(&self.firsts, class, reading.len());
            let program = &self.programs[class];
            for lane in reading {
                let (rest, this) = lower[lane].split_at_mut(class);
                let here = &mut this[0];
                if usize::from(stealths[lane]) == class {
                    start(&self.roots[class], here);
                }
                let mut push = Push {
                    wins: 0.0,
                    here,
                    same: None,
                    lower: rest.last_mut().map(|v| &mut v[..]),
                    first: block.first,
                    decided: block.row(vec![(lane, class as u8)]),
                };
                push.program(program);
                wins[lane] += push.wins;
            }
            met(block);
        }
        Ok(wins)
    }
}

/// A program as the reverse pass reads it: each position's expression flattened into what it
/// reaches — reads, decisions noted, games won — each with the product of the weights on the
/// way there, so that a position pushes its probability on in one loop over its leaves, with
/// one multiplication each, where the instructions' sums, weights and lost games cost a
/// dozen branches and a stack of open sums per position, at every layer.
struct Flat {
    /// The positions, by local id.
    len: u32,
    /// In the order the pass visits them (the reverse of the order the replay computes them):
    /// each position's local id and where its leaves end.
    visits: Vec<(u32, u32)>,
    leaves: Vec<FlatLeaf>,
    /// The products of weights the leaves name: a few dozen (`reckless`: 67).
    products: Vec<f64>,
}

/// What a position's expression reaches ([`Flat`]): [`FlatLeaf::to`]'s two highest bits tell what
/// it is ([`HERE`], [`BELOW`], [`LOCAL`], [`WON`]), the others its index; `same` is a read a point
/// lower's [`Op::Below::same`]; `w` names the product of the weights on the way
/// ([`Flat::products`]). As small as an instruction.
#[derive(Clone, Copy, Debug)]
struct FlatLeaf {
    to: u32,
    same: u32,
    w: u16,
}

/// A read of this layer ([`Op::Here`]).
const HERE: u32 = 0;
/// A read a point lower ([`Op::Below`]): `to` is its `lower`.
const BELOW: u32 = 1 << 30;
/// A decision noted ([`Op::Local`]).
const LOCAL: u32 = 2 << 30;
/// A game won ([`Op::Over`]; games lost reach nothing the pass counts).
const WON: u32 = 3 << 30;
/// [`FlatLeaf::to`]'s kind.
const KIND: u32 = 3 << 30;

/// The [`FlatLeaf::to`] of `index` of `kind`.
#[inline]
fn to(kind: u32, index: u32) -> u32 {
    assert!(index & KIND == 0, "fewer than 1 G of each");
    kind | index
}

impl Flat {
    /// The expressions of `ops` at each of `visits`' positions (local id, first instruction),
    /// in the pass's order ([`Flat::visits`]). With `renumbered`, the program's own positions
    /// (the visits', reads here and a point lower in the same program) take the ids it gives
    /// them.
    fn of(
        ops: &[Op],
        visits: impl ExactSizeIterator<Item = (u32, u32)>,
        renumbered: Option<&[u32]>,
        weights: &[f64],
    ) -> Flat {
        let len = visits.len() as u32;
        let mut flat = Flat {
            len,
            visits: Vec::with_capacity(visits.len()),
            // At most one leaf per instruction: reserved at once, never moved (the pages
            // past the last leaf are never touched).
            leaves: Vec::with_capacity(ops.len()),
            products: Vec::new(),
        };
        let mut flattening = Flattening {
            ops,
            renumbered,
            weights,
            open: Vec::new(),
            times: Vec::new(),
            product_ids: FxHashMap::default(),
        };
        flattening.product(&mut flat, 1.0);
        for (id, start) in visits {
            flattening.expression(start as usize, &mut flat);
            let end = u32::try_from(flat.leaves.len()).expect("fewer than 4 G leaves");
            flat.visits.push((flattening.id(id), end));
        }
        flat
    }
}

/// What flattening a program's expressions ([`Flat::of`]) reads and reuses.
struct Flattening<'a> {
    ops: &'a [Op],
    renumbered: Option<&'a [u32]>,
    weights: &'a [f64],
    /// The sums still open: each one's terms left and its product of weights.
    open: Vec<(u8, u16)>,
    /// By product and weight (`product × weights + weight`): the product times the weight,
    /// or [`UNKNOWN`]: a table lookup per term instead of a hash.
    times: Vec<u16>,
    /// By product of weights (its bits): its index in [`Flat::products`].
    product_ids: FxHashMap<u64, u16>,
}

/// A product of weights not worked out yet ([`Flattening::times`]).
const UNKNOWN: u16 = u16::MAX;

impl Flattening<'_> {
    /// Appends to `flat` what the expression at `ops[at..]` reaches, with the product of the
    /// weights on the way: the instructions' own walk ([`super::Consts::eval`]), the sums
    /// still open on a stack in place of calls, each product multiplied in the order the
    /// walk multiplies.
    fn expression(&mut self, mut at: usize, flat: &mut Flat) {
        debug_assert!(self.open.is_empty());
        // The product 1 (numbered first).
        let mut w = 0;
        loop {
            let op = self.ops[at];
            at += 1;
            let to = match op {
                Op::Sum { n, .. } if n > 0 => {
                    self.open.push((n, w));
                    w = self.term(flat, w, &mut at);
                    continue;
                }
                // The decision's expression follows, reached as often.
                Op::Local(decided) => {
                    flat.leaves.push(FlatLeaf {
                        to: to(LOCAL, decided),
                        same: NONE,
                        w,
                    });
                    continue;
                }
                Op::Sum { .. } => None,
                Op::Over { win, .. } => win.then_some((WON, NONE)),
                Op::Here { id, .. } => Some((to(HERE, self.id(id)), NONE)),
                Op::Below { lower, same, .. } => {
                    let same = if same == NONE { NONE } else { self.id(same) };
                    Some((to(BELOW, lower), same))
                }
                Op::Weight(_) | Op::Table { .. } | Op::Max(_) => {
                    unreachable!("not an expression of a strategy's")
                }
            };
            if let Some((to, same)) = to {
                flat.leaves.push(FlatLeaf { to, same, w });
            }
            // A term ended: the next term of the innermost sum with one left.
            loop {
                let Some((left, sum)) = self.open.last_mut() else {
                    return;
                };
                *left -= 1;
                if *left > 0 {
                    w = *sum;
                    break;
                }
                self.open.pop();
            }
            w = self.term(flat, w, &mut at);
        }
    }

    /// The id of the program's own position `id`.
    #[inline]
    fn id(&self, id: u32) -> u32 {
        self.renumbered
            .map_or(id, |renumbered| renumbered[id as usize])
    }

    /// Product `w` times the weight of the term at `ops[*at..]`: it opens with its weight,
    /// or is a read carrying it.
    fn term(&mut self, flat: &mut Flat, w: u16, at: &mut usize) -> u16 {
        let weight = term_weight(self.ops, at);
        let at = usize::from(w) * self.weights.len() + usize::from(weight);
        if self.times[at] == UNKNOWN {
            let product = flat.products[usize::from(w)] * self.weights[usize::from(weight)];
            self.times[at] = self.product(flat, product);
        }
        self.times[at]
    }

    /// The index of `product` in [`Flat::products`], added if need be.
    fn product(&mut self, flat: &mut Flat, product: f64) -> u16 {
        let next = flat.products.len();
        *self
            .product_ids
            .entry(product.to_bits())
            .or_insert_with(|| {
                flat.products.push(product);
                self.times
                    .resize(self.times.len() + self.weights.len(), UNKNOWN);
                u16::try_from(next)
                    .ok()
                    .filter(|&id| id != UNKNOWN)
                    .expect("fewer than 64 k products of weights")
            })
    }
}

/// One layer's positions, pushing their probabilities on.
struct Push<'p> {
    /// The probability of the games won met so far.
    wins: f64,
    /// This layer's probabilities, by local id.
    here: &'p mut [f64],
    /// The same program a layer down (`Op::Below::same`), if any start reads it.
    same: Option<&'p mut [f64]>,
    /// The class below (`Op::Below::lower`), if a start's games leave into it from here.
    lower: Option<&'p mut [f64]>,
    /// The program's first decision, and the probability of reaching each of its decisions
    /// in this layer, summed over every instruction that notes it.
    first: u32,
    decided: &'p mut [f64],
}

impl Push<'_> {
    /// Pushes the probability of each of `program`'s positions on to what it reaches, every
    /// position reading it visited before it.
    fn program(&mut self, program: &Flat) {
        let mut from = 0;
        for &(id, to) in &program.visits {
            let reach = self.here[id as usize];
            if reach != 0.0 {
                for leaf in &program.leaves[from as usize..to as usize] {
                    self.leaf(leaf, reach * program.products[usize::from(leaf.w)]);
                }
            }
            from = to;
        }
    }

    /// Adds `r` where `leaf` leads.
    #[inline]
    fn leaf(&mut self, leaf: &FlatLeaf, r: f64) {
        let index = (leaf.to & !KIND) as usize;
        match leaf.to & KIND {
            HERE => self.here[index] += r,
            BELOW => {
                if let Some(layer) = &mut self.same {
                    debug_assert_ne!(leaf.same, NONE);
                    layer[leaf.same as usize] += r;
                }
                if let Some(class) = &mut self.lower {
                    class[index] += r;
                }
            }
            LOCAL => self.decided[index - self.first as usize] += r,
            _ => self.wins += r,
        }
    }
}
