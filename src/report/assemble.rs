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

use serde::{Deserialize, Serialize};

use crate::engine::Keep;
use crate::engine::OptimalStrategy;
use crate::engine::decisions::Solved;
use crate::engine::montecarlo::{Job, Tally, simulate};
use crate::engine::paired::{PairedJob, PairedTally, simulate_paired};
use crate::engine::solve::{Solver, solve_with_figures, solve_within};
use crate::engine::{Budget, Halt, exact_within};
use crate::error::{Error, Result};
use crate::rules::Rules;
use crate::strategy::{OPTIMAL, REFERENCE, Strategy, playbook, resolve};

use super::balance::{Assessment, Balance, Example, VariantRow};
use super::comparison::{CompareRow, rows as compare_rows};
use super::decisions::{Decomposed, Told};
use super::habits::{Watched, watch};
use super::{Method, Summary};
use crate::engine::Expectation;
use crate::game::interface::PurpleRaven;
use raven_core::games::Game;
use raven_core::quality::assess;

/// The most positions one exact evaluation may memoise (about 7 GiB; every bundled strategy
/// needs less than 40 M over stealth 0..=16). A strategy that needs more is reported from
/// Monte Carlo only (the report says so).
pub const STATE_LIMIT: usize = 50_000_000;

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
    /// The two readings covered at every stealth, the default first: `main-text` and
    /// `clarified`, with any `--rule` overrides. Rule variants, levers and the regret
    /// decomposition depart from the first.
    pub presets: [Rules; 2],
}

/// Shows how far the work has got; the command layer draws it (or not).
pub trait ProgressListener: Sync {
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

/// One unit of the report's work. Every unit is deterministic on its own (fixed seeds, fixed
/// summation order), so it gives the same result in whichever process runs it: the units of
/// `raven report --shard K/N` ([`Work::run`] with an `owns` filter), joined by `raven merge`.
#[derive(Clone, Copy, Debug)]
enum Unit {
    /// Exact evaluation of a strategy (index into the report's strategies).
    Exact { strategy: usize, rules: Rules },
    /// The optimal policy's figures at every stealth, and Monte Carlo of optimal play from
    /// the table it solved (so the table is dropped here, not kept for a later stage).
    Solve { rules: Rules },
    /// Optimal win probabilities only, at the headline stealths (a rule variant).
    Values { rules: Rules },
    /// The regret decomposition of a strategy under the default rules, at every headline
    /// stealth (`headline`) or the middle one.
    Decisions { strategy: usize, headline: bool },
    /// Monte Carlo of a bundled strategy at one stealth.
    Play {
        strategy: usize,
        rules: Rules,
        stealth: u8,
    },
    /// Every bundled strategy on the same games (common random numbers) at one stealth.
    Compare { rules: Rules, stealth: u8 },
}

/// What a unit produced: plain data, written to a shard file as it is (JSON, every `f64`
/// exactly) and read back by `raven merge`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Finished {
    /// Of [`Unit::Exact`]: one per stealth; `None` over [`STATE_LIMIT`].
    Exact(Option<Vec<Expectation>>),
    /// Of [`Unit::Solve`]: the optimal figures and the Monte Carlo counts, one per stealth;
    /// under the default reading, how optimal play and the reference play, one per headline
    /// stealth.
    Solved {
        figures: Vec<Expectation>,
        played: Vec<Tally>,
        watched: Vec<Watched>,
    },
    /// Of [`Unit::Values`]: one per headline stealth.
    Values(Vec<f64>),
    /// Of [`Unit::Decisions`]: `None` over [`STATE_LIMIT`].
    Decisions(Option<Vec<Told>>),
    /// Of [`Unit::Play`].
    Played(Tally),
    /// Of [`Unit::Compare`].
    Compared(PairedTally),
}

/// The report's work as a fixed list of units, and how their results become a [`Report`].
pub struct Work {
    plan: Plan,
    /// [`Plan::presets`].
    presets: [Rules; 2],
    names: Vec<String>,
    strategies: Vec<Box<dyn Strategy>>,
    reference: usize,
    /// Starting stealths 0..=`max_stealth`.
    all: Vec<u8>,
    /// Each flag alone, `(key=value, rules)`.
    variants: Vec<(String, Rules)>,
    /// Each of the game's numbers one step either way from the printed game (main-text).
    levers: Vec<(String, Rules)>,
    /// Exact evaluations, solves and decompositions (longest first), then Monte Carlo.
    units: Vec<Unit>,
    /// How many of `units` come before the Monte Carlo.
    heavy: usize,
}

