//! The strategy file format: one serde type per section, every knob with a default (the
//! reference strategy's behaviour) and validated while it is parsed, so that every error
//! carries the span of the offending value (and so its line and column).
//!
//! `strategies/README.md` documents every knob; keep the two in step.

use serde::Deserialize;

use crate::game::Character;

/// Declares a knob whose value is one of a fixed set of keywords.
macro_rules! keywords {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
        #[serde(try_from = "String")]
        pub enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $name {
            /// The keywords, as written in a strategy file.
            pub const NAMES: &'static [&'static str] = &[$($text),+];
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(match self { $($name::$variant => $text,)+ })
            }
        }

        impl TryFrom<String> for $name {
            type Error = String;
            fn try_from(text: String) -> Result<Self, String> {
                match text.as_str() {
                    $($text => Ok($name::$variant),)+
                    _ => Err(format!("'{text}' is not one of: {}", Self::NAMES.join(", "))),
                }
            }
        }
    };
}

/// A speciality (check type) or character name, e.g. `"medic"` or `"Dix"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct Speciality(pub Character);

impl std::fmt::Display for Speciality {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.speciality())
    }
}

/// A list whose entries must differ (`pass_types`, `phases`): a repeat is refused like a
/// repeat in `order`, since it can only be a slip.
fn distinct<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de> + PartialEq + std::fmt::Display,
{
    let items = Vec::<T>::deserialize(deserializer)?;
    for (i, item) in items.iter().enumerate() {
        if items[..i].contains(item) {
            return Err(serde::de::Error::custom(format!(
                "'{item}' appears twice in the list"
            )));
        }
    }
    Ok(items)
}

/// The allowed speciality names, for error messages.
fn speciality_names() -> String {
    Character::ALL.map(|c| c.speciality()).join(", ")
}

impl TryFrom<String> for Speciality {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        Character::parse(&text).map(Speciality).ok_or_else(|| {
            format!(
                "'{text}' is not a speciality (allowed: {})",
                speciality_names()
            )
        })
    }
}

/// An integer knob with an inclusive range `MIN..=MAX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Int<const MIN: u8, const MAX: u8>(pub u8);

impl<'de, const MIN: u8, const MAX: u8> Deserialize<'de> for Int<MIN, MAX> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor<const MIN: u8, const MAX: u8>;
        impl<const MIN: u8, const MAX: u8> serde::de::Visitor<'_> for Visitor<MIN, MAX> {
            type Value = Int<MIN, MAX>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "an integer in {MIN}..={MAX}")
            }
            fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Self::Value, E> {
                if (i64::from(MIN)..=i64::from(MAX)).contains(&value) {
                    Ok(Int(value as u8))
                } else {
                    Err(E::custom(format!(
                        "{value} is out of range (allowed: {MIN}..={MAX})"
                    )))
                }
            }
            fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Self::Value, E> {
                self.visit_i64(i64::try_from(value).unwrap_or(i64::MAX))
            }
        }
        deserializer.deserialize_i64(Visitor::<MIN, MAX>)
    }
}

/// A stealth floor: 0..=99 (0 = no floor).
pub type StealthFloor = Int<0, 99>;

/// R7: how the main character is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum MainRule {
    /// Always this character.
    Fixed(Character),
    /// Uniformly at random.
    Random,
    /// The character whose speciality matches the most complications rolled for the other
    /// five (they roll 3 dice on the most recruitment checks); ties to the lowest number.
    MostNeeded,
    /// As `MostNeeded` among the five who are not the Medic: the Medic's speciality never
    /// comes up in the run (R10) and first aid needs no main character.
    MostNeededNotMedic,
    /// The lowest-numbered character whose complication is their own speciality (no one
    /// could ever roll 3 dice to recruit them); if there is none, as `MostNeeded`.
    HardestToRecruit,
    /// The speciality the first character of `recruit.order` needs (their complication), so
    /// that the main character rolls 3 dice to recruit them; when that is their own
    /// speciality (no one could), that character; with an empty order, as `MostNeeded`.
    FirstTarget,
}

impl TryFrom<String> for MainRule {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        match text.as_str() {
            "random" => Ok(MainRule::Random),
            "most-needed" => Ok(MainRule::MostNeeded),
            "most-needed-not-medic" => Ok(MainRule::MostNeededNotMedic),
            "hardest-to-recruit" => Ok(MainRule::HardestToRecruit),
            "first-target" => Ok(MainRule::FirstTarget),
            _ => Character::parse(&text).map(MainRule::Fixed).ok_or_else(|| {
                format!(
                    "'{text}' is not a main-character rule (allowed: random, most-needed, \
                     most-needed-not-medic, hardest-to-recruit, first-target, or a speciality: {})",
                    speciality_names()
                )
            }),
        }
    }
}

