//! The values of a decision's options kept by canonical class: what the regret
//! decomposition and the optimal strategy ask of the solver again and again. A strategy's
//! games meet the same class under many labellings, and working the options out from the
//! table costs each option's successors up to the memoised positions, each canonicalised and
//! looked up; a kept class costs one canonical form and one lookup.
//!
//! Values are kept in the representative's labels ([`canon::canonical_labelled`]) and order
//! (its own [`State::actions`]), and carried back to the position's own options, in its own
//! order: the same list, the same bits, as worked out afresh (the solver's values do not
//! depend on labels).

use std::hash::BuildHasher;
use std::sync::{Mutex, MutexGuard};

use rustc_hash::{FxBuildHasher, FxHashMap};

use crate::game::{Action, State, canon, key};
use crate::rules::Rules;

/// Shards of a [`Sharded`] map.
const SHARDS: usize = 64;

/// The most entries of a [`Sharded`] map by default: four million (the option values of a
/// class are about 100 bytes: a few hundred MB at most).
const MAX_ENTRIES: usize = 1 << 22;

/// A map by packed position ([`key::rules_key`]) in shards behind locks, so that threads
/// rarely wait on one; bounded ([`Sharded::bounded`]): beyond the bound, nothing more is
/// kept. A cache: cloning it gives an empty one with the same bound.
#[derive(Debug)]
pub(super) struct Sharded<V> {
    shards: Box<[PaddedShard<V>]>,
    max_per_shard: usize,
}

/// One shard, on a cache line of its own (threads locking neighbouring shards do not
/// contend for the line).
#[derive(Debug, Default)]
#[repr(align(64))]
struct PaddedShard<V>(Mutex<FxHashMap<u64, V>>);

impl<V> Default for Sharded<V> {
    fn default() -> Self {
        Sharded::bounded(MAX_ENTRIES)
    }
}

impl<V> Clone for Sharded<V> {
    fn clone(&self) -> Self {
        Sharded::bounded(self.max_per_shard * SHARDS)
    }
}

impl<V> Sharded<V> {
    /// An empty map that keeps at most about `max_entries` entries.
    pub(super) fn bounded(max_entries: usize) -> Self {
        Sharded {
            shards: (0..SHARDS).map(|_| PaddedShard(Mutex::default())).collect(),
            max_per_shard: max_entries.div_ceil(SHARDS),
        }
    }

    fn shard(&self, key: u64) -> MutexGuard<'_, FxHashMap<u64, V>> {
        let hash = FxBuildHasher.hash_one(key);
        // Bits that the map inside the shard does not use: it indexes buckets by the low
        // bits and tags them with the top seven.
        let shard = &self.shards[(hash >> 40) as usize % SHARDS];
        shard.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What `read` makes of the entry for `key`, if there is one.
    pub(super) fn get<T>(&self, key: u64, read: impl FnOnce(&V) -> T) -> Option<T> {
        self.shard(key).get(&key).map(read)
    }

    /// Keeps `value` for `key`, unless the shard is full.
    pub(super) fn insert(&self, key: u64, value: V) {
        let mut shard = self.shard(key);
        if shard.len() < self.max_per_shard {
            shard.insert(key, value);
        }
    }
}

/// The option values of the classes met so far (see the module documentation).
#[derive(Clone, Debug, Default)]
pub(super) struct ClassOptions {
    values: Sharded<Box<[(Action, f64)]>>,
}

impl ClassOptions {
    /// The value of every legal option at decision point `state`, in [`State::actions`]
    /// order: kept for its class, or `work_out` (`None` passed through, nothing kept).
    pub(super) fn options(
        &self,
        state: &State,
        rules: &Rules,
        work_out: impl FnOnce() -> Option<Vec<(Action, f64)>>,
    ) -> Option<Vec<(Action, f64)>> {
        let (form, labels) = canon::canonical_labelled(state, rules);
        let class = key::rules_key(&form);
        let kept = self.values.get(class, |values| {
            state
                .actions(rules)
                .iter()
                .map(|&a| {
                    let theirs = labels.action(a);
                    let (_, v) = values
                        .iter()
                        .find(|(b, _)| *b == theirs)
                        .expect("relabelled options are the representative's");
                    (a, *v)
                })
                .collect()
        });
        if kept.is_some() {
            return kept;
        }
        let options = work_out()?;
        // Each option relabelled once, then put in the representative's order.
        let relabelled: Vec<(Action, f64)> = options
            .iter()
            .map(|&(a, v)| (labels.action(a), v))
            .collect();
        let canonical = form
            .actions(rules)
            .iter()
            .map(|&a| {
                *relabelled
                    .iter()
                    .find(|(b, _)| *b == a)
                    .expect("relabelled options are the representative's")
            })
            .collect();
        self.values.insert(class, canonical);
        Some(options)
    }
}
