//! Values settled over a compiled program: layer by layer from the lowest, each layer swept in
//! place until a sweep changes nothing.
//!
//! Every value starts at 0 and a sweep only ever raises it (a sum or a maximum of values and
//! rewards with weights ≥ 0, rounding being monotone too), so the sweeps stop at a fixed point
//! of the rounded sweep: the least fixed point within rounding where play can return to a
//! position, the plain value in a layer it never returns to (there one sweep settles it, and
//! none is spent to confirm it).

use super::program::{CHANCE, END, Layer, NO_BLOCK, Place, Program, Ring};
use crate::games::Game;
use crate::par::*;
use std::ops::Range;

/// Settles optimal play's values over `program` (compiled keeping every option apart): the
/// best option at each decision, the sum at a chance point, end `e` worth `ends[e]`. Returns
/// them by id, and the sweeps spent.
pub(super) fn settle<G: Game>(program: &Program<G>, ends: &[f64]) -> (Vec<f64>, u64) {
    let mut values = vec![0.0f64; program.len()];
    let mut sweeps = 0u64;
    // Level after level shared out ([`on_pool`]).
    on_pool(|| {
        for (ids, once) in program.layers.iter().cloned() {
            if once && let Some(levels) = program.levels(ids.clone()) {
                for level in levels {
                    best_level(program, ends, &mut values, level);
                }
                sweeps += 1;
                continue;
            }
            // Apart for a program without blocks: there an id is its row.
            sweeps += if program.has_blocks() {
                sweep::<G, true>(program, ends, &mut values, ids, once)
            } else {
                sweep::<G, false>(program, ends, &mut values, ids, once)
            };
        }
    });
    (values, sweeps)
}

/// Settles optimal play's values at the ids of one level of a layer ([`settle_level`]).
fn best_level<G: Game>(program: &Program<G>, ends: &[f64], values: &mut [f64], level: Range<u32>) {
    let first = level.start as usize;
    settle_level(values, first, level, |settled, id| {
        best_value(program, ends, |i| settled.get(i), id)
    });
}

/// Settles the ids `level` of one level of a layer ([`Program::levels`]), which read none of
/// each other, their values the slots of `values` from `first` on, `value(settled, id)` being
/// `id`'s from those settled before: side by side where they are many. Each value is worked
/// out as it would be alone, so they are the same for any number of threads.
fn settle_level<V: Copy + Send + Sync>(
    values: &mut [V],
    first: usize,
    level: Range<u32>,
    value: impl Fn(&Settled<'_, V>, u32) -> V + Sync,
) {
    let (low, rest) = values.split_at_mut(first);
    let (here, high) = rest.split_at_mut(level.len());
    let settled = Settled {
        low,
        high,
        past: first + level.len(),
    };
    if level.len() < 2 * LEVEL_CHUNK {
        for (id, v) in level.zip(here) {
            *v = value(&settled, id);
        }
        return;
    }
    (here.par_chunks_mut(LEVEL_CHUNK).enumerate()).for_each(|(c, out)| {
        let start = level.start + (c * LEVEL_CHUNK) as u32;
        for (id, v) in (start..).zip(out) {
            *v = value(&settled, id);
        }
    });
}

/// The values a level reads while it settles ([`settle_level`]): every slot but its own.
struct Settled<'a, V> {
    low: &'a [V],
    high: &'a [V],
    /// The first slot past the level's.
    past: usize,
}

impl<V: Copy> Settled<'_, V> {
    #[inline(always)]
    fn get(&self, slot: u32) -> V {
        match (slot as usize).checked_sub(self.past) {
            Some(above) => self.high[above],
            None => self.low[slot as usize],
        }
    }
}

/// [`value_at`], the value of id `i` being `read(i)`.
#[inline(always)]
fn best_value<G: Game>(
    program: &Program<G>,
    ends: &[f64],
    read: impl Fn(u32) -> f64,
    id: u32,
) -> f64 {
    let place = program.place(id);
    if place.block == NO_BLOCK {
        value_by(program, ends, read, place.row, |t| program.target[t])
    } else {
        value_by(program, ends, read, place.row, |t| {
            program.block_target(place, t)
        })
    }
}

