//! The index on disk: [`LocalIndex`], building it in a directory (replacing
//! an index there but refusing to wipe anything else), reopening it, and the
//! searcher and per-segment fast-field columns it keeps open for queries.

use std::fmt;
use std::path::{Path, PathBuf};

use tantivy::columnar::{Column, StrColumn};
use tantivy::query::QueryParser;
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, Searcher};

use super::schema::{register_analyzer, Fields, SearchDoc};
use crate::SearchError;

/// The commit payload that marks an index as written by this crate (and its
/// schema version).
const PAYLOAD: &str = "focus-search/1";

/// Indexing memory budget (tantivy's minimum per thread is 15 MB).
const WRITER_MEMORY: usize = 50_000_000;

/// Fast-field columns of one segment.
pub(super) struct SegmentColumns {
    pub(super) url: StrColumn,
    pub(super) confidence: Column<f64>,
    pub(super) authority: Column<f64>,
}

/// An on-disk full-text index over the pages of a crawl (see the
/// [module docs](crate::index)).
pub struct LocalIndex {
    pub(super) dir: PathBuf,
    pub(super) fields: Fields,
    pub(super) parser: QueryParser,
    // The reader is kept so the searcher's generation stays registered.
    _reader: IndexReader,
    pub(super) searcher: Searcher,
    pub(super) columns: Vec<SegmentColumns>,
}

impl fmt::Debug for LocalIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LocalIndex")
            .field("dir", &self.dir)
            .field("docs", &self.len())
            .field("segments", &self.columns.len())
            .finish_non_exhaustive()
    }
}

/// Wraps an I/O error from `action` on `path` as a [`SearchError::Io`].
pub(super) fn io_err<'p>(
    action: &'static str,
    path: &'p Path,
) -> impl FnOnce(std::io::Error) -> SearchError + 'p {
    move |cause| SearchError::Io {
        action,
        path: path.to_path_buf(),
        cause,
    }
}

/// Makes `dir` an empty directory: created when missing, emptied when it
/// holds an index (`meta.json`), refused when it holds anything else.
fn prepare_dir(dir: &Path) -> Result<(), SearchError> {
    if !dir.exists() {
        return std::fs::create_dir_all(dir).map_err(io_err("create directory", dir));
    }
    let entries: Vec<std::fs::DirEntry> = std::fs::read_dir(dir)
        .map_err(io_err("read directory", dir))?
        .collect::<Result<_, _>>()
        .map_err(io_err("read directory", dir))?;
    if entries.is_empty() {
        return Ok(());
    }
    if !dir.join("meta.json").is_file() {
        return Err(SearchError::NotEmpty(dir.to_path_buf()));
    }
    for entry in entries {
        let path = entry.path();
        let is_dir = entry
            .file_type()
            .map_err(io_err("inspect", &path))?
            .is_dir();
        if is_dir {
            std::fs::remove_dir_all(&path).map_err(io_err("remove", &path))?;
        } else {
            std::fs::remove_file(&path).map_err(io_err("remove", &path))?;
        }
    }
    Ok(())
}

impl LocalIndex {
    /// Builds an index of `docs` in `dir` with one commit, replacing the
    /// index that is there. `dir` is created when missing; a non-empty
    /// directory that holds no index (no `meta.json`) is refused with
    /// [`SearchError::NotEmpty`] rather than wiped. A document with a
    /// non-finite confidence or authority is a [`SearchError::InvalidDoc`]
    /// (and nothing is committed).
    pub fn create(
        dir: &Path,
        docs: impl IntoIterator<Item = SearchDoc>,
    ) -> Result<LocalIndex, SearchError> {
        prepare_dir(dir)?;
        let index = Index::create_in_dir(dir, Fields::schema())?;
        register_analyzer(&index)?;
        let fields = Fields::from_schema(&index.schema(), dir)?;
        // One indexing thread: documents keep their order, so the same input
        // gives the same segments and the same doc addresses.
        let mut writer: IndexWriter = index.writer_with_num_threads(1, WRITER_MEMORY)?;
        for doc in docs {
            writer.add_document(fields.document(&doc)?)?;
        }
        let mut commit = writer.prepare_commit()?;
        commit.set_payload(PAYLOAD);
        commit.commit()?;
        writer.wait_merging_threads()?;
        Self::from_index(&index, dir)
    }

    /// Opens an index that [`LocalIndex::create`] wrote.
    pub fn open(dir: &Path) -> Result<LocalIndex, SearchError> {
        let not_an_index = |reason: &str| SearchError::NotAnIndex {
            path: dir.to_path_buf(),
            reason: reason.to_owned(),
        };
        if !dir.join("meta.json").is_file() {
            return Err(not_an_index("no meta.json"));
        }
        let index = Index::open_in_dir(dir)?;
        if index.load_metas()?.payload.as_deref() != Some(PAYLOAD) {
            return Err(not_an_index(&format!(
                "its last commit is not marked `{PAYLOAD}` (another program's index, or an interrupted build)"
            )));
        }
        register_analyzer(&index)?;
        Self::from_index(&index, dir)
    }

