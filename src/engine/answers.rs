//! The optimal strategy's answers by position: a fixed table of one word per answer, read
//! and filled by every thread without locks, whose slot for a position can be warmed before
//! the answer is needed ([`AnswerTable::prefetch`]).
//!
//! Monte Carlo of optimal play meets millions of distinct decisions (2 M games at stealth 10
//! about 3 M), so the answers do not fit in any cache: a decision's cost was two memory
//! misses, a thread's own front cache and a map behind locks. Here a decision reads one slot,
//! which the game warmed while other games were played ([`super::montecarlo`]).
//!
//! **Layout.** Open addressing with linear probing over 2^[`BITS`] slots of one `u64`. The
//! position's key is mixed by a bijection, `h = mix(key)`; its low [`BITS`] bits are the home
//! slot, and the slot stores the high bits, the distance from home and the answer. Home and
//! high bits give `h` back, so a slot names its position exactly — no two positions share an
//! answer — in a word a compare-and-swap can claim. Zero is an empty slot (an answer's code is
//! never zero).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use crate::game::{Action, Character};

/// Slots: 2^23, 64 MiB, zeroed lazily by the allocator (pages cost memory when first written).
const BITS: u32 = 23;
const SLOTS: usize = 1 << BITS;

/// The most answers kept: three quarters of the slots (six million). Beyond, an answer is
/// worked out again from the solver's table at every meeting.
const MAX_ANSWERS: usize = SLOTS / 4 * 3;

/// The farthest a slot may be from its home (7 bits of the word).
const MAX_DISTANCE: usize = 127;

/// The answer's code in a slot's low 16 bits.
const ACTION_BITS: u32 = 16;
/// The distance from home above it.
const DISTANCE_BITS: u32 = 7;
/// The position's high bits above that: exactly the bits of `h` above the home slot.
const HIGH_SHIFT: u32 = ACTION_BITS + DISTANCE_BITS;
const _: () = assert!(HIGH_SHIFT + (64 - BITS) == 64);

/// A fixed table of answers by position key.
#[derive(Debug)]
pub struct AnswerTable {
    slots: Box<[AtomicU64]>,
    len: AtomicUsize,
}

impl Default for AnswerTable {
    fn default() -> Self {
        let slots: Box<[AtomicU64]> = bytemuck::allocation::zeroed_slice_box(SLOTS);
        huge_pages(&slots);
        AnswerTable {
            slots,
            len: AtomicUsize::new(0),
        }
    }
}

