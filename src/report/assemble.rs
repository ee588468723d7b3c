//! What `raven report` computes and how the pieces fit: which engine runs produce which
//! figures, and how they become a [`Balance`] and comparison rows.
//!
//! This is the one module of `report` that drives engines: the report is a fixed recipe of
//! many runs (exact evaluations, solves, Monte Carlo, paired comparisons), and keeping the
//! recipe beside the writers that format its results, rather than in the command layer, lets
//! a test or another front end build the same report. The command layer supplies the thread
//! pool, the progress display and the cancellation flag.
//!
//! The work is a list of independent jobs played in parallel on the rayon pool; every job is
//! deterministic on its own (fixed seeds, fixed summation order), so the result is identical
//! whatever the scheduling. Each job's result is filed under the job that produced it
//! ([`Results`]), never picked out by its position in the list.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::engine::OptimalStrategy;
use crate::engine::decisions::{Decisions, decisions};
use crate::engine::montecarlo::{Job, Tally, simulate};
use crate::engine::paired::{PairedJob, simulate_paired};
use crate::engine::solve::{Solver, solve_with_figures, solve_within};
use crate::engine::{Budget, Halt, exact_within};
use crate::error::{Error, Result};
use crate::rules::{CLARIFIED, MAIN_TEXT, Rules};
use crate::strategy::{OPTIMAL, REFERENCE, Strategy, playbook, resolve};

use super::balance::{Balance, VariantRow};
use super::comparison::{CompareRow, rows as compare_rows};
use super::decisions::Decomposed;
use super::{Expectation, Method, Summary};

/// The most positions one exact evaluation may memoise (about 7 GiB; every bundled strategy
/// needs less than 40 M over stealth 0..=16). A strategy that needs more is reported from
/// Monte Carlo only (the report says so).
pub const STATE_LIMIT: usize = 50_000_000;

/// Bundled strategies whose regret decomposition the report leaves out: each alone would
/// add most of a minute to a report of about one (measured with `raven decisions --stealth
/// 10`: `cautious` 54 s and 0.9 GB, `medic-main` 50 s and 1.4 GB, `reckless` 132 s and
/// 1.3 GB; every other bundled strategy 1–17 s). `raven decisions --strategy NAME` gives
/// theirs.
pub const DECISIONS_LEFT_OUT: [&str; 3] = ["cautious", "medic-main", "reckless"];

/// The confidence level of every interval in the report (fixed so that reports compare).
const LEVEL: f64 = 0.95;

/// What to compute.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Monte Carlo games per (strategy, rules, stealth); optimal play gets a tenth of them
    /// (its table lookups are slower).
    pub games: u64,
    /// Seed of every Monte Carlo run.
    pub seed: u64,
    /// Win rates cover starting stealth 0..=`max_stealth`.
    pub max_stealth: u8,
    /// Headline stealths (rule variants, loss causes, comparisons), sorted, no repeats.
    pub headline: Vec<u8>,
    /// The command line that reproduces the report (quoted in its README).
    pub command: String,
}

/// Shows how far the work has got; the command layer draws it (or not).
pub trait Progress: Sync {
    /// A new stage of `total` units of work begins.
    fn stage(&self, label: &str, total: u64);
    /// `units` more units are done (called from any worker thread).
    fn advance(&self, units: u64);
    /// The current stage is over.
    fn finish(&self);
}

/// Everything the report's files are written from.
pub struct Report {
    /// Win rates, rule variants and what the README says about them.
    pub balance: Balance,
    /// `strategy-comparison.csv`.
    pub comparisons: Vec<CompareRow>,
}

/// One piece of stage-1 work.
enum Task {
    /// Exact evaluation of a strategy (index into the report's strategies).
    Exact { strategy: usize, rules: Rules },
    /// The optimal policy's figures at every stealth, keeping its table for Monte Carlo.
    Solve { rules: Rules },
    /// Optimal win probabilities only, at the headline stealths (a rule variant).
    Values { rules: Rules },
    /// The regret decomposition of a strategy under the default rules, at every headline
    /// stealth (`headline`) or the middle one.
    Decisions { strategy: usize, headline: bool },
}

/// What a task produced, labelled with the task.
enum Done {
    /// `values` is `None` over [`STATE_LIMIT`].
    Exact {
        strategy: usize,
        rules: Rules,
        values: Option<Vec<Expectation>>,
    },
    Solved {
        rules: Rules,
        solver: Box<Solver>,
        figures: Vec<Expectation>,
    },
    Values {
        rules: Rules,
        values: Vec<f64>,
    },
    /// `None` over [`STATE_LIMIT`].
    Decisions {
        strategy: usize,
        result: Option<Vec<Decisions>>,
    },
}

