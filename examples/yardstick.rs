//! A yardstick, not part of raven: the reference strategy under main-text rules written by
//! hand as one specialised kernel, to measure what this machine allows a Monte Carlo kernel
//! (docs/performance.md). Its game flow is deliberately a second copy of the rules for that
//! one case — raven's engines never use it; it checks itself against raven's exact win
//! probability instead (the z-score it prints). What raven has besides the flow it takes from
//! raven: R1's dice table ([`HighestOf`]), the generator (xoshiro256++) and the per-game
//! seeding ([`seed::mix`]).
//!
//! What makes it fast, as in the hand kernel the Monte Carlo targets were set by: the rules'
//! own loops as the control flow; the team's health as bit planes (`team`, at least one
//! wound, at least two, dead) so that a wound, "able" and "fewest wounds" are a few bit
//! operations; one 64-bit draw per check, its high half deciding the check and its low half
//! the first aid that may follow; one random stream a game; fat LTO, one codegen unit,
//! `panic = "abort"` (the release profile).
//!
//! `cargo run --release --features tools --example yardstick -- [GAMES] [STEALTH] [SEED]`
//! (defaults 4 000 000 games, stealth 10, seed 1); time it with `/usr/bin/time`, count its
//! instructions with `valgrind --tool=callgrind`.
use std::time::Instant;

