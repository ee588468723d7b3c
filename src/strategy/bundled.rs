//! The strategy files shipped in `strategies/`, embedded so the binary works from any
//! directory, and name resolution for `--strategy`.

use std::path::Path;

use super::file::{FileStrategy, StrategyError};
use super::{BUILT_IN, OPTIMAL, Strategy, built_in, is_built_in, registry};

/// The bundled strategy files: (name, TOML text).
pub const BUNDLED: [(&str, &str); 8] = [
    ("reference", include_str!("../../strategies/reference.toml")),
    ("cautious", include_str!("../../strategies/cautious.toml")),
    ("reckless", include_str!("../../strategies/reckless.toml")),
    (
        "medic-main",
        include_str!("../../strategies/medic-main.toml"),
    ),
    ("lone-wolf", include_str!("../../strategies/lone-wolf.toml")),
    ("duo", include_str!("../../strategies/duo.toml")),
    (
        "side-maximiser",
        include_str!("../../strategies/side-maximiser.toml"),
    ),
    (
        "no-first-aid",
        include_str!("../../strategies/no-first-aid.toml"),
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

/// Resolves `--strategy`: a built-in name (`reference`, `random`, `optimal`), a bundled name (the files
/// of `strategies/`; built-ins win a tie, `reference.toml` names the bundled file), or the
/// path of a TOML strategy file.
pub fn resolve(spec: &str) -> Result<Box<dyn Strategy>, StrategyError> {
    if let Some(strategy) = built_in(spec) {
        return Ok(strategy);
    }
    if spec == OPTIMAL {
        return Err(StrategyError(
            "optimal play is solved by the engine: resolve it with engine::resolve".to_string(),
        ));
    }
    let path = Path::new(spec);
    if path.is_file() {
        return Ok(Box::new(FileStrategy::from_path(path)?));
    }
    if let Some(found) = bundled(spec) {
        return Ok(Box::new(found?));
    }
    if spec.ends_with(".toml") || spec.contains(['/', '\\']) {
        // Looks like a path: let the file system say what is wrong.
        return Ok(Box::new(FileStrategy::from_path(path)?));
    }
    Err(StrategyError(format!(
        "unknown strategy '{spec}' (allowed: {}, or the path of a .toml strategy file; \
         `raven strategies` lists them)",
        names().join(", ")
    )))
}

/// The text of a strategy given by bundled name or path (for `sweep`, which edits it).
pub fn source(spec: &str) -> Result<(String, String), StrategyError> {
    let path = Path::new(spec);
    if !path.is_file()
        && let Some((name, text)) = BUNDLED
            .iter()
            .find(|(n, _)| *n == spec.strip_suffix(".toml").unwrap_or(spec))
    {
        return Ok((name.to_string(), text.to_string()));
    }
    if !path.is_file() && is_built_in(spec) {
        // A built-in is Rust code, not a file of knobs: saying "cannot read strategy file"
        // would send the user looking for a file that was never meant to exist.
        return Err(StrategyError(format!(
            "{spec} has no knobs: it is a built-in strategy written in code; sweep a strategy \
             file instead (bundled: {})",
            BUNDLED.map(|(n, _)| n).join(", ")
        )));
    }
    let text = crate::input::read_text(path).map_err(|e| {
        StrategyError(format!(
            "{spec}: cannot read strategy file: {e} (bundled names: {})",
            BUNDLED.map(|(n, _)| n).join(", ")
        ))
    })?;
    let name = path
        .file_stem()
        .map_or_else(|| "file".into(), |s| s.to_string_lossy().into_owned());
    Ok((name, text))
}
