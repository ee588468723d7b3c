//! Rules of thumb in a strategy file: the `[rules]` section, an ordered list of rules per kind
//! of decision, `when <conditions> -> <option>`, read top to bottom; the first rule whose
//! conditions all hold decides, and the knobs decide where none does (or where the matching
//! rule's option cannot be taken in the position: a patient who needs no aid, a roller who
//! cannot roll). `strategies/README.md` documents the language.
//!
//! A condition is a fact of what a player sees at the table (the phase, the Tough Challenge,
//! stealth, the team's health, …) and the set of its values it allows, held as a bit set over
//! the fact's small integer values: parsing, checking ranges that can never hold, shadowing
//! and the exact engine's view of what a rule reads are all bit operations on that one form.

use std::fmt;

use serde::Deserialize;
use toml::Spanned;

use crate::game::{Character, Decision, DecisionKind, Health, KINDS, Phase, State, Step};
use crate::rules::Rules;

/// The `[rules]` section as written: each kind's rules as strings with their place in the
/// file, compiled by [`Card::compile`].
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
pub struct RuleTexts {
    /// R7.
    pub main_character: Vec<Spanned<String>>,
    /// R8.
    pub recruit_target: Vec<Spanned<String>>,
    /// R8.
    pub recruit_roller: Vec<Spanned<String>>,
    /// R10.
    pub run_type: Vec<Spanned<String>>,
    /// R10.
    pub run_roller: Vec<Spanned<String>>,
    /// R11.
    pub finale_character: Vec<Spanned<String>>,
    /// R12.
    pub side_challenge: Vec<Spanned<String>>,
    /// R14 variant.
    pub substitute: Vec<Spanned<String>>,
    /// R15.
    pub first_aid: Vec<Spanned<String>>,
}

impl RuleTexts {
    fn by_kind(&self) -> [(DecisionKind, &[Spanned<String>]); KINDS] {
        use DecisionKind as K;
        [
            (K::MainCharacter, &self.main_character),
            (K::RecruitTarget, &self.recruit_target),
            (K::RecruitRoller, &self.recruit_roller),
            (K::RunType, &self.run_type),
            (K::RunRoller, &self.run_roller),
            (K::FinaleCharacter, &self.finale_character),
            (K::SideChallenge, &self.side_challenge),
            (K::Substitute, &self.substitute),
            (K::FirstAid, &self.first_aid),
        ]
    }
}

/// A kind of decision as the `[rules]` section names it (a CSV's `kind`).
pub fn kind_name(kind: DecisionKind) -> &'static str {
    use DecisionKind as K;
    match kind {
        K::MainCharacter => "main-character",
        K::RecruitTarget => "recruit-target",
        K::RecruitRoller => "recruit-roller",
        K::RunType => "run-type",
        K::RunRoller => "run-roller",
        K::FinaleCharacter => "finale-character",
        K::SideChallenge => "side-challenge",
        K::Substitute => "substitute",
        K::FirstAid => "first-aid",
    }
}

/// Something a player sees at the table, as a small integer (at most 127).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fact {
    /// 0 recruitment, 1 run, 2 finale.
    Phase,
    /// Stealth (0 once discovered).
    Stealth,
    /// 1 once the team is discovered (stealth 0), else 0.
    Discovered,
    /// The Tough Challenge being played or next, from 1; 0 before the finale's challenges.
    Tough,
    /// Tough Challenges left, the current one included; 0 before the finale's challenges.
    Left,
    /// Side successes so far for this Tough Challenge.
    Successes,
    /// Which side challenge is at hand (1 or 2); 0 at other decisions.
    Side,
    /// Checks made so far on the task at hand (the current side challenge, target, …).
    Attempts,
    /// The type of the check at hand (a speciality); 6 where there is none.
    Type,
    /// Living team members.
    Members,
    /// Able team members (healthy or wounded).
    Able,
    /// Wounds on the living team (an incapacitated member carries two).
    Wounds,
    /// Members with exactly one wound.
    Wounded,
    /// Incapacitated members.
    Incapacitated,
    /// The main character (6: not chosen yet).
    Main,
    /// The finale character (6: not chosen yet).
    Finale,
    /// The main character's health ([`HEALTHS`]).
    MainHealth,
    /// The finale character's health ([`HEALTHS`]).
    FinaleHealth,
    /// A character's health ([`HEALTHS`], `absent` when not on the team).
    Member(Character),
    /// A character's complication, the type of check that recruits them (R6; 6 — `none` —
    /// once on the team or after phase 1).
    Needs(Character),
    /// Characters off the team whose complication an able member specialises in (they would
    /// be recruited with 3 dice).
    Easy,
}

/// The health values of [`Fact::MainHealth`], [`Fact::FinaleHealth`] and [`Fact::Member`]:
/// 0 healthy, 1 wounded, 2 incapacitated, 3 dead, 4 absent (not on the team, not chosen).
pub const HEALTHS: [&str; 5] = ["healthy", "wounded", "incapacitated", "dead", "absent"];

/// Names for sets of health values.
const HEALTH_GROUPS: [(&str, u128); 3] = [("able", 0b11), ("hurt", 0b110), ("present", 0b111)];

