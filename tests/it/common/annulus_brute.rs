//! An independent oracle for the Annulus operation challenge (`ANNULUS.md`): the optimal
//! probability of success, by value iteration over everything the player can know.
//!
//! It is written apart from the engine and shares nothing with it, so that the two can only
//! agree by both being right. Where the engine may use a formula, this file enumerates:
//!
//! - the hidden positions are modelled as explicit slot layouts (which of the `players + 2`
//!   slots are hidden), and the player's knowledge of them as a belief over layouts, updated
//!   by Bayes' rule at every reveal from where the revealed die was seen to land;
//! - where a revealed die lands is read off each layout (how many visible slots lie to the
//!   left of the revealed slot), never computed from a closed form;
//! - whether a chain can still be solved (A5) is a search over the values its free dice
//!   could take, never a distance or parity rule.
//!
//! It is slow by design and meant for players 1 and 2 (3 and 4 dice).

use std::collections::{BTreeMap, HashMap};

/// One Annulus design, as ANNULUS.md's parameters.
#[derive(Clone, Copy, Debug)]
pub struct Design {
    /// Players able to help, 1..=4 (A1): the line has `players + 2` slots.
    pub players: u8,
    /// The trigger d12 an adjustment needs, 2..=12 (A4).
    pub target: u8,
    /// How many faces of a slot's d4 hide it, 0..=3 (A1).
    pub hidden_faces: u8,
    /// Whether 12 and 1 are neighbours, on the ring and for a step (A2, A4).
    pub wrap: bool,
    /// Reveal order (A3): the leftmost hidden slot (`true`) or a uniformly random one.
    pub left_to_right: bool,
    /// Adjustments allowed before the challenge fails unwon (A6); `None`: no limit.
    pub action_limit: Option<u8>,
}

/// The optimal probability of success (from the very start: setup included), by value
/// iteration over whole chains.
pub fn optimal_success(design: &Design) -> f64 {
    assert!((1..=4).contains(&design.players), "{design:?}: players");
    assert!((2..=12).contains(&design.target), "{design:?}: target");
    assert!(design.hidden_faces <= 3, "{design:?}: hidden faces");
    assert!(
        design.action_limit.is_none_or(|k| k >= 1),
        "{design:?}: action limit"
    );
    let mut model = Model::new(*design);
    let start = model.setup();
    model.explore();
    let values = model.value_iteration();
    let success = start.eval(&values);
    assert!(
        (-1e-12..=1.0 + 1e-12).contains(&success),
        "{design:?}: {success} is not a probability"
    );
    success
}

/// One visible die.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Die {
    /// Its number, 1..=12.
    value: u8,
    /// Jammed (A4): it keeps its number for the rest of the challenge.
    jammed: bool,
}

/// The player's belief about which slots are still hidden: each layout (a bit set over the
/// slots, bit `s` for slot `s` from the left) with an integer weight, the weights divided by
/// their common divisor. Exact integers rather than probabilities, so that two histories
/// that leave the player knowing the same thing give the same (hashable) belief.
type Belief = BTreeMap<u16, u64>;

/// An information state: what the player knows when choosing an action.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Key {
    /// The visible chain in line order, packed by [`encode`].
    chain: u64,
    /// The belief about the hidden slots, an index into [`Model::beliefs`].
    belief: u32,
    /// Adjustments tried so far; kept at 0 without an action limit, where it does not
    /// matter (and would make the state space infinite).
    used: u8,
}

/// A probability that is affine in the values of the decision states:
/// `constant + sum of weight × value[state]`. What one action, a reveal or the setup leads
/// to, once every chance and every forced step (a reveal, a win, a failure) is unrolled.
#[derive(Clone, Default, Debug)]
struct Form {
    /// The probability of ending (won) without reaching another decision.
    constant: f64,
    /// `(decision state, probability of reaching it next)`.
    terms: Vec<(u32, f64)>,
}

impl Form {
    /// Certain success (1) or certain failure (0).
    fn constant(value: f64) -> Form {
        Form {
            constant: value,
            terms: Vec::new(),
        }
    }

    /// The next decision is `state`, for sure.
    fn state(state: u32) -> Form {
        Form {
            constant: 0.0,
            terms: vec![(state, 1.0)],
        }
    }

    /// Adds `scale × other`.
    fn add_scaled(&mut self, other: &Form, scale: f64) {
        self.constant += scale * other.constant;
        self.terms
            .extend(other.terms.iter().map(|&(s, w)| (s, scale * w)));
    }

