//! The crate's typed errors.

use std::path::PathBuf;

/// Everything that can go wrong while building, opening or querying a
/// [`LocalIndex`](crate::LocalIndex) or parsing a [`Ranking`](crate::Ranking).
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// A file-system operation on the index directory failed.
    #[error("{action} `{path}`: {cause}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The path it was done to.
        path: PathBuf,
        /// The underlying error.
        cause: std::io::Error,
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
    #[error("cannot parse query `{query}`: {cause}")]
    BadQuery {
        /// The query as given.
        query: String,
        /// The parser's complaint.
        cause: tantivy::query::QueryParserError,
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
    Engine(tantivy::TantivyError),
}

// By hand rather than `#[from]`, which would also make the cause the
// error's `source()`: the message already carries it, and a chain printed
// whole would repeat it.
impl From<tantivy::TantivyError> for SearchError {
    fn from(e: tantivy::TantivyError) -> Self {
        Self::Engine(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message carries the cause and `source()` does not repeat it, so
    /// a chain printed whole (anyhow's `Error: … Caused by: …`) says it once.
    #[test]
    fn the_cause_is_said_once() {
        let e = SearchError::Io {
            action: "open",
            path: PathBuf::from("index"),
            cause: std::io::Error::other("permission denied"),
        };
        assert_eq!(e.to_string(), "open `index`: permission denied");
        assert!(std::error::Error::source(&e).is_none());
        let e = SearchError::from(tantivy::TantivyError::InternalError("x".into()));
        assert!(e.to_string().starts_with("search engine: "), "{e}");
        assert!(std::error::Error::source(&e).is_none());
    }
}