const PHASES: [&str; 3] = ["recruitment", "run", "finale"];

/// The allowed set of every value of `0..=hi`.
const fn upto(hi: u32) -> u128 {
    if hi >= 127 {
        u128::MAX
    } else {
        (1u128 << (hi + 1)) - 1
    }
}

/// What kind of values a fact takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Values {
    /// Integers, written as numbers and ranges.
    Number,
    /// Yes or no: the fact alone, or `not` and the fact.
    Flag,
    /// Keywords: these names, by their index.
    Names(&'static [&'static str]),
    /// A speciality (or a character's name), 6 for none.
    Character,
    /// A health keyword.
    Health,
}

impl Fact {
    /// Every fact but the per-character ones, by their names in a rule.
    const NAMED: [(&'static str, Fact); 19] = [
        ("phase", Fact::Phase),
        ("stealth", Fact::Stealth),
        ("discovered", Fact::Discovered),
        ("tough", Fact::Tough),
        ("left", Fact::Left),
        ("successes", Fact::Successes),
        ("side", Fact::Side),
        ("attempts", Fact::Attempts),
        ("type", Fact::Type),
        ("members", Fact::Members),
        ("able", Fact::Able),
        ("wounds", Fact::Wounds),
        ("wounded", Fact::Wounded),
        ("incapacitated", Fact::Incapacitated),
        ("main", Fact::Main),
        ("finale", Fact::Finale),
        ("main-health", Fact::MainHealth),
        ("finale-health", Fact::FinaleHealth),
        ("easy", Fact::Easy),
    ];

    /// The fact named `word`, or a character's health by speciality or name.
    pub fn parse(word: &str) -> Option<Fact> {
        if let Some(c) = word.strip_suffix("-needs") {
            return Character::parse(c).map(Fact::Needs);
        }
        Fact::NAMED
            .iter()
            .find(|(n, _)| *n == word)
            .map(|(_, f)| *f)
            .or_else(|| Character::parse(word).map(Fact::Member))
    }

    /// Its name in a rule.
    pub fn name(self) -> &'static str {
        const NEEDS: [&str; 6] = [
            "hacker-needs",
            "spy-needs",
            "sniper-needs",
            "demolitions-needs",
            "mechanic-needs",
            "medic-needs",
        ];
        match self {
            Fact::Member(c) => c.speciality(),
            Fact::Needs(c) => NEEDS[c.index()],
            _ => {
                let (name, _) = Fact::NAMED.iter().find(|(_, f)| *f == self).expect("named");
                name
            }
        }
    }

    fn values(self) -> Values {
        match self {
            Fact::Phase => Values::Names(&PHASES),
            Fact::Discovered => Values::Flag,
            Fact::Type | Fact::Main | Fact::Finale | Fact::Needs(_) => Values::Character,
            Fact::MainHealth | Fact::FinaleHealth | Fact::Member(_) => Values::Health,
            _ => Values::Number,
        }
    }

    /// The values the fact can take at a decision of `kind` under any design: a condition
    /// that allows none of them can never hold.
    fn domain(self, kind: DecisionKind) -> u128 {
        use DecisionKind as K;
        let phase = match kind {
            K::MainCharacter | K::RecruitTarget | K::RecruitRoller => 0b001,
            K::RunType | K::RunRoller => 0b010,
            K::FinaleCharacter | K::SideChallenge | K::Substitute => 0b100,
            K::FirstAid => 0b111,
        };
        let in_finale = phase & 0b100 != 0;
        let in_toughs = matches!(kind, K::SideChallenge | K::Substitute | K::FirstAid);
        match self {
            Fact::Phase => phase,
            Fact::Stealth => upto(99),
            Fact::Discovered => 0b11,
            Fact::Tough | Fact::Left if in_toughs => upto(6),
            Fact::Tough | Fact::Left => 1,
            Fact::Successes if in_finale => upto(2),
            Fact::Successes => 1,
            Fact::Side if kind == K::SideChallenge => upto(9) & !1,
            Fact::Side => 1,
            Fact::Attempts => upto(100),
            Fact::Type => match kind {
                K::RecruitRoller | K::RunRoller | K::SideChallenge => upto(5),
                _ => 1 << 6,
            },
            Fact::Members | Fact::Able => upto(6),
            Fact::Wounds => upto(12),
            Fact::Wounded | Fact::Incapacitated => upto(6),
            Fact::Main if kind == K::MainCharacter => 1 << 6,
            Fact::Main => upto(5),
            // First aid comes in every phase: before the finale there is no finale character.
            Fact::Finale if kind == K::FirstAid => upto(6),
            Fact::Finale if in_finale && kind != K::FinaleCharacter => upto(5),
            Fact::Finale => 1 << 6,
            Fact::MainHealth if kind == K::MainCharacter => 1 << 4,
            Fact::MainHealth => upto(3),
            Fact::FinaleHealth if kind == K::FirstAid => upto(4),
            Fact::FinaleHealth if in_finale && kind != K::FinaleCharacter => upto(3),
            Fact::FinaleHealth => 1 << 4,
            Fact::Member(_) => upto(4),
            Fact::Needs(_) if phase & 1 != 0 => upto(6),
            Fact::Needs(_) => 1 << 6,
            Fact::Easy if phase & 1 != 0 => upto(6),
            Fact::Easy => 1,
        }
    }

