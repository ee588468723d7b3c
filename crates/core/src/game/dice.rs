//! Dice: "highest of k d6" as one table used both to sample and to sum exactly.
//!
//! Sampling uses only `next_u64` and our own arithmetic, so the numbers a seed produces never
//! change with a `rand` release.

use rand::Rng;

/// The most dice a check can roll: a speciality check rolls 3 in the printed game, and up to
/// 6 under `specialist-dice` (R1).
pub const MAX_DICE: u8 = 6;

/// The distribution of the highest of `k` d6 (R1), for `k` in `1..=MAX_DICE`.
#[derive(Clone, Copy, Debug)]
pub struct HighestOf {
    /// `P(highest = m)` at index `m - 1`.
    probabilities: [f64; 6],
    /// `thresholds[m - 1]` = ⌈P(highest ≤ m) · 2⁶⁴⌉ for `m` in 1..=5: a uniform u64 at or above
    /// it has highest > m.
    thresholds: [u64; 5],
}

impl HighestOf {
    /// The table for `k` dice (`k >= 1`).
    pub const fn new(k: u8) -> HighestOf {
        assert!(k >= 1, "a check rolls at least one die");
        let total = 6u128.pow(k as u32);
        let mut probabilities = [0.0; 6];
        let mut thresholds = [0u64; 5];
        let mut m = 1;
        while m <= 6 {
            let at_most = (m as u128).pow(k as u32);
            let below = ((m - 1) as u128).pow(k as u32);
            probabilities[m - 1] = (at_most - below) as f64 / total as f64;
            if m <= 5 {
                // ⌈at_most / total · 2⁶⁴⌉, exact in u128 arithmetic (total ≤ 6⁶ < 2⁶⁴).
                let scaled = (at_most << 64).div_ceil(total);
                thresholds[m - 1] = scaled as u64;
            }
            m += 1;
        }
        HighestOf {
            probabilities,
            thresholds,
        }
    }

    /// The table for `k` dice, `k` in `1..=MAX_DICE`.
    pub fn of(k: u8) -> &'static HighestOf {
        &TABLES[usize::from(k) - 1]
    }

    /// `P(highest = m)` for `m` in 1..=6.
    pub fn probability(&self, m: u8) -> f64 {
        self.probabilities[usize::from(m) - 1]
    }

    /// The highest die for one uniform 64-bit draw (branch-free: five comparisons).
    #[inline]
    pub fn from_u64(&self, x: u64) -> u8 {
        1 + self
            .thresholds
            .iter()
            .map(|&t| u8::from(x >= t))
            .sum::<u8>()
    }

    /// Rolls `k` dice and returns the highest, using one `next_u64`.
    #[inline]
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u8 {
        self.from_u64(rng.next_u64())
    }
}

static TABLES: [HighestOf; MAX_DICE as usize] = [
    HighestOf::new(1),
    HighestOf::new(2),
    HighestOf::new(3),
    HighestOf::new(4),
    HighestOf::new(5),
    HighestOf::new(6),
];

/// A uniform integer in `0..n` from one `next_u64` (multiply-high; bias below n/2⁶⁴).
#[inline]
pub fn uniform<R: Rng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    ((u128::from(rng.next_u64()) * u128::from(n)) >> 64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r1_highest_of_k_matches_closed_form() {
        for k in 1..=MAX_DICE {
            let table = HighestOf::of(k);
            let mut sum = 0.0;
            for m in 1..=6u8 {
                let expected =
                    (f64::from(m) / 6.0).powi(k.into()) - (f64::from(m - 1) / 6.0).powi(k.into());
                assert!((table.probability(m) - expected).abs() < 1e-15);
                sum += table.probability(m);
            }
            assert!(
                (sum - 1.0).abs() < 1e-15,
                "k={k}: probabilities sum to {sum}"
            );
        }
    }

    #[test]
    fn thresholds_split_the_u64_range_in_exact_proportions() {
        let table = HighestOf::of(2);
        assert_eq!(table.from_u64(0), 1);
        assert_eq!(table.from_u64(u64::MAX), 6);
        // P(highest ≤ 1) = 1/36: the boundary sits at ⌈2⁶⁴/36⌉.
        let boundary = ((1u128 << 64).div_ceil(36)) as u64;
        assert_eq!(table.from_u64(boundary - 1), 1);
        assert_eq!(table.from_u64(boundary), 2);
    }

    #[test]
    fn uniform_covers_its_range() {
        struct Fixed(u64);
        impl rand::TryRng for Fixed {
            type Error = core::convert::Infallible;
            fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
                Ok(self.0 as u32)
            }
            fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
                Ok(self.0)
            }
            fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
                Ok(())
            }
        }
        assert_eq!(uniform(&mut Fixed(0), 6), 0);
        assert_eq!(uniform(&mut Fixed(u64::MAX), 6), 5);
        assert_eq!(uniform(&mut Fixed(1 << 63), 6), 3);
    }
}
