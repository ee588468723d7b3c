//! The report's SVG charts: win probability by stealth, the rule variants, the levers, regret
//! by decision kind, loss causes, and the Monte Carlo check, drawn from a [`Balance`].

use crate::game::DecisionKind;
use crate::game::LossCause;
use crate::rules::Rules;
use crate::strategy::{OPTIMAL, REFERENCE};

use super::chart::{
    Bars, Panel, Series, bar_chart, bars, check_chart, line_chart, line_chart_marked,
};
use super::decisions::{self, plain};

use super::balance::{Assessment, Balance, all_strategies, exact_of, sampled_of};
use super::chart::{FanPanel, fan_chart};

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
    files.extend(QUALITY_CHARTS.map(String::from));
    files
}

/// The charts of "Is it a good game?", last of [`chart_files`] (drawn when the report has its
/// assessment).
pub const QUALITY_CHARTS: [&str; 4] = [
    "quality-fan.svg",
    "quality-luck-skill.svg",
    "quality-length.svg",
    "quality-game.svg",
];

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
    if let Some(a) = &balance.quality {
        let mid = balance.mid();
        svgs.push(("The chance of winning along the game".into(), fan(a, mid)));
        svgs.push(("Luck against skill".into(), luck_skill(a)));
        svgs.push(("How long a game takes".into(), length(a, mid)));
        svgs.push(("One game".into(), one_game(a)));
    }
    names
        .into_iter()
        .zip(svgs)
        .map(|(file, (title, svg))| Chart { file, title, svg })
        .collect()
}

/// The lines of the win-probability charts under `rules`: every strategy and optimal play,
/// exact where computed (else the Monte Carlo estimate), with their Monte Carlo intervals;
/// all but optimal play, the reference and the strategy file *What a player should do*
/// recommends under `rules` muted.
fn win_series(balance: &Balance, rules: Rules) -> Vec<Series> {
    let best = super::player::best_file(balance, rules).map(|(name, _)| name);
    let emphasised = |name: &str| name == OPTIMAL || name == REFERENCE || Some(name) == best;
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
            muted: !emphasised(name),
        })
        .collect()
}