    /// Its value in `state` at `decision`.
    pub fn value(self, state: &State, rules: &Rules, decision: Decision) -> u8 {
        let health = |c: Option<Character>| match c {
            Some(c) if state.team().contains(c) => state.health(c) as u8,
            _ => 4,
        };
        let tough = match state.step() {
            Step::SideTypes { tough }
            | Step::Side { tough, .. }
            | Step::SideCheck { tough, .. }
            | Step::Tough { tough, .. }
            | Step::Substitute { tough, .. } => Some(tough),
            _ => None,
        };
        let count = |h: Health| {
            (state.team().iter())
                .filter(|c| state.health(*c) == h)
                .count() as u8
        };
        match self {
            Fact::Phase => match state.phase() {
                Phase::Recruitment => 0,
                Phase::Run => 1,
                _ => 2,
            },
            Fact::Stealth => state.stealth().min(127),
            Fact::Discovered => u8::from(state.discovered()),
            Fact::Tough => tough.map_or(0, |t| t + 1),
            Fact::Left => tough.map_or(0, |t| rules.design.tough_challenges.saturating_sub(t)),
            Fact::Successes => match state.step() {
                Step::Side { successes, .. }
                | Step::SideCheck { successes, .. }
                | Step::Tough { successes, .. }
                | Step::Substitute { successes, .. } => successes,
                _ => 0,
            },
            Fact::Side => match decision {
                Decision::SideChallenge { index, .. } => index + 1,
                _ => 0,
            },
            Fact::Attempts => state.attempts().min(127),
            Fact::Type => match decision {
                Decision::RecruitRoller { complication, .. } => complication as u8,
                Decision::RunRoller { ty } | Decision::SideChallenge { ty, .. } => ty as u8,
                _ => 6,
            },
            Fact::Members => state.living(),
            Fact::Able => state.able_team().len(),
            Fact::Wounds => state.wounds(),
            Fact::Wounded => count(Health::Wounded),
            Fact::Incapacitated => count(Health::Incapacitated),
            Fact::Main => state.main().map_or(6, |c| c as u8),
            Fact::Finale => state.finale().map_or(6, |c| c as u8),
            Fact::MainHealth => health(state.main()),
            Fact::FinaleHealth => health(state.finale()),
            Fact::Member(c) => health(Some(c)),
            Fact::Needs(c) => state.complication(c).map_or(6, |t| t as u8),
            Fact::Easy => (Character::ALL.iter())
                .filter(|c| !state.team().contains(**c))
                .filter(|c| state.complication(**c).is_some_and(|t| state.is_able(t)))
                .count() as u8,
        }
    }

    /// Whether a condition on the fact tells characters apart by name (not by role or type
    /// alone), which the exact engine must then not relabel.
    fn names_characters(self, allowed: u128) -> bool {
        match self {
            // Only the Medic (numbered last) may be named without breaking the members' order.
            Fact::Member(c) => c != Character::Medic,
            Fact::Type | Fact::Main | Fact::Finale | Fact::Needs(_) => allowed & upto(4) != 0,
            _ => false,
        }
    }
}

/// One condition: `fact` takes one of the values in `allowed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Condition {
    /// What is looked at.
    pub fact: Fact,
    /// The values that satisfy it (bit `v` for value `v`).
    pub allowed: u128,
}

impl Condition {
    /// Whether it holds in `state` at `decision`.
    #[inline]
    pub fn holds(&self, state: &State, rules: &Rules, decision: Decision) -> bool {
        self.allowed >> self.fact.value(state, rules, decision) & 1 == 1
    }
}

impl fmt::Display for Condition {
    /// The shortest way the language writes it: `discovered`, `phase = finale`,
    /// `tough = 2..3`, `medic = wounded|incapacitated`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.fact.name();
        let values = |names: &dyn Fn(usize) -> String, count: usize| {
            (0..count)
                .filter(|v| self.allowed >> v & 1 == 1)
                .map(names)
                .collect::<Vec<_>>()
                .join("|")
        };
        match self.fact.values() {
            Values::Flag if self.allowed == 0b10 => write!(f, "{name}"),
            Values::Flag => write!(f, "not {name}"),
            Values::Names(names) => {
                write!(
                    f,
                    "{name} = {}",
                    values(&|v| names[v].to_string(), names.len())
                )
            }
            Values::Character => {
                let names = |v: usize| {
                    if v < 6 {
                        Character::from_index(v).speciality().to_string()
                    } else {
                        "none".to_string()
                    }
                };
                write!(f, "{name} = {}", values(&names, 7))
            }
            Values::Health => {
                if let Some((group, _)) = HEALTH_GROUPS.iter().find(|(_, m)| *m == self.allowed) {
                    return write!(f, "{name} = {group}");
                }
                write!(f, "{name} = {}", values(&|v| HEALTHS[v].to_string(), 5))
            }
            Values::Number => {
                let lo = self.allowed.trailing_zeros();
                let hi = 127 - self.allowed.leading_zeros();
                let contiguous = self.allowed == upto(hi) & !(upto(lo) >> 1);
                if contiguous && hi == 127 {
                    write!(f, "{name} >= {lo}")
                } else if contiguous && lo == hi {
                    write!(f, "{name} = {lo}")
                } else if contiguous && lo == 0 {
                    write!(f, "{name} <= {hi}")
                } else if contiguous {
                    write!(f, "{name} = {lo}..{hi}")
                } else {
                    let list: Vec<String> = (0..128)
                        .filter(|v| self.allowed >> v & 1 == 1)
                        .map(|v| v.to_string())
                        .collect();
                    write!(f, "{name} = {}", list.join("|"))
                }
            }
        }
    }
}

