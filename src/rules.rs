//! The rule variants of docs/rules.md: one flag per ambiguous ruling, two named presets.
//!
//! Every output of raven names the rules it used through [`Rules`]'s `Display`, which prints the
//! preset name when the flags are exactly a preset and every flag otherwise.

use std::fmt;
use std::path::Path;

/// Who counts towards the number of checks a recruitment needs (R8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecruitCount {
    /// `N` = team size, dead members included (default).
    All,
    /// `N` = members that are not dead.
    Living,
}

/// Which recruitment checks open a first-aid opportunity (R9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FirstAidRecruit {
    /// Every successful recruitment check (default).
    PerCheck,
    /// Only the check that completes a recruitment.
    PerRecruit,
}

/// What a second side-challenge success does for the Tough Challenge (R13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SecondSuccess {
    /// The Tough check succeeds on 4+ (main-text).
    EasierThreshold,
    /// No bonus beyond removing the penalty (clarified).
    None,
}

/// The rules in force: every variant flag of docs/rules.md.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// R8 `recruit-count`.
    pub recruit_count: RecruitCount,
    /// R9 `first-aid-recruit`.
    pub first_aid_recruit: FirstAidRecruit,
    /// R13 `discovered-penalty`: the finale penalty while discovered (1 or 2).
    pub discovered_penalty: u8,
    /// R13 `second-success`.
    pub second_success: SecondSuccess,
    /// R14 `finale-substitute`: another member may take over the Tough Challenges.
    pub finale_substitute: bool,
    /// R15 `first-aid-after-side`: a successful side challenge opens a first-aid opportunity.
    pub first_aid_after_side: bool,
}

/// A named set of flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The name used on the command line and in outputs.
    pub name: &'static str,
    /// The flags it stands for.
    pub rules: Rules,
}

/// The default reading of every ruling.
pub const MAIN_TEXT: Rules = Rules {
    recruit_count: RecruitCount::All,
    first_aid_recruit: FirstAidRecruit::PerCheck,
    discovered_penalty: 1,
    second_success: SecondSuccess::EasierThreshold,
    finale_substitute: false,
    first_aid_after_side: false,
};

/// The "notes and clarifications" reading of the finale (R13).
pub const CLARIFIED: Rules = Rules {
    discovered_penalty: 2,
    second_success: SecondSuccess::None,
    ..MAIN_TEXT
};

/// All presets, the default first.
pub const PRESETS: [Preset; 2] = [
    Preset {
        name: "main-text",
        rules: MAIN_TEXT,
    },
    Preset {
        name: "clarified",
        rules: CLARIFIED,
    },
];

/// One flag: its key and its allowed values, the default first.
struct Flag {
    key: &'static str,
    values: &'static [&'static str],
}

const FLAGS: [Flag; 6] = [
    Flag {
        key: "recruit-count",
        values: &["all", "living"],
    },
    Flag {
        key: "first-aid-recruit",
        values: &["per-check", "per-recruit"],
    },
    Flag {
        key: "discovered-penalty",
        values: &["1", "2"],
    },
    Flag {
        key: "second-success",
        values: &["easier-threshold", "none"],
    },
    Flag {
        key: "finale-substitute",
        values: &["no", "yes"],
    },
    Flag {
        key: "first-aid-after-side",
        values: &["no", "yes"],
    },
];

/// A rules setting that could not be understood.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RulesError {
    /// Not a preset name nor a readable rules file.
    #[error("unknown rules preset '{0}' (allowed: main-text, clarified, or a .toml rules file)")]
    UnknownPreset(String),
    /// A `--rule` without `=`.
    #[error("rule '{0}' is not of the form key=value (keys: {keys})", keys = keys())]
    NotKeyValue(String),
    /// A key docs/rules.md does not have.
    #[error("unknown rule key '{0}' (allowed: {keys})", keys = keys())]
    UnknownKey(String),
    /// A value the key does not take.
    #[error("rule '{key}' cannot be '{value}' (allowed: {allowed})")]
    BadValue {
        /// The key.
        key: String,
        /// The offending value.
        value: String,
        /// The allowed values, comma-separated.
        allowed: String,
    },
    /// A rules file that could not be read or parsed: `file:line:column: message (at
    /// `excerpt`)` where a place in it is at fault.
    #[error("{0}")]
    File(String),
    /// The same key given twice by `--rule`.
    #[error("--rule {0} is given twice; give each key once")]
    Repeated(String),
}

fn keys() -> String {
    FLAGS.iter().map(|f| f.key).collect::<Vec<_>>().join(", ")
}

