//! Memo keys for the exact engines: a [`State`] packed injectively into an integer.
//!
//! A packed key is smaller than the `State` itself (one `u64` without the strategy-facing
//! counters, a `u128` with them), hashes with one multiply, and compares with one instruction,
//! which is most of the cost of a memoised expectation. The layout (low bits first):
//!
//! | bits | field |
//! |------|-------|
//! | 0–18  | step: a 5-bit variant tag and up to 14 bits of payload |
//! | 19–24 | pending first aid: none, open, or check (patient × giver) |
//! | 25–27 | main character (0 = none) |
//! | 28–30 | finale character (0 = none) |
//! | 31–37 | stealth (0..=99) |
//! | 38–58 | per character, base 11: member with health 0..=3, or non-member with complication none / 1..=6 |
//! | 64–71 | attempts (only in [`with_counters`]) |
//! | 72–79 | failures (only in [`with_counters`]) |

use crate::game::{Aid, Character, Health, Outcome, Phase, State, Step, Team};
use crate::strategy::Sight;

/// The key of `state` without the counters `attempts`/`failures`, which the rules never read
/// (R8 lets the strategy stop before every recruitment check). Two states with the same key behave the same under the rules, so the optimal
/// engine can share their values, and so can the exact engine for a strategy that does not
/// read the counters there ([`crate::strategy::Strategy::sight`]).
#[inline]
pub fn rules_key(state: &State) -> u64 {
    pack(state, IDENTITY, Erase::NOTHING)
}

/// The key of `state` with the counters replaced by `(attempts, failures)` as a strategy
/// distinguishes them.
#[inline]
pub fn with_counters(state: &State, counters: (u8, u8)) -> u128 {
    counted(rules_key(state), counters)
}

/// The exact engine's key for a strategy that sees `sight` of `state`
/// ([`crate::strategy::Strategy::sight`]).
#[inline]
pub fn strategy_key(state: &State, sight: Sight) -> u128 {
    match sight {
        Sight::Partial {
            counters,
            unread_complications,
            first_side_type,
        } => {
            let erase = Erase {
                complications: unread_complications,
                first_side_type: !first_side_type,
                ..Erase::NOTHING
            };
            counted(pack(state, IDENTITY, erase), counters)
        }
        Sight::RulesOnly => u128::from(solver_key(state)),
    }
}

/// A packed key with the counters above it.
#[inline]
fn counted(key: u64, (attempts, failures): (u8, u8)) -> u128 {
    u128::from(key) | u128::from(attempts) << 64 | u128::from(failures) << 72
}

/// The optimal engine's key: [`rules_key`] of a canonical member of the state's class, where
/// two states share a class only if their optimal values are provably equal. On top of
/// dropping the counters it erases what the rules will never read again and uses a symmetry:
///
/// - **Symmetry.** The rules treat the five non-medic characters alike (run challenges draw
///   types 1–5 uniformly and a 6 lets the team pick among 1–5; side challenges, complications
///   and first aid are uniform or medic-only); only the main character's speciality (the
///   Tough type) singles one out. Relabelling the non-medic characters (applied to every
///   character and type in the state) therefore keeps the value. In phase 1 a main character
///   other than the Hacker or the Medic is relabelled as the Hacker (the transposition of the
///   two); after phase 1 all five are put in a canonical order ([`sorted`]).
/// - **Dead information.** At the second side challenge the first one's type is never read
///   again. A complication is read only as a check type, where it matters only whether the
///   roller is its specialist: pointing at the character itself or at a dead member, no roller
///   ever is. With three members, a complication pointing at a non-member cannot gain a
///   specialist either (the target is the fourth and last recruit), and once the fourth target
///   is named the others' complications are never read (the team fills up or recruiting stops;
///   both clear them). With two members and the third target named, the same holds for a
///   complication of another non-member pointing at neither a member nor the target: by the
///   time it can be read, the team has three members. All of these are written as "complication = the character itself".
#[inline]
pub fn solver_key(state: &State) -> u64 {
    let perm = if matches!(state.phase(), Phase::Recruitment) {
        let mut perm = IDENTITY;
        if let Some(main) = state.main()
            && main != Character::Hacker
            && main != Character::Medic
        {
            perm.swap(main.index(), Character::Hacker.index());
        }
        perm
    } else {
        sorted(state)
    };
    pack(state, perm, Erase::DEAD)
}