/// Who, named by role or speciality.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Who {
    /// The able specialist of the check's type, else the least wounded who may roll.
    Specialist,
    /// The least wounded who may roll (ties to the lowest number).
    LeastWounded,
    /// The main character.
    Main,
    /// The finale character (or, before phase 3, whom `[finale] character` would pick).
    Finale,
    /// The Medic for first aid; otherwise the named character.
    Named(Character),
    /// First aid: the patient themselves.
    Patient,
    /// First aid: the lowest-numbered incapacitated member.
    Incapacitated,
    /// First aid: the lowest-numbered merely wounded member.
    Wounded,
}

impl Who {
    fn parse(word: &str) -> Option<Who> {
        Some(match word {
            "specialist" => Who::Specialist,
            "least-wounded" => Who::LeastWounded,
            "main" => Who::Main,
            "finale" => Who::Finale,
            "self" => Who::Patient,
            "incapacitated" => Who::Incapacitated,
            "wounded" => Who::Wounded,
            _ => Who::Named(Character::parse(word)?),
        })
    }

    fn name(self) -> &'static str {
        match self {
            Who::Specialist => "specialist",
            Who::LeastWounded => "least-wounded",
            Who::Main => "main",
            Who::Finale => "finale",
            Who::Patient => "self",
            Who::Incapacitated => "incapacitated",
            Who::Wounded => "wounded",
            Who::Named(c) => c.speciality(),
        }
    }
}

/// The rules of `[main] character` that read the complications, as options of a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MainPick {
    /// `most-needed`.
    MostNeeded,
    /// `most-needed-not-medic`.
    MostNeededNotMedic,
    /// `hardest-to-recruit`.
    HardestToRecruit,
    /// `first-target`.
    FirstTarget,
}

/// What a rule does, in the player's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Choose {
    /// Stop recruiting.
    Stop,
    /// Pass a side challenge (or give up after a failure).
    Pass,
    /// Let a first-aid opportunity go.
    Skip,
    /// This character (main character, recruitment target, run type).
    Pick(Character),
    /// This member (check roller, finale character, substitute).
    By(Who),
    /// Attempt the side challenge: by the knobs' roller, or by this member.
    Try(Option<Who>),
    /// First aid on this patient, by this giver (the knobs' giver when `None`).
    Treat(Who, Option<Who>),
    /// The main character by one of `[main] character`'s rules.
    MainBy(MainPick),
    /// The next recruit: the first of `[recruit] order` off the team whose complication an
    /// able member specialises in, else the first off the team.
    Easiest,
}

impl fmt::Display for Choose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Choose::Stop => f.write_str("stop"),
            Choose::Pass => f.write_str("pass"),
            Choose::Skip => f.write_str("skip"),
            Choose::Pick(c) => f.write_str(c.speciality()),
            Choose::By(w) => f.write_str(w.name()),
            Choose::Try(None) => f.write_str("try"),
            Choose::Try(Some(w)) => write!(f, "try by {}", w.name()),
            Choose::Treat(p, None) => write!(f, "treat {}", p.name()),
            Choose::Treat(p, Some(g)) => write!(f, "treat {} by {}", p.name(), g.name()),
            Choose::MainBy(rule) => f.write_str(match rule {
                MainPick::MostNeeded => "most-needed",
                MainPick::MostNeededNotMedic => "most-needed-not-medic",
                MainPick::HardestToRecruit => "hardest-to-recruit",
                MainPick::FirstTarget => "first-target",
            }),
            Choose::Easiest => f.write_str("easiest"),
        }
    }
}

/// The options a kind of decision takes, for messages.
fn options_of(kind: DecisionKind) -> &'static str {
    use DecisionKind as K;
    match kind {
        K::MainCharacter => {
            "a speciality, most-needed, most-needed-not-medic, hardest-to-recruit or first-target"
        }
        K::RecruitTarget => "stop, easiest, or a speciality",
        K::RecruitRoller => "stop, specialist, least-wounded, main, finale, or a speciality",
        K::RunType => "a speciality but medic",
        K::RunRoller | K::FinaleCharacter | K::Substitute => {
            "specialist, least-wounded, main, finale, or a speciality"
        }
        K::SideChallenge => {
            "pass, try, or try by specialist, least-wounded, main, finale or a speciality"
        }
        K::FirstAid => {
            "skip, or treat PATIENT [by GIVER]: PATIENT finale, main, incapacitated, wounded or \
             a speciality; GIVER medic, self, least-wounded, main, finale or a speciality"
        }
    }
}

