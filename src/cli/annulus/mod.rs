//! The command line of the Annulus operation challenge (`raven --game annulus …`): the same
//! commands as Purple Raven's where they apply, by number of players instead of stealth.

mod card;
mod exact;
mod explore;
mod play;
mod quality;
mod report;
mod row;
pub(in crate::cli) mod shard;
mod simulate;
mod tune;

use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand};

use raven_core::engine::generic::Stop;
use raven_core::games::annulus::strategy::{BUNDLED, Knobs, about};
use raven_core::games::annulus::{Annulus, Rules};
use raven_core::games::{Policy, Uniform};

use crate::error::{Error, Result};

pub use row::Row;

/// raven — how winnable is the Annulus operation challenge, and which decisions matter?
///
/// Plays the challenge by the rulings of docs/annulus.md: exact success probabilities for
/// optimal play and for rules of thumb, Monte Carlo, regret by decision, a player's advisor.
#[derive(Parser, Debug)]
#[command(name = "raven", version, about, long_about = None, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play many challenges and report success rates per number of players (Monte Carlo).
    Simulate(simulate::SimulateArgs),
    /// Exact success probability of strategies (every outcome, no sampling).
    Exact(exact::ExactArgs),
    /// Optimal play: the best success probability, and how far strategies are from it.
    Solve(exact::ExactArgs),
    /// Where strategies lose their points against optimal play, by kind of decision.
    Decisions(exact::ExactArgs),
    /// Strategies side by side, exactly: success, adjustments and regret.
    Compare(exact::ExactArgs),
    /// What if the challenge were different: one rules key over its values, each point solved
    /// exactly for optimal play and the chosen strategies.
    Explore(explore::ExploreArgs),
    /// Is it a good game? Luck and skill, tension (suspense, comebacks, heartbreaks) and
    /// length per strategy and number of players: exact where an expectation, sampled where a
    /// distribution.
    Quality(quality::QualityArgs),
    /// Write the Annulus balance report: success by players and difficulty, regret, levers,
    /// charts and a README (`reports/annulus/`).
    Report(report::ReportArgs),
    /// Search the strategy-file knobs for the best rules of thumb: every file the knobs can
    /// express, evaluated exactly at every number of players asked, beside optimal play.
    Tune(tune::TuneArgs),
    /// The rule card: rules of thumb a person can follow, added to a strategy file's knobs one
    /// at a time (each the one gaining the most exact success probability), printed by worth
    /// with the ladder of success against the number of rules beside optimal play.
    Card(card::CardArgs),
    /// Narrate one challenge die by die, optionally with optimal play's advice, and its ledger
    /// (luck and skill: what the rolls gave and took, what the decisions gave up).
    Play(play::PlayArgs),
    /// List the strategies `--strategy` accepts, or check strategy files.
    Strategies(StrategiesArgs),
    /// Join the shard files of one `simulate --shard K/N` run into the CSV of the whole run
    /// (the same as `raven merge`).
    Merge(super::merge::MergeArgs),
    /// List the games raven plays.
    Games,
    /// Not for this game (Purple Raven's commands that have no Annulus form yet).
    #[command(external_subcommand)]
    Other(Vec<String>),
}

/// `raven strategies`: list or check.
#[derive(Args, Debug)]
pub struct StrategiesArgs {
    /// `check FILE…` validates strategy files; nothing lists the strategies.
    pub action: Vec<String>,
}

/// Runs a parsed Annulus command line.
pub fn run(cli: Cli) -> Result<()> {
    super::interrupt::install();
    match cli.command {
        Command::Simulate(args) => simulate::run(&args),
        Command::Exact(args) => exact::run(&args, exact::Job::Exact),
        Command::Solve(args) => exact::run(&args, exact::Job::Solve),
        Command::Decisions(args) => exact::run(&args, exact::Job::Decisions),
        Command::Compare(args) => exact::run(&args, exact::Job::Compare),
        Command::Explore(args) => explore::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Quality(args) => quality::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Card(args) => card::run(&args),
        Command::Strategies(args) => strategies(&args),
        Command::Merge(args) => super::merge::run(&args),
        Command::Games => super::games(),
        Command::Other(words) => Err(Error::Input(format!(
            "'{}' is not a command for the Annulus operation challenge (its commands: simulate, exact, solve, decisions, compare, explore, quality, report, tune, card, play, merge, strategies, games)",
            words.first().map_or("", String::as_str)
        ))),
    }
}

/// `--rules`, `--rule` and `--players`: which design is played.
#[derive(Args, Debug, Clone)]
pub struct DesignArgs {
    /// Rules preset: `normal` (target 4) or `advanced` (target 7).
    #[arg(long = "rules", value_name = "PRESET", default_value = "normal")]
    pub preset: String,
    /// Override one ruling or design parameter, e.g. `--rule target=5` (repeatable). Keys:
    /// target, hidden-faces, reveal-order, wrap, action-limit (players: use --players). Knacks
    /// and training abilities are not modelled (A7): a lower target stands in for training.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
    /// Numbers of players, 1..=4, comma-separated (a line has players + 2 dice).
    #[arg(long, default_value = "1,2,3", value_parser = players_list)]
    pub players: PlayerList,
    /// Purple Raven's axis, refused here: Annulus outputs are by `--players`.
    #[arg(long, hide = true)]
    pub stealth: Option<String>,
}

/// The numbers of players asked for, in order, none twice.
pub type PlayerList = Vec<u8>;