    /// Merges the terms of one state, so that evaluating is one pass over distinct states.
    fn compact(&mut self) {
        self.terms.sort_by_key(|&(s, _)| s);
        let mut merged: Vec<(u32, f64)> = Vec::with_capacity(self.terms.len());
        for &(s, w) in &self.terms {
            match merged.last_mut() {
                Some(last) if last.0 == s => last.1 += w,
                _ => merged.push((s, w)),
            }
        }
        self.terms = merged;
    }

    /// The probability, given the value of every decision state.
    fn eval(&self, values: &[f64]) -> f64 {
        self.constant
            + self
                .terms
                .iter()
                .map(|&(s, w)| w * values[s as usize])
                .sum::<f64>()
    }
}

/// One way a reveal can go, as the player sees it.
#[derive(Clone, Copy, Debug)]
struct Reveal {
    /// Where in the visible line the revealed die is inserted (0: leftmost).
    place: usize,
    /// The belief afterwards, an index into [`Model::beliefs`].
    belief: u32,
    /// The probability of this place, given the belief before.
    probability: f64,
}

/// The reachable information states and what each action leads to.
struct Model {
    design: Design,
    /// Slots in the line: `players + 2` (A1).
    slots: usize,
    /// The probability an adjustment succeeds: a trigger d12 of `target` or more (A4).
    p_success: f64,
    /// Every belief met, by index; `belief_ids` finds one.
    beliefs: Vec<Belief>,
    belief_ids: HashMap<Belief, u32>,
    /// How a reveal goes from each belief, worked out once per belief.
    reveals: HashMap<u32, Vec<Reveal>>,
    /// The decision states, by index; `ids` finds one.
    states: Vec<Key>,
    ids: HashMap<Key, u32>,
    /// Decision states whose actions are not yet worked out.
    pending: Vec<u32>,
    /// What a solved chain with hidden slots left leads to (a reveal, maybe several in a
    /// row), worked out once per information state.
    cascades: HashMap<Key, Form>,
    /// Each decision state's actions, each as what it leads to.
    actions: Vec<Vec<Form>>,
}

impl Model {
    fn new(design: Design) -> Model {
        Model {
            design,
            slots: usize::from(design.players) + 2,
            p_success: f64::from(13 - design.target) / 12.0,
            beliefs: Vec::new(),
            belief_ids: HashMap::new(),
            reveals: HashMap::new(),
            states: Vec::new(),
            ids: HashMap::new(),
            pending: Vec::new(),
            cascades: HashMap::new(),
            actions: Vec::new(),
        }
    }

    /// What the setup leads to (A1), by enumerating every slot layout with its prior
    /// probability, and every roll of its visible dice.
    fn setup(&mut self) -> Form {
        let n = self.slots;
        let h = u64::from(self.design.hidden_faces);
        let mut start = Form::default();
        for layout in 0..(1u16 << n) {
            let hidden = layout.count_ones();
            let visible = n - hidden as usize;
            // Each slot is hidden with probability h/4, independently: weights out of 4^n.
            let weight = h.pow(hidden) * (4 - h).pow(visible as u32);
            if weight == 0 {
                continue;
            }
            let p_layout = weight as f64 / 4f64.powi(n as i32);
            let belief = self.setup_belief(visible);
            let rolls = 12usize.pow(visible as u32);
            for roll in 0..rolls {
                let chain: Vec<Die> = (0..visible)
                    .map(|i| Die {
                        value: (roll / 12usize.pow(i as u32) % 12) as u8 + 1,
                        jammed: false,
                    })
                    .collect();
                let next = self.resolve(&chain, belief, 0);
                start.add_scaled(&next, p_layout / rolls as f64);
            }
        }
        start.compact();
        start
    }

    /// The player's belief right after setup, having seen `visible` dice: Bayes over all
    /// layouts, each weighted by its prior (out of 4^n) times the likelihood of what was
    /// seen. Seeing `visible` dice rules out every layout with another number of visible
    /// slots; the numbers shown are d12s whatever the layout, so they say nothing more.
    fn setup_belief(&mut self, visible: usize) -> u32 {
        let n = self.slots;
        let h = u64::from(self.design.hidden_faces);
        let mut belief = Belief::new();
        for layout in 0..(1u16 << n) {
            let hidden = layout.count_ones();
            let prior = h.pow(hidden) * (4 - h).pow(n as u32 - hidden);
            let consistent = n - hidden as usize == visible;
            if prior > 0 && consistent {
                belief.insert(layout, prior);
            }
        }
        self.intern(belief)
    }

