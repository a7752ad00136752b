//! The crawl's durable state: pages, their links, the persisted
//! frontier, run metadata and models, in sled trees with versioned bincode
//! values. [`Store::record_fetch`] records a fetched page, its links and the
//! URLs it adds to the frontier as one atomic operation (beyond 256 new
//! URLs, the first are queued ahead in operations of their own, a state a
//! resume also takes up), which is what makes a crawl killed at any moment
//! resumable; operations are grouped and reach
//! sled in one transaction per [`Store::commit`] (a crawl batch), because
//! each sled transaction costs two synchronous disk writes.
//! [`Store::close`] returns once sled has let go of the files, and
//! [`compact`] rewrites a closed store into a fresh database of its live
//! entries, crash-safely (every open finishes or undoes an interrupted
//! one).
//!
//! Only this crate names `sled`, and only `codec.rs` encodes or decodes
//! stored values, so either can be replaced in one place. No sled type
//! appears in the public API. Depends on `focus-core` only; it must not
//! depend on the frontier, the fetcher or the engine (they map their own
//! types onto [`QueuedUrl`] and [`PageRecord`]).
//!
//! # Example
//!
//! ```
//! use focus_store::{PageRecord, QueuedUrl, Store};
//!
//! let dir = tempfile::tempdir()?;
//! let store = Store::open(&dir.path().join("store"))?;
//! let page = PageRecord {
//!     url: "http://a.test/".into(), id: 1, attempt: 1, retry: false, final_url: None, seq: 0, status: 200, error: None, relevance: 0.9,
//!     class: None, depth: 0, parent: None, fetched_at_ms: 0, bytes: 10,
//!     fingerprint: None, content_hash: None, duplicate: None, link_features: Vec::new(),
//! };
//! let child = QueuedUrl {
//!     url: "http://a.test/x".into(), id: 2, depth: 1, parent: Some(1), priority: 0.9, numtries: 0,
//!     tunnel: 0, extra: vec![], cited: vec![],
//! };
//! // The page, its link and the queued child, in one atomic commit.
//! store.record_fetch(&page, &[(2, child.url.clone())], &[child])?;
//! assert_eq!(store.page_count()?, 1);
//! assert_eq!(store.get_page(1)?.map(|p| p.url), Some("http://a.test/".to_owned()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod codec;
mod compact;
mod error;
mod export;
mod group;
mod held;
mod open;
mod records;
mod store;
mod swap;

pub use compact::{compact, Compaction};
pub use error::StoreError;
pub use records::{PageRecord, QueuedUrl};
pub use store::{Store, StoreConfig, DEFAULT_CACHE_BYTES, SCHEMA, SEGMENT_BYTES};
