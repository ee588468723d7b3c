//! Argument groups shared by several subcommands.

use std::path::PathBuf;

use std::sync::atomic::AtomicBool;

use clap::Args;

use crate::engine;
use crate::error::{Error, Result};
use crate::report::table::level_percent;
use crate::rules::Rules;
use crate::strategy::{self, Strategy};

use super::bounds::{self, StealthList};

/// The default seed of every sampling command (the core's, which the page uses too).
pub const DEFAULT_SEED: u64 = raven_core::rows::DEFAULT_SEED;

/// `--rules` and `--rule`: which reading of docs/rules.md is in force.
#[derive(Args, Debug, Clone)]
pub struct RulesArgs {
    /// Rules preset (`main-text`, `clarified`) or a TOML rules file.
    #[arg(
        long = "rules",
        value_name = "PRESET|FILE",
        default_value = "main-text"
    )]
    pub preset: String,
    /// Override one ruling or design parameter, e.g. `--rule discovered-penalty=2` or
    /// `--rule run-challenges=8` (repeatable). Rulings: recruit-count, first-aid-recruit,
    /// discovered-penalty, second-success, finale-substitute, first-aid-after-side. Design
    /// parameters: team-size, recruit-checks, run-challenges, first-aid-after-run,
    /// tough-challenges, side-challenges, first-aid-after-tough, specialist-dice, base-dice,
    /// threshold, eased-threshold, side-successes-to-ease, finale-penalty, wound-faces,
    /// stealth-faces.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
}

impl RulesArgs {
    /// The rules these arguments select.
    pub fn rules(&self) -> Result<Rules> {
        Ok(crate::load::rules(&self.preset, &self.overrides)?)
    }
}

/// Arguments of the exact engines (`exact`, `solve`): which stealths, the memo budget, and
/// the threads and progress display that every long-running command takes.
#[derive(Args, Debug, Clone)]
pub struct ExactEngineArgs {
    /// Starting stealth values, each 0..=99, none twice: a comma-separated list of values and
    /// ranges, `0..=30` (inclusive) or `8..12` (half-open), e.g. `0..=3,8,10..=12`.
    // `default_value`, not `default_values_t`: help shows the default as it must be typed.
    #[arg(long, default_value = "8,10,12", value_parser = bounds::stealths)]
    pub stealth: StealthList,
    /// Give up, with a clear message, before the memoised positions would take more than
    /// this much memory (estimated at about 190 bytes a position at the peak): a size such as
    /// `6G`, `512M` or `1.5GiB` (powers of 1024).
    #[arg(long, default_value = "6G", value_parser = bounds::memory_size, conflicts_with = "max_states")]
    pub max_memory: u64,
    /// The same limit as a number of memoised positions, instead of `--max-memory`.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_states: Option<u64>,
    /// Worker threads (default: all cores); the results do not depend on it.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// No progress display.
    #[arg(long, short)]
    pub quiet: bool,
}

impl ExactEngineArgs {
    /// Runs one exact-engine job the way every such command does: in the `--threads` pool,
    /// under a spinner saying `what` (unless `--quiet`), within `--max-memory`, with the
    /// signal flag polled so that a signal lets it unwind and remove reserved files.
    pub fn run_job<T: Send, E: Send>(
        &self,
        what: &str,
        job: impl FnOnce(crate::engine::Budget<'_>) -> std::result::Result<T, E> + Send,
    ) -> Result<T>
    where
        crate::error::Error: From<E>,
    {
        let pool = self.pool()?;
        let progress = super::progress::Progress::spinner(
            &format!("{what}, stealth {}", stealth_list(&self.stealth)),
            self.quiet,
        );
        let polled = super::interrupt::polled();
        let cancel = [super::interrupt::flag()];
        let result = pool.install(|| job(self.budget(&cancel)));
        progress.finish();
        drop(polled);
        Ok(result?)
    }

    /// A rayon pool with the requested number of threads; the engines' parallel work runs
    /// on whichever pool they are called in.
    pub fn pool(&self) -> Result<rayon::ThreadPool> {
        pool(self.threads)
    }
}

impl ExactEngineArgs {
    /// The budget every exact evaluation and solve of the command runs under: `--max-states`
    /// positions, or as many as `--max-memory` holds, each; stopped when any of `cancel` is
    /// raised (Ctrl-C, a sibling job that failed).
    pub fn budget<'a>(&self, cancel: &'a [&'a AtomicBool]) -> crate::engine::Budget<'a> {
        let states = self
            .max_states
            .unwrap_or((self.max_memory as f64 / crate::engine::BYTES_PER_STATE) as u64);
        crate::engine::Budget {
            max_states: usize::try_from(states).unwrap_or(usize::MAX),
            cancel,
        }
    }
}

/// Arguments of every multi-game run: stealth list, game count, seed, threads, output.
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Starting stealth values, each 0..=99, none twice: a comma-separated list of values and
    /// ranges, `0..=30` (inclusive) or `8..12` (half-open), e.g. `0..=3,8,10..=12`.
    #[arg(long, default_value = "8,10,12", value_parser = bounds::stealths)]
    pub stealth: StealthList,
    /// Games per starting stealth (1..=10^12).
    #[arg(long, default_value_t = 1_000_000, value_parser = bounds::games)]
    pub games: u64,
    /// Seed of the run: the same seed gives byte-identical output for any thread count.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Worker threads, 1..=256 (default: all cores).
    #[arg(long, value_parser = bounds::threads)]
    pub threads: Option<u16>,
    /// Write tidy CSV here (`-` for standard output instead of the table).
    #[arg(long, value_name = "FILE|-")]
    pub out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    /// Confidence level of the intervals, above 0 and at most 0.999999.
    #[arg(long, default_value_t = 0.95, value_parser = bounds::confidence)]
    pub confidence: f64,
}

impl RunArgs {
    /// The inputs of the run that determine its numbers, for the line above a table:
    /// stealths, games, seed and confidence level.
    pub fn inputs(&self) -> Vec<String> {
        vec![
            format!("stealth {}", stealth_list(&self.stealth)),
            format!("{} games per stealth", self.games),
            format!("seed {}", self.seed),
            format!("{}% Wilson intervals", level_percent(self.confidence)),
        ]
    }