    /// The index of `belief` (normalised: weights divided by their common divisor).
    fn intern(&mut self, mut belief: Belief) -> u32 {
        let divisor = belief.values().fold(0, |g, &w| gcd(g, w));
        assert!(divisor > 0, "an empty belief");
        for w in belief.values_mut() {
            *w /= divisor;
        }
        let hidden = belief.keys().next().unwrap().count_ones();
        assert!(
            belief.keys().all(|l| l.count_ones() == hidden),
            "the player knows how many slots are hidden: {belief:?}"
        );
        if let Some(&id) = self.belief_ids.get(&belief) {
            return id;
        }
        let id = self.beliefs.len() as u32;
        self.beliefs.push(belief.clone());
        self.belief_ids.insert(belief, id);
        id
    }

    /// How many slots are still hidden under `belief` (every layout in it agrees: A1 tells
    /// the player the number).
    fn hidden(&self, belief: u32) -> usize {
        self.beliefs[belief as usize]
            .keys()
            .next()
            .unwrap()
            .count_ones() as usize
    }

    /// How a reveal goes from `belief` (A3), by Bayes over its layouts: each layout, each
    /// slot it could reveal (every hidden slot equally likely under random order, the
    /// leftmost under left-to-right), the place where that slot's die lands in the visible
    /// line (the number of visible slots left of it, read off the layout), and the layout
    /// left behind. The player sees the place; grouping by it gives the probability of each
    /// place and the posterior belief after seeing it.
    fn reveal(&mut self, belief: u32) -> Vec<Reveal> {
        if let Some(known) = self.reveals.get(&belief) {
            return known.clone();
        }
        let hidden = self.hidden(belief) as u64;
        let mut by_place: BTreeMap<usize, Belief> = BTreeMap::new();
        let mut total = 0u64;
        for (&layout, &weight) in &self.beliefs[belief as usize] {
            let candidates: Vec<usize> = (0..self.slots)
                .filter(|&s| layout & (1 << s) != 0)
                .collect();
            let chosen = if self.design.left_to_right {
                &candidates[..1]
            } else {
                &candidates[..]
            };
            // Each chosen slot has probability 1/|chosen| given the layout; scaled by
            // `hidden` (the same for every layout) to stay an integer.
            assert_eq!(hidden % chosen.len() as u64, 0);
            let share = hidden / chosen.len() as u64;
            for &slot in chosen {
                let place = (0..slot).filter(|&t| layout & (1 << t) == 0).count();
                let after = layout & !(1 << slot);
                *by_place.entry(place).or_default().entry(after).or_insert(0) += weight * share;
                total += weight * share;
            }
        }
        let outcomes: Vec<Reveal> = by_place
            .into_iter()
            .map(|(place, posterior)| {
                let mass: u64 = posterior.values().sum();
                Reveal {
                    place,
                    belief: self.intern(posterior),
                    probability: mass as f64 / total as f64,
                }
            })
            .collect();
        self.reveals.insert(belief, outcomes.clone());
        outcomes
    }

    /// What reaching `chain` (with `belief`, after `used` adjustments) leads to: success
    /// (solved, none hidden), a reveal (solved, some hidden: A3, maybe several in a row),
    /// failure (A5: unsolvable; A6: out of actions), or a decision.
    fn resolve(&mut self, chain: &[Die], belief: u32, used: u8) -> Form {
        let hidden = self.hidden(belief);
        assert_eq!(chain.len() + hidden, self.slots, "{chain:?} {belief}");
        if solved(chain, self.design.wrap) {
            if hidden == 0 {
                return Form::constant(1.0);
            }
            let key = Key {
                chain: encode(chain),
                belief,
                used,
            };
            if let Some(form) = self.cascades.get(&key) {
                return form.clone();
            }
            let mut form = Form::default();
            for reveal in self.reveal(belief) {
                for value in 1..=12 {
                    let mut next = chain.to_vec();
                    // A3: a fresh d12, not jammed, at its slot's place in the line.
                    let fresh = Die {
                        value,
                        jammed: false,
                    };
                    next.insert(reveal.place, fresh);
                    let then = self.resolve(&next, reveal.belief, used);
                    form.add_scaled(&then, reveal.probability / 12.0);
                }
            }
            form.compact();
            self.cascades.insert(key, form.clone());
            return form;
        }
        if !solvable(chain, self.design.wrap) {
            return Form::constant(0.0);
        }
        if self.design.action_limit.is_some_and(|k| used >= k) {
            return Form::constant(0.0);
        }
        let key = Key {
            chain: encode(chain),
            belief,
            used,
        };
        Form::state(self.state(key))
    }

