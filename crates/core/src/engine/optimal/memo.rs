//! Where the optimal engine keeps what it has computed: run and finale positions in dense
//! tables indexed by their roles ([`canon::roles`]), recruitment positions in a hash map keyed
//! by their canonical form ([`key::solver_key`]).
//!
//! Most positions of a solve are in the run and the finale (at stealth 10, 85 %). There the
//! team is fixed, so a position is a handful of small integers — team shape, step, finale
//! slot, slot healths, stealth — and its value sits at a computed offset: no hashing, no
//! probing, eight bytes a position, and neighbours (the same task at another stealth or
//! health) close together. Phase 1 carries complications, whose classes are too irregular for
//! a dense index, and keeps the hash map.
//!
//! Layout: one *chunk* per (team shape, step, first aid pending); inside it one *row* per
//! stealth, allocated when its first value is stored, so a solve at a higher stealth adds rows
//! and nothing moves — which also lets threads fill the table side by side (values are
//! stored as the bits of an `f64` in relaxed atomics; the hashed part is sharded behind
//! locks).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use rustc_hash::FxHashMap;

use crate::game::canon::{self, Roles};
use crate::game::{MAX_STEALTH, State, key};

use crate::rules::Rules;

/// Where a position's value lives in a [`Memo`] (also a key for sparse maps of large values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemoAddress {
    /// Entry `index` of the row for `stealth` in chunk `chunk`.
    Dense {
        /// The chunk: team shape, step and pending first aid.
        chunk: u32,
        /// The position's stealth.
        stealth: u8,
        /// The offset inside the row: finale slot and slot healths.
        index: u32,
        /// The row's length (all finale slots and slot healths of the chunk's team shape).
        width: u32,
    },
    /// The hash map, under this canonical key.
    Hashed(u64),
}

impl MemoAddress {
    /// The address of the same position at `stealth`.
    #[inline]
    pub fn at_stealth(self, stealth: u8) -> MemoAddress {
        match self {
            MemoAddress::Dense {
                chunk,
                index,
                width,
                ..
            } => MemoAddress::Dense {
                chunk,
                stealth,
                index,
                width,
            },
            MemoAddress::Hashed(key) => MemoAddress::Hashed(key::with_stealth(key, stealth)),
        }
    }

    /// The position's stealth.
    #[inline]
    pub fn stealth(self) -> u8 {
        match self {
            MemoAddress::Dense { stealth, .. } => stealth,
            MemoAddress::Hashed(key) => key::stealth_of(key),
        }
    }
}

/// A value is stored as its bits XOR these, the bits of NaN, which no win probability is: an
/// entry of zero bits is "not computed yet", so a row is allocated zeroed, and pages of a row
/// that nothing is written to never take memory.
const NAN_BITS: u64 = 0x7ff8_0000_0000_0000;

/// "Not computed yet".
const EMPTY: u64 = 0;

/// A row of values: one stealth of one chunk, allocated when its first value is stored.
type StealthRow = OnceLock<Box<[AtomicU64]>>;

/// Shards of the hashed part: enough that threads rarely wait on the same lock.
const SHARDS: usize = 64;

/// Optimal values of positions, dense where the position allows it (see the module
/// documentation), safe to read and fill from many threads at once.
///
/// Every stored value is a fixed function of the position (the solver sums and maximises in
/// an order that relabelling cannot change), so two threads that race to fill one entry store
/// the same bits, and relaxed atomics are enough.
#[derive(Debug)]
pub struct Memo {
    /// Per chunk, its rows by stealth (the row table itself allocated on first use).
    chunks: Box<[OnceLock<Box<[StealthRow]>>]>,
    hashed: Box<[Mutex<FxHashMap<u64, f64>>]>,
    /// The hashed values once [`Memo::freeze`] moved them here: read by every thread without
    /// a lock (a lock, even one no other thread holds, moves its cache line between the
    /// threads at every read). Values stored later go to `hashed`.
    frozen: OnceLock<FxHashMap<u64, f64>>,
    len: AtomicUsize,
}