impl Work {
    /// The work of the report `plan` asks for.
    pub fn new(plan: &Plan) -> Result<Work> {
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
        let all: Vec<u8> = (0..=plan.max_stealth).collect();
        let presets = plan.presets;
        let default = presets[0];
        let variants: Vec<(String, Rules)> = default
            .variants()
            .into_iter()
            .map(|(key, value, rules)| (format!("{key}={value}"), rules))
            .collect();
        let levers: Vec<(String, Rules)> = default
            .design
            .levers()
            .into_iter()
            .map(|(key, value, design)| {
                let rules = Rules { design, ..default };
                (format!("{key}={value}"), rules)
            })
            .collect();

        let mut units = Vec::new();
        for rules in presets {
            units.push(Unit::Solve { rules });
            for strategy in 0..strategies.len() {
                units.push(Unit::Exact { strategy, rules });
            }
        }
        for i in 0..strategies.len() {
            units.push(Unit::Decisions {
                strategy: i,
                headline: i == reference,
            });
        }
        for (_, rules) in variants.iter().chain(&levers) {
            units.push(Unit::Values { rules: *rules });
            units.push(Unit::Exact {
                strategy: reference,
                rules: *rules,
            });
        }
        // Longest first, each worker taking the next unit as it frees up, so that no long
        // unit starts last while the other cores idle (and shards, dealt units in this
        // order, get a fair share of the long ones).
        units.sort_by_key(|u| std::cmp::Reverse(u.cost(&names, &presets)));
        let heavy = units.len();
        for rules in presets {
            for strategy in 0..strategies.len() {
                for &stealth in &all {
                    units.push(Unit::Play {
                        strategy,
                        rules,
                        stealth,
                    });
                }
            }
        }
        for rules in presets {
            for &stealth in &plan.headline {
                units.push(Unit::Compare { rules, stealth });
            }
        }
        Ok(Work {
            plan: plan.clone(),
            presets,
            names,
            strategies,
            reference,
            all,
            variants,
            levers,
            units,
            heavy,
        })
    }

    /// How many units the report's work has.
    pub fn len(&self) -> usize {
        self.units.len()
    }

    /// Whether there is no work (never: every report solves).
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// Runs the units `owns` accepts (by index; every unit for the whole report) and returns
    /// their results by index: first the exact evaluations and solves in parallel, then the
    /// Monte Carlo runs one after another, each parallel inside.
    pub fn run(
        &self,
        owns: &dyn Fn(usize) -> bool,
        pool: &rayon::ThreadPool,
        progress: &dyn ProgressListener,
        cancel: &AtomicBool,
    ) -> Result<Vec<(usize, Finished)>> {
        let heavy: Vec<usize> = (0..self.heavy).filter(|&i| owns(i)).collect();
        progress.stage("exact & optimal", heavy.len() as u64);
        // The decompositions' optimal values first, each once, each solve parallel inside
        // (not by the first unit that needs them while the others wait: a thread waiting
        // inside a solve may take up another unit, which would then wait for itself).
        let flags = [cancel];
        let limited = Budget {
            max_states: STATE_LIMIT,
            cancel: &flags,
        };
        let mut solved: Vec<(Vec<u8>, Solved)> = Vec::new();
        for &i in &heavy {
            let stealths = self.stealths(self.units[i]);
            if matches!(self.units[i], Unit::Decisions { .. })
                && !solved.iter().any(|(at, _)| at == stealths)
            {
                let values = pool.install(|| Solved::new(&self.presets[0], stealths, &limited))?;
                solved.push((stealths.to_vec(), values));
            }
        }
        let mut finished: Vec<(usize, Finished)> = pool.install(|| {
            heavy
                .iter()
                .par_bridge()
                .map(|&i| {
                    let result = self.run_unit(self.units[i], &solved, &|_| {}, cancel);
                    progress.advance(1);
                    result.map(|f| (i, f))
                })
                .collect::<Result<_>>()
        })?;
        progress.finish();
        // Their tables are no longer needed.
        drop(solved);
        check(cancel)?;

        let light: Vec<usize> = (self.heavy..self.units.len())
            .filter(|&i| owns(i))
            .collect();
        let total = light.iter().map(|&i| self.games(self.units[i])).sum();
        progress.stage("monte carlo", total);
        let advance = |n| progress.advance(n);
        for i in light {
            let result = pool.install(|| self.run_unit(self.units[i], &[], &advance, cancel))?;
            finished.push((i, result));
        }
        progress.finish();
        check(cancel)?;
        finished.sort_by_key(|(i, _)| *i);
        Ok(finished)
    }