/// Settles several figures of a replay that sums a position's branches (a strategy's program,
/// or the solve's with the branch `only` names at each decision), a few in one pass over the
/// program: figure `k` values the ends as `ends[k]` does, and `reward(id, branch, k)` is what
/// the branch earns towards it (worked out where it is added, never stored). Returns each
/// figure's value at each start ([`Program::roots`]), by start.
///
/// Each figure's arithmetic is the one a pass of it alone does, in the same order, and a layer
/// is swept until none of the figures of the pass moves (a sweep that moves no value of a
/// figure moves none again), so each is bit for bit the figure settled alone: one pass reads a
/// term's weight and target once for all of its figures.
pub(super) fn settle_sums<G: Game>(
    program: &Program<G>,
    only: Option<&[u8]>,
    ends: &[Vec<f64>],
    reward: &(impl Fn(u32, usize, usize) -> f64 + Sync),
) -> Vec<Vec<f64>> {
    let mut start = vec![Vec::with_capacity(ends.len()); program.roots.len()];
    let sums = Sums {
        program,
        layers: &program.layers,
        only,
        ends,
        reward,
    };
    // More figures a pass read each term fewer times, but each keeps a value a slot of the
    // ring ([`Program::ring`]) while the pass runs, beside the program: four values a position
    // at most, about the room the compile's positions and their ids took and gave back before
    // the settle (eight figures a pass where the ring keeps half the positions' values or
    // fewer, four where all), and at least two figures a pass.
    let at_once = (4 * program.len() / program.ring().slots.max(1)).clamp(2, 8);
    let mut from = 0;
    // Level after level shared out ([`on_pool`]).
    on_pool(|| {
        while from < ends.len() {
            let n = at_once.min(ends.len() - from);
            let at: Vec<Vec<f64>> = match n {
                1 => sums.pass::<1>(from).iter().map(|v| v.to_vec()).collect(),
                2 => sums.pass::<2>(from).iter().map(|v| v.to_vec()).collect(),
                3 => sums.pass::<3>(from).iter().map(|v| v.to_vec()).collect(),
                4 => sums.pass::<4>(from).iter().map(|v| v.to_vec()).collect(),
                5 => sums.pass::<5>(from).iter().map(|v| v.to_vec()).collect(),
                6 => sums.pass::<6>(from).iter().map(|v| v.to_vec()).collect(),
                7 => sums.pass::<7>(from).iter().map(|v| v.to_vec()).collect(),
                _ => sums.pass::<8>(from).iter().map(|v| v.to_vec()).collect(),
            };
            for (start, v) in start.iter_mut().zip(at) {
                start.extend(v);
            }
            from += n;
        }
    });
    start
}

/// Ids a thread settles at a time where a level is settled side by side ([`Sums::level`]).
const LEVEL_CHUNK: usize = 1 << 11;

/// What [`settle_sums`] settles.
struct Sums<'a, G: Game, R> {
    program: &'a Program<G>,
    layers: &'a [Layer],
    only: Option<&'a [u8]>,
    ends: &'a [Vec<f64>],
    reward: &'a R,
}