impl Default for Memo {
    fn default() -> Self {
        Memo {
            chunks: (0..canon::DENSE_CHUNKS).map(|_| OnceLock::new()).collect(),
            hashed: (0..SHARDS)
                .map(|_| Mutex::new(FxHashMap::default()))
                .collect(),
            frozen: OnceLock::new(),
            len: AtomicUsize::new(0),
        }
    }
}

impl Clone for Memo {
    fn clone(&self) -> Self {
        let copy_row = |row: &StealthRow| {
            let copy = StealthRow::new();
            if let Some(values) = row.get() {
                let values: Box<[AtomicU64]> = values
                    .iter()
                    .map(|v| AtomicU64::new(v.load(Ordering::Relaxed)))
                    .collect();
                copy.set(values).expect("a new cell is empty");
            }
            copy
        };
        let chunks = self
            .chunks
            .iter()
            .map(|chunk| {
                let copy = OnceLock::new();
                if let Some(rows) = chunk.get() {
                    copy.set(rows.iter().map(copy_row).collect())
                        .expect("a new cell is empty");
                }
                copy
            })
            .collect();
        Memo {
            chunks,
            hashed: self
                .hashed
                .iter()
                .map(|shard| Mutex::new(lock(shard).clone()))
                .collect(),
            frozen: self.frozen.clone(),
            len: AtomicUsize::new(self.len()),
        }
    }
}

/// A shard's map, whatever a panicking thread left behind (values are never half-written).
fn lock(shard: &Mutex<FxHashMap<u64, f64>>) -> std::sync::MutexGuard<'_, FxHashMap<u64, f64>> {
    shard.lock().unwrap_or_else(|e| e.into_inner())
}

/// The shard of a hashed key.
#[inline]
fn shard(key: u64) -> usize {
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58) as usize % SHARDS
}

/// Where `state`'s value lives in a [`Memo`]: equal addresses exactly for positions of one
/// canonical class.
#[inline]
pub fn address(state: &State, rules: &Rules) -> MemoAddress {
    match canon::roles(state).and_then(|roles| dense_address(state, &roles)) {
        Some(address) => address,
        None => MemoAddress::Hashed(key::solver_key(state, rules)),
    }
}

impl Memo {
    /// The value stored at `address`, if any.
    #[inline]
    pub fn get(&self, address: MemoAddress) -> Option<f64> {
        match address {
            MemoAddress::Dense {
                chunk,
                stealth,
                index,
                ..
            } => {
                let rows = self.chunks[chunk as usize].get()?;
                let row = rows[usize::from(stealth)].get()?;
                let bits = row[index as usize].load(Ordering::Relaxed);
                (bits != EMPTY).then(|| f64::from_bits(bits ^ NAN_BITS))
            }
            MemoAddress::Hashed(key) => match self.frozen.get().and_then(|f| f.get(&key)) {
                Some(&value) => Some(value),
                None => lock(&self.hashed[shard(key)]).get(&key).copied(),
            },
        }
    }

    /// Moves the hashed values where every thread reads them without a lock: for a table
    /// about to be read by many threads at once and seldom filled further (a finished solve
    /// that games are sampled from). Only the first call moves anything; each value stays the
    /// same bits wherever it is kept.
    pub fn freeze(&self) {
        if self.frozen.get().is_some() {
            return;
        }
        let mut all = FxHashMap::default();
        for shard in &self.hashed {
            all.extend(lock(shard).drain());
        }
        if let Err(all) = self.frozen.set(all) {
            // Another thread froze first: these go back where they were.
            for (key, value) in all {
                lock(&self.hashed[shard(key)]).insert(key, value);
            }
        }
    }

    /// Stores `value` at `address`.
    #[inline]
    pub fn insert(&self, address: MemoAddress, value: f64) {
        if self.store(address, value) {
            self.counted(1);
        }
    }

