//! The entry points: one strategy's decomposition, or many strategies' sharing one solve.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use crate::par;
use crate::rules::Rules;
use crate::strategy::Strategy;

use super::super::budget::{Budget, Halt};
use super::super::solve::{Solver, solve_within};
use super::classes::CanonicalClasses;
use super::costliest::Costly;
use super::kinds::ByKind;
use super::layered::{RECORDED_LAYERS, RecordedPass, ReversePass, in_layers};
use crate::engine::exact::regret;

/// A strategy's decisions at one starting stealth.
#[derive(Clone, Debug, PartialEq)]
pub struct Decisions {
    /// Starting stealth.
    pub stealth: u8,
    /// The optimal win probability.
    pub optimal: f64,
    /// The strategy's exact win probability.
    pub exact: f64,
    /// Its regret by decision kind (summing to `optimal − exact`), and how often each kind
    /// arises and matters: the sums of the terms position by position, of which `top` lists
    /// the largest.
    pub by_kind: ByKind,
    /// The positions that cost most ([`TOP`](super::TOP) at most), costliest first.
    pub top: Vec<Costly>,
}

/// The regret decomposition of `strategy` at each of `stealths`, within `budget` (the solve
/// and the strategy's program each count their own positions against it), with the
/// costliest positions.
pub fn decisions<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
    budget: Budget<'_>,
) -> Result<Vec<Decisions>, Halt> {
    if stealths.is_empty() {
        return Ok(Vec::new());
    }
    // The optimal values do not depend on the strategy: side by side with its part.
    let (solved, prepared) = par::join(
        || Solved::new(rules, stealths, &budget),
        || prepare(rules, strategy, stealths, &budget),
    );
    solved?.finish(budget, prepared?)
}

/// Optimal play's values at some stealths, solved once and shared by the decompositions of
/// any number of strategies ([`Solved::decisions`]): a solve is most of the work of
/// decomposing a small strategy.
pub struct Solved {
    solver: Solver,
    stealths: Vec<u8>,
    values: Vec<f64>,
    /// The classes met and their options valued, held by one decomposition at a time (a
    /// decomposition that finds it held works on classes of its own).
    classes: Mutex<CanonicalClasses>,
}

impl Solved {
    /// Solves `rules` at each of `stealths`, within `budget`.
    pub fn new(rules: &Rules, stealths: &[u8], budget: &Budget<'_>) -> Result<Solved, Halt> {
        let solver = Solver::new(*rules);
        let values = solve_within(&solver, stealths, budget)?
            .iter()
            .map(|s| s.value)
            .collect();
        Ok(Solved {
            solver,
            stealths: stealths.to_vec(),
            values,
            classes: Mutex::new(CanonicalClasses::new(stealths)),
        })
    }

    /// [`decisions`] of `strategy` at the stealths solved.
    pub fn decisions<S: Strategy + ?Sized>(
        &self,
        strategy: &S,
        budget: Budget<'_>,
    ) -> Result<Vec<Decisions>, Halt> {
        if self.stealths.is_empty() {
            return Ok(Vec::new());
        }
        let rules = self.solver.rules();
        let prepared = prepare(rules, strategy, &self.stealths, &budget)?;
        self.finish(budget, prepared)
    }

    /// [`Solved::decisions`] with the `keep` costliest positions at each stealth listed
    /// instead of [`TOP`](super::TOP), or every decision reached with [`EVERY`](super::EVERY)
    /// (unsorted): where a search for rules of thumb looks.
    pub fn decisions_keeping<S: Strategy + ?Sized>(
        &self,
        strategy: &S,
        budget: Budget<'_>,
        keep: usize,
    ) -> Result<Vec<Decisions>, Halt> {
        if self.stealths.is_empty() {
            return Ok(Vec::new());
        }
        let rules = self.solver.rules();
        let prepared = prepare(rules, strategy, &self.stealths, &budget)?;
        self.finish_keeping(budget, prepared, keep)
    }

