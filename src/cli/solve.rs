//! `raven solve`: the best win probability any strategy can reach, the best per main
//! character, and how far given strategies fall short of it (regret).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;

use crate::engine::Expectation;
use crate::engine::solve::solve_with_figures_beside;
use crate::engine::{Budget, Halt, Keep, Solver, exact_within};
use crate::error::{Error, Result};
use crate::game::Character;
use crate::opening::{Opening, opening};
use crate::report::{Method, Summary, table};
use crate::rules::Rules;
use crate::strategy::{OPTIMAL, REFERENCE, playbook};

use super::args::{ExactEngineArgs, RulesArgs, load_strategies, stealth_list};
use super::interrupt;
use super::output::Output;
use super::progress::Progress;

/// Arguments of `raven solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub exact: ExactEngineArgs,
    /// Report the regret of these strategies: comma-separated (`--strategy a,b`) or the
    /// option repeated (`--strategy a --strategy b`); the reference strategy is always
    /// reported. Default: every bundled strategy.
    #[arg(long = "strategy", value_name = "NAME|FILE", value_delimiter = ',')]
    pub strategies: Vec<String>,
    /// Print the value of every opening option: main character, first recruitment target
    /// (and per complication of that target).
    #[arg(long)]
    pub explain: bool,
    /// Write tidy CSV here (`-` for standard output instead of the report).
    #[arg(long, value_name = "FILE|-")]
    pub out: Option<PathBuf>,
}

/// Win probability with 12 significant digits.
fn p12(x: f64) -> String {
    format!("{x:.12}")
}

