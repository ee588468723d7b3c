//! A strategy's exact figures and its regret by kind of decision, by a plain memoised
//! recursion over the state machine: what the layered engines (`raven::engine::exact`, the
//! regret decomposition) are checked against.
//!
//! Why it is an independent check: it shares with the engines only the state machine, the
//! strategy's own answers and the public keys that say which positions play alike. It
//! compiles no program, replays no stealth class, rolls every chance point whole (both side
//! types at once, never late), sums outcomes in their own order, counts a finished game
//! through [`Tally::record`] as Monte Carlo does, and follows each game forwards from the
//! position asked; the regret is the performance-difference identity's sum term by term, each
//! decision's options valued by the solver. Slow and simple on purpose.

use rustc_hash::FxHashMap;

use raven::engine::decisions::MATTERS;
use raven::engine::key::strategy_key;
use raven::engine::{ByKind, Expectation, Solver, Tally};
use raven::game::DecisionKind;
use raven::game::canon::unread_complications;
use raven::game::key::solver_key;
use raven::game::{Aid, Node, State, Step};
use raven::rules::Rules;
use raven::strategy::{Choice, Sight, Strategy};

/// Whether a position's figures are worth keeping: the engines' own rule, so that the oracle
/// holds no more than they do. A check that follows a decision (`…Check` steps and first aid
/// in progress) is reached from that one decision only, the choice of main character from the
/// one complication roll only, a run type to pick from its one roll, and the root once.
fn worth_memoising(state: &State) -> bool {
    !matches!(state.aid(), Aid::Check { .. })
        && !matches!(
            state.step(),
            Step::Complications
                | Step::ChooseMain
                | Step::PickRunType { .. }
                | Step::RecruitCheck { .. }
                | Step::RunCheck { .. }
                | Step::SideCheck { .. }
        )
}

/// The figures of one finished game, counted as a Monte Carlo run counts it.
fn finished(end: &State) -> Expectation {
    let mut tally = Tally::default();
    tally.record(end);
    let count = |n: u64| n as f64;
    Expectation {
        win: count(tally.wins),
        losses: tally.losses.map(count),
        discovered: count(tally.discovered),
        stealth_left: count(tally.stealth_left),
        reached_run: count(tally.reached_run),
        team_at_run: count(tally.team_at_run),
        deaths: count(tally.deaths),
    }
}

/// `acc += weight · e`, field by field.
fn add_scaled(acc: &mut Expectation, e: &Expectation, weight: f64) {
    acc.win += weight * e.win;
    for (a, l) in acc.losses.iter_mut().zip(e.losses) {
        *a += weight * l;
    }
    acc.discovered += weight * e.discovered;
    acc.stealth_left += weight * e.stealth_left;
    acc.reached_run += weight * e.reached_run;
    acc.team_at_run += weight * e.team_at_run;
    acc.deaths += weight * e.deaths;
}

/// `acc += weight · b`, kind by kind.
fn add_scaled_by_kind(acc: &mut ByKind, b: &ByKind, weight: f64) {
    for (sums, parts) in [
        (&mut acc.regret, &b.regret),
        (&mut acc.arises, &b.arises),
        (&mut acc.matters, &b.matters),
    ] {
        for (sum, part) in sums.iter_mut().zip(parts) {
            *sum += weight * part;
        }
    }
}

/// The exact figures of `strategy` under `rules` from any position, memoised by the key of
/// what the strategy says it sees ([`Strategy::sight`]).
pub struct Oracle<'a, S: ?Sized> {
    rules: &'a Rules,
    strategy: &'a S,
    memo: FxHashMap<u128, Expectation>,
}

impl<'a, S: Strategy + ?Sized> Oracle<'a, S> {
    /// An oracle with an empty memo.
    pub fn new(rules: &'a Rules, strategy: &'a S) -> Self {
        Oracle {
            rules,
            strategy,
            memo: FxHashMap::default(),
        }
    }

    /// The figures of the strategy's games from `state`.
    pub fn expectation(&mut self, state: &State) -> Expectation {
        let rules = self.rules;
        let node = state.node(rules);
        if let Node::Over(_) = node {
            return finished(state);
        }
        let key = worth_memoising(state)
            .then(|| strategy_key(state, self.strategy.sight(state, rules), rules));
        if let Some(e) = key.and_then(|k| self.memo.get(&k)) {
            return *e;
        }
        let mut e = Expectation::default();
        match node {
            Node::Over(_) => unreachable!("returned above"),
            Node::Chance(chance) => {
                for (outcome, p) in chance.outcomes() {
                    let mut next = *state;
                    next.apply_outcome(rules, outcome);
                    add_scaled(&mut e, &self.expectation(&next), p);
                }
            }
            Node::Decision(decision) => match self.strategy.decide(state, rules, decision) {
                Choice::Act(action) => {
                    let mut next = *state;
                    next.apply_action(rules, action);
                    e = self.expectation(&next);
                }
                Choice::Uniform => {
                    let actions = state.actions(rules);
                    let p = 1.0 / actions.len() as f64;
                    for &action in actions.iter() {
                        let mut next = *state;
                        next.apply_action(rules, action);
                        add_scaled(&mut e, &self.expectation(&next), p);
                    }
                }
            },
        }
        if let Some(k) = key {
            self.memo.insert(k, e);
        }
        e
    }

    /// Positions memoised so far.
    pub fn states(&self) -> usize {
        self.memo.len()
    }
}

