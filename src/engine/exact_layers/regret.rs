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

use super::{Classes, Decided, Ids, Layered, NONE, Noted, Op, Program, classes};

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
        ids: (0..=top).map(|_| Ids::default()).collect(),
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
    let decided = in_order(
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
        roots,
        top,
        first_top,
    }))
}

/// `decided` renumbered in the order of the instructions that note them, so that the pass,
/// which streams through the instructions, reads them in order too.
fn in_order(programs: &mut [Program], decided: Vec<Decided>) -> Vec<Decided> {
    let mut ordered = Vec::with_capacity(decided.len());
    let mut renumbered = vec![NONE; decided.len()];
    for program in programs {
        for op in &mut program.ops {
            if let Op::Local(d) = op {
                let new = &mut renumbered[*d as usize];
                if *new == NONE {
                    ordered.push(decided[*d as usize]);
                    *new = (ordered.len() - 1) as u32;
                }
                *d = *new;
            }
        }
    }
    ordered
}

/// The decisions met in one layer, each with its probability summed over every instruction
/// that notes it, in the order first met.
struct Gathered {
    reach: Vec<f64>,
    met: Vec<u32>,
}

impl Gathered {
    fn new(decided: usize) -> Self {
        Gathered {
            reach: vec![0.0; decided],
            met: Vec::new(),
        }
    }

    #[inline]
    fn add(&mut self, decided: u32, reach: f64) {
        let sum = &mut self.reach[decided as usize];
        if *sum == 0.0 {
            self.met.push(decided);
        }
        *sum += reach;
    }

    /// Each decision met and its probability (once: reaches are positive), in the order first
    /// met, into `layer` (emptied first); emptied for the next layer.
    fn drain(&mut self, layer: &mut Vec<(u32, f64)>) {
        layer.clear();
        layer.extend((self.met.iter()).map(|&d| (d, std::mem::take(&mut self.reach[d as usize]))));
        self.met.clear();
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
    /// calling `met(lanes, layer)` once for each layer: `layer` holds the decisions met at the
    /// same distance below the starts of `lanes` (each lane with the stealth it meets them
    /// at), each as its index in [`Compiled::decided`] and the probability of meeting it
    /// there from each of those starts, in the order first met. A layer's decisions handed
    /// on together let the caller value them side by side. Returns each lane's probability
    /// of winning: the strategy's exact win probability, summed over the games it wins.
    pub fn reach(
        &self,
        stealths: &[u8],
        budget: &Budget<'_>,
        met: &mut impl FnMut(&[(usize, u8)], &[(u32, f64)]),
    ) -> Result<Vec<f64>, Halt> {
        let mut wins = vec![0.0; stealths.len()];
        let first_top = self.first_top;
        let lowest = usize::from(first_top);
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
        let mut gathered = Gathered::new(self.decided.len());
        let mut layer = Vec::new();
        let start = |roots: &[u32], reach: &mut [f64]| {
            for (&id, &p) in roots.iter().zip(&rolls) {
                reach[id as usize] += p;
            }
        };
        if let Some(highest) = stealths.iter().copied().filter(|&s| s >= first_top).max() {
            let top = &self.programs[usize::from(self.top)];
            let mut here = vec![0.0; top.len as usize];
            let mut below = vec![0.0; top.len as usize];
            start(&self.roots[usize::from(self.top)], &mut here);
            // Distance `d` below the start: stealth `S − d` of a start at `S`.
            let deepest = highest - first_top;
            for d in 0..=deepest {
                budget.check_cancel()?;
                // The start whose games leave the top program from this layer.
                let leaving = stealths
                    .iter()
                    .position(|&s| s >= first_top && s - first_top == d);
                let mut push = Push {
                    weights: &self.weights,
                    won: &self.won,
                    wins: 0.0,
                    here: &mut here,
                    same: (d < deepest).then_some(&mut below[..]),
                    lower: leaving
                        .and_then(|lane| lower[lane].last_mut())
                        .map(|v| &mut v[..]),
                    gathered: &mut gathered,
                    open: Vec::new(),
                };
                for id in (0..top.len as usize).rev() {
                    let reach = push.here[id];
                    if reach != 0.0 {
                        push.expression(&top.ops, &mut (top.starts[id] as usize), reach);
                    }
                }
                // The starts that read this layer, each at its own stealth.
                let lanes: Vec<(usize, u8)> = (stealths.iter().enumerate())
                    .filter(|&(_, &s)| s >= first_top + d)
                    .map(|(lane, &s)| (lane, s - d))
                    .collect();
                for &(lane, _) in &lanes {
                    wins[lane] += push.wins;
                }
                gathered.drain(&mut layer);
                met(&lanes, &layer);
                std::mem::swap(&mut here, &mut below);
                below.fill(0.0);
            }
        }
        for (lane, &stealth) in stealths.iter().enumerate() {
            let classes = &mut lower[lane];
            for class in (0..lowest).rev() {
                budget.check_cancel()?;
                let (rest, this) = classes.split_at_mut(class);
                let here = &mut this[0];
                if usize::from(stealth) == class {
                    start(&self.roots[class], here);
                }
                let program = &self.programs[class];
                let mut push = Push {
                    weights: &self.weights,
                    won: &self.won,
                    wins: 0.0,
                    here,
                    same: None,
                    lower: rest.last_mut().map(|v| &mut v[..]),
                    gathered: &mut gathered,
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
                gathered.drain(&mut layer);
                met(&[(lane, class as u8)], &layer);
            }
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
    gathered: &'p mut Gathered,
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
                    self.gathered.add(decided, reach);
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