impl<G: Game, R: Fn(u32, usize, usize) -> f64 + Sync> Sums<'_, G, R> {
    /// Figures `from..from + K`, settled in one pass: their values at each start.
    fn pass<const K: usize>(&self, from: usize) -> Vec<[f64; K]> {
        let p = self.program;
        let ends: [&[f64]; K] = std::array::from_fn(|k| self.ends[from + k].as_slice());
        // Only the starts' values are wanted: a block's values are kept while a block above
        // may read them, in a ring.
        let ring = p.ring();
        let mut values = vec![[0.0f64; K]; ring.slots];
        let roots: Vec<Place> = p.roots.iter().map(|&id| p.place(id)).collect();
        let mut at_roots = vec![[0.0f64; K]; roots.len()];
        for (ids, once) in self.layers {
            match p.levels(ids.clone()).filter(|_| *once) {
                Some(levels) => {
                    for level in levels {
                        self.level(&mut values, &ends, from, ring, level);
                    }
                }
                None => self.sweep(&mut values, &ends, from, ring, ids.clone(), *once),
            }
            // The starts of a block are read before a lower block takes its slots.
            let block = p.place(ids.start).block;
            for ((&id, &place), at) in p.roots.iter().zip(&roots).zip(&mut at_roots) {
                if place.block == block || place.block == NO_BLOCK {
                    *at = values[p.slot(id, place, ring)];
                }
            }
        }
        at_roots
    }

    /// Sweeps layer `ids` until no value moves, or once where `once`.
    fn sweep<const K: usize>(
        &self,
        values: &mut [[f64; K]],
        ends: &[&[f64]; K],
        from: usize,
        ring: Ring,
        ids: Range<u32>,
        once: bool,
    ) {
        let p = self.program;
        loop {
            let mut changed = false;
            for id in ids.clone() {
                let v = self.value(|s| values[s as usize], ends, from, ring, id);
                let slot = p.slot(id, p.place(id), ring);
                if v != values[slot] {
                    values[slot] = v;
                    changed = true;
                }
            }
            if once || !changed {
                return;
            }
        }
    }

    /// Settles the ids of one level of a layer ([`Program::levels`]) ([`settle_level`]).
    fn level<const K: usize>(
        &self,
        values: &mut [[f64; K]],
        ends: &[&[f64]; K],
        from: usize,
        ring: Ring,
        level: Range<u32>,
    ) {
        // A level's slots are consecutive: its ids are, in one block or in none.
        let p = self.program;
        let first = p.slot(level.start, p.place(level.start), ring);
        settle_level(values, first, level, |settled, id| {
            self.value(|s| settled.get(s), ends, from, ring, id)
        });
    }

    /// The figures of `id` from the values of what it reads, `read(slot)` being those in a
    /// slot of the ring.
    #[inline(always)]
    fn value<const K: usize>(
        &self,
        read: impl Fn(u32) -> [f64; K],
        ends: &[&[f64]; K],
        from: usize,
        ring: Ring,
        id: u32,
    ) -> [f64; K] {
        let p = self.program;
        let place = p.place(id);
        // Apart, so that an id in no block reads its targets as they are.
        if place.block == NO_BLOCK {
            self.sums(read, ends, from, id, place.row, |t| {
                let target = p.target[t];
                if target >= END {
                    target
                } else {
                    target - ring.low
                }
            })
        } else {
            self.sums(read, ends, from, id, place.row, |t| {
                p.slot_at(place, t, ring)
            })
        }
    }

    /// The figures of `id` (at row `row`) from the values of what it reads, term `t` reading
    /// `target(t)`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn sums<const K: usize>(
        &self,
        read: impl Fn(u32) -> [f64; K],
        ends: &[&[f64]; K],
        from: usize,
        id: u32,
        row: u32,
        target: impl Fn(usize) -> u32,
    ) -> [f64; K] {
        let p = self.program;
        let decision = p.kind[row as usize] != CHANCE;
        let only = self.only.filter(|_| decision).map(|o| o[id as usize]);
        let mut total = [0.0f64; K];
        for (i, (b, terms)) in p.branches_of_row(row).enumerate() {
            if only.is_some_and(|o| usize::from(o) != i) {
                continue;
            }
            let mut sum: [f64; K] = std::array::from_fn(|k| (self.reward)(id, b, from + k));
            for t in terms {
                let w = p.weights[p.weight[t] as usize];
                let target = target(t);
                if target >= END {
                    let end = (target - END) as usize;
                    for k in 0..K {
                        sum[k] += w * ends[k][end];
                    }
                } else {
                    let read = read(target);
                    for k in 0..K {
                        sum[k] += w * read[k];
                    }
                }
            }
            for k in 0..K {
                total[k] += sum[k];
            }
        }
        total
    }
}

/// Settles `K` values at every stored position of a strategy's program (one branch a
/// position), its `layers`, from `values` (by id; what `at` may read of a position before it
/// is settled), `at(id, values)` being those of `id` from the values of what it reads: layer by
/// layer from the lowest, a layer play can return to swept until no value moves by more than rounding
/// ([`moved`]).
pub(super) fn settle_by<const K: usize>(
    layers: &[Layer],
    mut values: Vec<[f64; K]>,
    at: impl Fn(u32, &[[f64; K]]) -> [f64; K],
) -> Vec<[f64; K]> {
    for (ids, once) in layers {
        let once = *once;
        loop {
            let mut changed = false;
            for id in ids.clone() {
                let v = at(id, &values);
                let old = &values[id as usize];
                changed |= !once && old.iter().zip(&v).any(|(&a, &b)| moved(a, b));
                values[id as usize] = v;
            }
            if once || !changed {
                break;
            }
        }
    }
    values
}

