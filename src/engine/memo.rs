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
//! Layout: one *chunk* per (team shape, step, first aid pending); inside it, stealth is the
//! outermost axis, so a chunk grows at its end when a higher stealth is solved and nothing
//! moves.

use rustc_hash::FxHashMap;

use crate::game::canon::{self, Roles};
use crate::game::{Aid, RUN_CHALLENGES, State, Step, TOUGH_CHALLENGES};

use super::key;

/// A value a [`Memo`] can hold, with a marker for "not computed yet" that no real value takes.
pub trait Stored: Copy {
    /// The marker.
    const EMPTY: Self;
    /// Whether `self` is the marker.
    fn is_empty(&self) -> bool;
}

impl Stored for f64 {
    const EMPTY: f64 = f64::NAN;
    #[inline]
    fn is_empty(&self) -> bool {
        self.is_nan()
    }
}

/// Where a position's value lives in a [`Memo`] (also a key for sparse maps of large values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// Entry `index` of chunk `chunk`.
    Dense {
        /// The chunk: team shape, step and pending first aid.
        chunk: u32,
        /// The offset inside it.
        index: u32,
    },
    /// The hash map, under this canonical key.
    Hashed(u64),
}

/// Values of positions, dense where the position allows it (see the module documentation).
#[derive(Clone, Debug)]
pub struct Memo<T> {
    chunks: Vec<Vec<T>>,
    hashed: FxHashMap<u64, T>,
    len: usize,
}

impl<T: Stored> Default for Memo<T> {
    fn default() -> Self {
        Memo {
            chunks: vec![Vec::new(); CHUNKS],
            hashed: FxHashMap::default(),
            len: 0,
        }
    }
}

/// Where `state`'s value lives in a [`Memo`]: equal places exactly for positions of one
/// canonical class.
#[inline]
pub fn place(state: &State) -> Place {
    match canon::roles(state).and_then(|roles| dense_place(state, &roles)) {
        Some(place) => place,
        None => Place::Hashed(key::solver_key(state)),
    }
}

impl<T: Stored> Memo<T> {
    /// The value stored at `place`, if any.
    #[inline]
    pub fn get(&self, place: Place) -> Option<T> {
        match place {
            Place::Dense { chunk, index } => self.chunks[chunk as usize]
                .get(index as usize)
                .copied()
                .filter(|v| !v.is_empty()),
            Place::Hashed(key) => self.hashed.get(&key).copied(),
        }
    }

    /// Stores `value` at `place`.
    #[inline]
    pub fn insert(&mut self, place: Place, value: T) {
        match place {
            Place::Dense { chunk, index } => {
                let chunk = &mut self.chunks[chunk as usize];
                let index = index as usize;
                if chunk.len() <= index {
                    // Amortised growth: a solve fills a chunk roughly in stealth order.
                    chunk.resize(index + 1, T::EMPTY);
                }
                if chunk[index].is_empty() {
                    self.len += 1;
                }
                chunk[index] = value;
            }
            Place::Hashed(key) => {
                if self.hashed.insert(key, value).is_none() {
                    self.len += 1;
                }
            }
        }
    }

    /// The number of positions stored.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The number of roles a check type can have: no specialist, or slot 0..=3.
const TYPE_ROLES: usize = 5;
const RUNS: usize = RUN_CHALLENGES as usize;
const TOUGHS: usize = TOUGH_CHALLENGES as usize;
// Step codes, one range per kind of step (see `step_code`).
const RUN_TYPE: usize = 0;
const RUN: usize = RUN_TYPE + RUNS;
const CHOOSE_FINALE: usize = RUN + RUNS * TYPE_ROLES;
const SIDE_TYPES: usize = CHOOSE_FINALE + 1;
const FIRST_SIDE: usize = SIDE_TYPES + TOUGHS;
const SECOND_SIDE: usize = FIRST_SIDE + TOUGHS * TYPE_ROLES * TYPE_ROLES;
const TOUGH: usize = SECOND_SIDE + TOUGHS * 2 * TYPE_ROLES;
const SUBSTITUTE: usize = TOUGH + TOUGHS * 3;
const STEPS: usize = SUBSTITUTE + TOUGHS * 3;
const CHUNKS: usize = Roles::FORMS * STEPS * 2;

/// The step as a code below [`STEPS`], check types read through their roles; `None` for
/// steps that are not memoised or fields out of the ranges above.
#[inline]
fn step_code(step: Step, roles: &Roles) -> Option<usize> {
    let role = |c: crate::game::Character| usize::from(roles.type_role[c.index()]);
    let within = |x: u8, n: usize| (usize::from(x) < n).then_some(usize::from(x));
    Some(match step {
        Step::RunType { challenge } => RUN_TYPE + within(challenge, RUNS)?,
        Step::Run { challenge, ty } => RUN + within(challenge, RUNS)? * TYPE_ROLES + role(ty),
        Step::ChooseFinale => CHOOSE_FINALE,
        Step::SideTypes { tough } => SIDE_TYPES + within(tough, TOUGHS)?,
        Step::Side {
            tough,
            types,
            index: 0,
            successes: 0,
        } => {
            FIRST_SIDE
                + (within(tough, TOUGHS)? * TYPE_ROLES + role(types[0])) * TYPE_ROLES
                + role(types[1])
        }
        Step::Side {
            tough,
            types,
            index: 1,
            successes,
        } => {
            SECOND_SIDE
                + (within(tough, TOUGHS)? * 2 + within(successes, 2)?) * TYPE_ROLES
                + role(types[1])
        }
        Step::Tough { tough, successes } => {
            TOUGH + within(tough, TOUGHS)? * 3 + within(successes, 3)?
        }
        Step::Substitute { tough, successes } => {
            SUBSTITUTE + within(tough, TOUGHS)? * 3 + within(successes, 3)?
        }
        _ => return None,
    })
}

/// The dense place of a run or finale position with roles `roles`.
#[inline]
fn dense_place(state: &State, roles: &Roles) -> Option<Place> {
    let open = match state.aid() {
        Aid::None => 0,
        Aid::Open => 1,
        Aid::Check { .. } => return None,
    };
    let code = step_code(state.step(), roles)?;
    let chunk = (usize::from(roles.form) * STEPS + code) * 2 + open;
    let members = usize::from(roles.members);
    let healths = 1usize << (2 * members);
    let index = (usize::from(state.stealth()) * members + usize::from(roles.finale)) * healths
        + usize::from(roles.healths);
    Some(Place::Dense {
        chunk: chunk as u32,
        index: index as u32,
    })
}
