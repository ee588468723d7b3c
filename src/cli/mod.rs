//! The command line: one module per subcommand, shared argument groups here.

mod advisor;
pub mod annulus;
mod args;
mod bounds;
mod card;
mod compare;
mod decisions;
mod docs;
mod exact;
mod explore;
mod interrupt;
mod ledger;
mod merge;
pub(crate) mod output;
mod play;
mod progress;
pub mod quality;
mod report;
mod shard;
mod shard_file;
mod simulate;
mod solve;
mod strategies;
mod sweep;
mod tune;

use clap::{Parser, Subcommand};

pub use args::{RulesArgs, RunArgs};

use crate::error::Result;

/// raven — how winnable is Operation Purple Raven, and which decisions matter?
///
/// Plays the solo tabletop game by the rulings of docs/rules.md, millions of times, under pluggable
/// strategies; reports win probabilities with confidence intervals. Another game: `raven --game
/// annulus …` (`raven games` lists them).
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
    /// Narrate one game: every roll, decision, wound and phase change, and its ledger (luck
    /// and skill: what the rolls gave and took, what the decisions gave up).
    Play(play::PlayArgs),
    /// Play many games and report win rates per starting stealth (Monte Carlo).
    Simulate(simulate::SimulateArgs),
    /// List the strategies `--strategy` accepts, or check strategy files.
    Strategies(strategies::StrategiesArgs),
    /// Compare strategies on the same games: paired differences with intervals and p-values.
    Compare(compare::CompareArgs),
    /// Vary numeric knobs of a strategy file over a grid; one CSV row per point and stealth.
    Sweep(sweep::SweepArgs),
    /// Exact win probability of a strategy (expectation over every outcome, no sampling).
    Exact(exact::ExactArgs),
    /// What if the game were different: design parameters varied over a grid, each point
    /// solved for optimal play and evaluated exactly for the chosen strategies.
    Explore(explore::ExploreArgs),
    /// Optimal play: best win probability, best per main character, regret of strategies.
    Solve(solve::SolveArgs),
    /// Where a strategy loses its points against optimal play, by kind of decision, and how
    /// much real choice each kind offers.
    Decisions(decisions::DecisionsArgs),
    /// Is it a good game? Luck and skill (what the dice decide, what the decisions give up),
    /// tension (suspense, comebacks, heartbreaks) and length, per strategy and stealth.
    Quality(quality::QualityArgs),
    /// The best strategy a person can follow: search the knobs of a strategy file for the
    /// highest exact win probability, with the rules of thumb in the order they matter.
    Tune(tune::TuneArgs),
    /// The rule card: rules of thumb a person can follow, added to the best knob file one at
    /// a time (each the one gaining the most exact win probability), printed by worth with
    /// the ladder of win probability against the number of rules beside optimal play.
    Card(card::CardArgs),
    /// Regenerate the balance report (reports/): win rates, rule variants, loss causes,
    /// strategy comparison, charts and a README.
    Report(report::ReportArgs),
    /// Join the shard files of one `--shard K/N` run (simulate, sweep, explore, report) into
    /// the CSV (report: the directory) the whole run writes, after checking they are every
    /// shard of one run, each once.
    Merge(merge::MergeArgs),
    /// List the games raven plays (`--game NAME` picks one; the default is purple-raven).
    Games,
    /// Print a shell completion script (bash, elvish, fish, powershell, zsh).
    Completions(docs::CompletionsArgs),
    /// Print the manual page (roff), or write one page per command with `--dir`.
    Man(docs::ManArgs),
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    // First of all: no output file can be reserved before the handler can remove it.
    interrupt::install();
    match cli.command {
        Command::Play(args) if args.at_the_table() => advisor::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Strategies(args) => strategies::run(&args),
        Command::Compare(args) => compare::run(&args),
        Command::Sweep(args) => sweep::run(&args),
        Command::Exact(args) => exact::run(&args),
        Command::Explore(args) => explore::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Decisions(args) => decisions::run(&args),
        Command::Quality(args) => quality::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Card(args) => card::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Games => games(),
        Command::Completions(args) => docs::completions(&args),
        Command::Man(args) => docs::man(&args),
    }
}

/// The games raven plays: `--game` spells them so.
pub const GAMES: [(&str, &str); 2] = [
    (
        "purple-raven",
        "Operation Purple Raven: recruit a team, run, and win three Tough Challenges (docs/rules.md)",
    ),
    (
        "annulus",
        "the Annulus operation challenge: adjust a line of d12s until neighbours differ by 1 (docs/annulus.md)",
    ),
];

/// The game a command line asks for — the value of its `--game NAME` (purple-raven when none),
/// or a message naming the games when it is not one — and the command line without it. A
/// number after `--game` is not a game but `play --game N`, the game of a seeded run.
pub fn game_of(
    args: &[std::ffi::OsString],
) -> std::result::Result<(&'static str, Vec<std::ffi::OsString>), String> {
    let mut asked = None;
    let mut rest = Vec::with_capacity(args.len());
    let mut words = args.iter();
    let is_index = |value: &str| !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit());
    while let Some(word) = words.next() {
        let text = word.to_string_lossy();
        if text == "--" {
            rest.push(word.clone());
            rest.extend(words.cloned());
            break;
        }
        if text == "--game" {
            if let Some(value) = words.next() {
                let value_text = value.to_string_lossy();
                if is_index(&value_text) {
                    rest.extend([word.clone(), value.clone()]);
                } else {
                    asked = Some(value_text.into_owned());
                }
                continue;
            }
        } else if let Some(value) = text.strip_prefix("--game=")
            && !is_index(value)
        {
            asked = Some(value.to_string());
            continue;
        }
        rest.push(word.clone());
    }
    let Some(asked) = asked else {
        return Ok((GAMES[0].0, rest));
    };
    GAMES
        .iter()
        .find(|(name, _)| *name == asked)
        .map(|(name, _)| (*name, rest))
        .ok_or_else(|| {
            format!(
                "unknown game '{asked}' (allowed: {})",
                GAMES.map(|(n, _)| n).join(", ")
            )
        })
}

/// `raven games`: one line per game.
pub fn games() -> Result<()> {
    let text: String = GAMES
        .iter()
        .map(|(name, about)| format!("{name:<14} {about}\n"))
        .collect();
    output::to_stdout(text.as_bytes())
}
