//! The crawl's durable state: pages, links and backlinks, the persisted
//! frontier, run metadata and models, in sled trees with versioned bincode
//! values. [`Store::record_fetch`] commits a fetched page, its links and the
//! URLs it adds to the frontier in one transaction, which is what makes a
//! crawl killed at any moment resumable with no page fetched twice.
//!
//! Only this crate names `sled`, and only `codec.rs` encodes or decodes
//! stored values, so either can be replaced in one place. No sled type
//! appears in the public API. Depends on `focus-core` only; it must not
//! depend on the frontier, the fetcher or the engine (they map their own
//! types onto [`QueuedUrl`] and [`PageRecord`]).

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod codec;
mod error;
mod export;
mod records;
mod store;

pub use error::StoreError;
pub use records::{PageRecord, QueuedUrl};
pub use store::{Store, StoreConfig, SCHEMA};
