//! The CSV the page exports: the command line's columns, so a designer's spreadsheet takes
//! the page's file and `raven solve --out`'s alike (the browser test compares them byte for
//! byte).

use raven_core::engine::Expectation;
use raven_core::rules::Rules;
use serde::Serialize;

/// The version written in every row, as the command line writes its own.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A row of `raven solve`/`raven exact --out`: an exact or optimal result has no counts, no
/// seed and an interval of width zero at level 1.
#[derive(Serialize)]
struct SummaryRow<'a> {
    strategy: &'a str,
    rules: String,
    stealth: u8,
    games: Option<u64>,
    wins: Option<u64>,
    win_rate: f64,
    ci_low: f64,
    ci_high: f64,
    ci_level: f64,
    seed: Option<u64>,
    raven_version: &'static str,
    method: &'a str,
    loss_recruitment: Option<u64>,
    loss_run: Option<u64>,
    loss_finale: Option<u64>,
    loss_finale_character_down: Option<u64>,
    loss_recruitment_rate: f64,
    loss_run_rate: f64,
    loss_finale_rate: f64,
    loss_finale_character_down_rate: f64,
    discovered_rate: f64,
    mean_stealth_left: f64,
    mean_team_at_run: f64,
    mean_deaths: f64,
}

/// One result of the curves: strategy name, method (`optimal`/`exact`), stealth, figures.
pub struct Result<'a> {
    pub strategy: &'a str,
    pub method: &'a str,
    pub stealth: u8,
    pub figures: Expectation,
}

/// The CSV of `results` under `rules`, header first, in the order given.
pub fn summaries(rules: &Rules, results: &[Result<'_>]) -> String {
    let rows = results.iter().map(|r| {
        let e = &r.figures;
        SummaryRow {
            strategy: r.strategy,
            rules: rules.to_string(),
            stealth: r.stealth,
            games: None,
            wins: None,
            win_rate: e.win,
            ci_low: e.win,
            ci_high: e.win,
            ci_level: 1.0,
            seed: None,
            raven_version: VERSION,
            method: r.method,
            loss_recruitment: None,
            loss_run: None,
            loss_finale: None,
            loss_finale_character_down: None,
            loss_recruitment_rate: e.losses[0],
            loss_run_rate: e.losses[1],
            loss_finale_rate: e.losses[2],
            loss_finale_character_down_rate: e.losses[3],
            discovered_rate: e.discovered,
            mean_stealth_left: e.stealth_left,
            // The mean over the games that reach the run, as the command line reports it.
            mean_team_at_run: if e.reached_run > 0.0 {
                e.team_at_run / e.reached_run
            } else {
                0.0
            },
            mean_deaths: e.deaths,
        }
    });
    write(rows)
}

/// A row of `raven explore --out`: one method's win probability at one grid point and
/// stealth (no target band in the page).
#[derive(Serialize)]
struct ExploreRow<'a> {
    rules: String,
    param_1: &'a str,
    value_1: &'a str,
    param_2: &'a str,
    value_2: &'a str,
    stealth: u8,
    strategy: &'a str,
    method: &'a str,
    win_rate: f64,
    in_target: Option<bool>,
    raven_version: &'static str,
}

/// One valid grid point of a sweep: its values and rules, and per method (optimal play, then
/// each strategy), per stealth, the win probability.
pub struct Point {
    pub values: Vec<String>,
    pub rules: Rules,
    pub wins: Vec<Vec<f64>>,
}

/// The CSV of a sweep over `keys`, in `raven explore`'s row order: point by point, method by
/// method, stealth by stealth.
pub fn explored(keys: &[String], labels: &[String], stealths: &[u8], points: &[Point]) -> String {
    let key = |i: usize| keys.get(i).map_or("", String::as_str);
    let mut rows = Vec::new();
    for point in points {
        for (label, by_stealth) in labels.iter().zip(&point.wins) {
            for (&stealth, &win) in stealths.iter().zip(by_stealth) {
                rows.push(ExploreRow {
                    rules: point.rules.to_string(),
                    param_1: key(0),
                    value_1: &point.values[0],
                    param_2: key(1),
                    value_2: point.values.get(1).map_or("", String::as_str),
                    stealth,
                    strategy: label,
                    method: if label == raven_core::strategy::OPTIMAL {
                        "optimal"
                    } else {
                        "exact"
                    },
                    win_rate: win,
                    in_target: None,
                    raven_version: VERSION,
                });
            }
        }
    }
    write(rows)
}

fn write<R: Serialize>(rows: impl IntoIterator<Item = R>) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        // Writing to memory fails only on a value serde cannot give, which these rows lack.
        writer.serialize(row).expect("a row of plain fields");
    }
    let bytes = writer.into_inner().expect("writing to memory");
    String::from_utf8(bytes).expect("UTF-8 fields")
}
