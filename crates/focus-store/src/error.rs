//! Typed store errors: corrupt or foreign data is an error, never a panic.

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The underlying database failed (I/O, or a database sled cannot read).
    #[error("store database error: {0}")]
    Db(String),
    /// The directory holds a database that is not a focus crawl store (or
    /// one of another schema version).
    #[error("{dir} is not a focus crawl store of schema `{expected}` (found {found})")]
    Foreign {
        /// The store directory.
        dir: String,
        /// The schema this build reads.
        expected: String,
        /// What the directory holds.
        found: String,
    },
    /// A stored value cannot be decoded.
    #[error("corrupt value in tree `{tree}` at key {key}: {reason}")]
    Corrupt {
        /// The tree.
        tree: &'static str,
        /// The key, hex-encoded.
        key: String,
        /// What is wrong.
        reason: String,
    },
    /// Writing an export failed.
    #[error("export: {0}")]
    Io(#[from] std::io::Error),
}

/// A sled error, as [`StoreError::Db`].
pub(crate) fn db_err(e: impl std::fmt::Display) -> StoreError {
    StoreError::Db(e.to_string())
}
