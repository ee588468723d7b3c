//! `--shard K/N`: which part of a run's work this process does.
//!
//! raven grows no distribution layer of its own (the engines stay deterministic and
//! parallel on one machine): a cluster runs the N shards of one run as a job array of its own
//! scheduler, each shard writes a shard file, and `raven merge` joins them. What makes that exact is that
//! every unit of work is deterministic on its own — game `i` draws from streams seeded by
//! (seed, stealth, `i`), a grid point is solved and evaluated exactly — so a unit gives the
//! same result in whichever process it runs, and the shards only have to split the units
//! between them, each unit to exactly one shard. Two ways of splitting, for two kinds of unit:
//!
//! - [`Shard::range`]: a contiguous block of a count (the games of one stealth). Monte Carlo
//!   cost is the same for every game, so equal blocks are equal work, and the merged counts
//!   are sums of integers — exact in any order.
//! - [`Shard::owns`]: every N-th unit of a list (grid points, sweep cells). Grid points differ
//!   in cost, usually smoothly along an axis (a longer run is dearer to solve), so dealing
//!   them out like cards balances the shards where contiguous blocks would not.
//!
//! Shards are numbered from 1 (`1/3`, `2/3`, `3/3`), as in other sharding test runners
//! (`--shard 1/3` of Playwright and Jest, `--partition count:1/3` of nextest): with a Slurm job
//! array `--array=1-N`, `--shard $SLURM_ARRAY_TASK_ID/N` names them.

use std::fmt;
use std::ops::Range;

use clap::Args;

/// Most shards of one run: far more than any cluster runs at once, small enough that the
/// list of missing shards in `raven merge`'s message stays printable.
pub const MAX_SHARDS: u64 = 100_000;

/// Shard `index` of `count` (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, 1..=`count`.
    pub index: u64,
    /// How many shards the run is split into.
    pub count: u64,
}

/// `--shard K/N`, shared by every command that can split its work.
#[derive(Args, Debug, Clone)]
pub struct ShardArgs {
    /// Do only shard K of N of the work (1 ≤ K ≤ N) and write it to `--out` as a shard file;
    /// `raven merge` joins the N shard files into exactly the CSV of the whole run.
    #[arg(long, value_name = "K/N", value_parser = parse, requires = "out")]
    pub shard: Option<Shard>,
}

/// Parses `K/N`, 1 ≤ K ≤ N ≤ [`MAX_SHARDS`].
pub fn parse(text: &str) -> Result<Shard, String> {
    let bad = || format!("'{text}' is not of the form K/N (shard K of N, e.g. 2/8)");
    let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
    let k: u64 = k.trim().parse().map_err(|_| bad())?;
    let n: u64 = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || n > MAX_SHARDS {
        return Err(format!(
            "'{text}': the number of shards must be 1..={MAX_SHARDS}"
        ));
    }
    if k == 0 || k > n {
        return Err(format!(
            "'{text}': the shard must be 1..={n} (shards are numbered from 1)"
        ));
    }
    Ok(Shard { index: k, count: n })
}

impl Shard {
    /// The whole run: one shard of one.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// This shard's block of `0..total`: the blocks of shards 1..=N are contiguous, in order,
    /// and cover `0..total` once; their sizes differ by at most 1.
    pub fn range(&self, total: u64) -> Range<u64> {
        let at = |k: u64| (u128::from(total) * u128::from(k) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }

    /// Whether unit `unit` of a list is this shard's: every N-th, starting at unit K-1.
    pub fn owns(&self, unit: usize) -> bool {
        unit as u64 % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_refuse_what_names_no_shard() {
        assert_eq!(parse("2/8"), Ok(Shard { index: 2, count: 8 }));
        assert_eq!(parse("1/1"), Ok(Shard::WHOLE));
        for bad in ["0/3", "4/3", "1/0", "3", "a/3", "1/3/4", "-1/3", "1/100001"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
        assert_eq!(parse("2/8").unwrap().to_string(), "2/8");
    }

    #[test]
    fn blocks_cover_every_unit_once_in_order() {
        for total in [0u64, 1, 5, 40_001, 1_000_000_000_000] {
            for count in [1u64, 2, 3, 7, 10] {
                let mut next = 0;
                for index in 1..=count {
                    let r = Shard { index, count }.range(total);
                    assert_eq!(r.start, next);
                    assert!(r.end - r.start <= total.div_ceil(count));
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn dealt_units_go_to_exactly_one_shard() {
        for count in [1u64, 2, 3, 7] {
            for unit in 0..50 {
                let owners = (1..=count)
                    .filter(|&index| Shard { index, count }.owns(unit))
                    .count();
                assert_eq!(owners, 1);
            }
        }
    }
}
