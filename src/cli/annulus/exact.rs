//! `raven --game annulus exact | solve | decisions | compare`: exact figures per number of
//! players — a strategy's, optimal play's, and where a strategy's points go.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use serde::Serialize;

use raven_core::engine::generic::{Figures, Regret, evaluate, regret, solve};
use raven_core::games::Game;
use raven_core::games::annulus::Annulus;
use raven_core::rows::{VERSION, rounded};

use super::{DesignArgs, Row, load_strategy, stopped};
use crate::cli::output::Output;
use crate::error::Result;
use raven_core::games::annulus::{ACTION_LIMIT, JAMMED, REVEAL};

/// Which exact job a command runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// Each strategy's figures.
    Exact,
    /// Optimal play, and each strategy against it.
    Solve,
    /// Each strategy's regret by kind of decision.
    Decisions,
    /// Optimal play and every strategy side by side.
    Compare,
}

/// Arguments of the exact Annulus commands.
#[derive(Args, Debug)]
pub struct ExactArgs {
    /// Strategies, comma-separated: `optimal`, `random`, a bundled name or an Annulus strategy
    /// file (default: `planner` for exact; naive, planner and closest-first otherwise).
    #[arg(long, value_delimiter = ',')]
    pub strategy: Vec<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub design: DesignArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub engine: super::EngineArgs,
    /// Write tidy CSV here (`-` for standard output instead of the table).
    #[arg(long, value_name = "FILE|-")]
    pub out: Option<PathBuf>,
}

/// One row of `decisions`: a strategy's points lost at one kind of decision.
#[derive(Serialize, Debug)]
pub struct KindRow {
    /// Always `annulus`.
    pub game: &'static str,
    /// The strategy.
    pub strategy: String,
    /// The rules.
    pub rules: String,
    /// Players.
    pub players: u8,
    /// The kind of decision.
    pub kind: &'static str,
    /// Decisions of this kind per challenge, in expectation.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub per_game: f64,
    /// Points of success probability lost at them, in expectation.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub regret: f64,
    /// The strategy's success probability.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub success: f64,
    /// Optimal play's.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub optimal: f64,
    /// raven's version.
    pub raven_version: &'static str,
}

/// Runs one of the exact Annulus commands.
pub fn run(args: &ExactArgs, job: Job) -> Result<()> {
    let games = args.design.games()?;
    let names: Vec<String> = if !args.strategy.is_empty() {
        args.strategy.clone()
    } else if job == Job::Exact {
        vec!["planner".into()]
    } else {
        ["naive", "planner", "closest-first"]
            .map(String::from)
            .to_vec()
    };
    let strategies = names
        .iter()
        .filter(|n| *n != "optimal")
        .map(|n| load_strategy(n))
        .collect::<Result<Vec<_>>>()?;
    let wants_optimal = job != Job::Exact || names.iter().any(|n| n == "optimal");
    let output = Output::open(args.out.as_deref())?;
    let engine = args.engine.start()?;
    let (pool, budget) = (&engine.pool, engine.budget());
    let mut rows = Vec::new();
    let mut kinds = Vec::new();
    let mut notes = Vec::new();
    for game in &games {
        let started = Instant::now();
        let solved = if wants_optimal {
            let progress = crate::cli::progress::Progress::spinner(
                &format!(
                    "solving {} players under {}",
                    game.rules().players,
                    game.rules()
                ),
                args.engine.quiet,
            );
            let solved = pool.install(|| solve(game, budget)).map_err(stopped);
            progress.finish();
            let solved = solved?;
            notes.push(format!(
                "{}: optimal play solved in {:.2} s ({} positions, {} sweeps)",
                super::players(game.rules().players),
                started.elapsed().as_secs_f64(),
                solved.positions(),
                solved.sweeps
            ));
            let figures = solved.figures();
            rows.push(row(game, "optimal", &figures, Some(0.0), "optimal"));
            Some(solved)
        } else {
            None
        };
        for strategy in &strategies {
            crate::cli::interrupt::check()?;
            let (figures, lost): (Figures, Option<Regret>) = match &solved {
                Some(solved) => {
                    let (f, r) = pool
                        .install(|| regret(game, strategy.as_ref(), solved, budget))
                        .map_err(stopped)?;
                    (f, Some(r))
                }
                None => (
                    pool.install(|| evaluate(game, strategy.as_ref(), budget))
                        .map_err(stopped)?,
                    None,
                ),
            };
            let behind = lost.as_ref().map(|r| r.optimal - figures.win);
            rows.push(row(game, strategy.name(), &figures, behind, "exact"));
            if let Some(r) = lost {
                for (k, kind) in game.kinds().iter().enumerate() {
                    kinds.push(KindRow {
                        game: "annulus",
                        strategy: strategy.name().to_string(),
                        rules: game.rules().to_string(),
                        players: game.rules().players,
                        kind,
                        per_game: r.reach[k],
                        regret: r.by_kind[k],
                        success: figures.win,
                        optimal: r.optimal,
                        raven_version: VERSION,
                    });
                }
            }
        }
    }
    if job == Job::Decisions {
        let text = if output.is_stdout() {
            String::new()
        } else {
            decisions_table(&kinds)
        };
        return output.write(&text, kinds);
    }
    let text = if output.is_stdout() {
        String::new()
    } else {
        let mut t = table(&rows, job);
        for n in &notes {
            t += n;
            t.push('\n');
        }
        t
    };
    output.write(&text, rows)
}

