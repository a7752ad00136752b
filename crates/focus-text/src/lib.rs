//! Text features for focused crawling: from visible text to sparse term
//! vectors. One file per stage, each with its tests (tantivy's layout):
//! [`tokenizer`] → [`stopwords`] → [`stem`] → [`analyzer`] (the configured
//! pipeline) → [`vocab`] (terms to ids, growable or hashed) → [`counts`](mod@counts)
//! (term counts, term pairs, anchor features) → [`docfreq`] (corpus
//! statistics behind [`CorpusStats`]) → [`weighting`] (TF-IDF exactly as
//! Bergmark, Diligenti and BINGO! define it) → [`SparseVec`].
//!
//! Deterministic and I/O-free. Depends on no other `focus-*` crate; it must
//! not depend on `focus-html`, the fetcher or any crawl state (a classifier
//! trainer uses it offline).
//!
//! # Example
//!
//! ```
//! use focus_text::{counts, Analyzer, HashingVocabulary, TextConfig};
//!
//! let analyzer = Analyzer::new(TextConfig::chakrabarti());
//! let mut vocab = HashingVocabulary::new(20);
//! let v = counts(&analyzer, &mut vocab, "The cyclists rode; the cyclists rested.");
//! // Stop words go, the rest are counted.
//! assert_eq!(v.sum(), 4.0);
//! assert_eq!(v.len(), 3);
//! ```

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod analyzer;
pub mod counts;
pub mod docfreq;
mod sparse;
pub mod stem;
pub mod stopwords;
pub mod tokenizer;
pub mod vocab;
pub mod weighting;

pub use analyzer::{Analyzer, TextConfig};
pub use counts::{anchor_terms, counts, term_pairs};
pub use docfreq::{CorpusStats, DocFreq};
pub use sparse::{SparseVec, TermId};
pub use vocab::{HashingVocabulary, Vocab, Vocabulary};
pub use weighting::{Bergmark, Bingo, Diligenti, Weighting};
