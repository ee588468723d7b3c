//! The optimal strategy's answers by position: a fixed table of one word per answer, read
//! and filled by every thread without locks, whose slot for a position can be warmed before
//! the answer is needed ([`AnswerTable::prefetch`]).
//!
//! Monte Carlo of optimal play meets millions of distinct decisions, so the answers do not
//! fit in any cache, and a map behind locks would cost a decision two memory misses. Here a
//! decision reads one slot, which the game warmed while other games were played
//! ([`crate::strategy::Strategy::prefetch`]).
//!
//! **Layout.** Open addressing with linear probing over 2^`bits` slots of one `u64`. The
//! position's key is mixed by a bijection, `h = mix(key)`; its low `bits` bits are the home
//! slot, and the slot stores the high bits, the distance from home and the answer. Home and
//! high bits give `h` back, so a slot names its position exactly — no two positions share an
//! answer — in a word a compare-and-swap can claim, and a table can be copied into a larger
//! one ([`GENERATIONS`]). Zero is an empty slot (an answer's code is never zero).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use crate::game::{Action, Character};

/// The tables' sizes, 2^bits slots of 8 bytes: 1 MiB to start with, then 8 MiB, then 64 MiB.
/// A short run (a few hundred thousand decisions) stays small; a long one grows the table
/// twice, copying its answers over. Earlier tables stay allocated (a reader may still be in
/// one) and cost at most 9 MiB beside the largest.
const GENERATIONS: [u32; 3] = [17, 20, 23];

/// A table grows when half its slots are taken; the largest keeps answers up to three
/// quarters (six million), beyond which an answer is worked out again from the solver's
/// table at every meeting. (Linear probing past three quarters makes runs of taken slots
/// longer than [`MAX_DISTANCE`].)
fn full_at(slots: usize, largest: bool) -> usize {
    if largest { slots / 4 * 3 } else { slots / 2 }
}

/// The farthest a slot may be from its home (7 bits of the word).
const MAX_DISTANCE: usize = 127;

/// The answer's code in a slot's low 10 bits.
const ACTION_BITS: u32 = 10;
/// The distance from home above it.
const DISTANCE_BITS: u32 = 7;
/// The position's high bits above that: exactly the bits of `h` above the home slot, which
/// fit for tables of 2^17 slots or more.
const HIGH_SHIFT: u32 = ACTION_BITS + DISTANCE_BITS;
const _: () = assert!(HIGH_SHIFT + (64 - GENERATIONS[0]) <= 64);

/// Answers by position key, in the current generation of [`ProbeTable`]s.
#[derive(Debug)]
pub struct AnswerTable {
    generations: [OnceLock<ProbeTable>; GENERATIONS.len()],
    /// The generation in use; it only moves up, once the next one is filled.
    current: AtomicUsize,
    /// Held by the thread that grows the table.
    growing: Mutex<()>,
}

impl Default for AnswerTable {
    fn default() -> Self {
        let table = AnswerTable {
            generations: Default::default(),
            current: AtomicUsize::new(0),
            growing: Mutex::new(()),
        };
        let _ = table.generations[0].set(ProbeTable::new(GENERATIONS[0]));
        table
    }
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
    /// The table in use and its generation.
    #[inline]
    fn table(&self) -> (usize, &ProbeTable) {
        let generation = self.current.load(Ordering::Acquire);
        let table = self.generations[generation]
            .get()
            .expect("a generation is filled before it is made current");
        (generation, table)
    }

    /// Starts loading the home slot of `key` into the cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let (_, table) = self.table();
        prefetch(&table.slots[table.home(mix(key)).0]);
    }

    /// The answer kept for `key`, if any.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Action> {
        let (_, table) = self.table();
        table.get(mix(key)).map(decode)
    }

    /// Keeps `action` as the answer for `key` (unless the largest table is full or the key's
    /// slots are taken; two threads keeping one key's answer keep it once). An answer kept
    /// while another thread grows the table may be left behind in the old one: it is worked
    /// out again when next asked, never answered wrongly.
    pub fn insert(&self, key: u64, action: Action) {
        let (generation, table) = self.table();
        if table.full() {
            return;
        }
        table.insert(mix(key), encode(action));
        if table.full() && generation + 1 < GENERATIONS.len() {
            self.grow(generation);
        }
    }

    /// Copies generation `from` into the next and makes that current (unless another thread
    /// did already).
    #[cold]
    fn grow(&self, from: usize) {
        let _growing = self.growing.lock().unwrap_or_else(|e| e.into_inner());
        if self.current.load(Ordering::Acquire) != from {
            return;
        }
        let old = self.generations[from].get().expect("current");
        let next = ProbeTable::new(GENERATIONS[from + 1]);
        old.copy_into(&next);
        let _ = self.generations[from + 1].set(next);
        self.current.store(from + 1, Ordering::Release);
    }

    /// The number of answers kept in the table in use.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.table().1.len.load(Ordering::Relaxed)
    }
}

/// One generation's slots (see the module documentation).
#[derive(Debug)]
struct ProbeTable {
    bits: u32,
    slots: Box<[AtomicU64]>,
    len: AtomicUsize,
}

impl ProbeTable {
    /// An empty table of 2^`bits` slots, zeroed lazily by the allocator.
    fn new(bits: u32) -> ProbeTable {
        let slots: Box<[AtomicU64]> = bytemuck::allocation::zeroed_slice_box(1 << bits);
        huge_pages(&slots);
        ProbeTable {
            bits,
            slots,
            len: AtomicUsize::new(0),
        }
    }

    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// The home slot and high bits of mixed key `h`.
    #[inline]
    fn home(&self, h: u64) -> (usize, u64) {
        ((h as usize) & self.mask(), h >> self.bits)
    }

