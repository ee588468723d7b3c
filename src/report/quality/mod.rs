//! The report's "Is it a good game?": the difficulty ladder from `win-rates.csv`, and luck
//! against skill, tension, when games are decided and their length from the quality
//! assessment ([`Assessment`]), written as `quality.csv` and `quality-decided.csv` with the
//! columns of `raven quality` and read in sentences from those same rows, so that every
//! number the README gives is one the CSVs hold.

use std::fmt::Write as _;

pub mod by_start;
pub mod rows;

use crate::rules::Rules;
use crate::strategy::{OPTIMAL, REFERENCE};
use by_start::ByStartRow;
use rows::{Axis, DecidedRow, Of, QualityRow, decided_rows};

use super::balance::{Assessment, Balance, exact_of};
use super::ties::{and, tied};

/// The game as the CSVs' `game` column names it.
const GAME: &str = "purple-raven";

/// The win probabilities the difficulty ladder looks for.
pub const RUNGS: [f64; 3] = [0.25, 0.5, 0.75];

/// The rows of `quality.csv`: per player, per headline stealth.
pub fn rows(a: &Assessment) -> Vec<QualityRow> {
    a.assessed
        .iter()
        .map(|x| QualityRow::new(&x.quality, of(a, &x.strategy, x.stealth)))
        .collect()
}

/// The rows of `quality-decided.csv`: per player, per headline stealth, per stage (then from
/// the start) and result.
pub fn decided(a: &Assessment) -> Vec<DecidedRow> {
    a.assessed
        .iter()
        .flat_map(|x| decided_rows(&x.quality, &of(a, &x.strategy, x.stealth), &a.stages))
        .collect()
}

/// The rows of `quality-by-start.csv`: per player, per headline stealth, its sampled games by
/// main character, then by complication deal.
pub fn by_start(a: &Assessment) -> Vec<ByStartRow> {
    a.assessed
        .iter()
        .flat_map(|x| {
            let of = of(a, &x.strategy, x.stealth);
            x.by_start
                .iter()
                .map(move |(group, s)| ByStartRow::new(*group, s, &of, x.stealth, a.seed))
        })
        .collect()
}

fn of<'a>(a: &Assessment, strategy: &'a str, stealth: u8) -> Of<'a> {
    Of {
        game: GAME,
        strategy,
        rules: a.rules.to_string(),
        axis: Axis::Stealth(stealth),
    }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// How a player is named in a sentence.
fn who(name: &str) -> String {
    if name == OPTIMAL {
        "optimal play".to_string()
    } else if name == REFERENCE {
        "the reference".to_string()
    } else {
        format!("`{name}`")
    }
}

/// The lowest starting stealth from 1 to the report's highest at which `strategy`'s exact
/// win probability under `rules` reaches `rung`, with that probability; `None` if it never
/// does.
pub fn rung(balance: &Balance, strategy: &str, rules: Rules, rung: f64) -> Option<(u8, f64)> {
    let top = balance
        .win_rates
        .iter()
        .map(|s| s.stealth)
        .max()
        .unwrap_or(0);
    (1..=top).find_map(|st| {
        exact_of(balance, strategy, rules, st)
            .map(|s| s.win_rate)
            .filter(|&w| w >= rung)
            .map(|w| (st, w))
    })
}

/// The stage a decided row names, in a sentence.
pub fn stage_words(stage: &str) -> String {
    if stage == "start" {
        "from the start".to_string()
    } else {
        format!("in {stage}")
    }
}

