//! `raven simulate`: Monte Carlo win rates per starting stealth.
//!
//! Inputs are checked and the output file is opened *before* any game is played, so a typo
//! or an unwritable path fails in milliseconds; the CSV file appears only when every row is
//! in it (written to a temporary file, renamed at the end).
//!
//! With `--shard K/N` it plays block K of N of every stealth's games and writes their raw
//! counts as a shard file; [`merge`] adds up the counts of all N and renders the rows from
//! the sums, through the same [`Summary::from_tally`] as a whole run — counts are integers,
//! so the sums, and the intervals and means computed from them, are exactly the whole run's.

use std::ops::Range;
use std::sync::atomic::AtomicBool;

use clap::Args;
use serde::{Deserialize, Serialize};

use crate::engine::montecarlo::{in_chunks, play_range};
use crate::engine::{Cancelled, Job, Tally};
use crate::error::{Error, Result};
use crate::report::csv::{summary_row, write_rows};
use crate::report::{Summary, table};
use crate::rules::Rules;
use crate::strategy::{REFERENCE, Strategy};

use super::args::{RulesArgs, RunArgs, load_strategy, ready_to_play, stealth_list};
use super::interrupt;
use super::output::Output;
use super::progress::Progress;
use super::shard::{Shard, ShardArgs};
use super::shard_file::{self, Meta, ShardFile};

/// Arguments of `raven simulate`.
#[derive(Args, Debug)]
pub struct SimulateArgs {
    /// Strategy: a built-in name or a strategy file.
    #[arg(long, default_value = REFERENCE)]
    pub strategy: String,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub run: RunArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub shard: ShardArgs,
}

/// The line above the table: every input that determines the numbers.
pub fn header(strategy: &str, rules: &Rules, run: &RunArgs) -> String {
    let mut inputs = vec![format!("strategy {strategy}"), format!("rules {rules}")];
    inputs.extend(run.inputs());
    table::inputs_line("simulate", &inputs)
}

/// Runs `raven simulate`.
pub fn run(args: &SimulateArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let strategy = load_strategy(&args.strategy)?;
    let run = &args.run;
    let shard = args.shard.shard;
    // Before any work: it reads the strategy file's text again, for its digest.
    let meta = shard.map(|shard| {
        Meta::new("simulate", shard)
            .input(
                "strategy",
                shard_file::strategy_identity(&args.strategy, strategy.name()),
            )
            .input("rules", rules)
            .input("stealth", stealth_list(&run.stealth))
            .input("games", run.games)
            .input("seed", run.seed)
            .input("confidence", run.confidence)
    });
    let cancel = interrupt::flag();
    let output = Output::open(run.out.as_deref())?;
    let pool = run.pool()?;
    let strategy = pool.install(|| ready_to_play(strategy, &rules, &run.stealth))?;
    let games = shard.unwrap_or(Shard::WHOLE).range(run.games);

    let total = (games.end - games.start).saturating_mul(run.stealth.len() as u64);
    let progress = Progress::new(total, run.quiet);
    let polled = interrupt::polled();
    let advance = |games| progress.advance(games);
    let mut tallies = Vec::with_capacity(run.stealth.len());
    for &stealth in &run.stealth {
        progress.label(format!("stealth {stealth}"));
        let job = Job {
            rules: &rules,
            strategy: strategy.as_ref(),
            stealth,
            games: run.games,
            seed: run.seed,
        };
        let tally = pool
            .install(|| play_games(&job, games.clone(), &advance, cancel))
            .map_err(|c| {
                progress.abandon();
                Error::from(c)
            })?;
        tallies.push(tally);
    }
    progress.finish();
    drop(polled);
    if let Some(meta) = meta {
        let rows = run.stealth.iter().zip(&tallies).map(|(&stealth, tally)| {
            TallyRow::new(strategy.name(), &rules, stealth, run, games.clone(), tally)
        });
        let (header, records) = shard_file::records(rows)?;
        let bytes = shard_file::render(
            &meta,
            &header,
            &records.into_iter().enumerate().collect::<Vec<_>>(),
        )?;
        let note = format!(
            "raven {} simulate: shard {} (games {}..{} of each stealth) written; \
             `raven merge` joins the shards\n",
            env!("CARGO_PKG_VERSION"),
            meta.shard,
            games.start,
            games.end
        );
        return output.write_bytes(&note, &bytes);
    }
    let rows: Vec<Summary> = run
        .stealth
        .iter()
        .zip(tallies)
        .map(|(&stealth, tally)| {
            Summary::from_tally(
                strategy.name(),
                rules,
                stealth,
                tally,
                run.seed,
                run.confidence,
            )
        })
        .collect();
    let table = format!(
        "{}\n{}",
        header(strategy.name(), &rules, run),
        table::summaries(&rows)
    );
    output.write(&table, rows.iter().map(summary_row))
}

/// Plays games `games` of `job` on the current rayon pool, in the engine's chunks: with
/// `0..job.games` it is [`crate::engine::simulate`], and any split of that range into blocks
/// tallies the same games, so the blocks' tallies add up to the whole run's.
fn play_games(
    job: &Job<'_, dyn Strategy>,
    games: Range<u64>,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
) -> std::result::Result<Tally, Cancelled> {
    let start = games.start;
    in_chunks(
        games.end - games.start,
        Tally::default,
        |range| play_range(job, start + range.start..start + range.end),
        progress,
        cancel,
    )
}

