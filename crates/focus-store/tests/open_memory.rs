//! What opening a store costs in resident memory, in a process of its own
//! (sled allocates its process-wide state on the first open, so a test
//! binary that had opened a store before would measure nothing).
//!
//! sled 0.34 allocates 41 metrics histograms of 2^16 counters (21.5 MB) on
//! its first use, even with its metrics compiled out. The store asks for
//! them zeroed (`crates/focus-store/Cargo.toml`), so they stay address
//! space the process never touches; without that, whether they become
//! resident depends on how the optimiser treats sled's zero fill. The
//! workspace's test build turns it into a zeroed allocation by itself, so
//! here the test guards the feature where the optimiser does not: with the
//! feature removed, `cargo test -p focus-store --test open_memory --config
//! 'profile.test.package.sled.opt-level=0'` fails (21.5 MB resident).

#![cfg(target_os = "linux")]

use focus_store::Store;

mod common;
use common::status_kb;

#[test]
fn opening_a_store_does_not_make_sleds_histograms_resident() {
    let dir = tempfile::tempdir().unwrap();
    let before = status_kb("RssAnon");
    let store = Store::open(&dir.path().join("store")).unwrap();
    store.put_meta("probe", &1u64).unwrap();
    store.flush().unwrap();
    let grown = status_kb("RssAnon").saturating_sub(before);
    drop(store);
    // The store's own structures and sled's caches at this size are a few
    // MB at most; the histograms alone would be over 20.
    assert!(
        grown < 10_000,
        "opening a store made {grown} KB resident (sled's metrics histograms are 21,000 KB)"
    );
}
