//! Paired Monte Carlo: several strategies on the *same* games (common random numbers).
//!
//! Game `i` of every strategy starts from the same streams ([`super::seed::streams`]), so the
//! strategies face the same complications, challenge types and — as long as they make the same
//! checks — the same dice. Chunking, seeding and integer reduction are those of
//! [`super::montecarlo`]: results are identical for any thread count.

use std::ops::{Add, AddAssign};
use std::sync::atomic::AtomicBool;

use crate::game::Outcome;
use crate::rules::Rules;
use crate::stats::Paired;
use crate::strategy::Strategy;

use super::montecarlo::{Tally, in_chunks, play_one};
use crate::engine::budget::Cancelled;

/// Counts over a set of paired games: one [`Tally`] per strategy and, per strategy, the joint
/// outcome counts against the first strategy (the first entry compares it with itself).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PairedTally {
    /// Per strategy.
    pub tallies: Vec<Tally>,
    /// Per strategy: joint outcomes against strategy 0.
    pub joint: Vec<Paired>,
}

impl PairedTally {
    /// Empty counts for `strategies` strategies.
    pub fn new(strategies: usize) -> PairedTally {
        PairedTally {
            tallies: vec![Tally::default(); strategies],
            joint: vec![Paired::default(); strategies],
        }
    }
}

impl AddAssign for PairedTally {
    fn add_assign(&mut self, other: PairedTally) {
        for (mine, theirs) in self.tallies.iter_mut().zip(other.tallies) {
            *mine += theirs;
        }
        for (mine, theirs) in self.joint.iter_mut().zip(other.joint) {
            mine.both += theirs.both;
            mine.only_baseline += theirs.only_baseline;
            mine.only_other += theirs.only_other;
            mine.neither += theirs.neither;
        }
    }
}

impl Add for PairedTally {
    type Output = PairedTally;
    fn add(mut self, other: PairedTally) -> PairedTally {
        self += other;
        self
    }
}

/// A paired run: `games` games at starting stealth `stealth`, each played by every strategy.
#[derive(Clone, Copy)]
pub struct PairedJob<'a> {
    /// The rules in force.
    pub rules: &'a Rules,
    /// The strategies; the first is the baseline.
    pub strategies: &'a [&'a dyn Strategy],
    /// Starting stealth.
    pub stealth: u8,
    /// Number of games.
    pub games: u64,
    /// The run's seed.
    pub seed: u64,
}

/// Plays games `range` of `job` with every strategy on this thread.
pub fn play_paired_range(job: &PairedJob<'_>, range: std::ops::Range<u64>) -> PairedTally {
    let mut tally = PairedTally::new(job.strategies.len());
    for game in range {
        let mut baseline_won = false;
        for (k, strategy) in job.strategies.iter().enumerate() {
            let end = play_one(job.rules, *strategy, job.seed, job.stealth, game);
            tally.tallies[k].record(&end);
            let won = end.outcome() == Some(Outcome::Win);
            if k == 0 {
                baseline_won = won;
            }
            let joint = &mut tally.joint[k];
            match (baseline_won, won) {
                (true, true) => joint.both += 1,
                (true, false) => joint.only_baseline += 1,
                (false, true) => joint.only_other += 1,
                (false, false) => joint.neither += 1,
            }
        }
    }
    tally
}

/// Plays the paired job in parallel on the current rayon pool. `progress` is called with the
/// number of games of each finished chunk; `cancel` is polled between chunks.
pub fn simulate_paired(
    job: &PairedJob<'_>,
    progress: &(dyn Fn(u64) + Sync),
    cancel: &AtomicBool,
) -> Result<PairedTally, Cancelled> {
    let n = job.strategies.len();
    in_chunks(
        job.games,
        || PairedTally::new(n),
        |range| play_paired_range(job, range),
        progress,
        cancel,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::montecarlo::{CHUNK, Job, play_range};
    use crate::stats::{paired_difference, unpaired_difference};
    use crate::strategy::{ReferenceStrategy, bundled};

    fn run(strategies: &[&dyn Strategy], games: u64, threads: usize) -> PairedTally {
        let rules = Rules::default();
        let job = PairedJob {
            rules: &rules,
            strategies,
            stealth: 10,
            games,
            seed: 99,
        };
        let run = || simulate_paired(&job, &|_| {}, &AtomicBool::new(false)).unwrap();
        #[cfg(feature = "parallel")]
        return rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(run);
        #[cfg(not(feature = "parallel"))]
        {
            let _ = threads;
            run()
        }
    }

    #[test]
    fn each_strategy_tallies_as_if_run_alone() {
        let file = bundled("no-first-aid").unwrap().unwrap();
        let strategies: [&dyn Strategy; 2] = [&ReferenceStrategy, &file];
        let paired = run(&strategies, 3 * CHUNK / 2, 2);
        let rules = Rules::default();
        for (k, strategy) in strategies.iter().enumerate() {
            let job = Job {
                rules: &rules,
                strategy: *strategy,
                stealth: 10,
                games: 3 * CHUNK / 2,
                seed: 99,
            };
            assert_eq!(paired.tallies[k], play_range(&job, 0..job.games));
        }
        assert_eq!(paired.joint[1].games(), 3 * CHUNK / 2);
        assert_eq!(
            paired.joint[1].both + paired.joint[1].only_other,
            paired.tallies[1].wins
        );
        assert_eq!(
            paired.joint[1].both + paired.joint[1].only_baseline,
            paired.tallies[0].wins
        );
    }

    #[test]
    fn independent_of_thread_count() {
        let file = bundled("cautious").unwrap().unwrap();
        let strategies: [&dyn Strategy; 2] = [&ReferenceStrategy, &file];
        assert_eq!(run(&strategies, 40_000, 1), run(&strategies, 40_000, 2));
    }

    #[test]
    fn self_comparison_is_exactly_zero() {
        let strategies: [&dyn Strategy; 2] = [&ReferenceStrategy, &ReferenceStrategy];
        let paired = run(&strategies, 20_000, 2);
        let joint = paired.joint[1];
        assert_eq!(joint.only_baseline + joint.only_other, 0);
        assert_eq!(joint.difference(), 0.0);
        assert_eq!(paired_difference(&joint, 0.95), (0.0, 0.0));
    }

    #[test]
    fn paired_interval_is_narrower_than_unpaired_for_similar_strategies() {
        // Reference vs the same with side challenges tried once more: mostly the same games.
        let similar =
            crate::strategy::FileStrategy::parse("similar", "test", "[side]\nmax_attempts = 4\n")
                .unwrap();
        let strategies: [&dyn Strategy; 2] = [&ReferenceStrategy, &similar];
        let paired = run(&strategies, 50_000, 2);
        let (t0, t1) = (paired.tallies[0], paired.tallies[1]);
        let (plo, phi) = paired_difference(&paired.joint[1], 0.95);
        let (ulo, uhi) = unpaired_difference(t0.wins, t0.games, t1.wins, t1.games, 0.95);
        assert!(
            phi - plo < 0.5 * (uhi - ulo),
            "paired {plo}..{phi} vs unpaired {ulo}..{uhi}"
        );
    }
}