/// Stage-1 results, filed by what they are results of.
#[derive(Default)]
struct Results {
    exact: HashMap<(usize, Rules), Option<Vec<Expectation>>>,
    solved: HashMap<Rules, (Box<Solver>, Vec<Expectation>)>,
    values: HashMap<Rules, Vec<f64>>,
    decisions: HashMap<usize, Option<Vec<Decisions>>>,
}

impl Results {
    fn file(&mut self, done: Done) {
        match done {
            Done::Exact {
                strategy,
                rules,
                values,
            } => {
                self.exact.insert((strategy, rules), values);
            }
            Done::Solved {
                rules,
                solver,
                figures,
            } => {
                self.solved.insert(rules, (solver, figures));
            }
            Done::Values { rules, values } => {
                self.values.insert(rules, values);
            }
            Done::Decisions { strategy, result } => {
                self.decisions.insert(strategy, result);
            }
        }
    }

    /// A missing result is a bug in the task list, not a user error.
    fn missing(what: String) -> Error {
        Error::Runtime(format!("internal error: the report has no {what}"))
    }
}

/// Computes the report.
pub fn assemble(
    plan: &Plan,
    pool: &rayon::ThreadPool,
    progress: &dyn Progress,
    cancel: &AtomicBool,
) -> Result<Report> {
    let names = playbook();
    let strategies: Vec<Box<dyn Strategy>> = names
        .iter()
        .map(|name| {
            resolve(name).map_err(|e| Error::Runtime(format!("bundled strategy {name}: {e}")))
        })
        .collect::<Result<_>>()?;
    let reference = names
        .iter()
        .position(|n| n == REFERENCE)
        .expect("the playbook starts with the reference");
    let presets = [MAIN_TEXT, CLARIFIED];
    let all: Vec<u8> = (0..=plan.max_stealth).collect();
    let headline = &plan.headline;
    let variants: Vec<(String, Rules)> = MAIN_TEXT
        .variants()
        .into_iter()
        .map(|(key, value, rules)| (format!("{key}={value}"), rules))
        .collect();
    // Each of the game's numbers one step either way from the printed game (main-text).
    let levers: Vec<(String, Rules)> = MAIN_TEXT
        .design
        .levers()
        .into_iter()
        .map(|(key, value, design)| {
            let rules = Rules {
                design,
                ..MAIN_TEXT
            };
            (format!("{key}={value}"), rules)
        })
        .collect();

    // Stage 1: exact evaluations and solves, the heavy part, in parallel.
    let mut tasks = Vec::new();
    for rules in presets {
        tasks.push(Task::Solve { rules });
        for strategy in 0..strategies.len() {
            tasks.push(Task::Exact { strategy, rules });
        }
    }
    for (i, s) in strategies.iter().enumerate() {
        if !DECISIONS_LEFT_OUT.contains(&s.name()) {
            tasks.push(Task::Decisions {
                strategy: i,
                headline: i == reference,
            });
        }
    }
    for (_, rules) in variants.iter().chain(&levers) {
        tasks.push(Task::Values { rules: *rules });
        tasks.push(Task::Exact {
            strategy: reference,
            rules: *rules,
        });
    }
    progress.stage("exact & optimal", tasks.len() as u64);
    // Longest first, each worker taking the next task as it frees up, so that no long task
    // starts last while the other cores idle.
    tasks.sort_by_key(|t| std::cmp::Reverse(t.cost(&strategies)));
    let done: Vec<Done> = pool.install(|| {
        tasks
            .iter()
            .par_bridge()
            .map(|task| {
                let result = task.run(&strategies, &all, headline, cancel);
                progress.advance(1);
                result
            })
            .collect::<Result<_>>()
    })?;
    progress.finish();
    check(cancel)?;
    let mut results = Results::default();
    for d in done {
        results.file(d);
    }

    // The exact (and optimal) rows of every strategy under each preset, optimal last.
    let mut exact_rows: Vec<(String, Rules, Method, Option<Vec<Expectation>>)> = Vec::new();
    let mut players: Vec<(Rules, OptimalStrategy)> = Vec::new();
    for rules in presets {
        for (i, s) in strategies.iter().enumerate() {
            let values = results
                .exact
                .remove(&(i, rules))
                .ok_or_else(|| Results::missing(format!("exact run of {}", s.name())))?;
            exact_rows.push((s.name().to_string(), rules, Method::Exact, values));
        }
        let (solver, figures) = results
            .solved
            .remove(&rules)
            .ok_or_else(|| Results::missing(format!("solve under {rules}")))?;
        players.push((rules, OptimalStrategy::from_solver(*solver)));
        exact_rows.push((OPTIMAL.into(), rules, Method::Optimal, Some(figures)));
    }

    // Stage 2: Monte Carlo of every strategy (optimal from its solved table) and comparisons.
    let optimal_games = (plan.games / 10).max(1);
    let total = (presets.len() * all.len()) as u64
        * (plan.games * strategies.len() as u64 + optimal_games)
        + (presets.len() * headline.len()) as u64 * plan.games * strategies.len() as u64;
    progress.stage("monte carlo", total);
    let advance = |n| progress.advance(n);
    let mut win_rates = Vec::new();
    for (name, rules, method, values) in &exact_rows {
        let (strategy, games): (&dyn Strategy, u64) = if name == OPTIMAL {
            let player = &players
                .iter()
                .find(|(r, _)| r == rules)
                .expect("solved above")
                .1;
            (player, optimal_games)
        } else {
            let s = strategies
                .iter()
                .find(|s| s.name() == name)
                .expect("listed");
            (s.as_ref(), plan.games)
        };
        for (i, &stealth) in all.iter().enumerate() {
            if let Some(values) = values {
                win_rates.push(Summary::from_expectation(
                    name, *rules, stealth, *method, values[i],
                ));
            }
            let job = Job {
                rules,
                strategy,
                stealth,
                games,
                seed: plan.seed,
            };
            let tally: Tally = pool.install(|| simulate(&job, &advance, cancel))?;
            win_rates.push(Summary::from_tally(
                name, *rules, stealth, tally, plan.seed, LEVEL,
            ));
        }
    }
    let mut comparisons: Vec<CompareRow> = Vec::new();
    let played: Vec<&dyn Strategy> = strategies.iter().map(|s| s.as_ref()).collect();
    let played_names: Vec<String> = played.iter().map(|s| s.name().to_string()).collect();
    for rules in presets {
        for &stealth in headline {
            let job = PairedJob {
                rules: &rules,
                strategies: &played,
                stealth,
                games: plan.games,
                seed: plan.seed,
            };
            let per = played.len() as u64;
            let tally = pool.install(|| simulate_paired(&job, &|n| advance(n * per), cancel))?;
            comparisons.extend(compare_rows(
                &played_names,
                rules,
                stealth,
                &tally,
                plan.seed,
                LEVEL,
            ));
        }
    }
    progress.finish();

    // Rule variants (each flag alone) and levers (each number one step), against the
    // default reading of the printed game.
    let variants = variant_rows(
        &win_rates,
        headline,
        &departures(&mut results, reference, &variants)?,
    );
    let levers = variant_rows(
        &win_rates,
        headline,
        &departures(&mut results, reference, &levers)?,
    );

    // The decompositions, in report order; one over the budget is left out like the costly.
    let mut decomposed = Vec::new();
    let mut left_out: Vec<String> = Vec::new();
    for (i, s) in strategies.iter().enumerate() {
        match results.decisions.remove(&i) {
            Some(Some(results)) => decomposed.push(Decomposed {
                strategy: s.name().to_string(),
                rules: MAIN_TEXT,
                results,
            }),
            Some(None) | None => left_out.push(s.name().to_string()),
        }
    }

    check(cancel)?;
    Ok(Report {
        balance: Balance {
            exact_budget: STATE_LIMIT,
            command: plan.command.clone(),
            presets: presets.to_vec(),
            strategies: names,
            headline: headline.clone(),
            win_rates,
            variants,
            levers,
            decisions: decomposed,
            decisions_left_out: left_out,
        },
        comparisons,
    })
}