    /// Games a Monte Carlo unit plays, counted as its progress (every game once per
    /// strategy that plays it).
    fn games(&self, unit: Unit) -> u64 {
        match unit {
            Unit::Play { .. } => self.plan.games,
            Unit::Compare { .. } => self.plan.games * self.strategies.len() as u64,
            _ => 0,
        }
    }

    /// Games of optimal play per stealth: a tenth (its table lookups are slower).
    fn optimal_games(&self) -> u64 {
        (self.plan.games / 10).max(1)
    }

    /// The stealths a unit's values cover.
    fn stealths(&self, unit: Unit) -> &[u8] {
        match unit {
            Unit::Exact { rules, .. } if self.is_preset(rules) => &self.all,
            Unit::Solve { .. } => &self.all,
            Unit::Decisions {
                headline: false, ..
            } => {
                let headline = &self.plan.headline;
                std::slice::from_ref(&headline[headline.len() / 2])
            }
            _ => &self.plan.headline,
        }
    }

    /// Runs one unit; each engine polls `cancel`; Monte Carlo reports its games to
    /// `advance`; a decomposition reads optimal play's values from `solved` (by the stealths
    /// they cover), or solves them if they are not there.
    fn run_unit(
        &self,
        unit: Unit,
        solved: &[(Vec<u8>, Solved)],
        advance: &(dyn Fn(u64) + Sync),
        cancel: &AtomicBool,
    ) -> Result<Finished> {
        let flags = [cancel];
        let unlimited = Budget {
            max_states: usize::MAX,
            cancel: &flags,
        };
        let limited = Budget {
            max_states: STATE_LIMIT,
            cancel: &flags,
        };
        let stealths = self.stealths(unit);
        let seed = self.plan.seed;
        Ok(match unit {
            Unit::Exact { strategy, rules } => {
                let s = self.strategies[strategy].as_ref();
                Finished::Exact(match exact_within(&rules, s, stealths, limited) {
                    Ok(run) => Some(run.expectations),
                    // Over the budget: the report says so and shows Monte Carlo alone.
                    Err(Halt::TooLarge(_)) => None,
                    Err(halt) => return Err(halt.into()),
                })
            }
            Unit::Solve { rules } => {
                let solver = Solver::new(rules);
                let (solutions, figures): (Vec<_>, Vec<_>) =
                    solve_with_figures(&solver, stealths, &unlimited)?
                        .into_iter()
                        .unzip();
                let player = OptimalStrategy::from_solver(solver);
                let played = stealths
                    .iter()
                    .map(|&stealth| {
                        let job = Job {
                            rules: &rules,
                            strategy: &player,
                            stealth,
                            games: self.optimal_games(),
                            seed,
                        };
                        simulate(&job, advance, cancel).map_err(Error::from)
                    })
                    .collect::<Result<_>>()?;
                // How the two play, under the default reading only (the report's words).
                let watched = if rules == self.presets[0] {
                    let reference = self.strategies[self.reference].as_ref();
                    let games = self.optimal_games();
                    self.plan
                        .headline
                        .iter()
                        .map(|&stealth| {
                            let at = stealths.iter().position(|&s| s == stealth);
                            let by_main = at.map_or([f64::NAN; 6], |i| solutions[i].by_main);
                            Ok(Watched {
                                stealth,
                                by_main,
                                optimal: watch(&rules, &player, stealth, games, seed, cancel)?,
                                reference: watch(&rules, reference, stealth, games, seed, cancel)?,
                            })
                        })
                        .collect::<Result<_>>()?
                } else {
                    Vec::new()
                };
                Finished::Solved {
                    figures,
                    played,
                    watched,
                }
            }
            Unit::Values { rules } => {
                let solver = Solver::keeping(rules, Keep::PartBoundaries);
                let values = solve_within(&solver, stealths, &unlimited)?;
                Finished::Values(values.iter().map(|s| s.value).collect())
            }
            Unit::Decisions { strategy, .. } => {
                let s = self.strategies[strategy].as_ref();
                let decomposed = match solved.iter().find(|(at, _)| at == stealths) {
                    Some((_, solved)) => solved.decisions(s, limited),
                    None => Solved::new(&self.presets[0], stealths, &limited)
                        .and_then(|solved| solved.decisions(s, limited)),
                };
                let default = &self.presets[0];
                Finished::Decisions(match decomposed {
                    Ok(result) => Some(result.iter().map(|d| Told::of(default, d)).collect()),
                    Err(Halt::TooLarge(_)) => None,
                    Err(halt) => return Err(halt.into()),
                })
            }
            Unit::Play {
                strategy,
                rules,
                stealth,
            } => {
                let job = Job {
                    rules: &rules,
                    strategy: self.strategies[strategy].as_ref(),
                    stealth,
                    games: self.plan.games,
                    seed,
                };
                Finished::Played(simulate(&job, advance, cancel)?)
            }
            Unit::Compare { rules, stealth } => {
                let played: Vec<&dyn Strategy> =
                    self.strategies.iter().map(|s| s.as_ref()).collect();
                let job = PairedJob {
                    rules: &rules,
                    strategies: &played,
                    stealth,
                    games: self.plan.games,
                    seed,
                };
                let per = played.len() as u64;
                Finished::Compared(simulate_paired(&job, &|n| advance(n * per), cancel)?)
            }
        })
    }

