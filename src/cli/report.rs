//! `raven report`: regenerate the designer's balance report (`reports/`) deterministically.
//!
//! What is computed lives in [`crate::report::assemble`]; this module reads the options,
//! supplies the thread pool, progress bar and Ctrl-C flag, and writes the files.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use clap::Args;

use crate::error::{Error, Result};
use crate::game::MAX_STEALTH;
use crate::report::assemble::{Plan, assemble};
use crate::report::balance::{self, Balance, loss_rows};
use crate::report::comparison::CompareRow;
use crate::report::csv::{AtomicFile, SummaryRow, write_rows};
use crate::report::decisions::Decomposed;
use crate::rules::{CLARIFIED, MAIN_TEXT, Rules};

use super::args::{DEFAULT_SEED, pool};
use super::bounds::{self, StealthList};
use super::interrupt;
use super::output::OutDir;
use super::progress::Progress;

/// Arguments of `raven report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Directory to (re)write.
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
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
    /// Worker threads, 1..=256 (default: all cores).
    #[arg(long, value_parser = bounds::threads)]
    pub threads: Option<u16>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
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
    // Removed again (if it was made here) when the report fails or is interrupted.
    let dir = OutDir::create(&args.out)?;
    // Every file of the report is reserved before any work, so a path that cannot be
    // written fails now, not after minutes of solving.
    let mut files = Reserved::new(dir.path())?;
    let mut headline = args.stealth.to_vec();
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
    // Every engine polls the flag: a signal lets the work unwind and remove the reserved files.
    let polled = interrupt::polled();
    let report = assemble(&plan, &pool, &progress, cancel);
    drop(polled);
    let report = report?;
    check(cancel)?;
    write_report(&mut files, &report.balance, &report.comparisons)?;
    dir.keep();
    check(cancel)
}

/// `Err(Interrupted)` once the flag is raised.
fn check(cancel: &AtomicBool) -> Result<()> {
    if cancel.load(std::sync::atomic::Ordering::Relaxed) {
        Err(Error::Interrupted)
    } else {
        Ok(())
    }
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

/// The files of a report, reserved in its directory before the work starts.
struct Reserved(Vec<(String, AtomicFile)>);

impl Reserved {
    /// Reserves every file [`write_report`] writes.
    fn new(dir: &Path) -> Result<Reserved> {
        let mut names: Vec<String> = [
            "win-rates.csv",
            "rule-variants.csv",
            "levers.csv",
            "loss-causes.csv",
            "strategy-comparison.csv",
            "decisions.csv",
            "decisions-top.csv",
            "rule-variants.svg",
            "README.md",
        ]
        .map(String::from)
        .to_vec();
        names.extend([MAIN_TEXT, CLARIFIED].map(chart_name));
        let files = names
            .into_iter()
            .map(|name| Ok((name.clone(), AtomicFile::create(&dir.join(name))?)))
            .collect::<Result<_>>()?;
        Ok(Reserved(files))
    }

    /// The reserved file `name`.
    fn take(&mut self, name: &str) -> AtomicFile {
        let at = self
            .0
            .iter()
            .position(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{name} is reserved by Reserved::new"));
        self.0.swap_remove(at).1
    }
}

/// The file name of a win-probability chart.
fn chart_name(rules: Rules) -> String {
    format!("win-probability-{rules}.svg")
}

/// Writes every file of the report, each atomically.
fn write_report(files: &mut Reserved, balance: &Balance, comparisons: &[CompareRow]) -> Result<()> {
    let mut csv = |name: &str, write: &dyn Fn(&mut Vec<u8>) -> Result<()>| -> Result<()> {
        let mut file = files.take(name);
        write(file.writer())?;
        file.commit()
    };
    csv("win-rates.csv", &|f| {
        write_rows(f, balance.win_rates.iter().map(SummaryRow::from))
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
    let mut charts = Vec::new();
    for rules in &balance.presets {
        charts.push((
            chart_name(*rules),
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
        text_file(files.take(name), svg)?;
    }
    let listed: Vec<(String, String)> = charts.into_iter().map(|(n, t, _)| (n, t)).collect();
    text_file(files.take("README.md"), &balance::readme(balance, &listed))
}

fn text_file(mut file: AtomicFile, text: &str) -> Result<()> {
    file.writer().extend_from_slice(text.as_bytes());
    file.commit()
}
