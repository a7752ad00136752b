//! The local search engine: an embedded tantivy index over the pages a crawl
//! kept, with BINGO!'s filters and rankings (§3.6).
//!
//! # What is indexed
//!
//! One tantivy document per [`SearchDoc`]:
//!
//! | field | indexed | stored | fast | use |
//! |---|---|---|---|---|
//! | `url` | as one raw term | yes | yes | identity, tie-breaking |
//! | `title`, `text` | with the [`ANALYZER`] (positions kept) | title only | no | BM25 |
//! | `topic` | no | yes | no | returned in [`Hit`] |
//! | `topic_path` | raw, one term per ancestor path | no | no | topic filter |
//! | `confidence`, `authority` | no | yes | yes | rankings |
//!
//! The body text is not stored: hits carry the URL and title, and the
//! caller keeps the pages themselves.
//!
//! # Text analysis
//!
//! Titles, texts and queries go through one named analyzer, [`ANALYZER`]:
//! tantivy's `SimpleTokenizer` (splits on non-alphanumeric characters),
//! tokens longer than 40 bytes dropped, `LowerCaser`, the English
//! `StopWordFilter` (Lucene's list) and the English Snowball `Stemmer`, so
//! "crawling" finds "crawled". Tantivy does not persist analyzers, so
//! [`LocalIndex::create`] and [`LocalIndex::open`] both register it.
//!
//! # Queries
//!
//! [`Query::text`] is parsed strictly by tantivy's `QueryParser` over
//! `title` and `text` (terms are OR-ed; `+term`, `-term`, `"phrases"` and
//! `title:term` work). A query that does not parse is a
//! [`SearchError::BadQuery`](crate::SearchError::BadQuery); one with no
//! searchable term left after analysis (empty, punctuation, only stop
//! words) is a [`SearchError::EmptyQuery`](crate::SearchError::EmptyQuery).
//! Both are errors rather than empty results so that a user sees why
//! nothing came back.
//!
//! # Topic filter
//!
//! Topic paths are `/`-separated (`business/investment`) as in
//! `focus_core::Taxonomy`; empty segments are ignored, so `/a//b/` is `a/b`.
//! A filter `a` matches documents whose topic is `a` or lies below it
//! (`a/b`, `a/b/c`) but not `ab`: each document is indexed under every
//! ancestor path of its topic and the filter is an exact term match on that
//! field. A filter that is empty after normalisation (the root) does not
//! restrict. Documents without a topic only match unfiltered queries.
//!
//! # Ranking and the candidate set
//!
//! Every query first collects the `N = max(10·limit, 1000)` best text
//! matches by BM25 (after the topic filter). [`Ranking::Text`] orders them
//! by BM25; [`Ranking::Confidence`] and [`Ranking::Authority`] re-rank them
//! by the stored field; [`Ranking::Combined`] re-ranks by
//! `w_t·t̂ + w_c·ĉ + w_a·â` where, over the candidates,
//!
//! * `t̂ = bm25 / max bm25` (BM25 is non-negative and 0 means no match, so
//!   the ratio to the best match is meaningful);
//! * `â = max(authority, 0) / max authority` (authorities are
//!   non-negative, 0 when unknown);
//! * `ĉ = (confidence − min) / (max − min)` (a confidence may be a signed
//!   SVM margin, so only its position in the candidates' range counts);
//!
//! each is 0 for every candidate when its denominator is 0. Whenever the
//! query matches at most `N` documents the re-ranking is exact; beyond that,
//! a document outside the `N` best text matches is not seen by the
//! non-text rankings. Equal scores are ordered by URL (ascending), so results
//! are deterministic. [`Hit::score`] is the ranking's score (raw BM25,
//! confidence or authority, or the combined sum).
//!
//! # Cost
//!
//! A [`LocalIndex`] holds one searcher (the index is written once and never
//! reloaded) and the fast-field columns of every segment, opened once: a
//! query costs one BM25 top-`N` collection, `N` fast-field reads, URL reads
//! only for the candidates that can reach the top `limit` (ties included),
//! and `limit` stored-document reads.

mod local_index;
mod ranking;
mod schema;
mod search;
#[cfg(test)]
mod test_corpus;

pub use local_index::LocalIndex;
pub use ranking::Ranking;
pub use schema::{SearchDoc, ANALYZER};
pub use search::{Hit, Query, CANDIDATE_FACTOR, MIN_CANDIDATES};