    /// Whether the table is as full as it gets ([`full_at`]).
    fn full(&self) -> bool {
        let largest = self.bits == GENERATIONS[GENERATIONS.len() - 1];
        self.len.load(Ordering::Relaxed) >= full_at(self.slots.len(), largest)
    }

    /// The code kept for mixed key `h`, if any.
    #[inline]
    fn get(&self, h: u64) -> Option<u16> {
        let (home, high) = self.home(h);
        for distance in 0..=MAX_DISTANCE {
            let word = self.slots[(home + distance) & self.mask()].load(Ordering::Relaxed);
            if word == 0 {
                return None;
            }
            if word >> HIGH_SHIFT == high && distance_of(word) == distance {
                return Some(code_of(word));
            }
        }
        None
    }

    /// Keeps `code` for mixed key `h`, if one of its slots is free.
    fn insert(&self, h: u64, code: u16) {
        let (home, high) = self.home(h);
        for distance in 0..=MAX_DISTANCE {
            let slot = &self.slots[(home + distance) & self.mask()];
            let word = (high << HIGH_SHIFT) | ((distance as u64) << ACTION_BITS) | u64::from(code);
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

    /// Keeps every answer of this table in `next` too: a slot's home and high bits give the
    /// mixed key back.
    fn copy_into(&self, next: &ProbeTable) {
        for (i, slot) in self.slots.iter().enumerate() {
            let word = slot.load(Ordering::Relaxed);
            if word != 0 {
                let home = (i.wrapping_sub(distance_of(word))) & self.mask();
                let h = ((word >> HIGH_SHIFT) << self.bits) | home as u64;
                next.insert(h, code_of(word));
            }
        }
    }
}

/// The distance from home stored in `word`.
#[inline]
fn distance_of(word: u64) -> usize {
    ((word >> ACTION_BITS) & ((1 << DISTANCE_BITS) - 1)) as usize
}

/// The answer's code stored in `word`.
#[inline]
fn code_of(word: u64) -> u16 {
    (word & ((1 << ACTION_BITS) - 1)) as u16
}

/// Asks the kernel to back `slots` with huge pages where it can: random reads over 64 MiB of
/// 4 KiB pages miss the TLB at nearly every read, over 2 MiB pages they do not.
fn huge_pages(slots: &[AtomicU64]) {
    #[cfg(all(feature = "memory-hints", target_os = "linux"))]
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
    #[cfg(not(all(feature = "memory-hints", target_os = "linux")))]
    let _ = slots;
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

/// An action as a non-zero 10-bit code: a kind (1..=9, four bits) and up to two characters
/// (three bits each).
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
    kind | (a << 4) | (b << 7)
}

/// The action of a code made by [`encode`].
fn decode(code: u16) -> Action {
    let c = |shift: u16| Character::ALL[usize::from((code >> shift) & 0x7)];
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
            giver: c(7),
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
            assert!(encode(action) < 1 << ACTION_BITS, "{action:?}");
            assert_eq!(decode(encode(action)), action);
        }
    }

    #[test]
    fn keys_that_share_a_home_keep_their_own_answers() {
        let table = ProbeTable::new(GENERATIONS[0]);
        // Mixed keys with the same low bits: one home slot, told apart by the rest.
        let same_home: Vec<u64> = (0..5u64).map(|k| 12345 | (k << 40)).collect();
        let codes = [1, 3, 4 | (2 << 4), 9, 8 | (5 << 4) | (1 << 7)];
        for (&h, code) in same_home.iter().zip(codes) {
            assert_eq!(table.get(h), None);
            table.insert(h, code);
            table.insert(h, 7);
        }
        for (&h, code) in same_home.iter().zip(codes) {
            assert_eq!(table.get(h), Some(code), "{h:x}");
        }
        assert_eq!(table.len.load(Ordering::Relaxed), 5);
        assert_eq!(table.get(12345 | (9 << 40)), None);
    }

    #[test]
    fn a_growing_table_keeps_every_answer() {
        let answers = AnswerTable::default();
        let action = |key: u64| match key % 3 {
            0 => Action::Stop,
            1 => Action::Roll(Character::ALL[(key % 6) as usize]),
            _ => Action::Aid {
                patient: Character::ALL[(key % 5) as usize],
                giver: Character::ALL[(key % 4) as usize],
            },
        };
        // Past half the first table: the answers move to the second.
        let keys: Vec<u64> = (0..200_000u64)
            .map(|k| k.wrapping_mul(0x2545_f491_4f6c_dd1d))
            .collect();
        for &key in &keys {
            answers.insert(key, action(key));
        }
        assert_eq!(answers.current.load(Ordering::Relaxed), 1);
        assert_eq!(answers.len(), keys.len());
        for &key in &keys {
            assert_eq!(answers.get(key), Some(action(key)), "{key}");
        }
        assert_eq!(answers.get(1), None);
    }

    #[test]
    fn mixing_is_a_bijection_on_a_sample() {
        let mut seen = std::collections::HashSet::new();
        for key in 0..100_000u64 {
            assert!(seen.insert(mix(key.wrapping_mul(0x1234_5678_9abc_def1))));
        }
    }
}