    /// The optimal win probability at each stealth solved.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The solver, for option values at any position.
    pub fn solver(&self) -> &Solver {
        &self.solver
    }

    /// The decomposition from optimal play's values and the strategy's reverse pass.
    fn finish(&self, budget: Budget<'_>, reach: ReversePass) -> Result<Vec<Decisions>, Halt> {
        self.finish_keeping(budget, reach, super::TOP)
    }

    /// [`Solved::finish`] listing the `keep` costliest positions.
    fn finish_keeping(
        &self,
        budget: Budget<'_>,
        reach: ReversePass,
        keep: usize,
    ) -> Result<Vec<Decisions>, Halt> {
        let (solver, stealths) = (&self.solver, &self.stealths[..]);
        // Never waiting for the shared classes: a thread of the pool waiting may be the one
        // holding them, further up its stack.
        let (mut held, mut own);
        let classes = match self.classes.try_lock() {
            Ok(guard) => {
                held = guard;
                &mut *held
            }
            Err(_) => {
                own = CanonicalClasses::new(stealths);
                &mut own
            }
        };
        let (found, wins) = in_layers(solver, classes, reach, stealths, &budget, keep)?;
        Ok(stealths
            .iter()
            .zip(found)
            .enumerate()
            .map(|(i, (&stealth, (by_kind, costliest)))| Decisions {
                stealth,
                optimal: self.values[i],
                exact: wins[i],
                by_kind,
                top: costliest.into_sorted(),
            })
            .collect())
    }
}

/// [`decisions`] of each of `strategies` at `stealths`, in their order, with one solve
/// shared by all. The solve and the strategies' own parts ([`prepare`]) run side by side, so
/// that no thread waits while the solve's last parts run; once the solve is done, the
/// strategies whose part is done are decomposed one at a time, each reading the classes
/// valued by those before it ([`CanonicalClasses`]) and sharing its own work out over the
/// pool. The parts start in the strategies' order (the costliest first balance best), each
/// within its share of `budget`'s positions; the results are each strategy's alone.
pub fn decisions_of_each(
    rules: &Rules,
    strategies: &[&dyn Strategy],
    stealths: &[u8],
    budget: Budget<'_>,
) -> Result<Vec<Vec<Decisions>>, Halt> {
    if stealths.is_empty() {
        return Ok(strategies.iter().map(|_| Vec::new()).collect());
    }
    // A solve that stops stops the strategies' parts too: nothing can be decomposed.
    let solve_stopped = AtomicBool::new(false);
    let cancel: Vec<&AtomicBool> = (budget.cancel.iter().copied())
        .chain([&solve_stopped])
        .collect();
    // Each part's share of the positions, so that those side by side stay within `budget`.
    let side_by_side = par::current_num_threads().clamp(1, strategies.len().max(1));
    let share = Budget {
        max_states: budget.max_states / side_by_side,
        cancel: &cancel,
    };
    let solved: OnceLock<Result<Solved, Halt>> = OnceLock::new();
    let found: Mutex<Vec<Option<DecompositionResult>>> =
        Mutex::new(strategies.iter().map(|_| None).collect());
    let record = |i: usize, result: DecompositionResult| lock(&found)[i] = Some(result);
    let finish = |i: usize, prepared: ReversePass| {
        record(
            i,
            match solved.get().expect("solved before it is read") {
                Ok(solved) => solved.finish(share, prepared),
                Err(halt) => Err(*halt),
            },
        );
    };
    // Parts done, in the order done, to be decomposed one at a time once the solve is, so that
    // each reads and extends the classes valued by those before it (`Solved::classes`);
    // whether one is being decomposed.
    let ready: Mutex<(VecDeque<(usize, ReversePass)>, bool)> = Mutex::default();
    // Hands `part` on (none: the solve is done), and decomposes it and those handed on
    // meanwhile, once the solve is done, unless another thread is at it: no thread waits for
    // another's decomposition. The solve is set before its thread hands nothing on, and read
    // under the same lock as the queue, so no part is left behind.
    let decompose = |part: Option<(usize, ReversePass)>| {
        {
            let mut ready = lock(&ready);
            ready.0.extend(part);
            if solved.get().is_none() || std::mem::replace(&mut ready.1, true) {
                return;
            }
        }
        loop {
            let next = {
                let mut ready = lock(&ready);
                let Some(next) = ready.0.pop_front() else {
                    ready.1 = false;
                    return;
                };
                next
            };
            finish(next.0, next.1);
        }
    };
    let (solved, record, decompose) = (&solved, &record, &decompose);
    let solve_stopped = &solve_stopped;
    par::scope_fifo(move |scope| {
        scope.spawn_fifo(move |_| {
            let result = Solved::new(rules, stealths, &budget);
            if result.is_err() {
                solve_stopped.store(true, Ordering::Relaxed);
            }
            let _ = solved.set(result);
            decompose(None);
        });
        for (i, &strategy) in strategies.iter().enumerate() {
            scope.spawn_fifo(move |_| match prepare(rules, strategy, stealths, &share) {
                Err(halt) => record(i, Err(halt)),
                Ok(prepared) => decompose(Some((i, prepared))),
            });
        }
    });
    if let Some(Err(halt)) = solved.get() {
        return Err(*halt);
    }
    let found = found.into_inner().unwrap_or_else(PoisonError::into_inner);
    found
        .into_iter()
        .map(|result| result.expect("every strategy decomposed"))
        .collect()
}

