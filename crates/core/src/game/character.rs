//! Characters, check types, health and the team.

use std::fmt;

/// The largest team any design allows (R8; the printed game: 4): all six characters.
pub const MAX_TEAM: u8 = Character::ALL.len() as u8;

/// One of the six characters. A check *type* is named by the character whose speciality it is
/// (type 1 = Hacker … type 6 = Medic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Character {
    /// Bunny, the Hacker (type 1, "track down").
    Hacker = 0,
    /// Ink, the Spy (type 2, "sneak out").
    Spy = 1,
    /// Shades, the Sniper (type 3, "guard").
    Sniper = 2,
    /// Nova, the Demolitions expert (type 4, "break out").
    Demolitions = 3,
    /// Rump, the Mechanic (type 5, "repair").
    Mechanic = 4,
    /// Dix, the Medic (type 6, "patch up", first aid, medical side challenges).
    Medic = 5,
}

impl Character {
    /// All six, in character-number order.
    pub const ALL: [Character; 6] = [
        Character::Hacker,
        Character::Spy,
        Character::Sniper,
        Character::Demolitions,
        Character::Mechanic,
        Character::Medic,
    ];

    /// The character with this 0-based index.
    #[inline]
    pub const fn from_index(i: usize) -> Character {
        Character::ALL[i]
    }

    /// The 0-based index.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rules' 1-based number (and check type).
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }

    /// The character's name in the original game.
    pub const fn name(self) -> &'static str {
        ["Bunny", "Ink", "Shades", "Nova", "Rump", "Dix"][self as usize]
    }

    /// Every speciality, in character order, as [`Character::speciality`] writes them.
    pub const SPECIALITIES: [&'static str; 6] = [
        "hacker",
        "spy",
        "sniper",
        "demolitions",
        "mechanic",
        "medic",
    ];

    /// The speciality, lower-case, as used on the command line and in strategy files.
    pub const fn speciality(self) -> &'static str {
        Self::SPECIALITIES[self as usize]
    }

    /// The complication this speciality overcomes in phase 1.
    pub const fn complication(self) -> &'static str {
        [
            "track down",
            "sneak out",
            "guard",
            "break out",
            "repair",
            "patch up",
        ][self as usize]
    }

    /// Parses a speciality or character name, case-insensitively.
    pub fn parse(text: &str) -> Option<Character> {
        let text = text.trim().to_ascii_lowercase();
        Character::ALL.into_iter().find(|c| {
            c.speciality() == text || c.name().eq_ignore_ascii_case(&text) || {
                text == "demolitions-expert" && *c == Character::Demolitions
            }
        })
    }
}

impl fmt::Display for Character {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), self.speciality())
    }
}

/// Health, one step per wound (R3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Health {
    /// No wounds.
    #[default]
    Healthy = 0,
    /// One wound; still able.
    Wounded = 1,
    /// Two wounds; may not roll until healed.
    Incapacitated = 2,
    /// Out of the game for good.
    Dead = 3,
}

impl Health {
    /// R3: healthy and wounded characters are able.
    #[inline]
    pub fn is_able(self) -> bool {
        self <= Health::Wounded
    }

    /// The number of wounds (dead = 3).
    #[inline]
    pub fn wounds(self) -> u8 {
        self as u8
    }

    /// Lower-case name for narration.
    pub fn label(self) -> &'static str {
        ["healthy", "wounded", "incapacitated", "dead"][self as usize]
    }
}

/// A set of characters, as a bitmask over character indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Team(u8);

impl Team {
    /// No one.
    pub const EMPTY: Team = Team(0);
    /// All six characters.
    pub const ALL: Team = Team(0b11_1111);

    /// Whether `c` is in the set.
    #[inline]
    pub fn contains(self, c: Character) -> bool {
        self.0 & (1 << c as u8) != 0
    }

    /// The set with `c` added.
    #[inline]
    pub fn with(self, c: Character) -> Team {
        Team(self.0 | (1 << c as u8))
    }

