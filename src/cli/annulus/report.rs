//! `raven --game annulus report`: the Annulus balance report as a directory — success by
//! players and difficulty for optimal play and the bundled strategies, where each strategy's
//! points go, the levers (each rules key's other values), charts and a README that reads them.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;

use raven_core::engine::generic::quality::quality;
use raven_core::engine::generic::{OptimalPolicy, Optimum, evaluate, solve};
use raven_core::games::annulus::rules::PARAMS;
use raven_core::games::annulus::strategy::{BUNDLED, Knobs};
use raven_core::games::annulus::{Annulus, Rules};
use raven_core::games::{Game, Policy};
use raven_core::rows::{VERSION, rounded};

use super::stopped;
use crate::cli::output::OutDir;
use crate::error::Result;
use crate::report::charts::annulus_success_chart;
use crate::report::quality::rows::{Axis, DecidedRow, Of, QualityRow, decided_rows};
use raven_core::games::annulus::{JAMMED, REVEAL};

/// Arguments of `raven --game annulus report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// The directory to write (made if need be; only files raven wrote there are replaced).
    #[arg(long, default_value = "reports/annulus")]
    pub out: PathBuf,
    /// Numbers of players, 1..=4 (4 takes a few minutes and about 3 GB).
    #[arg(long, default_value = "1,2,3", value_parser = super::players_list)]
    pub players: super::PlayerList,
    /// Replace files in `--out` that raven did not write.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub engine: super::EngineArgs,
}

/// A row of `success.csv`.
#[derive(Serialize)]
struct SuccessRow {
    game: &'static str,
    rules: String,
    difficulty: &'static str,
    players: u8,
    strategy: String,
    #[serde(serialize_with = "raven_core::rows::round")]
    success: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    regret: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    mean_adjustments: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    fail_jammed_rate: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    fail_reveal_rate: f64,
    raven_version: &'static str,
}

/// A row of `levers.csv`: optimal play with one rules key changed.
#[derive(Serialize)]
struct LeverRow {
    game: &'static str,
    difficulty: &'static str,
    players: u8,
    key: &'static str,
    value: String,
    #[serde(serialize_with = "raven_core::rows::round")]
    optimal: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    printed: f64,
    #[serde(serialize_with = "raven_core::rows::round")]
    change: f64,
    raven_version: &'static str,
}

const FILES: [&str; 7] = [
    "README.md",
    "success.csv",
    "levers.csv",
    "quality.csv",
    "quality-decided.csv",
    "success-normal.svg",
    "success-advanced.svg",
];