/// One row of a `simulate` shard file: the raw counts of one stealth's block of games, and
/// the inputs its row in the merged CSV needs. No rates: those are computed from the sums.
#[derive(Serialize, Deserialize)]
struct TallyRow {
    strategy: String,
    rules: String,
    stealth: u8,
    seed: u64,
    ci_level: f64,
    first_game: u64,
    end_game: u64,
    games: u64,
    wins: u64,
    loss_recruitment: u64,
    loss_run: u64,
    loss_finale: u64,
    loss_finale_character_down: u64,
    discovered: u64,
    stealth_left: u64,
    reached_run: u64,
    team_at_run: u64,
    deaths: u64,
}

impl TallyRow {
    fn new(
        strategy: &str,
        rules: &Rules,
        stealth: u8,
        run: &RunArgs,
        games: Range<u64>,
        t: &Tally,
    ) -> TallyRow {
        TallyRow {
            strategy: strategy.to_string(),
            rules: rules.to_string(),
            stealth,
            seed: run.seed,
            ci_level: run.confidence,
            first_game: games.start,
            end_game: games.end,
            games: t.games,
            wins: t.wins,
            loss_recruitment: t.losses[0],
            loss_run: t.losses[1],
            loss_finale: t.losses[2],
            loss_finale_character_down: t.losses[3],
            discovered: t.discovered,
            stealth_left: t.stealth_left,
            reached_run: t.reached_run,
            team_at_run: t.team_at_run,
            deaths: t.deaths,
        }
    }

    fn tally(&self) -> Tally {
        Tally {
            games: self.games,
            wins: self.wins,
            losses: [
                self.loss_recruitment,
                self.loss_run,
                self.loss_finale,
                self.loss_finale_character_down,
            ],
            discovered: self.discovered,
            stealth_left: self.stealth_left,
            reached_run: self.reached_run,
            team_at_run: self.team_at_run,
            deaths: self.deaths,
        }
    }
}

impl shard_file::BlockRow for TallyRow {
    type Counts = Tally;

    fn block(&self) -> Range<u64> {
        self.first_game..self.end_game
    }

    fn games(&self) -> u64 {
        self.games
    }

    fn counts(&self) -> Tally {
        self.tally()
    }

    /// Whether two rows are of one stealth of one run.
    fn same_unit(&self, other: &TallyRow) -> bool {
        (&self.strategy, &self.rules, self.stealth, self.seed)
            == (&other.strategy, &other.rules, other.stealth, other.seed)
            && self.ci_level.to_bits() == other.ci_level.to_bits()
    }

    fn unit(&self) -> String {
        format!("stealth {}", self.stealth)
    }
}

/// The CSV of the whole run from the shard files of a sharded `simulate` (already checked to
/// be every shard of one run, in order): per stealth, the blocks' counts added up — after
/// checking that the blocks cover the stealth's games exactly once — and rendered as a whole
/// run renders its rows.
pub fn merge(files: &[ShardFile]) -> Result<Vec<u8>> {
    let meta = &files[0].meta;
    let number = |key: &str| meta.get(key).and_then(|v| v.parse::<u64>().ok());
    let games = number("games")
        .ok_or_else(|| Error::Input(format!("{}: no `# games:` line", files[0].name())))?;
    let stealths = meta
        .get("stealth")
        .and_then(|s| super::bounds::stealths(s).ok())
        .ok_or_else(|| Error::Input(format!("{}: no valid `# stealth:` line", files[0].name())))?;
    let mut summaries = Vec::with_capacity(stealths.len());
    for (first, tally) in
        shard_file::add_blocks::<TallyRow>(files, "simulate", stealths.len(), games)?
    {
        let rules = rules_named(&first.rules).ok_or_else(|| {
            Error::Input(format!(
                "{}: '{}' does not name rules",
                files[0].name(),
                first.rules
            ))
        })?;
        summaries.push(Summary::from_tally(
            &first.strategy,
            rules,
            first.stealth,
            tally,
            first.seed,
            first.ci_level,
        ));
    }
    let mut bytes = Vec::new();
    write_rows(&mut bytes, summaries.iter().map(summary_row))?;
    Ok(bytes)
}

/// The rules an output names (`main-text`, `clarified run-challenges=8`, or every flag
/// spelled out): the reverse of `Rules`' `Display`, checked by writing them again. Only
/// preset names are looked up, never files.
fn rules_named(name: &str) -> Option<Rules> {
    let (preset, settings) = match name.split_once(' ') {
        _ if name.split(' ').next()?.contains('=') => ("main-text", name),
        Some((preset, settings)) => (preset, settings),
        None => (name, ""),
    };
    let mut rules = Rules::preset(preset).ok()?;
    for setting in settings.split(' ').filter(|s| !s.is_empty()) {
        rules.apply(setting).ok()?;
    }
    (rules.to_string() == name).then_some(rules)
}

#[cfg(test)]
mod tests {
    use super::rules_named;
    use crate::rules::{CLARIFIED, MAIN_TEXT};

    #[test]
    fn rules_are_read_back_from_their_names() {
        let mut designed = CLARIFIED;
        designed.set("run-challenges", "8").unwrap();
        let mut spelled = MAIN_TEXT;
        spelled.set("finale-substitute", "yes").unwrap();
        spelled.set("threshold", "4").unwrap();
        spelled.set("eased-threshold", "3").unwrap();
        for rules in [MAIN_TEXT, CLARIFIED, designed, spelled] {
            assert_eq!(rules_named(&rules.to_string()), Some(rules), "{rules}");
        }
        assert_eq!(rules_named("nonsense"), None);
        assert_eq!(rules_named("main-text threshold=9"), None);
    }
}
