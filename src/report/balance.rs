//! The designer's balance report: the results of `raven report` as tidy CSV rows, SVG charts
//! and a Markdown page. Everything here formats numbers it is given; nothing computes them.

use std::fmt::Write as _;

use serde::Serialize;

use crate::engine::DecisionKind;
use crate::game::LossCause;
use crate::rules::Rules;
use crate::strategy::{OPTIMAL, REFERENCE};

use super::Summary;
use super::assemble::Watched;
use super::chart::{Bars, Panel, Series, bar_chart, bars, check_chart, line_chart_marked};
use super::decisions::{self, Decomposed, plain};

/// Every result of one report run.
pub struct Balance {
    /// The most positions an exact evaluation was allowed (strategies over it are sampled).
    pub exact_budget: usize,
    /// The command line that produced it.
    pub command: String,
    /// The presets compared, default first.
    pub presets: Vec<Rules>,
    /// Strategies in report order (`optimal` is added separately).
    pub strategies: Vec<String>,
    /// Headline stealths (rule variants, loss causes, comparisons).
    pub headline: Vec<u8>,
    /// Win rates: exact / optimal and Monte Carlo summaries for every (strategy, rules,
    /// stealth), `optimal` included.
    pub win_rates: Vec<Summary>,
    /// Rule-variant effects.
    pub variants: Vec<VariantRow>,
    /// Lever effects: each design parameter one step from the printed game (`variant` is its
    /// `key=value`).
    pub levers: Vec<VariantRow>,
    /// The regret decomposition of the strategies it covers, under the default rules: the
    /// reference at every headline stealth, the others at the middle one.
    pub decisions: Vec<Decomposed>,
    /// Bundled strategies the decomposition leaves out (for its cost, or over the budget).
    pub decisions_left_out: Vec<String>,
    /// How optimal play and the reference play under the default reading, at each headline
    /// stealth (empty when not computed).
    pub watched: Vec<Watched>,
}

impl Balance {
    /// The middle headline stealth: the one the report's words are about.
    pub fn mid(&self) -> u8 {
        self.headline[self.headline.len() / 2]
    }

    /// The exact (or optimal) summary of `strategy` under `rules` at `stealth`.
    pub fn exact(&self, strategy: &str, rules: Rules, stealth: u8) -> Option<&Summary> {
        exact_of(self, strategy, rules, stealth)
    }
}

/// One chart of the report: its file, its title (the image's alternative text) and its SVG.
pub struct Chart {
    /// File name in the report's directory.
    pub file: String,
    /// What it shows, in a few words.
    pub title: String,
    /// The drawing.
    pub svg: String,
}

/// The name the chart files give each of the two readings (which `--rule` may change).
const READINGS: [&str; 2] = ["main-text", "clarified"];

/// The chart files of a report of `presets`, in the order [`charts`] draws them.
pub fn chart_files(presets: &[Rules]) -> Vec<String> {
    let readings = || READINGS.iter().take(presets.len());
    let mut files: Vec<String> = readings()
        .map(|r| format!("win-probability-{r}.svg"))
        .collect();
    files.extend(
        [
            "rule-variants.svg",
            "levers.svg",
            "regret-by-decision.svg",
            "loss-causes.svg",
        ]
        .map(String::from),
    );
    files.extend(readings().map(|r| format!("check-monte-carlo-{r}.svg")));
    files
}

/// Every chart of the report, named as [`chart_files`] names them.
pub fn charts(balance: &Balance) -> Vec<Chart> {
    let names = chart_files(&balance.presets);
    let mut svgs: Vec<(String, String)> = balance
        .presets
        .iter()
        .map(|&rules| {
            (
                format!("Win probability by starting stealth, {rules}"),
                win_chart(balance, rules),
            )
        })
        .collect();
    svgs.push(("Effect of each rule variant".into(), variant_chart(balance)));
    svgs.push(("Levers, biggest first".into(), lever_chart(balance)));
    svgs.push((
        "Points lost by kind of decision".into(),
        regret_chart(balance),
    ));
    svgs.push(("How games are lost".into(), loss_chart(balance)));
    svgs.extend(balance.presets.iter().map(|&rules| {
        (
            format!("Monte Carlo against exact, {rules}"),
            check(balance, rules),
        )
    }));
    names
        .into_iter()
        .zip(svgs)
        .map(|(file, (title, svg))| Chart { file, title, svg })
        .collect()
}