    /// The number of members.
    #[inline]
    pub fn len(self) -> u8 {
        self.0.count_ones() as u8
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Members in character-number order.
    #[inline]
    pub fn iter(self) -> Members {
        Members(self.0)
    }

    /// The lowest-numbered member.
    #[inline]
    pub fn first(self) -> Option<Character> {
        (self.0 != 0).then(|| Character::from_index(self.0.trailing_zeros() as usize))
    }

    /// Members of both sets.
    #[inline]
    pub fn and(self, other: Team) -> Team {
        Team(self.0 & other.0)
    }

    /// Members of `self` not in `other`.
    #[inline]
    pub fn minus(self, other: Team) -> Team {
        Team(self.0 & !other.0)
    }

    /// The set with `c` removed.
    #[inline]
    pub fn without(self, c: Character) -> Team {
        Team(self.0 & !(1 << c as u8))
    }

    /// The set with character `i` renamed `perm[i]` (a permutation of `0..6`): six shifts,
    /// no branch.
    #[inline]
    pub fn relabelled(self, perm: &[u8; 6]) -> Team {
        let mut out = 0;
        for (i, &to) in perm.iter().enumerate() {
            out |= (self.0 >> i & 1) << to;
        }
        Team(out)
    }
}

impl FromIterator<Character> for Team {
    fn from_iter<I: IntoIterator<Item = Character>>(iter: I) -> Team {
        iter.into_iter().fold(Team::EMPTY, Team::with)
    }
}

impl IntoIterator for Team {
    type Item = Character;
    type IntoIter = Members;
    fn into_iter(self) -> Members {
        Members(self.0)
    }
}

/// The members of a [`Team`], in character-number order.
#[derive(Clone, Copy, Debug)]
pub struct Members(u8);

impl Iterator for Members {
    type Item = Character;
    #[inline]
    fn next(&mut self) -> Option<Character> {
        (self.0 != 0).then(|| {
            let c = Character::from_index(self.0.trailing_zeros() as usize);
            self.0 &= self.0 - 1;
            c
        })
    }
}

/// The health of all six characters as three bit planes: a character with `k` wounds has
/// its bit set in planes `0..k`. Team-wide questions (who is able, who needs aid) are then
/// single bit operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Healths {
    at_least: [Team; 3],
}

impl Healths {
    /// The healths with character `i` renamed `perm[i]` (a permutation of `0..6`).
    #[inline]
    pub fn relabelled(self, perm: &[u8; 6]) -> Healths {
        Healths {
            at_least: self.at_least.map(|plane| plane.relabelled(perm)),
        }
    }

    /// `c`'s health: the number of planes holding `c` (three bit tests, no branch).
    #[inline]
    pub fn get(self, c: Character) -> Health {
        let [p0, p1, p2] = self.at_least.map(|plane| u8::from(plane.contains(c)));
        match p0 + p1 + p2 {
            0 => Health::Healthy,
            1 => Health::Wounded,
            2 => Health::Incapacitated,
            _ => Health::Dead,
        }
    }

    /// Sets `c`'s health.
    #[inline]
    pub fn set(&mut self, c: Character, health: Health) {
        for (k, plane) in self.at_least.iter_mut().enumerate() {
            *plane = if usize::from(health.wounds()) > k {
                plane.with(c)
            } else {
                plane.without(c)
            };
        }
    }

    /// R3: one more wound for `c` (the dead stay dead). The planes are nested, so the wound
    /// is "shift `c` up one plane": three bit operations, no branch.
    #[inline]
    pub fn wound(&mut self, c: Character) {
        let m = 1u8 << c as u8;
        let [p0, p1, p2] = self.at_least.map(|plane| plane.0);
        self.at_least = [Team(p0 | m), Team(p1 | (p0 & m)), Team(p2 | (p1 & m))];
    }

    /// R15: one wound fewer for a living `c` (the dead stay dead): `c` leaves its highest
    /// plane, without a branch.
    #[inline]
    pub fn heal(&mut self, c: Character) {
        let [p0, p1, p2] = self.at_least.map(|plane| plane.0);
        let living = (1u8 << c as u8) & !p2;
        let incapacitated = p1 & living;
        self.at_least = [
            Team(p0 & !(living & !incapacitated)),
            Team(p1 & !living),
            Team(p2),
        ];
    }

    /// Characters that may not roll: incapacitated or dead (R3).
    #[inline]
    pub fn unable(self) -> Team {
        self.at_least[1]
    }

    /// Characters with at least one wound, dead included.
    #[inline]
    pub fn hurt(self) -> Team {
        self.at_least[0]
    }

    /// Dead characters.
    #[inline]
    pub fn dead(self) -> Team {
        self.at_least[2]
    }
}
