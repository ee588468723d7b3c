//! The one instruction language of the layered engines: a position compiled, for a stealth
//! class, into the expression between it and the memoised positions it leads to, then
//! replayed at every stealth of the class without stepping the state machine again.
//!
//! A strategy's compiler ([`mod@super::exact`]) and the solver's ([`super::optimal`]) both
//! emit [`Op`]s into a [`Program`] per stealth class, each evaluating them over its own kind of
//! value; the regret decomposition runs the strategy's program backwards.
//!
//! Why classes: the rules read stealth only as "discovered or not" and change it by one point
//! a roll at most (R2), so a position plays alike at every stealth from
//! [`crate::game::canon::ALIKE_FROM_STEALTH`] up, each successor the same number of points
//! higher. A program of that class is replayed layer by layer, its reads a point lower
//! ([`Op::Below`]) going one layer down, and at the class's own (lowest) stealth into the
//! program of the class below.

use rustc_hash::FxHashMap;

use crate::game::State;

/// No position: the `same` of an [`Op::Below`] outside a replayed class, a placeholder's id.
pub(super) const NONE: u32 = u32::MAX;

/// The `w` of an instruction that is not a term of a sum.
pub(super) const NO_WEIGHT: u16 = u16::MAX;

/// One instruction of a compiled position, in prefix order: an operator, then its operands.
///
/// A term of a sum is a [`Op::Weight`] and an expression, or a read or a finished game that
/// carries its weight itself (`w`, [`NO_WEIGHT`] outside a sum): one instruction instead of two
/// for most terms ([`Program::push_term`]).
#[derive(Clone, Copy, Debug)]
pub(super) enum Op {
    /// A finished game, won or not: `end` indexes the compiler's finished games (their
    /// figures), if it keeps them.
    Over { w: u16, win: bool, end: u32 },
    /// The value of position `id` of this program at the same stealth.
    Here { w: u16, id: u32 },
    /// The value of a position one point lower: `lower` in the program of the class below
    /// when the compiled position is at the lowest stealth of its class, else `same` in this
    /// program one layer down ([`Reads::below`]). Where stealth 1 is replayed from the top
    /// class's program, the top class's `lower` names what a point lost onto stealth 0 leads
    /// to ([`crate::game::canon::one_lower`]).
    Below { w: u16, lower: u32, same: u32 },
    /// The stored value of a position solved before the solver's part being compiled
    /// (its slot in the part's addresses), `drop` points below; at stealth 1, what a point
    /// lost onto 0 leads to, `at_one` (or [`NONE`]) — as for [`Op::Below`]`::lower`.
    Table {
        w: u16,
        drop: u8,
        slot: u32,
        at_one: u32,
    },
    /// A decision of optimal play: the best of the `n` expressions that follow.
    Max(u8),
    /// A weighted sum of the `n` terms that follow; in order of their values when `by_value`
    /// (outcomes that name characters, so that the relabellings of a position agree).
    Sum { n: u8, by_value: bool },
    /// The weight of the term that follows: [`Weights`]`[.0]`.
    Weight(u16),
    /// A strategy's decision (its index in the compiler's list), met where the expression that
    /// follows is: adds nothing to a value; the reverse pass reports its probability of being
    /// reached.
    Local(u32),
}

/// Instructions stay small: a program holds tens of them per position.
const _: () = assert!(std::mem::size_of::<Op>() <= 12);

/// The weight of the term that begins at `ops[*at]`, stepping past its [`Op::Weight`] if it
/// has one (a read or a finished game carries its own).
#[inline]
pub(super) fn term_weight(ops: &[Op], at: &mut usize) -> u16 {
    match ops[*at] {
        Op::Weight(w) => {
            *at += 1;
            w
        }
        Op::Over { w, .. } | Op::Here { w, .. } | Op::Below { w, .. } | Op::Table { w, .. } => w,
        Op::Max(_) | Op::Sum { .. } | Op::Local(_) => unreachable!("a weight opens every term"),
    }
}

/// The few distinct probabilities of a compiler's sums, each once: an instruction names one
/// by a 16-bit index.
pub(super) struct Weights {
    list: Vec<f64>,
    ids: FxHashMap<u64, u16>,
    /// The index of a probability met before, in a slot picked by a few of its bits: every
    /// term of every sum asks for one, and a slot compared costs less than a hash looked up.
    recent: [(u64, u16); RECENT],
}

/// Slots of [`Weights::recent`]; a probability whose slot another holds is found in the map.
const RECENT: usize = 64;

/// An empty slot of [`Weights::recent`]: a NaN, never a probability's bits.
const NO_BITS: u64 = u64::MAX;

impl Default for Weights {
    fn default() -> Self {
        Weights {
            list: Vec::new(),
            ids: FxHashMap::default(),
            recent: [(NO_BITS, 0); RECENT],
        }
    }
}

impl Weights {
    /// The index of `p`, added if new.
    #[inline]
    pub(super) fn id(&mut self, p: f64) -> u16 {
        let bits = p.to_bits();
        let slot = (bits.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58) as usize;
        let (seen, id) = self.recent[slot];
        if seen == bits {
            return id;
        }
        let id = self.interned(bits);
        self.recent[slot] = (bits, id);
        id
    }

