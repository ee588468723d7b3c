//! `raven report`: regenerate the designer's balance report (`reports/`) deterministically.
//!
//! The work is a list of independent jobs — exact evaluations, solves, Monte Carlo runs —
//! played in parallel on the rayon pool; every job is deterministic on its own (fixed seeds,
//! fixed summation order), so the files are identical whatever the scheduling.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use clap::Args;
use rayon::prelude::*;

use crate::engine::exact_limited;
use crate::engine::montecarlo::{Job, Tally, simulate};
use crate::engine::paired::{PairedJob, simulate_paired};
use crate::engine::solve::{PolicyEvaluation, Solver, solve};
use crate::error::{Error, Result};
use crate::game::{MAX_STEALTH, State};
use crate::report::balance::{self, Balance, OPTIMAL, STRATEGIES, VariantRow, loss_rows};
use crate::report::csv::{AtomicFile, SummaryRow, write_rows};
use crate::report::{Expectation, Method, Summary};
use crate::rules::{CLARIFIED, MAIN_TEXT, Rules};
use crate::strategy::{OptimalStrategy, Strategy, built_in, resolve};

use super::args::{DEFAULT_SEED, pool};
use super::bounds::{self, StealthList};
use super::compare::{CompareRow, rows as compare_rows};
use super::interrupt;
use super::output::OutDir;
use super::progress::Progress;

/// The most positions one exact evaluation may memoise (about 7 GiB; every bundled strategy
/// needs less than 40 M over stealth 0..=16). A strategy that needs more is reported from
/// Monte Carlo only (the report says so).
const STATE_LIMIT: usize = 50_000_000;

/// Arguments of `raven report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Directory to (re)write.
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// Monte Carlo games per (strategy, rules, stealth), 1..=10^12; optimal play gets a
    /// tenth of them.
    #[arg(long, default_value_t = 100_000, value_parser = bounds::games)]
    pub games: u64,
    /// Seed of every Monte Carlo run.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Win rates cover starting stealth 0..=MAX.
    #[arg(long, default_value_t = 16,
          value_parser = clap::value_parser!(u8).range(0..=MAX_STEALTH as i64))]
    pub max_stealth: u8,
    /// Headline stealths: rule variants, loss causes and comparisons (distinct, each at most
    /// `--max-stealth`).
    #[arg(long, default_value = "8,10,12", value_parser = bounds::stealths)]
    pub stealth: StealthList,
    /// Worker threads, 1..=256 (default: all cores).
    #[arg(long, value_parser = bounds::threads)]
    pub threads: Option<u16>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// One piece of work.
enum Task {
    /// Exact evaluation of a strategy at many stealths.
    Exact { strategy: usize, rules: Rules },
    /// The optimal policy's figures at many stealths, keeping its table for Monte Carlo.
    Solve { rules: Rules, stealths: Vec<u8> },
    /// Optimal win probabilities only.
    Values { rules: Rules, stealths: Vec<u8> },
}

/// What a task produced.
enum Done {
    /// `None`: over [`STATE_LIMIT`].
    Exact(Option<Vec<Expectation>>),
    Solved(Box<Solver>, Vec<Expectation>),
    Values(Vec<f64>),
}