    /// A rayon pool with the requested number of threads.
    pub fn pool(&self) -> Result<rayon::ThreadPool> {
        pool(self.threads)
    }
}

/// `8,10,12` or `0..=30`: a stealth list as `--stealth` takes it, runs of three or more
/// consecutive values written as a range.
pub fn stealth_list(stealths: &[u8]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < stealths.len() {
        let mut end = i;
        while end + 1 < stealths.len() && stealths[end + 1] == stealths[end].wrapping_add(1) {
            end += 1;
        }
        if end >= i + 2 {
            parts.push(format!("{}..={}", stealths[i], stealths[end]));
        } else {
            parts.extend(stealths[i..=end].iter().map(u8::to_string));
        }
        i = end + 1;
    }
    parts.join(",")
}

/// A rayon pool with `threads` workers (default: all cores).
pub fn pool(threads: Option<u16>) -> Result<rayon::ThreadPool> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads {
        builder = builder.num_threads(usize::from(threads));
    }
    builder
        .build()
        .map_err(|e| Error::Runtime(format!("cannot start worker threads: {e}")))
}

/// A strategy by name (built-in or bundled) or file path; unknown names and bad files are
/// input errors (exit 2).
pub fn load_strategy(name: &str) -> Result<Box<dyn Strategy>> {
    crate::load::strategy(name).map_err(|e| Error::Input(e.to_string()))
}

/// The most positions the optimal strategy's table may hold when a Monte Carlo command or
/// `play` solves it (about 5.3 GiB at the peak, within the default `--max-memory` of 6G).
pub const OPTIMAL_TABLE_LIMIT: usize = 30_000_000;

/// `strategy` ready to play games at `stealths` under `rules` ([`ready_within`]), within
/// [`OPTIMAL_TABLE_LIMIT`] positions and polling the signal flag.
pub fn ready_to_play(
    strategy: Box<dyn Strategy>,
    rules: &Rules,
    stealths: &[u8],
) -> Result<Box<dyn Strategy>> {
    within_table_limit(|budget| ready_within(strategy, rules, stealths, budget))
}

/// The optimal strategy with its table solved for games from `stealths` under `rules`,
/// within [`OPTIMAL_TABLE_LIMIT`] positions and polling the signal flag: what `raven play
/// --advise` reads its advice from.
pub fn solved_optimal(rules: &Rules, stealths: &[u8]) -> Result<engine::OptimalStrategy> {
    within_table_limit(|budget| optimal_within(rules, stealths, budget))
}

