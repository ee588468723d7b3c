//! A [`State`] packed injectively into an integer: the exact engines' memo keys. The layout
//! is the state's own, field by field, so it lives beside it and changes with it.
//!
//! A packed key is smaller than the `State` itself (one `u64` without the strategy-facing
//! counters, a `u128` with them), hashes with one multiply, and compares with one instruction,
//! which is most of the cost of a memoised expectation. The layout (low bits first):
//!
//! | bits | field |
//! |------|-------|
//! | 0–20  | step: a 5-bit variant tag and up to 16 bits of payload |
//! | 21–26 | pending first aid: none, open, or check (patient × giver) |
//! | 27–29 | main character (0 = none) |
//! | 30–32 | finale character (0 = none) |
//! | 33–39 | stealth (0..=99) |
//! | 40–60 | per character, base 11: member with health 0..=3, or non-member with complication none / 1..=6 |
//! | 64–71 | attempts (only in [`with_counters`]) |
//! | 72–79 | failures (only in [`with_counters`]) |

use super::canon::{self, Labels, canonical};
use super::{Aid, Character, Health, Outcome, State, Step, Team};
use crate::rules::Rules;

/// The key of `state` without the counters `attempts`/`failures`, which the rules never read
/// (R8 lets the strategy stop before every recruitment check). Two states with the same key
/// behave the same under the rules, so the optimal engine can share their values, and so can
/// the exact engine for a strategy that does not read the counters there.
#[inline]
pub fn rules_key(state: &State) -> u64 {
    pack(state)
}

/// The key of `state` with the counters replaced by `(attempts, failures)` as a strategy
/// distinguishes them.
#[inline]
pub fn with_counters(state: &State, counters: (u8, u8)) -> u128 {
    counted(rules_key(state), counters)
}

/// A packed key with the counters above it.
#[inline]
pub fn counted(key: u64, (attempts, failures): (u8, u8)) -> u128 {
    u128::from(key) | u128::from(attempts) << 64 | u128::from(failures) << 72
}

/// The optimal engine's key: [`rules_key`] of the state's canonical form
/// ([`canonical`]): positions the rules cannot tell apart, up to the
/// symmetry of the non-medic characters and information never read again, share one key.
#[inline]
pub fn solver_key(state: &State, rules: &Rules) -> u64 {
    pack(&canonical(state, rules))
}

/// The lowest bit of the stealth field and its mask (see the layout above).
const STEALTH_SHIFT: u32 = 33;
const STEALTH_MASK: u64 = 0x7f << STEALTH_SHIFT;

/// `key` (of [`solver_key`] or [`rules_key`]) with its stealth set to `stealth`: the key of
/// the same position at that stealth. Canonical forms do not read stealth.
#[inline]
pub fn with_stealth(key: u64, stealth: u8) -> u64 {
    key & !STEALTH_MASK | u64::from(stealth) << STEALTH_SHIFT
}

/// A key with counters ([`counted`]) with its stealth set to `stealth`.
#[inline]
pub fn counted_with_stealth(key: u128, stealth: u8) -> u128 {
    key & !u128::from(STEALTH_MASK) | u128::from(stealth) << STEALTH_SHIFT
}

/// The lowest bit of the per-character field and its width (see the layout above).
const CHARACTERS_SHIFT: u32 = 40;
const CHARACTERS_BITS: u32 = 21;

/// A key split for dense indexing ([`split_health`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HealthSplit {
    /// The key with every member's health set to healthy: the positions of one shape differ
    /// only in their members' health.
    pub shape: u128,
    /// The members' health as a number in base 4, the lowest-numbered member lowest.
    pub index: usize,
    /// How many such numbers there are: 4 to the number of members.
    pub size: usize,
}

