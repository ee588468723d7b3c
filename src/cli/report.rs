//! `raven report`: regenerate the designer's balance report (`reports/`) deterministically.
//!
//! What is computed lives in [`crate::report::assemble`]; this module reads the options,
//! supplies the thread pool, progress bar and Ctrl-C flag, and writes the files.

use std::path::{Path, PathBuf};

use clap::Args;

use crate::error::{Error, Result};
use crate::game::MAX_STEALTH;
use crate::report::assemble::{Plan, assemble};
use crate::report::balance::{self, Balance, loss_rows};
use crate::report::comparison::CompareRow;
use crate::report::csv::{AtomicFile, SummaryRow, write_rows};

use super::args::{DEFAULT_SEED, pool};
use super::interrupt;
use super::progress::Progress;

/// Arguments of `raven report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Directory to (re)write.
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// Monte Carlo games per (strategy, rules, stealth); optimal play gets a tenth of them.
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Seed of every Monte Carlo run.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Win rates cover starting stealth 0..=MAX.
    #[arg(long, default_value_t = 16,
          value_parser = clap::value_parser!(u8).range(0..=MAX_STEALTH as i64))]
    pub max_stealth: u8,
    /// Headline stealths: rule variants, loss causes and comparisons.
    #[arg(long, value_delimiter = ',', default_value = "8,10,12",
          value_parser = clap::value_parser!(u8).range(0..=MAX_STEALTH as i64))]
    pub stealth: Vec<u8>,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Runs `raven report`.
pub fn run(args: &ReportArgs) -> Result<()> {
    let cancel = interrupt::flag();
    std::fs::create_dir_all(&args.out).map_err(|e| {
        Error::Input(format!(
            "cannot create report directory {}: {e}",
            args.out.display()
        ))
    })?;
    // Fail on an unwritable directory before any work.
    drop(AtomicFile::create(&args.out.join("win-rates.csv"))?);
    let mut headline = args.stealth.clone();
    headline.sort_unstable();
    headline.dedup();
    let plan = Plan {
        games: args.games,
        seed: args.seed,
        max_stealth: args.max_stealth,
        headline,
        command: command_line(args),
    };
    let pool = pool(args.threads)?;
    let progress = Progress::new(0, args.quiet);
    let report = assemble(&plan, &pool, &progress, cancel)?;
    write_report(&args.out, &report.balance, &report.comparisons)
}

/// The command that reproduces this report.
fn command_line(args: &ReportArgs) -> String {
    let stealths: Vec<String> = args.stealth.iter().map(u8::to_string).collect();
    format!(
        "raven report --out {} --games {} --seed {} --max-stealth {} --stealth {}",
        args.out.display(),
        args.games,
        args.seed,
        args.max_stealth,
        stealths.join(",")
    )
}

/// Writes every file of the report, each atomically.
fn write_report(dir: &Path, balance: &Balance, comparisons: &[CompareRow]) -> Result<()> {
    let csv = |name: &str, write: &dyn Fn(&mut std::fs::File) -> Result<()>| -> Result<()> {
        let mut file = AtomicFile::create(&dir.join(name))?;
        write(file.writer())?;
        file.commit()
    };
    csv("win-rates.csv", &|f| {
        write_rows(f, balance.win_rates.iter().map(SummaryRow::from))
    })?;
    csv("rule-variants.csv", &|f| write_rows(f, &balance.variants))?;
    csv("loss-causes.csv", &|f| write_rows(f, loss_rows(balance)))?;
    csv("strategy-comparison.csv", &|f| write_rows(f, comparisons))?;
    let mut charts = Vec::new();
    for rules in &balance.presets {
        let name = format!("win-probability-{rules}.svg");
        charts.push((
            name.clone(),
            format!("Win probability by starting stealth, {rules}"),
            balance::win_chart(balance, *rules),
        ));
    }
    charts.push((
        "rule-variants.svg".to_string(),
        "Effect of each rule variant".to_string(),
        balance::variant_chart(balance),
    ));
    for (name, _, svg) in &charts {
        text_file(&dir.join(name), svg)?;
    }
    let listed: Vec<(String, String)> = charts.into_iter().map(|(n, t, _)| (n, t)).collect();
    text_file(&dir.join("README.md"), &balance::readme(balance, &listed))
}

fn text_file(path: &Path, text: &str) -> Result<()> {
    use std::io::Write;
    let mut file = AtomicFile::create(path)?;
    file.writer()
        .write_all(text.as_bytes())
        .map_err(|e| Error::Runtime(format!("cannot write {}: {e}", path.display())))?;
    file.commit()
}
