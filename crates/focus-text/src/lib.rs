//! Text features for focused crawling: from visible text to sparse term
//! vectors (tokenizer, stop words, stemming, vocabularies, term counts,
//! TF-IDF weightings of the papers).
//!
//! Deterministic and I/O-free. Depends on no other `focus-*` crate except
//! `focus-core`; it must not depend on `focus-html`, the fetcher or any crawl
//! state (a classifier trainer uses it offline).

mod sparse;

pub use sparse::{SparseVec, TermId};