/// A strategy's decomposition at each stealth, or why it stopped.
type DecompositionResult = Result<Vec<Decisions>, Halt>;

/// `mutex`'s guard, poisoned or not (a panic elsewhere is reported by the scope).
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The strategy's part of a decomposition, before optimal play's values: its layered
/// program, compiled with every decision noted, and its reverse pass ([`ReversePass`]).
fn prepare<S: Strategy + ?Sized>(
    rules: &Rules,
    strategy: &S,
    stealths: &[u8],
    budget: &Budget<'_>,
) -> Result<ReversePass, Halt> {
    let compiled = regret::program(rules, strategy, stealths, budget)?;
    Ok(if compiled.top_layers(stealths) > RECORDED_LAYERS {
        ReversePass::Streamed(compiled, RECORDED_LAYERS)
    } else {
        ReversePass::Recorded(RecordedPass::of(compiled, stealths, budget)?)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::MAIN_TEXT;
    use crate::strategy::ReferenceStrategy;

    /// The reverse pass recorded in the strategy's part and the pass streamed by the
    /// decomposition itself (past [`RECORDED_LAYERS`]), a layer or a few at a time, give the
    /// same bits: figures, sums by kind, the costliest positions, and the win probabilities.
    #[test]
    fn a_recorded_pass_decomposes_as_the_streamed_one() {
        let rules = MAIN_TEXT;
        let stealths = [3, 7];
        let solved = Solved::new(&rules, &stealths, &Budget::UNLIMITED).expect("solved");
        let compile = || {
            regret::program(&rules, &ReferenceStrategy, &stealths, &Budget::UNLIMITED)
                .expect("within no limit")
        };
        let compiled = compile();
        assert!(compiled.top_layers(&stealths) <= RECORDED_LAYERS);
        let recorded = ReversePass::Recorded(
            RecordedPass::of(compiled, &stealths, &Budget::UNLIMITED).expect("no limit"),
        );
        let decompose = |reach: ReversePass| {
            let found = solved.finish(Budget::UNLIMITED, reach);
            // `Debug` writes each float as the shortest text that reads back as its bits.
            format!("{:?}", found.expect("no limit"))
        };
        let recorded = decompose(recorded);
        for rows in [1, 2, 3] {
            assert_eq!(
                decompose(ReversePass::Streamed(compile(), rows)),
                recorded,
                "{rows}"
            );
        }
        assert!(recorded.contains("first-aid") || recorded.contains("FirstAid"));
    }
}