/// Splits a key (a strategy's, of [`solver_key`] or of [`rules_key`], widened) into its
/// shape and its members' health, for dense indexing (the engines' ids). Injective: a member's
/// health digit is 0..=3 and a non-member's 4.., so the shape still tells members apart.
#[inline]
pub fn split_health(key: u128) -> HealthSplit {
    let mask = ((1u128 << CHARACTERS_BITS) - 1) << CHARACTERS_SHIFT;
    let digits = ((key & mask) >> CHARACTERS_SHIFT) as u32;
    // Three characters at a time from a table: no division or branch per character.
    let low = THREE_DIGITS[(digits % THREE) as usize];
    let high = THREE_DIGITS[(digits / THREE) as usize];
    let others = u32::from(low.others) + u32::from(high.others) * THREE;
    HealthSplit {
        shape: key & !mask | u128::from(others) << CHARACTERS_SHIFT,
        index: usize::from(low.index) + usize::from(high.index) * usize::from(low.size),
        size: usize::from(low.size) * usize::from(high.size),
    }
}

/// How many values three characters' digits take (base 11, the lowest character lowest).
const THREE: u32 = 11 * 11 * 11;

/// [`split_health`] of three characters' digits: the non-members' digits (the members' set
/// to 0), the members' health in base 4, and 4 to the number of members.
#[derive(Clone, Copy)]
struct ThreeSplit {
    others: u16,
    index: u8,
    size: u8,
}

/// [`ThreeSplit`] by the three characters' digits: 1331 entries, 5 KB, in cache.
const THREE_DIGITS: [ThreeSplit; THREE as usize] = {
    let mut table = [ThreeSplit {
        others: 0,
        index: 0,
        size: 0,
    }; THREE as usize];
    let mut digits = 0;
    while digits < THREE {
        let (mut rest, mut others, mut place, mut index, mut size) = (digits, 0, 1, 0, 1);
        let mut character = 0;
        while character < 3 {
            let digit = rest % 11;
            rest /= 11;
            // A member's health (0..=3) or a non-member's complication (4..).
            if digit <= Health::Dead as u32 {
                index += digit * size;
                size *= 4;
            } else {
                others += digit * place;
            }
            place *= 11;
            character += 1;
        }
        table[digits as usize] = ThreeSplit {
            others: others as u16,
            index: index as u8,
            size: size as u8,
        };
        digits += 1;
    }
    table
};

/// The stealth of a position from its key.
#[inline]
pub fn stealth_of(key: u64) -> u8 {
    ((key & STEALTH_MASK) >> STEALTH_SHIFT) as u8
}

/// Packs `state` injectively (counters aside) into the layout above.
#[inline]
fn pack(state: &State) -> u64 {
    pack_as(state, Labels::IDENTITY, Team::EMPTY, false)
}

/// Powers of 11: a character's place in the per-character field, by its label.
const PLACES: [u64; 6] = [1, 11, 121, 1331, 14641, 161_051];

/// [`pack`] of `state` relabelled by `labels`, without the complications of the characters
/// labelled in `unread` and, with `erase_first_side`, without the first side challenge's type
/// at the second: [`pack`] of [`canon::forget`]`(relabelled, unread,
/// !erase_first_side)`, the relabelled position never built.
#[inline(always)]
pub fn pack_as(state: &State, labels: Labels, unread: Team, erase_first_side: bool) -> u64 {
    let map = |c: Character| labels.character(c).index() as u64;
    let team = state.team();
    let mut characters = 0u64;
    for c in Character::ALL {
        let label = labels.character(c);
        let code = if team.contains(c) {
            state.health(c) as u64
        } else {
            debug_assert_eq!(state.health(c), Health::Healthy, "non-members are healthy");
            match state.complication(c) {
                Some(t) if !unread.contains(label) => 5 + map(t),
                _ => 4,
            }
        };
        characters += code * PLACES[label.index()];
    }
    let character = |c: Option<Character>| c.map_or(0, |c| 1 + map(c));
    let aid = match state.aid() {
        Aid::None => 0,
        Aid::Open => 1,
        Aid::Check { patient, giver } => 2 + 6 * map(patient) + map(giver),
    };
    step(state, map, erase_first_side)
        | aid << 21
        | character(state.main()) << 27
        | character(state.finale()) << 30
        | u64::from(state.stealth()) << STEALTH_SHIFT
        | characters << 40
}