/// A departure from the default reading: its label (`key=value`), its rules, and the
/// reference strategy's and optimal play's win probabilities at the headline stealths.
type Departure = (String, Rules, Vec<f64>, Vec<f64>);

/// For each departure from the default `(label, rules)`: the reference strategy's and optimal
/// play's win probabilities at the headline stealths, taken from the stage-1 results.
fn departures(
    results: &mut Results,
    reference: usize,
    list: &[(String, Rules)],
) -> Result<Vec<Departure>> {
    let mut out = Vec::new();
    for (label, rules) in list {
        let optimal = results
            .values
            .remove(rules)
            .ok_or_else(|| Results::missing(format!("solve under {label}")))?;
        let Some(exact) = results
            .exact
            .remove(&(reference, *rules))
            .ok_or_else(|| Results::missing(format!("exact run under {label}")))?
        else {
            return Err(Error::Runtime(
                "the reference strategy's exact evaluation exceeded its budget".into(),
            ));
        };
        let exact: Vec<f64> = exact.iter().map(|e| e.win).collect();
        out.push((label.clone(), *rules, exact, optimal));
    }
    Ok(out)
}

/// The rows of `rule-variants.csv` (and `levers.csv`): for each headline stealth the default
/// reading (reference and optimal), then each departure's win probabilities at every headline
/// stealth, with its effect against the default.
fn variant_rows(win_rates: &[Summary], headline: &[u8], variants: &[Departure]) -> Vec<VariantRow> {
    let default_of = |name: &str, stealth: u8| {
        win_rates
            .iter()
            .find(|s| {
                s.strategy == name
                    && s.rules == MAIN_TEXT
                    && s.stealth == stealth
                    && s.method != Method::MonteCarlo
            })
            .map_or(f64::NAN, |s| s.win_rate)
    };
    let row = |variant: &str, rules: Rules, stealth, strategy: &str, win_rate: f64| {
        let base = default_of(strategy, stealth);
        VariantRow {
            variant: variant.to_string(),
            rules: rules.to_string(),
            stealth,
            strategy: strategy.to_string(),
            method: if strategy == OPTIMAL {
                Method::Optimal
            } else {
                Method::Exact
            }
            .to_string(),
            win_rate,
            default_win_rate: base,
            effect: win_rate - base,
            raven_version: env!("CARGO_PKG_VERSION"),
        }
    };
    let mut rows = Vec::new();
    for &stealth in headline {
        for strategy in [REFERENCE, OPTIMAL] {
            let base = default_of(strategy, stealth);
            rows.push(row("default", MAIN_TEXT, stealth, strategy, base));
        }
    }
    for (variant, rules, reference, optimal) in variants {
        for (i, &stealth) in headline.iter().enumerate() {
            rows.push(row(variant, *rules, stealth, REFERENCE, reference[i]));
            rows.push(row(variant, *rules, stealth, OPTIMAL, optimal[i]));
        }
    }
    rows
}