/// One row of `rule-variants.csv`: a single flag switched from the default reading.
#[derive(Clone, Debug, Serialize)]
pub struct VariantRow {
    /// `key=value` of the flag switched (`default` for the baseline row).
    pub variant: String,
    /// The full rules in force.
    pub rules: String,
    /// Starting stealth.
    pub stealth: u8,
    /// `reference` (exact) or `optimal`.
    pub strategy: String,
    /// `exact` or `optimal`.
    pub method: String,
    /// Win probability under the variant.
    #[serde(serialize_with = "super::csv::round")]
    pub win_rate: f64,
    /// Win probability under the default rules.
    #[serde(serialize_with = "super::csv::round")]
    pub default_win_rate: f64,
    /// `win_rate - default_win_rate` (a 0–1 fraction; ×100 for percentage points).
    #[serde(serialize_with = "super::csv::round")]
    pub effect: f64,
    /// raven's version.
    pub raven_version: &'static str,
}

/// One row of `loss-causes.csv`.
#[derive(Clone, Debug, Serialize)]
pub struct LossRow {
    /// Strategy.
    pub strategy: String,
    /// Rules in force.
    pub rules: String,
    /// Starting stealth.
    pub stealth: u8,
    /// `exact`, `optimal` or `monte-carlo`.
    pub method: String,
    /// Phase where the game was lost: `recruitment`, `run` or `finale`.
    pub phase: &'static str,
    /// `no_able_member` (R4) or `finale_character_down` (R14).
    pub cause: &'static str,
    /// Probability of losing this way (0–1).
    #[serde(serialize_with = "super::csv::round")]
    pub probability: f64,
    /// Games played (Monte Carlo rows; empty for exact rows).
    pub games: Option<u64>,
    /// Games lost this way (Monte Carlo rows).
    pub losses: Option<u64>,
    /// raven's version.
    pub raven_version: &'static str,
}

/// The loss-cause rows of the headline stealths, from the win-rate summaries.
pub fn loss_rows(balance: &Balance) -> Vec<LossRow> {
    let mut rows = Vec::new();
    for s in balance
        .win_rates
        .iter()
        .filter(|s| balance.headline.contains(&s.stealth))
    {
        for (i, cause) in LossCause::ALL.into_iter().enumerate() {
            let (phase, kind) = match cause {
                LossCause::Recruitment => ("recruitment", "no_able_member"),
                LossCause::Run => ("run", "no_able_member"),
                LossCause::Finale => ("finale", "no_able_member"),
                LossCause::FinaleCharacterDown => ("finale", "finale_character_down"),
            };
            rows.push(LossRow {
                strategy: s.strategy.clone(),
                rules: s.rules.to_string(),
                stealth: s.stealth,
                method: s.method.to_string(),
                phase,
                cause: kind,
                probability: s.loss_rates[i],
                games: s.sample.map(|(t, _)| t.games),
                losses: s.sample.map(|(t, _)| t.losses[i]),
                raven_version: env!("CARGO_PKG_VERSION"),
            });
        }
    }
    rows
}

/// The summary of `strategy` under `rules` at `stealth`: the Monte Carlo one if `sampled`,
/// else the exact (or optimal) one.
fn find<'a>(
    balance: &'a Balance,
    strategy: &str,
    rules: Rules,
    stealth: u8,
    sampled: bool,
) -> Option<&'a Summary> {
    balance.win_rates.iter().find(|s| {
        s.strategy == strategy
            && s.rules == rules
            && s.stealth == stealth
            && (s.method == super::Method::MonteCarlo) == sampled
    })
}

