//! Strategies defined in TOML files (`strategies/README.md` documents every knob).
//!
//! A file is parsed into a [`Spec`] by serde with `deny_unknown_fields`; every value is
//! validated while it is parsed (keywords, ranges, duplicate names), so any error — syntax,
//! unknown key, wrong type, impossible value — comes with the span of the culprit and is
//! reported as `file:line:column: message`.

mod decide;
pub mod spec;
#[cfg(test)]
mod tests;

use std::fmt;
use std::path::Path;

pub use spec::Spec;

use crate::game::{Decision, State};
use crate::rules::Rules;

use super::{Choice, Known, Sight, Strategy};

/// A strategy file that could not be used: one paragraph, with file, line and column when the
/// content is at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrategyError(pub String);

impl fmt::Display for StrategyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StrategyError {}

/// A strategy read from a file: a validated [`Spec`] and a name for outputs.
#[derive(Clone, Debug, PartialEq)]
pub struct FileStrategy {
    name: String,
    spec: Spec,
}

impl FileStrategy {
    /// Parses strategy `text`, named `name` in outputs; `origin` (a path or `bundled:NAME`)
    /// names the source in errors.
    pub fn parse(name: &str, origin: &str, text: &str) -> Result<FileStrategy, StrategyError> {
        let spec: Spec = toml::from_str(text).map_err(|e| located(origin, text, &e))?;
        Ok(FileStrategy {
            name: name.to_string(),
            spec,
        })
    }

    /// Reads and parses a strategy file; it is named after the file's stem.
    pub fn from_path(path: &Path) -> Result<FileStrategy, StrategyError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            StrategyError(format!(
                "{}: cannot read strategy file: {e}",
                path.display()
            ))
        })?;
        let name = path
            .file_stem()
            .map_or_else(|| "file".into(), |s| s.to_string_lossy().into_owned());
        FileStrategy::parse(&name, &path.display().to_string(), &text)
    }

    /// A strategy from an already built spec.
    pub fn from_spec(name: &str, spec: Spec) -> FileStrategy {
        FileStrategy {
            name: name.to_string(),
            spec,
        }
    }

    /// The parsed knobs.
    pub fn spec(&self) -> &Spec {
        &self.spec
    }
}

impl Strategy for FileStrategy {
    fn name(&self) -> &str {
        &self.name
    }

    #[inline]
    fn decide(&self, state: &State, rules: &Rules, decision: Decision) -> Choice {
        self.spec.decide(state, rules, decision)
    }

    fn sight(&self, state: &State) -> Sight {
        self.spec.sight(state)
    }

    fn known(&self) -> Known<'_> {
        Known::File(self)
    }
}

/// 1-based line and column of byte offset `at` in `text`.
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let column = before
        .rfind('\n')
        .map_or(before, |nl| &before[nl + 1..])
        .chars()
        .count()
        + 1;
    (line, column)
}

/// `origin:line:column: message (at `the line`)` for a toml error.
fn located(origin: &str, text: &str, error: &toml::de::Error) -> StrategyError {
    let message = error.message().trim().replace('\n', " ");
    match error.span() {
        Some(span) => {
            let (line, column) = line_col(text, span.start);
            let source = text.lines().nth(line - 1).unwrap_or("").trim();
            StrategyError(format!(
                "{origin}:{line}:{column}: {message} (at `{source}`)"
            ))
        }
        None => StrategyError(format!("{origin}: {message}")),
    }
}