/// The section "Is it a good game?", or nothing when the report has no assessment.
pub fn section(balance: &Balance) -> String {
    let Some(a) = &balance.quality else {
        return String::new();
    };
    let rows = rows(a);
    let decided = decided(a);
    let rules = a.rules;
    let players: Vec<&str> = {
        let mut p: Vec<&str> = Vec::new();
        for r in &rows {
            if !p.contains(&r.strategy.as_str()) {
                p.push(&r.strategy);
            }
        }
        p
    };
    let top = balance
        .win_rates
        .iter()
        .map(|s| s.stealth)
        .max()
        .unwrap_or(0);
    let mut md = String::new();
    let _ = writeln!(md, "## Is it a good game?\n");
    let _ = writeln!(
        md,
        "How hard the game is, how much of it is luck, how tense it is, when it is decided and \
         how long it takes, under {rules}, for {}: every figure exact, over every game, \
         following optimal play's chance of winning along it. The figures are in \
         `quality.csv` and `quality-decided.csv` (the columns of `raven quality`).\n",
        and(&players.iter().map(|p| who(p)).collect::<Vec<_>>()),
    );

    let _ = writeln!(
        md,
        "**Difficulty ladder.** The lowest starting stealth (1 to {top}) at which each player's \
         exact win probability reaches a quarter, a half and three quarters (`win-rates.csv`):\n"
    );
    let _ = writeln!(md, "| player | 25% | 50% | 75% |\n|---|---:|---:|---:|");
    for p in &players {
        let cells: Vec<String> = RUNGS
            .iter()
            .map(|&r| match rung(balance, p, rules, r) {
                Some((st, w)) => format!("{st} ({})", pct(w)),
                None => format!("not by {top}"),
            })
            .collect();
        let _ = writeln!(md, "| {} | {} |", who(p), cells.join(" | "));
    }
    let _ = writeln!(md);

    let _ = writeln!(
        md,
        "| player | stealth | win | skill loss (points) | luck's share | suspense (points) | \
         comebacks | heartbreaks | rolls | decisions | rolls: median (10th–90th) |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for r in &rows {
        let _ = writeln!(md, "{}", table_row(r));
    }
    let _ = writeln!(
        md,
        "\nSkill loss: points (of 100) of win probability lost to decisions per game, exactly \
         the regret against optimal play. Luck's share: the share of the spread of results the \
         dice explain (the rest is the decisions'). Suspense: how far the chance of winning \
         moves per roll or decision (root mean square, in points). Comebacks: wins after the \
         chance fell to 20% or lower; heartbreaks: losses after it rose to 80% or higher (the \
         start counts: from a start at 80% or higher every loss is a heartbreak, from one at \
         20% or lower every win a comeback). Rolls and decisions: per game, exact.\n"
    );

    let mid = balance.mid();
    let at_mid: Vec<&QualityRow> = rows.iter().filter(|r| r.stealth == Some(mid)).collect();
    // The groups of the player of the example: the recommended file.
    let by_start = by_start::paragraph(
        &by_start(a),
        &a.example.strategy,
        &who(&a.example.strategy),
        mid,
    );
    for paragraph in [
        Some(luck(&at_mid, mid)),
        Some(tension(&at_mid, mid)),
        by_start,
        Some(when_decided(&decided, &players, mid)),
        Some(length(&at_mid, mid)),
    ]
    .into_iter()
    .flatten()
    {
        let _ = writeln!(md, "{paragraph}\n");
    }
    if let Some(a) = &balance.quality {
        let _ = writeln!(md, "{}\n", example(a));
    }
    for (file, title) in [
        ("quality-fan.svg", "The chance of winning along the game"),
        ("quality-luck-skill.svg", "Luck against skill"),
        ("quality-length.svg", "How long a game takes"),
        ("quality-game.svg", "One game"),
    ] {
        let _ = writeln!(md, "![{title}]({file})\n");
    }
    let _ = writeln!(
        md,
        "The fan: optimal play's chance of winning on entering each stage at stealth {mid}, \
         median and quartiles, over the games that were won (green, solid) and those that were \
         lost (vermilion, dashed), for optimal play and the reference. Luck against skill: \
         each player's points lost to decisions against the dice's share of the spread, one \
         point per headline stealth, each line named at the highest (the dotted line: dice and \
         decisions weigh alike). Length: the share of games over within a number of rolls at \
         stealth {mid}.\n"
    );
    md
}