/// The exact (or optimal) summary.
fn exact_of<'a>(b: &'a Balance, strategy: &str, rules: Rules, stealth: u8) -> Option<&'a Summary> {
    find(b, strategy, rules, stealth, false)
}

/// The Monte Carlo summary.
fn sampled_of<'a>(
    b: &'a Balance,
    strategy: &str,
    rules: Rules,
    stealth: u8,
) -> Option<&'a Summary> {
    find(b, strategy, rules, stealth, true)
}

/// All strategies of the report, `optimal` last.
fn all_strategies(balance: &Balance) -> Vec<&str> {
    let mut names: Vec<&str> = balance.strategies.iter().map(String::as_str).collect();
    names.push(OPTIMAL);
    names
}

/// The lines of the win-probability charts under `rules`: every strategy and optimal play,
/// exact where computed (else the Monte Carlo estimate), with their Monte Carlo intervals.
fn win_series(balance: &Balance, rules: Rules) -> Vec<Series> {
    let stealths: Vec<u8> = {
        let mut s: Vec<u8> = balance
            .win_rates
            .iter()
            .filter(|s| s.rules == rules)
            .map(|s| s.stealth)
            .collect();
        s.sort_unstable();
        s.dedup();
        s
    };
    all_strategies(balance)
        .into_iter()
        .map(|name| Series {
            name: name.to_string(),
            // Exact where computed, else the Monte Carlo estimate.
            points: stealths
                .iter()
                .filter_map(|&st| {
                    exact_of(balance, name, rules, st)
                        .or_else(|| sampled_of(balance, name, rules, st))
                        .map(|s| (f64::from(st), s.win_rate))
                })
                .collect(),
            intervals: stealths
                .iter()
                .filter_map(|&st| {
                    sampled_of(balance, name, rules, st)
                        .map(|s| (f64::from(st), s.win_rate, s.ci.0, s.ci.1))
                })
                .collect(),
            dashed: name == OPTIMAL,
        })
        .collect()
}

/// Win probability against starting stealth under `rules`: exact lines, optimal dashed, the
/// headline stealths marked.
pub fn win_chart(balance: &Balance, rules: Rules) -> String {
    let marks: Vec<f64> = balance.headline.iter().map(|&s| f64::from(s)).collect();
    line_chart_marked(
        &format!("Win probability by starting stealth ({rules})"),
        "starting stealth (headline stealths marked)",
        "exact P(win)",
        &win_series(balance, rules),
        &marks,
    )
}

/// The validation chart under `rules`: every Monte Carlo estimate against the exact value.
pub fn check(balance: &Balance, rules: Rules) -> String {
    check_chart(
        &format!("Monte Carlo against exact ({rules})"),
        "starting stealth",
        &win_series(balance, rules),
    )
}

/// How many Monte Carlo estimates there are where an exact value exists, and how many of
/// their 95% intervals hold it (about 95% should).
pub fn check_counts(balance: &Balance) -> (usize, usize) {
    let mut n = 0;
    let mut inside = 0;
    for s in balance
        .win_rates
        .iter()
        .filter(|s| s.method == super::Method::MonteCarlo)
    {
        if let Some(e) = exact_of(balance, &s.strategy, s.rules, s.stealth) {
            n += 1;
            inside += usize::from(s.ci.0 <= e.win_rate && e.win_rate <= s.ci.1);
        }
    }
    (n, inside)
}

