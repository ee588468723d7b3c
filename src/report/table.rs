//! Readable terminal tables and the line of inputs above them.
//!
//! Everything here is sized for a 100-column terminal at the default options: columns are as
//! wide as their widest cell (header included, so a header always sits over its values),
//! columns that say nothing for the rows at hand are left out, and the inputs line wraps.

use std::fmt::Write;

use super::{Method, Summary};

/// The terminal width the default outputs are made to fit.
pub const WIDTH: usize = 100;

/// How a column's cells line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Text.
    Left,
    /// Numbers.
    Right,
}

/// A plain-text table whose columns are as wide as their widest cell.
#[derive(Clone, Debug, Default)]
pub struct Table {
    columns: Vec<(String, Align)>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column headers.
    pub fn new<S: Into<String>>(columns: impl IntoIterator<Item = (S, Align)>) -> Table {
        Table {
            columns: columns.into_iter().map(|(h, a)| (h.into(), a)).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row, one cell per column.
    pub fn row(&mut self, cells: Vec<String>) {
        debug_assert_eq!(cells.len(), self.columns.len(), "one cell per column");
        self.rows.push(cells);
    }

    /// The table, one line per row after the header, columns one space apart, no trailing
    /// spaces. Widths count characters, not bytes (`–` is one column).
    pub fn render(&self) -> String {
        let width = |i: usize| {
            self.rows
                .iter()
                .map(|r| r[i].chars().count())
                .chain([self.columns[i].0.chars().count()])
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..self.columns.len()).map(width).collect();
        let line = |cells: Vec<&str>| {
            let mut out = String::new();
            for (i, cell) in cells.into_iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                let w = widths[i];
                match self.columns[i].1 {
                    Align::Left => {
                        let _ = write!(out, "{cell:<w$}");
                    }
                    Align::Right => {
                        let _ = write!(out, "{cell:>w$}");
                    }
                }
            }
            let mut out = out.trim_end().to_string();
            out.push('\n');
            out
        };
        let mut out = line(self.columns.iter().map(|(h, _)| h.as_str()).collect());
        for row in &self.rows {
            out += &line(row.iter().map(String::as_str).collect());
        }
        out
    }
}

/// The line above a table: `raven VERSION COMMAND: ` and every input that determines the
/// numbers, `; `-separated, wrapped to [`WIDTH`] between inputs (continuation lines indented
/// by two spaces), so a long rules description never runs off a terminal.
pub fn inputs_line(command: &str, inputs: &[String]) -> String {
    let mut out = format!("raven {} {command}:", env!("CARGO_PKG_VERSION"));
    let mut column = out.chars().count();
    for (i, input) in inputs.iter().enumerate() {
        let piece = if i + 1 < inputs.len() {
            format!("{input};")
        } else {
            input.clone()
        };
        let len = piece.chars().count();
        // A piece that fits on a line of its own moves to the next line whole; a longer one
        // (every rules flag spelled out) starts here and breaks at its spaces.
        if column + 1 + len > WIDTH && len <= WIDTH - 2 && column > 2 {
            out.push_str("\n  ");
            column = 2;
        } else {
            out.push(' ');
            column += 1;
        }
        for (j, word) in piece.split(' ').enumerate() {
            let w = word.chars().count();
            if j > 0 {
                if column + 1 + w > WIDTH {
                    out.push_str("\n  ");
                    column = 2;
                } else {
                    out.push(' ');
                    column += 1;
                }
            }
            out.push_str(word);
            column += w;
        }
    }
    out.push('\n');
    out
}

/// `text` in lines broken between words, each as long as `fits` allows (a word that fits no
/// line on a line of its own).
pub fn lines_within(text: &str, fits: impl Fn(&str) -> bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if fits(&format!("{line} {word}")) => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// A confidence level as a percentage, rounded so that e.g. 0.07 reads 7, not
/// 7.000000000000001.
pub fn level_percent(level: f64) -> f64 {
    (100.0 * level * 1e6).round() / 1e6
}

/// Percent with `digits` decimals.
fn pct(x: f64, digits: usize) -> String {
    format!("{:.digits$}%", 100.0 * x)
}

/// One line per summary: win rate with interval, and where games are lost. The `method`
/// column appears only when the rows mix methods, the `interval` column only when some row
/// is sampled (an exact row's interval is the point itself).
pub fn summaries(rows: &[Summary]) -> String {
    let mixed = rows.iter().any(|s| s.method != rows[0].method);
    let sampled = rows.iter().any(|s| s.method == Method::MonteCarlo);
    let mut columns = vec![("strategy", Align::Left), ("stealth", Align::Right)];
    if mixed {
        columns.push(("method", Align::Left));
    }
    columns.push(("win", Align::Right));
    if sampled {
        columns.push(("interval", Align::Right));
    }
    columns.extend([
        ("lost:p1", Align::Right),
        ("run", Align::Right),
        ("finale", Align::Right),
        ("f.down", Align::Right),
        ("disc.", Align::Right),
        ("st.left", Align::Right),
        ("team", Align::Right),
        ("deaths", Align::Right),
    ]);
    let mut table = Table::new(columns);
    for s in rows {
        let mut cells = vec![s.strategy.clone(), s.stealth.to_string()];
        if mixed {
            cells.push(s.method.to_string());
        }
        cells.push(pct(s.win_rate, 2));
        if sampled {
            cells.push(if s.ci.0 == s.ci.1 {
                "exact".to_string()
            } else {
                // One % sign for both ends: the interval is one quantity.
                format!("{:.2}–{}", 100.0 * s.ci.0, pct(s.ci.1, 2))
            });
        }
        cells.extend([
            pct(s.loss_rates[0], 1),
            pct(s.loss_rates[1], 1),
            pct(s.loss_rates[2], 1),
            pct(s.loss_rates[3], 1),
            pct(s.discovered_rate, 1),
            format!("{:.2}", s.mean_stealth_left),
            format!("{:.2}", s.mean_team_at_run),
            format!("{:.3}", s.mean_deaths),
        ]);
        table.row(cells);
    }
    table.render() + LEGEND
}

/// What the short headers of [`summaries`] mean, printed under the table (after a blank
/// line, so the table stays one block): the words would not fit 100 columns as headers.
pub const LEGEND: &str = "
lost:p1, run, finale: games lost with no member able to go on, in recruitment (phase 1), in
  the run, in the finale; f.down: lost because the finale character went down (R14);
  disc.: games where the team was discovered (stealth 0); st.left: mean stealth left at the
  end; team: mean team size entering the run; deaths: mean dead members at the end.
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_sit_over_their_values() {
        let mut t = Table::new([("name", Align::Left), ("a long header", Align::Right)]);
        t.row(vec!["x".into(), "1–2%".into()]);
        let text = t.render();
        let lines: Vec<&str> = text.lines().collect();
        // Right-aligned: the header and the value end in the same column.
        assert_eq!(lines[0].chars().count(), lines[1].chars().count(), "{text}");
        assert_eq!(lines[1], "x             1–2%");
    }

    #[test]
    fn inputs_line_wraps_at_the_width_between_inputs() {
        let inputs: Vec<String> = (0..12).map(|i| format!("input number {i}")).collect();
        let text = inputs_line("simulate", &inputs);
        assert!(text.lines().count() > 1, "{text}");
        for line in text.lines() {
            assert!(line.chars().count() <= WIDTH, "{line}");
        }
        for input in &inputs {
            assert!(text.contains(input.as_str()), "{input} is split: {text}");
        }
    }
}