/// Runs `raven report`.
pub fn run(args: &ReportArgs) -> Result<()> {
    let cancel = interrupt::flag();
    if let Some(&above) = args.stealth.iter().find(|&&s| s > args.max_stealth) {
        return Err(Error::Input(format!(
            "headline stealth {above} (--stealth) is above --max-stealth {}: the report would \
             have no values for it; raise --max-stealth or drop it",
            args.max_stealth
        )));
    }
    // Removed again (if it was made here) when the report fails or is interrupted.
    let dir = OutDir::create(&args.out)?;
    // Every file of the report is reserved before any work, so a path that cannot be
    // written fails now, not after minutes of solving.
    let mut files = Reserved::new(dir.path())?;
    let mut headline = args.stealth.to_vec();
    headline.sort_unstable();
    let pool = pool(args.threads)?;
    let strategies: Vec<Box<dyn Strategy>> = STRATEGIES
        .iter()
        .map(|name| {
            built_in(name)
                .ok_or(())
                .or_else(|()| resolve(name))
                .map_err(|e| Error::Runtime(format!("bundled strategy {name}: {e:?}")))
        })
        .collect::<Result<_>>()?;
    let presets = [MAIN_TEXT, CLARIFIED];
    let all: Vec<u8> = (0..=args.max_stealth).collect();
    let variants = MAIN_TEXT.variants();

    // Stage 1: exact evaluations and solves, the heavy part, in parallel.
    let mut tasks = Vec::new();
    for rules in presets {
        tasks.push(Task::Solve {
            rules,
            stealths: all.clone(),
        });
        for strategy in 0..strategies.len() {
            tasks.push(Task::Exact { strategy, rules });
        }
    }
    for (_, _, rules) in &variants {
        tasks.push(Task::Values {
            rules: *rules,
            stealths: headline.clone(),
        });
        tasks.push(Task::Exact {
            strategy: 0,
            rules: *rules,
        });
    }
    let progress = Progress::new(tasks.len() as u64, args.quiet);
    progress.label("exact & optimal".into());
    // Longest first, each worker taking the next task as it frees up, so that no long task
    // starts last while the other cores idle.
    let mut queue: Vec<usize> = (0..tasks.len()).collect();
    queue.sort_by_key(|&i| std::cmp::Reverse(tasks[i].cost(&strategies)));
    let mut done: Vec<(usize, Done)> = pool.install(|| {
        queue
            .into_iter()
            .par_bridge()
            .map(|i| {
                // Between jobs: the jobs themselves do not look at the flag.
                interrupt::check()?;
                let result = run_task(&tasks[i], &strategies, &all, &headline);
                progress.advance(1);
                result.map(|done| (i, done))
            })
            .collect::<Result<_>>()
    })?;
    done.sort_by_key(|(i, _)| *i);
    progress.finish();
    check(cancel)?;

    // Stage 2: Monte Carlo of every strategy (optimal from its solved table) and comparisons.
    let mut win_rates = Vec::new();
    let mut solvers: Vec<(Rules, Box<Solver>)> = Vec::new();
    let mut done = done.into_iter().map(|(_, d)| d);
    let mut exact_rows: Vec<(String, Rules, Method, Option<Vec<Expectation>>)> = Vec::new();
    for rules in presets {
        let Some(Done::Solved(solver, optimal)) = done.next() else {
            unreachable!("tasks are in order")
        };
        solvers.push((rules, solver));
        for s in &strategies {
            let Some(Done::Exact(values)) = done.next() else {
                unreachable!("tasks are in order")
            };
            exact_rows.push((s.name().to_string(), rules, Method::Exact, values));
        }
        exact_rows.push((OPTIMAL.into(), rules, Method::Optimal, Some(optimal)));
    }
    let mut variant_values = Vec::new();
    for _ in &variants {
        let (Some(Done::Values(optimal)), Some(Done::Exact(Some(reference)))) =
            (done.next(), done.next())
        else {
            return Err(Error::Runtime(
                "the reference strategy's exact evaluation exceeded its budget".into(),
            ));
        };
        variant_values.push((optimal, reference));
    }

    let optimal_players: Vec<(Rules, OptimalStrategy)> = solvers
        .into_iter()
        .map(|(rules, solver)| (rules, OptimalStrategy::from_solver(*solver)))
        .collect();
    let total = (presets.len() * all.len()) as u64
        * (args.games * strategies.len() as u64 + (args.games / 10).max(1))
        + (presets.len() * headline.len()) as u64 * args.games * strategies.len() as u64;
    let progress = Progress::new(total, args.quiet);
    progress.label("monte carlo".into());
    // The Monte Carlo engines poll the flag: a signal lets them unwind.
    let polled = interrupt::polled();
    let advance = |n| progress.advance(n);
    for (name, rules, method, values) in &exact_rows {
        let (strategy, games): (&dyn Strategy, u64) = if name == OPTIMAL {
            let player = &optimal_players
                .iter()
                .find(|(r, _)| r == rules)
                .expect("solved")
                .1;
            (player, (args.games / 10).max(1))
        } else {
            let s = strategies
                .iter()
                .find(|s| s.name() == name)
                .expect("listed");
            (s.as_ref(), args.games)
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
                seed: args.seed,
            };
            let tally: Tally = pool.install(|| simulate(&job, &advance, cancel))?;
            win_rates.push(Summary::from_tally(
                name, *rules, stealth, tally, args.seed, 0.95,
            ));
        }
    }
    let mut comparisons: Vec<CompareRow> = Vec::new();
    let players: Vec<&dyn Strategy> = strategies.iter().map(|s| s.as_ref()).collect();
    let names: Vec<String> = players.iter().map(|s| s.name().to_string()).collect();
    for rules in presets {
        for &stealth in &headline {
            let job = PairedJob {
                rules: &rules,
                strategies: &players,
                stealth,
                games: args.games,
                seed: args.seed,
            };
            let per = players.len() as u64;
            let tally = pool.install(|| simulate_paired(&job, &|n| advance(n * per), cancel))?;
            comparisons.extend(compare_rows(
                &names, rules, stealth, &tally, args.seed, 0.95,
            ));
        }
    }
    progress.finish();
    drop(polled);

    // Rule variants: each flag alone, against the default reading.
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
    let mut variant_rows = Vec::new();
    let row = |variant: String, rules: Rules, stealth, strategy: &str, win_rate: f64| {
        let base = default_of(strategy, stealth);
        VariantRow {
            variant,
            rules: rules.to_string(),
            stealth,
            strategy: strategy.to_string(),
            method: if strategy == OPTIMAL {
                "optimal"
            } else {
                "exact"
            }
            .to_string(),
            win_rate,
            default_win_rate: base,
            effect: win_rate - base,
            raven_version: env!("CARGO_PKG_VERSION"),
        }
    };
    for &stealth in &headline {
        for strategy in ["reference", OPTIMAL] {
            let base = default_of(strategy, stealth);
            variant_rows.push(row("default".into(), MAIN_TEXT, stealth, strategy, base));
        }
    }
    for ((key, value, rules), (optimal, reference)) in variants.iter().zip(&variant_values) {
        for (i, &stealth) in headline.iter().enumerate() {
            let variant = format!("{key}={value}");
            variant_rows.push(row(
                variant.clone(),
                *rules,
                stealth,
                "reference",
                reference[i].win,
            ));
            variant_rows.push(row(variant, *rules, stealth, OPTIMAL, optimal[i]));
        }
    }

    let exact_budget = STATE_LIMIT;
    let balance = Balance {
        exact_budget,
        command: command_line(args),
        presets: presets.to_vec(),
        strategies: STRATEGIES.iter().map(|s| s.to_string()).collect(),
        headline,
        win_rates,
        variants: variant_rows,
    };
    check(cancel)?;
    write_report(&mut files, &balance, &comparisons)?;
    dir.keep();
    Ok(())
}