/// Runs `raven --game annulus report`.
pub fn run(args: &ReportArgs) -> Result<()> {
    let dir = OutDir::reserve(&args.out, args.force)?;
    dir.claim(&FILES)?;
    let engine = args.engine.start()?;
    let (pool, budget) = (&engine.pool, engine.budget());
    let strategies: Vec<Knobs> = BUNDLED
        .iter()
        .map(|(n, _)| Knobs::bundled(n).expect("bundled"))
        .collect();
    let progress = crate::cli::progress::Progress::spinner("annulus report", args.engine.quiet);
    let mut success = Vec::new();
    let mut levers = Vec::new();
    let (mut assessed, mut decided) = (Vec::new(), Vec::new());
    for (difficulty, preset) in [("normal", "normal"), ("advanced", "advanced")] {
        for &players in &args.players {
            let rules = Rules {
                players,
                ..Rules::preset(preset).expect("a preset")
            };
            let game = Annulus::new(rules);
            let solved = pool.install(|| solve(&game, budget)).map_err(stopped)?;
            let optimal = solved.figures();
            let row = |strategy: &str, f: &raven_core::engine::generic::Figures, regret: f64| {
                SuccessRow {
                    game: "annulus",
                    rules: rules.to_string(),
                    difficulty,
                    players,
                    strategy: strategy.to_string(),
                    success: f.win,
                    regret,
                    mean_adjustments: f.decisions,
                    fail_jammed_rate: f.losses[usize::from(JAMMED)],
                    fail_reveal_rate: f.losses[usize::from(REVEAL)],
                    raven_version: VERSION,
                }
            };
            success.push(row("optimal", &optimal, 0.0));
            // Is it a good game? Optimal play and the bundled strategies, each stage as this
            // game (its number of dice) names them; a bundled strategy's success and regret
            // are its assessment's (the same evaluation, not a second one).
            let optimal_policy = OptimalPolicy::new(&solved);
            let stages = game.phases();
            let policies = std::iter::once(&optimal_policy as &dyn Policy<Annulus>)
                .chain(strategies.iter().map(|s| s as &dyn Policy<Annulus>));
            for (i, policy) in policies.enumerate() {
                crate::cli::interrupt::check()?;
                let q = pool
                    .install(|| quality(&solved, policy, budget))
                    .map_err(stopped)?;
                if i > 0 {
                    success.push(row(policy.name(), &q.figures, q.skill_loss));
                }
                let of = Of {
                    game: "annulus",
                    strategy: policy.name(),
                    rules: rules.to_string(),
                    axis: Axis::Players(players),
                };
                decided.extend(
                    decided_rows(&q, &of, &stages)
                        .into_iter()
                        .map(|r| (difficulty, r)),
                );
                assessed.push((difficulty, QualityRow::new(&q, of)));
            }
            let random = pool
                .install(|| evaluate(&game, &raven_core::games::Uniform, budget))
                .map_err(stopped)?;
            success.push(row("random", &random, solved.start() - random.win));
            // Levers: each other key, each value, at the two smallest player counts asked.
            if args.players.iter().filter(|&&p| p < players).count() < 2 {
                for p in PARAMS.iter().filter(|p| p.key != "players") {
                    for value in lever_values(p.key) {
                        let mut changed = rules;
                        changed.set(p.key, value).expect("a lever value");
                        if changed == rules {
                            continue;
                        }
                        let changed = Annulus::new(changed);
                        let other = pool
                            .install(|| solve(&changed, budget).map(|s| s.start()))
                            .map_err(stopped)?;
                        levers.push(LeverRow {
                            game: "annulus",
                            difficulty,
                            players,
                            key: p.key,
                            value: value.to_string(),
                            optimal: other,
                            printed: solved.start(),
                            change: other - solved.start(),
                            raven_version: VERSION,
                        });
                    }
                }
            }
            crate::cli::interrupt::check()?;
        }
    }
    progress.finish();
    let mut csv = Vec::new();
    crate::report::csv::write_rows(&mut csv, &success)?;
    dir.write("success.csv", &csv)?;
    let mut csv = Vec::new();
    crate::report::csv::write_rows(&mut csv, &levers)?;
    dir.write("levers.csv", &csv)?;
    let mut csv = Vec::new();
    crate::report::csv::write_rows(&mut csv, assessed.iter().map(|(_, r)| r))?;
    dir.write("quality.csv", &csv)?;
    let mut csv = Vec::new();
    crate::report::csv::write_rows(&mut csv, decided.iter().map(|(_, r)| r))?;
    dir.write("quality-decided.csv", &csv)?;
    for difficulty in ["normal", "advanced"] {
        let mut names: Vec<String> = vec!["optimal".into()];
        names.extend(strategies.iter().map(|s| s.name.clone()));
        names.push("random".into());
        let lines: Vec<(String, Vec<(u8, f64)>)> = names
            .into_iter()
            .map(|name| {
                let points = success
                    .iter()
                    .filter(|r| r.difficulty == difficulty && r.strategy == name)
                    .map(|r| (r.players, r.success))
                    .collect();
                (name, points)
            })
            .collect();
        let svg = annulus_success_chart(difficulty, &lines);
        dir.write(&format!("success-{difficulty}.svg"), svg.as_bytes())?;
    }
    dir.write(
        "README.md",
        (readme(&success, &levers, &args.players) + &good_game(&assessed, &decided, args))
            .as_bytes(),
    )?;
    dir.commit()
}

