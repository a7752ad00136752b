//! Why a crawl could not run or finish.

use std::path::{Path, PathBuf};

/// Why a crawl could not run or finish.
#[derive(Debug, thiserror::Error)]
pub enum CrawlError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] focus_store::StoreError),
    /// A file of the output directory could not be written.
    #[error("{path}: {cause}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        cause: std::io::Error,
    },
    /// Writing an output failed.
    #[error("output: {0}")]
    Output(String),
    /// The distiller failed.
    #[error("distiller: {0}")]
    Distill(String),
    /// The output directory holds a crawl and `resume` was not asked for.
    #[error(
        "{0} already holds a crawl store: pass --resume to continue it, or choose another --out"
    )]
    Exists(PathBuf),
    /// The output directory's path names something that is not a folder.
    #[error("{0} is not a folder: choose another --out")]
    NotAFolder(PathBuf),
    /// Nothing to crawl.
    #[error("no seed URLs")]
    NoSeeds,
    /// A batch of no URLs: the crawl could never fetch a page.
    #[error("the batch (URLs fetched at once, --concurrency) must be at least 1")]
    ZeroBatch,
}

impl CrawlError {
    pub(crate) fn io(path: &Path, cause: std::io::Error) -> Self {
        Self::Io {
            path: path.to_path_buf(),
            cause,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message carries the cause and `source()` does not repeat it, so
    /// a chain printed whole (anyhow's `Error: … Caused by: …`) says it once.
    #[test]
    fn the_cause_is_said_once() {
        let e = CrawlError::io(
            Path::new("out/pages.jsonl"),
            std::io::Error::other("disk full"),
        );
        assert_eq!(e.to_string(), "out/pages.jsonl: disk full");
        assert!(std::error::Error::source(&e).is_none());
    }
}