/// Runs one stage-1 task.
fn run_task(
    task: &Task,
    strategies: &[Box<dyn Strategy>],
    all: &[u8],
    headline: &[u8],
) -> Result<Done> {
    match task {
        Task::Exact { strategy, rules } => {
            let stealths = if *rules == MAIN_TEXT || *rules == CLARIFIED {
                all
            } else {
                headline
            };
            let s = strategies[*strategy].as_ref();
            Ok(Done::Exact(
                exact_limited(rules, s, stealths, STATE_LIMIT)
                    .ok()
                    .map(|run| run.expectations),
            ))
        }
        Task::Solve { rules, stealths } => {
            let mut solver = Solver::new(*rules);
            solve(&mut solver, stealths);
            let figures = {
                let mut evaluation = PolicyEvaluation::new(&mut solver);
                stealths
                    .iter()
                    .map(|&s| evaluation.expectation(&State::new(s)))
                    .collect()
            };
            Ok(Done::Solved(Box::new(solver), figures))
        }
        Task::Values { rules, stealths } => {
            let mut solver = Solver::new(*rules);
            Ok(Done::Values(
                solve(&mut solver, stealths)
                    .iter()
                    .map(|s| s.value)
                    .collect(),
            ))
        }
    }
}

impl Task {
    /// A rough relative cost, for scheduling: a full solve, then the strategies whose team
    /// depends on the complication roll (tens of millions of positions), then the rest.
    fn cost(&self, strategies: &[Box<dyn Strategy>]) -> u32 {
        match self {
            Task::Solve { .. } => 50,
            Task::Values { .. } => 25,
            Task::Exact { strategy, rules } => {
                let full = *rules == MAIN_TEXT || *rules == CLARIFIED;
                match (full, strategies[*strategy].name()) {
                    (true, "reckless") => 70,
                    (true, "cautious" | "medic-main") => 20,
                    (true, _) => 5,
                    (false, _) => 1,
                }
            }
        }
    }
}