/// The values a lever takes besides the printed one.
fn lever_values(key: &str) -> &'static [&'static str] {
    match key {
        "target" => &["3", "5", "6", "8"],
        "hidden-faces" => &["0", "2"],
        "reveal-order" => &["left-to-right"],
        "wrap" => &["yes"],
        "action-limit" => &["5", "10"],
        _ => &[],
    }
}

fn percent(p: f64) -> String {
    format!("{:.1}%", 100.0 * rounded(p))
}

/// A change in points, signed, one decimal; "no change" where it rounds to nothing.
fn points(change: f64) -> String {
    let tenths = (1000.0 * rounded(change)).round();
    if tenths == 0.0 {
        "no change".to_string()
    } else {
        format!("{:+.1} points", tenths / 10.0)
    }
}

fn readme(success: &[SuccessRow], levers: &[LeverRow], players: &[u8]) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "# The Annulus operation challenge — balance report\n\nGenerated by `raven --game annulus report` (raven {VERSION}); every figure is exact (every\noutcome summed, no sampling) and is in `success.csv` and `levers.csv`. The rules are in\n[docs/annulus.md](../../docs/annulus.md).\n"
    );
    for difficulty in ["normal", "advanced"] {
        let _ = writeln!(
            t,
            "## {} operation (target {})\n",
            if difficulty == "normal" {
                "Normal"
            } else {
                "Advanced"
            },
            Rules::preset(difficulty).expect("a preset").target
        );
        let _ = write!(t, "| strategy |");
        for p in players {
            let _ = write!(t, " {p} player{} |", if *p == 1 { "" } else { "s" });
        }
        let _ = write!(t, "\n|---|");
        for _ in players {
            let _ = write!(t, "---:|");
        }
        t.push('\n');
        let names: Vec<&str> = success
            .iter()
            .filter(|r| r.difficulty == difficulty && r.players == players[0])
            .map(|r| r.strategy.as_str())
            .collect();
        for name in &names {
            let _ = write!(t, "| {name} |");
            for p in players {
                let r = success
                    .iter()
                    .find(|r| r.difficulty == difficulty && r.players == *p && r.strategy == *name)
                    .expect("a row");
                let _ = write!(t, " {} |", percent(r.success));
            }
            t.push('\n');
        }
        let _ = writeln!(
            t,
            "\n![success by players]({})\n",
            format_args!("success-{difficulty}.svg")
        );
        // The best strategy a person can follow, and what it leaves.
        for p in players {
            let rows: Vec<&SuccessRow> = success
                .iter()
                .filter(|r| {
                    r.difficulty == difficulty
                        && r.players == *p
                        && r.strategy != "optimal"
                        && r.strategy != "random"
                })
                .collect();
            let best = rows
                .iter()
                .map(|r| rounded(r.success))
                .fold(f64::NEG_INFINITY, f64::max);
            let tied: Vec<&str> = rows
                .iter()
                .filter(|r| rounded(r.success) == best)
                .map(|r| r.strategy.as_str())
                .collect();
            let gap = rows
                .iter()
                .find(|r| rounded(r.success) == best)
                .map_or(0.0, |r| r.regret);
            let _ = writeln!(
                t,
                "- {p} player{}: the best bundled strategy is {} ({}), {:.2} points below optimal play.",
                if *p == 1 { "" } else { "s" },
                if tied.len() > 1 {
                    format!("a tie of {}", tied.join(" and "))
                } else {
                    tied[0].to_string()
                },
                percent(best),
                100.0 * gap
            );
        }
        t.push('\n');
    }
    let _ = writeln!(
        t,
        "## Levers\n\nOptimal play's success when one rules key changes (the printed game otherwise):\n\n| difficulty | players | change | optimal | against printed |\n|---|---:|---|---:|---:|"
    );
    let mut sorted: Vec<&LeverRow> = levers.iter().collect();
    sorted.sort_by(|a, b| {
        (a.difficulty != "normal", a.players)
            .cmp(&(b.difficulty != "normal", b.players))
            .then(b.change.abs().total_cmp(&a.change.abs()))
    });
    for l in sorted {
        let _ = writeln!(
            t,
            "| {} | {} | `{}={}` | {} | {} |",
            l.difficulty,
            l.players,
            l.key,
            l.value,
            percent(l.optimal),
            points(l.change)
        );
    }
    t
}