/// The levers at the middle headline stealth as a tornado: each change one bar per player,
/// biggest effect on optimal play first.
pub fn lever_chart(balance: &Balance) -> String {
    let mid = balance.mid();
    let ranked = super::levers::ranked(balance, mid);
    let labels: Vec<String> = ranked.iter().map(|l| l.label()).collect();
    let players = [OPTIMAL, REFERENCE];
    let panel = Panel {
        heading: format!("stealth {mid}"),
        values: players
            .iter()
            .map(|&p| {
                ranked
                    .iter()
                    .map(|l| 100.0 * if p == OPTIMAL { l.optimal } else { l.reference })
                    .collect()
            })
            .collect(),
    };
    bar_chart(
        &format!(
            "Levers: each number of the game moved one step ({})",
            balance.presets[0]
        ),
        "change in win probability (percentage points), biggest effect on optimal play first",
        &labels,
        &players.map(String::from),
        &[panel],
    )
}

/// The reference strategy's points lost against optimal play by kind of decision, a panel
/// per headline stealth it is decomposed at; kinds that never cost anything left out.
pub fn regret_chart(balance: &Balance) -> String {
    let default = balance.presets[0];
    let told: Vec<&decisions::Told> = balance
        .decisions
        .iter()
        .filter(|d| d.strategy == REFERENCE && d.rules == default)
        .flat_map(|d| d.results.iter())
        .collect();
    let mid = told
        .iter()
        .find(|t| t.stealth == balance.mid())
        .or(told.first());
    let mut kinds: Vec<DecisionKind> = DecisionKind::ALL
        .into_iter()
        .filter(|k| told.iter().any(|t| t.by_kind.regret[*k as usize] > 0.0))
        .collect();
    if let Some(mid) = mid {
        kinds.sort_by(|a, b| {
            mid.by_kind.regret[*b as usize].total_cmp(&mid.by_kind.regret[*a as usize])
        });
    }
    let labels: Vec<String> = kinds.iter().map(|k| plain(*k).to_string()).collect();
    let panels: Vec<Panel> = told
        .iter()
        .map(|t| Panel {
            heading: format!("stealth {}", t.stealth),
            values: vec![
                kinds
                    .iter()
                    .map(|k| 100.0 * t.by_kind.regret[*k as usize])
                    .collect(),
            ],
        })
        .collect();
    bars(&Bars {
        title: "Where the reference strategy loses against optimal play",
        value_label: "win probability lost at each kind of decision (percentage points)",
        labels: &labels,
        series: &[REFERENCE.to_string()],
        panels: &panels,
        signed: false,
        colour_rows: false,
    })
}

/// How games are lost at the middle headline stealth under the default reading: a panel per
/// cause, a bar per strategy in its colour.
pub fn loss_chart(balance: &Balance) -> String {
    let (default, mid) = (balance.presets[0], balance.mid());
    let names: Vec<String> = all_strategies(balance)
        .into_iter()
        .map(String::from)
        .collect();
    let panels: Vec<Panel> = LossCause::ALL
        .into_iter()
        .enumerate()
        .map(|(i, cause)| Panel {
            heading: match cause {
                LossCause::Recruitment => "lost in recruitment",
                LossCause::Run => "lost in the run",
                LossCause::Finale => "lost in the finale",
                LossCause::FinaleCharacterDown => "finale character down",
            }
            .to_string(),
            values: vec![
                names
                    .iter()
                    .map(|n| {
                        exact_of(balance, n, default, mid)
                            .or_else(|| sampled_of(balance, n, default, mid))
                            .map_or(0.0, |s| 100.0 * s.loss_rates[i])
                    })
                    .collect(),
            ],
        })
        .collect();
    bars(&Bars {
        title: &format!("How games are lost at stealth {mid} ({default})"),
        value_label: "share of games lost this way (%)",
        labels: &names,
        series: &["P(loss)".to_string()],
        panels: &panels,
        signed: false,
        colour_rows: true,
    })
}

