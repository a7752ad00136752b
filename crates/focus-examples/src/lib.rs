//! The example-set format every crawler reads (`--examples DIR --good PATH`):
//! how a user's bookmarks become a taxonomy with labelled examples.
//!
//! ```text
//! DIR/
//!   business/                  a topic (folders nest: taxonomy levels)
//!     investment/
//!       mutual_funds/
//!         vanguard.html        an example page (.html / .htm)
//!         notes.txt            an example as plain text (.txt)
//!         urls.txt             example URLs, one per line (# comments)
//!   recreation/cycling/...
//! ```
//!
//! Each folder below `DIR` is a topic; its path relative to `DIR` is the
//! topic path (`business/investment/mutual_funds`). Files directly in `DIR`
//! are ignored (they belong to no topic). Hidden entries and other file types
//! are skipped and counted. Good topics are given separately as paths.
//!
//! The same set can come from a browser's bookmarks export instead
//! (`--bookmarks FILE`, [`load_bookmarks`]): its folders are the topics and
//! its bookmarked http(s) pages the example URLs.
//!
//! This crate owns reading that folder or file (file I/O only, no network:
//! the URLs of `urls.txt` and of bookmarks are returned for the caller to
//! fetch). It depends on `focus-core` (and html5ever's tokenizer for
//! bookmarks files) and must not depend on the fetcher, analysers or
//! classifiers.

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod bookmarks;
mod load;

pub use bookmarks::{load_bookmarks, parse_bookmarks, topic_name};
pub use load::{load, Example, ExampleContent, ExampleSet, ExamplesError, LoadOptions, Skipped};