use rand::{Rng as _, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use raven::engine::exact::exact;
use raven::engine::seed;
use raven::game::HighestOf;
use raven::rules::MAIN_TEXT;
use raven::strategy::ReferenceStrategy;

/// R1: the highest of `k` d6 from the 32 random bits at the top of `u` (raven's own table).
#[inline(always)]
fn roll(u: u64, k: u32) -> u32 {
    u32::from(HighestOf::of(k as u8).from_u64(u))
}

#[inline(always)]
fn die(x: &mut u64) -> u32 {
    let wide = (*x as u128) * 6;
    *x = wide as u64;
    (wide >> 64) as u32 + 1
}

#[inline(always)]
fn low(b: u32) -> u32 {
    b & b.wrapping_neg()
}

const MEDIC: u32 = 1 << 5;
const HACKER: u32 = 1;

struct Game {
    team: u32,
    w1: u32,
    w2: u32,
    dead: u32,
    stealth: i32,
    rng: Xoshiro256PlusPlus,
}

impl Game {
    #[inline(always)]
    fn able(&self) -> u32 {
        self.team & !self.w2
    }
    #[inline(always)]
    fn wound(&mut self, b: u32) {
        self.dead |= self.w2 & b;
        self.w2 |= self.w1 & b;
        self.w1 |= b;
    }
    #[inline(always)]
    fn heal(&mut self, b: u32) {
        let in2 = self.w2 & b;
        self.w2 &= !b;
        self.w1 &= !(b ^ in2);
    }
    #[inline(always)]
    fn lose_stealth(&mut self, b: u32) {
        if self.stealth > 0 {
            self.stealth -= 1;
        } else {
            self.wound(b);
        }
    }
    #[inline(always)]
    fn effects(&mut self, r: u32, b: u32) {
        if r <= 2 {
            self.wound(b);
        } else if r <= 5 {
            self.lose_stealth(b);
        }
    }
    #[inline(always)]
    fn fewest(&self) -> u32 {
        let h = self.team & !self.w1;
        if h != 0 { low(h) } else { low(self.able()) }
    }
    /// Reference: the specialist if able, else fewest wounds.
    #[inline(always)]
    fn roller(&self, tb: u32) -> u32 {
        if self.able() & tb != 0 {
            tb
        } else {
            self.fewest()
        }
    }
    /// R15 with the reference's choices; `fin` the finale character (penalty 1) or 0.
    #[inline(always)]
    fn first_aid(&mut self, u: u64, fin: u32) {
        let patients = self.w1 & !self.dead;
        let able = self.able();
        if patients == 0 || able == 0 {
            return;
        }
        let inc = patients & self.w2;
        let patient = if inc != 0 { low(inc) } else { low(patients) };
        let giver = if able & MEDIC != 0 {
            MEDIC
        } else if able & patient != 0 {
            patient
        } else {
            self.fewest()
        };
        let k = if giver == MEDIC { 3 } else { 2 } - (giver == fin) as u32;
        let r = roll(u, k);
        if r >= 5 {
            self.heal(patient);
        }
        if r <= 2 {
            self.wound(patient);
        } else if r <= 5 {
            self.lose_stealth(giver);
        }
    }
    /// Plays one game; 1 on a win.
    #[inline(always)]
    fn play(&mut self) -> u32 {
        // R6
        let mut x = self.rng.next_u64();
        let mut comp = [0u32; 7];
        for c in comp.iter_mut().skip(1) {
            *c = die(&mut x);
        }
        // R7/R8
        let mut size = 1;
        for target in [6u32, 2, 3, 5, 4] {
            let n = size;
            let tb = 1u32 << (comp[target as usize] - 1);
            let mut succ = 0;
            while succ < n {
                let u = self.rng.next_u64();
                let roller = self.roller(tb);
                let k = if roller == tb { 3 } else { 2 };
                let r = roll(u, k);
                self.effects(r, roller);
                if r >= 5 {
                    succ += 1;
                    if succ == n {
                        self.team |= 1 << (target - 1);
                        size += 1;
                    }
                    if self.able() == 0 {
                        return 0;
                    }
                    self.first_aid(u << 32, 0);
                }
                if self.able() == 0 {
                    return 0;
                }
            }
            if size == 4 {
                break;
            }
        }
        // R10
        for _ in 0..6 {
            let mut ty = die(&mut self.rng.next_u64());
            if ty == 6 {
                let l = low(self.able() & !MEDIC);
                ty = if l == 0 { 1 } else { l.trailing_zeros() + 1 };
            }
            let tb = 1u32 << (ty - 1);
            loop {
                let u = self.rng.next_u64();
                let roller = self.roller(tb);
                let k = if roller == tb { 3 } else { 2 };
                let r = roll(u, k);
                self.effects(r, roller);
                if self.able() == 0 {
                    return 0;
                }
                if r >= 5 {
                    self.first_aid(u << 32, 0);
                    if self.able() == 0 {
                        return 0;
                    }
                    break;
                }
            }
        }
        // R11–R14
        let fin = if self.able() & HACKER != 0 {
            HACKER
        } else {
            self.fewest()
        };
        let base = if fin == HACKER { 3 } else { 2 };
        for tough in 0..3 {
            let mut x = self.rng.next_u64();
            let sides = [die(&mut x), die(&mut x)];
            let mut s = 0;
            for t in sides {
                let tb = 1u32 << (t - 1);
                if tb == fin || self.able() & tb == 0 {
                    continue;
                }
                for _ in 0..3 {
                    let u = self.rng.next_u64();
                    let r = roll(u, 3);
                    self.effects(r, tb);
                    if self.able() == 0 {
                        return 0;
                    }
                    if r >= 5 {
                        s += 1;
                        break;
                    }
                    if self.able() & tb == 0 {
                        break;
                    }
                }
            }
            let k = base - if s >= 1 { 0 } else { 1 };
            let threshold = if s == 2 { 4 } else { 5 };
            loop {
                if self.able() & fin == 0 {
                    return 0;
                }
                let u = self.rng.next_u64();
                let r = roll(u, k);
                self.effects(r, fin);
                if r >= threshold {
                    if tough == 2 {
                        return 1;
                    }
                    if self.able() == 0 {
                        return 0;
                    }
                    self.first_aid(u << 32, fin);
                    if self.able() == 0 {
                        return 0;
                    }
                    break;
                }
                if self.able() == 0 {
                    return 0;
                }
            }
        }
        unreachable!()
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().map_or(4_000_000, |a| a.parse().expect("GAMES"));
    let stealth: u8 = args.next().map_or(10, |a| a.parse().expect("STEALTH"));
    let seed: u64 = args.next().map_or(1, |a| a.parse().expect("SEED"));
    let start = Instant::now();
    let mut wins = 0u64;
    for i in 0..games {
        let mut game = Game {
            team: HACKER,
            w1: 0,
            w2: 0,
            dead: 0,
            stealth: i32::from(stealth),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed::mix(seed, stealth, i, 2)),
        };
        wins += u64::from(game.play());
    }
    let seconds = start.elapsed().as_secs_f64();
    let p = wins as f64 / games as f64;
    let exact = exact(&MAIN_TEXT, &ReferenceStrategy, &[stealth]).expectations[0].win;
    let z = (p - exact) / (exact * (1.0 - exact) / games as f64).sqrt();
    println!(
        "{games} games at stealth {stealth}: P(win) {p:.6} (exact {exact:.6}, z {z:+.2}); \
         {seconds:.3} s, {:.3} M games/s",
        games as f64 / seconds / 1e6
    );
}
