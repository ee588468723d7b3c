//! The Annulus operation challenge's rulings and design parameters (docs/annulus.md): one list,
//! [`PARAMS`], with keys, values, meanings and the ruling each belongs to, and the two presets.

use std::fmt;

/// Which hidden position a reveal uncovers (A3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RevealOrder {
    /// Any remaining hidden position, each as likely (default: the GM's "any order").
    Random,
    /// The leftmost remaining hidden position.
    LeftToRight,
}

/// One reading of the Annulus rules: every number a design parameter, every open point a
/// variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// A1 `players`: those able to help, 1..=4; the line has `players + 2` positions.
    pub players: u8,
    /// A4 `target`: the trigger d12 succeeds on this or more (4 Normal, 7 Advanced).
    pub target: u8,
    /// A1 `hidden-faces`: the d4 faces (from 1 up) that hide a position (1).
    pub hidden_faces: u8,
    /// A3 `reveal-order`.
    pub reveal_order: RevealOrder,
    /// A4 `wrap`: 12 and 1 are neighbours on a ring.
    pub wrap: bool,
    /// A6 `action-limit`: the challenge fails once this many adjustments were tried unsolved.
    pub action_limit: Option<u8>,
}

/// The printed game, a Normal operation.
pub const NORMAL: Rules = Rules {
    players: 1,
    target: 4,
    hidden_faces: 1,
    reveal_order: RevealOrder::Random,
    wrap: false,
    action_limit: None,
};

/// An Advanced operation: the printed game with `target = 7`.
pub const ADVANCED: Rules = Rules {
    target: 7,
    ..NORMAL
};

/// The presets by name.
pub const PRESETS: [(&str, Rules); 2] = [("normal", NORMAL), ("advanced", ADVANCED)];

/// The most players (A1), so the most positions in a line.
pub const MAX_PLAYERS: u8 = 4;
/// The most positions in a line.
pub const MAX_DICE: usize = MAX_PLAYERS as usize + 2;

/// One rules key: its spelling, the values it takes and what it means.
pub struct Param {
    /// The `KEY` of `--rule KEY=VALUE`.
    pub key: &'static str,
    /// The ruling it belongs to.
    pub ruling: &'static str,
    /// Its values as a user types them (`none`, `1..=99` for ranges).
    pub values: &'static str,
    /// What it means.
    pub meaning: &'static str,
    read: fn(&Rules) -> String,
    write: fn(&mut Rules, &str) -> Option<()>,
}

impl Param {
    /// Every value the key takes, as a user types it: [`Param::values`] with its ranges
    /// (`1..=99`) spelled out.
    pub fn choices(&self) -> Vec<String> {
        let mut all = Vec::new();
        for part in self.values.split(',').map(str::trim) {
            match part.split_once("..=") {
                Some((a, b)) => {
                    let low: u32 = a.parse().expect("a range of numbers");
                    let high: u32 = b.parse().expect("a range of numbers");
                    all.extend((low..=high).map(|v| v.to_string()));
                }
                None => all.push(part.to_string()),
            }
        }
        all
    }
}