    /// Whether `finished` can be unit `index`'s result: of its kind, one value per stealth
    /// it covers, the games it plays. `Err` says what is wrong (for a shard file that was
    /// edited, or written for other work).
    pub fn check(&self, index: usize, finished: &Finished) -> std::result::Result<(), String> {
        let Some(&unit) = self.units.get(index) else {
            return Err(format!(
                "unit {index} is not part of this report (it has {})",
                self.units.len()
            ));
        };
        let stealths = self.stealths(unit).len();
        let count = |what: &str, n: usize| {
            if n == stealths {
                Ok(())
            } else {
                Err(format!(
                    "unit {index} has {n} {what} where it covers {stealths} stealths"
                ))
            }
        };
        let games = |t: &Tally, expected: u64| {
            let ended = t.wins + t.losses.iter().sum::<u64>();
            if t.games == expected && ended == t.games {
                Ok(())
            } else {
                Err(format!(
                    "unit {index} counts {} games where it plays {expected}",
                    t.games
                ))
            }
        };
        match (unit, finished) {
            (Unit::Exact { .. }, Finished::Exact(values)) => {
                values.as_ref().map_or(Ok(()), |v| count("values", v.len()))
            }
            (
                Unit::Solve { rules },
                Finished::Solved {
                    figures,
                    played,
                    watched,
                },
            ) => {
                count("values", figures.len())?;
                count("Monte Carlo counts", played.len())?;
                let headline: Vec<u8> = if rules == self.presets[0] {
                    self.plan.headline.clone()
                } else {
                    Vec::new()
                };
                if watched
                    .iter()
                    .map(|w| w.stealth)
                    .ne(headline.iter().copied())
                {
                    return Err(format!(
                        "unit {index} watched other games than the headline stealths' ones"
                    ));
                }
                let habits = watched.iter().flat_map(|w| [&w.optimal, &w.reference]);
                if habits.into_iter().any(|h| h.games != self.optimal_games()) {
                    return Err(format!("unit {index} watched another number of games"));
                }
                played
                    .iter()
                    .try_for_each(|t| games(t, self.optimal_games()))
            }
            (Unit::Values { .. }, Finished::Values(values)) => count("values", values.len()),
            (Unit::Decisions { .. }, Finished::Decisions(told)) => match told {
                None => Ok(()),
                Some(told) => {
                    count("decompositions", told.len())?;
                    let covered = self.stealths(unit);
                    if told.iter().zip(covered).all(|(t, &s)| t.stealth == s) {
                        Ok(())
                    } else {
                        Err(format!(
                            "unit {index} decomposes other stealths than it covers"
                        ))
                    }
                }
            },
            (Unit::Play { .. }, Finished::Played(tally)) => games(tally, self.plan.games),
            (Unit::Compare { .. }, Finished::Compared(paired)) => {
                let n = self.strategies.len();
                if paired.tallies.len() != n || paired.joint.len() != n {
                    return Err(format!("unit {index} compares other than {n} strategies"));
                }
                paired
                    .tallies
                    .iter()
                    .try_for_each(|t| games(t, self.plan.games))
            }
            _ => Err(format!(
                "unit {index} holds the result of another kind of work"
            )),
        }
    }