/// Win probability against starting stealth under `rules`: optimal play (dashed), the best
/// strategy file and the reference emphasised and named, the others thin and grey behind
/// them; an even game and the headline stealths marked.
pub fn win_chart(balance: &Balance, rules: Rules) -> String {
    let marks: Vec<f64> = balance.headline.iter().map(|&s| f64::from(s)).collect();
    line_chart_marked(
        &format!("Win probability by starting stealth ({rules})"),
        "starting stealth (the report's headline stealths marked above)",
        "win probability",
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
/// in plain words, the largest effect on either player first (a lever that moves the
/// reference far and optimal play little, as team size does, is one a designer wants to see).
pub fn lever_chart(balance: &Balance) -> String {
    let mid = balance.mid();
    let mut ranked = super::levers::ranked(balance, mid);
    ranked.sort_by(|a, b| b.size().total_cmp(&a.size()));
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
        "change in win probability (percentage points), largest effect on either first",
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
                LossCause::Recruitment => "in recruitment",
                LossCause::Run => "in the run",
                LossCause::Finale => "in the finale",
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
        &format!(
            "Effect of each rule variant on win probability, against {}",
            balance.presets[0]
        ),
        "change in win probability (percentage points), exact",
        &labels,
        &strategies.map(String::from),
        &panels,
    )
}

/// The Annulus report's chart for one difficulty: each line's success probability by number of
/// players, `lines` as `(name, [(players, success)])`, optimal play (named `optimal`) dashed.
pub fn annulus_success_chart(difficulty: &str, lines: &[(String, Vec<(u8, f64)>)]) -> String {
    let series: Vec<Series> = lines
        .iter()
        .map(|(name, points)| Series {
            name: name.clone(),
            points: points.iter().map(|&(p, s)| (f64::from(p), s)).collect(),
            intervals: Vec::new(),
            dashed: name == OPTIMAL,
            muted: false,
        })
        .collect();
    line_chart(
        &format!("Annulus, {difficulty} operation: success by number of players"),
        "players (the line has players + 2 dice)",
        "success probability",
        &series,
    )
}

/// Optimal play's chance of winning on entering each stage at stealth `mid`, median and
/// quartiles over the won games and over the lost, a panel for optimal play and one for the
/// reference.
pub fn fan(a: &Assessment, mid: u8) -> String {
    let panels: Vec<FanPanel> = [OPTIMAL, REFERENCE]
        .into_iter()
        .filter_map(|name| {
            let x = a
                .assessed
                .iter()
                .find(|x| x.strategy == name && x.stealth == mid)?;
            let fan = |won: bool| {
                (0..a.stages.len())
                    .map(|i| x.quality.entering(i, won).map(|(q, _)| q.map(f64::from)))
                    .collect()
            };
            Some(FanPanel {
                heading: if name == OPTIMAL {
                    "optimal play".to_string()
                } else {
                    format!("{name} strategy")
                },
                fans: [fan(true), fan(false)],
            })
        })
        .collect();
    fan_chart(
        &format!(
            "Optimal play's chance of winning on entering each stage, stealth {mid} ({})",
            a.rules
        ),
        "chance of winning (optimal play from there)",
        &a.stages,
        &panels,
    )
}

/// Each player's points lost to decisions against the dice's share of the spread of its
/// results, a point per headline stealth, the line named at the highest.
pub fn luck_skill(a: &Assessment) -> String {
    let rows = super::quality::rows(a);
    let mut names: Vec<&str> = Vec::new();
    for r in &rows {
        if !names.contains(&r.strategy.as_str()) {
            names.push(&r.strategy);
        }
    }
    let series: Vec<Series> = names
        .iter()
        .map(|&name| {
            let mut points: Vec<(u8, f64, f64)> = rows
                .iter()
                .filter(|r| r.strategy == name)
                .map(|r| (r.stealth.unwrap_or(0), 100.0 * r.skill_loss, r.luck_share))
                .collect();
            points.sort_by_key(|p| p.0);
            Series {
                name: name.to_string(),
                points: points.iter().map(|p| (p.1, p.2)).collect(),
                intervals: Vec::new(),
                // A single point where decisions lose nothing: markers, not a dashed line.
                dashed: false,
                muted: false,
            }
        })
        .collect();
    line_chart(
        &format!("Luck against skill ({})", a.rules),
        "points of win probability lost to decisions per game",
        "the dice's share of the spread of results",
        &series,
    )
}

/// The share of games over within each number of rolls at stealth `mid`, a line per player
/// (up to the 99th percentile of the longest).
pub fn length(a: &Assessment, mid: u8) -> String {
    let at_mid: Vec<_> = a.assessed.iter().filter(|x| x.stealth == mid).collect();
    let quantile = |x: &&raven_core::quality::Assessed, q: f64| x.quality.length_quantile(q)[0];
    let low = at_mid.iter().map(|x| quantile(x, 0.01)).min().unwrap_or(0);
    let high = at_mid.iter().map(|x| quantile(x, 0.99)).max().unwrap_or(1);
    let step = (high - low).div_ceil(30).max(1);
    let mut ks: Vec<u32> = (low..=high).step_by(step as usize).collect();
    if ks.last() != Some(&high) {
        ks.push(high);
    }
    let series: Vec<Series> = at_mid
        .iter()
        .map(|x| {
            let lengths = x.quality.lengths(true);
            let total: f64 = lengths.iter().sum();
            let within = |k: u32| {
                let n: f64 = lengths.iter().take(k as usize + 1).sum();
                if total > 0.0 { n / total } else { 0.0 }
            };
            Series {
                name: x.strategy.clone(),
                points: ks.iter().map(|&k| (f64::from(k), within(k))).collect(),
                intervals: Vec::new(),
                dashed: x.strategy == OPTIMAL,
                muted: false,
            }
        })
        .collect();
    line_chart(
        &format!("How long a game takes, stealth {mid} ({})", a.rules),
        "rolls of the dice in the game",
        "share of games over within that many rolls",
        &series,
    )
}

/// The example game: optimal play's chance of winning at the start and after every roll and
/// decision, the result at the end.
pub fn one_game(a: &Assessment) -> String {
    let e = &a.example;
    let points = std::iter::once((0.0, e.start))
        .chain(
            e.steps
                .iter()
                .enumerate()
                .map(|(i, s)| ((i + 1) as f64, s.mu)),
        )
        .collect();
    line_chart(
        &format!(
            "One game of {} from stealth {} ({}, game {} of the report's seed): {}",
            e.strategy,
            e.stealth,
            a.rules,
            e.index,
            if e.won { "won" } else { "lost" }
        ),
        "rolls and decisions so far",
        "chance of winning (optimal play from there)",
        &[Series {
            name: e.strategy.clone(),
            points,
            intervals: Vec::new(),
            dashed: false,
            muted: false,
        }],
    )
}
