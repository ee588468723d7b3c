//! Per-game random streams: game `i` at stealth `s` under seed `seed` always gets the same
//! numbers, whatever the thread count, chunking or strategy (docs/guide.md, "What every command shares").

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::game::Streams;

/// The SplitMix64 finaliser: a bijective 64-bit mix.
#[inline]
pub fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The seed of one stream of game `game` at starting stealth `stealth`.
#[inline]
pub fn mix(seed: u64, stealth: u8, game: u64, stream: u64) -> u64 {
    splitmix(splitmix(splitmix(seed ^ u64::from(stealth) << 56) ^ game) ^ stream)
}

/// The two streams of game `game`.
#[inline]
pub fn streams(seed: u64, stealth: u8, game: u64) -> Streams<Xoshiro256PlusPlus> {
    Streams {
        scenario: Xoshiro256PlusPlus::seed_from_u64(mix(seed, stealth, game, 1)),
        dice: Xoshiro256PlusPlus::seed_from_u64(mix(seed, stealth, game, 2)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn streams_differ_by_game_stealth_and_purpose() {
        let first = |s: u8, g: u64| streams(7, s, g).scenario.next_u64();
        assert_ne!(first(10, 0), first(10, 1));
        assert_ne!(first(10, 0), first(12, 0));
        let mut both = streams(7, 10, 0);
        assert_ne!(both.scenario.next_u64(), both.dice.next_u64());
    }
}