    /// Stores `value` at `address` without counting it; whether the entry was new. For a
    /// thread storing a layer of values, which counts them once ([`Memo::counted`]): a count
    /// shared by every thread and bumped per value bounces between their caches.
    #[inline]
    pub fn store(&self, address: MemoAddress, value: f64) -> bool {
        debug_assert!(!value.is_nan(), "NaN marks an empty entry");
        match address {
            MemoAddress::Dense {
                chunk,
                stealth,
                index,
                width,
            } => {
                let rows = self.chunks[chunk as usize]
                    .get_or_init(|| (0..=MAX_STEALTH).map(|_| StealthRow::new()).collect());
                let row = rows[usize::from(stealth)]
                    .get_or_init(|| bytemuck::allocation::zeroed_slice_box(width as usize));
                let bits = value.to_bits() ^ NAN_BITS;
                row[index as usize].swap(bits, Ordering::Relaxed) == EMPTY
            }
            MemoAddress::Hashed(key) => {
                !self.frozen.get().is_some_and(|f| f.contains_key(&key))
                    && lock(&self.hashed[shard(key)]).insert(key, value).is_none()
            }
        }
    }

    /// Counts `n` new values stored by [`Memo::store`].
    pub fn counted(&self, n: usize) {
        self.len.fetch_add(n, Ordering::Relaxed);
    }

    /// The number of positions stored.
    pub fn len(&self) -> usize {
        self.len.load(Ordering::Relaxed)
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The dense address of a run or finale position with roles `roles`.
#[inline]
fn dense_address(state: &State, roles: &Roles) -> Option<MemoAddress> {
    canon::dense_class(state, roles).map(|class| MemoAddress::Dense {
        chunk: class.chunk,
        stealth: state.stealth(),
        index: class.index,
        width: class.width,
    })
}

/// Which of the positions a solve computes the solver's table keeps: a table that will be
/// asked about any position keeps them all; a one-shot solve keeps only what its parts read
/// of each other, a small fraction of the memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Every memoised position: for tables asked about positions afterwards (options, the
    /// optimal strategy, the advisor, the regret decomposition).
    Everything,
    /// Only the positions at the boundaries between a solve's parts, where one part reads
    /// another's values: the finale's first positions, which the run reads, and the run's,
    /// which phase 1 reads. Within a part, positions are read from the layers being
    /// replayed, never from the table, so what no other part reads is dropped with its layer.
    /// A later question about another position is answered by a part filled from it down to
    /// the boundary positions it reaches.
    PartBoundaries,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frozen_values_read_the_same_and_count_once() {
        let memo = Memo::default();
        for key in 0..1000u64 {
            memo.insert(MemoAddress::Hashed(key), key as f64 / 1000.0);
        }
        assert_eq!(memo.len(), 1000);
        memo.freeze();
        for key in 0..1000u64 {
            let value = memo.get(MemoAddress::Hashed(key)).expect("kept");
            assert_eq!(value.to_bits(), (key as f64 / 1000.0).to_bits());
        }
        // A value met again is not new; one never met is, and reads back from the shards.
        memo.insert(MemoAddress::Hashed(7), 0.007);
        memo.insert(MemoAddress::Hashed(5000), 0.5);
        assert_eq!(memo.len(), 1001);
        assert_eq!(memo.get(MemoAddress::Hashed(5000)), Some(0.5));
        assert_eq!(memo.get(MemoAddress::Hashed(6000)), None);
        // A second freeze moves nothing and loses nothing; a copy reads alike.
        memo.freeze();
        let copy = memo.clone();
        for key in [0, 7, 999, 5000] {
            assert_eq!(
                copy.get(MemoAddress::Hashed(key)),
                memo.get(MemoAddress::Hashed(key))
            );
        }
        assert_eq!(copy.len(), 1001);
    }
}