    /// The report from every unit's result, by unit index (each once), with the worth of
    /// the recommended file's rules of thumb, which needs the other results to know the file.
    pub fn report(
        &self,
        finished: Vec<(usize, Finished)>,
        progress: &dyn ProgressListener,
        cancel: &AtomicBool,
    ) -> Result<Report> {
        let mut by_unit: Vec<Option<Finished>> = vec![None; self.units.len()];
        for (i, f) in finished {
            self.check(i, &f)
                .map_err(|e| Error::Runtime(format!("internal error: {e}")))?;
            by_unit[i] = Some(f);
        }
        let mut results = Results::default();
        for (unit, f) in self.units.iter().zip(by_unit) {
            let f = f.ok_or_else(|| Results::missing(format!("result of {unit:?}")))?;
            results.file(*unit, f);
        }
        let mut report = self.render(results)?;
        let flags = [cancel];
        let budget = Budget {
            max_states: STATE_LIMIT,
            cancel: &flags,
        };
        // The steps that need the other results: the recommended file's rules of thumb, the
        // rule cards (beside optimal play), then the quality.
        progress.stage("rules of thumb, the rule cards, is it a good game?", 3);
        report.balance.rules_of_thumb = super::player::rules_of_thumb(&report.balance, budget)?;
        progress.advance(1);
        report.balance.cards = super::card::cards(&report.balance, budget)?;
        progress.advance(1);
        report.balance.quality = Some(self.quality(&report.balance, budget)?);
        progress.advance(1);
        progress.finish();
        Ok(report)
    }

    /// Is it a good game? Optimal play, the strategy file the report recommends and the
    /// reference, assessed at the headline stealths under the default reading with the
    /// report's games and seed. Like the rules of thumb, it needs the other results to know
    /// the recommended file, so it is worked out here (by a whole run and by `raven merge`
    /// alike) rather than as a unit of work; it is deterministic whatever the threads.
    fn quality(&self, balance: &Balance, budget: Budget<'_>) -> Result<Assessment> {
        let rules = self.presets[0];
        let best = super::player::best_file(balance, rules).map(|(name, _)| name);
        let mut players: Vec<(String, Option<&dyn Strategy>)> = vec![(OPTIMAL.to_string(), None)];
        for (i, name) in self.names.iter().enumerate() {
            if Some(name.as_str()) == best {
                players.push((name.clone(), Some(self.strategies[i].as_ref())));
            }
        }
        players.push((
            REFERENCE.to_string(),
            Some(self.strategies[self.reference].as_ref()),
        ));
        let headline = &self.plan.headline;
        let mut assessed = assess(
            &rules,
            &players,
            headline,
            self.plan.games,
            self.plan.seed,
            budget,
        )?;
        // One figure per quantity: the win probability `win-rates.csv` writes.
        for a in &mut assessed {
            if let Some(win) = exact_figure(&balance.win_rates, &a.strategy, rules, a.stealth) {
                a.quality.figures.win = win;
            }
        }
        // The example: the recommended file's first game at the middle stealth.
        let mid = headline[headline.len() / 2];
        let example_player = &players[players.len().min(2) - 1];
        let (start, steps, won) = raven_core::quality::one_game(
            &PurpleRaven {
                rules,
                stealth: mid,
            },
            example_player.1,
            self.plan.seed,
            0,
            budget,
        )?;
        let example = Example {
            strategy: example_player.0.clone(),
            stealth: mid,
            index: 0,
            start,
            steps,
            won,
        };
        Ok(Assessment {
            example,
            rules,
            stages: PurpleRaven {
                rules,
                stealth: headline[0],
            }
            .phases(),
            games: self.plan.games,
            seed: self.plan.seed,
            assessed,
        })
    }

