//! The rule variants of docs/rules.md: one flag per ambiguous ruling, two named presets.
//!
//! Every output of raven names the rules it used through [`Rules`]'s `Display`, which prints the
//! preset name when the flags are exactly a preset and every flag otherwise.

use std::fmt;

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

/// The game's own numbers: how many challenges, dice, members, which faces hurt. The printed
/// game is [`Design::PRINTED`]; a designer changes any of them to ask "what if" (docs/rules.md,
/// "Design parameters"). Each names the ruling that reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Design {
    /// R10 `run-challenges`: challenges in the run (6).
    pub run_challenges: u8,
    /// R5 `tough-challenges`: Tough Challenges in the finale; the last one wins (3).
    pub tough_challenges: u8,
    /// R12 `side-challenges`: side challenges before each Tough Challenge (2).
    pub side_challenges: u8,
    /// R8 `team-size`: the team's largest size, dead members included (4).
    pub team_size: u8,
    /// R8 `recruit-checks`: successful checks a recruitment needs; `None` for `N` as R8 counts
    /// it (the team's size, or its living members under `recruit-count = living`).
    pub recruit_checks: Option<u8>,
    /// R1 `specialist-dice`: dice for a check of one's own speciality (3).
    pub specialist_dice: u8,
    /// R1 `base-dice`: dice for any other check (2).
    pub base_dice: u8,
    /// R1 `threshold`: the lowest highest die that succeeds (5); first aid too (R15).
    pub threshold: u8,
    /// R13 `eased-threshold`: the Tough check's threshold once `side-successes-to-ease` side
    /// challenges before it succeeded, under `second-success = easier-threshold` (4).
    pub eased_threshold: u8,
    /// R13 `side-successes-to-ease`: the side successes that ease the Tough check (2: "a
    /// second success"). Above `side-challenges` the check is never eased.
    pub side_successes_to_ease: u8,
    /// R13 `finale-penalty`: the finale character's penalty while not discovered (1).
    pub finale_penalty: u8,
    /// R1 `wound-faces`: the faces, from 1 up, that wound the roller (2: faces 1 and 2).
    pub wound_faces: u8,
    /// R1 `stealth-faces`: the faces above those that cost one stealth (3: faces 3 to 5); the
    /// faces above both cost nothing.
    pub stealth_faces: u8,
    /// R10 `first-aid-after-run`: a run challenge's success opens a first-aid opportunity.
    pub first_aid_after_run: bool,
    /// R14 `first-aid-after-tough`: each Tough success but the last opens one.
    pub first_aid_after_tough: bool,
}

impl Design {
    /// The game as printed.
    pub const PRINTED: Design = Design {
        run_challenges: 6,
        tough_challenges: 3,
        side_challenges: 2,
        team_size: 4,
        recruit_checks: None,
        specialist_dice: 3,
        base_dice: 2,
        threshold: 5,
        eased_threshold: 4,
        side_successes_to_ease: 2,
        finale_penalty: 1,
        wound_faces: 2,
        stealth_faces: 3,
        first_aid_after_run: true,
        first_aid_after_tough: true,
    };
}

/// The rules in force: every variant flag of docs/rules.md, and the game's numbers.
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
    /// The game's numbers ([`Design::PRINTED`] in both presets).
    pub design: Design,
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
    design: Design::PRINTED,
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

/// What values a design parameter takes.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// A whole number in `min..=max`.
    Count(u8, u8),
    /// `yes` (1) or `no` (0).
    YesNo,
    /// `team` (0: as R8 counts it) or a whole number in `min..=max`.
    TeamOrCount(u8, u8),
}

/// One of the game's numbers: its key, its values, and where it sits in [`Design`] (as a
/// number: yes = 1, no = 0, team = 0).
struct DesignParam {
    key: &'static str,
    /// What the number is, for a reader who has not seen the key.
    meaning: &'static str,
    kind: Kind,
    read: fn(&Design) -> u8,
    write: fn(&mut Design, u8),
}

