//! `raven quality`: is it a good game? Luck and skill, tension and length per strategy and
//! starting stealth, from optimal play's win probability along every game.

use std::path::PathBuf;

use clap::Args;

use crate::error::Result;
use crate::game::interface::PurpleRaven;
use crate::strategy::{OPTIMAL, Strategy};
use raven_core::games::Game;
use raven_core::quality::assess;

use super::args::{ExactEngineArgs, RulesArgs, load_strategies, stealth_list};
use super::interrupt;
use super::output::{AtomicFile, Output};
use crate::report::csv::write_rows;
use crate::report::quality::rows::{
    Axis, DecidedRow, Of, QualityRow, decided_rows, decided_table, table,
};

/// Arguments of `raven quality`.
#[derive(Args, Debug)]
pub struct QualityArgs {
    /// Strategies: `optimal`, built-in or bundled names, or strategy files; comma-separated or
    /// the option repeated.
    #[arg(
        long = "strategy",
        value_name = "NAME|FILE",
        default_value = "optimal,tuned,duo,reference",
        num_args = 1,
        value_delimiter = ','
    )]
    pub strategies: Vec<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub exact: ExactEngineArgs,
    /// Write tidy CSV here (`-` for standard output instead of the table).
    #[arg(long, value_name = "FILE|-")]
    pub out: Option<PathBuf>,
    /// Write where games are decided here, as tidy CSV: one row per strategy, stealth, stage
    /// and result.
    #[arg(long, value_name = "FILE")]
    pub decided: Option<PathBuf>,
}

/// Writes either game's quality: `rows` to `output` (the table headed `title` on the terminal
/// unless the CSV goes there), and where games were decided to `decided_out` if asked.
pub fn write(
    output: Output,
    decided_out: Option<AtomicFile>,
    rows: Vec<QualityRow>,
    decided: Vec<DecidedRow>,
    title: &str,
) -> Result<()> {
    let text = if output.is_stdout() {
        String::new()
    } else {
        table(&rows, title) + &decided_table(&rows, &decided)
    };
    if let Some(mut file) = decided_out {
        interrupt::check()?;
        write_rows(file.writer(), &decided)?;
        file.commit()?;
    }
    output.write(&text, rows)
}

/// Runs `raven quality`.
pub fn run(args: &QualityArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let loaded = load_strategies(&args.strategies)?;
    let output = Output::open(args.out.as_deref())?;
    let decided_out = args
        .decided
        .as_deref()
        .map(AtomicFile::create)
        .transpose()?;
    let chosen: Vec<(String, Option<&dyn Strategy>)> = loaded
        .iter()
        .map(|s| {
            let name = s.name().to_string();
            if name == OPTIMAL {
                (name, None)
            } else {
                (name, Some(s.as_ref()))
            }
        })
        .collect();
    let stealths = stealth_list(&args.exact.stealth);
    let assessed = args
        .exact
        .run_job(&format!("quality under {rules}"), |budget| {
            assess(&rules, &chosen, &args.exact.stealth, 0, 0, budget)
        })?;
    let stages = PurpleRaven {
        rules,
        stealth: args.exact.stealth[0],
    }
    .phases();
    let (mut rows, mut decided) = (Vec::new(), Vec::new());
    for a in &assessed {
        let of = Of {
            game: "purple-raven",
            strategy: &a.strategy,
            rules: rules.to_string(),
            axis: Axis::Stealth(a.stealth),
        };
        decided.extend(decided_rows(&a.quality, &of, &stages));
        rows.push(QualityRow::new(&a.quality, of));
    }
    write(
        output,
        decided_out,
        rows,
        decided,
        &format!("Operation Purple Raven, stealth {stealths}, every figure exact"),
    )
}
