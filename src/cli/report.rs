//! `raven report`: regenerate the designer's balance report (`reports/`) deterministically.
//!
//! What is computed lives in [`crate::report::assemble`]; this module reads the options,
//! supplies the thread pool, progress bar and Ctrl-C flag, and writes the files.
//!
//! With `--shard K/N` it runs every N-th unit of the report's work ([`Work`]: exact
//! evaluations, solves, decompositions, Monte Carlo runs) and writes their results as a shard
//! file, one row per unit, the result as JSON (every number exactly); [`merge`] reads the N
//! shard files back and writes the report directory the whole run writes, byte for byte.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use clap::Args;

use crate::card::bundled_card;
use crate::error::{Error, Result};
use crate::game::MAX_STEALTH;
use crate::report::assemble::{Finished, Plan, Report, Work, assemble};
use crate::report::balance::loss_rows;
use crate::report::csv::{summary_row, write_rows};
use crate::report::decisions::Decomposed;
use crate::report::{card, charts, player, quality, readme};
use crate::rules::{Rules, parse_rules};

use super::args::{DEFAULT_SEED, pool, stealth_list};
use super::bounds::{self, StealthList};
use super::interrupt;
use super::output::{OutDir, Output};
use super::progress::Progress;
use super::shard::{Shard, ShardArgs};
use super::shard_file::{Meta, ShardFile, render};

/// Arguments of `raven report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Directory to (re)write (with `--shard`: the shard file to write, `-` for standard
    /// output). A new directory, or one where the report's files, if there, were written by
    /// raven (`--force` replaces them whoever wrote them).
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// Replace files in `--out` that raven did not write (never read-only ones).
    #[arg(long)]
    pub force: bool,
    /// Monte Carlo games per (strategy, rules, stealth), 1..=10^12; optimal play gets a
    /// tenth of them.
    #[arg(long, default_value_t = 100_000, value_parser = bounds::games)]
    pub games: u64,
    /// Seed of every Monte Carlo run.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Win rates cover starting stealth 0..=MAX.
    #[arg(long, default_value_t = 16,
          value_parser = clap::value_parser!(u8).range(0..=MAX_STEALTH as i64))]
    pub max_stealth: u8,
    /// Headline stealths: rule variants, loss causes and comparisons (none twice, each at most
    /// `--max-stealth`); values and ranges as `0..=3,8,10..12`.
    #[arg(long, default_value = "8,10,12", value_parser = bounds::stealths)]
    pub stealth: StealthList,
    /// Change one ruling or design parameter of both readings the report covers (`main-text`
    /// and `clarified`), e.g. `--rule team-size=3` (repeatable): the whole report, its rule
    /// variants and levers included, is then about that game.
    #[arg(long = "rule", value_name = "KEY=VALUE")]
    pub overrides: Vec<String>,
    /// Worker threads, 1..=256 (default: all cores).
    #[arg(long, value_parser = bounds::threads)]
    pub threads: Option<u16>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub shard: ShardArgs,
}

/// Runs `raven report`.
pub fn run(args: &ReportArgs) -> Result<()> {
    let cancel = interrupt::flag();
    if let Some(&above) = args.stealth.iter().find(|&&s| s > args.max_stealth) {
        return Err(Error::Input(format!(
            "headline stealth {above} (--stealth) is above --max-stealth {}: the report would \
             have no values for it; raise --max-stealth or drop it",
            args.max_stealth
        )));
    }
    let plan = plan(
        &args.out,
        args.games,
        args.seed,
        args.max_stealth,
        &args.stealth,
        &args.overrides,
    )?;
    if let Some(shard) = args.shard.shard {
        return run_shard(args, &plan, shard, cancel);
    }
    // Every file of the report is claimed before any work, so a directory that cannot be
    // written fails now, not after minutes of solving. The report is built beside it and
    // swapped in at the end: a failure or a signal leaves the previous report whole.
    let dir = OutDir::reserve(&args.out, args.force)?;
    dir.claim(&file_names(&plan.presets))?;
    let pool = pool(args.threads)?;
    let progress = Progress::new(0, args.quiet);
    // Every engine polls the flag: a signal lets the work unwind and remove the staging.
    let polled = interrupt::polled();
    let report = assemble(&plan, &pool, &progress, cancel);
    drop(polled);
    let report = report?;
    check(cancel)?;
    write_report(&dir, &report)?;
    dir.commit()?;
    check(cancel)
}

