//! Rules and strategies as the command line names them: presets and built-in or bundled names
//! (resolved by the core), or files, read here with a size limit and parsed by the core.

use std::path::Path;

use crate::input::read_text;
use crate::rules::{Rules, RulesError};
use crate::strategy::{self, FileStrategy, Strategy, StrategyError};

/// A preset name or the path of a TOML rules file (`preset = "…"` plus any flag keys), then
/// `key=value` overrides. Preset names win: a file called `clarified` is `./clarified`.
/// Anything that ends in `.toml`, names a directory or exists is read as a file.
pub fn rules(spec: &str, overrides: &[String]) -> Result<Rules, RulesError> {
    let base = match Rules::preset(spec) {
        Ok(rules) => rules,
        Err(unknown) => {
            let path = Path::new(spec);
            if spec.ends_with(".toml") || spec.contains('/') || path.exists() {
                rules_file(path)?
            } else {
                return Err(unknown);
            }
        }
    };
    base.with_overrides(overrides)
}

/// Reads and parses a rules file; errors name the file, line and column.
pub fn rules_file(path: &Path) -> Result<Rules, RulesError> {
    let origin = path.display().to_string();
    let text = read_text(path)
        .map_err(|e| RulesError::File(format!("{origin}: cannot read rules file: {e}")))?;
    Rules::from_toml(&origin, &text)
}

/// Reads and parses a strategy file; it is named after the file's stem.
pub fn strategy_file(path: &Path) -> Result<FileStrategy, StrategyError> {
    let (name, text) = file_source(path, "")?;
    // Another game's file says so in its first key; Purple Raven's files have none.
    if let Some(line) = text
        .lines()
        .find(|l| l.split('=').next().is_some_and(|k| k.trim() == "game"))
    {
        return Err(StrategyError(format!(
            "{}: a strategy file for another game ({}): play it with `--game annulus`",
            path.display(),
            line.trim()
        )));
    }
    FileStrategy::parse(&name, &path.display().to_string(), &text)
}

/// A strategy by name or path, `optimal` included (solved on demand by the engine): a
/// built-in name, then an existing file, then a bundled name; anything that looks like a
/// path is read as one, so the file system says what is wrong with it.
pub fn strategy(spec: &str) -> Result<Box<dyn Strategy>, StrategyError> {
    let path = Path::new(spec);
    let a_file = path.is_file() || (looks_like_a_path(spec) && strategy::bundled(spec).is_none());
    if a_file && !strategy::is_built_in(spec) {
        return Ok(Box::new(strategy_file(path)?));
    }
    crate::engine::resolve(spec)
}

/// The name and text of a strategy file given by bundled name or path (for `sweep` and
/// shard headers, which edit or record it).
pub fn strategy_source(spec: &str) -> Result<(String, String), StrategyError> {
    let path = Path::new(spec);
    if !path.is_file()
        && let Some(found) = strategy::bundled_source(spec)
    {
        return found;
    }
    let bundled = format!(" (bundled names: {})", strategy::bundled_names());
    file_source(path, &bundled)
}

fn looks_like_a_path(spec: &str) -> bool {
    spec.ends_with(".toml") || spec.contains(['/', '\\'])
}

/// The stem and text of the strategy file at `path`; `hint` ends a read error.
fn file_source(path: &Path, hint: &str) -> Result<(String, String), StrategyError> {
    let text = read_text(path).map_err(|e| {
        StrategyError(format!(
            "{}: cannot read strategy file: {e}{hint}",
            path.display()
        ))
    })?;
    let name = path
        .file_stem()
        .map_or_else(|| "file".into(), |s| s.to_string_lossy().into_owned());
    Ok((name, text))
}