keywords! {
    /// Who rolls a check.
    Roller {
        /// The able specialist of the check's type, else the least wounded candidate.
        Specialist = "specialist",
        /// The least wounded candidate (ties to the lowest number), specialist or not.
        LeastWounded = "least-wounded",
    }
}

keywords! {
    /// Whom to keep out of recruitment checks and run challenges while others can roll.
    Spare {
        /// Anyone may roll.
        Nobody = "none",
        /// The main character rolls only when no one else is able.
        Main = "main",
        /// The intended finale character (per `[finale] character`) rolls only when no one
        /// else is able.
        Finale = "finale",
        /// As `main`, except that the main character still rolls checks of their own
        /// speciality (3 dice) when able.
        MainExceptOwn = "main-except-own",
        /// As `finale`, except that the intended finale character still rolls checks of their
        /// own speciality (3 dice) when able.
        FinaleExceptOwn = "finale-except-own",
    }
}

/// R10: the type picked when a run challenge rolls 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum RunTypeRule {
    /// The speciality of the lowest-numbered able member that is not the Medic, else of the
    /// lowest-numbered non-Medic member (only the Medic can roll: it changes nothing), else
    /// Hacker.
    LowestAble,
    /// The speciality of the least wounded able non-Medic member who may roll (see `spare`),
    /// else as `LowestAble`.
    LeastWounded,
    /// The main character's speciality, unless the main character is the Medic or not able
    /// (then as `LowestAble`).
    Main,
    /// Always this type (not the Medic's).
    Fixed(Character),
}

impl TryFrom<String> for RunTypeRule {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        match text.as_str() {
            "lowest-able" => Ok(RunTypeRule::LowestAble),
            "least-wounded" => Ok(RunTypeRule::LeastWounded),
            "main" => Ok(RunTypeRule::Main),
            _ => match Character::parse(&text) {
                Some(Character::Medic) => {
                    Err("'medic' cannot be picked: a run challenge is never medical (R10)".into())
                }
                Some(c) => Ok(RunTypeRule::Fixed(c)),
                None => Err(format!(
                    "'{text}' is not a run-type rule (allowed: lowest-able, least-wounded, main, \
                     or one of hacker, spy, sniper, demolitions, mechanic)"
                )),
            },
        }
    }
}

keywords! {
    /// R15: at which opportunities first aid is given.
    AidWhen {
        /// Whenever someone can be helped.
        Always = "always",
        /// Never.
        Never = "never",
        /// Only to incapacitated members.
        Incapacitated = "incapacitated",
    }
}

keywords! {
    /// R15: whether the finale character gives first aid in phase 3. Once the team is
    /// discovered, a 3, 4 or 5 on first aid wounds the giver (R2), and the finale character
    /// rolls with the finale penalty (R13): treating a teammate can cost the game.
    FinaleGives {
        /// Like anyone else.
        Always = "always",
        /// Only while the team is not discovered.
        Undiscovered = "undiscovered",
        /// Never.
        Never = "never",
    }
}

keywords! {
    /// The phases of the game, for `first_aid.phases`.
    PhaseName {
        /// Phase 1.
        Recruitment = "recruitment",
        /// Phase 2.
        Run = "run",
        /// Phase 3.
        Finale = "finale",
    }
}

keywords! {
    /// R15: who receives first aid.
    PatientRule {
        /// The lowest-numbered incapacitated member, else the lowest-numbered wounded one.
        IncapacitatedFirst = "incapacitated-first",
        /// The (intended) finale character if they need aid, else as `incapacitated-first`.
        FinaleFirst = "finale-first",
        /// The lowest-numbered member who needs aid.
        LowestNumber = "lowest-number",
    }
}

keywords! {
    /// R15: who gives first aid.
    GiverRule {
        /// The Medic if able, else the patient if able, else the least wounded able member.
        MedicFirst = "medic-first",
        /// The patient if able, else the Medic if able, else the least wounded able member.
        SelfFirst = "self-first",
        /// The least wounded able member.
        LeastWounded = "least-wounded",
    }
}

/// R11: who takes the Tough Challenges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum FinaleRule {
    /// The main character if able, else the least wounded able member.
    Main,
    /// The main character if healthy, else the least wounded able member.
    MainIfHealthy,
    /// The least wounded able member.
    LeastWounded,
    /// This character if able, else as `Main`.
    Fixed(Character),
}

impl TryFrom<String> for FinaleRule {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        match text.as_str() {
            "main" => Ok(FinaleRule::Main),
            "main-if-healthy" => Ok(FinaleRule::MainIfHealthy),
            "least-wounded" => Ok(FinaleRule::LeastWounded),
            _ => Character::parse(&text)
                .map(FinaleRule::Fixed)
                .ok_or_else(|| {
                    format!(
                        "'{text}' is not a finale-character rule (allowed: main, main-if-healthy, \
                     least-wounded, or a speciality: {})",
                        speciality_names()
                    )
                }),
        }
    }
}

