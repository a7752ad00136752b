//! The one 64-bit mixer every crate derives its seeded choices from
//! (SplitMix64's finaliser): deterministic, well mixed, and the same
//! everywhere, so a seed means the same thing in the websim, the distiller
//! and the crawl. Also the hasher for maps keyed by ids that are already
//! hashes (page ids, hashed term ids).

use std::hash::{BuildHasherDefault, Hasher};

/// SplitMix64 finaliser: a well-mixed 64-bit hash of `x`.
///
/// ```
/// assert_eq!(focus_core::mix64(0), 0xe220_a839_7b1d_cdaf);
/// assert_ne!(focus_core::mix64(1), focus_core::mix64(2));
/// ```
pub fn mix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A [`Hasher`] for keys that are already hashes or dense ids (page ids
/// are XXH3 hashes of the URL, term ids hashes of the term): one multiply
/// spreads them, where std's SipHash would spend more time than the look-up.
/// Not for keys an adversary chooses.
#[derive(Default)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ (n >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    }
}

/// Builds [`IdHasher`]s: `HashMap<K, V, IdHashing>`.
pub type IdHashing = BuildHasherDefault<IdHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    #[test]
    fn ids_of_both_widths_hash_as_their_value_and_spread() {
        let h = |x: &dyn Fn(&mut IdHasher)| {
            let mut s = IdHashing::default().build_hasher();
            x(&mut s);
            s.finish()
        };
        assert_eq!(h(&|s| 7u32.hash(s)), h(&|s| 7u64.hash(s)));
        let buckets: std::collections::HashSet<u64> =
            (0u64..64).map(|i| h(&|s| i.hash(s)) >> 58).collect();
        assert!(buckets.len() > 32, "consecutive ids fill the top bits");
    }
}