/// One rule: when every condition holds, take `choose`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The decision it answers.
    pub kind: DecisionKind,
    /// All must hold (none: always).
    pub conditions: Vec<Condition>,
    /// What it does.
    pub choose: Choose,
}

impl Rule {
    /// Whether it decides in `state` at `decision` (of its kind).
    #[inline]
    pub fn matches(&self, state: &State, rules: &Rules, decision: Decision) -> bool {
        self.conditions
            .iter()
            .all(|c| c.holds(state, rules, decision))
    }

    /// The values of `fact` it lets through (every value when it does not look).
    fn allows(&self, fact: Fact) -> u128 {
        (self.conditions.iter())
            .filter(|c| c.fact == fact)
            .fold(u128::MAX, |a, c| a & c.allowed)
    }

    /// Whether every position this rule matches, `earlier` matches too.
    pub fn shadowed_by(&self, earlier: &Rule) -> bool {
        earlier.kind == self.kind
            && (earlier.conditions.iter()).all(|c| {
                let domain = c.fact.domain(self.kind);
                self.allows(c.fact) & domain & !c.allowed == 0
            })
    }

    /// The rule's text as the language writes it.
    pub fn text(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.conditions.is_empty() {
            return write!(f, "-> {}", self.choose);
        }
        let conditions: Vec<String> = self.conditions.iter().map(|c| c.to_string()).collect();
        write!(f, "when {} -> {}", conditions.join(" and "), self.choose)
    }
}

/// The compiled `[rules]` section: each kind's rules in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Card {
    /// The rules, grouped by kind in [`DecisionKind::ALL`] order, each kind's in file order.
    pub rules: Vec<Rule>,
    /// The first rule of each kind in `rules`, and one past the last.
    starts: [u16; KINDS + 1],
}

impl Card {
    /// A card of `rules` (any order of kinds; each kind's kept in the order given).
    pub fn new(rules: Vec<Rule>) -> Card {
        let mut sorted = Vec::with_capacity(rules.len());
        let mut starts = [0u16; KINDS + 1];
        for (k, kind) in DecisionKind::ALL.iter().enumerate() {
            starts[k] = sorted.len() as u16;
            sorted.extend(rules.iter().filter(|r| r.kind == *kind).cloned());
        }
        starts[KINDS] = sorted.len() as u16;
        Card {
            rules: sorted,
            starts,
        }
    }

    /// Whether there are no rules.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rules for `kind`, in order.
    #[inline]
    pub fn of(&self, kind: DecisionKind) -> &[Rule] {
        let k = kind as usize;
        &self.rules[usize::from(self.starts[k])..usize::from(self.starts[k + 1])]
    }

    /// The option of the first rule that matches `state` at `decision`.
    #[inline]
    pub fn choose(&self, state: &State, rules: &Rules, decision: Decision) -> Option<Choose> {
        let kind = DecisionKind::of(decision);
        (self.of(kind).iter())
            .find(|r| r.matches(state, rules, decision))
            .map(|r| r.choose)
    }

    /// The highest value of `fact` that its conditions tell apart from the one below (0 when
    /// none looks at it): from there up the rules see no difference.
    pub fn alike_from(&self, fact: Fact) -> u8 {
        let mut from = 0;
        for c in self.rules.iter().flat_map(|r| &r.conditions) {
            if c.fact == fact {
                let changes = c.allowed ^ (c.allowed << 1);
                // Bit v of `changes` set: values v and v − 1 differ (v ≥ 1).
                let changes = changes & !1;
                if changes != 0 {
                    from = from.max(127 - changes.leading_zeros() as u8);
                }
            }
        }
        from
    }

    /// Whether a rule tells characters apart by name (a condition or an option naming one
    /// other than the Medic).
    pub fn names_characters(&self) -> bool {
        let named = |w: &Who| matches!(w, Who::Named(c) if *c != Character::Medic);
        self.rules.iter().any(|r| {
            r.conditions
                .iter()
                .any(|c| c.fact.names_characters(c.allowed))
                || match r.choose {
                    Choose::Pick(c) => c != Character::Medic,
                    Choose::By(w) | Choose::Try(Some(w)) => named(&w),
                    Choose::Treat(p, g) => named(&p) || g.as_ref().is_some_and(named),
                    _ => false,
                }
        })
    }

    /// Whether a recruitment-target rule may name a target (not only stop): then targets
    /// beyond `[recruit] count` may be named.
    pub fn recruits(&self) -> bool {
        (self.of(DecisionKind::RecruitTarget).iter()).any(|r| r.choose != Choose::Stop)
    }

    /// Whether a rule picks the next target by complication (`easiest`).
    pub fn by_complication(&self) -> bool {
        (self.of(DecisionKind::RecruitTarget).iter()).any(|r| r.choose == Choose::Easiest)
    }