/// A row of the section's table, from a `quality.csv` row.
pub fn table_row(r: &QualityRow) -> String {
    format!(
        "| {} | {} | {} | {:.2} | {} | {:.1} | {} | {} | {:.1} | {:.1} | {} ({}–{}) |",
        who(&r.strategy),
        r.stealth.unwrap_or(0),
        pct(r.win_rate),
        100.0 * r.skill_loss,
        pct(r.luck_share),
        100.0 * r.suspense,
        pct(r.comeback_rate),
        pct(r.heartbreak_rate),
        r.mean_rolls,
        r.mean_decisions,
        r.rolls_median,
        r.rolls_p10,
        r.rolls_p90
    )
}

/// Luck against skill at stealth `mid`: who loses most to decisions, and the dice's share.
fn luck(rows: &[&QualityRow], mid: u8) -> String {
    let mut players: Vec<&&QualityRow> = rows.iter().filter(|r| r.strategy != OPTIMAL).collect();
    players.sort_by(|a, b| b.skill_loss.total_cmp(&a.skill_loss));
    let points = |r: &&&QualityRow| format!("{:.2}", 100.0 * r.skill_loss);
    let most = tied(players.iter().copied(), points);
    let each = players
        .iter()
        .map(|r| {
            format!(
                "{} loses {} points a game to its decisions and the dice explain {} of the \
                 spread of its results",
                who(&r.strategy),
                points(r),
                pct(r.luck_share)
            )
        })
        .collect::<Vec<_>>();
    let mut text = format!(
        "**Luck against skill.** At stealth {mid}, optimal play loses nothing to its decisions \
         (it is the measure), so the dice alone decide its games"
    );
    if !each.is_empty() {
        let _ = write!(text, "; {}", each.join("; "));
        if players.len() > 1 {
            let names = and(&most.iter().map(|r| who(&r.strategy)).collect::<Vec<_>>());
            let _ = write!(
                text,
                ". Skill matters most for {names}{}",
                if most.len() > 1 { ", tied" } else { "" }
            );
        }
    }
    text.push('.');
    text
}

/// Tension at stealth `mid`: suspense, comebacks and heartbreaks per player, the most
/// suspenseful named (ties as ties).
fn tension(rows: &[&QualityRow], mid: u8) -> String {
    let each: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "under {} the chance of winning moves {:.1} points a step, {} of wins are \
                 comebacks and {} of losses heartbreaks",
                who(&r.strategy),
                100.0 * r.suspense,
                pct(r.comeback_rate),
                pct(r.heartbreak_rate)
            )
        })
        .collect();
    let mut ranked: Vec<&&QualityRow> = rows.iter().collect();
    ranked.sort_by(|a, b| b.suspense.total_cmp(&a.suspense));
    let most = tied(ranked.iter(), |r| format!("{:.1}", 100.0 * r.suspense));
    let names = and(&most.iter().map(|r| who(&r.strategy)).collect::<Vec<_>>());
    let mut text = format!("**Tension.** At stealth {mid}: {}.", each.join("; "));
    if rows.len() > 1 {
        let _ = write!(
            text,
            " The most suspenseful {} {names}.",
            if most.len() > 1 { "are, tied," } else { "is" }
        );
    }
    text
}

/// When games are decided at stealth `mid`: per player, the stage where most of its losses
/// and most of its wins are decided (ties named as ties).
fn when_decided(rows: &[DecidedRow], players: &[&str], mid: u8) -> String {
    let each: Vec<String> = players
        .iter()
        .filter_map(|p| {
            let these: Vec<&DecidedRow> = rows
                .iter()
                .filter(|r| r.strategy == *p && r.stealth == Some(mid))
                .collect();
            decided_most(&these, ["losses", "wins"], stage_words)
                .map(|d| format!("under {} {d}", who(p)))
        })
        .collect();
    format!(
        "**When the game is decided.** A game is decided in the stage after which optimal \
         play's chance of winning stays within 10 points of the result. At stealth {mid}: {}.",
        each.join("; ")
    )
}

