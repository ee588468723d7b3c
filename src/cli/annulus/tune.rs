//! `raven --game annulus tune`: the best Annulus strategy file the knobs can express. The knob
//! grid is small (what to aim for × which die first), so every file of it is evaluated exactly
//! at every number of players asked, beside optimal play, and the best mean success wins
//! (equal means: the first in grid order).

use std::path::PathBuf;

use clap::Args;

use raven_core::engine::generic::{Optimum, evaluate, solve};
use raven_core::games::annulus::strategy::Knobs;

use super::{DesignArgs, EngineArgs, stopped};
use crate::cli::output::{AtomicFile, to_stdout};
use crate::error::Result;

/// Arguments of `raven --game annulus tune`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub design: DesignArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub engine: EngineArgs,
    /// Write the winner here as a strategy file (`--strategy FILE` plays it).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// The winner's name in the file written.
const TUNED: &str = "tuned";

/// Runs `raven --game annulus tune`.
pub fn run(args: &TuneArgs) -> Result<()> {
    let games = args.design.games()?;
    // The output is opened first: a path that cannot be written is refused before the work.
    let mut file = args.out.as_deref().map(AtomicFile::create).transpose()?;
    let engine = args.engine.start()?;
    let (pool, budget) = (&engine.pool, engine.budget());
    let grid = Knobs::grid();
    // success[f][g]: file f's exact success at design g; optimal play's last.
    let mut success = vec![vec![0.0; games.len()]; grid.len() + 1];
    for (g, game) in games.iter().enumerate() {
        let progress = crate::cli::progress::Progress::spinner(
            &format!(
                "{} under {}: solving, then {} strategy files",
                super::players(game.rules().players),
                game.rules(),
                grid.len()
            ),
            args.engine.quiet,
        );
        let done = pool.install(|| -> Result<()> {
            success[grid.len()][g] = solve(game, budget).map_err(stopped)?.start();
            for (f, knobs) in grid.iter().enumerate() {
                success[f][g] = evaluate(game, knobs, budget).map_err(stopped)?.win;
            }
            Ok(())
        });
        progress.finish();
        done?;
    }
    let mean = |row: &[f64]| row.iter().sum::<f64>() / row.len() as f64;
    let best = (0..grid.len())
        .reduce(|b, f| {
            if mean(&success[f]) > mean(&success[b]) {
                f
            } else {
                b
            }
        })
        .expect("a grid of files");
    let optimal = mean(&success[grid.len()]);
    let rules = games[0].rules();
    let players: Vec<String> = games
        .iter()
        .map(|g| super::players(g.rules().players))
        .collect();
    let mut text = format!(
        "Annulus strategy files under {rules}: exact success probability by players\n\n{:<26}",
        "strategy (aim+order)"
    );
    for p in &players {
        text += &format!(" {p:>10}");
    }
    text += "       mean  below optimal\n";
    let line = |name: &str, row: &[f64]| {
        let mut l = format!("{name:<26}");
        for v in row {
            l += &format!(" {:>9.1}%", 100.0 * v);
        }
        l += &format!(" {:>9.1}%", 100.0 * mean(row));
        l
    };
    for (f, knobs) in grid.iter().enumerate() {
        let mark = if f == best { "  best" } else { "" };
        text += &format!(
            "{}  {:>9.1} pp{mark}\n",
            line(&knobs.name, &success[f]),
            100.0 * (optimal - mean(&success[f]))
        );
    }
    text += &format!("{}\n\n", line("optimal", &success[grid.len()]));
    let winner = grid[best].with_card(Vec::new(), TUNED);
    text += &format!(
        "The best file is {}, {:.1} points below optimal play on average:\n\n{}",
        grid[best].name,
        100.0 * (optimal - mean(&success[best])),
        winner.to_toml()
    );
    if let Some(file) = file.as_mut() {
        let header = format!(
            "# Annulus: the best strategy file of the knob grid under {rules}, players {}: mean exact\n# success {:.12} (optimal play {:.12}), by `raven --game annulus tune`.\n",
            games
                .iter()
                .map(|g| g.rules().players.to_string())
                .collect::<Vec<_>>()
                .join(","),
            mean(&success[best]),
            optimal
        );
        file.writer().extend_from_slice(header.as_bytes());
        file.writer().extend_from_slice(winner.to_toml().as_bytes());
    }
    to_stdout(text.as_bytes())?;
    if let Some(file) = file {
        file.commit()?;
    }
    Ok(())
}