/// Runs `raven solve`.
pub fn run(args: &SolveArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    // The reference strategy is always reported; naming it (or any strategy) again adds
    // nothing.
    let mut names = vec![REFERENCE.to_string()];
    let asked = if args.strategies.is_empty() {
        playbook()
    } else {
        args.strategies.clone()
    };
    for name in asked {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let strategies = load_strategies(&names)?;
    // Before the solve, which can take minutes: an unusable path fails now.
    let output = Output::open(args.out.as_deref())?;

    let pool = args.exact.pool()?;
    let stealths = stealth_list(&args.exact.stealth);
    let progress = Progress::spinner(
        &format!(
            "solve: optimal play and {} strategies under {rules}, stealth {stealths}",
            strategies.len()
        ),
        args.exact.quiet,
    );

    // The solve and the strategies' exact evaluations are independent: run them side by side;
    // the first to fail (over budget) stops the others.
    let started = Instant::now();
    let failed = AtomicBool::new(false);
    let cancel = [interrupt::flag(), &failed];
    let budget = args.exact.budget(&cancel);
    // Both engines poll the flag: a signal lets them unwind and remove the reserved file.
    let polled = interrupt::polled();
    // The strategies' evaluations run on one thread once the finale's parts, which use every
    // thread, are done (`solve_with_figures_beside`).
    let (optimal_play, exact_runs) = pool.install(|| {
        solve_and_explain(
            rules,
            &args.exact.stealth,
            args.explain,
            budget,
            started,
            || {
                strategies
                    .par_iter()
                    .map(|s| {
                        let run = exact_within(&rules, s.as_ref(), &args.exact.stealth, budget);
                        raise_on_error(&failed, run)
                    })
                    .collect::<Vec<_>>()
            },
        )
    });
    let optimal_play = raise_on_error(&failed, optimal_play);
    // None: the solve stopped before the evaluations began; its error is reported below.
    let exact_runs = exact_runs.unwrap_or_default();
    progress.finish();
    drop(polled);
    // The cause first: a job over budget stops its siblings, which then say "cancelled".
    if let Err(Halt::TooLarge(e)) = &optimal_play {
        return Err(Error::Runtime(e.to_string()));
    }
    for (strategy, run) in strategies.iter().zip(&exact_runs) {
        if let Err(Halt::TooLarge(e)) = run {
            return Err(Error::Runtime(format!("{}: {e}", strategy.name())));
        }
    }
    let OptimalPlay {
        solutions,
        solve_seconds,
        states,
        openings,
        optimal,
    } = optimal_play?;
    for (solution, e) in solutions.iter().zip(&optimal) {
        if (solution.value - e.win).abs() > 1e-9 {
            return Err(Error::Runtime(format!(
                "internal error: the optimal policy plays to {} but the solved value is {} \
                 at stealth {}",
                e.win, solution.value, solution.stealth
            )));
        }
    }
    let mut rows: Vec<Summary> = args
        .exact
        .stealth
        .iter()
        .zip(&optimal)
        .map(|(&s, e)| Summary::from_expectation(OPTIMAL, rules, s, Method::Optimal, *e))
        .collect();
    let mut exact_wins = Vec::new();
    for (strategy, run) in strategies.iter().zip(exact_runs) {
        let run = run?;
        exact_wins.push(run.expectations.iter().map(|e| e.win).collect::<Vec<_>>());
        rows.extend(
            args.exact
                .stealth
                .iter()
                .zip(&run.expectations)
                .map(|(&s, e)| {
                    Summary::from_expectation(strategy.name(), rules, s, Method::Exact, *e)
                }),
        );
    }
    let total_seconds = started.elapsed().as_secs_f64();

    let mut text = String::new();
    let inputs = [
        format!("rules {rules}"),
        format!("stealth {stealths}"),
        "every outcome, no sampling".to_string(),
    ];
    if output.is_stdout() {
        // Standard output carries the CSV; the explanation, which has no CSV form, goes to
        // standard error rather than nowhere.
        if args.explain {
            let mut w = table::inputs_line("solve --explain", &inputs);
            for (solution, o) in solutions.iter().zip(&openings) {
                let _ = writeln!(w, "\nstealth {}:", solution.stealth);
                explain(&mut w, o);
            }
            eprint!("{w}");
        }
    } else {
        let w = &mut text;
        let _ = writeln!(w, "{}", table::inputs_line("solve", &inputs));
        let _ = writeln!(
            w,
            "{states} positions solved in {solve_seconds:.1} s ({total_seconds:.1} s in all)"
        );
        for (i, solution) in solutions.iter().enumerate() {
            let _ = writeln!(
                w,
                "\nstealth {}: optimal P(win) = {}",
                solution.stealth,
                p12(solution.value)
            );
            let _ = writeln!(w, "  best with a fixed main character:");
            for c in Character::ALL {
                let _ = writeln!(
                    w,
                    "    {:<22} {}",
                    c.to_string(),
                    p12(solution.by_main[c.index()])
                );
            }
            let _ = writeln!(w, "  regret (optimal − exact):");
            for (strategy, wins) in strategies.iter().zip(&exact_wins) {
                let _ = writeln!(
                    w,
                    "    {:<22} exact {}  regret {}",
                    strategy.name(),
                    p12(wins[i]),
                    p12(solution.value - wins[i])
                );
            }
            if let Some(o) = openings.get(i) {
                explain(w, o);
            }
        }
        let _ = write!(w, "\n{}", table::summaries(&rows));
    }
    output.write(&text, rows.iter().map(crate::report::csv::summary_row))
}

/// Optimal play at each stealth: the solved values and what they are made of.
struct OptimalPlay {
    solutions: Vec<crate::engine::solve::Solution>,
    solve_seconds: f64,
    states: usize,
    /// With `--explain` only.
    openings: Vec<Opening>,
    /// The optimal policy's other figures (losses by cause, stealth left…).
    optimal: Vec<Expectation>,
}

/// Raises `failed` if `result` is an error, so that the sibling jobs stop too.
fn raise_on_error<T>(failed: &AtomicBool, result: Result<T, Halt>) -> Result<T, Halt> {
    if result.is_err() {
        failed.store(true, Ordering::Relaxed);
    }
    result
}

/// Solves, explains the openings if asked, and evaluates the optimal policy's figures (its
/// win probability must reproduce the solved value; checked by the caller); and runs
/// `beside` beside the solve ([`solve_with_figures_beside`]; `None` if the solve stopped
/// first).
fn solve_and_explain<R: Send>(
    rules: Rules,
    stealths: &[u8],
    explain: bool,
    budget: Budget<'_>,
    started: Instant,
    beside: impl FnOnce() -> R + Send,
) -> (Result<OptimalPlay, Halt>, Option<R>) {
    // The openings are read from the table afterwards; without them, only the values.
    let solver = Solver::keeping(
        rules,
        if explain {
            Keep::Everything
        } else {
            Keep::PartBoundaries
        },
    );
    let (solved, beside) = solve_with_figures_beside(&solver, stealths, &budget, beside);
    let play = solved.map(|solved| {
        let (solutions, optimal) = solved.into_iter().unzip();
        let solve_seconds = started.elapsed().as_secs_f64();
        let states = solver.states();
        let openings = if explain {
            stealths.iter().map(|&s| opening(&solver, s)).collect()
        } else {
            Vec::new()
        };
        OptimalPlay {
            solutions,
            solve_seconds,
            states,
            openings,
            optimal,
        }
    });
    (play, beside)
}

/// The opening options and their values. Every cell is an optimal win probability: that of
/// taking the row's option, then playing optimally, as a percentage with two decimals (the
/// options differ in the first or second decimal; the CSV carries every digit).
fn explain(w: &mut String, o: &Opening) {
    let _ = writeln!(
        w,
        "  main character: share of complication rolls for which it is the best choice"
    );
    for c in Character::ALL {
        let _ = writeln!(
            w,
            "    {:<22} {:>6.2}%",
            c.to_string(),
            100.0 * o.best_main_share[c.index()]
        );
    }
    let _ = writeln!(
        w,
        "  win probability with this main character (rows) and this first recruitment (columns),\n  \
         optimal play after, averaged over the complication rolls:"
    );
    let _ = write!(w, "    {:<12} {:>11}", "main", "stop");
    for c in Character::ALL {
        let _ = write!(w, " {:>11}", c.speciality());
    }
    let _ = writeln!(w);
    for m in Character::ALL {
        let _ = write!(w, "    {:<12}", m.speciality());
        for v in o.first_target[m.index()] {
            if v.is_nan() {
                let _ = write!(w, " {:>11}", "—");
            } else {
                let _ = write!(w, " {:>10.2}%", 100.0 * v);
            }
        }
        let _ = writeln!(w);
    }
    for m in Character::ALL {
        let _ = writeln!(
            w,
            "  main {}: win probability, first recruit (rows) by its complication (columns):",
            m.speciality()
        );
        let _ = write!(w, "    {:<12}", "target");
        for t in Character::ALL {
            let _ = write!(w, " {:>12}", t.complication());
        }
        let _ = writeln!(w);
        for c in Character::ALL.into_iter().filter(|c| *c != m) {
            let _ = write!(w, "    {:<12}", c.speciality());
            for v in o.by_complication[m.index()][c.index()] {
                let _ = write!(w, " {:>11.2}%", 100.0 * v);
            }
            let _ = writeln!(w);
        }
    }
}