/// The rules key `key` as an axis a sweep moves: any key but `players`, which is every
/// output's own axis. The message names the keys there are.
pub fn swept(key: &str) -> Result<&'static Param, String> {
    match PARAMS.iter().find(|p| p.key == key) {
        Some(p) if p.key == "players" => {
            Err("the number of players is the outputs' axis: sweep another key".into())
        }
        Some(p) => Ok(p),
        None => Err(format!(
            "'{key}' is not an Annulus rules key (keys: {})",
            PARAMS
                .iter()
                .filter(|p| p.key != "players")
                .map(|p| p.key)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

fn number(value: &str, low: u8, high: u8) -> Option<u8> {
    value
        .parse::<u8>()
        .ok()
        .filter(|v| (low..=high).contains(v))
}

fn yes_no(value: &str) -> Option<bool> {
    match value {
        "yes" => Some(true),
        "no" => Some(false),
        _ => None,
    }
}

/// Every rules key, in the order the documentation lists them.
pub const PARAMS: [Param; 6] = [
    Param {
        key: "players",
        ruling: "A1",
        values: "1..=4",
        meaning: "players able to help; the line has players + 2 positions",
        read: |r| r.players.to_string(),
        write: |r, v| {
            r.players = number(v, 1, MAX_PLAYERS)?;
            Some(())
        },
    },
    Param {
        key: "target",
        ruling: "A4",
        values: "2..=12",
        meaning: "the trigger d12 moves the die on this or more, and jams it below (4 Normal, 7 Advanced)",
        read: |r| r.target.to_string(),
        write: |r, v| {
            r.target = number(v, 2, 12)?;
            Some(())
        },
    },
    Param {
        key: "hidden-faces",
        ruling: "A1",
        values: "0..=3",
        meaning: "d4 faces that hide a position at setup (1: a position is hidden on a 1)",
        read: |r| r.hidden_faces.to_string(),
        write: |r, v| {
            r.hidden_faces = number(v, 0, 3)?;
            Some(())
        },
    },
    Param {
        key: "reveal-order",
        ruling: "A3",
        values: "random, left-to-right",
        meaning: "which hidden position a solved chain uncovers: any, or the leftmost",
        read: |r| {
            match r.reveal_order {
                RevealOrder::Random => "random",
                RevealOrder::LeftToRight => "left-to-right",
            }
            .to_string()
        },
        write: |r, v| {
            r.reveal_order = match v {
                "random" => RevealOrder::Random,
                "left-to-right" => RevealOrder::LeftToRight,
                _ => return None,
            };
            Some(())
        },
    },
    Param {
        key: "wrap",
        ruling: "A4",
        values: "no, yes",
        meaning: "12 and 1 are neighbours on a ring (12 + 1 = 1)",
        read: |r| if r.wrap { "yes" } else { "no" }.to_string(),
        write: |r, v| {
            r.wrap = yes_no(v)?;
            Some(())
        },
    },
    Param {
        key: "action-limit",
        ruling: "A6",
        values: "none, 1..=99",
        meaning: "the challenge fails once this many adjustments were tried and it is not won",
        read: |r| r.action_limit.map_or("none".to_string(), |n| n.to_string()),
        write: |r, v| {
            r.action_limit = if v == "none" {
                None
            } else {
                Some(number(v, 1, 99)?)
            };
            Some(())
        },
    },
];

/// A rules setting that could not be understood.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RulesError {
    /// Not a preset.
    #[error("unknown Annulus rules preset '{0}' (allowed: normal, advanced)")]
    UnknownPreset(String),
    /// A `--rule` without `=`.
    #[error("rule '{0}' is not of the form key=value (Annulus keys: {keys})", keys = keys())]
    NotKeyValue(String),
    /// A key the Annulus rules do not have.
    #[error("'{0}' is not an Annulus rule (Annulus keys: {keys})", keys = keys())]
    UnknownKey(String),
    /// A value the key does not take.
    #[error("Annulus rule '{key}' cannot be '{value}' (allowed: {allowed})")]
    BadValue {
        /// The key.
        key: String,
        /// The offending value.
        value: String,
        /// The allowed values.
        allowed: &'static str,
    },
    /// The same key twice.
    #[error("--rule {0} is given twice; give each key once")]
    Repeated(String),
}

fn keys() -> String {
    PARAMS.iter().map(|p| p.key).collect::<Vec<_>>().join(", ")
}

impl Rules {
    /// The preset with this name.
    pub fn preset(name: &str) -> Result<Rules, RulesError> {
        PRESETS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, r)| r)
            .ok_or_else(|| RulesError::UnknownPreset(name.to_string()))
    }

    /// The preset `preset` with each `KEY=VALUE` of `overrides` applied, each key at most once.
    pub fn parse(preset: &str, overrides: &[String]) -> Result<Rules, RulesError> {
        let mut rules = Rules::preset(preset)?;
        let mut seen = Vec::new();
        for setting in overrides {
            let (key, value) = setting
                .split_once('=')
                .ok_or_else(|| RulesError::NotKeyValue(setting.clone()))?;
            let (key, value) = (key.trim(), value.trim());
            if seen.contains(&key) {
                return Err(RulesError::Repeated(key.to_string()));
            }
            seen.push(key);
            rules.set(key, value)?;
        }
        Ok(rules)
    }

    /// Sets one key.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        let param = PARAMS
            .iter()
            .find(|p| p.key == key)
            .ok_or_else(|| RulesError::UnknownKey(key.to_string()))?;
        (param.write)(self, value).ok_or_else(|| RulesError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            allowed: param.values,
        })
    }

    /// One key's value as a user types it.
    pub fn get(&self, key: &str) -> Option<String> {
        PARAMS.iter().find(|p| p.key == key).map(|p| (p.read)(self))
    }

    /// The positions in the line (A1).
    pub fn dice(&self) -> usize {
        usize::from(self.players) + 2
    }

    /// The probability that the trigger d12 moves the die (A4): `target` or more.
    pub fn success(&self) -> f64 {
        f64::from(13 - self.target) / 12.0
    }

    /// The probability that the trigger d12 jams the die (A4): below `target`.
    pub fn jam(&self) -> f64 {
        f64::from(self.target - 1) / 12.0
    }

    /// The name of the preset these rules are, if any.
    pub fn preset_name(&self) -> Option<&'static str> {
        PRESETS.iter().find(|(_, r)| r == self).map(|&(n, _)| n)
    }

    /// The keys where these rules differ from `base`, as `key=value`.
    pub fn changes_from(&self, base: &Rules) -> Vec<String> {
        PARAMS
            .iter()
            .filter(|p| (p.read)(self) != (p.read)(base))
            .map(|p| format!("{}={}", p.key, (p.read)(self)))
            .collect()
    }
}

