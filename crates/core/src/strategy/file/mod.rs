//! Strategies defined in TOML files (`strategies/README.md` documents every knob).
//!
//! A file is parsed into a [`Spec`] by serde with `deny_unknown_fields`; every value is
//! validated while it is parsed (keywords, ranges, duplicate names), so any error — syntax,
//! unknown key, wrong type, impossible value — comes with the span of the culprit and is
//! reported as `file:line:column: message`.

pub mod card;
mod decide;
pub mod spec;
#[cfg(test)]
mod tests;

use std::fmt;

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
    /// What `raven strategies check` warns of: rules that can never decide.
    warnings: Vec<String>,
}

impl FileStrategy {
    /// Parses strategy `text`, named `name` in outputs; `origin` (a path or `bundled:NAME`)
    /// names the source in errors.
    pub fn parse(name: &str, origin: &str, text: &str) -> Result<FileStrategy, StrategyError> {
        let mut spec: Spec = toml::from_str(text).map_err(|e| located(origin, text, &e))?;
        spec.check()
            .map_err(|(knob, why)| StrategyError(at_knob(origin, text, knob, &why)))?;
        let (card, warnings) =
            card::Card::compile(&spec.rule_texts, origin, text).map_err(StrategyError)?;
        spec.card = card;
        Ok(FileStrategy {
            name: name.to_string(),
            spec,
            warnings,
        })
    }

    /// A strategy from an already built spec.
    pub fn from_spec(name: &str, spec: Spec) -> FileStrategy {
        FileStrategy {
            name: name.to_string(),
            spec,
            warnings: Vec::new(),
        }
    }

    /// Rules that can never decide (an earlier rule matches wherever they do), each naming
    /// both lines.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
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

    fn sight(&self, state: &State, rules: &Rules) -> Sight {
        self.spec.sight(state, rules)
    }

    fn known(&self) -> Known<'_> {
        Known::File(self)
    }

    /// Its only reads of stealth are the four floors (`stealth < floor`), the bounds of its
    /// rules' stealth conditions and whether the team is discovered (stealth 0), besides what
    /// the rules read (the penalty while discovered, through skills and givers).
    fn stealth_alike_from(&self) -> Option<u8> {
        let spec = &self.spec;
        let floors = [
            spec.recruit.stealth_floor.0,
            spec.side.stealth_floor.0,
            spec.first_aid.stealth_floor.0,
            spec.first_aid.wounded_floor.0,
            spec.card.alike_from(card::Fact::Stealth),
        ];
        Some(floors.into_iter().fold(1, u8::max))
    }
}

pub use crate::text::line_col;

/// `origin:line:column: message (at `excerpt`)` for the value of `section.knob`, or
/// `origin: message` if the file does not set it.
fn at_knob(origin: &str, text: &str, knob: &str, message: &str) -> String {
    let (section, key) = knob.split_once('.').expect("section.knob");
    let span = toml::de::DeTable::parse(text).ok().and_then(|doc| {
        let (_, value) = doc
            .get_ref()
            .iter()
            .find(|(k, _)| k.get_ref().as_ref() == section)?;
        let toml::de::DeValue::Table(table) = value.get_ref() else {
            return None;
        };
        let (_, value) = table.iter().find(|(k, _)| k.get_ref().as_ref() == key)?;
        Some(value.span().start)
    });
    match span {
        Some(at) => crate::text::located(origin, text, at, message),
        None => format!("{origin}: [{section}] {key}: {message}"),
    }
}

/// `origin:line:column: message (at `excerpt`)` for a toml error; message and excerpt are
/// kept short, however long the offending line or value.
fn located(origin: &str, text: &str, error: &toml::de::Error) -> StrategyError {
    match error.span() {
        Some(span) => StrategyError(crate::text::located(
            origin,
            text,
            span.start,
            error.message(),
        )),
        None => StrategyError(format!(
            "{origin}: {}",
            crate::text::shorten(error.message(), 4 * crate::text::EXCERPT_CHARS)
        )),
    }
}