/// The step as a 5-bit tag and at most 16 bits of payload. Counts have room for every
/// design ([`crate::rules::Design`]): a run challenge 0..=11 in 4 bits, a Tough Challenge
/// 0..=5 in 3, recruitment checks 0..=6 in 3. With `erase_first_side`, the first side type
/// at the second side challenge packs as its placeholder ([`canon::first_side_type_kept`]).
#[inline]
fn step(state: &State, c: impl Fn(Character) -> u64, erase_first_side: bool) -> u64 {
    let side = |tough: u8, types: [Character; 2], index: u8, successes: u8| {
        // Erased, the placeholder whatever the labels (as `canon::forget` erases it).
        let first = canon::first_side_type_kept(types[0], index, erase_first_side)
            .map_or(canon::ERASED_SIDE_TYPE.index() as u64, &c);
        u64::from(tough)
            | first << 3
            | c(types[1]) << 6
            | u64::from(index) << 9
            | u64::from(successes) << 10
    };
    let (tag, payload) = match state.step() {
        Step::Complications => (0, 0),
        Step::ChooseMain => (1, 0),
        Step::ChooseTarget => (2, 0),
        Step::Recruit {
            target,
            done,
            needed,
        } => (3, c(target) | u64::from(done) << 3 | u64::from(needed) << 6),
        Step::RecruitCheck {
            target,
            done,
            needed,
            roller,
        } => (
            4,
            c(target) | u64::from(done) << 3 | u64::from(needed) << 6 | c(roller) << 9,
        ),
        Step::RunType { challenge } => (5, u64::from(challenge)),
        Step::PickRunType { challenge } => (6, u64::from(challenge)),
        Step::Run { challenge, ty } => (7, u64::from(challenge) | c(ty) << 4),
        Step::RunCheck {
            challenge,
            ty,
            roller,
        } => (8, u64::from(challenge) | c(ty) << 4 | c(roller) << 7),
        Step::ChooseFinale => (9, 0),
        Step::SideTypes { tough } => (10, u64::from(tough)),
        Step::Side {
            tough,
            types,
            index,
            successes,
        } => (11, side(tough, types, index, successes)),
        Step::SideCheck {
            tough,
            types,
            index,
            successes,
            roller,
        } => (12, side(tough, types, index, successes) | c(roller) << 12),
        Step::Tough { tough, successes } => (13, u64::from(tough) | u64::from(successes) << 3),
        Step::Substitute { tough, successes } => (14, u64::from(tough) | u64::from(successes) << 3),
        Step::Over(Outcome::Win) => (15, 0),
        Step::Over(Outcome::Loss(cause)) => (16, 1 + cause as u64),
    };
    debug_assert!(payload < 1 << 16);
    tag | payload << 5
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::MAIN_TEXT;

    /// The table-driven split is the character-by-character one, for every value of the
    /// characters' field (11⁶ of them), around any other bits of the key.
    #[test]
    fn the_health_split_by_table_is_the_split_character_by_character() {
        let around = 0xABCD_u128 << 64 | 0x1_2345_6789 | 1 << 127;
        for digits in 0..11u32.pow(6) {
            let (mut rest, mut others, mut place, mut index, mut size) = (digits, 0, 1, 0, 1);
            for _ in Character::ALL {
                let digit = rest % 11;
                rest /= 11;
                if digit <= Health::Dead as u32 {
                    index += digit as usize * size;
                    size *= 4;
                } else {
                    others += digit * place;
                }
                place *= 11;
            }
            let key = around | u128::from(digits) << CHARACTERS_SHIFT;
            let expected = HealthSplit {
                shape: around | u128::from(others) << CHARACTERS_SHIFT,
                index,
                size,
            };
            assert_eq!(split_health(key), expected, "digits {digits}");
        }
    }

    #[test]
    fn a_key_moved_to_another_stealth_is_the_key_at_that_stealth() {
        let state = State::with_complications(
            7,
            [
                Character::Spy,
                Character::Medic,
                Character::Hacker,
                Character::Spy,
                Character::Mechanic,
                Character::Sniper,
            ],
        )
        .with_main(Character::Sniper)
        .with_member(Character::Medic, Health::Wounded);
        for stealth in [0, 1, 2, 12, 99] {
            let there = state.with_stealth(stealth);
            assert_eq!(
                with_stealth(solver_key(&state, &MAIN_TEXT), stealth),
                solver_key(&there, &MAIN_TEXT)
            );
            assert_eq!(stealth_of(solver_key(&there, &MAIN_TEXT)), stealth);
        }
    }

    #[test]
    fn a_split_key_keeps_every_field_and_numbers_the_members_health_densely() {
        let base = State::with_complications(9, [Character::Spy; 6])
            .with_main(Character::Demolitions)
            .with_counters(2, 1);
        let mut seen = std::collections::HashSet::new();
        for medic in [None, Some(Health::Wounded), Some(Health::Dead)] {
            for nova in [
                Health::Healthy,
                Health::Wounded,
                Health::Incapacitated,
                Health::Dead,
            ] {
                let mut state = base.with_member(Character::Demolitions, nova);
                if let Some(h) = medic {
                    state = state.with_member(Character::Medic, h);
                }
                let key = with_counters(&state, (2, 1));
                let split = split_health(key);
                let members = 1 + u32::from(medic.is_some());
                assert_eq!(split.size, 4usize.pow(members));
                assert!(split.index < split.size);
                assert_eq!(
                    split.index % 4,
                    nova as usize,
                    "Nova (Demolitions) is the lowest member"
                );
                let healthy = |s: State| {
                    let s = s.with_member(Character::Demolitions, Health::Healthy);
                    match medic {
                        Some(_) => s.with_member(Character::Medic, Health::Healthy),
                        None => s,
                    }
                };
                assert_eq!(split.shape, with_counters(&healthy(state), (2, 1)));
                assert!(seen.insert((split.shape, split.index)), "injective");
            }
        }
        assert_eq!(seen.len(), 12);
    }

    #[test]
    fn counters_change_only_the_key_with_counters() {
        let a = State::new(10).with_main(Character::Hacker);
        let b = a.with_counters(3, 2);
        assert_eq!(rules_key(&a), rules_key(&b));
        let counted = |s: &State| with_counters(s, (s.attempts(), s.failures()));
        assert_ne!(counted(&a), counted(&b));
        assert_eq!(with_counters(&b, (0, 0)), u128::from(rules_key(&a)));
    }

    #[test]
    fn keys_separate_fields() {
        let base = State::with_complications(12, [Character::Spy; 6]);
        let variants = [
            base,
            base.with_stealth(11),
            base.with_complication(Character::Medic, Character::Hacker),
            base.with_main(Character::Spy),
            base.with_main(Character::Spy).with_finale(Character::Spy),
            base.with_member(Character::Sniper, Health::Wounded),
            base.with_member(Character::Sniper, Health::Healthy),
            base.at(Step::ChooseTarget, Aid::None),
            base.at(Step::ChooseTarget, Aid::Open),
            base.at(
                Step::Tough {
                    tough: 1,
                    successes: 2,
                },
                Aid::None,
            ),
            base.at(
                Step::Tough {
                    tough: 2,
                    successes: 1,
                },
                Aid::None,
            ),
        ];
        let keys: std::collections::HashSet<u64> = variants.iter().map(rules_key).collect();
        assert_eq!(keys.len(), variants.len());
        assert!(keys.iter().all(|k| *k < 1 << 61));
    }
}