impl Default for Rules {
    fn default() -> Self {
        MAIN_TEXT
    }
}

impl Rules {
    /// The preset with this name.
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        PRESETS
            .iter()
            .find(|p| p.name == name)
            .map(|p| p.rules)
            .ok_or_else(|| RulesError::UnknownPreset(name.to_string()))
    }

    /// A preset name, or the path of a TOML rules file (`preset = "…"` plus any flag keys).
    /// Preset names win: a file called `clarified` is `./clarified`. Anything that ends in
    /// `.toml`, names a directory or exists is read as a file.
    pub fn from_preset_or_file(spec: &str) -> Result<Rules, RulesError> {
        if let Ok(rules) = Rules::preset(spec) {
            return Ok(rules);
        }
        let path = Path::new(spec);
        if spec.ends_with(".toml") || spec.contains('/') || path.exists() {
            Rules::from_file(path)
        } else {
            Err(RulesError::UnknownPreset(spec.to_string()))
        }
    }

    /// Reads a rules file: an optional `preset` and any of the flag keys, e.g.
    /// `preset = "clarified"` and `finale-substitute = "yes"`. Read with a size limit;
    /// errors name the file, line and column.
    pub fn from_file(path: &Path) -> Result<Rules, RulesError> {
        let origin = path.display().to_string();
        let text = crate::input::read_text(path)
            .map_err(|e| RulesError::File(format!("{origin}: cannot read rules file: {e}")))?;
        let at = |span: std::ops::Range<usize>, message: &str| {
            RulesError::File(crate::input::located(&origin, &text, span.start, message))
        };
        let table: std::collections::BTreeMap<String, toml::Spanned<toml::Value>> =
            toml::from_str(&text).map_err(|e| match e.span() {
                Some(span) => at(span, e.message()),
                None => RulesError::File(format!("{origin}: {}", e.message().trim())),
            })?;
        let mut rules = MAIN_TEXT;
        if let Some(preset) = table.get("preset") {
            let name = preset
                .get_ref()
                .as_str()
                .ok_or_else(|| at(preset.span(), "'preset' must be a string"))?;
            rules = Rules::preset(name).map_err(|e| at(preset.span(), &e.to_string()))?;
        }
        for (key, spanned) in table.iter().filter(|(k, _)| *k != "preset") {
            let value = match spanned.get_ref() {
                toml::Value::String(s) => s.clone(),
                toml::Value::Integer(i) => i.to_string(),
                toml::Value::Boolean(b) => if *b { "yes" } else { "no" }.to_string(),
                _ => {
                    return Err(at(
                        spanned.span(),
                        &format!("'{key}' has an unusable value"),
                    ));
                }
            };
            rules
                .set(key, &value)
                .map_err(|e| at(spanned.span(), &e.to_string()))?;
        }
        Ok(rules)
    }

    /// Applies one `key=value` setting.
    pub fn apply(&mut self, setting: &str) -> Result<(), RulesError> {
        let (key, value) = setting
            .split_once('=')
            .ok_or_else(|| RulesError::NotKeyValue(setting.to_string()))?;
        self.set(key.trim(), value.trim())
    }

    /// Sets one flag by its docs/rules.md key.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let flag = FLAGS
            .iter()
            .find(|f| f.key == key)
            .ok_or_else(|| RulesError::UnknownKey(key.to_string()))?;
        let index = flag
            .values
            .iter()
            .position(|v| *v == value)
            .ok_or_else(|| RulesError::BadValue {
                key: key.to_string(),
                value: value.to_string(),
                allowed: flag.values.join(", "),
            })?;
        let alternative = index == 1;
        match key {
            "recruit-count" => {
                self.recruit_count = if alternative {
                    RecruitCount::Living
                } else {
                    RecruitCount::All
                }
            }
            "first-aid-recruit" => {
                self.first_aid_recruit = if alternative {
                    FirstAidRecruit::PerRecruit
                } else {
                    FirstAidRecruit::PerCheck
                }
            }
            "discovered-penalty" => self.discovered_penalty = if alternative { 2 } else { 1 },
            "second-success" => {
                self.second_success = if alternative {
                    SecondSuccess::None
                } else {
                    SecondSuccess::EasierThreshold
                }
            }
            "finale-substitute" => self.finale_substitute = alternative,
            "first-aid-after-side" => self.first_aid_after_side = alternative,
            _ => unreachable!("every key of FLAGS is handled"),
        }
        Ok(())
    }

    /// The value of a flag, as written on the command line.
    pub fn get(&self, key: &str) -> Option<&'static str> {
        let flag = FLAGS.iter().find(|f| f.key == key)?;
        let alternative = match key {
            "recruit-count" => self.recruit_count == RecruitCount::Living,
            "first-aid-recruit" => self.first_aid_recruit == FirstAidRecruit::PerRecruit,
            "discovered-penalty" => self.discovered_penalty == 2,
            "second-success" => self.second_success == SecondSuccess::None,
            "finale-substitute" => self.finale_substitute,
            "first-aid-after-side" => self.first_aid_after_side,
            _ => return None,
        };
        Some(flag.values[usize::from(alternative)])
    }

    /// Every flag key, in docs/rules.md order.
    pub fn keys() -> impl Iterator<Item = &'static str> {
        FLAGS.iter().map(|f| f.key)
    }

    /// Each single-flag departure from `self`: `(key, value, rules)` for every non-current value.
    pub fn variants(&self) -> Vec<(&'static str, &'static str, Rules)> {
        let mut out = Vec::new();
        for flag in &FLAGS {
            for value in flag.values {
                if self.get(flag.key) != Some(value) {
                    let mut rules = *self;
                    rules.set(flag.key, value).expect("listed value");
                    out.push((flag.key, *value, rules));
                }
            }
        }
        out
    }

    /// The preset name, if these rules are exactly a preset.
    pub fn preset_name(&self) -> Option<&'static str> {
        PRESETS.iter().find(|p| p.rules == *self).map(|p| p.name)
    }

    /// Every flag spelled out: `recruit-count=all first-aid-recruit=per-check …`.
    pub fn spelled_out(&self) -> String {
        Rules::keys()
            .map(|k| format!("{k}={}", self.get(k).expect("known key")))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl fmt::Display for Rules {
    /// The preset name when unmodified, else every flag.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.preset_name() {
            Some(name) => f.write_str(name),
            None => f.write_str(&self.spelled_out()),
        }
    }
}