    /// The report from the results, filed.
    fn render(&self, mut results: Results) -> Result<Report> {
        let plan = &self.plan;
        let headline = &plan.headline;
        let strategies = &self.strategies;
        let all = &self.all;
        let mut win_rates = Vec::new();
        let mut add =
            |name: &str, rules, method, values: Option<&Vec<Expectation>>, tallies: &[Tally]| {
                for (i, &stealth) in all.iter().enumerate() {
                    if let Some(values) = values {
                        win_rates.push(Summary::from_expectation(
                            name, rules, stealth, method, values[i],
                        ));
                    }
                    win_rates.push(Summary::from_tally(
                        name, rules, stealth, tallies[i], plan.seed, LEVEL,
                    ));
                }
            };
        // Every strategy under each preset, optimal last.
        let mut watched = Vec::new();
        for rules in self.presets {
            for (i, s) in strategies.iter().enumerate() {
                let values = results
                    .exact
                    .remove(&(i, rules))
                    .ok_or_else(|| Results::missing(format!("exact run of {}", s.name())))?;
                let tallies: Vec<Tally> = all
                    .iter()
                    .map(|&stealth| {
                        results
                            .played
                            .remove(&(i, rules, stealth))
                            .ok_or_else(|| Results::missing(format!("games of {}", s.name())))
                    })
                    .collect::<Result<_>>()?;
                add(s.name(), rules, Method::Exact, values.as_ref(), &tallies);
            }
            let (figures, played, seen) = results
                .solved
                .remove(&rules)
                .ok_or_else(|| Results::missing(format!("solve under {rules}")))?;
            add(OPTIMAL, rules, Method::Optimal, Some(&figures), &played);
            watched.extend(seen);
        }

        let mut comparisons: Vec<CompareRow> = Vec::new();
        for rules in self.presets {
            for &stealth in headline {
                let tally = results
                    .compared
                    .remove(&(rules, stealth))
                    .ok_or_else(|| Results::missing(format!("comparison at {stealth}")))?;
                comparisons.extend(compare_rows(
                    &self.names,
                    rules,
                    stealth,
                    &tally,
                    plan.seed,
                    LEVEL,
                ));
            }
        }

        // Rule variants (each flag alone) and levers (each number one step), against the
        // default reading of the printed game.
        let default = self.presets[0];
        let variants = variant_rows(
            &win_rates,
            headline,
            default,
            &departures(&mut results, self.reference, &self.variants)?,
        );
        let levers = variant_rows(
            &win_rates,
            headline,
            default,
            &departures(&mut results, self.reference, &self.levers)?,
        );

        // The decompositions, in report order; one over the budget is left out like the costly.
        let mut decomposed = Vec::new();
        let mut left_out: Vec<String> = Vec::new();
        for (i, s) in strategies.iter().enumerate() {
            match results.decisions.remove(&i) {
                Some(Some(mut results)) => {
                    for told in &mut results {
                        same_figures(told, &win_rates, s.name(), default);
                    }
                    decomposed.push(Decomposed {
                        strategy: s.name().to_string(),
                        rules: default,
                        results,
                    });
                }
                Some(None) | None => left_out.push(s.name().to_string()),
            }
        }

        Ok(Report {
            balance: Balance {
                exact_budget: STATE_LIMIT,
                command: plan.command.clone(),
                presets: self.presets.to_vec(),
                strategies: self.names.clone(),
                headline: headline.clone(),
                win_rates,
                variants,
                levers,
                decisions: decomposed,
                decisions_left_out: left_out,
                watched,
                rules_of_thumb: Vec::new(),
                quality: None,
                cards: Vec::new(),
            },
            comparisons,
        })
    }
}

/// One figure per quantity: a decomposition's win probabilities (the strategy's from its own
/// reverse pass, summed in another order than its exact evaluation, so apart in the last
/// digits) become the ones `win-rates.csv` writes, where the report has them.
fn same_figures(told: &mut Told, win_rates: &[Summary], strategy: &str, rules: Rules) {
    let figure = |name: &str| exact_figure(win_rates, name, rules, told.stealth);
    let (exact, optimal) = (figure(strategy), figure(OPTIMAL));
    told.exact = exact.unwrap_or(told.exact);
    told.optimal = optimal.unwrap_or(told.optimal);
}

/// The exact (or optimal) win probability `win-rates.csv` writes for `strategy` under
/// `rules` at `stealth`, if it has one.
fn exact_figure(win_rates: &[Summary], strategy: &str, rules: Rules, stealth: u8) -> Option<f64> {
    win_rates
        .iter()
        .find(|s| {
            s.strategy == strategy
                && s.rules == rules
                && s.stealth == stealth
                && s.method != Method::MonteCarlo
        })
        .map(|s| s.win_rate)
}

