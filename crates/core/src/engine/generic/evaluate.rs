//! A strategy's exact figures for any game — its win probability, its losses by cause, how
//! many decisions and rolls a game takes — and, against a solved game, its regret by kind of
//! decision: each a replay of the strategy's one program with other end values and rewards.

use super::figures::{Figures, figures};
use super::late::{Late, LatePolicy};
use super::program::{CHANCE, END, Program, Rule};
use super::settle;
use super::solve::Optimum;
use super::{Stop, check_cancel};
use crate::engine::Budget;
use crate::games::{Game, Policy, options_of};
use crate::par::*;

/// Where a strategy's points go against optimal play.
#[derive(Clone, Debug, PartialEq)]
pub struct Regret {
    /// Optimal play's win probability from the start.
    pub optimal: f64,
    /// The points lost at each kind of decision ([`Game::kinds`]), in expectation: together
    /// they are `optimal − win`.
    pub by_kind: Vec<f64>,
    /// Decisions of each kind per game, in expectation.
    pub reach: Vec<f64>,
    /// Decisions per game, in expectation, whose options' optimal values differ by at least
    /// [`MEANINGFUL`]`[i]`: where the choice is real.
    pub meaningful: [f64; 2],
}

/// What makes a decision real: its options' optimal values differ by 1 point, or by 5.
pub const MEANINGFUL: [f64; 2] = [0.01, 0.05];

/// `policy`'s play of `game` compiled, refused if it may not end.
fn checked<G: Game>(
    program: Result<Program<G>, Stop>,
    game: &G,
    policy: &dyn Policy<G>,
    budget: Budget<'_>,
) -> Result<Program<G>, Stop> {
    let program = program?;
    check_cancel(&budget)?;
    ends_surely(&program, game, policy)?;
    Ok(program)
}