/// Asks the kernel to back `slots` with huge pages where it can: random reads over 64 MiB of
/// 4 KiB pages miss the TLB at nearly every read, over 2 MiB pages they do not.
fn huge_pages(slots: &[AtomicU64]) {
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let start = slots.as_ptr() as usize;
        let aligned = start.next_multiple_of(PAGE);
        let len = (start + std::mem::size_of_val(slots)).saturating_sub(aligned) / PAGE * PAGE;
        // SAFETY: the range lies inside memory this table owns, page-aligned as madvise
        // requires; MADV_HUGEPAGE is advice about how to back it and changes no contents.
        // A refusal (no transparent huge pages) is harmless and ignored.
        unsafe {
            libc::madvise(aligned as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = slots;
}

/// A bijection of `u64`: every step (xor with a shift, multiplication by an odd number) can be
/// undone, so different keys never mix to the same value.
#[inline]
fn mix(key: u64) -> u64 {
    let mut h = key ^ (key >> 32);
    h = h.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^ (h >> 29)
}

impl AnswerTable {
    /// The home slot and high bits of `key`.
    #[inline]
    fn home(key: u64) -> (usize, u64) {
        let h = mix(key);
        ((h as usize) & (SLOTS - 1), h >> BITS)
    }

    /// Starts loading the home slot of `key` into the cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let (home, _) = Self::home(key);
        prefetch(&self.slots[home]);
    }

    /// The answer kept for `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Action> {
        let (home, high) = Self::home(key);
        for distance in 0..=MAX_DISTANCE {
            let word = self.slots[(home + distance) & (SLOTS - 1)].load(Ordering::Relaxed);
            if word == 0 {
                return None;
            }
            if word >> HIGH_SHIFT == high && distance_of(word) == distance {
                return Some(decode(word as u16));
            }
        }
        None
    }

    /// Keeps `action` as the answer for `key` (unless the table is full or the key's slots
    /// are taken; two threads keeping one key's answer keep it once).
    pub fn insert(&self, key: u64, action: Action) {
        if self.len.load(Ordering::Relaxed) >= MAX_ANSWERS {
            return;
        }
        let (home, high) = Self::home(key);
        for distance in 0..=MAX_DISTANCE {
            let slot = &self.slots[(home + distance) & (SLOTS - 1)];
            let word = (high << HIGH_SHIFT)
                | ((distance as u64) << ACTION_BITS)
                | u64::from(encode(action));
            match slot.compare_exchange(0, word, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => {
                    self.len.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                // Taken by this key already (by another thread, with the same answer).
                Err(found) if found >> HIGH_SHIFT == high && distance_of(found) == distance => {
                    return;
                }
                Err(_) => {}
            }
        }
    }

    /// The number of answers kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }
}

/// The distance from home stored in `word`.
#[inline]
fn distance_of(word: u64) -> usize {
    ((word >> ACTION_BITS) & ((1 << DISTANCE_BITS) - 1)) as usize
}

/// A hint to the processor to load `slot`'s cache line; it never faults and changes nothing.
#[inline(always)]
fn prefetch(slot: &AtomicU64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` needs SSE, part of every x86_64 processor; a prefetch reads no
    // memory the program can see and cannot fault.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(slot.as_ptr().cast::<i8>().cast_const());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}

/// An action as a non-zero 16-bit code: a kind (1..=9) and up to two characters.
fn encode(action: Action) -> u16 {
    let c = |c: Character| c.index() as u16;
    let (kind, a, b) = match action {
        Action::Main(x) => (1, c(x), 0),
        Action::Recruit(x) => (2, c(x), 0),
        Action::Stop => (3, 0, 0),
        Action::Roll(x) => (4, c(x), 0),
        Action::RunType(x) => (5, c(x), 0),
        Action::Finale(x) => (6, c(x), 0),
        Action::Pass => (7, 0, 0),
        Action::Aid { patient, giver } => (8, c(patient), c(giver)),
        Action::SkipAid => (9, 0, 0),
    };
    kind | (a << 4) | (b << 8)
}

/// The action of a code made by [`encode`].
fn decode(code: u16) -> Action {
    let c = |shift: u16| Character::ALL[usize::from((code >> shift) & 0xf)];
    match code & 0xf {
        1 => Action::Main(c(4)),
        2 => Action::Recruit(c(4)),
        3 => Action::Stop,
        4 => Action::Roll(c(4)),
        5 => Action::RunType(c(4)),
        6 => Action::Finale(c(4)),
        7 => Action::Pass,
        8 => Action::Aid {
            patient: c(4),
            giver: c(8),
        },
        9 => Action::SkipAid,
        _ => unreachable!("codes are made by encode"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_reads_back_from_its_code() {
        let mut actions = vec![Action::Stop, Action::Pass, Action::SkipAid];
        for x in Character::ALL {
            actions.extend([
                Action::Main(x),
                Action::Recruit(x),
                Action::Roll(x),
                Action::RunType(x),
                Action::Finale(x),
            ]);
            for y in Character::ALL {
                actions.push(Action::Aid {
                    patient: x,
                    giver: y,
                });
            }
        }
        for action in actions {
            assert_ne!(encode(action), 0);
            assert_eq!(decode(encode(action)), action);
        }
    }

    #[test]
    fn keys_that_share_a_home_keep_their_own_answers() {
        let table = AnswerTable::default();
        // Keys whose mixes share the low bits: the same home slot, told apart by the rest.
        let mut same_home = Vec::new();
        let mut key = 0u64;
        let (home, _) = AnswerTable::home(12345);
        while same_home.len() < 5 {
            if AnswerTable::home(key).0 == home {
                same_home.push(key);
            }
            key += 1;
        }
        let answers = [
            Action::Stop,
            Action::Pass,
            Action::Roll(Character::ALL[2]),
            Action::SkipAid,
            Action::Main(Character::ALL[5]),
        ];
        for (k, a) in same_home.iter().zip(answers) {
            assert_eq!(table.get(*k), None);
            table.insert(*k, a);
            table.insert(*k, Action::Pass);
        }
        for (k, a) in same_home.iter().zip(answers) {
            assert_eq!(table.get(*k), Some(a), "{k}");
        }
        assert_eq!(table.len(), 5);
        assert_eq!(table.get(12345 ^ 1), None);
    }

    #[test]
    fn mixing_is_a_bijection_on_a_sample() {
        let mut seen = std::collections::HashSet::new();
        for key in 0..100_000u64 {
            assert!(seen.insert(mix(key.wrapping_mul(0x1234_5678_9abc_def1))));
        }
    }
}