    /// The characters whose complications the rules read after the main character is chosen
    /// (before, every complication is part of the position): those a recruitment-target rule
    /// names, and those a condition reads (`easy` reads them all).
    pub fn complications_read(&self) -> crate::game::Team {
        let mut read = crate::game::Team::EMPTY;
        for rule in self
            .rules
            .iter()
            .filter(|r| r.kind != DecisionKind::MainCharacter)
        {
            if let (DecisionKind::RecruitTarget, Choose::Pick(c)) = (rule.kind, rule.choose) {
                read = read.with(c);
            }
            for c in &rule.conditions {
                match c.fact {
                    Fact::Needs(ch) => read = read.with(ch),
                    Fact::Easy => return crate::game::Team::ALL,
                    _ => {}
                }
            }
        }
        read
    }

    /// Compiles the section as written; errors as `origin:line:column: message`. Returns the
    /// card and its warnings (a rule an earlier one shadows entirely), each naming both lines.
    pub fn compile(
        texts: &RuleTexts,
        origin: &str,
        file: &str,
    ) -> Result<(Card, Vec<String>), String> {
        let mut rules = Vec::new();
        let mut warnings = Vec::new();
        for (kind, texts) in texts.by_kind() {
            let mut lines: Vec<usize> = Vec::new();
            let first = rules.len();
            for spanned in texts {
                let text: &str = spanned.get_ref();
                let span = spanned.span();
                // The rule's first byte in the file, when it is written as a plain string.
                let inner = span.start + 1;
                let plain = file.get(inner..inner + text.len()) == Some(text);
                let at = |offset: usize| if plain { inner + offset } else { span.start };
                let rule = parse_rule(kind, text).map_err(|(offset, why)| {
                    crate::text::located(origin, file, at(offset), &why)
                })?;
                let (line, _) = crate::text::line_col(file, span.start);
                for (earlier, &earlier_line) in rules[first..].iter().zip(&lines) {
                    if rule.shadowed_by(earlier) {
                        warnings.push(format!(
                            "{origin}:{line}: warning: this {} rule can never decide: the rule \
                             on line {earlier_line} matches wherever it does (`{}`)",
                            kind_name(kind),
                            crate::text::shorten(text, crate::text::EXCERPT_CHARS)
                        ));
                        break;
                    }
                }
                lines.push(line);
                rules.push(rule);
            }
        }
        Ok((Card::new(rules), warnings))
    }

    /// The `[rules]` section for these rules, each kind's list under its key, each rule
    /// preceded by its comment line when `comment` gives one.
    pub fn section(&self, comment: &dyn Fn(&Rule) -> Option<String>) -> String {
        let mut out = String::from("[rules]\n");
        for kind in DecisionKind::ALL {
            let rules = self.of(kind);
            if rules.is_empty() {
                continue;
            }
            out.push_str(&format!("{} = [\n", kind_name(kind)));
            for rule in rules {
                if let Some(c) = comment(rule) {
                    out.push_str(&format!("  # {c}\n"));
                }
                out.push_str(&format!("  \"{rule}\",\n"));
            }
            out.push_str("]\n");
        }
        out
    }
}

/// A token of a rule and its byte offset.
type Token<'a> = (&'a str, usize);

fn tokens(text: &str) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &text[i..];
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let op = ["->", "!=", "<=", ">=", "=", "<", ">", ","]
            .into_iter()
            .find(|op| rest.starts_with(op));
        if let Some(op) = op {
            out.push((op, i));
            i += op.len();
            continue;
        }
        let start = i;
        while i < bytes.len() {
            let rest = &text[i..];
            let c = bytes[i];
            if c.is_ascii_whitespace() || b"=<>!,".contains(&c) || rest.starts_with("->") {
                break;
            }
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
        if i == start {
            // A lone `!`.
            i += 1;
        }
        out.push((&text[start..i], start));
    }
    out
}

type Failure = (usize, String);

/// Parses one rule of `kind`: `[when] COND [and COND]… -> OPTION`, or `-> OPTION` alone.
pub fn parse_rule(kind: DecisionKind, text: &str) -> Result<Rule, Failure> {
    let tokens = tokens(text);
    let arrows: Vec<usize> = (0..tokens.len()).filter(|&i| tokens[i].0 == "->").collect();
    let arrow = match arrows[..] {
        [a] => a,
        [] => {
            return Err((
                text.len(),
                "a rule reads `when CONDITIONS -> OPTION`: no `->`".into(),
            ));
        }
        [_, b, ..] => return Err((tokens[b].1, "a second `->` in one rule".into())),
    };
    let mut left = &tokens[..arrow];
    if let Some(("when", _)) = left.first() {
        left = &left[1..];
    }
    let mut conditions: Vec<Condition> = Vec::new();
    for part in left.split(|(t, _)| *t == "and" || *t == ",") {
        let at = part.first().map_or(tokens[arrow].1, |t| t.1);
        if part.is_empty() {
            if left.is_empty() {
                break;
            }
            return Err((
                at,
                "a condition is missing (between `and`s, or before `->`)".into(),
            ));
        }
        let condition = parse_condition(part)?;
        let together = conditions
            .iter()
            .filter(|c| c.fact == condition.fact)
            .fold(condition.allowed, |a, c| a & c.allowed);
        if together & condition.fact.domain(kind) == 0 {
            let why = if together == condition.allowed {
                format!(
                    "`{}` can never hold at a {} decision",
                    condition,
                    kind_name(kind)
                )
            } else {
                format!(
                    "the conditions on {} can never hold together",
                    condition.fact.name()
                )
            };
            return Err((at, why));
        }
        conditions.push(condition);
    }
    let choose = parse_option(kind, &tokens[arrow + 1..], text.len())?;
    Ok(Rule {
        kind,
        conditions,
        choose,
    })
}