/// `solve` run within [`OPTIMAL_TABLE_LIMIT`] positions, polling the signal flag.
fn within_table_limit<T>(
    solve: impl FnOnce(&engine::Budget<'_>) -> std::result::Result<T, engine::Halt>,
) -> Result<T> {
    let cancel = [super::interrupt::flag()];
    let budget = engine::Budget {
        max_states: OPTIMAL_TABLE_LIMIT,
        cancel: &cancel,
    };
    let polled = super::interrupt::polled();
    let solved = solve(&budget);
    drop(polled);
    Ok(solved?)
}

/// `strategy` ready for games from `stealths` under `rules`: the optimal strategy with its
/// table solved first, in one go within `budget` — never part by part as games meet
/// positions, which inside a game could grow without bound at a high stealth; every other
/// strategy as it is.
pub fn ready_within(
    strategy: Box<dyn Strategy>,
    rules: &Rules,
    stealths: &[u8],
    budget: &engine::Budget<'_>,
) -> std::result::Result<Box<dyn Strategy>, engine::Halt> {
    if strategy.name() != strategy::OPTIMAL {
        return Ok(strategy);
    }
    Ok(Box::new(optimal_within(rules, stealths, budget)?))
}

/// The optimal strategy with its table solved for games from `stealths` under `rules`,
/// within `budget`.
fn optimal_within(
    rules: &Rules,
    stealths: &[u8],
    budget: &engine::Budget<'_>,
) -> std::result::Result<engine::OptimalStrategy, engine::Halt> {
    let solver = engine::Solver::new(*rules);
    engine::solve_within(&solver, stealths, budget)?;
    Ok(engine::OptimalStrategy::from_solver(solver))
}

/// Several strategies (`compare`, `solve`). Two different arguments that would carry the
/// same name in the outputs (`duo` and `strategies/duo.toml`) are each named by the argument
/// as given, so their rows can be told apart. The same argument twice is the same strategy
/// (`compare` uses that as a check: a strategy against itself differs by exactly 0).
pub fn load_strategies(specs: &[String]) -> Result<Vec<Box<dyn Strategy>>> {
    let loaded = specs
        .iter()
        .map(|s| load_strategy(s))
        .collect::<Result<Vec<_>>>()?;
    let clashes = |i: usize| {
        loaded
            .iter()
            .zip(specs)
            .any(|(s, spec)| s.name() == loaded[i].name() && *spec != specs[i])
    };
    let clashing: Vec<bool> = (0..loaded.len()).map(clashes).collect();
    Ok(loaded
        .into_iter()
        .zip(specs)
        .zip(clashing)
        .map(|((strategy, spec), clash)| {
            if clash {
                Box::new(Renamed {
                    name: spec.clone(),
                    inner: strategy,
                }) as Box<dyn Strategy>
            } else {
                strategy
            }
        })
        .collect())
}

/// A strategy shown under another name.
struct Renamed {
    name: String,
    inner: Box<dyn Strategy>,
}

impl Strategy for Renamed {
    fn name(&self) -> &str {
        &self.name
    }
    fn decide(
        &self,
        state: &crate::game::State,
        rules: &Rules,
        decision: crate::game::Decision,
    ) -> strategy::Choice {
        self.inner.decide(state, rules, decision)
    }
    fn sight(&self, state: &crate::game::State, rules: &Rules) -> strategy::Sight {
        self.inner.sight(state, rules)
    }
    // The same strategy under another name: what lets the engines take shortcuts holds too.
    fn stealth_alike_from(&self) -> Option<u8> {
        self.inner.stealth_alike_from()
    }
    fn prefetches(&self) -> bool {
        self.inner.prefetches()
    }
    fn prefetch(&self, state: &crate::game::State, rules: &Rules) -> u64 {
        self.inner.prefetch(state, rules)
    }
    fn decide_warm(
        &self,
        state: &crate::game::State,
        rules: &Rules,
        decision: crate::game::Decision,
        warm: u64,
    ) -> strategy::Choice {
        self.inner.decide_warm(state, rules, decision, warm)
    }
}

#[cfg(test)]
mod tests {
    use super::stealth_list;

    #[test]
    fn stealth_lists_read_back_as_written() {
        assert_eq!(stealth_list(&[8, 10, 12]), "8,10,12");
        assert_eq!(stealth_list(&[8, 9]), "8,9");
        assert_eq!(stealth_list(&(0..=30).collect::<Vec<_>>()), "0..=30");
        assert_eq!(
            stealth_list(&[0, 1, 2, 3, 8, 10, 11, 12]),
            "0..=3,8,10..=12"
        );
        assert_eq!(stealth_list(&[5, 4, 3]), "5,4,3");
        assert_eq!(stealth_list(&[]), "");
        // What it writes, `--stealth` reads back to the same list.
        for list in [
            vec![0u8, 1, 2, 3, 8, 10, 11, 12],
            vec![12, 10, 8],
            vec![97, 98, 99],
        ] {
            let parsed = super::bounds::stealths(&stealth_list(&list)).expect("valid");
            assert_eq!(&parsed[..], &list[..]);
        }
    }
}
