//! A small deterministic PRNG (SplitMix64): the same seed gives the same program on every
//! platform and build.

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed ^ 0x5EED_D1FF_7E57_0000)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (0 when n is 0).
    pub fn below(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// True with probability 1/n.
    pub fn one_in(&mut self, n: u32) -> bool {
        self.below(n) == 0
    }

    pub fn range(&mut self, lo: u32, hi_inclusive: u32) -> u32 {
        lo + self.below(hi_inclusive - lo + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_sequence() {
        let a: Vec<u64> = {
            let mut r = Rng::new(42);
            (0..100).map(|_| r.next_u64()).collect()
        };
        let b: Vec<u64> = {
            let mut r = Rng::new(42);
            (0..100).map(|_| r.next_u64()).collect()
        };
        assert_eq!(a, b);
        let mut c = Rng::new(43);
        assert_ne!(a[0], c.next_u64());
    }

    const KNOWN_SEED_1: [u32; 8] = [55, 33, 59, 57, 42, 71, 0, 57];

    #[test]
    fn known_values_stay_fixed() {
        // Programs are named by seed: the sequence must never change silently.
        let mut r = Rng::new(1);
        let first: Vec<u32> = (0..8).map(|_| r.below(100)).collect();
        assert_eq!(
            first, KNOWN_SEED_1,
            "the PRNG changed: every seed names a new program"
        );
        let mut r = Rng::new(7);
        let v: Vec<u32> = (0..1000).map(|_| r.below(10)).collect();
        assert!(v.iter().all(|&x| x < 10));
        for k in 0..10 {
            assert!(v.contains(&k), "{k} never drawn");
        }
    }
}