    /// The index of the probability whose bits are `bits`, added if new.
    #[cold]
    fn interned(&mut self, bits: u64) -> u16 {
        let next = self.list.len() as u16;
        let id = *self.ids.entry(bits).or_insert(next);
        if id == next {
            assert!(id < NO_WEIGHT, "a handful of distinct probabilities");
            self.list.push(f64::from_bits(bits));
        }
        id
    }

    /// Every weight, by index.
    pub(super) fn list(&self) -> &[f64] {
        &self.list
    }

    /// Frees the index by probability: nothing is added after compiling.
    pub(super) fn compiled(&mut self) {
        self.ids = FxHashMap::default();
    }
}

impl std::ops::Index<u16> for Weights {
    type Output = f64;

    #[inline]
    fn index(&self, w: u16) -> &f64 {
        &self.list[usize::from(w)]
    }
}

/// A memoised successor met while compiling a position: the placeholder read of it
/// ([`Program::push_read`], filled in by [`Program::fill_read`] once it is known where its value
/// comes from), the position, and whether its second side type is still to be rolled (R12).
pub(super) struct Leaf {
    pub(super) op: usize,
    pub(super) state: State,
    pub(super) pending: bool,
}

/// The compiled positions of one stealth class: their instructions, by local id the span of
/// each position's, and the order in which their values can be computed.
#[derive(Default)]
pub(super) struct Program {
    pub(super) ops: Vec<Op>,
    /// By local id, where the position's instructions begin and end in `ops`.
    pub(super) spans: Vec<(u32, u32)>,
    /// Local ids in the order their values can be computed: successors first, as compiled.
    pub(super) order: Vec<u32>,
}

impl Program {
    /// A new position's local id; its instructions follow ([`Program::finish`]).
    pub(super) fn begin(&mut self) -> u32 {
        self.spans.push((0, 0));
        self.spans.len() as u32 - 1
    }

    /// Position `id`'s instructions are `ops[start..end]`, and every position it reads in its
    /// own layer is finished.
    pub(super) fn finish(&mut self, id: u32, start: usize, end: usize) {
        self.spans[id as usize] = (start as u32, end as u32);
        self.order.push(id);
    }

    /// Position `id`'s instructions.
    #[inline]
    pub(super) fn ops_of(&self, id: u32) -> &[Op] {
        let (start, end) = self.spans[id as usize];
        &self.ops[start as usize..end as usize]
    }

    /// Pushes a sum of `n` terms.
    pub(super) fn push_sum(&mut self, n: usize, by_value: bool) {
        let n = u8::try_from(n).expect("a sum of at most 255 terms");
        self.ops.push(Op::Sum { n, by_value });
    }

    /// Pushes the weight of the next term: an [`Op::Weight`], folded into the term by
    /// [`Program::push_term`] if it is a read or a finished game.
    pub(super) fn push_weight(&mut self, w: u16) {
        self.ops.push(Op::Weight(w));
    }

    /// Pushes a read or a finished game, `make` given its weight: the weight just pushed if it
    /// opens a term of a sum (folded in), else [`NO_WEIGHT`]. Returns its index.
    pub(super) fn push_term(&mut self, make: impl FnOnce(u16) -> Op) -> usize {
        let w = match self.ops.last() {
            Some(&Op::Weight(w)) => {
                self.ops.pop();
                w
            }
            _ => NO_WEIGHT,
        };
        self.ops.push(make(w));
        self.ops.len() - 1
    }

    /// Pushes a placeholder read of `state`, noted in `leaves` to be filled in.
    pub(super) fn push_read(&mut self, state: &State, pending: bool, leaves: &mut Vec<Leaf>) {
        let op = self.push_term(|w| Op::Here { w, id: NONE });
        leaves.push(Leaf {
            op,
            state: *state,
            pending,
        });
    }

    /// Replaces the placeholder read at `ops[at]` by `read`, with the placeholder's weight.
    pub(super) fn fill_read(&mut self, at: usize, read: Op) {
        let Op::Here { w, id: NONE } = self.ops[at] else {
            unreachable!("a read's placeholder")
        };
        self.ops[at] = match read {
            Op::Here { id, .. } => Op::Here { w, id },
            Op::Below { lower, same, .. } => Op::Below { w, lower, same },
            Op::Table {
                drop, slot, at_one, ..
            } => Op::Table {
                w,
                drop,
                slot,
                at_one,
            },
            _ => unreachable!("a read"),
        };
    }

    /// Each position's level: one above the highest level of a position it reads in its own
    /// layer ([`Op::Here`]), 0 if none. The positions of one level read none of each other.
    pub(super) fn levels(&self) -> Vec<u32> {
        let mut level = vec![0u32; self.spans.len()];
        for &id in &self.order {
            level[id as usize] = (self.ops_of(id).iter())
                .filter_map(|op| match *op {
                    Op::Here { id, .. } => Some(level[id as usize] + 1),
                    _ => None,
                })
                .max()
                .unwrap_or(0);
        }
        level
    }