/// Whether `policy`'s play, compiled as `program`, ends for sure: from every position it
/// reaches an end can be reached (found from the ends backwards, as a fixed point); if not,
/// the strategy is refused. Play from a layer it never returns to in leaves it, and layers
/// never rise: only the positions of layers with a cycle are checked.
pub(super) fn ends_surely<G: Game>(
    program: &Program<G>,
    game: &G,
    policy: &dyn Policy<G>,
) -> Result<(), Stop> {
    if program.layers.iter().all(|(_, once)| *once) {
        return Ok(());
    }
    let mut ends = vec![true; program.len()];
    let cycles: Vec<u32> = (program.layers.iter())
        .filter(|(_, once)| !once)
        .flat_map(|(ids, _)| ids.clone())
        .collect();
    for &id in &cycles {
        ends[id as usize] = false;
    }
    loop {
        let mut changed = false;
        for &id in &cycles {
            if !ends[id as usize]
                && program
                    .terms(id)
                    .any(|(target, _)| target >= END || ends[target as usize])
            {
                ends[id as usize] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    match ends.iter().position(|&e| !e) {
        Some(id) => Err(Stop::Endless {
            strategy: policy.name().to_string(),
            position: format!("{:?}", program.position(game, id as u32)),
        }),
        None => Ok(()),
    }
}

/// The exact figures of `policy` playing `game`.
pub fn evaluate<G: Game>(
    game: &G,
    policy: &dyn Policy<G>,
    budget: Budget<'_>,
) -> Result<Figures, Stop> {
    Ok(evaluate_from(game, policy, &[game.start()], budget)?.remove(0))
}

/// The exact figures of `policy` playing `game` from each of `starts` (the starts of the
/// game under other settings of its layer, say), in their order: one program for them all,
/// so what their plays share is compiled and settled once.
pub fn evaluate_from<G: Game>(
    game: &G,
    policy: &dyn Policy<G>,
    starts: &[G::Pos],
    budget: Budget<'_>,
) -> Result<Vec<Figures>, Stop> {
    // The program's first start is the highest.
    let mut order: Vec<usize> = (0..starts.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(game.layer(&starts[i])));
    let sorted: Vec<G::Pos> = order.iter().map(|&i| starts[i]).collect();
    let settled = if G::ROLLS_LATE {
        let sorted: Vec<_> = sorted.into_iter().map(|pos| (pos, false)).collect();
        let late = Late { game, policy };
        policy_figures(&late, &LatePolicy(policy), &sorted, budget)?
    } else {
        policy_figures(game, policy, &sorted, budget)?
    };
    let mut by_start: Vec<Option<Figures>> = vec![None; starts.len()];
    for (&i, f) in order.iter().zip(settled) {
        by_start[i] = Some(f);
    }
    Ok(by_start
        .into_iter()
        .map(|f| f.expect("each start"))
        .collect())
}

/// The figures of `policy` playing `game` from each of `starts`, the highest first: its
/// program compiled, checked and settled.
fn policy_figures<G: Game>(
    game: &G,
    policy: &dyn Policy<G>,
    starts: &[G::Pos],
    budget: Budget<'_>,
) -> Result<Vec<Figures>, Stop> {
    let program = Program::compile_from(game, Rule::Follow(policy), starts, budget);
    let mut program = checked(program, game, policy, budget)?;
    program.forget_positions();
    Ok(figures(&program, game, policy.name(), None))
}

/// The exact figures of `policy` and where its points go against optimal play (`solved`).
pub fn regret<G: Game, O: Optimum<G> + ?Sized>(
    game: &G,
    policy: &dyn Policy<G>,
    solved: &O,
    budget: Budget<'_>,
) -> Result<(Figures, Regret), Stop> {
    let program = checked(
        Program::compile_decisions(game, policy, budget),
        game,
        policy,
        budget,
    )?;
    let p = &program;
    let figures = figures(p, game, policy.name(), None).remove(0);
    // At each decision the strategy reaches, the points its answer gives up in expectation.
    // And how far apart its options' values lie: each decision's options valued once.
    let (gap, spread): (Vec<f64>, Vec<f64>) = (0..p.len())
        .into_par_iter()
        .map(|id| {
            let pos = &p.position(game, id as u32);
            if p.kind_of(id as u32) == CHANCE {
                return (0.0, 0.0);
            }
            let values = solved.option_values(pos);
            let (worst, best) = values
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &(_, v)| {
                    (lo.min(v), hi.max(v))
                });
            let moves: Vec<G::Option> = options_of(game, pos).into_iter().map(|(m, _)| m).collect();
            let mut weights = vec![0.0; moves.len()];
            policy.weigh(game, pos, &moves, &mut weights);
            // Rounding can leave a best option a hair above itself in another sum: never below 0.
            let gap = values
                .iter()
                .zip(&weights)
                .map(|(&(_, v), &w)| w * (best - v).max(0.0))
                .sum();
            (gap, best - worst)
        })
        .unzip();
    // The points given up at each kind, then the decisions of each kind and the real ones:
    // figures that end at 0 whatever the end, each earned at the decisions it counts.
    let kinds = game.kinds().len();
    let none = |n: usize| vec![vec![0.0; 1 + game.causes().len()]; n];
    let by_kind = settle::settle_sums(p, None, &none(kinds), &|id, _, k| {
        let kind = p.kind_of(id);
        if kind != CHANCE && usize::from(kind) == k {
            gap[id as usize]
        } else {
            0.0
        }
    })
    .remove(0);
    let counted = settle::settle_sums(p, None, &none(kinds + 2), &|id, _, k| {
        let kind = p.kind_of(id);
        let counts = match k.checked_sub(kinds) {
            _ if kind == CHANCE => false,
            None => usize::from(kind) == k,
            Some(m) => spread[id as usize] >= MEANINGFUL[m],
        };
        f64::from(u8::from(counts))
    })
    .remove(0);
    let reach = counted[..kinds].to_vec();
    let meaningful = std::array::from_fn(|m| counted[kinds + m]);
    Ok((
        figures,
        Regret {
            meaningful,
            optimal: solved.start(),
            by_kind,
            reach,
        },
    ))
}
