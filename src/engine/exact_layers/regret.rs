//! The probability that a strategy reaches each of its decisions, as the reverse (adjoint) pass
//! of its layered program ([`super`]): where the replay computes a position's figures from
//! those of the positions it reads, weighted, this pass pushes a position's probability of
//! being reached down the same instructions to the positions it reads, with the same weights.
//!
//! Layers are visited from the highest stealth down and, within a layer, positions in the
//! reverse of the order the replay computes them (successors first): every position that
//! reads another is visited before it, so a position's probability is whole when it is
//! pushed on. A decision's [`Op::Local`] receives the probability of the expression it opens,
//! which is its term's weight in the replay's sum: the reach of the decision itself.
//!
//! The top program is the same at every stealth it serves, so the probability of reaching a
//! position `d` layers below a game's start is the same whatever the starting stealth: one
//! pass from the highest start serves every start, a start at stealth `S` reading layer `d`
//! as its own stealth `S − d`. Only where a start's games leave the top program (into the
//! class below it) do the starts part, each followed through the lower classes on its own.

use crate::engine::exact::{Budget, Halt};
use crate::game::{Chance, Outcome};
use crate::rules::Rules;
use crate::strategy::Strategy;

use super::{Classes, Decided, Layered, NONE, Noted, Op, Program, classes};

/// A strategy's compiled positions at every stealth class, its decisions with more than one
/// option noted, positions told apart as optimal play's values tell them.
pub struct Compiled {
    /// One program per class: stealth 0, 1, …, `top`. The top one laid out in replay order
    /// ([`Program::lay_out_in_order`]); the others with their spans and the order they were
    /// compiled in (successors first).
    programs: Vec<Program>,
    weights: Vec<f64>,
    /// By the index an [`Op::Over`] names: whether that finished game is won.
    won: Vec<bool>,
    /// In the order of the instructions that note them (lower classes, then the top program).
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

/// `strategy`'s program for the stealths `stealths`, or `None` when the layers do not serve
/// it (the strategy may read stealth anywhere, or the stealths are too low to pay): the
/// caller walks instead.
pub fn program<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
    budget: &Budget<'_>,
) -> Option<Result<Compiled, Halt>> {
    let Classes { top, alike, .. } = classes(strategy, stealths)?;
    let mut layered = Layered::new(rules, strategy, budget, top, alike);
    layered.decided = Some(Noted {
        ids: vec![Vec::new(); usize::from(top) + 1],
        ..Noted::default()
    });
    let mut roots = match layered.compile_roots(stealths, top) {
        Ok(roots) => roots,
        Err(halt) => return Some(Err(halt)),
    };
    if layered.unexpressible {
        return None;
    }
    let first_top = if layered.one_from_top { 1 } else { top };
    let mut programs = std::mem::take(&mut layered.programs);
    for program in &mut programs {
        program.ids = Default::default();
    }
    let renumbered = programs[usize::from(top)].lay_out_in_order();
    for id in &mut roots[usize::from(top)] {
        *id = renumbered[*id as usize];
    }
    let (decided, firsts) = in_order(
        &mut programs,
        layered.decided.take().unwrap_or_default().list,
    );
    Some(Ok(Compiled {
        programs,
        weights: std::mem::take(&mut layered.weights),
        won: layered
            .ends
            .iter()
            .map(|(end, _)| end.outcome() == Some(Outcome::Win))
            .collect(),
        decided,
        firsts,
        roots,
        top,
        first_top,
    }))
}

/// `decided` renumbered in the order of the instructions that note them, so that the pass,
/// which streams through the instructions, reads them in order too; with where each class's
/// decisions begin ([`Compiled::firsts`]).
fn in_order(programs: &mut [Program], decided: Vec<Decided>) -> (Vec<Decided>, Vec<u32>) {
    let mut ordered = Vec::with_capacity(decided.len());
    let mut renumbered = vec![NONE; decided.len()];
    let mut firsts = Vec::with_capacity(programs.len() + 1);
    for program in programs {
        firsts.push(ordered.len() as u32);
        for op in &mut program.ops {
            if let Op::Local(d) = op {
                let new = &mut renumbered[*d as usize];
                if *new == NONE {
                    ordered.push(decided[*d as usize]);
                    *new = (ordered.len() - 1) as u32;
                }
                debug_assert!(*new >= *firsts.last().unwrap_or(&0), "one class's decision");
                *d = *new;
            }
        }
    }
    firsts.push(ordered.len() as u32);
    (ordered, firsts)
}