/// Every design parameter, in the order of a game. The ranges are what the engines hold: the
/// state has room for two side challenges and six characters, and the dice tables for six
/// dice.
const PARAMS: [DesignParam; 15] = [
    DesignParam {
        key: "team-size",
        meaning: "the team's largest size",
        kind: Kind::Count(1, 6),
        read: |d| d.team_size,
        write: |d, v| d.team_size = v,
    },
    DesignParam {
        key: "recruit-checks",
        meaning: "successful checks a recruitment needs (`team`: the team's size)",
        kind: Kind::TeamOrCount(1, 6),
        read: |d| d.recruit_checks.unwrap_or(0),
        write: |d, v| d.recruit_checks = (v > 0).then_some(v),
    },
    DesignParam {
        key: "run-challenges",
        meaning: "challenges in the run",
        kind: Kind::Count(0, 12),
        read: |d| d.run_challenges,
        write: |d, v| d.run_challenges = v,
    },
    DesignParam {
        key: "first-aid-after-run",
        meaning: "first aid after each run challenge",
        kind: Kind::YesNo,
        read: |d| u8::from(d.first_aid_after_run),
        write: |d, v| d.first_aid_after_run = v == 1,
    },
    DesignParam {
        key: "tough-challenges",
        meaning: "Tough Challenges in the finale",
        kind: Kind::Count(1, 6),
        read: |d| d.tough_challenges,
        write: |d, v| d.tough_challenges = v,
    },
    DesignParam {
        key: "side-challenges",
        meaning: "side challenges before each Tough Challenge",
        kind: Kind::Count(0, 2),
        read: |d| d.side_challenges,
        write: |d, v| d.side_challenges = v,
    },
    DesignParam {
        key: "first-aid-after-tough",
        meaning: "first aid after each Tough success",
        kind: Kind::YesNo,
        read: |d| u8::from(d.first_aid_after_tough),
        write: |d, v| d.first_aid_after_tough = v == 1,
    },
    DesignParam {
        key: "specialist-dice",
        meaning: "dice for a check of one's own speciality",
        kind: Kind::Count(1, 6),
        read: |d| d.specialist_dice,
        write: |d, v| d.specialist_dice = v,
    },
    DesignParam {
        key: "base-dice",
        meaning: "dice for any other check",
        kind: Kind::Count(1, 6),
        read: |d| d.base_dice,
        write: |d, v| d.base_dice = v,
    },
    DesignParam {
        key: "threshold",
        meaning: "the die a check needs to succeed",
        kind: Kind::Count(1, 6),
        read: |d| d.threshold,
        write: |d, v| d.threshold = v,
    },
    DesignParam {
        key: "eased-threshold",
        meaning: "the Tough check's threshold after enough side successes",
        kind: Kind::Count(1, 6),
        read: |d| d.eased_threshold,
        write: |d, v| d.eased_threshold = v,
    },
    DesignParam {
        key: "side-successes-to-ease",
        meaning: "side successes that ease the Tough check",
        kind: Kind::Count(1, 2),
        read: |d| d.side_successes_to_ease,
        write: |d, v| d.side_successes_to_ease = v,
    },
    DesignParam {
        key: "finale-penalty",
        meaning: "the finale character's penalty",
        kind: Kind::Count(0, 3),
        read: |d| d.finale_penalty,
        write: |d, v| d.finale_penalty = v,
    },
    DesignParam {
        key: "wound-faces",
        meaning: "faces that wound (from 1 up)",
        kind: Kind::Count(0, 6),
        read: |d| d.wound_faces,
        write: |d, v| d.wound_faces = v,
    },
    DesignParam {
        key: "stealth-faces",
        meaning: "faces that cost stealth (above the wounding ones)",
        kind: Kind::Count(0, 6),
        read: |d| d.stealth_faces,
        write: |d, v| d.stealth_faces = v,
    },
];

impl Kind {
    /// The number a value stands for, if allowed.
    fn parse(self, value: &str) -> Option<u8> {
        match self {
            Kind::YesNo => match value {
                "yes" => Some(1),
                "no" => Some(0),
                _ => None,
            },
            Kind::TeamOrCount(..) if value == "team" => Some(0),
            Kind::Count(min, max) | Kind::TeamOrCount(min, max) => {
                value.parse::<u8>().ok().filter(|v| (min..=max).contains(v))
            }
        }
    }

    /// The value a number stands for.
    fn show(self, v: u8) -> String {
        match self {
            Kind::YesNo => if v == 1 { "yes" } else { "no" }.to_string(),
            Kind::TeamOrCount(..) if v == 0 => "team".to_string(),
            _ => v.to_string(),
        }
    }

    /// The allowed values, for an error message.
    fn allowed(self) -> String {
        match self {
            Kind::YesNo => "yes, no".to_string(),
            Kind::Count(min, max) => format!("a whole number from {min} to {max}"),
            Kind::TeamOrCount(min, max) => format!("team, or a whole number from {min} to {max}"),
        }
    }