    /// The index of decision state `key`, queued for [`Model::explore`] when new.
    fn state(&mut self, key: Key) -> u32 {
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = self.states.len() as u32;
        self.states.push(key);
        self.ids.insert(key, id);
        self.pending.push(id);
        id
    }

    /// Works out every action of every reachable decision state (A4): each free die, each
    /// direction that stays on the dial, and the two outcomes of its trigger roll.
    fn explore(&mut self) {
        while let Some(id) = self.pending.pop() {
            let key = self.states[id as usize];
            let chain = decode(key.chain);
            let used = match self.design.action_limit {
                Some(_) => key.used + 1,
                None => 0,
            };
            let mut actions = Vec::new();
            for (i, die) in chain.iter().enumerate() {
                if die.jammed {
                    continue;
                }
                for up in [true, false] {
                    let Some(value) = step(die.value, up, self.design.wrap) else {
                        continue;
                    };
                    let mut moved = chain.clone();
                    moved[i].value = value;
                    let mut jammed = chain.clone();
                    jammed[i].jammed = true;
                    let mut form = Form::default();
                    let on_success = self.resolve(&moved, key.belief, used);
                    form.add_scaled(&on_success, self.p_success);
                    let on_jam = self.resolve(&jammed, key.belief, used);
                    form.add_scaled(&on_jam, 1.0 - self.p_success);
                    form.compact();
                    actions.push(form);
                }
            }
            assert!(!actions.is_empty(), "a solvable chain has a free die");
            if self.actions.len() <= id as usize {
                self.actions.resize(id as usize + 1, Vec::new());
            }
            self.actions[id as usize] = actions;
        }
    }

    /// Gauss-Seidel value iteration from 0: each decision state's value becomes its best
    /// action's, until no value moves by 1e-15. Needed rather than one backward pass because
    /// the states have cycles (a free die moved up, then down).
    fn value_iteration(&self) -> Vec<f64> {
        const SWEEPS: usize = 100_000;
        let mut values = vec![0.0; self.states.len()];
        for _ in 0..SWEEPS {
            let mut largest = 0.0f64;
            for (s, actions) in self.actions.iter().enumerate() {
                let best = actions
                    .iter()
                    .map(|a| a.eval(&values))
                    .fold(f64::NEG_INFINITY, f64::max);
                largest = largest.max((best - values[s]).abs());
                values[s] = best;
            }
            if largest < 1e-15 {
                return values;
            }
        }
        panic!("{:?}: no convergence in {SWEEPS} sweeps", self.design);
    }
}

/// The greatest common divisor (0 with anything is that thing).
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Whether two numbers are neighbours: they differ by exactly 1, on the ring of 12 with wrap
/// (A2).
fn adjacent(a: u8, b: u8, wrap: bool) -> bool {
    let d = a.abs_diff(b);
    d == 1 || (wrap && d == 11)
}

/// One step up or down from `value` (A4): `None` off the dial without wrap.
fn step(value: u8, up: bool, wrap: bool) -> Option<u8> {
    match (up, value, wrap) {
        (true, 12, true) => Some(1),
        (false, 1, true) => Some(12),
        (true, 12, false) | (false, 1, false) => None,
        (true, v, _) => Some(v + 1),
        (false, v, _) => Some(v - 1),
    }
}

/// A2: every pair of neighbours differs by exactly 1 (0 or 1 dice: solved).
fn solved(chain: &[Die], wrap: bool) -> bool {
    chain
        .windows(2)
        .all(|w| adjacent(w[0].value, w[1].value, wrap))
}

/// A5 by search: whether some numbers for the free dice solve the chain. A free die can be
/// brought to any number by successful adjustments (the steps of A4 connect 1..=12, with or
/// without wrap), so the question is whether an assignment exists; a pass along the line
/// keeps the set of numbers each die can take in an assignment that solves it so far.
fn solvable(chain: &[Die], wrap: bool) -> bool {
    let options = |die: &Die| -> Vec<u8> {
        if die.jammed {
            vec![die.value]
        } else {
            (1..=12).collect()
        }
    };
    let Some(first) = chain.first() else {
        return true;
    };
    let mut reachable = options(first);
    for die in &chain[1..] {
        reachable = options(die)
            .into_iter()
            .filter(|&x| reachable.iter().any(|&y| adjacent(x, y, wrap)))
            .collect();
    }
    !reachable.is_empty()
}

