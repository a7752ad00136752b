//! The crate's typed errors.

use std::path::PathBuf;

/// Everything that can go wrong while building, opening or querying a
/// [`LocalIndex`](crate::LocalIndex) or parsing a [`Ranking`](crate::Ranking).
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// A file-system operation on the index directory failed.
    #[error("{action} `{path}`: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The path it was done to.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// `create` refuses to wipe a non-empty directory that is not a search
    /// index (it has no `meta.json`).
    #[error("refusing to replace `{0}`: it is not empty and holds no search index")]
    NotEmpty(PathBuf),
    /// The directory holds no index written by this crate.
    #[error("`{path}` is not a focus-search index: {reason}")]
    NotAnIndex {
        /// The directory.
        path: PathBuf,
        /// Why it was rejected.
        reason: String,
    },
    /// A document cannot be indexed.
    #[error("cannot index `{url}`: {reason}")]
    InvalidDoc {
        /// The document's URL.
        url: String,
        /// Why it was rejected.
        reason: String,
    },
    /// The query text does not parse in tantivy's query language.
    #[error("cannot parse query `{query}`: {source}")]
    BadQuery {
        /// The query as given.
        query: String,
        /// The parser's complaint.
        #[source]
        source: tantivy::query::QueryParserError,
    },
    /// The query has no searchable term (empty, only punctuation or only
    /// stop words).
    #[error("query `{0}` has no searchable term (empty, punctuation or stop words only)")]
    EmptyQuery(String),
    /// A ranking name or its weights are not valid.
    #[error("invalid ranking `{0}`: expected text, confidence, authority, combined or combined:T,C,A with finite non-negative weights not all zero")]
    BadRanking(String),
    /// The search engine failed.
    #[error("search engine: {0}")]
    Engine(#[from] tantivy::TantivyError),
}