/// The plan of a report written to `out` (its README quotes the command with `out`, the
/// headline stealths sorted as in [`stealth_list`]), both readings changed by `overrides`.
fn plan(
    out: &Path,
    games: u64,
    seed: u64,
    max_stealth: u8,
    stealth: &[u8],
    overrides: &[String],
) -> Result<Plan> {
    let mut headline = stealth.to_vec();
    headline.sort_unstable();
    headline.dedup();
    let presets = [
        parse_rules("main-text", overrides)?,
        parse_rules("clarified", overrides)?,
    ];
    if presets[0] == presets[1] {
        return Err(Error::Input(format!(
            "--rule {} makes main-text and clarified the same rules: the report compares the \
             two; leave out the rulings they differ in (discovered-penalty, second-success)",
            overrides.join(" --rule ")
        )));
    }
    let rules: String = overrides.iter().map(|o| format!(" --rule {o}")).collect();
    Ok(Plan {
        games,
        seed,
        max_stealth,
        // The stealths as shard files name them, so a merged report quotes the same command.
        command: format!(
            "raven report --out {} --games {games} --seed {seed} --max-stealth {max_stealth} \
             --stealth {}{rules}",
            out.display(),
            stealth_list(&headline)
        ),
        headline,
        presets,
    })
}

/// The `--rule` overrides as a shard file names them (`;`-separated; a setting has no `;`).
fn overrides_input(overrides: &[String]) -> String {
    overrides.join(";")
}

/// The inputs that determine a report's numbers, as its shard files name them.
fn meta(plan: &Plan, shard: Shard, overrides: &[String]) -> Meta {
    let meta = Meta::new("report", shard)
        .input("games", plan.games)
        .input("seed", plan.seed)
        .input("max_stealth", plan.max_stealth)
        .input("stealth", stealth_list(&plan.headline));
    if overrides.is_empty() {
        meta
    } else {
        meta.input("rule", overrides_input(overrides))
    }
}

/// `raven report --shard K/N`: shard K's units, written to `--out` as a shard file.
fn run_shard(args: &ReportArgs, plan: &Plan, shard: Shard, cancel: &AtomicBool) -> Result<()> {
    // Opened first: a path that cannot be written fails before the work.
    let output = Output::open(Some(&args.out))?;
    let work = Work::new(plan)?;
    let pool = pool(args.threads)?;
    let progress = Progress::new(0, args.quiet);
    let polled = interrupt::polled();
    let finished = work.run(&|unit| shard.owns(unit), &pool, &progress, cancel);
    drop(polled);
    let finished = finished?;
    check(cancel)?;
    let rows = finished
        .iter()
        .map(|(unit, result)| {
            let json = serde_json::to_string(result)
                .map_err(|e| Error::Runtime(format!("cannot write a result: {e}")))?;
            Ok((*unit, vec![json]))
        })
        .collect::<Result<Vec<_>>>()?;
    let bytes = render(
        &meta(plan, shard, &args.overrides),
        &[RESULT.to_string()],
        &rows,
    )?;
    let note = format!(
        "raven {} report: shard {shard} ({} of {} units) written; `raven merge --out DIR` \
         joins the shards into the report\n",
        env!("CARGO_PKG_VERSION"),
        rows.len(),
        work.len()
    );
    output.write_bytes(&note, &bytes)
}

/// The column of a report shard file that holds a unit's result.
const RESULT: &str = "result";

/// `raven merge` of report shards ([`super::shard_file::one_run`] checked them): every unit's
/// result read and checked against the work the shards' inputs make, then the report written
/// to the directory `out`, exactly as `raven report --out OUT` with those inputs writes it.
/// Nothing is written when anything is wrong.
pub fn merge(files: &[ShardFile], out: &Path, force: bool) -> Result<()> {
    let first = &files[0];
    let meta = &first.meta;
    let input = |key: &str| {
        meta.get(key)
            .ok_or_else(|| Error::Input(format!("{}: no `# {key}:` line", first.name())))
    };
    let invalid = |key: &str, e: String| {
        Error::Input(format!("{}: `# {key}:` is not valid: {e}", first.name()))
    };
    let games = bounds::games(input("games")?).map_err(|e| invalid("games", e))?;
    let seed: u64 = input("seed")?
        .parse()
        .map_err(|e| invalid("seed", format!("{e}")))?;
    let max_stealth = input("max_stealth")?
        .parse::<u8>()
        .ok()
        .filter(|&m| m <= MAX_STEALTH)
        .ok_or_else(|| invalid("max_stealth", format!("not in 0..={MAX_STEALTH}")))?;
    let stealth = bounds::stealths(input("stealth")?).map_err(|e| invalid("stealth", e))?;
    if stealth.iter().any(|&s| s > max_stealth) {
        return Err(invalid("stealth", "above max_stealth".into()));
    }
    if out == Path::new("-") {
        return Err(Error::Input(
            "a report is a directory of files, not one CSV: give `raven merge --out DIR`".into(),
        ));
    }
    let overrides: Vec<String> = meta
        .get("rule")
        .map(|o| o.split(';').map(String::from).collect())
        .unwrap_or_default();
    let plan = plan(out, games, seed, max_stealth, &stealth, &overrides)
        .map_err(|e| invalid("rule", e.to_string()))?;
    let work = Work::new(&plan)?;
    let mut finished: Vec<(usize, Finished)> = Vec::new();
    let mut holder: Vec<Option<&ShardFile>> = vec![None; work.len()];
    for file in files {
        if !file.header.is_empty() && file.header.iter().collect::<Vec<_>>() != ["unit", RESULT] {
            return Err(Error::Input(format!(
                "{}: not a report shard's header (`unit,{RESULT}`)",
                file.name()
            )));
        }
        for (line, record) in &file.rows {
            let at = |what: String| Error::Input(format!("{}:{line}: {what}", file.name()));
            let unit: usize = record[0]
                .parse()
                .map_err(|_| at("the unit is not a number".into()))?;
            let result: Finished = serde_json::from_str(&record[1])
                .map_err(|e| at(format!("not a report unit's result: {e}")))?;
            work.check(unit, &result).map_err(at)?;
            if !file.meta.shard.owns(unit) {
                return Err(at(format!(
                    "unit {unit} is not shard {}'s work; the file was edited",
                    file.meta.shard
                )));
            }
            if let Some(other) = holder[unit].replace(file) {
                return Err(at(format!(
                    "unit {unit} is also in {}: the shards overlap; run them again",
                    other.name()
                )));
            }
            finished.push((unit, result));
        }
    }
    if let Some(unit) = holder.iter().position(Option::is_none) {
        let count = meta.shard.count;
        let shard = Shard {
            index: unit as u64 % count + 1,
            count,
        };
        return Err(Error::Input(format!(
            "the shards do not make the whole report: unit {unit} is missing from shard \
             {shard}; run that shard again"
        )));
    }
    let dir = OutDir::reserve(out, force)?;
    dir.claim(&file_names(&plan.presets))?;
    let report = work.report(finished, &Progress::new(0, false), interrupt::flag())?;
    write_report(&dir, &report)?;
    dir.commit()
}