fn row(
    game: &Annulus,
    strategy: &str,
    f: &Figures,
    regret: Option<f64>,
    method: &'static str,
) -> Row {
    Row {
        game: "annulus",
        strategy: strategy.to_string(),
        rules: game.rules().to_string(),
        players: game.rules().players,
        method,
        games: None,
        success_rate: f.win,
        ci_low: f.win,
        ci_high: f.win,
        seed: None,
        mean_adjustments: f.decisions,
        fail_jammed_rate: f.losses[usize::from(JAMMED)],
        fail_reveal_rate: f.losses[usize::from(REVEAL)],
        fail_action_limit_rate: f.losses[usize::from(ACTION_LIMIT)],
        regret: regret.map(rounded),
        raven_version: VERSION,
    }
}

fn table(rows: &[Row], job: Job) -> String {
    let what = match job {
        Job::Exact => "exact",
        Job::Solve => "solve",
        Job::Compare => "compare",
        Job::Decisions => "decisions",
    };
    let mut text = format!(
        "{what}: the Annulus operation challenge, every outcome (no sampling)\n\n{:<16} {:<24} {:>7} {:>10} {:>10} {:>11} {:>8} {:>8}\n",
        "strategy", "rules", "players", "success", "behind", "adjustments", "jammed", "reveal"
    );
    for r in rows {
        text += &format!(
            "{:<16} {:<24} {:>7} {:>9.3}% {:>10} {:>11.2} {:>7.2}% {:>7.2}%\n",
            r.strategy,
            r.rules,
            r.players,
            100.0 * r.success_rate,
            r.regret
                .map_or(String::new(), |b| format!("{:.3}", 100.0 * b)),
            r.mean_adjustments,
            100.0 * r.fail_jammed_rate,
            100.0 * r.fail_reveal_rate,
        );
    }
    text += "\nsuccess: the probability the challenge succeeds; behind: points (of 100) below optimal play;\nadjustments: per challenge; jammed / reveal: the probability it fails by a jam, or by a revealed die.\n";
    text
}

fn decisions_table(rows: &[KindRow]) -> String {
    let mut text = format!(
        "decisions: where each strategy's points go against optimal play (Annulus)\n\n{:<16} {:<24} {:>7} {:<8} {:>9} {:>9} {:>9}\n",
        "strategy", "rules", "players", "kind", "per game", "regret", "success"
    );
    for r in rows {
        text += &format!(
            "{:<16} {:<24} {:>7} {:<8} {:>9.3} {:>9.4} {:>8.3}%\n",
            r.strategy,
            r.rules,
            r.players,
            r.kind,
            r.per_game,
            100.0 * r.regret,
            100.0 * r.success
        );
    }
    text += "\nper game: decisions of the kind per challenge; regret: points (of 100) lost at them against optimal play.\n";
    text
}
