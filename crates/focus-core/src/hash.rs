//! The one 64-bit mixer every crate derives its seeded choices from
//! (SplitMix64's finaliser): deterministic, well mixed, and the same
//! everywhere, so a seed means the same thing in the websim, the distiller
//! and the crawl.

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