    /// The values one step either way from `v`, within range (a lever's two ends).
    fn neighbours(self, v: u8) -> Vec<u8> {
        match self {
            Kind::YesNo => vec![1 - v.min(1)],
            Kind::Count(min, max) | Kind::TeamOrCount(min, max) => {
                let mut out = Vec::new();
                if v > min {
                    out.push(v - 1);
                }
                if v < max {
                    out.push(if v == 0 { min } else { v + 1 });
                }
                out.dedup();
                out
            }
        }
    }
}

impl Design {
    /// Every parameter's key, in the order of a game.
    pub fn keys() -> impl Iterator<Item = &'static str> {
        PARAMS.iter().map(|p| p.key)
    }

    /// What parameter `key` is, in a few words (`None` for no such parameter).
    pub fn meaning(key: &str) -> Option<&'static str> {
        PARAMS.iter().find(|p| p.key == key).map(|p| p.meaning)
    }

    /// The value of parameter `key`, as written on the command line.
    pub fn get(&self, key: &str) -> Option<String> {
        let param = PARAMS.iter().find(|p| p.key == key)?;
        Some(param.kind.show((param.read)(self)))
    }

    /// Sets parameter `key`; `Ok(false)` if there is no such parameter. Combinations are
    /// checked by [`Design::check`] once every setting is in.
    fn set(&mut self, key: &str, value: &str) -> Result<bool, RulesError> {
        let Some(param) = PARAMS.iter().find(|p| p.key == key) else {
            return Ok(false);
        };
        let v = param
            .kind
            .parse(value)
            .ok_or_else(|| RulesError::BadValue {
                key: key.to_string(),
                value: value.to_string(),
                allowed: param.kind.allowed(),
            })?;
        (param.write)(self, v);
        Ok(true)
    }

    /// The parameters that differ from the printed game, as `key=value`.
    pub fn changes(&self) -> Vec<String> {
        PARAMS
            .iter()
            .filter(|p| (p.read)(self) != (p.read)(&Design::PRINTED))
            .map(|p| format!("{}={}", p.key, p.kind.show((p.read)(self))))
            .collect()
    }

    /// Each parameter moved one step either way from `self` (where the range and
    /// [`Design::check`] allow): `(key, value, design)` — a designer's levers.
    pub fn levers(&self) -> Vec<(&'static str, String, Design)> {
        let mut out = Vec::new();
        for param in &PARAMS {
            for v in param.kind.neighbours((param.read)(self)) {
                let mut design = *self;
                (param.write)(&mut design, v);
                if design.check().is_ok() {
                    out.push((param.key, param.kind.show(v), design));
                }
            }
        }
        out
    }

    /// Combinations that make no sense: more base dice than specialist dice, an eased
    /// threshold above the threshold, more wounding and stealth-costing faces than a die has.
    pub fn check(&self) -> Result<(), RulesError> {
        let fail = |why: String| Err(RulesError::Combination(why));
        if self.base_dice > self.specialist_dice {
            return fail(format!(
                "base-dice={} is more than specialist-dice={}: a specialist rolls at least as \
                 many dice as anyone",
                self.base_dice, self.specialist_dice
            ));
        }
        if self.eased_threshold > self.threshold {
            return fail(format!(
                "eased-threshold={} is above threshold={}: the eased threshold is the easier one",
                self.eased_threshold, self.threshold
            ));
        }
        if self.wound_faces + self.stealth_faces + 1 < self.threshold {
            return fail(format!(
                "with wound-faces={} and stealth-faces={}, a failed check (below threshold={}) \
                 may cost nothing, and retrying it forever would be free: every failing face \
                 must wound or cost stealth",
                self.wound_faces, self.stealth_faces, self.threshold
            ));
        }
        if self.wound_faces + self.stealth_faces > 6 {
            return fail(format!(
                "wound-faces={} and stealth-faces={} make more than the six faces of a die",
                self.wound_faces, self.stealth_faces
            ));
        }
        Ok(())
    }
}

/// One rule key as a settings form shows it: every flag and design parameter, with the
/// values it takes and the printed game's, so that a front end builds its controls from the
/// same list the parser reads rather than a copy of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    /// The key, as `--rule KEY=VALUE` spells it.
    pub key: &'static str,
    /// Whether it is a design parameter ([`Design`]) rather than a ruling's flag.
    pub design: bool,
    /// Every value it takes, in order (a number's range from its lowest up; `team` first
    /// where allowed; a flag's main-text reading first), as written on the command line.
    pub values: Vec<String>,
    /// The value under the main-text preset and the printed game.
    pub printed: String,
}