fn check(cancel: &AtomicBool) -> Result<()> {
    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
        Err(Error::Interrupted)
    } else {
        Ok(())
    }
}

/// The command that reproduces this report.
fn command_line(args: &ReportArgs) -> String {
    let stealths: Vec<String> = args.stealth.iter().map(u8::to_string).collect();
    format!(
        "raven report --out {} --games {} --seed {} --max-stealth {} --stealth {}",
        args.out.display(),
        args.games,
        args.seed,
        args.max_stealth,
        stealths.join(",")
    )
}

/// The files of a report, reserved in its directory before the work starts.
struct Reserved(Vec<(String, AtomicFile)>);

impl Reserved {
    /// Reserves every file [`write_report`] writes.
    fn new(dir: &Path) -> Result<Reserved> {
        let mut names: Vec<String> = [
            "win-rates.csv",
            "rule-variants.csv",
            "loss-causes.csv",
            "strategy-comparison.csv",
            "rule-variants.svg",
            "README.md",
        ]
        .map(String::from)
        .to_vec();
        names.extend([MAIN_TEXT, CLARIFIED].map(chart_name));
        let files = names
            .into_iter()
            .map(|name| Ok((name.clone(), AtomicFile::create(&dir.join(name))?)))
            .collect::<Result<_>>()?;
        Ok(Reserved(files))
    }

    /// The reserved file `name`.
    fn take(&mut self, name: &str) -> AtomicFile {
        let at = self
            .0
            .iter()
            .position(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{name} is reserved by Reserved::new"));
        self.0.swap_remove(at).1
    }
}

/// The file name of a win-probability chart.
fn chart_name(rules: Rules) -> String {
    format!("win-probability-{rules}.svg")
}

/// Writes every file of the report, each atomically.
fn write_report(files: &mut Reserved, balance: &Balance, comparisons: &[CompareRow]) -> Result<()> {
    let mut csv = |name: &str, write: &dyn Fn(&mut Vec<u8>) -> Result<()>| -> Result<()> {
        let mut file = files.take(name);
        write(file.writer())?;
        file.commit()
    };
    csv("win-rates.csv", &|f| {
        write_rows(f, balance.win_rates.iter().map(SummaryRow::from))
    })?;
    csv("rule-variants.csv", &|f| write_rows(f, &balance.variants))?;
    csv("loss-causes.csv", &|f| write_rows(f, loss_rows(balance)))?;
    csv("strategy-comparison.csv", &|f| write_rows(f, comparisons))?;
    let mut charts = Vec::new();
    for rules in &balance.presets {
        charts.push((
            chart_name(*rules),
            format!("Win probability by starting stealth, {rules}"),
            balance::win_chart(balance, *rules),
        ));
    }
    charts.push((
        "rule-variants.svg".to_string(),
        "Effect of each rule variant".to_string(),
        balance::variant_chart(balance),
    ));
    for (name, _, svg) in &charts {
        text_file(files.take(name), svg)?;
    }
    let listed: Vec<(String, String)> = charts.into_iter().map(|(n, t, _)| (n, t)).collect();
    text_file(files.take("README.md"), &balance::readme(balance, &listed))
}

fn text_file(mut file: AtomicFile, text: &str) -> Result<()> {
    file.writer().extend_from_slice(text.as_bytes());
    file.commit()
}
