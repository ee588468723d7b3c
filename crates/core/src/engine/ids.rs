//! Local ids of compiled positions by key, indexed densely: the key's shape (everything but
//! the members' health, [`key::split_health`]) is hashed, the members' health indexes a small
//! array of the shape. A layer of a labelled strategy holds millions of positions but an order
//! of magnitude fewer shapes, so the hashed part stays in cache, and the positions a compile
//! meets one after another — a wound apart — share a cache line, where a hash of every key
//! would scatter them over tens of megabytes (a cache miss per lookup).

use rustc_hash::FxHashMap;

use crate::game::key;

/// An empty slot.
pub(super) const NO_ID: u32 = u32::MAX;

/// Local ids by key; see the module documentation.
#[derive(Debug, Default)]
pub(super) struct Ids {
    /// The first slot of each shape in `slots`.
    shapes: FxHashMap<u128, u32>,
    /// Per shape, one slot per health of its members: a local id or [`NO_ID`].
    slots: Vec<u32>,
}

impl Ids {
    /// Where `key`'s slot is, made if need be: a table aligned with this one's slots
    /// ([`Ids::len`]) can hold more of a key's figures without hashing it again.
    #[inline]
    pub(super) fn index(&mut self, key: u128) -> usize {
        let split = key::split_health(key);
        let slots = &mut self.slots;
        let first = *self.shapes.entry(split.shape).or_insert_with(|| {
            let first = slots.len();
            slots.resize(first + split.size, NO_ID);
            u32::try_from(first).expect("fewer than 4 G slots")
        });
        first as usize + split.index
    }

    /// The slot at `index` ([`Ids::index`]).
    #[inline]
    pub(super) fn at(&mut self, index: usize) -> &mut u32 {
        &mut self.slots[index]
    }

    /// The number of slots made.
    pub(super) fn len(&self) -> usize {
        self.slots.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_keeps_the_id_it_was_given_and_others_stay_empty() {
        let mut ids = Ids::default();
        let health = |digit: u128| digit << 40;
        // A shape with one member (the Hacker, lowest digit) and five non-members (digit 4).
        let others: u128 = (1..6).map(|i| 4 * 11u128.pow(i)).sum::<u128>() << 40;
        let slot = |ids: &mut Ids, key: u128| {
            let index = ids.index(key);
            *ids.at(index)
        };
        for (n, h) in [2u128, 0, 3].into_iter().enumerate() {
            let index = ids.index(others | health(h));
            assert_eq!(*ids.at(index), NO_ID);
            *ids.at(index) = n as u32;
        }
        assert_eq!(slot(&mut ids, others | health(2)), 0);
        assert_eq!(slot(&mut ids, others | health(0)), 1);
        assert_eq!(slot(&mut ids, others | health(3)), 2);
        assert_eq!(slot(&mut ids, others | health(1)), NO_ID);
        assert_eq!(
            slot(&mut ids, others | health(1) | 7),
            NO_ID,
            "another shape"
        );
        assert_eq!(ids.slots.len(), 8, "two shapes of four slots each");
    }
}