/// Every flag, then every design parameter, in docs/rules.md order.
pub fn settings() -> Vec<Setting> {
    let flags = FLAGS.iter().map(|f| Setting {
        key: f.key,
        design: false,
        values: f.values.iter().map(|v| (*v).to_string()).collect(),
        printed: MAIN_TEXT.get(f.key).expect("a flag key").to_string(),
    });
    let params = PARAMS.iter().map(|p| Setting {
        key: p.key,
        design: true,
        values: match p.kind {
            Kind::YesNo => vec!["no".to_string(), "yes".to_string()],
            Kind::Count(min, max) => (min..=max).map(|v| v.to_string()).collect(),
            Kind::TeamOrCount(min, max) => std::iter::once("team".to_string())
                .chain((min..=max).map(|v| v.to_string()))
                .collect(),
        },
        printed: p.kind.show((p.read)(&Design::PRINTED)),
    });
    flags.chain(params).collect()
}

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
    /// Design parameters whose values do not fit together.
    #[error("{0}")]
    Combination(String),
}

fn keys() -> String {
    FLAGS
        .iter()
        .map(|f| f.key)
        .chain(Design::keys())
        .collect::<Vec<_>>()
        .join(", ")
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

    /// Parses the text of a rules file: an optional `preset` and any of the flag keys, e.g.
    /// `preset = "clarified"` and `finale-substitute = "yes"`; `origin` names the file in
    /// errors, which give its line and column.
    pub fn from_toml(origin: &str, text: &str) -> Result<Rules, RulesError> {
        let at = |span: std::ops::Range<usize>, message: &str| {
            RulesError::File(crate::text::located(origin, text, span.start, message))
        };
        let table: std::collections::BTreeMap<String, toml::Spanned<toml::Value>> =
            toml::from_str(text).map_err(|e| match e.span() {
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
        rules
            .design
            .check()
            .map_err(|e| RulesError::File(format!("{origin}: {e}")))?;
        Ok(rules)
    }

    /// Applies one `key=value` setting.
    pub fn apply(&mut self, setting: &str) -> Result<(), RulesError> {
        let (key, value) = setting
            .split_once('=')
            .ok_or_else(|| RulesError::NotKeyValue(setting.to_string()))?;
        self.set(key.trim(), value.trim())
    }

    /// Sets one flag or design parameter by its docs/rules.md key. Combinations of design
    /// parameters are checked by [`Design::check`] (as [`parse_rules`] does).
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RulesError> {
        if self.design.set(key, value)? {
            return Ok(());
        }
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

    /// Every flag key, in docs/rules.md order (the design parameters: [`Design::keys`]).
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
    /// The preset name when the flags are a preset's, else every flag; then each design
    /// parameter that differs from the printed game.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let flags = Rules {
            design: Design::PRINTED,
            ..*self
        };
        match flags.preset_name() {
            Some(name) => f.write_str(name)?,
            None => f.write_str(&self.spelled_out())?,
        }
        for change in self.design.changes() {
            write!(f, " {change}")?;
        }
        Ok(())
    }
}

/// Rules as given on a command line: a preset and `key=value` overrides (a rules file is
/// read by the caller and handed to [`Rules::from_toml`], then to [`Rules::with_overrides`]).
pub fn parse_rules(preset: &str, overrides: &[String]) -> Result<Rules, RulesError> {
    Rules::preset(preset)?.with_overrides(overrides)
}

impl Rules {
    /// These rules with `key=value` overrides applied, checked as a design.
    /// A key given twice is refused: "last one wins" would hide a typo or a contradiction.
    pub fn with_overrides(mut self, overrides: &[String]) -> Result<Rules, RulesError> {
        let mut seen = Vec::new();
        for setting in overrides {
            self.apply(setting)?;
            let key = setting
                .split_once('=')
                .map_or(setting.as_str(), |(k, _)| k.trim());
            if seen.contains(&key) {
                return Err(RulesError::Repeated(key.to_string()));
            }
            seen.push(key);
        }
        self.design.check()?;
        Ok(self)
    }
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

    #[test]
    fn design_parameters_parse_show_and_refuse_bad_values() {
        let rules = parse_rules(
            "clarified",
            &["run-challenges=8".into(), "recruit-checks=2".into()],
        )
        .unwrap();
        assert_eq!(rules.design.run_challenges, 8);
        assert_eq!(rules.design.recruit_checks, Some(2));
        // Every output names the preset and each number that differs from the printed game.
        assert_eq!(
            rules.to_string(),
            "clarified recruit-checks=2 run-challenges=8"
        );
        assert_eq!(rules.design.get("recruit-checks").as_deref(), Some("2"));
        assert_eq!(
            MAIN_TEXT.design.get("recruit-checks").as_deref(),
            Some("team")
        );
        for key in Design::keys() {
            let value = MAIN_TEXT.design.get(key).unwrap();
            let reparsed = parse_rules("main-text", &[format!("{key}={value}")]).unwrap();
            assert_eq!(reparsed, MAIN_TEXT, "{key}={value}");
        }
        let err = parse_rules("main-text", &["team-size=7".into()]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "rule 'team-size' cannot be '7' (allowed: a whole number from 1 to 6)"
        );
        let err = parse_rules("main-text", &["first-aid-after-run=maybe".into()]).unwrap_err();
        assert!(err.to_string().contains("allowed: yes, no"), "{err}");
        let err = parse_rules("main-text", &["colour=red".into()]).unwrap_err();
        assert!(err.to_string().contains("tough-challenges"), "{err}");
    }

    #[test]
    fn combinations_that_make_no_sense_are_refused_whatever_the_order() {
        for settings in [
            vec!["base-dice=4"],
            vec!["threshold=3"],
            vec!["wound-faces=4", "stealth-faces=3"],
            vec!["wound-faces=0", "stealth-faces=3"],
        ] {
            let settings: Vec<String> = settings.iter().map(|s| s.to_string()).collect();
            let err = parse_rules("main-text", &settings).unwrap_err();
            assert!(
                matches!(err, RulesError::Combination(_)),
                "{settings:?}: {err}"
            );
        }
        // Checked once every setting is in: the order does not matter.
        let a = parse_rules(
            "main-text",
            &["base-dice=4".into(), "specialist-dice=5".into()],
        )
        .unwrap();
        let b = parse_rules(
            "main-text",
            &["specialist-dice=5".into(), "base-dice=4".into()],
        )
        .unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn settings_list_every_key_with_values_the_parser_takes() {
        let list = settings();
        let keys: Vec<&str> = list.iter().map(|s| s.key).collect();
        let expected: Vec<&str> = Rules::keys().chain(Design::keys()).collect();
        assert_eq!(keys, expected);
        for setting in &list {
            assert!(setting.values.contains(&setting.printed), "{}", setting.key);
            for value in &setting.values {
                let mut rules = MAIN_TEXT;
                rules.set(setting.key, value).unwrap();
            }
            let printed = parse_rules(
                "main-text",
                &[format!("{}={}", setting.key, setting.printed)],
            );
            assert_eq!(printed, Ok(MAIN_TEXT), "{}", setting.key);
        }
        let run = list.iter().find(|s| s.key == "run-challenges").unwrap();
        assert_eq!(
            (run.values.first(), run.values.last()),
            (Some(&"0".to_string()), Some(&"12".to_string()))
        );
        let checks = list.iter().find(|s| s.key == "recruit-checks").unwrap();
        assert_eq!(checks.values[0], "team");
        assert_eq!(checks.printed, "team");
    }

    #[test]
    fn levers_move_each_parameter_one_step_and_stay_valid() {
        let levers = Design::PRINTED.levers();
        for (key, value, design) in &levers {
            assert!(design.check().is_ok(), "{key}={value}");
            assert_eq!(design.changes(), vec![format!("{key}={value}")]);
        }
        let values = |key: &str| -> Vec<&str> {
            levers
                .iter()
                .filter(|l| l.0 == key)
                .map(|l| l.1.as_str())
                .collect()
        };
        assert_eq!(values("run-challenges"), ["5", "7"]);
        assert_eq!(values("recruit-checks"), ["1"]);
        assert_eq!(values("first-aid-after-run"), ["no"]);
        // As many base dice as specialist dice, and a threshold equal to the eased one, are
        // allowed (no edge, no ease); more or higher is not.
        assert_eq!(values("base-dice"), ["1", "3"]);
        assert_eq!(values("threshold"), ["4", "6"]);
        assert_eq!(values("eased-threshold"), ["3", "5"]);
    }
}
