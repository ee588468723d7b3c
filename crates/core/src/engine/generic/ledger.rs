//! One game's ledger: optimal play's win probability `μ` at the start, what each chance point
//! gave or took (luck), what each decision gave up (skill), and the result.
//!
//! `μ` is read before and after every step, so the changes telescope: `start + luck + skill`
//! is the result, game by game ([`super::quality`] sums the same changes over many games).
//! The ledger keeps numbers only; the writer that narrates the game names each step.

/// One step of a game as `μ` saw it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The step's place in the game, counted from 0 (the writer's index for its words).
    pub step: usize,
    /// Whether the step was a chance point (else a decision).
    pub chance: bool,
    /// `μ` before the step.
    pub before: f64,
    /// `μ` after it.
    pub after: f64,
}

impl Entry {
    /// The change of `μ` over the step.
    pub fn change(&self) -> f64 {
        self.after - self.before
    }
}

/// The steps of one game, each with `μ` before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct Ledger {
    start: f64,
    entries: Vec<Entry>,
}

impl Ledger {
    /// A ledger for a game whose start optimal play wins with probability `start`.
    pub fn new(start: f64) -> Ledger {
        Ledger {
            start,
            entries: Vec::new(),
        }
    }

    /// Records a step that leaves `μ` at `after`; returns its index.
    pub fn record(&mut self, chance: bool, after: f64) -> usize {
        let step = self.entries.len();
        let before = self.now();
        self.entries.push(Entry {
            step,
            chance,
            before,
            after,
        });
        step
    }

    /// `μ` at the start.
    pub fn start(&self) -> f64 {
        self.start
    }

    /// `μ` now: after the last step (at the end, the result: 1 for a win, 0 for a loss).
    pub fn now(&self) -> f64 {
        self.entries.last().map_or(self.start, |e| e.after)
    }

    /// Every step, in order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// What chance gave (or took, below 0): the changes at chance points.
    pub fn luck(&self) -> f64 {
        self.entries
            .iter()
            .filter(|e| e.chance)
            .map(Entry::change)
            .sum()
    }

    /// What the decisions gave up (never above 0 but for rounding): the changes at decisions.
    pub fn skill(&self) -> f64 {
        self.entries
            .iter()
            .filter(|e| !e.chance)
            .map(Entry::change)
            .sum()
    }

    /// The `n` chance points that moved `μ` most either way, the biggest first (equal ones in
    /// game order).
    pub fn swings(&self, n: usize) -> Vec<Entry> {
        self.ranked(n, |e| e.chance && e.change() != 0.0, |e| -e.change().abs())
    }

    /// The `n` decisions that gave up most, the costliest first (equal ones in game order);
    /// a decision that gave up nothing is not listed.
    pub fn costliest(&self, n: usize) -> Vec<Entry> {
        self.ranked(n, |e| !e.chance && e.change() < 0.0, Entry::change)
    }

    fn ranked(
        &self,
        n: usize,
        keep: impl Fn(&Entry) -> bool,
        key: impl Fn(&Entry) -> f64,
    ) -> Vec<Entry> {
        let mut kept: Vec<Entry> = self.entries.iter().filter(|e| keep(e)).copied().collect();
        // A stable sort: equal keys stay in game order.
        kept.sort_by(|a, b| key(a).total_cmp(&key(b)));
        kept.truncate(n);
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changes_telescope_and_rank() {
        let mut l = Ledger::new(0.5);
        l.record(true, 0.7); // +0.2
        l.record(false, 0.6); // −0.1
        l.record(true, 0.2); // −0.4
        l.record(false, 0.2); // 0
        l.record(true, 1.0); // +0.8
        assert_eq!(l.start(), 0.5);
        assert_eq!(l.now(), 1.0);
        assert!((l.start() + l.luck() + l.skill() - l.now()).abs() < 1e-15);
        assert!((l.skill() + 0.1).abs() < 1e-15);
        let swings: Vec<usize> = l.swings(2).iter().map(|e| e.step).collect();
        assert_eq!(swings, [4, 2]);
        let costly: Vec<usize> = l.costliest(5).iter().map(|e| e.step).collect();
        assert_eq!(costly, [1], "a decision that gave up nothing is not a cost");
    }

    #[test]
    fn an_empty_ledger_is_its_start() {
        let l = Ledger::new(0.25);
        assert_eq!((l.now(), l.luck(), l.skill()), (0.25, 0.0, 0.0));
        assert!(l.swings(3).is_empty() && l.costliest(3).is_empty());
    }
}