/// Where the games of `rows` (one strategy's, at one point of the game's axis) are decided
/// most: the stage (or the stages, tied) of the largest share of losses and of wins, `words`
/// naming the two results (`["losses", "wins"]`), e.g. "42% of losses are decided in
/// recruitment and 89% of wins are decided in Tough Challenge 3", each stage as `stage`
/// words it; `None` without games.
pub fn decided_most(
    rows: &[&DecidedRow],
    words: [&str; 2],
    stage: fn(&str) -> String,
) -> Option<String> {
    let mut parts = Vec::new();
    for (result, plural) in ["loss", "win"].into_iter().zip(words) {
        let mut these: Vec<&DecidedRow> = rows
            .iter()
            .copied()
            .filter(|r| r.result == result && r.share.is_finite())
            .collect();
        if these.is_empty() {
            continue;
        }
        these.sort_by(|a, b| b.share.total_cmp(&a.share));
        let shown = |r: &&DecidedRow| format!("{:.0}%", 100.0 * r.share);
        let top = tied(these.iter().copied(), shown);
        let stages: Vec<String> = top.iter().map(|r| stage(&r.stage)).collect();
        parts.push(if stages.len() > 1 {
            format!(
                "{plural} are decided {} as often as {} ({} each, a tie)",
                stages[0],
                and(&stages[1..]),
                shown(&top[0])
            )
        } else {
            format!("{} of {plural} are decided {}", shown(&top[0]), stages[0])
        });
    }
    (!parts.is_empty()).then(|| parts.join(" and "))
}

/// Length at stealth `mid`: mean rolls and decisions (exact), the median and the 10th–90th
/// percentiles of rolls.
fn length(rows: &[&QualityRow], mid: u8) -> String {
    let each: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "under {} a game takes {:.1} rolls and {:.1} decisions on average, half the \
                 games {} rolls or fewer and four in five between {} and {}",
                who(&r.strategy),
                r.mean_rolls,
                r.mean_decisions,
                r.rolls_median,
                r.rolls_p10,
                r.rolls_p90
            )
        })
        .collect();
    format!("**Length.** At stealth {mid}: {}.", each.join("; "))
}

/// The example game's ledger in words: where it started, what the dice gave and took, what
/// the decisions gave up (the biggest swing of each named by its step), and the result — a
/// sum that checks.
fn example(a: &Assessment) -> String {
    let e = &a.example;
    let (mut gave, mut took, mut gave_up) = (0.0, 0.0, 0.0);
    let mut before = e.start;
    // The biggest change at a roll, and the costliest decision: (step, change).
    let (mut swing, mut costliest) = ((0, 0.0f64), (0, 0.0f64));
    for (i, s) in e.steps.iter().enumerate() {
        let change = s.mu - before;
        if s.chance {
            if change > 0.0 {
                gave += change;
            } else {
                took += change;
            }
            if change.abs() > swing.1.abs() {
                swing = (i + 1, change);
            }
        } else {
            gave_up += change;
            if change < costliest.1 {
                costliest = (i + 1, change);
            }
        }
        before = s.mu;
    }
    let points = |x: f64| format!("{:+.1}", 100.0 * x);
    let mut text = format!(
        "**One game.** {} from stealth {} (`raven play --strategy {} --stealth {} --seed {} \
         --game {}` plays it): optimal play's chance of winning starts at {}; the dice gave {} \
         points and took {} (the biggest swing, step {}: {}), ",
        who(&e.strategy),
        e.stealth,
        e.strategy,
        e.stealth,
        a.seed,
        e.index,
        pct(e.start),
        points(gave),
        points(took),
        swing.0,
        points(swing.1),
    );
    if costliest.1 < -0.0005 {
        text += &format!(
            "the decisions gave up {} (the costliest, step {}: {})",
            points(gave_up),
            costliest.0,
            points(costliest.1)
        );
    } else {
        text += "the decisions gave up nothing";
    }
    text += &format!(
        "; the game was {} — {} {} {} {} = {}.",
        if e.won { "won" } else { "lost" },
        pct(e.start),
        points(gave),
        points(took),
        points(gave_up),
        if e.won { "100%" } else { "0%" }
    );
    text
}