/// After phase 1 (no complications left) every mention of a non-medic character in the key
/// is unary: membership, health, main, finale, or a reference from the step (challenge type,
/// roller, side types, first-aid patient and giver). Sorting the five by all of that and
/// labelling them in order gives the same labels to every state of one symmetry class (tied
/// characters are indistinguishable, so how ties fall does not change the key).
#[inline]
fn sorted(state: &State) -> [u8; 6] {
    let mut refs = [0u32; 6];
    let mut mark = |c: Character, bit: u32| refs[c.index()] |= 1 << bit;
    match state.step() {
        Step::Run { ty, .. } => mark(ty, 0),
        Step::RunCheck { ty, roller, .. } => {
            mark(ty, 0);
            mark(roller, 1);
        }
        Step::Side { types, index, .. } | Step::SideCheck { types, index, .. } => {
            if index == 0 {
                mark(types[0], 2);
            }
            mark(types[1], 3);
            if let Step::SideCheck { roller, .. } = state.step() {
                mark(roller, 1);
            }
        }
        _ => {}
    }
    if let Aid::Check { patient, giver } = state.aid() {
        mark(patient, 4);
        mark(giver, 5);
    }
    let signature = |c: Character| -> u32 {
        let member = state.team().contains(c);
        u32::from(state.main() != Some(c)) << 12
            | u32::from(!member) << 11
            | (state.health(c) as u32) << 9
            | u32::from(state.finale() == Some(c)) << 8
            | refs[c.index()]
    };
    let mut order: [Character; 5] = [
        Character::Hacker,
        Character::Spy,
        Character::Sniper,
        Character::Demolitions,
        Character::Mechanic,
    ];
    order.sort_by_key(|c| signature(*c));
    let mut perm = IDENTITY;
    for (label, c) in order.iter().enumerate() {
        perm[c.index()] = label as u8;
    }
    perm
}

/// The identity relabelling.
const IDENTITY: [u8; 6] = [0, 1, 2, 3, 4, 5];

/// What [`pack`] leaves out of a key.
#[derive(Clone, Copy)]
struct Erase {
    /// Complications the rules can no longer use (see [`solver_key`]).
    dead_complications: bool,
    /// At the second side challenge, the first one's type.
    first_side_type: bool,
    /// These characters' complications.
    complications: Team,
}

impl Erase {
    /// Keep everything.
    const NOTHING: Erase = Erase {
        dead_complications: false,
        first_side_type: false,
        complications: Team::EMPTY,
    };
    /// Everything the rules will never read again.
    const DEAD: Erase = Erase {
        dead_complications: true,
        first_side_type: true,
        complications: Team::EMPTY,
    };
}

/// Packs `state` with every character `c` written as `perm[c]`, leaving out `erase`.
#[inline]
fn pack(state: &State, perm: [u8; 6], erase: Erase) -> u64 {
    let canonical = erase.dead_complications;
    let map = |c: Character| u64::from(perm[c.index()]);
    let team = state.team();
    let named_fourth = canonical
        && team.len() == 3
        && match state.step() {
            Step::Recruit { target, .. } | Step::RecruitCheck { target, .. } => Some(target),
            _ => None,
        }
        .is_some();
    let target = match state.step() {
        Step::Recruit { target, .. } | Step::RecruitCheck { target, .. } => Some(target),
        _ => None,
    };
    let mut codes = [0u64; 6];
    for c in Character::ALL {
        let code = if team.contains(c) {
            state.health(c) as u64
        } else {
            debug_assert_eq!(state.health(c), Health::Healthy, "non-members are healthy");
            match state.complication(c) {
                None => 4,
                Some(_) if erase.complications.contains(c) => 4,
                Some(_) if named_fourth && target != Some(c) => 4,
                Some(t) => {
                    let orphan = canonical
                        && (t == c
                            || (team.contains(t) && state.health(t) == Health::Dead)
                            || (team.len() == 3 && !team.contains(t))
                            || (team.len() == 2
                                && target.is_some_and(|x| x != c)
                                && !team.contains(t)
                                && target != Some(t)));
                    5 + if orphan { map(c) } else { map(t) }
                }
            }
        };
        codes[usize::from(perm[c.index()])] = code;
    }
    let characters = codes.iter().rev().fold(0u64, |acc, &code| acc * 11 + code);
    let character = |c: Option<Character>| c.map_or(0, |c| 1 + map(c));
    let aid = match state.aid() {
        Aid::None => 0,
        Aid::Open => 1,
        Aid::Check { patient, giver } => 2 + 6 * map(patient) + map(giver),
    };
    step(state, map, erase.first_side_type)
        | aid << 19
        | character(state.main()) << 25
        | character(state.finale()) << 28
        | u64::from(state.stealth()) << 31
        | characters << 38
}

/// The step as a 5-bit tag and at most 14 bits of payload.
#[inline]
fn step(state: &State, c: impl Fn(Character) -> u64, erase_first_side_type: bool) -> u64 {
    let side = |tough: u8, types: [Character; 2], index: u8, successes: u8| {
        // At the second side challenge the first one's type is dead information.
        let first = if erase_first_side_type && index == 1 {
            0
        } else {
            c(types[0])
        };
        u64::from(tough)
            | first << 2
            | c(types[1]) << 5
            | u64::from(index) << 8
            | u64::from(successes) << 9
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
        Step::Run { challenge, ty } => (7, u64::from(challenge) | c(ty) << 3),
        Step::RunCheck {
            challenge,
            ty,
            roller,
        } => (8, u64::from(challenge) | c(ty) << 3 | c(roller) << 6),
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
        } => (12, side(tough, types, index, successes) | c(roller) << 11),
        Step::Tough { tough, successes } => (13, u64::from(tough) | u64::from(successes) << 2),
        Step::Substitute { tough, successes } => (14, u64::from(tough) | u64::from(successes) << 2),
        Step::Over(Outcome::Win) => (15, 0),
        Step::Over(Outcome::Loss(cause)) => (16, 1 + cause as u64),
    };
    debug_assert!(payload < 1 << 14);
    tag | payload << 5
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(keys.iter().all(|k| *k < 1 << 59));
    }
}
