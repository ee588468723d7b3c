//! `raven --game annulus quality`: is it a good game? Luck and skill, tension and length per
//! strategy and number of players, from optimal play's win probability along every game.

use std::path::PathBuf;

use clap::Args;

use raven_core::engine::generic::quality::quality;
use raven_core::engine::generic::{OptimalPolicy, solve};
use raven_core::games::annulus::Annulus;
use raven_core::games::{Game, Policy};

use super::{DesignArgs, load_strategy, stopped};
use crate::cli::output::{AtomicFile, Output};
use crate::cli::quality::write;
use crate::error::Result;
use crate::report::quality::rows::{Axis, Of, QualityRow, decided_rows};

/// Arguments of `raven --game annulus quality`.
#[derive(Args, Debug)]
pub struct QualityArgs {
    /// Strategies, comma-separated: `optimal`, `random`, a bundled name or an Annulus strategy
    /// file.
    #[arg(long, default_value = "optimal,planner,naive", value_delimiter = ',')]
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
    /// Write where challenges are decided here, as tidy CSV: one row per strategy, players,
    /// stage and result.
    #[arg(long, value_name = "FILE")]
    pub decided: Option<PathBuf>,
}

/// Runs `raven --game annulus quality`.
pub fn run(args: &QualityArgs) -> Result<()> {
    let games = args.design.games()?;
    let chosen = args
        .strategy
        .iter()
        .map(|s| {
            if s == "optimal" {
                Ok(None)
            } else {
                load_strategy(s).map(Some)
            }
        })
        .collect::<Result<Vec<_>>>()?;
    let output = Output::open(args.out.as_deref())?;
    let decided_out = args
        .decided
        .as_deref()
        .map(AtomicFile::create)
        .transpose()?;
    let engine = args.engine.start()?;
    let (pool, budget) = (&engine.pool, engine.budget());
    let (mut rows, mut decided) = (Vec::new(), Vec::new());
    for game in &games {
        let solved = pool.install(|| solve(game, budget)).map_err(stopped)?;
        let optimal = OptimalPolicy::new(&solved);
        for strategy in &chosen {
            crate::cli::interrupt::check()?;
            let policy: &dyn Policy<Annulus> = match strategy {
                Some(s) => s.as_ref(),
                None => &optimal,
            };
            let q = pool
                .install(|| quality(&solved, policy, budget))
                .map_err(stopped)?;
            let of = Of {
                game: "annulus",
                strategy: policy.name(),
                rules: game.rules().to_string(),
                axis: Axis::Players(game.rules().players),
            };
            decided.extend(decided_rows(&q, &of, &game.phases()));
            rows.push(QualityRow::new(&q, of));
        }
    }
    write(
        output,
        decided_out,
        rows,
        decided,
        "the Annulus operation challenge, every figure exact",
    )
}
