//! A readable terminal table of summaries.

use std::fmt::Write;

use super::Summary;

/// Percent with `digits` decimals.
fn pct(x: f64, digits: usize) -> String {
    format!("{:.digits$}%", 100.0 * x)
}

/// One line per summary: win rate with interval, and where games are lost.
pub fn summaries(rows: &[Summary]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<14} {:>7} {:<11} {:>8} {:>19} {:>7} {:>7} {:>7} {:>7} {:>6} {:>6} {:>5} {:>6}",
        "strategy",
        "stealth",
        "method",
        "win",
        "interval",
        "lost:p1",
        "run",
        "finale",
        "f.down",
        "disc.",
        "st.left",
        "team",
        "deaths"
    );
    for s in rows {
        let interval = if s.ci.0 == s.ci.1 {
            "exact".to_string()
        } else {
            format!("{}–{}", pct(s.ci.0, 2), pct(s.ci.1, 2))
        };
        let _ = writeln!(
            out,
            "{:<14} {:>7} {:<11} {:>8} {:>19} {:>7} {:>7} {:>7} {:>7} {:>6} {:>6.2} {:>5.2} {:>6.3}",
            s.strategy,
            s.stealth,
            s.method.to_string(),
            pct(s.win_rate, 2),
            interval,
            pct(s.loss_rates[0], 1),
            pct(s.loss_rates[1], 1),
            pct(s.loss_rates[2], 1),
            pct(s.loss_rates[3], 1),
            pct(s.discovered_rate, 1),
            s.mean_stealth_left,
            s.mean_team_at_run,
            s.mean_deaths
        );
    }
    out
}