/// Rule-variant effects (percentage points) at every headline stealth, one panel each.
pub fn variant_chart(balance: &Balance) -> String {
    let mut labels: Vec<String> = Vec::new();
    for v in balance.variants.iter().filter(|v| v.variant != "default") {
        if !labels.contains(&v.variant) {
            labels.push(v.variant.clone());
        }
    }
    let strategies = [REFERENCE, OPTIMAL];
    let panels: Vec<Panel> = balance
        .headline
        .iter()
        .map(|&stealth| Panel {
            heading: format!("stealth {stealth}"),
            values: strategies
                .iter()
                .map(|strategy| {
                    labels
                        .iter()
                        .map(|label| {
                            balance
                                .variants
                                .iter()
                                .find(|v| {
                                    &v.variant == label
                                        && v.stealth == stealth
                                        && v.strategy == *strategy
                                })
                                .map_or(0.0, |v| 100.0 * v.effect)
                        })
                        .collect()
                })
                .collect(),
        })
        .collect();
    bar_chart(
        "Effect of each rule variant on P(win), against main-text",
        "change in win probability (percentage points); reference strategy exact, optimal play",
        &labels,
        &strategies.map(String::from),
        &panels,
    )
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// `reports/README.md`: the headline table, the charts, a plain-language reading, and how to
/// reproduce everything.
pub fn readme(balance: &Balance, charts: &[Chart]) -> String {
    let mut md = String::new();
    let default = balance.presets[0];
    let _ = writeln!(
        md,
        "# Operation Purple Raven — balance report\n\n\
         Generated by raven {} with\n\n```sh\n{}\n```\n\n\
         Every figure below is reproducible by that command (fixed seeds). Exact values are \
         computed over every roll of the dice; Monte Carlo values are sampled games with 95% \
         Wilson intervals; *optimal* is the best any player can do, knowing what the rules let \
         a player know. Rules (see [`docs/rules.md`](../docs/rules.md)): `main-text` is the \
         default reading, `clarified` the reading of the original's notes (finale penalty 2 while discovered, no 4+ bonus).{}\n",
        env!("CARGO_PKG_VERSION"),
        balance.command,
        changed(balance),
    );
    md += &super::advice::section(balance);

    let _ = writeln!(md, "## How winnable is the game?\n");
    let mut header = "| strategy |".to_string();
    let mut rule = "|---|".to_string();
    for rules in &balance.presets {
        for st in &balance.headline {
            let _ = write!(header, " {rules} {st} |");
            rule.push_str("---:|");
        }
    }
    let _ = writeln!(
        md,
        "Exact win probability at starting stealth {}:\n",
        join(&balance.headline)
    );
    let _ = writeln!(md, "{header}\n{rule}");
    for name in all_strategies(balance) {
        let mut line = if name == OPTIMAL {
            "| **optimal** |".to_string()
        } else {
            format!("| {name} |")
        };
        for rules in &balance.presets {
            for &st in &balance.headline {
                let cell = match (
                    exact_of(balance, name, *rules, st),
                    sampled_of(balance, name, *rules, st),
                ) {
                    (Some(s), _) => pct(s.win_rate),
                    (None, Some(s)) => format!("≈{}", pct(s.win_rate)),
                    (None, None) => "—".into(),
                };
                let _ = write!(line, " {cell} |");
            }
        }
        let _ = writeln!(md, "{line}");
    }
    let sampled: Vec<&str> = balance
        .strategies
        .iter()
        .filter(|n| exact_of(balance, n, default, balance.headline[0]).is_none())
        .map(String::as_str)
        .collect();
    if !sampled.is_empty() {
        let _ = writeln!(
            md,
            "\n≈: Monte Carlo estimate ({} games, 95% interval in `win-rates.csv`). The exact \
             evaluation of {} needs more than {} memoised positions, over this report's budget: \
             these strategies pick their team from the complications rolled, so every possible \
             team has its own run and finale to evaluate. `raven exact --max-memory` can go \
             further on a machine with more memory.",
            balance
                .win_rates
                .iter()
                .find_map(|s| s.sample.map(|(t, _)| t.games))
                .unwrap_or(0),
            sampled
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", "),
            balance.exact_budget
        );
    }
    let _ = writeln!(md);
    show(&mut md, charts, "win-probability");
    let _ = writeln!(
        md,
        "Lines: exact win probabilities, each named at its end and in its strategy's colour (the \
         same in every chart; optimal play black and dashed); the headline stealths ({}) are \
         marked. How the Monte Carlo runs agree with the exact values is under *Checks* below.\n",
        join(&balance.headline)
    );

    let _ = writeln!(md, "## Reading the results\n");
    for paragraph in reading(balance, default) {
        let _ = writeln!(md, "{paragraph}\n");
    }
    show(&mut md, charts, "regret-by-decision");
    show(&mut md, charts, "loss-causes");
    show(&mut md, charts, "rule-variants");
    md += &super::levers::section(balance);
    md += &checks(balance, charts);

    let _ = writeln!(
        md,
        "## Files\n\n\
         | file | contents |\n|---|---|\n\
         | `win-rates.csv` | every strategy and `optimal`, every starting stealth, both presets: exact rows (`method` = `exact`/`optimal`, `ci_low = ci_high = win_rate`) and Monte Carlo rows with intervals; the columns of `raven simulate` |\n\
         | `rule-variants.csv` | each ambiguous ruling switched alone from `main-text`: win probability of the reference strategy (exact) and of optimal play, and the `effect` against the default (0–1 fraction) |\n\
         | `levers.csv` | each of the game's numbers moved one step from the printed game (`variant` = `key=value`), the columns of `rule-variants.csv` |\n\
         | `loss-causes.csv` | where games are lost (`phase`, `cause`), per strategy and headline stealth, exact and Monte Carlo |\n\
         | `strategy-comparison.csv` | paired comparison of every strategy against the reference on the same games (difference, 95% paired interval, McNemar p-value) |\n\
         | `decisions.csv` | where each strategy covered loses its points against optimal play, exactly, by kind of decision (`regret`, 0–1), with how often each kind arises and matters per game; the columns of `raven decisions`: the reference at every headline stealth, the others at the middle one, under main-text |\n\
         | `decisions-top.csv` | the 10 positions that cost each covered strategy most per headline stealth covered, in words, with reach probability and shortfall; the columns of `raven decisions --top-out` |\n\
         | `*.svg` | the charts above; `check-monte-carlo-*.svg` the validation charts |\n\n\
         Values in the CSVs carry 12 significant digits: exact values are sums of millions of \
         products, and the digits beyond are floating-point noise.\n"
    );
    md
}

