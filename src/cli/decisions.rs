//! `raven decisions`: where a strategy loses its points against optimal play, by kind of
//! decision, and how much real choice each kind of decision offers; and the positions that
//! cost it most, in words.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::engine::decisions::{MATTERS, decisions, decisions_of_each};
use crate::error::{Error, Result};
use crate::game::DecisionKind;
use crate::report::decisions::{Decomposed, Told, top_text};
use crate::report::table::{self, Align, Table};
use crate::strategy::{REFERENCE, Strategy};

use super::args::{ExactEngineArgs, RulesArgs, load_strategies, stealth_list};
use super::output::Output;

/// Arguments of `raven decisions`.
#[derive(Args, Debug)]
pub struct DecisionsArgs {
    /// Strategies: built-in or bundled names, or strategy files; several comma-separated
    /// (`--strategy a,b`) or the option repeated (`--strategy a --strategy b`). One solve
    /// serves them all, and as many are decomposed at once as there are threads.
    #[arg(
        long = "strategy",
        value_name = "NAME|FILE",
        default_value = REFERENCE,
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
    /// Write the positions that cost most (10 per stealth) here as tidy CSV (`-` for
    /// standard output instead of the table).
    #[arg(long, value_name = "FILE|-")]
    pub top_out: Option<PathBuf>,
}

/// Runs `raven decisions`.
pub fn run(args: &DecisionsArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let strategies = load_strategies(&args.strategies)?;
    // Before the evaluation, which can take minutes: an unusable path fails now.
    if args.out.as_deref() == Some(Path::new("-"))
        && args.top_out.as_deref() == Some(Path::new("-"))
    {
        return Err(Error::Input(
            "--out - and --top-out - would both write CSV to standard output; send one of \
             them to a file"
                .to_string(),
        ));
    }
    let output = Output::open(args.out.as_deref())?;
    let top_output = args
        .top_out
        .as_deref()
        .map(|p| Output::open(Some(p)))
        .transpose()?;
    let stealths = stealth_list(&args.exact.stealth);
    let names: Vec<&str> = strategies.iter().map(|s| s.name()).collect();
    let results = args.exact.run_job(
        &format!("decisions: {} under {rules}", names.join(", ")),
        |budget| match &strategies[..] {
            // The solve side by side with the strategy's own part.
            [strategy] => Ok(vec![decisions(
                &rules,
                strategy.as_ref(),
                &args.exact.stealth,
                budget,
            )?]),
            _ => {
                let each: Vec<&dyn Strategy> = strategies.iter().map(|s| s.as_ref()).collect();
                decisions_of_each(&rules, &each, &args.exact.stealth, budget)
            }
        },
    )?;
    let told: Vec<Decomposed> = names
        .iter()
        .zip(&results)
        .map(|(name, result)| Decomposed::new(name, rules, result))
        .collect();
    let rows: Vec<_> = told.iter().flat_map(Decomposed::rows).collect();
    let top_rows: Vec<_> = told.iter().flat_map(Decomposed::top_rows).collect();
    let mut text = String::new();
    if !output.is_stdout() && !top_output.as_ref().is_some_and(Output::is_stdout) {
        let inputs = [
            format!("strategy {}", names.join(", ")),
            format!("rules {rules}"),
            format!("stealth {stealths}"),
            "every outcome, no sampling".to_string(),
        ];
        text = table::inputs_line("decisions", &inputs);
        for told in &told {
            for d in &told.results {
                text += &format!(
                    "\n{}stealth {}: optimal {:.2}%, {} {:.2}%, regret {:.2} points\n",
                    if names.len() > 1 {
                        format!("{}, ", told.strategy)
                    } else {
                        String::new()
                    },
                    d.stealth,
                    100.0 * d.optimal,
                    told.strategy,
                    100.0 * d.exact,
                    100.0 * (d.optimal - d.exact)
                );
                text += &kinds_table(d);
                text += &top_text(d);
            }
        }
        text += &format!(
            "\nregret: win probability lost at that kind of decision against optimal play \
             (points); per game: decisions of that kind with a choice, and those whose best \
             and worst options differ by more than {:.0} point; costliest: the positions \
             where the most win probability is lost per game (chance of reaching them × \
             what the choice loses there; positions alike but for the names of members the \
             strategy tells apart only by their order are one, named as first met)\n",
            100.0 * MATTERS
        );
    }
    if let Some(top) = top_output {
        top.write("", &top_rows)?;
    }
    output.write(&text, &rows)
}

/// One stealth's kinds, the costliest first.
fn kinds_table(d: &Told) -> String {
    let mut kinds = DecisionKind::ALL.to_vec();
    kinds.sort_by(|a, b| d.by_kind.regret[*b as usize].total_cmp(&d.by_kind.regret[*a as usize]));
    let mut t = Table::new([
        ("  decision", Align::Left),
        ("regret pp", Align::Right),
        ("share", Align::Right),
        ("per game", Align::Right),
        ("matter", Align::Right),
    ]);
    let total = d.optimal - d.exact;
    for k in kinds {
        let i = k as usize;
        let share = if total > 0.0 {
            format!("{:.0}%", 100.0 * d.by_kind.regret[i] / total)
        } else {
            "-".to_string()
        };
        t.row(vec![
            format!("  {}", k.key()),
            format!("{:.2}", 100.0 * d.by_kind.regret[i]),
            share,
            format!("{:.2}", d.by_kind.arises[i]),
            format!("{:.2}", d.by_kind.matters[i]),
        ]);
    }
    t.render()
}