/// `Err(Interrupted)` once the flag is raised.
fn check(cancel: &AtomicBool) -> Result<()> {
    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
        Err(Error::Interrupted)
    } else {
        Ok(())
    }
}

/// Every file [`write_report`] writes for a report of `presets`.
fn file_names(presets: &[Rules]) -> Vec<String> {
    let mut names: Vec<String> = [
        "win-rates.csv",
        "rule-variants.csv",
        "levers.csv",
        "loss-causes.csv",
        "strategy-comparison.csv",
        "decisions.csv",
        "decisions-top.csv",
        "quality.csv",
        "quality-decided.csv",
        "quality-by-start.csv",
        "README.md",
        player::FILE,
        "card.csv",
        "card-rules.csv",
    ]
    .map(String::from)
    .to_vec();
    names.extend(
        (presets.iter())
            .filter_map(|r| r.preset_name().and_then(bundled_card))
            .map(|(_, card)| format!("{card}.html")),
    );
    names.extend(charts::chart_files(presets));
    names
}

/// Writes every file of the report into the staging directory of `dir`.
fn write_report(dir: &OutDir, report: &Report) -> Result<()> {
    let (balance, comparisons) = (&report.balance, &report.comparisons);
    let csv = |name: &str, write: &dyn Fn(&mut Vec<u8>) -> Result<()>| -> Result<()> {
        let mut bytes = Vec::new();
        write(&mut bytes)?;
        dir.write(name, &bytes)
    };
    csv("win-rates.csv", &|f| {
        write_rows(f, balance.win_rates.iter().map(summary_row))
    })?;
    csv("rule-variants.csv", &|f| write_rows(f, &balance.variants))?;
    csv("levers.csv", &|f| write_rows(f, &balance.levers))?;
    csv("loss-causes.csv", &|f| write_rows(f, loss_rows(balance)))?;
    csv("strategy-comparison.csv", &|f| write_rows(f, comparisons))?;
    let decomposed = || balance.decisions.iter();
    csv("decisions.csv", &|f| {
        write_rows(f, decomposed().flat_map(Decomposed::rows))
    })?;
    csv("decisions-top.csv", &|f| {
        write_rows(f, decomposed().flat_map(Decomposed::top_rows))
    })?;
    if let Some(a) = &balance.quality {
        csv("quality.csv", &|f| write_rows(f, quality::rows(a)))?;
        csv("quality-decided.csv", &|f| {
            write_rows(f, quality::decided(a))
        })?;
        csv("quality-by-start.csv", &|f| {
            write_rows(f, quality::by_start(a))
        })?;
    }
    csv("card.csv", &|f| {
        write_rows(f, card::rung_rows(&balance.cards, &balance.headline))
    })?;
    csv("card-rules.csv", &|f| {
        write_rows(f, card::rule_rows(&balance.cards))
    })?;
    for c in &balance.cards {
        dir.write(&c.file(), c.page(&balance.headline).as_bytes())?;
    }
    let charts = charts::charts(balance);
    for chart in &charts {
        dir.write(&chart.file, chart.svg.as_bytes())?;
    }
    if let Some(text) = player::file_text(balance) {
        dir.write(player::FILE, text.as_bytes())?;
    }
    dir.write("README.md", readme::readme(balance, &charts).as_bytes())
}
