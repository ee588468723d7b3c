//! `raven decisions`: where a strategy loses its points against optimal play, by kind of
//! decision, and how much real choice each kind of decision offers.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use crate::engine::decisions::{DecisionKind, Decisions, MATTERS, decisions};
use crate::error::Result;
use crate::report::table::{self, Align, Table};
use crate::rules::Rules;
use crate::strategy::REFERENCE;

use super::args::{ExactEngineArgs, RulesArgs, load_strategy, stealth_list};
use super::output::Output;

/// Arguments of `raven decisions`.
#[derive(Args, Debug)]
pub struct DecisionsArgs {
    /// Strategy: a built-in name or a strategy file.
    #[arg(long, default_value = REFERENCE)]
    pub strategy: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub exact: ExactEngineArgs,
    /// Write tidy CSV here (`-` for standard output instead of the table).
    #[arg(long, value_name = "FILE|-")]
    pub out: Option<PathBuf>,
}

/// One CSV row: a strategy's regret at one kind of decision, at one starting stealth.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct DecisionRow {
    /// Strategy name.
    pub strategy: String,
    /// Rules (preset name, or every flag).
    pub rules: String,
    /// Starting stealth.
    pub stealth: u8,
    /// The kind of decision.
    pub decision: &'static str,
    /// Win probability lost at this kind of decision against optimal play (0–1).
    pub regret: f64,
    /// Decisions of this kind with more than one option, per game.
    pub arises_per_game: f64,
    /// Of those, per game, the ones whose best and worst options differ by more than a point.
    pub matters_per_game: f64,
    /// The strategy's exact win probability.
    pub exact: f64,
    /// The optimal win probability.
    pub optimal: f64,
    /// raven's version.
    pub raven_version: &'static str,
}

/// Runs `raven decisions`.
pub fn run(args: &DecisionsArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let strategy = load_strategy(&args.strategy)?;
    // Before the evaluation, which can take minutes: an unusable path fails now.
    let output = Output::open(args.out.as_deref())?;
    let stealths = stealth_list(&args.exact.stealth);
    let result = args.exact.run_job(
        &format!("decisions: {} under {rules}", strategy.name()),
        |budget| decisions(&rules, strategy.as_ref(), &args.exact.stealth, budget),
    )?;
    let rows = rows(strategy.name(), rules, &result);
    let mut text = String::new();
    if !output.is_stdout() {
        let inputs = [
            format!("strategy {}", strategy.name()),
            format!("rules {rules}"),
            format!("stealth {stealths}"),
            "every outcome, no sampling".to_string(),
        ];
        text = table::inputs_line("decisions", &inputs);
        for d in &result {
            text += &format!(
                "\nstealth {}: optimal {:.2}%, {} {:.2}%, regret {:.2} points\n",
                d.stealth,
                100.0 * d.optimal,
                strategy.name(),
                100.0 * d.exact,
                100.0 * (d.optimal - d.exact)
            );
            text += &kinds_table(d);
        }
        text += &format!(
            "\nregret: win probability lost at that kind of decision against optimal play \
             (points); per game: decisions of that kind with a choice, and those whose best \
             and worst options differ by more than {:.0} point\n",
            100.0 * MATTERS
        );
    }
    output.write(&text, &rows)
}

/// The CSV rows of `result`, one per (stealth, kind of decision).
fn rows(strategy: &str, rules: Rules, result: &[Decisions]) -> Vec<DecisionRow> {
    result
        .iter()
        .flat_map(|d| {
            DecisionKind::ALL.into_iter().map(move |k| {
                let i = k as usize;
                DecisionRow {
                    strategy: strategy.to_string(),
                    rules: rules.to_string(),
                    stealth: d.stealth,
                    decision: k.key(),
                    regret: d.by_kind.regret[i],
                    arises_per_game: d.by_kind.arises[i],
                    matters_per_game: d.by_kind.matters[i],
                    exact: d.exact,
                    optimal: d.optimal,
                    raven_version: env!("CARGO_PKG_VERSION"),
                }
            })
        })
        .collect()
}

/// One stealth's kinds, the costliest first.
fn kinds_table(d: &Decisions) -> String {
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
