//! The CSV the page exports: the core's rows ([`raven_core::rows`]), the ones the command
//! line writes, so a designer's spreadsheet takes the page's file and `raven solve --out`'s
//! alike (the browser test compares them byte for byte).

use raven_core::engine::Expectation;
use raven_core::rows::{ExploreRow, SummaryRow};
use raven_core::rules::Rules;
use serde::Serialize;

/// One result of the curves: strategy name, method (`optimal`/`exact`), stealth, figures.
pub struct CurveResult<'a> {
    pub strategy: &'a str,
    pub method: &'a str,
    pub stealth: u8,
    pub figures: Expectation,
}

/// The CSV of `results` under `rules`, header first, in the order given.
pub fn summaries(rules: &Rules, results: &[CurveResult<'_>]) -> String {
    let rows = results.iter().map(|r| {
        SummaryRow::computed(
            r.strategy,
            rules.to_string(),
            r.stealth,
            r.method,
            &r.figures,
        )
    });
    write(rows)
}

/// One valid grid point of a sweep: its values and rules, and per method (optimal play, then
/// each strategy), per stealth, the win probability.
pub struct GridPointWins {
    pub values: Vec<String>,
    pub rules: Rules,
    pub wins: Vec<Vec<f64>>,
}

/// The CSV of a sweep over `keys`, in `raven explore`'s row order: point by point, method by
/// method, stealth by stealth.
pub fn explored(
    keys: &[String],
    labels: &[String],
    stealths: &[u8],
    points: &[GridPointWins],
) -> String {
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
                    raven_version: raven_core::rows::VERSION,
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
