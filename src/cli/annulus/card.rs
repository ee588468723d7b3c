//! `raven --game annulus card`: the rule card for the Annulus operation challenge — rules of
//! thumb over what the players see, added one at a time to a strategy file's knobs, each the
//! one that gains the most exact success probability at the numbers of players asked.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use raven_core::card::{Annulus as Book, Limits, search};
use raven_core::engine::generic::{Optimum, solve};
use raven_core::games::annulus::strategy::Knobs;

use super::{DesignArgs, EngineArgs, read_knobs, stopped};
use crate::cli::args::DEFAULT_SEED;
use crate::cli::card::Shown;
use crate::cli::output::{AtomicFile, to_stdout};
use crate::cli::progress::Progress;
use crate::error::Result;

/// Arguments of `raven --game annulus card`.
#[derive(Args, Debug)]
pub struct CardArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub design: DesignArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub engine: EngineArgs,
    /// The Annulus strategy file whose knobs play behind the rules (default: the bundled
    /// `planner`).
    #[arg(long = "from", value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// The most rules on the card.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u16).range(1..=200))]
    pub max_rules: u16,
    /// Stop when the best rule gains less than this many points of mean success probability.
    #[arg(long, default_value_t = 0.01, value_parser = crate::cli::bounds::points)]
    pub min_gain: f64,
    /// How many of the costliest positions each step turns into candidate rules.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u16).range(1..=100))]
    pub spots: u16,
    /// Challenges sampled per number of players to find where the card loses most (every
    /// candidate is then valued exactly).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub games: u64,
    /// Seed of those challenges: the same seed gives the same card on any thread count.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Write the knobs and the card's rules here as an Annulus strategy file.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write the card as a page to print (HTML, one file): the rules by worth and the ladder.
    #[arg(long, value_name = "FILE")]
    pub page: Option<PathBuf>,
}

/// Runs `raven --game annulus card`.
pub fn run(args: &CardArgs) -> Result<()> {
    let games = args.design.games()?;
    let base = match &args.from {
        Some(path) => read_knobs(path)?,
        None => Knobs::bundled("planner").expect("bundled"),
    };
    let from = args
        .from
        .as_ref()
        .map_or(base.name.clone(), |p| p.display().to_string());
    // Before the search: an unusable path fails now.
    let mut file = args.out.as_deref().map(AtomicFile::create).transpose()?;
    let page = args.page.as_deref().map(AtomicFile::create).transpose()?;
    let started = Instant::now();
    let engine = args.engine.start()?;
    let (pool, budget) = (&engine.pool, engine.budget());
    let spinner = Progress::spinner("card: solving optimal play", args.engine.quiet);
    let solved = games
        .iter()
        .map(|g| pool.install(|| solve(g, budget)).map_err(stopped))
        .collect::<Result<Vec<_>>>()?;
    spinner.label("card: rules added".to_string());
    let book = Book {
        solved: &solved,
        base: base.clone(),
        budget,
        sampled: args.games,
        seed: args.seed,
    };
    let limits = Limits {
        max_rules: usize::from(args.max_rules),
        min_gain: args.min_gain / 100.0,
        spots: usize::from(args.spots),
    };
    let (found, book) = pool.install(|| search(book, limits, &|_| ()))?;
    spinner.finish();
    let searched = started.elapsed().as_secs_f64();
    let optimal: Vec<f64> = solved.iter().map(|s| s.start()).collect();
    let players: Vec<u8> = games.iter().map(|g| g.rules().players).collect();
    let rules = games[0].rules();
    let shown = Shown {
        found: &found,
        optimal: &optimal,
        axis: "players",
        points: &players,
        from: &from,
        changed: &[],
        sentence: &|r| r.sentence(),
        kind: &|_| "adjust".to_string(),
    };
    let mut text = format!(
        "card: the Annulus operation challenge under {rules}; knobs from {from}; at most {} \
         rules, each gaining at least {} points; every candidate evaluated exactly\n",
        args.max_rules, args.min_gain
    );
    text += &shown.text();
    text += &format!(
        "\n{} candidates evaluated in {searched:.1} s\n",
        found.evaluated
    );
    if let Some(file) = file.as_mut() {
        let mut body = format!(
            "# The rule card that `raven --game annulus card` found under {rules} for {} \
             players, on the knobs of {from}.\n# rules: {}\n",
            players
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            found.card.len()
        );
        body += &book.strategy(&found.card).to_toml();
        file.writer().extend_from_slice(body.as_bytes());
    }
    if let Some(mut page) = page {
        let html = shown.page(
            "The Annulus operation challenge",
            &format!("Rules {rules}; knobs of {from}; found by raven --game annulus card."),
        );
        page.writer().extend_from_slice(html.as_bytes());
        page.commit()?;
    }
    if let Some(file) = file {
        file.commit()?;
    }
    to_stdout(text.as_bytes())
}