/// Rules as given on a command line: a preset (or file) and `key=value` overrides.
/// A key given twice is refused: "last one wins" would hide a typo or a contradiction.
pub fn parse_rules(preset: &str, overrides: &[String]) -> Result<Rules, RulesError> {
    let mut rules = Rules::from_preset_or_file(preset)?;
    let mut seen = Vec::new();
    for setting in overrides {
        rules.apply(setting)?;
        let key = setting
            .split_once('=')
            .map_or(setting.as_str(), |(k, _)| k.trim());
        if seen.contains(&key) {
            return Err(RulesError::Repeated(key.to_string()));
        }
        seen.push(key);
    }
    Ok(rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_differ_only_in_r13_flags() {
        let clarified = Rules::preset("clarified").unwrap();
        assert_eq!(clarified.discovered_penalty, 2);
        assert_eq!(clarified.second_success, SecondSuccess::None);
        assert_eq!(
            Rules {
                discovered_penalty: 1,
                second_success: SecondSuccess::EasierThreshold,
                ..clarified
            },
            MAIN_TEXT
        );
    }

    #[test]
    fn display_names_preset_or_spells_out_every_flag() {
        assert_eq!(MAIN_TEXT.to_string(), "main-text");
        assert_eq!(CLARIFIED.to_string(), "clarified");
        let rules = parse_rules("main-text", &["recruit-count=living".into()]).unwrap();
        assert_eq!(
            rules.to_string(),
            "recruit-count=living first-aid-recruit=per-check discovered-penalty=1 \
             second-success=easier-threshold finale-substitute=no first-aid-after-side=no"
        );
    }

    #[test]
    fn every_flag_round_trips() {
        for key in Rules::keys() {
            for (k, value, rules) in MAIN_TEXT.variants() {
                if k == key {
                    assert_eq!(rules.get(key), Some(value));
                    let reparsed = parse_rules("main-text", &[format!("{key}={value}")]).unwrap();
                    assert_eq!(reparsed, rules);
                }
            }
        }
        assert_eq!(MAIN_TEXT.variants().len(), 6);
    }

    #[test]
    fn bad_settings_are_refused_with_the_allowed_values() {
        let err = parse_rules("main-text", &["colour=red".into()]).unwrap_err();
        assert!(err.to_string().contains("recruit-count"), "{err}");
        let err = parse_rules("main-text", &["discovered-penalty=3".into()]).unwrap_err();
        assert!(err.to_string().contains("allowed: 1, 2"), "{err}");
        assert!(matches!(
            parse_rules("house", &[]),
            Err(RulesError::UnknownPreset(_))
        ));
        assert!(matches!(
            parse_rules("main-text", &["finale".into()]),
            Err(RulesError::NotKeyValue(_))
        ));
    }
}
