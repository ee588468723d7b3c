//! The rows of `raven quality` and of the reports' quality files, for either game, and the
//! terminal tables that show them: one row per strategy and point of the game's axis, and one
//! per stage and result for when the games were decided.

use serde::Serialize;

use crate::engine::generic::quality::Quality;
use raven_core::rows::VERSION;

/// Where a row stands on its game's axis: the starting stealth (Purple Raven) or the number of
/// players (Annulus), written as its own column.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Axis {
    /// Purple Raven's starting stealth.
    Stealth(u8),
    /// Annulus's number of players.
    Players(u8),
}

impl Axis {
    fn title(self) -> &'static str {
        match self {
            Axis::Stealth(_) => "stealth",
            Axis::Players(_) => "players",
        }
    }

    /// The row's `stealth` and `players` columns: the one of its game, the other left out.
    fn columns(self) -> (Option<u8>, Option<u8>) {
        match self {
            Axis::Stealth(v) => (Some(v), None),
            Axis::Players(v) => (None, Some(v)),
        }
    }
}

/// One row of either game: a strategy's luck, skill, tension and length at one point of the
/// game's axis (the other axis's column is left out).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct QualityRow {
    game: &'static str,
    /// The strategy.
    pub strategy: String,
    rules: String,
    /// The starting stealth (Purple Raven).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stealth: Option<u8>,
    /// The number of players (Annulus).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<u8>,
    /// The strategy's exact win probability.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub win_rate: f64,
    /// Points lost to decisions per game, exactly the regret.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub skill_loss: f64,
    /// The share of the spread of results the dice explain.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub luck_share: f64,
    /// How far `μ` moves per step (root mean square).
    #[serde(serialize_with = "raven_core::rows::round")]
    pub suspense: f64,
    /// The share of wins where `μ` fell to 20% or lower on the way.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub comeback_rate: f64,
    /// The share of losses where `μ` rose to 80% or higher on the way.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub heartbreak_rate: f64,
    /// Rolls per game, exactly.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub mean_rolls: f64,
    /// Decisions per game, exactly.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub mean_decisions: f64,
    /// Decisions per game whose options differ by a point or more, exactly.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub meaningful_decisions: f64,
    /// By five points or more.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub meaningful_decisions_5: f64,
    /// Rolls per game: the tenth percentile, the median, the ninetieth.
    pub rolls_p10: u32,
    /// The median.
    pub rolls_median: u32,
    /// The ninetieth percentile.
    pub rolls_p90: u32,
    /// Decisions per game, likewise.
    decisions_p10: u32,
    decisions_median: u32,
    decisions_p90: u32,
    raven_version: &'static str,
}

/// What a row is of: the game (as `--game` names it), the strategy, the rules and the point
/// on the game's axis.
#[derive(Clone)]
pub struct Of<'a> {
    /// The game.
    pub game: &'static str,
    /// The strategy's name.
    pub strategy: &'a str,
    /// The rules as outputs name them.
    pub rules: String,
    /// Where on the game's axis.
    pub axis: Axis,
}

impl QualityRow {
    /// The row of `q`.
    pub fn new(q: &Quality, of: Of<'_>) -> Self {
        let [p10, p50, p90] = [0.1, 0.5, 0.9].map(|p| q.length_quantile(p));
        QualityRow {
            game: of.game,
            strategy: of.strategy.to_string(),
            rules: of.rules,
            stealth: of.axis.columns().0,
            players: of.axis.columns().1,
            win_rate: q.figures.win,
            skill_loss: q.skill_loss,
            luck_share: q.luck_share(),
            suspense: q.suspense(),
            comeback_rate: q.comeback_rate(),
            heartbreak_rate: q.heartbreak_rate(),
            mean_rolls: q.figures.rolls,
            mean_decisions: q.figures.decisions,
            meaningful_decisions: q.meaningful[0],
            meaningful_decisions_5: q.meaningful[1],
            rolls_p10: p10[0],
            rolls_median: p50[0],
            rolls_p90: p90[0],
            decisions_p10: p10[1],
            decisions_median: p50[1],
            decisions_p90: p90[1],
            raven_version: VERSION,
        }
    }

    fn axis(&self) -> (&'static str, u8) {
        match (self.stealth, self.players) {
            (Some(s), _) => (Axis::Stealth(s).title(), s),
            (_, Some(p)) => (Axis::Players(p).title(), p),
            _ => unreachable!("a row stands on its game's axis"),
        }
    }
}

/// The terminal table of either game's rows, headed by `title` (the game and its inputs),
/// with its legend.
pub fn table(rows: &[QualityRow], title: &str) -> String {
    let mut t = format!("quality: luck, skill, tension and length — {title}\n\n");
    let axis = rows.first().map_or("stealth", |r| r.axis().0);
    t += &format!(
        "{:<16} {:>7} {:>6} {:>7} {:>6} {:>8} {:>8} {:>8} {:>6} {:>6} {:>6}\n",
        "strategy",
        axis,
        "win",
        "skill",
        "luck",
        "suspense",
        "comeback",
        "heartbr",
        "rolls",
        "decis",
        "real"
    );
    for r in rows {
        t += &format!(
            "{:<16} {:>7} {:>5.1}% {:>7.2} {:>5.0}% {:>8.3} {:>7.1}% {:>7.1}% {:>6.1} {:>6.1} {:>6.1}\n",
            r.strategy,
            r.axis().1,
            100.0 * r.win_rate,
            100.0 * r.skill_loss,
            100.0 * r.luck_share,
            r.suspense,
            100.0 * r.comeback_rate,
            100.0 * r.heartbreak_rate,
            r.mean_rolls,
            r.mean_decisions,
            r.meaningful_decisions
        );
    }
    t += "\nwin: exact; skill: points (of 100) lost to decisions per game, exactly the regret;\n\
luck: the share of the spread of results the dice explain (the rest is the decisions');\n\
suspense: how far the optimal win chance moves per roll or decision (root mean square);\n\
comeback: wins after the chance fell to 20% or lower; heartbr(eak): losses after it rose to 80%;\n\
rolls, decis(ions): per game, exact; real: decisions whose options differ by a point or more.\n";
    t
}