keywords! {
    /// R12: when a side challenge is attempted at all.
    SideAttempt {
        /// Only when a member who may roll has the challenge's speciality.
        WithSpecialist = "with-specialist",
        /// Whenever someone may roll.
        Always = "always",
        /// Never (every side challenge is passed).
        Never = "never",
    }
}

keywords! {
    /// R14 variant: who replaces a finale character who cannot roll.
    SubstituteRule {
        /// The least wounded eligible member.
        LeastWounded = "least-wounded",
        /// The main character if eligible (3 dice), else the least wounded eligible member.
        MainFirst = "main-first",
    }
}

/// A recruitment order: distinct characters, in order of preference.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "Vec<String>")]
pub struct Order(pub Vec<Character>);

impl TryFrom<Vec<String>> for Order {
    type Error = String;
    fn try_from(names: Vec<String>) -> Result<Self, String> {
        let mut order = Vec::new();
        for name in names {
            let Speciality(c) = Speciality::try_from(name.clone())?;
            if order.contains(&c) {
                return Err(format!("'{name}' appears twice in the order"));
            }
            order.push(c);
        }
        Ok(Order(order))
    }
}

/// A whole strategy file.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Spec {
    /// One line: the strategy's idea (shown by `raven strategies`).
    pub description: String,
    /// R7.
    pub main: MainSpec,
    /// R8.
    pub recruit: RecruitSpec,
    /// R10.
    pub run: RunSpec,
    /// R15.
    pub first_aid: FirstAidSpec,
    /// R11.
    pub finale: FinaleSpec,
    /// R12.
    pub side: SideSpec,
    /// R14 variant.
    pub substitute: SubstituteSpec,
    /// `[rules]` as written: the rules of thumb before the knobs.
    #[serde(rename = "rules")]
    pub rule_texts: super::card::RuleTexts,
    /// `[rules]` compiled ([`super::card::Card::compile`]; empty until then).
    #[serde(skip)]
    pub card: super::card::Card,
}

impl Spec {
    /// Checks what no single knob can: knobs that together make another knob do nothing
    /// without a word (an `order` of only the fixed main character makes `count` void). The
    /// error names the knob to point at (`section.knob`) and why.
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        let order = &self.recruit.order.0;
        let count = self.recruit.count.0;
        let main = match self.main.character {
            MainRule::Fixed(c) => Some(c),
            _ => None,
        };
        // An empty order says "nobody" in so many words; an order of the main character
        // alone says it only by accident.
        if let Some(main) = main
            && count > 0
            && !order.is_empty()
            && order.iter().all(|c| *c == main)
        {
            return Err((
                "recruit.order",
                format!(
                    "the order names only {} ({}), the main character, so count = {count} \
                     would recruit nobody; name others, or set count = 0 to play alone",
                    main.speciality(),
                    main.name()
                ),
            ));
        }
        Ok(())
    }
}

/// `[main]`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MainSpec {
    /// Who is the main character.
    pub character: MainRule,
}

impl Default for MainSpec {
    fn default() -> Self {
        MainSpec {
            character: MainRule::Fixed(Character::Hacker),
        }
    }
}

/// `[recruit]`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RecruitSpec {
    /// How many characters to recruit (0..=5: the team is capped by R8's `team-size`, 4 in the
    /// printed game, so 3 recruits at most there).
    pub count: Int<0, 5>,
    /// Targets in order of preference; characters not listed are never recruited.
    pub order: Order,
    /// Move targets whose complication an able member has as speciality to the front.
    pub easiest_first: bool,
    /// Who rolls the checks.
    pub roller: Roller,
    /// Who rolls only when no one else can.
    pub spare: Spare,
    /// Stop recruiting when stealth is below this (0: never).
    pub stealth_floor: StealthFloor,
    /// Stop recruiting when the team carries at least this many wounds (0: never).
    pub stop_at_wounds: Int<0, 12>,
    /// Stop recruiting after this many failed checks in a row on one target (0: never).
    pub stop_after_failures: Int<0, 100>,
    /// Also look at `stealth_floor` and `stop_at_wounds` right after a *successful* check
    /// (R8 allows stopping before every check); by default only before naming a target and
    /// after a failed check.
    pub stop_after_success: bool,
}

impl Default for RecruitSpec {
    fn default() -> Self {
        RecruitSpec {
            count: Int(3),
            order: Order(vec![
                Character::Medic,
                Character::Spy,
                Character::Sniper,
                Character::Mechanic,
                Character::Demolitions,
            ]),
            easiest_first: false,
            roller: Roller::Specialist,
            spare: Spare::Nobody,
            stealth_floor: Int(0),
            stop_at_wounds: Int(0),
            stop_after_failures: Int(0),
            stop_after_success: false,
        }
    }
}