fn parse_number(word: &str, at: usize) -> Result<u32, Failure> {
    word.parse::<u32>()
        .ok()
        .filter(|n| *n <= 127)
        .ok_or_else(|| (at, format!("'{word}' is not a number in 0..=127")))
}

/// `A`, `A..B`, `A..`, `..B` or `A|B|…` as a set of values.
fn parse_numbers(word: &str, at: usize) -> Result<u128, Failure> {
    let mut set = 0;
    for alt in word.split('|') {
        set |= match alt.split_once("..") {
            Some((lo, hi)) => {
                let lo = if lo.is_empty() {
                    0
                } else {
                    parse_number(lo, at)?
                };
                let hi = if hi.is_empty() {
                    127
                } else {
                    parse_number(hi, at)?
                };
                if lo > hi {
                    return Err((at, format!("the range {alt} is empty")));
                }
                upto(hi) & !(upto(lo) >> 1)
            }
            None => 1 << parse_number(alt, at)?,
        };
    }
    Ok(set)
}

fn parse_condition(part: &[Token<'_>]) -> Result<Condition, Failure> {
    let (negated, part) = match part.first() {
        Some(("not", _)) => (true, &part[1..]),
        _ => (false, part),
    };
    let Some(&(name, at)) = part.first() else {
        return Err((0, "`not` of nothing".into()));
    };
    let fact = Fact::parse(name).ok_or_else(|| {
        let names: Vec<&str> = Fact::NAMED.iter().map(|(n, _)| *n).collect();
        (
            at,
            format!(
                "'{name}' is not a fact (allowed: {}, or a speciality for that member's health)",
                names.join(", ")
            ),
        )
    })?;
    let values = fact.values();
    let allowed = match &part[1..] {
        [] if values == Values::Flag => 0b10,
        [] => return Err((at, format!("`{name}` needs a value (`{name} = …`)"))),
        [(op, op_at), (value, value_at)] => {
            let (op, value, value_at) = (*op, *value, *value_at);
            let set = match values {
                Values::Number => match op {
                    "=" | "!=" => parse_numbers(value, value_at)?,
                    "<" | "<=" | ">" | ">=" => {
                        let n = parse_number(value, value_at)?;
                        match op {
                            "<" if n == 0 => 0,
                            "<" => upto(n - 1),
                            "<=" => upto(n),
                            ">" => !upto(n),
                            _ => !(upto(n) >> 1),
                        }
                    }
                    _ => return Err((*op_at, format!("'{op}' is not a comparison"))),
                },
                Values::Flag => match value {
                    "yes" | "true" => 0b10,
                    "no" | "false" => 0b01,
                    _ => return Err((value_at, format!("'{value}' is not yes or no"))),
                },
                Values::Names(names) => keyword_set(value, value_at, names, &[])?,
                Values::Health => keyword_set(value, value_at, &HEALTHS, &HEALTH_GROUPS)?,
                Values::Character => {
                    let mut set = 0;
                    for alt in value.split('|') {
                        set |= match alt {
                            "none" => 1 << 6,
                            _ => {
                                1u128
                                    << Character::parse(alt).ok_or_else(|| {
                                        (
                                            value_at,
                                            format!("'{alt}' is not a speciality (or `none`)"),
                                        )
                                    })? as u32
                            }
                        };
                    }
                    set
                }
            };
            let set = match op {
                "=" | "<" | "<=" | ">" | ">=" => set,
                "!=" => !set,
                _ => return Err((*op_at, format!("'{op}' is not `=` or `!=` here"))),
            };
            if values != Values::Number && !["=", "!="].contains(&op) {
                return Err((*op_at, format!("{name} is compared with `=` or `!=`")));
            }
            set
        }
        [(_, at), ..] => {
            return Err((
                *at,
                format!("a condition reads `{name} = VALUE` (or `{name} < N`, …)"),
            ));
        }
    };
    let allowed = if negated { !allowed } else { allowed };
    Ok(Condition { fact, allowed })
}

fn keyword_set(
    value: &str,
    at: usize,
    names: &[&str],
    groups: &[(&str, u128)],
) -> Result<u128, Failure> {
    let mut set = 0;
    for alt in value.split('|') {
        set |= match names.iter().position(|n| *n == alt) {
            Some(i) => 1 << i,
            None => match groups.iter().find(|(g, _)| *g == alt) {
                Some((_, m)) => *m,
                None => {
                    let all: Vec<&str> = (names.iter().copied())
                        .chain(groups.iter().map(|(g, _)| *g))
                        .collect();
                    return Err((at, format!("'{alt}' is not one of: {}", all.join(", "))));
                }
            },
        };
    }
    Ok(set)
}

fn parse_option(kind: DecisionKind, words: &[Token<'_>], end: usize) -> Result<Choose, Failure> {
    use DecisionKind as K;
    let at = words.first().map_or(end, |w| w.1);
    let bad = || {
        (
            at,
            format!(
                "not an option of a {} decision (allowed: {})",
                kind_name(kind),
                options_of(kind)
            ),
        )
    };
    let texts: Vec<&str> = words.iter().map(|w| w.0).collect();
    let who = |w: &str| {
        Who::parse(w).filter(|w| !matches!(w, Who::Patient | Who::Incapacitated | Who::Wounded))
    };
    let choose = match (kind, &texts[..]) {
        (K::MainCharacter, ["most-needed"]) => Choose::MainBy(MainPick::MostNeeded),
        (K::MainCharacter, ["most-needed-not-medic"]) => {
            Choose::MainBy(MainPick::MostNeededNotMedic)
        }
        (K::MainCharacter, ["hardest-to-recruit"]) => Choose::MainBy(MainPick::HardestToRecruit),
        (K::MainCharacter, ["first-target"]) => Choose::MainBy(MainPick::FirstTarget),
        (K::MainCharacter, [c]) => Choose::Pick(Character::parse(c).ok_or_else(bad)?),
        (K::RecruitTarget, ["easiest"]) => Choose::Easiest,
        (K::RecruitTarget, ["stop"]) | (K::RecruitRoller, ["stop"]) => Choose::Stop,
        (K::RecruitTarget, [c]) => Choose::Pick(Character::parse(c).ok_or_else(bad)?),
        (K::RunType, [c]) => match Character::parse(c) {
            Some(Character::Medic) | None => return Err(bad()),
            Some(c) => Choose::Pick(c),
        },
        (K::RecruitRoller | K::RunRoller | K::FinaleCharacter | K::Substitute, [w]) => {
            Choose::By(who(w).ok_or_else(bad)?)
        }
        (K::SideChallenge, ["pass"]) => Choose::Pass,
        (K::SideChallenge, ["try"]) => Choose::Try(None),
        (K::SideChallenge, ["try", "by", w]) => Choose::Try(Some(who(w).ok_or_else(bad)?)),
        (K::FirstAid, ["skip"]) => Choose::Skip,
        (K::FirstAid, ["treat", p]) | (K::FirstAid, ["treat", p, "by", _]) => {
            let patient = Who::parse(p)
                .filter(|w| !matches!(w, Who::Specialist | Who::LeastWounded | Who::Patient))
                .ok_or_else(bad)?;
            let giver = match &texts[..] {
                [_, _, _, g] => Some(
                    Who::parse(g)
                        .filter(|w| {
                            !matches!(w, Who::Specialist | Who::Incapacitated | Who::Wounded)
                        })
                        .ok_or_else(bad)?,
                ),
                _ => None,
            };
            Choose::Treat(patient, giver)
        }
        _ => return Err(bad()),
    };
    Ok(choose)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_print_as_they_parse() {
        for text in [
            "when phase = finale and discovered and tough >= 2 -> skip",
            "when not discovered and stealth = 3..5 and medic = able -> treat finale by medic",
            "when successes = 0 and left = 1 -> try by least-wounded",
            "when finale-health = wounded|incapacitated, wounds <= 3 -> treat finale",
            "-> skip",
        ] {
            let kind = if text.contains("try") {
                DecisionKind::SideChallenge
            } else {
                DecisionKind::FirstAid
            };
            let rule = parse_rule(kind, text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            let again = parse_rule(kind, &rule.to_string()).expect("printed rules parse");
            assert_eq!(again, rule, "{text} printed as {rule}");
        }
    }

    /// First aid comes before the finale too: no finale character yet is a value it sees.
    #[test]
    fn first_aid_sees_no_finale_character_before_the_finale() {
        let k = DecisionKind::FirstAid;
        assert!(parse_rule(k, "when finale = none -> skip").is_ok());
        assert!(parse_rule(k, "when finale-health = absent -> skip").is_ok());
        let side = DecisionKind::SideChallenge;
        assert!(parse_rule(side, "when finale = none -> pass").is_err());
    }

    #[test]
    fn shadowing_is_containment() {
        let k = DecisionKind::FirstAid;
        let broad = parse_rule(k, "when phase = finale -> skip").expect("ok");
        let narrow =
            parse_rule(k, "when phase = finale and discovered -> treat finale").expect("ok");
        assert!(narrow.shadowed_by(&broad));
        assert!(!broad.shadowed_by(&narrow));
        // At a side-challenge decision the phase is always the finale: no condition at all.
        let side = DecisionKind::SideChallenge;
        let always = parse_rule(side, "when phase = finale -> pass").expect("ok");
        let any = parse_rule(side, "-> try").expect("ok");
        assert!(any.shadowed_by(&always));
    }
}