impl Task {
    /// Runs one stage-1 task; each engine polls `cancel`.
    fn run(
        &self,
        strategies: &[Box<dyn Strategy>],
        all: &[u8],
        headline: &[u8],
        cancel: &AtomicBool,
    ) -> Result<Done> {
        let cancel = [cancel];
        let unlimited = Budget {
            max_states: usize::MAX,
            cancel: &cancel,
        };
        match *self {
            Task::Exact { strategy, rules } => {
                let stealths = if is_preset(rules) { all } else { headline };
                let s = strategies[strategy].as_ref();
                let budget = Budget {
                    max_states: STATE_LIMIT,
                    cancel: &cancel,
                };
                let values = match exact_within(&rules, s, stealths, budget) {
                    Ok(run) => Some(run.expectations),
                    // Over the budget: the report says so and shows Monte Carlo alone.
                    Err(Halt::TooLarge(_)) => None,
                    Err(halt) => return Err(halt.into()),
                };
                Ok(Done::Exact {
                    strategy,
                    rules,
                    values,
                })
            }
            Task::Solve { rules } => {
                let solver = Solver::new(rules);
                let figures = solve_with_figures(&solver, all, &unlimited)?
                    .into_iter()
                    .map(|(_, figures)| figures)
                    .collect();
                Ok(Done::Solved {
                    rules,
                    solver: Box::new(solver),
                    figures,
                })
            }
            Task::Decisions {
                strategy,
                headline: all_headline,
            } => {
                let mid = [headline[headline.len() / 2]];
                let stealths: &[u8] = if all_headline { headline } else { &mid };
                let budget = Budget {
                    max_states: STATE_LIMIT,
                    cancel: &cancel,
                };
                let s = strategies[strategy].as_ref();
                let result = match decisions(&MAIN_TEXT, s, stealths, budget) {
                    Ok(result) => Some(result),
                    Err(Halt::TooLarge(_)) => None,
                    Err(halt) => return Err(halt.into()),
                };
                Ok(Done::Decisions { strategy, result })
            }
            Task::Values { rules } => {
                let solver = Solver::new(rules);
                Ok(Done::Values {
                    rules,
                    values: solve_within(&solver, headline, &unlimited)?
                        .iter()
                        .map(|s| s.value)
                        .collect(),
                })
            }
        }
    }

    /// A rough relative cost, for scheduling: a full solve, then the strategies whose team
    /// depends on the complication roll (tens of millions of positions), then the rest.
    fn cost(&self, strategies: &[Box<dyn Strategy>]) -> u32 {
        match self {
            Task::Solve { .. } => 50,
            Task::Values { .. } => 25,
            Task::Decisions { headline, .. } => {
                if *headline {
                    20
                } else {
                    10
                }
            }
            Task::Exact { strategy, rules } => {
                match (is_preset(*rules), strategies[*strategy].name()) {
                    (true, "reckless") => 70,
                    (true, "cautious" | "medic-main") => 20,
                    (true, _) => 5,
                    (false, _) => 1,
                }
            }
        }
    }
}

/// Whether `rules` is one of the presets the report covers at every stealth (a rule variant
/// is evaluated at the headline stealths only).
fn is_preset(rules: Rules) -> bool {
    rules == MAIN_TEXT || rules == CLARIFIED
}

fn check(cancel: &AtomicBool) -> Result<()> {
    if cancel.load(Ordering::Relaxed) {
        Err(Error::Interrupted)
    } else {
        Ok(())
    }
}