/// Whether a value swept from `old` to `new` moved by more than its rounding: a fixed point of
/// a sweep whose sums may fall as well as rise (a replay with rewards of both signs) is met
/// to the last bits, where the sweeps may go on trading them.
pub(super) fn moved(old: f64, new: f64) -> bool {
    (new - old).abs() > 4.0 * f64::EPSILON * old.abs().max(new.abs())
}

/// The expected visits of every stored position of a strategy's program in one game from the
/// start (each at most 1 where play never returns to a position), play stopping at the
/// positions where `goes_on` fails (visited, not left): layer by layer from the start's, each
/// position's visits passed on to what it reads; a layer play can return to swept until its
/// visits stop moving ([`moved`]).
pub(super) fn visits<G: Game>(
    program: &Program<G>,
    layers: &[Layer],
    goes_on: &dyn Fn(u32) -> bool,
) -> Vec<f64> {
    let mut visits = vec![0.0f64; program.len()];
    visits[program.start() as usize] = 1.0;
    // Where play can return to a position, the visits of the sweep under way.
    let cycles = layers.iter().any(|(_, once)| !once);
    let mut next = vec![0.0f64; if cycles { program.len() } else { 0 }];
    for (ids, once) in layers.iter().rev() {
        if !once {
            // What flows in from above stays; what the layer passes round settles.
            let inflow: Vec<f64> = ids.clone().map(|id| visits[id as usize]).collect();
            loop {
                for (id, &v) in ids.clone().zip(&inflow) {
                    next[id as usize] = v;
                }
                for id in ids.clone() {
                    let v = visits[id as usize];
                    if !goes_on(id) {
                        continue;
                    }
                    for (target, w) in program.terms(id) {
                        if target < END && ids.contains(&target) {
                            next[target as usize] += v * w;
                        }
                    }
                }
                let mut changed = false;
                for id in ids.clone() {
                    changed |= moved(visits[id as usize], next[id as usize]);
                    visits[id as usize] = next[id as usize];
                }
                if !changed {
                    break;
                }
            }
        }
        // Readers before what they read: the reverse of the settling order.
        for id in ids.clone().rev() {
            let v = visits[id as usize];
            if v == 0.0 || !goes_on(id) {
                continue;
            }
            for (target, w) in program.terms(id) {
                if target < END && (*once || !ids.contains(&target)) {
                    visits[target as usize] += v * w;
                }
            }
        }
    }
    visits
}

/// Sweeps the positions `ids` of one layer until a sweep changes nothing, or once where `once`:
/// returns the sweeps spent. `BLOCKS`: whether the program has blocks.
fn sweep<G: Game, const BLOCKS: bool>(
    program: &Program<G>,
    ends: &[f64],
    values: &mut [f64],
    ids: std::ops::Range<u32>,
    once: bool,
) -> u64 {
    let mut sweeps = 0;
    loop {
        sweeps += 1;
        let mut changed = false;
        for id in ids.clone() {
            let v = if BLOCKS {
                value_at(program, ends, values, id)
            } else {
                value_by(
                    program,
                    ends,
                    |i| values[i as usize],
                    id,
                    |t| program.target[t],
                )
            };
            if v != values[id as usize] {
                values[id as usize] = v;
                changed = true;
            }
        }
        if once || !changed {
            return sweeps;
        }
    }
}

/// Optimal play's value of `id` from the values of what it reads ([`settle`]).
#[inline]
pub(super) fn value_at<G: Game>(
    program: &Program<G>,
    ends: &[f64],
    values: &[f64],
    id: u32,
) -> f64 {
    let place = program.place(id);
    // Apart, so that a position in no block reads its targets as they are.
    if place.block == NO_BLOCK {
        value_by(
            program,
            ends,
            |i| values[i as usize],
            place.row,
            |t| program.target[t],
        )
    } else {
        value_by(
            program,
            ends,
            |i| values[i as usize],
            place.row,
            |t| program.block_target(place, t),
        )
    }
}