/// Where a strategy's games at one point of the game's axis were decided, as a tidy row: the
/// share of its wins (or of its losses) decided in one stage.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct DecidedRow {
    game: &'static str,
    /// The strategy.
    pub strategy: String,
    rules: String,
    /// The starting stealth (Purple Raven).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stealth: Option<u8>,
    /// The number of players (Annulus).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<u8>,
    /// The stage, as the game names it; `start` where the start was already within 10 points
    /// of the result.
    pub stage: String,
    /// `win` or `loss`.
    pub result: &'static str,
    /// The share of the wins (or losses) decided there.
    #[serde(serialize_with = "raven_core::rows::round")]
    pub share: f64,
    raven_version: &'static str,
}

/// The rows of where `q`'s games were decided, stage by stage (`stages`, the game's names)
/// and then from the start, wins before losses.
pub fn decided_rows(q: &Quality, of: &Of<'_>, stages: &[String]) -> Vec<DecidedRow> {
    let d = q.decided(stages.len());
    let named = stages
        .iter()
        .map(String::as_str)
        .zip(d.by_stage.iter().copied())
        .chain([("start", d.from_start)]);
    let mut rows = Vec::new();
    for (stage, shares) in named {
        for (r, result) in ["win", "loss"].into_iter().enumerate() {
            rows.push(DecidedRow {
                game: of.game,
                strategy: of.strategy.to_string(),
                rules: of.rules.clone(),
                stealth: of.axis.columns().0,
                players: of.axis.columns().1,
                stage: stage.to_string(),
                result,
                share: shares[r],
                raven_version: VERSION,
            });
        }
    }
    rows
}

/// The terminal table of where games were decided: per row of `rows`, the share of wins and
/// of losses decided in each of its game's stages (numbered, and named in the legend; a game
/// whose stages differ by the axis, as Annulus's by players, names each list).
pub fn decided_table(rows: &[QualityRow], decided: &[DecidedRow]) -> String {
    // A row's decided rows are consecutive: its stages, then the start, wins before losses.
    let groups: Vec<&[DecidedRow]> = decided
        .chunk_by(|a, b| {
            a.strategy == b.strategy && a.stealth == b.stealth && a.players == b.players
        })
        .collect();
    let stages = |g: &[DecidedRow]| -> Vec<String> {
        g.chunks(2)
            .map(|p| p[0].stage.clone())
            .take(g.len() / 2 - 1)
            .collect()
    };
    let widest = groups.iter().map(|g| g.len() / 2 - 1).max().unwrap_or(0);
    let axis = rows.first().map_or("stealth", |r| r.axis().0);
    let mut t = format!(
        "\nwhen the game is decided: % of wins / % of losses whose optimal win chance stays\n\
within 10 points of the result from that stage on\n\n{:<16} {axis:>7}",
        "strategy"
    );
    for i in 1..=widest {
        t += &format!(" {:>7}", format!("stage {i}"));
    }
    t += &format!(" {:>7}\n", "start");
    let cell = |pair: &[DecidedRow]| {
        format!(
            " {:>7}",
            format!("{:.0}/{:.0}", 100.0 * pair[0].share, 100.0 * pair[1].share)
        )
    };
    for (r, g) in rows.iter().zip(&groups) {
        t += &format!("{:<16} {:>7}", r.strategy, r.axis().1);
        let pairs: Vec<&[DecidedRow]> = g.chunks(2).collect();
        let (start, by_stage) = pairs.split_last().expect("the start's pair");
        for pair in by_stage {
            t += &cell(pair);
        }
        t += &" ".repeat(8 * (widest - by_stage.len()));
        t += &cell(start);
        t += "\n";
    }
    // The stage lists, once each: by the axis where they differ.
    let mut lists: Vec<(u8, Vec<String>)> = Vec::new();
    for (r, g) in rows.iter().zip(&groups) {
        let named = stages(g);
        if !lists.iter().any(|(_, l)| *l == named) {
            lists.push((r.axis().1, named));
        }
    }
    let numbered = |l: &[String]| -> String {
        l.iter()
            .enumerate()
            .map(|(i, s)| format!("({}) {s}", i + 1))
            .collect::<Vec<_>>()
            .join(", ")
    };
    t += "\n";
    match lists.as_slice() {
        [(_, only)] => t += &format!("stages: {}\n", numbered(only)),
        _ => {
            for (at, l) in &lists {
                t += &format!("stages at {axis} {at}: {}\n", numbered(l));
            }
        }
    }
    t += "start: already within 10 points of the result at the start.\n";
    t
}
