//! `raven card`: the rule card — rules of thumb a person can follow, added one at a time to
//! the best strategy file of knobs, each the one that gains the most exact win probability —
//! printed as sentences ordered by what they are worth, with the ladder of win probability
//! against the number of rules beside optimal play.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use crate::card::{Limits, PurpleRaven, mean, rungs, search, sentence};
use crate::engine::Solved;
use crate::error::{Error, Result};
use crate::report::table::{self, Align, Table};
use crate::strategy::file::card::kind_name;
use crate::strategy::{Strategy, bundled};
use crate::tune::Point;

use super::args::{ExactEngineArgs, RulesArgs, stealth_list};
use super::output::AtomicFile;
use super::progress::Progress;
use crate::report::card::CardPage;

/// Arguments of `raven card`.
#[derive(Args, Debug)]
pub struct CardArgs {
    #[command(flatten)]
    #[allow(missing_docs)]
    pub rules: RulesArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub exact: ExactEngineArgs,
    /// The strategy file whose knobs play behind the rules (default: the bundled `tuned`
    /// under main-text rules, `tuned-clarified` under clarified ones).
    #[arg(long = "from", value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// The most rules on the card.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u16).range(1..=200))]
    pub max_rules: u16,
    /// Stop when the best rule gains less than this many points of mean win probability.
    #[arg(long, default_value_t = 0.01, value_parser = super::bounds::points)]
    pub min_gain: f64,
    /// How many of the costliest positions each step turns into candidate rules.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u16).range(1..=100))]
    pub spots: u16,
    /// Write the knobs and the card's rules here as a strategy file (`# rules: N`, each
    /// rule's worth in a comment); `raven exact --strategy FILE` gives the printed values.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Write the card as a page to print (HTML, one file): the rules by worth and the ladder.
    #[arg(long, value_name = "FILE")]
    pub page: Option<PathBuf>,
}