/// Packs a chain (at most 6 dice) into a key: 5 bits a die (number, jammed), its length in
/// the low 3 bits.
fn encode(chain: &[Die]) -> u64 {
    assert!(chain.len() <= 6);
    chain
        .iter()
        .enumerate()
        .fold(chain.len() as u64, |k, (i, d)| {
            k | (u64::from(d.value) | u64::from(d.jammed) << 4) << (3 + 5 * i)
        })
}

/// The chain [`encode`] packed.
fn decode(key: u64) -> Vec<Die> {
    (0..(key & 7) as usize)
        .map(|i| {
            let bits = key >> (3 + 5 * i);
            Die {
                value: (bits & 15) as u8,
                jammed: bits & 16 != 0,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The printed solo game, varied by the caller.
    fn solo() -> Design {
        Design {
            players: 1,
            target: 4,
            hidden_faces: 1,
            wrap: false,
            left_to_right: false,
            action_limit: None,
        }
    }

    /// Every value is a probability, and an easier trigger never hurts: with no hidden slot,
    /// with some, under either reveal order.
    #[test]
    fn values_are_probabilities_that_fall_with_the_target() {
        for hidden_faces in [0, 1, 3] {
            for left_to_right in [false, true] {
                let at = |target| {
                    optimal_success(&Design {
                        target,
                        hidden_faces,
                        left_to_right,
                        ..solo()
                    })
                };
                let values: Vec<f64> = [2, 4, 7, 12].map(at).to_vec();
                assert!(values.iter().all(|v| (0.0..=1.0).contains(v)), "{values:?}");
                assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
                assert!(values[0] > values[3], "{values:?}");
            }
        }
    }

    /// With one action and nothing hidden, success is a direct count over the 1728 opening
    /// chains: solved at once, or one adjustment from solved and that adjustment succeeds.
    #[test]
    fn one_action_matches_a_direct_count() {
        for wrap in [false, true] {
            for target in [4, 7] {
                let mut solved_now = 0;
                let mut one_away = 0;
                for a in 1..=12 {
                    for b in 1..=12 {
                        for c in 1..=12 {
                            let fits = |v: [u8; 3]| {
                                let near = |x: u8, y: u8| {
                                    let d = (i32::from(x) - i32::from(y)).rem_euclid(12);
                                    if wrap {
                                        d == 1 || d == 11
                                    } else {
                                        x.abs_diff(y) == 1
                                    }
                                };
                                near(v[0], v[1]) && near(v[1], v[2])
                            };
                            let line = [a, b, c];
                            if fits(line) {
                                solved_now += 1;
                                continue;
                            }
                            let moves = (0..3).flat_map(|i| {
                                [1i32, -1].into_iter().filter_map(move |d| {
                                    let mut v = line;
                                    let x = i32::from(v[i]) + d;
                                    v[i] = match (x, wrap) {
                                        (13, true) => 1,
                                        (0, true) => 12,
                                        (1..=12, _) => x as u8,
                                        _ => return None,
                                    };
                                    Some(v)
                                })
                            });
                            if moves.into_iter().any(fits) {
                                one_away += 1;
                            }
                        }
                    }
                }
                let p = f64::from(13 - target) / 12.0;
                let expected = (f64::from(solved_now) + f64::from(one_away) * p) / 1728.0;
                let got = optimal_success(&Design {
                    target,
                    hidden_faces: 0,
                    wrap,
                    action_limit: Some(1),
                    ..solo()
                });
                assert!(
                    (got - expected).abs() < 1e-12,
                    "wrap {wrap}, target {target}: {got} vs {expected}"
                );
            }
        }
    }

    /// A limit on actions never helps, and a looser one is never worse.
    #[test]
    fn a_limit_never_helps() {
        for hidden_faces in [0, 1] {
            let at = |action_limit| {
                optimal_success(&Design {
                    hidden_faces,
                    action_limit,
                    ..solo()
                })
            };
            let (one, three, none) = (at(Some(1)), at(Some(3)), at(None));
            assert!(one <= three && three <= none, "{one} {three} {none}");
            assert!(one < none, "{one} {none}");
        }
    }

    /// With nothing hidden the reveal order cannot matter, and wrap only adds neighbours
    /// (every chain solved without wrap is solved with it, every step still allowed).
    #[test]
    fn reveal_order_and_wrap_without_hidden_slots() {
        let plain = Design {
            hidden_faces: 0,
            ..solo()
        };
        let random = optimal_success(&plain);
        let ordered = optimal_success(&Design {
            left_to_right: true,
            ..plain
        });
        let wrapped = optimal_success(&Design {
            wrap: true,
            ..plain
        });
        assert_eq!(random, ordered);
        assert!(wrapped >= random, "{wrapped} {random}");
    }
}