/// Layers of the reverse pass handed on together ([`Compiled::reach`]): one program's
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

impl Compiled {
    /// The decisions noted, by the index an [`Op::Local`] names.
    pub fn decided(&self) -> &[Decided] {
        &self.decided
    }

    /// How many layers of the top program [`Compiled::reach`] passes through from the highest
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
                    weights: &self.weights,
                    won: &self.won,
                    wins: 0.0,
                    here: &mut here,
                    same: (d < deepest).then_some(&mut below[..]),
                    lower: leaving
                        .and_then(|lane| lower[lane].last_mut())
                        .map(|v| &mut v[..]),
                    first: block.first,
                    decided: block.row(lanes.clone()),
                    open: Vec::new(),
                };
                for id in (0..top.len as usize).rev() {
                    let reach = push.here[id];
                    if reach != 0.0 {
                        push.expression(&top.ops, &mut (top.starts[id] as usize), reach);
                    }
                }
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
                    weights: &self.weights,
                    won: &self.won,
                    wins: 0.0,
                    here,
                    same: None,
                    lower: rest.last_mut().map(|v| &mut v[..]),
                    first: block.first,
                    decided: block.row(vec![(lane, class as u8)]),
                    open: Vec::new(),
                };
                for &id in program.order.iter().rev() {
                    let reach = push.here[id as usize];
                    if reach != 0.0 {
                        let (start, _) = program.spans[id as usize];
                        push.expression(&program.ops, &mut (start as usize), reach);
                    }
                }
                wins[lane] += push.wins;
            }
            met(block);
        }
        Ok(wins)
    }
}

/// One layer's positions, pushing their probabilities on.
struct Push<'p> {
    weights: &'p [f64],
    /// By finished game: whether it is won.
    won: &'p [bool],
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
    /// The sums an expression has open ([`Push::expression`]), reused.
    open: Vec<(u8, f64)>,
}

impl Push<'_> {
    /// The expression at `ops[*at..]`, reached with probability `reach`: streamed in one
    /// loop, the sums still open on a stack (`open`: each one's terms left and its
    /// probability), rather than a call per term.
    fn expression(&mut self, ops: &[Op], at: &mut usize, reach: f64) {
        debug_assert!(self.open.is_empty());
        let mut reach = reach;
        loop {
            let op = ops[*at];
            *at += 1;
            match op {
                Op::Sum { n } if n > 0 => {
                    self.open.push((n, reach));
                    reach *= self.term_weight(ops, at);
                    continue;
                }
                Op::Sum { .. } => {}
                // The decision's expression follows, reached as often.
                Op::Local(decided) => {
                    self.decided[(decided - self.first) as usize] += reach;
                    continue;
                }
                Op::Over { end, .. } => {
                    if self.won[end as usize] {
                        self.wins += reach;
                    }
                }
                Op::Here { id, .. } => self.here[id as usize] += reach,
                Op::Below { lower, same, .. } => {
                    if let Some(layer) = &mut self.same {
                        debug_assert_ne!(same, NONE);
                        layer[same as usize] += reach;
                    }
                    if let Some(class) = &mut self.lower {
                        class[lower as usize] += reach;
                    }
                }
                Op::Weight(_) => unreachable!("a weight only opens a term"),
            }
            // A term ended: the next term of the innermost sum with one left.
            loop {
                let Some((left, sum)) = self.open.last_mut() else {
                    return;
                };
                *left -= 1;
                if *left > 0 {
                    reach = *sum;
                    break;
                }
                self.open.pop();
            }
            reach *= self.term_weight(ops, at);
        }
    }

    /// The weight of the term at `ops[*at..]`: it opens with its weight, or is a read
    /// carrying it.
    #[inline]
    fn term_weight(&self, ops: &[Op], at: &mut usize) -> f64 {
        let w = match ops[*at] {
            Op::Weight(w) => {
                *at += 1;
                w
            }
            Op::Over { w, .. } | Op::Here { w, .. } | Op::Below { w, .. } => w,
            Op::Sum { .. } | Op::Local(_) => unreachable!("a weight opens a term"),
        };
        self.weights[usize::from(w)]
    }
}
