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
    Io(std::io::Error),
}

// By hand rather than `#[from]`, which would also make the cause the
// error's `source()`: the message already carries it, and a chain printed
// whole would repeat it.
impl From<std::io::Error> for StoreError {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

/// A sled error, as [`StoreError::Db`].
pub(crate) fn db_err(e: impl std::fmt::Display) -> StoreError {
    StoreError::Db(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message carries the cause and `source()` does not repeat it, so
    /// a chain printed whole (anyhow's `Error: … Caused by: …`) says it once.
    #[test]
    fn the_cause_is_said_once() {
        let e = StoreError::from(std::io::Error::other("disk full"));
        assert_eq!(e.to_string(), "export: disk full");
        assert!(std::error::Error::source(&e).is_none());
    }
}