/// The README's "Is it a good game?": per difficulty, each strategy's luck, skill, tension and
/// length by number of players (`quality.csv`), and where optimal play's challenges are decided
/// (`quality-decided.csv`), every number read from those rows.
fn good_game(
    quality: &[(&str, QualityRow)],
    decided: &[(&str, DecidedRow)],
    args: &ReportArgs,
) -> String {
    let mut t = String::from(
        "\n## Is it a good game?\n\nLuck against skill, tension and length, over every \
         challenge of each row, followed along optimal play's chance of success: every figure \
         is exact. The figures are in \
         `quality.csv` and `quality-decided.csv` (the columns of `raven --game annulus \
         quality`). Skill loss: points of success lost to decisions per challenge (the regret); \
         luck's share: the share of the spread of results the dice explain; suspense: how far \
         the chance of success moves per step (root mean square, in points); comebacks: \
         successes after it fell to 20% or lower; heartbreaks: failures after it rose to 80% or \
         higher.\n",
    );
    for difficulty in ["normal", "advanced"] {
        let _ = writeln!(
            t,
            "\n### {} operation\n\n| strategy | players | success | skill loss (points) | \
             luck's share | suspense (points) | comebacks | heartbreaks | adjustments | rolls | \
             rolls: median (10th–90th) |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
            if difficulty == "normal" {
                "Normal"
            } else {
                "Advanced"
            }
        );
        for (_, r) in quality.iter().filter(|(d, _)| *d == difficulty) {
            let _ = writeln!(t, "{}", quality_row(r));
        }
        let clauses: Vec<String> = args
            .players
            .iter()
            .filter_map(|&p| {
                let rows: Vec<&DecidedRow> = decided
                    .iter()
                    .filter(|(d, r)| {
                        *d == difficulty && r.players == Some(p) && r.strategy == "optimal"
                    })
                    .map(|(_, r)| r)
                    .collect();
                crate::report::quality::decided_most(&rows, ["failures", "successes"], stage_words)
                    .map(|d| format!("with {p} player{} {d}", if p == 1 { "" } else { "s" }))
            })
            .collect();
        let _ = writeln!(
            t,
            "\n**When the challenge is decided** (the stage after which optimal play's chance of \
             success stays within 10 points of the result), under optimal play: {}.",
            clauses.join("; ")
        );
    }
    t
}

/// A row of the "Is it a good game?" tables, from a `quality.csv` row.
fn quality_row(r: &QualityRow) -> String {
    format!(
        "| {} | {} | {} | {:.2} | {} | {:.1} | {} | {} | {:.2} | {:.2} | {} ({}–{}) |",
        r.strategy,
        r.players.unwrap_or(0),
        percent(r.win_rate),
        100.0 * r.skill_loss,
        percent(r.luck_share),
        100.0 * r.suspense,
        percent(r.comeback_rate),
        percent(r.heartbreak_rate),
        r.mean_decisions,
        r.mean_rolls,
        r.rolls_median,
        r.rolls_p10,
        r.rolls_p90
    )
}

/// An Annulus stage in a sentence: "at set-up", "with 2 hidden", "with nothing hidden".
fn stage_words(stage: &str) -> String {
    match stage {
        "start" => "from the start".to_string(),
        "set-up" => "at set-up".to_string(),
        other => format!("with {other}"),
    }
}