/// `[run]`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RunSpec {
    /// Who rolls the challenges.
    pub roller: Roller,
    /// Who rolls only when no one else can.
    pub spare: Spare,
    /// The type picked when the challenge die shows 6.
    pub pick_on_six: RunTypeRule,
}

impl Default for RunSpec {
    fn default() -> Self {
        RunSpec {
            roller: Roller::Specialist,
            spare: Spare::Nobody,
            pick_on_six: RunTypeRule::LowestAble,
        }
    }
}

/// `[first_aid]`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FirstAidSpec {
    /// At which opportunities.
    pub when: AidWhen,
    /// Only in these phases.
    #[serde(deserialize_with = "distinct")]
    pub phases: Vec<PhaseName>,
    /// Only while stealth is at least this (0: always).
    pub stealth_floor: StealthFloor,
    /// Treat a patient who is only wounded (not incapacitated) only while stealth is at least
    /// this (0: always; once discovered, stealth is 0): late and low on stealth, a failed
    /// treatment costs more than a wound is worth.
    pub wounded_floor: StealthFloor,
    /// Once the team is discovered, give first aid whatever `stealth_floor` says: the floor
    /// keeps the last points of stealth, and once discovered there are none left to keep.
    pub discovered_ignores_floor: bool,
    /// Who is treated.
    pub patient: PatientRule,
    /// Who treats.
    pub giver: GiverRule,
    /// Whether the finale character may be the giver in phase 3; when not, `giver` chooses
    /// among the other able members, and with none the opportunity is skipped.
    pub finale_gives: FinaleGives,
}

impl Default for FirstAidSpec {
    fn default() -> Self {
        FirstAidSpec {
            when: AidWhen::Always,
            phases: vec![PhaseName::Recruitment, PhaseName::Run, PhaseName::Finale],
            stealth_floor: Int(0),
            wounded_floor: Int(0),
            discovered_ignores_floor: false,
            patient: PatientRule::IncapacitatedFirst,
            giver: GiverRule::MedicFirst,
            finale_gives: FinaleGives::Always,
        }
    }
}

/// `[finale]`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FinaleSpec {
    /// Who takes the Tough Challenges.
    pub character: FinaleRule,
}

impl Default for FinaleSpec {
    fn default() -> Self {
        FinaleSpec {
            character: FinaleRule::Main,
        }
    }
}

/// `[side]`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SideSpec {
    /// When to attempt at all.
    pub attempt: SideAttempt,
    /// Types always passed.
    #[serde(deserialize_with = "distinct")]
    pub pass_types: Vec<Speciality>,
    /// Who rolls.
    pub roller: Roller,
    /// Most attempts at one side challenge (0: never attempt).
    pub max_attempts: Int<0, 100>,
    /// Attempt only while stealth is at least this (0: always).
    pub stealth_floor: StealthFloor,
    /// Attempt the second side challenge when the first one succeeded.
    pub second_success: bool,
    /// Whether the finale character may roll side challenges.
    pub finale_may_roll: bool,
    /// On the last this many Tough Challenges, attempt every side challenge anyone who may
    /// roll can take, whatever `attempt`, `pass_types` and `stealth_floor` say (0: none):
    /// near the end a side success is worth more than the roller's health.
    pub anyone_last: Int<0, 9>,
    /// Once the team is discovered, the same on the last this many Tough Challenges (0: none):
    /// there is no stealth left to lose, and the side successes lift the finale penalty that
    /// being discovered raises.
    pub anyone_last_discovered: Int<0, 9>,
    /// The side successes (before this Tough Challenge) up to which `anyone_last` and
    /// `anyone_last_discovered` apply: below this many, anyone tries; from then on the other
    /// side knobs decide, so that one success can be sought at any price and a second only
    /// when it is worth the risk.
    pub anyone_until: Int<1, 2>,
}

impl Default for SideSpec {
    fn default() -> Self {
        SideSpec {
            attempt: SideAttempt::WithSpecialist,
            pass_types: Vec::new(),
            roller: Roller::Specialist,
            max_attempts: Int(3),
            stealth_floor: Int(0),
            second_success: true,
            finale_may_roll: false,
            anyone_last: Int(0),
            anyone_last_discovered: Int(0),
            anyone_until: Int(2),
        }
    }
}

/// `[substitute]`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SubstituteSpec {
    /// Who replaces the finale character.
    pub character: SubstituteRule,
}

impl Default for SubstituteSpec {
    fn default() -> Self {
        SubstituteSpec {
            character: SubstituteRule::LeastWounded,
        }
    }
}
