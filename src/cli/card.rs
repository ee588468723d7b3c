//! `raven card`: the rule card — rules of thumb a person can follow, added one at a time to
//! the best strategy file of knobs, each the one that gains the most exact win probability —
//! printed as sentences ordered by what they are worth, with the ladder of win probability
//! against the number of rules beside optimal play.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;

use crate::card::{Found, Limits, PurpleRaven, bundled_card, mean, rungs, search, sentence};
use crate::engine::Solved;
use crate::error::{Error, Result};
use crate::report::table::{self, Align, Table};
use crate::strategy::file::card::kind_name;
use crate::strategy::{Strategy, bundled};
use crate::tune::{Point, changed};

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
            let (name, _) = bundled_card(&args.rules.preset).unwrap_or(("tuned", ""));
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
    let book = PurpleRaven::new(
        rules,
        stealths.clone(),
        base.spec().clone(),
        &solved,
        budget,
    )?;
    let limits = Limits {
        max_rules: usize::from(args.max_rules),
        min_gain: args.min_gain / 100.0,
        spots: usize::from(args.spots),
    };
    let added = std::sync::atomic::AtomicUsize::new(0);
    let (found, book) = pool.install(|| {
        search(book, limits, &|_| {
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
    let shown = Shown {
        found: &found,
        optimal,
        axis: "stealth",
        points: &stealths,
        from: &from,
        changed: &changed(base.spec(), &book.base),
        sentence: &|r| sentence(r),
        kind: &|r| kind_name(r.kind).to_string(),
    };
    text += &shown.text();
    let values = found.with_rules(found.added.len());
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
             The knobs are those of {from}{}\n\
             Each rule's comment says what it gained when added.",
            stealth_list(&stealths),
            values
                .iter()
                .zip(&stealths)
                .map(|(v, s)| format!("{:.2}% at {s}", 100.0 * v))
                .collect::<Vec<_>>()
                .join(", "),
            found.card.len(),
            changes(&found)
        );
        let mut body = Point::of(&book.base).file(
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
        let html = shown.page(
            "Operation Purple Raven",
            &format!(
                "Rules {rules}, starting stealth {}; knobs of {from}{}; found by raven card.",
                stealth_list(&stealths),
                match found.knobs.len() {
                    0 => String::new(),
                    n => format!(", {n} of them changed by the search"),
                }
            ),
        );
        page.writer().extend_from_slice(html.as_bytes());
        page.commit()?;
    }
    if let Some(file) = file {
        file.commit()?;
    }
    super::output::to_stdout(text.as_bytes())
}

/// The knobs the search changed behind the rules, as a clause of the file's header: each
/// change with what it gained and when.
fn changes<R>(found: &Found<R>) -> String {
    if found.knobs.is_empty() {
        return ".".to_string();
    }
    let mut text = ", but for those the search changed behind the rules when no rule gained \
                    enough (each change with what it gained):"
        .to_string();
    for k in &found.knobs {
        text += &format!(
            "\n  {} ({:+.2} points, after rule {})",
            k.change,
            100.0 * k.gain,
            k.after
        );
    }
    text
}

/// A card found for either game, as its `card` command shows it: `points` the values of the
/// game's axis searched (`axis`: starting stealth, players), `optimal` optimal play's value at
/// each, `from` the file whose knobs play behind the rules.
pub struct Shown<'a, R> {
    /// What the search found.
    pub found: &'a Found<R>,
    /// Optimal play's win probability at each point.
    pub optimal: &'a [f64],
    /// The axis, as a column names it.
    pub axis: &'a str,
    /// Its values searched.
    pub points: &'a [u8],
    /// The file the knobs behind the rules came from.
    pub from: &'a str,
    /// The knobs that differ from that file's (`section.key = value`).
    pub changed: &'a [String],
    /// A rule as a sentence for a person.
    pub sentence: &'a dyn Fn(&R) -> String,
    /// The kind of decision a rule is for.
    pub kind: &'a dyn Fn(&R) -> String,
}

impl<R: PartialEq + std::fmt::Display> Shown<'_, R> {
    /// The rules still on the card (a rule found later may overrule an earlier one
    /// everywhere), by worth.
    fn by_worth(&self) -> Vec<usize> {
        let found = self.found;
        let mut by_worth: Vec<usize> = (0..found.added.len())
            .filter(|&i| found.card.contains(&found.added[i].rule))
            .collect();
        by_worth.sort_by(|&a, &b| found.added[b].gain.total_cmp(&found.added[a].gain));
        by_worth
    }

    /// The card by worth, the ladder, how far short of optimal play it ends, and its values
    /// in full (as `exact` prints them: the written file gives these bits).
    pub fn text(&self) -> String {
        let (found, optimal, from, axis) = (self.found, self.optimal, self.from, self.axis);
        let by_worth = self.by_worth();
        let mut text = format!(
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
                (self.sentence)(&a.rule),
                (self.kind)(&a.rule),
                a.rule
            );
        }
        let gone = found.added.len() - by_worth.len();
        if gone > 0 {
            text += &format!(
                "  ({gone} rule(s) found earlier, overruled everywhere by later ones, are left off)\n"
            );
        }
        if !found.knobs.is_empty() {
            text += &format!(
                "\nknobs of {from} changed behind the rules, when no rule gained enough (points \
                 gained, rules on the card then)\n"
            );
            for k in &found.knobs {
                text += &format!(
                    "     {:+.2}  {}  (after rule {})\n",
                    100.0 * k.gain,
                    k.change,
                    k.after
                );
            }
        }
        let mut ladder = Table::new(
            std::iter::once(("rules added".to_string(), Align::Left))
                .chain(
                    self.points
                        .iter()
                        .map(|s| (format!("{axis} {s}"), Align::Right)),
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
        let gaps: Vec<String> = self
            .points
            .iter()
            .zip(optimal.iter().zip(values))
            .map(|(s, (o, v))| format!("{:.2} at {s}", 100.0 * (o - v)))
            .collect();
        text += &format!(
            "the card is short of optimal play by {} (points)\n",
            gaps.join(", ")
        );
        for (s, v) in self.points.iter().zip(values) {
            text += &format!("card, {axis} {s:>2}: P(win) = {v:.15}\n");
        }
        text
    }

    /// The card as a page to print ([`crate::report::card`]).
    pub fn page(&self, game: &str, inputs: &str) -> String {
        let found = self.found;
        let sentences: Vec<(String, String, f64)> = self
            .by_worth()
            .iter()
            .map(|&i| {
                let a = &found.added[i];
                ((self.sentence)(&a.rule), (self.kind)(&a.rule), a.gain)
            })
            .collect();
        let ladder: Vec<(usize, Vec<f64>)> = rungs(found.added.len())
            .into_iter()
            .map(|n| (n, found.with_rules(n).to_vec()))
            .collect();
        crate::report::card::page(&CardPage {
            game,
            inputs,
            from: self.from,
            changed: self.changed,
            rules: &sentences,
            axis: self.axis,
            points: self.points,
            ladder: &ladder,
            optimal: self.optimal,
            worth: crate::report::card::WORTH_WHEN_ADDED,
        })
    }
}

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
