//! The decomposition in layers: the strategy's layered program run backwards gives each
//! decision's probability of being reached at every stealth; each term is that probability
//! times the decision's shortfall, read from its canonical class.

use crate::par::*;

use crate::game::DecisionKind;

use super::super::budget::{Budget, Halt};
use super::super::solve::Solver;
use super::classes::{CanonicalClasses, ClassedDecisions};
use super::costliest::{Costliest, Found};
use super::kinds::ByKind;
use crate::engine::exact::layered::Decided;
use crate::engine::exact::regret::{self, Block};
use crate::engine::generic::evaluate::MEANINGFUL;

/// A strategy's reverse pass, recorded, or streamed by the decomposition itself where it has
/// more than [`RECORDED_LAYERS`] layers of the top program: the record grows with every layer
/// (8 bytes per decision per layer), the program does not.
pub(super) enum ReversePass {
    Recorded(RecordedPass),
    /// The program, and the layers of the top program it hands on at a time.
    Streamed(regret::RegretProgram, usize),
}

/// The most layers of the top program a recorded pass holds (a bundled strategy at 8, 10, 12
/// needs at most 11), and the layers a streamed pass hands on at a time.
pub(super) const RECORDED_LAYERS: usize = 16;

/// A strategy's decisions and how often its games reach each, recorded
/// ([`regret::RegretProgram::reach`]) before optimal play's values are read, so that the pass
/// — one thread's work — runs beside the solve and the other strategies' parts, and the
/// program is freed before the decomposition begins.
pub(super) struct RecordedPass {
    /// The decisions noted, by the index the blocks name.
    decided: Vec<Decided>,
    /// The pass's blocks, in its order: the top program's layers in one.
    blocks: Vec<Block>,
    /// The strategy's exact win probability from each start.
    wins: Vec<f64>,
}

impl RecordedPass {
    /// `compiled`'s reverse pass from each of `stealths`, recorded; the program freed.
    pub(super) fn of(
        compiled: regret::RegretProgram,
        stealths: &[u8],
        budget: &Budget<'_>,
    ) -> Result<RecordedPass, Halt> {
        let mut blocks = Vec::new();
        let wins = compiled.reach(stealths, budget, RECORDED_LAYERS, &mut |block| {
            blocks.push(block);
        })?;
        Ok(RecordedPass {
            decided: compiled.into_decided(),
            blocks,
            wins,
        })
    }
}

/// The decomposition at each of `stealths` from the strategy's reverse pass, with its exact
/// win probability at each stealth from the same pass.
pub(super) fn in_layers(
    solver: &Solver,
    classes: &mut CanonicalClasses,
    reach: ReversePass,
    stealths: &[u8],
    budget: &Budget<'_>,
    keep: usize,
) -> Result<(Found, Vec<f64>), Halt> {
    let mut found: Found = stealths
        .iter()
        .map(|_| (ByKind::default(), Costliest::new(keep)))
        .collect();
    match reach {
        ReversePass::Recorded(reached) => {
            let decided = &reached.decided[..];
            let mut classed = ClassedDecisions::new(solver, classes, decided.len());
            for block in &reached.blocks {
                budget.check_cancel()?;
                add_block(&mut classed, &mut found, decided, block);
            }
            Ok((found, reached.wins))
        }
        ReversePass::Streamed(compiled, rows) => {
            let decided = compiled.decided();
            let mut classed = ClassedDecisions::new(solver, classes, decided.len());
            let wins = compiled.reach(stealths, budget, rows, &mut |block| {
                add_block(&mut classed, &mut found, decided, &block);
            })?;
            Ok((found, wins))
        }
    }
}

/// Adds the terms of `block` to each start's sums, a batch of decisions at a time: valued
/// first ([`ClassedDecisions::prepare`]), then each start's terms summed on a thread of its
/// own. The terms are summed row by row, decision by decision, and the rows' sums added to the
/// start's in the pass's order: the same bits whatever the thread count, and however the
/// pass's layers are split into blocks.
fn add_block(
    classed: &mut ClassedDecisions<'_>,
    found: &mut Found,
    decided: &[Decided],
    block: &Block,
) {
    // By lane: the rows it reads, each with the stealth it meets them at.
    let rows: Vec<Vec<(usize, u8)>> = (0..found.len())
        .map(|lane| {
            (block.lanes.iter().enumerate())
                .filter_map(|(k, lanes)| {
                    let &(_, stealth) = lanes.iter().find(|&&(l, _)| l == lane)?;
                    Some((k, stealth))
                })
                .collect()
        })
        .collect();
    // By lane, by row it reads: the row's terms summed.
    let mut sums: Vec<Vec<ByKind>> = (rows.iter())
        .map(|rows| vec![ByKind::default(); rows.len()])
        .collect();
    for from in (0..block.width).step_by(BATCH) {
        let to = (from + BATCH).min(block.width);
        classed.prepare(decided, block, from..to);
        let classed = &*classed;
        (found.par_iter_mut().zip(&rows).zip(&mut sums))
            .filter(|((_, rows), _)| !rows.is_empty())
            .for_each(|(((_, costliest), rows), sums)| {
                add_terms(block, rows, decided, classed, sums, costliest);
            });
    }
    for ((by_kind, _), sums) in found.iter_mut().zip(&sums) {
        for sum in sums {
            by_kind.add(sum);
        }
    }
}

/// Adds the batch's terms, valued already ([`ClassedDecisions::prepare`]), to one start's
/// `sums`, one per row of `block` it reads (`rows`, each with the stealth it meets the row
/// at); keeps the costliest.
fn add_terms(
    block: &Block,
    rows: &[(usize, u8)],
    decided: &[Decided],
    classed: &ClassedDecisions<'_>,
    sums: &mut [ByKind],
    costliest: &mut Costliest,
) {
    // The term a position must reach to be listed, changed only by listing one.
    let mut bar = costliest.bar();
    for &d in &classed.scratch.met {
        let i = (d - block.first) as usize;
        let decided = &decided[d as usize];
        let kind = DecisionKind::of(decided.decision) as usize;
        for &roll in classed.rolls.of(d) {
            for (sum, &(k, stealth)) in sums.iter_mut().zip(rows) {
                let reach = block.reach[k * block.width + i];
                if reach == 0.0 {
                    continue;
                }
                let r = reach * roll.p;
                let shortfall = classed.classes.shortfall(roll, stealth);
                sum.regret[kind] += r * shortfall.regret;
                sum.arises[kind] += r;
                sum.matters[kind] += r * f64::from(u8::from(shortfall.matters));
                for (m, least) in sum.meaningful.iter_mut().zip(MEANINGFUL) {
                    *m += r * f64::from(u8::from(shortfall.spread >= least));
                }
                if r * shortfall.regret >= bar {
                    let mut state = decided.state.with_stealth(stealth);
                    if let Some(second) = roll.second {
                        state = state.with_second_side_type(second);
                    }
                    let (decision, choice) = (decided.decision, decided.choice);
                    costliest.add_valued(classed.solver, &state, decision, choice, r);
                    bar = costliest.bar();
                }
            }
        }
    }
}

/// Decisions of a block prepared at a time ([`ClassedDecisions::prepare`]) before their terms are
/// summed: their classes' values are still in cache when summed, and what is worked out side
/// by side is held a batch at a time.
const BATCH: usize = 1 << 13;
