//! The strategy files shipped in `strategies/`, embedded so the binary works from any
//! directory, and name resolution for `--strategy`.

use super::file::{FileStrategy, StrategyError};
use super::{BUILT_IN, OPTIMAL, Strategy, built_in, is_built_in, registry};

/// The bundled strategy files: (name, TOML text).
pub const BUNDLED: [(&str, &str); 12] = [
    (
        "reference",
        include_str!("../../../../strategies/reference.toml"),
    ),
    (
        "cautious",
        include_str!("../../../../strategies/cautious.toml"),
    ),
    (
        "reckless",
        include_str!("../../../../strategies/reckless.toml"),
    ),
    (
        "medic-main",
        include_str!("../../../../strategies/medic-main.toml"),
    ),
    (
        "lone-wolf",
        include_str!("../../../../strategies/lone-wolf.toml"),
    ),
    ("duo", include_str!("../../../../strategies/duo.toml")),
    (
        "side-maximiser",
        include_str!("../../../../strategies/side-maximiser.toml"),
    ),
    (
        "no-first-aid",
        include_str!("../../../../strategies/no-first-aid.toml"),
    ),
    ("tuned", include_str!("../../../../strategies/tuned.toml")),
    (
        "tuned-clarified",
        include_str!("../../../../strategies/tuned-clarified.toml"),
    ),
    ("card", include_str!("../../../../strategies/card.toml")),
    (
        "card-clarified",
        include_str!("../../../../strategies/card-clarified.toml"),
    ),
];

/// The bundled strategy called `name` (the file stem, with or without `.toml`).
pub fn bundled(name: &str) -> Option<Result<FileStrategy, StrategyError>> {
    let stem = name.strip_suffix(".toml").unwrap_or(name);
    BUNDLED.iter().find(|(n, _)| *n == stem).map(|(n, text)| {
        // A bundled file named like a built-in is told apart in outputs by its extension.
        let shown = if BUILT_IN.iter().any(|(b, _)| b == n) {
            format!("{n}.toml")
        } else {
            n.to_string()
        };
        FileStrategy::parse(&shown, &format!("strategies/{n}.toml (bundled)"), text)
    })
}

/// Every name `--strategy` accepts besides file paths, from the [`registry`].
pub fn names() -> Vec<String> {
    registry().into_iter().map(|e| e.name).collect()
}

/// Resolves a strategy name: a built-in (`reference`, `random`; `optimal` is solved by the
/// engine, see [`crate::engine::resolve`]) or a bundled file's name (built-ins win a tie,
/// `reference.toml` names the bundled file). A path is the caller's to read and hand to
/// [`FileStrategy::parse`].
pub fn resolve(spec: &str) -> Result<Box<dyn Strategy>, StrategyError> {
    if let Some(strategy) = built_in(spec) {
        return Ok(strategy);
    }
    if spec == OPTIMAL {
        return Err(StrategyError(
            "optimal play is solved by the engine: resolve it with engine::resolve".to_string(),
        ));
    }
    if let Some(found) = bundled(spec) {
        return Ok(Box::new(found?));
    }
    Err(unknown(spec))
}

/// The error for a name that is neither built in nor bundled (nor, for the caller, a file).
pub fn unknown(spec: &str) -> StrategyError {
    StrategyError(format!(
        "unknown strategy '{spec}' (allowed: {}, or the path of a .toml strategy file; \
         `raven strategies` lists them)",
        names().join(", ")
    ))
}

/// The name and text of a bundled strategy file (for `sweep`, which edits it); a built-in
/// name is refused, since it has no knobs to edit.
pub fn bundled_source(spec: &str) -> Option<Result<(String, String), StrategyError>> {
    let stem = spec.strip_suffix(".toml").unwrap_or(spec);
    if let Some((name, text)) = BUNDLED.iter().find(|(n, _)| *n == stem) {
        return Some(Ok((name.to_string(), text.to_string())));
    }
    // A built-in is Rust code, not a file of knobs: saying "cannot read strategy file" would
    // send the user looking for a file that was never meant to exist.
    is_built_in(spec).then(|| {
        Err(StrategyError(format!(
            "{spec} has no knobs: it is a built-in strategy written in code; sweep a strategy \
             file instead (bundled: {})",
            bundled_names()
        )))
    })
}

/// The bundled files' names, comma-separated, for messages.
pub fn bundled_names() -> String {
    BUNDLED.map(|(n, _)| n).join(", ")
}