/// [`value_at`] for the position at row `row`, the target of term `t` being `target(t)`.
#[inline(always)]
fn value_by<G: Game>(
    program: &Program<G>,
    ends: &[f64],
    value: impl Fn(u32) -> f64,
    row: u32,
    target: impl Fn(usize) -> u32,
) -> f64 {
    let read = |target: u32| {
        if target >= END {
            ends[(target - END) as usize]
        } else {
            value(target)
        }
    };
    let chance = program.kind[row as usize] == CHANCE;
    let (mut best, mut total) = (f64::NEG_INFINITY, 0.0);
    for (_, terms) in program.branches_of_row(row) {
        let mut sum = 0.0;
        for t in terms {
            sum += program.weights[program.weight[t] as usize] * read(target(t));
        }
        if chance {
            total += sum;
        } else {
            best = best.max(sum);
        }
    }
    if chance { total } else { best }
}

/// The value of branch `i` of `id` (an option of a decision) from the values of what it reads.
pub(super) fn branch_value<G: Game>(
    program: &Program<G>,
    ends: &[f64],
    values: &[f64],
    id: u32,
    i: usize,
) -> f64 {
    let place = program.place(id);
    let (_, terms) = program.branches_at(place).nth(i).expect("a branch");
    terms
        .map(|t| {
            let target = program.target_at(place, t);
            let v = if target >= END {
                ends[(target - END) as usize]
            } else {
                values[target as usize]
            };
            program.weights[program.weight[t] as usize] * v
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Budget;
    use crate::engine::generic::program::Rule;
    use crate::games::{End, Point, Uniform};

    /// A walk on 0..=6 that can return to where it was: from `Step(x)` a step up with
    /// probability 1/3, else down; at `Choose(x)` a safe move back to `Step(x)` or a bold one,
    /// lost (the second cause) one time in four, else two up. 6 wins, 0 loses. `Walk(false)`
    /// never steps down: a step that is not up loses, and play never returns.
    struct Walk(bool);

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    enum At {
        Step(u8),
        Choose(u8),
        Bold(u8),
        End(Option<u8>),
    }

    fn to(x: u8) -> At {
        match x {
            0 => At::End(Some(0)),
            6.. => At::End(None),
            x => At::Choose(x),
        }
    }

    impl Game for Walk {
        type Pos = At;
        type Option = bool;
        type Key = At;
        fn name(&self) -> &'static str {
            "walk"
        }
        fn kinds(&self) -> &'static [&'static str] {
            &["bold-or-safe"]
        }
        fn causes(&self) -> &'static [&'static str] {
            &["fell", "bold"]
        }
        fn start(&self) -> At {
            At::Step(3)
        }
        fn point(&self, pos: &At) -> Point {
            match *pos {
                At::Choose(_) => Point::Decision(0),
                At::End(None) => Point::Over(End::Win),
                At::End(Some(c)) => Point::Over(End::Loss(c)),
                _ => Point::Chance,
            }
        }
        fn outcomes(&self, pos: &At, each: &mut impl FnMut(At, f64)) {
            match *pos {
                At::Step(x) => {
                    each(to(x + 1), 1.0 / 3.0);
                    each(if self.0 { to(x - 1) } else { to(0) }, 2.0 / 3.0);
                }
                At::Bold(x) => {
                    each(At::End(Some(1)), 0.25);
                    each(to(x + 2), 0.75);
                }
                _ => unreachable!(),
            }
        }
        fn options(&self, pos: &At, each: &mut impl FnMut(bool, At)) {
            let At::Choose(x) = *pos else { unreachable!() };
            each(false, At::Step(x));
            each(true, At::Bold(x));
        }
        fn layer(&self, _: &At) -> u32 {
            0
        }
        fn stored(&self, pos: &At) -> bool {
            !matches!(pos, At::Bold(_))
        }
        fn key(&self, pos: &At) -> At {
            *pos
        }
    }

    /// The value of the walk from its start under uniform play, end `e` worth `ends[e]`, by
    /// value iteration over its positions by hand.
    #[allow(clippy::needless_range_loop)]
    fn uniform_walk(ends: &[f64]) -> f64 {
        let (mut step, mut choose) = ([0.0f64; 7], [0.0f64; 7]);
        let at = |choose: &[f64; 7], x: usize| match x {
            0 => ends[1],
            6.. => ends[0],
            x => choose[x],
        };
        for _ in 0..5000 {
            for x in 1..6 {
                step[x] = at(&choose, x + 1) / 3.0 + 2.0 * at(&choose, x - 1) / 3.0;
            }
            for x in 1..6 {
                choose[x] = 0.5 * step[x] + 0.5 * (0.25 * ends[2] + 0.75 * at(&choose, x + 2));
            }
        }
        step[3]
    }

    /// Settled together, each figure is bit for bit what it is settled alone, where play
    /// returns to positions (many sweeps) and on a program followed by its first branches.
    #[test]
    fn figures_settled_together_are_those_settled_alone() {
        let unit = |i: usize| {
            let mut e = vec![0.0; 3];
            e[i] = 1.0;
            e
        };
        let ends = vec![unit(0), unit(1), unit(2), vec![0.0; 3], vec![0.0; 3]];
        for rule in [Rule::Follow(&Uniform), Rule::Best] {
            let p = Program::compile(&Walk(true), rule, Budget::UNLIMITED).unwrap();
            let firsts = vec![0u8; p.len()];
            let only = (p.best).then_some(firsts.as_slice());
            let earns = |id: u32, b: usize, k: usize| match k {
                3 => f64::from(u8::from(p.kind_of(id) != CHANCE)),
                4 => p.rolls[b] + 0.5 * f64::from(u8::from(p.kind_of(id) == CHANCE)),
                _ => 0.0,
            };
            let together = settle_sums(&p, only, &ends, &earns).remove(0);
            for (k, alone) in ends.iter().enumerate() {
                let alone = settle_sums(&p, only, std::slice::from_ref(alone), &|id, b, _| {
                    earns(id, b, k)
                });
                assert_eq!(alone[0][0].to_bits(), together[k].to_bits(), "figure {k}");
            }
            assert!((together[0] + together[1] + together[2] - 1.0).abs() < 1e-12);
            if !p.best {
                for (k, e) in ends[..3].iter().enumerate() {
                    let by_hand = uniform_walk(e);
                    assert!((together[k] - by_hand).abs() < 1e-12, "{k}: {by_hand}");
                }
            }
        }
        // Play returns to positions: no order settles the walk in one sweep.
        let p = Program::compile(&Walk(true), Rule::Follow(&Uniform), Budget::UNLIMITED).unwrap();
        assert!(p.layers.iter().all(|(_, once)| !once));
    }

    /// Whether one sweep settles a layer, as the compiler found it, is what reading every
    /// term in the settling order says: a walk that returns and one that does not.
    #[test]
    fn a_layer_is_settled_in_one_sweep_where_every_read_comes_first() {
        for back in [true, false] {
            for rule in [Rule::Follow(&Uniform), Rule::Best] {
                let p = Program::compile(&Walk(back), rule, Budget::UNLIMITED).unwrap();
                // Layer by layer, and inside a layer ids settle in their order: the layers'
                // ids are every id once.
                let mut ids: Vec<u32> = p.layers.iter().flat_map(|(ids, _)| ids.clone()).collect();
                ids.sort_unstable();
                assert!(ids.into_iter().eq(0..p.len() as u32), "back {back}");
                let mut rank = vec![(0, 0); p.len()];
                for (l, (ids, _)) in p.layers.iter().enumerate() {
                    for id in ids.clone() {
                        rank[id as usize] = (l, id);
                    }
                }
                let read: Vec<Layer> = (p.layers.iter())
                    .map(|(ids, _)| {
                        let once = ids.clone().all(|id| {
                            p.terms(id).all(|(target, _)| {
                                target >= END || rank[target as usize] < rank[id as usize]
                            })
                        });
                        (ids.clone(), once)
                    })
                    .collect();
                assert_eq!(p.layers, read, "back {back}");
                assert!(read.iter().all(|(_, once)| *once != back), "back {back}");
            }
        }
    }
}