pub(super) fn players_list(text: &str) -> std::result::Result<PlayerList, String> {
    let mut list = Vec::new();
    for part in text.split(',') {
        let n: u8 = part
            .trim()
            .parse()
            .ok()
            .filter(|n| (1..=4).contains(n))
            .ok_or_else(|| format!("'{part}' is not a number of players 1..=4"))?;
        if list.contains(&n) {
            return Err(format!("{n} players is given twice"));
        }
        list.push(n);
    }
    Ok(list)
}

impl DesignArgs {
    /// The game for each `--players`, after refusing what Annulus does not take.
    pub fn games(&self) -> Result<Vec<Annulus>> {
        if self.stealth.is_some() {
            return Err(Error::Input(
                "the Annulus operation challenge has no stealth: its outputs are by number of players (--players 1,2,3)".into(),
            ));
        }
        if let Some(o) = self
            .overrides
            .iter()
            .find(|o| o.trim_start().starts_with("players"))
        {
            return Err(Error::Input(format!(
                "--rule {o}: give the number of players with --players"
            )));
        }
        let base =
            Rules::parse(&self.preset, &self.overrides).map_err(|e| Error::Input(e.to_string()))?;
        Ok(self
            .players
            .iter()
            .map(|&players| Annulus::new(Rules { players, ..base }))
            .collect())
    }
}

/// `--max-memory`, `--threads` and `--quiet`: how every exact Annulus command runs.
#[derive(Args, Debug, Clone)]
pub struct EngineArgs {
    /// Give up, with a message saying what it may need, before the stored positions would take
    /// more than this much memory: `6G`, `512M`, `1.5GiB`.
    #[arg(long, default_value = "6G", value_parser = crate::cli::bounds::memory_size)]
    pub max_memory: u64,
    /// Worker threads (default: all cores); the results do not depend on it.
    #[arg(long, value_parser = crate::cli::bounds::threads)]
    pub threads: Option<u16>,
    /// No progress display.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The engines' surroundings for one command: the `--threads` pool, the signal flag polled.
pub struct Engine {
    /// The pool the engines run in.
    pub pool: rayon::ThreadPool,
    cancel: [&'static std::sync::atomic::AtomicBool; 1],
    max_states: usize,
    _polled: crate::cli::interrupt::Polled,
}

impl EngineArgs {
    /// The pool and the signal flag for a command's engine runs.
    pub fn start(&self) -> Result<Engine> {
        Ok(Engine {
            pool: crate::cli::args::pool(self.threads)?,
            cancel: [crate::cli::interrupt::flag()],
            max_states: usize::try_from(
                self.max_memory / raven_core::engine::generic::program::BYTES_PER_POSITION,
            )
            .unwrap_or(usize::MAX),
            _polled: crate::cli::interrupt::polled(),
        })
    }
}

impl Engine {
    /// The budget of every engine run: as many positions as `--max-memory` holds, stopped by a
    /// signal.
    pub fn budget(&self) -> raven_core::engine::Budget<'_> {
        raven_core::engine::Budget {
            max_states: self.max_states,
            cancel: &self.cancel,
        }
    }
}

/// A strategy by name: `random`, a bundled name, or an Annulus strategy file.
pub fn load_strategy(spec: &str) -> Result<Box<dyn Policy<Annulus>>> {
    if spec == "random" {
        return Ok(Box::new(Uniform));
    }
    let path = Path::new(spec);
    if !path.is_file()
        && let Some(knobs) = Knobs::bundled(spec)
    {
        return Ok(Box::new(knobs));
    }
    if path.is_file() || spec.ends_with(".toml") || spec.contains('/') {
        return Ok(Box::new(read_knobs(path)?));
    }
    Err(Error::Input(format!(
        "unknown Annulus strategy '{spec}' (allowed: random, {}, an Annulus strategy file, or optimal where the command solves)",
        BUNDLED.map(|(n, _)| n).join(", ")
    )))
}

/// Reads an Annulus strategy file, refusing another game's with a message that says so.
pub fn read_knobs(path: &Path) -> Result<Knobs> {
    let origin = path.display().to_string();
    let text = crate::input::read_text(path)
        .map_err(|e| Error::Input(format!("{origin}: cannot read strategy file: {e}")))?;
    if !text.lines().any(|l| l.trim_start().starts_with("game")) {
        return Err(Error::Input(format!(
            "{origin}: not an Annulus strategy file (it has no `game = \"annulus\"` line; Purple Raven's files are played without --game annulus)"
        )));
    }
    Knobs::parse(&origin, &text).map_err(|e| Error::Input(e.to_string()))
}

fn strategies(args: &StrategiesArgs) -> Result<()> {
    match args.action.split_first() {
        None => {
            let mut text = String::from(
                "optimal        the best play (solved exactly)\nrandom         any adjustment, each as likely\n",
            );
            for (name, source) in BUNDLED {
                text += &format!("{name:<14} {}\n", about(source));
            }
            super::output::to_stdout(text.as_bytes())
        }
        Some((check, files)) if check == "check" && !files.is_empty() => {
            for file in files {
                let knobs = read_knobs(&PathBuf::from(file))?;
                for warning in knobs.warnings() {
                    eprintln!("{warning}");
                }
                super::output::to_stdout(format!("{file}: ok ({})\n", knobs.name).as_bytes())?;
            }
            Ok(())
        }
        _ => Err(Error::Input(
            "usage: raven --game annulus strategies [check FILE…]".into(),
        )),
    }
}

/// `1 player`, `3 players`.
pub fn players(n: u8) -> String {
    format!("{n} player{}", if n == 1 { "" } else { "s" })
}

/// An engine's stop as a command's error.
pub fn stopped(stop: Stop) -> Error {
    stop.into()
}