/// Embeds the charts whose file starts with `prefix`.
fn show(md: &mut String, charts: &[Chart], prefix: &str) {
    for c in charts.iter().filter(|c| c.file.starts_with(prefix)) {
        let _ = writeln!(md, "![{}]({})\n", c.title, c.file);
    }
}

/// What the command's `--rule` changed, for the introduction (nothing for the game as
/// printed).
fn changed(balance: &Balance) -> String {
    let default = balance.presets[0];
    let changes = default.design.changes();
    let flags = balance
        .presets
        .iter()
        .all(|p| *p != crate::rules::MAIN_TEXT && *p != crate::rules::CLARIFIED);
    if changes.is_empty() && !flags {
        String::new()
    } else {
        format!(
            " **This report is about a changed game:** both readings as the command's `--rule` \
             sets them (the default reading is `{default}`)."
        )
    }
}

/// The validation section: the Monte Carlo engine against the exact one.
fn checks(balance: &Balance, charts: &[Chart]) -> String {
    let (n, inside) = check_counts(balance);
    if n == 0 {
        return String::new();
    }
    let mut md = format!(
        "## Checks\n\n\
         Every Monte Carlo estimate is checked against the exact value of the same strategy, \
         rules and stealth: {inside} of {n} 95% intervals hold the exact value ({:.1}%; about \
         95% should, and a wrong engine would miss by far more than its interval). The charts \
         show each estimate minus the exact value, in percentage points.\n\n",
        100.0 * inside as f64 / n as f64
    );
    show(&mut md, charts, "check-monte-carlo");
    md
}