    /// Lays the instructions out in `ops` (an empty buffer) in the order `order` lists the
    /// positions, each instruction through `map` (a renumbering), and returns the buffer they
    /// leave. Compiling appends a position's instructions before those of the successors it
    /// meets first, which the replay computes first: a layer would jump about the instructions
    /// (a cache miss a position) instead of streaming through them.
    pub(super) fn lay_out(
        &mut self,
        order: &[u32],
        mut ops: Vec<Op>,
        map: impl Fn(Op) -> Op,
    ) -> Vec<Op> {
        ops.reserve(self.ops.len());
        for &id in order {
            let (start, end) = self.spans[id as usize];
            let from = ops.len() as u32;
            ops.extend(
                self.ops[start as usize..end as usize]
                    .iter()
                    .map(|&op| map(op)),
            );
            self.spans[id as usize] = (from, ops.len() as u32);
        }
        std::mem::replace(&mut self.ops, ops)
    }

    /// Empties the program, keeping its buffers.
    pub(super) fn clear(&mut self) {
        self.ops.clear();
        self.spans.clear();
        self.order.clear();
    }
}

/// What a replayed layer reads: the values (of type `T`) of the layer so far, by local id, and
/// those of the layer below.
pub(super) struct Reads<'l, T> {
    pub(super) here: &'l [T],
    pub(super) below: &'l [T],
    /// Whether `below` is the class below's (read through [`Op::Below`]`::lower`) rather than
    /// this program one point lower (`same`).
    pub(super) below_is_lower: bool,
}

impl<T> Reads<'_, T> {
    /// The value an [`Op::Below`] reads.
    #[inline]
    pub(super) fn below(&self, lower: u32, same: u32) -> &T {
        &self.below[(if self.below_is_lower { lower } else { same }) as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// More probabilities than [`Weights::recent`] has slots, asked for again and again in
    /// another order: each keeps the index it was given first, and the index names it.
    #[test]
    fn a_weight_keeps_its_index_whatever_shares_its_slot() {
        let mut weights = Weights::default();
        let ps: Vec<f64> = (1..=3 * RECENT).map(|k| 1.0 / k as f64).collect();
        for (i, &p) in ps.iter().enumerate() {
            assert_eq!(usize::from(weights.id(p)), i);
        }
        for round in 0..3 {
            for (i, &p) in ps.iter().enumerate().rev().skip(round) {
                let id = weights.id(p);
                assert_eq!(usize::from(id), i, "{p}");
                assert_eq!(weights[id].to_bits(), p.to_bits());
            }
        }
        assert_eq!(weights.list().len(), ps.len());
    }

    /// Position 0 is a finished game, 1 reads 0, 2 sums 0 and 1; 2's instructions first.
    fn program() -> Program {
        let ops = vec![
            Op::Sum {
                n: 2,
                by_value: false,
            },
            Op::Here { w: 0, id: 0 },
            Op::Here { w: 1, id: 1 },
            Op::Here {
                w: NO_WEIGHT,
                id: 0,
            },
            Op::Over {
                w: NO_WEIGHT,
                win: true,
                end: 0,
            },
        ];
        Program {
            ops,
            spans: vec![(4, 5), (3, 4), (0, 3)],
            order: vec![0, 1, 2],
        }
    }

    fn listed(ops: &[Op]) -> Vec<String> {
        ops.iter().map(|op| format!("{op:?}")).collect()
    }

    #[test]
    fn a_position_is_a_level_above_what_it_reads() {
        assert_eq!(program().levels(), vec![0, 1, 2]);
    }

    #[test]
    fn laying_out_streams_the_positions_in_order_with_the_same_instructions() {
        let mut p = program();
        let before: Vec<_> = (0..3).map(|id| listed(p.ops_of(id))).collect();
        let order = p.order.clone();
        p.lay_out(&order, Vec::new(), |op| op);
        assert_eq!(p.spans, vec![(0, 1), (1, 2), (2, 5)]);
        for id in 0..3 {
            assert_eq!(listed(p.ops_of(id)), before[id as usize]);
        }
    }

    #[test]
    fn a_weight_folds_into_the_read_that_follows_it() {
        let mut p = Program::default();
        let mut leaves = Vec::new();
        p.push_sum(2, false);
        p.push_weight(3);
        p.push_read(&State::new(4), false, &mut leaves);
        p.push_weight(5);
        p.push_sum(1, false);
        assert_eq!(p.ops.len(), 4, "a weight before a sum stays an instruction");
        let read = Op::Below {
            w: NO_WEIGHT,
            lower: 7,
            same: NONE,
        };
        p.fill_read(leaves[0].op, read);
        assert!(matches!(p.ops[1], Op::Below { w: 3, lower: 7, .. }));
        let mut at = 1;
        assert_eq!(term_weight(&p.ops, &mut at), 3);
        assert_eq!(at, 1, "a folded term is read where it is");
        let mut at = 2;
        assert_eq!(term_weight(&p.ops, &mut at), 5);
        assert_eq!(at, 3);
    }
}