/// A solve's results: optimal figures and Monte Carlo counts per stealth, and the games
/// watched (under the default reading).
type SolvedRun = (Vec<Expectation>, Vec<Tally>, Vec<Watched>);

/// Results, filed by what they are results of.
#[derive(Default)]
struct Results {
    exact: HashMap<(usize, Rules), Option<Vec<Expectation>>>,
    solved: HashMap<Rules, SolvedRun>,
    values: HashMap<Rules, Vec<f64>>,
    decisions: HashMap<usize, Option<Vec<Told>>>,
    played: HashMap<(usize, Rules, u8), Tally>,
    compared: HashMap<(Rules, u8), PairedTally>,
}

impl Results {
    /// Files `finished` under `unit` (checked to be of its kind by [`Work::check`]).
    fn file(&mut self, unit: Unit, finished: Finished) {
        match (unit, finished) {
            (Unit::Exact { strategy, rules }, Finished::Exact(values)) => {
                self.exact.insert((strategy, rules), values);
            }
            (
                Unit::Solve { rules },
                Finished::Solved {
                    figures,
                    played,
                    watched,
                },
            ) => {
                self.solved.insert(rules, (figures, played, watched));
            }
            (Unit::Values { rules }, Finished::Values(values)) => {
                self.values.insert(rules, values);
            }
            (Unit::Decisions { strategy, .. }, Finished::Decisions(told)) => {
                self.decisions.insert(strategy, told);
            }
            (
                Unit::Play {
                    strategy,
                    rules,
                    stealth,
                },
                Finished::Played(tally),
            ) => {
                self.played.insert((strategy, rules, stealth), tally);
            }
            (Unit::Compare { rules, stealth }, Finished::Compared(tally)) => {
                self.compared.insert((rules, stealth), tally);
            }
            (unit, _) => unreachable!("{unit:?}: checked by Work::check"),
        }
    }

    /// A missing result is a bug in the unit list, not a user error.
    fn missing(what: String) -> Error {
        Error::Runtime(format!("internal error: the report has no {what}"))
    }
}

/// Computes the whole report on this machine.
pub fn assemble(
    plan: &Plan,
    pool: &rayon::ThreadPool,
    progress: &dyn ProgressListener,
    cancel: &AtomicBool,
) -> Result<Report> {
    let work = Work::new(plan)?;
    let finished = work.run(&|_| true, pool, progress, cancel)?;
    pool.install(|| work.report(finished, progress, cancel))
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
fn variant_rows(
    win_rates: &[Summary],
    headline: &[u8],
    default: Rules,
    variants: &[Departure],
) -> Vec<VariantRow> {
    let default_of = |name: &str, stealth: u8| {
        win_rates
            .iter()
            .find(|s| {
                s.strategy == name
                    && s.rules == default
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
            rows.push(row("default", default, stealth, strategy, base));
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

impl Unit {
    /// A rough relative cost, for scheduling: a full solve, then the strategies whose team
    /// depends on the complication roll (tens of millions of positions), then the rest.
    fn cost(&self, names: &[String], presets: &[Rules; 2]) -> u32 {
        match self {
            Unit::Solve { .. } => 50,
            Unit::Values { .. } => 25,
            Unit::Decisions { headline, .. } => {
                if *headline {
                    20
                } else {
                    10
                }
            }
            Unit::Exact { strategy, rules } => {
                match (presets.contains(rules), names[*strategy].as_str()) {
                    (true, "reckless") => 70,
                    (true, "cautious" | "medic-main") => 20,
                    (true, _) => 5,
                    (false, _) => 1,
                }
            }
            Unit::Play { .. } | Unit::Compare { .. } => 0,
        }
    }
}

impl Work {
    /// Whether `rules` is one of the presets the report covers at every stealth (a rule
    /// variant is evaluated at the headline stealths only).
    fn is_preset(&self, rules: Rules) -> bool {
        self.presets.contains(&rules)
    }
}

fn check(cancel: &AtomicBool) -> Result<()> {
    if cancel.load(Ordering::Relaxed) {
        Err(Error::Interrupted)
    } else {
        Ok(())
    }
}