fn join(stealths: &[u8]) -> String {
    stealths
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Plain-language paragraphs derived from the numbers.
fn reading(balance: &Balance, rules: Rules) -> Vec<String> {
    let mut out = Vec::new();
    let mid = balance.headline[balance.headline.len() / 2];
    let exact = |name: &str, st: u8| {
        exact_of(balance, name, rules, st)
            .or_else(|| sampled_of(balance, name, rules, st))
            .map(|s| s.win_rate)
    };
    let (Some(reference), Some(optimal)) = (exact(REFERENCE, mid), exact(OPTIMAL, mid)) else {
        return out;
    };
    let lo = *balance.headline.first().expect("headline stealths");
    let hi = *balance.headline.last().expect("headline stealths");
    // Read from optimal play: how winnable the game itself is.
    let verdict = if optimal >= 0.5 {
        "The game is far from hopeless, but"
    } else if optimal >= 0.2 {
        "The game is hard even for perfect play, and"
    } else {
        "The game is close to unwinnable here, and"
    };
    out.push(format!(
        "**Difficulty.** Under {rules}, a player who follows the reference strategy wins {} of \
         games at stealth {mid} ({} at {lo}, {} at {hi}); perfect play wins {} ({} at {lo}, {} at \
         {hi}). {verdict} the reference strategy leaves {:.0} percentage points on the table.",
        pct(reference),
        exact(REFERENCE, lo).map_or("—".into(), pct),
        exact(REFERENCE, hi).map_or("—".into(), pct),
        pct(optimal),
        exact(OPTIMAL, lo).map_or("—".into(), pct),
        exact(OPTIMAL, hi).map_or("—".into(), pct),
        100.0 * (optimal - reference)
    ));
    let mut ranked: Vec<(&str, f64)> = balance
        .strategies
        .iter()
        .filter_map(|n| exact(n, mid).map(|v| (n.as_str(), v)))
        .collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
    out.extend(decisions::reading(
        &balance.decisions,
        &balance.decisions_left_out,
        rules,
        REFERENCE,
        mid,
    ));
    if let (Some(best), Some(worst)) = (ranked.first(), ranked.last()) {
        out.push(format!(
            "**Whole strategies compared.** Among the bundled strategies at stealth {mid}, \
             `{}` does best ({}) and `{}` worst ({}): a spread of {:.0} points from choices \
             alone. Ranked: {}. See `strategies/README.md` for what each strategy does and \
             `strategy-comparison.csv` for paired differences on the same games.",
            best.0,
            pct(best.1),
            worst.0,
            pct(worst.1),
            100.0 * (best.1 - worst.1),
            ranked
                .iter()
                .map(|(n, v)| format!("`{n}` {}", pct(*v)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(s) = exact_of(balance, REFERENCE, rules, mid) {
        let (i, worst) = s
            .loss_rates
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .expect("four causes");
        out.push(format!(
            "**Where games are lost.** For the reference strategy at stealth {mid} the largest \
             loss cause is *{}* ({}); the team is discovered (stealth 0) in {} of games.",
            LossCause::ALL[i],
            pct(*worst),
            pct(s.discovered_rate)
        ));
    }
    let mut effects: Vec<&VariantRow> = balance
        .variants
        .iter()
        .filter(|v| v.stealth == mid && v.strategy == OPTIMAL && v.variant != "default")
        .collect();
    effects.sort_by(|a, b| b.effect.abs().total_cmp(&a.effect.abs()));
    if !effects.is_empty() {
        out.push(format!(
            "**Which rule ambiguities matter.** Switching one ruling at a time from {rules} \
             (stealth {mid}, optimal play): {}. Effects under a point are within what a player \
             would never notice; larger ones deserve a clear ruling in the rulebook.",
            effects
                .iter()
                .map(|v| {
                    // Rounded first, so that a tiny negative effect reads +0.00, not -0.00.
                    let pp = (1e4 * v.effect).round() / 100.0 + 0.0;
                    format!("`{}` {pp:+.2} pp", v.variant)
                })
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out
}
