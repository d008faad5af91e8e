//! Reproducible random numbers for tests that break things at random points.
#![allow(dead_code)]

/// A small deterministic generator for tests that break things at random points: the seed is
/// printed, and `MEMVAL_TEST_SEED` replays a failure with it.
pub struct Rng(u64);

impl Rng {
    pub fn from_clock() -> Rng {
        let clock = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64;
        let seed = std::env::var("MEMVAL_TEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(clock) | 1;
        eprintln!("random seed {seed} (MEMVAL_TEST_SEED={seed} replays it)");
        Rng(seed)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}
