//! How much the opening decisions matter: the optimal value of each first choice (main
//! character, first recruitment target) at a starting stealth, averaged over the complication
//! rolls, read from the solver's table. A designer's view of the opening, built on optimal
//! play as [`crate::tune`] is built on the exact engine.

use crate::engine::Solver;
use crate::game::{Action, Chance, Character, State};

/// How much the opening decisions matter at one starting stealth: values of options,
/// averaged over the complication rolls (every value is an optimal win probability when that
/// option is taken and play is optimal afterwards).
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// Starting stealth.
    pub stealth: u8,
    /// `first_target[m][o]`: with main character `m`, the value of the first recruitment
    /// option `o` — 0 = stop at once, `1 + c` = recruit character `c` (`NAN` where `c` is `m`).
    pub first_target: [[f64; 7]; 6],
    /// `by_complication[m][c][t]`: with main character `m`, the value of recruiting `c` first
    /// when `c`'s complication is type `t`, averaged over the other complications.
    pub by_complication: [[[f64; 6]; 6]; 6],
    /// `best_main_share[m]`: the share of complication rolls for which `m` is the best main
    /// character (ties to the first).
    pub best_main_share: [f64; 6],
}

/// The values of the opening options at `stealth`, solving what the table lacks.
pub fn opening(solver: &Solver, stealth: u8) -> Opening {
    let rules = *solver.rules();
    let mut first_target = [[0.0; 7]; 6];
    let mut by_complication = [[[0.0; 6]; 6]; 6];
    let mut best_main_share = [0.0; 6];
    for (outcome, p) in Chance::Complications.outcomes() {
        let mut start = State::new(stealth);
        start.apply_outcome(&rules, outcome);
        let mut best: Option<(usize, f64)> = None;
        for main in Character::ALL {
            let mut after_main = start;
            after_main.apply_action(&rules, Action::Main(main));
            let v = solver.value(&after_main);
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((main.index(), v));
            }
            let row = &mut first_target[main.index()];
            row[0] += p * {
                let mut stop = after_main;
                stop.apply_action(&rules, Action::Stop);
                solver.value(&stop)
            };
            for c in Character::ALL.into_iter().filter(|c| *c != main) {
                let mut next = after_main;
                next.apply_action(&rules, Action::Recruit(c));
                let v = solver.value(&next);
                row[1 + c.index()] += p * v;
                let t = start.complication(c).expect("rolled").index();
                // Six values of `t`, each with probability 1/6: a conditional average.
                by_complication[main.index()][c.index()][t] += 6.0 * p * v;
            }
            first_target[main.index()][1 + main.index()] = f64::NAN;
        }
        if let Some((m, _)) = best {
            best_main_share[m] += p;
        }
    }
    Opening {
        stealth,
        first_target,
        by_complication,
        best_main_share,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::solve;
    use crate::rules::MAIN_TEXT;

    /// The opening's figures agree with each other and with the solve: a first option's value
    /// is the average of its values by the target's complication, no first option is worth
    /// more than its main character, and every roll has one best main character.
    #[test]
    fn the_opening_agrees_with_the_solve() {
        let solver = Solver::new(MAIN_TEXT);
        let solution = solve(&solver, &[3]).remove(0);
        let o = opening(&solver, 3);
        assert_eq!(o.stealth, 3);
        let shares: f64 = o.best_main_share.iter().sum();
        assert!((shares - 1.0).abs() < 1e-12, "{shares}");
        for main in 0..6 {
            for option in 0..7 {
                let v = o.first_target[main][option];
                if option == 1 + main {
                    assert!(v.is_nan());
                    continue;
                }
                assert!(v <= solution.by_main[main] + 1e-12, "{main} {option}");
                if option > 0 {
                    let by_type = o.by_complication[main][option - 1];
                    let mean = by_type.iter().sum::<f64>() / 6.0;
                    assert!((mean - v).abs() < 1e-12, "{main} {option}: {mean} {v}");
                }
            }
        }
    }
}