impl fmt::Display for Rules {
    /// The preset's name when the rules are one, else `advanced` (target 7) or `normal` (any
    /// other target) and what differs from it: `normal+players=2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = self.preset_name() {
            return f.write_str(name);
        }
        let (name, base) = if self.target == ADVANCED.target {
            ("advanced", ADVANCED)
        } else {
            ("normal", NORMAL)
        };
        write!(f, "{name}+{}", self.changes_from(&base).join("+"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_the_printed_numbers() {
        assert_eq!(Rules::preset("normal").unwrap().target, 4);
        assert_eq!(Rules::preset("advanced").unwrap().target, 7);
        assert_eq!(NORMAL.dice(), 3);
        assert_eq!(NORMAL.to_string(), "normal");
    }

    #[test]
    fn keys_parse_and_refuse() {
        let r = Rules::parse("advanced", &["players=3".into(), "wrap=yes".into()]).unwrap();
        assert_eq!((r.players, r.wrap, r.target), (3, true, 7));
        assert_eq!(r.to_string(), "advanced+players=3+wrap=yes");
        assert!(matches!(
            Rules::parse("normal", &["players=9".into()]),
            Err(RulesError::BadValue { .. })
        ));
        assert!(matches!(
            Rules::parse("normal", &["target=13".into()]),
            Err(RulesError::BadValue { .. })
        ));
        assert!(matches!(
            Rules::parse("normal", &["stealth-faces=2".into()]),
            Err(RulesError::UnknownKey(_))
        ));
        assert!(matches!(
            Rules::parse("normal", &["target=5".into(), "target=6".into()]),
            Err(RulesError::Repeated(_))
        ));
        for p in &PARAMS {
            let value = NORMAL.get(p.key).unwrap();
            let mut r = NORMAL;
            r.set(p.key, &value).unwrap();
            assert_eq!(r, NORMAL, "{} reads back", p.key);
        }
    }
}