/// The regret of `strategy` split by kind of decision, by the performance-difference identity
/// summed term by term: at each decision with more than one option the strategy meets, its
/// probability of being met times what its choice gives up against the best option, each
/// option valued by `solver` (optimal play afterwards); with how often each kind arises and
/// how often its best and worst options differ by more than [`MATTERS`].
pub struct RegretOracle<'a, S: ?Sized> {
    solver: &'a Solver,
    strategy: &'a S,
    memo: FxHashMap<u128, ByKind>,
}

impl<'a, S: Strategy + ?Sized> RegretOracle<'a, S> {
    /// An oracle with an empty memo, valuing options with `solver` (under its rules).
    pub fn new(solver: &'a Solver, strategy: &'a S) -> Self {
        RegretOracle {
            solver,
            strategy,
            memo: FxHashMap::default(),
        }
    }

    /// The memo key: the whole position, but for the complications no play can read again and
    /// the counters as far as the strategy tells them apart (its canonical class for a strategy
    /// that reads only what the rules read). The strategy's later answers read
    /// no more than its sight; optimal play's values read no counters (the rules never do) but
    /// may read any complication the strategy forgets, so none that can still be read is
    /// forgotten here.
    fn key(&self, state: &State) -> u128 {
        let rules = self.solver.rules();
        let counters = match self.strategy.sight(state, rules) {
            Sight::Partial { counters, .. } => counters,
            // A strategy that reads only what the rules read plays every position of a
            // canonical class alike, and so do optimal play's values.
            Sight::RulesOnly { .. } => return u128::from(solver_key(state, rules)),
        };
        let sight = Sight::Partial {
            counters,
            unread_complications: unread_complications(state, rules),
            first_side_type: true,
            second_side_type: true,
            member_order: false,
        };
        strategy_key(state, sight, rules)
    }

    /// The strategy's regret, by kind, over its games from `state`.
    pub fn regret(&mut self, state: &State) -> ByKind {
        let rules = *self.solver.rules();
        let node = state.node(&rules);
        if let Node::Over(_) = node {
            return ByKind::default();
        }
        let key = worth_memoising(state).then(|| self.key(state));
        if let Some(r) = key.and_then(|k| self.memo.get(&k)) {
            return *r;
        }
        let mut r = ByKind::default();
        match node {
            Node::Over(_) => unreachable!("returned above"),
            Node::Chance(chance) => {
                for (outcome, p) in chance.outcomes() {
                    let mut next = *state;
                    next.apply_outcome(&rules, outcome);
                    add_scaled_by_kind(&mut r, &self.regret(&next), p);
                }
            }
            Node::Decision(decision) => {
                let choice = self.strategy.decide(state, &rules, decision);
                if state.has_choice(&rules) {
                    let options = self.solver.options(state);
                    assert!(options.len() > 1, "{state:?}: a choice of one option");
                    // The best option: the first of the highest value.
                    let best = options
                        .iter()
                        .map(|&(_, v)| v)
                        .fold(f64::NEG_INFINITY, f64::max);
                    let worst = options
                        .iter()
                        .map(|&(_, v)| v)
                        .fold(f64::INFINITY, f64::min);
                    let chosen = match choice {
                        Choice::Act(action) => {
                            let at = options.iter().position(|&(a, _)| a == action);
                            options[at.expect("the strategy's action is legal")].1
                        }
                        Choice::Uniform => {
                            options.iter().map(|&(_, v)| v).sum::<f64>() / options.len() as f64
                        }
                    };
                    let k = DecisionKind::of(decision) as usize;
                    r.regret[k] += best - chosen;
                    r.arises[k] += 1.0;
                    r.matters[k] += f64::from(u8::from(best - worst > MATTERS));
                }
                match choice {
                    Choice::Act(action) => {
                        let mut next = *state;
                        next.apply_action(&rules, action);
                        add_scaled_by_kind(&mut r, &self.regret(&next), 1.0);
                    }
                    Choice::Uniform => {
                        let actions = state.actions(&rules);
                        let p = 1.0 / actions.len() as f64;
                        for &action in actions.iter() {
                            let mut next = *state;
                            next.apply_action(&rules, action);
                            add_scaled_by_kind(&mut r, &self.regret(&next), p);
                        }
                    }
                }
            }
        }
        if let Some(k) = key {
            self.memo.insert(k, r);
        }
        r
    }

    /// Positions memoised so far.
    pub fn states(&self) -> usize {
        self.memo.len()
    }
}

/// Every figure of an expectation, named.
pub fn figures(e: &Expectation) -> [(&'static str, f64); 10] {
    [
        ("win", e.win),
        ("recruitment losses", e.losses[0]),
        ("run losses", e.losses[1]),
        ("finale losses", e.losses[2]),
        ("finale-character-down losses", e.losses[3]),
        ("discovered", e.discovered),
        ("stealth left", e.stealth_left),
        ("reached run", e.reached_run),
        ("team at run", e.team_at_run),
        ("deaths", e.deaths),
    ]
}

/// Every figure of `engine` within 1e-12 of the oracle's (`oracle`): the two sum the same
/// terms in different orders, so they may differ in the last bits, never more.
pub fn assert_agrees(engine: &Expectation, oracle: &Expectation, what: &str) {
    for ((name, a), (_, b)) in figures(engine).into_iter().zip(figures(oracle)) {
        assert!(
            (a - b).abs() < 1e-12,
            "{what}: {name} {a} against the oracle's {b}"
        );
    }
}
