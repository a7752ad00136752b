//! BINGO!'s result postprocessing (Sizov et al. 2003, §3.6): a local search
//! engine and a cluster analysis over the pages a focused crawl kept.
//!
//! * [`index`]: [`LocalIndex`], an embedded on-disk full-text index built
//!   with tantivy over [`SearchDoc`]s (URL, title, text, topic path,
//!   classifier confidence, HITS authority). A [`Query`] is filtered to a
//!   topic and its subtopics and ranked by [`Ranking`]: BM25 text relevance,
//!   the classifier's confidence, the authority score, or a weighted linear
//!   sum of the three ("different ranking schemes can be combined into a
//!   linear sum with appropriate weights").
//! * [`cluster`]: spherical k-means over TF-IDF vectors (`focus_text`'s
//!   `SparseVec`) with seeded k-means++ ([`kmeans`]), cluster labels from each centroid's most
//!   characteristic terms ([`label`]), and the choice of the number of
//!   clusters that minimises an entropy-based impurity ([`choose_k`],
//!   [`impurity`]).
//!
//! The crate owns only this postprocessing. It reads what the caller hands
//! it (documents, vectors, a vocabulary) and must not depend on the crawl
//! engine, the fetcher, the store or websim (`focus-crawl`, `focus-fetch`,
//! `focus-store`, `focus-websim`): a crawl's output is converted into
//! [`SearchDoc`]s by whoever owns it. Its only internal dependency is
//! `focus-text` (its `SparseVec`, `TermId` and `Vocab`).
//!
//! ```
//! use focus_search::{LocalIndex, Query, Ranking, SearchDoc};
//!
//! let dir = tempfile::tempdir()?;
//! let docs = vec![
//!     SearchDoc {
//!         url: "http://a.example/aries".into(),
//!         title: "ARIES recovery".into(),
//!         text: "source code release of a recovery manager".into(),
//!         topic: Some("databases/recovery".into()),
//!         confidence: 0.9,
//!         authority: 0.1,
//!     },
//!     SearchDoc {
//!         url: "http://b.example/tennis".into(),
//!         title: "Tennis".into(),
//!         text: "release dates of the tennis season".into(),
//!         topic: Some("sports".into()),
//!         confidence: 0.8,
//!         authority: 0.3,
//!     },
//! ];
//! let index = LocalIndex::create(dir.path(), docs)?;
//! let hits = index.search(&Query {
//!     text: "source code release",
//!     topic: Some("databases"),
//!     ranking: Ranking::Text,
//!     limit: 10,
//! })?;
//! assert_eq!(hits.len(), 1);
//! assert_eq!(hits[0].url, "http://a.example/aries");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

pub mod cluster;
mod error;
pub mod index;

pub use cluster::{choose_k, impurity, kmeans, label, Clustering};
pub use error::SearchError;
pub use index::{Hit, LocalIndex, Query, Ranking, SearchDoc};