    fn from_index(index: &Index, dir: &Path) -> Result<LocalIndex, SearchError> {
        let fields = Fields::from_schema(&index.schema(), dir)?;
        let reader: IndexReader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let searcher = reader.searcher();
        let mut columns = Vec::with_capacity(searcher.segment_readers().len());
        for segment in searcher.segment_readers() {
            let fast = segment.fast_fields();
            let url = fast.str("url")?.ok_or_else(|| SearchError::NotAnIndex {
                path: dir.to_path_buf(),
                reason: "a segment has no `url` column".to_owned(),
            })?;
            columns.push(SegmentColumns {
                url,
                confidence: fast.f64("confidence")?,
                authority: fast.f64("authority")?,
            });
        }
        let parser = QueryParser::for_index(index, vec![fields.title, fields.text]);
        Ok(LocalIndex {
            dir: dir.to_path_buf(),
            fields,
            parser,
            _reader: reader,
            searcher,
            columns,
        })
    }

    /// Number of indexed documents.
    pub fn len(&self) -> u64 {
        self.searcher.num_docs()
    }

    /// True when the index holds no document.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::test_corpus::{build, corpus, doc, q};
    use crate::index::{Hit, Ranking};

    #[test]
    fn reopening_gives_the_same_results() {
        let dir = tempfile::tempdir().unwrap();
        let queries = [
            q("page", None, Ranking::Text, 30),
            q(
                "crawler spider",
                Some("science"),
                Ranking::DEFAULT_COMBINED,
                30,
            ),
            q("racket", None, Ranking::Authority, 10),
            q("wimbledon OR garlic", None, Ranking::Confidence, 10),
        ];
        let before: Vec<Vec<Hit>> = {
            let index = LocalIndex::create(dir.path(), corpus()).unwrap();
            queries.iter().map(|x| index.search(x).unwrap()).collect()
        };
        let index = LocalIndex::open(dir.path()).unwrap();
        assert_eq!(index.len(), 200);
        let after: Vec<Vec<Hit>> = queries.iter().map(|x| index.search(x).unwrap()).collect();
        assert_eq!(before, after);
        assert!(before.iter().all(|h| !h.is_empty()));
        // Rebuilding from the same documents gives the same results too.
        let again = LocalIndex::create(dir.path(), corpus()).unwrap();
        let rebuilt: Vec<Vec<Hit>> = queries.iter().map(|x| again.search(x).unwrap()).collect();
        assert_eq!(before, rebuilt);
    }
    #[test]
    fn create_replaces_an_index_but_not_other_directories() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("idx");
        let first = LocalIndex::create(&path, corpus()).unwrap();
        assert_eq!(first.len(), 200);
        drop(first);
        let second = LocalIndex::create(&path, [doc("http://x/", "only", "lonely")]).unwrap();
        assert_eq!(second.len(), 1);
        assert_eq!(LocalIndex::open(&path).unwrap().len(), 1);

        let other = dir.path().join("other");
        std::fs::create_dir(&other).unwrap();
        std::fs::write(other.join("precious.txt"), "keep me").unwrap();
        assert!(matches!(
            LocalIndex::create(&other, corpus()),
            Err(SearchError::NotEmpty(_))
        ));
        assert!(other.join("precious.txt").exists());
        assert!(matches!(
            LocalIndex::open(&other),
            Err(SearchError::NotAnIndex { .. })
        ));
        assert!(matches!(
            LocalIndex::open(&dir.path().join("missing")),
            Err(SearchError::NotAnIndex { .. })
        ));

        let mut nan = doc("http://nan/", "t", "x");
        nan.confidence = f64::NAN;
        let bad = dir.path().join("bad");
        assert!(matches!(
            LocalIndex::create(&bad, [nan]),
            Err(SearchError::InvalidDoc { .. })
        ));
        // The interrupted build is not mistaken for an index.
        assert!(matches!(
            LocalIndex::open(&bad),
            Err(SearchError::NotAnIndex { .. })
        ));
    }

    #[test]
    fn an_index_can_be_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<LocalIndex>();
        let (_dir, index) = build();
        let counts: Vec<usize> = std::thread::scope(|s| {
            let handles: Vec<_> = ["racket", "garlic"]
                .into_iter()
                .map(|w| {
                    let index = &index;
                    s.spawn(move || index.search(&q(w, None, Ranking::Text, 500)).unwrap().len())
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(counts.iter().all(|&c| c > 0), "{counts:?}");
    }
}