/// Runs `raven card`.
pub fn run(args: &CardArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let stealths: Vec<u8> = args.exact.stealth.to_vec();
    let base = match &args.from {
        Some(path) => crate::load::strategy_file(path).map_err(|e| Error::Input(e.to_string()))?,
        None => {
            let name = if args.rules.preset == "clarified" {
                "tuned-clarified"
            } else {
                "tuned"
            };
            bundled(name).expect("bundled").expect("valid")
        }
    };
    let from = args
        .from
        .as_ref()
        .map_or(base.name().to_string(), |p| p.display().to_string());
    // Before the search: an unusable path fails now.
    let mut file = args.out.as_deref().map(AtomicFile::create).transpose()?;
    let page = args.page.as_deref().map(AtomicFile::create).transpose()?;
    let started = Instant::now();
    let pool = args.exact.pool()?;
    let cancel = [super::interrupt::flag()];
    let budget = args.exact.budget(&cancel);
    let polled = super::interrupt::polled();
    let spinner = Progress::spinner("card: solving optimal play", args.exact.quiet);
    let solved = pool.install(|| Solved::new(&rules, &stealths, &budget))?;
    spinner.label("card: rules added".to_string());
    let book = PurpleRaven {
        rules,
        stealths: stealths.clone(),
        base: base.spec().clone(),
        solved: &solved,
        budget,
    };
    let limits = Limits {
        max_rules: usize::from(args.max_rules),
        min_gain: args.min_gain / 100.0,
        spots: usize::from(args.spots),
    };
    let added = std::sync::atomic::AtomicUsize::new(0);
    let found = pool.install(|| {
        search(&book, limits, &|_| {
            let n = added.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            spinner.label(format!("{n}"));
        })
    })?;
    spinner.finish();
    drop(polled);
    let searched = started.elapsed().as_secs_f64();
    let optimal = solved.values();

    let mut text = table::inputs_line(
        "card",
        &[
            format!("rules {rules}"),
            format!("stealth {}", stealth_list(&stealths)),
            format!("knobs from {from}"),
            format!(
                "at most {} rules, each gaining at least {} points",
                args.max_rules, args.min_gain
            ),
            "every candidate evaluated exactly".to_string(),
        ],
    );
    // The card, by worth: the rules added that are still on it (a rule found later may
    // overrule an earlier one everywhere).
    let mut by_worth: Vec<usize> = (0..found.added.len())
        .filter(|&i| found.card.contains(&found.added[i].rule))
        .collect();
    by_worth.sort_by(|&a, &b| found.added[b].gain.total_cmp(&found.added[a].gain));
    text += &format!(
        "\nthe card: {} rules of thumb before the knobs of {from}, by what each is worth \
         (points of mean win probability when it was added)\n",
        found.card.len()
    );
    for (rank, &i) in by_worth.iter().enumerate() {
        let a = &found.added[i];
        text += &format!(
            "{:>3}. {:+.2}  {}\n       [{}] {}\n",
            rank + 1,
            100.0 * a.gain,
            sentence(&a.rule),
            kind_name(a.rule.kind),
            a.rule
        );
    }
    let gone = found.added.len() - by_worth.len();
    if gone > 0 {
        text += &format!(
            "  ({gone} rule(s) found earlier, overruled everywhere by later ones, are left off)\n"
        );
    }
    // The ladder.
    let mut ladder = Table::new(
        std::iter::once(("rules added".to_string(), Align::Left))
            .chain(
                stealths
                    .iter()
                    .map(|s| (format!("stealth {s}"), Align::Right)),
            )
            .chain([
                ("mean".to_string(), Align::Right),
                ("short of optimal".to_string(), Align::Right),
            ]),
    );
    let mut rung = |name: String, values: &[f64]| {
        ladder.row(
            std::iter::once(name)
                .chain(values.iter().map(|v| format!("{:.2}%", 100.0 * v)))
                .chain([
                    format!("{:.2}%", 100.0 * mean(values)),
                    format!("{:.2}", 100.0 * (mean(optimal) - mean(values))),
                ])
                .collect(),
        );
    };
    for n in rungs(found.added.len()) {
        rung(format!("{n}"), found.with_rules(n));
    }
    rung("optimal".to_string(), optimal);
    text += &format!(
        "\nthe ladder (exact win probability against the number of rules)\n{}",
        ladder.render()
    );
    let values = found.with_rules(found.added.len());
    let gaps: Vec<String> = stealths
        .iter()
        .zip(optimal.iter().zip(values))
        .map(|(s, (o, v))| format!("{:.2} at {s}", 100.0 * (o - v)))
        .collect();
    text += &format!(
        "the card is short of optimal play by {} (points)\n",
        gaps.join(", ")
    );
    // In full, as `raven exact` prints them: the written file gives these bits.
    for (s, v) in stealths.iter().zip(values) {
        text += &format!("card, stealth {s:>2}: P(win) = {v:.15}\n");
    }
    text += &format!(
        "\n{} candidates evaluated in {searched:.1} s\n",
        found.evaluated
    );
    if let Some(file) = file.as_mut() {
        let worth = |rule: &crate::strategy::file::card::Rule| {
            let at = found.added.iter().position(|a| a.rule == *rule)?;
            Some(format!(
                "worth {:+.2} points (rule {} found)",
                100.0 * found.added[at].gain,
                at + 1
            ))
        };
        let header = format!(
            "The rule card that `raven card` found under rules {rules}, mean over stealth {}:\n\
             {}.\n\
             rules: {}\n\
             The knobs are those of {from}; each rule's comment says what it gained when added.",
            stealth_list(&stealths),
            values
                .iter()
                .zip(&stealths)
                .map(|(v, s)| format!("{:.2}% at {s}", 100.0 * v))
                .collect::<Vec<_>>()
                .join(", "),
            found.card.len()
        );
        let mut body = Point::of(base.spec()).file(
            &header,
            &format!(
                "rule card by raven card for {rules} at stealth {}",
                stealth_list(&stealths)
            ),
            |_| Vec::new(),
        );
        let card = book.strategy(&found.card);
        body += "\n";
        body += &card.spec().card.section(&worth);
        file.writer().extend_from_slice(body.as_bytes());
    }
    if let Some(mut page) = page {
        let sentences: Vec<(String, String, f64)> = by_worth
            .iter()
            .map(|&i| {
                let a = &found.added[i];
                (
                    sentence(&a.rule),
                    kind_name(a.rule.kind).to_string(),
                    a.gain,
                )
            })
            .collect();
        let ladder: Vec<(usize, Vec<f64>)> = rungs(found.added.len())
            .into_iter()
            .map(|n| (n, found.with_rules(n).to_vec()))
            .collect();
        let html = crate::report::card::page(&CardPage {
            game: "Operation Purple Raven",
            inputs: &format!(
                "Rules {rules}, starting stealth {}; knobs of {from}; found by raven card.",
                stealth_list(&stealths)
            ),
            from: &from,
            rules: &sentences,
            stealths: &stealths,
            ladder: &ladder,
            optimal,
        });
        page.writer().extend_from_slice(html.as_bytes());
        page.commit()?;
    }
    if let Some(file) = file {
        file.commit()?;
    }
    super::output::to_stdout(text.as_bytes())
}

/// The card written by `--out` reads back as the strategy the search valued.
#[cfg(test)]
mod tests {
    #[test]
    fn the_written_section_parses_back_to_the_card() {
        use crate::game::DecisionKind;
        use crate::strategy::file::card::{Card, parse_rule};
        let rules = vec![
            parse_rule(
                DecisionKind::FirstAid,
                "when discovered and tough = 3 -> skip",
            )
            .unwrap(),
            parse_rule(DecisionKind::SideChallenge, "when left = 1 -> try").unwrap(),
        ];
        let card = Card::new(rules);
        let text = card.section(&|_| Some("a comment".into()));
        let file = crate::strategy::FileStrategy::parse("t", "t", &text).expect("valid");
        assert_eq!(file.spec().card, card);
    }
}
