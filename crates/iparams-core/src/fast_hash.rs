//! A hasher for the maps on hot paths: the compiled regexes, the settings of each rule, the
//! repeats of keys and labels.
//!
//! std's SipHash is built to resist an attacker who can see its output, at a cost per word that
//! showed on a run over thousands of files. This one takes a word at a time through a folded multiply (the 128-bit product's halves
//! xor-ed), from a seed drawn once per process, so that keys cannot be crafted in advance to
//! collide.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher, RandomState};
use std::sync::OnceLock;

/// A `HashMap` hashed with [`FastHasher`].
pub type FastHashMap<K, V> = HashMap<K, V, FastHash>;

/// Builds [`FastHasher`]s from the process's seed.
#[derive(Debug, Clone, Copy)]
pub struct FastHash {
    seed: u64,
}

impl Default for FastHash {
    fn default() -> Self {
        static SEED: OnceLock<u64> = OnceLock::new();
        Self {
            seed: *SEED.get_or_init(|| RandomState::new().hash_one(0x5EED_u64)),
        }
    }
}

impl BuildHasher for FastHash {
    type Hasher = FastHasher;

    fn build_hasher(&self) -> FastHasher {
        FastHasher { state: self.seed }
    }
}

/// The multiplier of each step: the odd 64-bit number nearest 2^64 over the golden ratio.
const MULTIPLIER: u64 = 0x9E37_79B9_7F4A_7C15;

/// `a` times `b` in 128 bits, the two halves xor-ed: every bit of either reaches the result.
fn folded_multiply(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

/// The hasher [`FastHash`] builds.
#[derive(Debug, Clone)]
pub struct FastHasher {
    state: u64,
}

impl FastHasher {
    fn add(&mut self, word: u64) {
        self.state = folded_multiply(self.state ^ word, MULTIPLIER);
    }
}

impl Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.add(u64::from_le_bytes(word.try_into().unwrap_or_default()));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            // The last byte holds the length, so that "a" and "a\0" differ.
            let mut last = [0; 8];
            last[..rest.len()].copy_from_slice(rest);
            last[7] = rest.len() as u8;
            self.add(u64::from_le_bytes(last));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.add(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.add(u64::from(n));
    }

    fn write_u64(&mut self, n: u64) {
        self.add(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        // Once more, so that the last word's bits reach the low bits the table is indexed by.
        folded_multiply(self.state, MULTIPLIER ^ 0xFF51_AFD7_ED55_8CCD)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    fn hash(value: impl std::hash::Hash) -> u64 {
        FastHash::default().hash_one(value)
    }

    #[test]
    fn equal_keys_hash_alike_and_near_keys_apart() {
        assert_eq!(hash("secret_key"), hash(String::from("secret_key")));
        let keys = [
            "",
            "a",
            "a\0",
            "b",
            "ab",
            "ba",
            "abcdefgh",
            "abcdefgh\0",
            "abcdefghi",
        ];
        let hashes: HashSet<u64> = keys.iter().map(hash).collect();
        assert_eq!(hashes.len(), keys.len(), "two of {keys:?} collide");
        let shapes: HashSet<u64> = (0..1000usize).map(|n| hash(vec![(n, 1usize)])).collect();
        assert_eq!(shapes.len(), 1000);
    }

    #[test]
    fn the_low_bits_spread() {
        // hashbrown indexes by the low bits: sequential keys must not share them.
        let buckets: HashSet<u64> = (0..256u64).map(|n| hash(n) & 0xFF).collect();
        assert!(buckets.len() > 140, "{} of 256 buckets used", buckets.len());
    }
}
