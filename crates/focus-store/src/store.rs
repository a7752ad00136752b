//! The store: sled trees behind a typed API.
//!
//! | tree | key | value |
//! |---|---|---|
//! | `meta` | UTF-8 name | codec value (the `schema` entry is raw UTF-8) |
//! | `pages` | page id (8 bytes BE) | [`PageRecord`] (the URL's last attempt) |
//! | `attempts` | crawl seq (8 bytes BE) | [`PageRecord`] of an attempt that put its URL back |
//! | `links` | from id | the page's out-links: (target id, target URL), by target id |
//! | `queue` | page id | [`QueuedUrl`] |
//! | `models` | UTF-8 name | raw bytes (the model's own versioned format) |

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::codec::{decode, encode, id_key, id_of};
use crate::error::{db_err, StoreError};
use crate::group::{Group, Tree, GROUPED_TREES};
use crate::open::{open_db, wait_released, CLOSE_WAIT, LOCK_WAIT};
use crate::records::{PageRecord, QueuedUrl};
use crate::swap::recover;

mod queue;

use queue::{encode_queued, queue_new, QUEUE_OP_URLS};

/// The schema this build reads and writes.
pub const SCHEMA: &str = "focus-store/7";

/// The trees the store opens besides sled's default one: the grouped ones
/// and `models`.
const TREES: usize = GROUPED_TREES + 1;

/// Durability settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoreConfig {
    /// sled flushes its log to disk this often; a crash loses at most the
    /// records of this window (default 500 ms) and the open group.
    pub flush_every_ms: u64,
    /// Commit and flush after every [`Store::record_fetch`] (slow; for tests
    /// and for crawls where no refetch is acceptable).
    pub sync_every_record: bool,
    /// The most writes the open group holds before it is committed by
    /// itself (default 1,024; a crawl also commits at the end of a batch
    /// every 100 ms): see [`Store::commit`]. A transaction holds sled's copy
    /// of a leaf for each of its writes until it ends (`docs/store.md`,
    /// "Memory"), so this bounds that transient: about 4 MB at the
    /// default, against two disk syncs per transaction.
    pub group_writes: usize,
    /// The most memory sled's page cache may hold, in bytes (default
    /// 64 MiB). sled's own default is 1 GiB, which a long crawl fills:
    /// the store is written far more than it is read back, so a small
    /// cache costs little speed and bounds the crawl's memory.
    pub cache_bytes: u64,
}

/// The size of sled's log segments (sled 0.34's own, which the store
/// keeps): the unit in which sled gives free space at the end of its log
/// back to the file system ([`Store::size_on_disk`]).
pub const SEGMENT_BYTES: u64 = 512 * 1024;

/// The default [`StoreConfig::cache_bytes`].
pub const DEFAULT_CACHE_BYTES: u64 = 64 << 20;

impl Default for StoreConfig {
    fn default() -> Self {
        Self {
            flush_every_ms: 500,
            sync_every_record: false,
            group_writes: 1024,
            cache_bytes: DEFAULT_CACHE_BYTES,
        }
    }
}

/// The crawl's durable state. Cheap to clone (clones share the open
/// group); shareable across threads.
///
/// Writes are grouped: each operation ([`Store::record_fetch`], a raise, a
/// meta value) joins the open group whole, every read sees it, and the
/// group reaches sled in one transaction at [`Store::commit`] (a crawl
/// commits at the end of a batch, at most every 100 ms), at [`Store::flush`], when it is full, or when
/// the last clone is dropped. sled syncs its log twice per transaction, so
/// one transaction per page would cost two synchronous disk writes a page.
#[derive(Clone)]
pub struct Store {
    db: sled::Db,
    group: Arc<Group>,
    models: sled::Tree,
    cfg: StoreConfig,
    dir: PathBuf,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("dir", &self.dir)
            .finish_non_exhaustive()
    }
}

impl Store {
    /// Opens (or creates) the store in `dir` with default durability.
    pub fn open(dir: &Path) -> Result<Store, StoreError> {
        Self::open_with(dir, StoreConfig::default())
    }

    /// Opens (or creates) the store in `dir`.
    ///
    /// A compaction a crash interrupted ([`crate::compact()`]) is finished
    /// or undone first, so the directory holds the whole store.
    pub fn open_with(dir: &Path, cfg: StoreConfig) -> Result<Store, StoreError> {
        recover(dir)?;
        Self::open_recovered(dir, cfg)
    }

    /// [`Store::open_with`] once `dir` has been recovered
    /// ([`crate::compact()`] recovers it itself before it checks that a
    /// store is there).
    pub(crate) fn open_recovered(dir: &Path, cfg: StoreConfig) -> Result<Store, StoreError> {
        let config = sled::Config::new()
            .path(dir)
            .flush_every_ms(Some(cfg.flush_every_ms.max(1)))
            .cache_capacity(cfg.cache_bytes);
        // A handle this process dropped may still hold the lock a moment.
        let db = open_db(&config, LOCK_WAIT)
            .map_err(|e| StoreError::Db(format!("opening {}: {e}", dir.display())))?;
        // Opening a tree creates it: a database that is not a store yet
        // must be a fresh one before it is given the store's trees.
        let names = db.tree_names();
        if !names.iter().any(|n| n.as_ref() == b"meta") && (names.len() > 1 || !db.is_empty()) {
            return Err(foreign(dir, "a database without a focus schema"));
        }
        let tree = |name: &str| db.open_tree(name).map_err(db_err);
        // In `Tree`'s order.
        let grouped = [
            tree("meta")?,
            tree("pages")?,
            tree("attempts")?,
            tree("links")?,
            tree("queue")?,
        ];
        let store = Store {
            group: Arc::new(Group::new(grouped, cfg.group_writes)?),
            models: tree("models")?,
            db,
            cfg,
            dir: dir.to_path_buf(),
        };
        store.check_schema()?;
        Ok(store)
    }

    fn check_schema(&self) -> Result<(), StoreError> {
        let meta = self.group.tree(Tree::Meta);
        match meta.get("schema").map_err(db_err)? {
            Some(v) if v.as_ref() == SCHEMA.as_bytes() => Ok(()),
            Some(v) => Err(foreign(
                &self.dir,
                &format!("schema `{}`", String::from_utf8_lossy(&v)),
            )),
            None => {
                let others = self.db.tree_names().len();
                // sled's default tree too: the store never writes it.
                let empty = self.group.tree(Tree::Pages).is_empty()
                    && self.group.tree(Tree::Queue).is_empty()
                    && meta.is_empty()
                    && self.db.is_empty();
                // A fresh sled db has only its default tree plus the ones we just opened.
                if !empty || others > 1 + TREES {
                    return Err(foreign(&self.dir, "a database without a focus schema"));
                }
                meta.insert("schema", SCHEMA.as_bytes()).map_err(db_err)?;
                self.db.flush().map_err(db_err)?;
                Ok(())
            }
        }
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Records one fetch atomically: the page is stored, it leaves the
    /// queue, its links are written (one value for all of them: a page
    /// with 40 links costs one write, not 80), and `newly_queued` URLs
    /// that are neither stored pages nor already queued join the queue.
    /// Returns how many URLs were queued.
    ///
    /// Beyond 256 new URLs, the first ones are queued ahead
    /// of the fetch, in operations of their own. A crash between those and
    /// the fetch's own operation leaves them queued and the page still
    /// queued and not stored: a resumed crawl fetches the page again and
    /// finds those URLs queued, as if another page had linked them.
    pub fn record_fetch(
        &self,
        page: &PageRecord,
        outlinks: &[(u64, String)],
        newly_queued: &[QueuedUrl],
    ) -> Result<usize, StoreError> {
        let page_value = encode(page)?;
        let links_value = if outlinks.is_empty() {
            None
        } else {
            let mut sorted = outlinks.to_vec();
            sorted.sort_by_key(|(to, _)| *to);
            sorted.dedup_by_key(|(to, _)| *to);
            Some(encode(&sorted)?)
        };
        let mut ahead = encode_queued(newly_queued)?;
        let own = ahead.split_off(ahead.len().saturating_sub(QUEUE_OP_URLS));
        let queued_ahead = self.queue_in_ops(ahead)?;
        let key = id_key(page.id);
        let added = self.group.op(|op| {
            op.insert(Tree::Pages, &key, page_value);
            op.remove(Tree::Queue, &key);
            if let Some(v) = links_value {
                op.insert(Tree::Links, &key, v);
            }
            queue_new(op, own)
        })?;
        if self.cfg.sync_every_record {
            self.flush()?;
        }
        Ok(queued_ahead + added)
    }

    /// Records an attempt that failed transiently, atomically: the attempt
    /// is kept (under its crawl `seq`, so `pages.jsonl` can be rewritten)
    /// and its URL stays queued as `requeued` (with its new numtries).
    pub fn record_retry(
        &self,
        attempt: &PageRecord,
        requeued: &QueuedUrl,
    ) -> Result<(), StoreError> {
        let value = encode(attempt)?;
        let queued = encode(requeued)?;
        self.group.op(|op| {
            op.insert(Tree::Attempts, &id_key(attempt.seq), value);
            op.insert(Tree::Queue, &id_key(requeued.id), queued);
            Ok(())
        })?;
        if self.cfg.sync_every_record {
            self.flush()?;
        }
        Ok(())
    }

    /// Every attempt that put its URL back ([`Store::record_retry`]), in
    /// crawl order.
    pub fn retried_attempts(&self) -> impl Iterator<Item = Result<PageRecord, StoreError>> + '_ {
        self.committed(Tree::Attempts, |k, v| decode("attempts", k, v))
    }

    /// Stores a page outside a fetch transaction (e.g. an imported record).
    pub fn put_page(&self, page: &PageRecord) -> Result<(), StoreError> {
        let value = encode(page)?;
        self.group.op(|op| {
            op.insert(Tree::Pages, &id_key(page.id), value);
            Ok(())
        })
    }

    /// The stored page with this id.
    pub fn get_page(&self, id: u64) -> Result<Option<PageRecord>, StoreError> {
        self.get_decoded(Tree::Pages, "pages", id)
    }

    /// The value stored under `id` in `t` (named `tree` in errors), as
    /// every read sees it (the open group first).
    fn get_decoded<T: DeserializeOwned>(
        &self,
        t: Tree,
        tree: &'static str,
        id: u64,
    ) -> Result<Option<T>, StoreError> {
        let key = id_key(id);
        self.group
            .get(t, &key)?
            .map(|v| decode(tree, &key, &v))
            .transpose()
    }

    /// True if a page with this id was recorded.
    pub fn contains_page(&self, id: u64) -> Result<bool, StoreError> {
        Ok(self.group.get(Tree::Pages, &id_key(id))?.is_some())
    }

    /// Number of recorded pages.
    pub fn page_count(&self) -> Result<usize, StoreError> {
        self.count(Tree::Pages)
    }

    /// Every recorded page, in id order.
    pub fn pages(&self) -> impl Iterator<Item = Result<PageRecord, StoreError>> + '_ {
        self.committed(Tree::Pages, |k, v| decode("pages", k, v))
    }

    /// The entries of `t`, after committing the open group, each read by
    /// `read`; a failed commit is the first item.
    fn committed<'a, T: 'a>(
        &'a self,
        t: Tree,
        read: impl Fn(&[u8], &[u8]) -> Result<T, StoreError> + 'a,
    ) -> impl Iterator<Item = Result<T, StoreError>> + 'a {
        let failed = self.group.commit().err().map(Err);
        let entries = self.group.tree(t).iter().map(move |kv| {
            let (k, v) = kv.map_err(db_err)?;
            read(&k, &v)
        });
        failed.into_iter().chain(entries)
    }

    /// Entries in `t`, the open group's included.
    fn count(&self, t: Tree) -> Result<usize, StoreError> {
        let held = self.group.tree(t).len() as i64;
        Ok(usize::try_from(held + self.group.len_change(t)?).unwrap_or(0))
    }

    /// Out-links of a page: (target id, target URL), by target id.
    pub fn outlinks(&self, id: u64) -> Result<Vec<(u64, String)>, StoreError> {
        let key = id_key(id);
        match self.group.get(Tree::Links, &key)? {
            Some(v) => decode("links", &key, &v),
            None => Ok(Vec::new()),
        }
    }

    /// Ids of the recorded pages that link to `id`, in id order. The store
    /// keeps no backlink index (it would cost a write per link), so this
    /// reads every page's links: for a whole graph, read
    /// [`Store::links`] once instead.
    pub fn backlinks(&self, id: u64) -> Result<Vec<u64>, StoreError> {
        let mut from = Vec::new();
        for link in self.links() {
            let (a, b) = link?;
            if b == id {
                from.push(a);
            }
        }
        Ok(from)
    }

    /// Every link as (from id, to id), by source then target id (for the
    /// distiller).
    pub fn links(&self) -> impl Iterator<Item = Result<(u64, u64), StoreError>> + '_ {
        self.links_with_urls()
            .map(|l| l.map(|(from, to, _)| (from, to)))
    }

    /// Every link with its target URL (for exports), by source then target
    /// id.
    pub fn links_with_urls(
        &self,
    ) -> impl Iterator<Item = Result<(u64, u64, String), StoreError>> + '_ {
        let pages = self.committed(Tree::Links, |k, v| {
            let from = id_of("links", k, 0)?;
            let to: Vec<(u64, String)> = decode("links", k, v)?;
            Ok((from, to))
        });
        pages.flat_map(|page| {
            let links: Vec<Result<(u64, u64, String), StoreError>> = match page {
                Ok((from, to)) => to.into_iter().map(|(t, url)| Ok((from, t, url))).collect(),
                Err(e) => vec![Err(e)],
            };
            links
        })
    }

    /// Stores a run-metadata value (seeds, configuration, counters).
    pub fn put_meta<T: Serialize>(&self, key: &str, value: &T) -> Result<(), StoreError> {
        if key == "schema" {
            return Err(StoreError::Db("`schema` is reserved".to_owned()));
        }
        let value = encode(value)?;
        self.group.op(|op| {
            op.insert(Tree::Meta, key.as_bytes(), value);
            Ok(())
        })
    }

    /// Reads a run-metadata value.
    pub fn get_meta<T: DeserializeOwned>(&self, key: &str) -> Result<Option<T>, StoreError> {
        self.group
            .get(Tree::Meta, key.as_bytes())?
            .map(|v| decode("meta", key.as_bytes(), &v))
            .transpose()
    }

    /// Stores a model's bytes under a name.
    pub fn put_model(&self, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.models.insert(name, bytes).map_err(db_err)?;
        Ok(())
    }

    /// A model's bytes.
    pub fn get_model(&self, name: &str) -> Result<Option<Vec<u8>>, StoreError> {
        Ok(self.models.get(name).map_err(db_err)?.map(|v| v.to_vec()))
    }

    /// Commits the open group of writes in one transaction: durable at
    /// sled's next flush (within [`StoreConfig::flush_every_ms`]). A crawl
    /// calls it at the end of a batch once 100 ms have passed since the
    /// last.
    pub fn commit(&self) -> Result<(), StoreError> {
        self.group.commit()
    }

    /// Commits the open group and forces everything written so far to
    /// disk.
    pub fn flush(&self) -> Result<(), StoreError> {
        self.group.commit()?;
        self.db.flush().map_err(db_err)?;
        Ok(())
    }

    /// The bytes the store's files take on disk (sled's log and its blobs;
    /// writes still in the open group are not there yet: see
    /// [`Store::flush`]). sled reclaims the space of rewritten records
    /// itself, segment by segment, so the size does not fall at once
    /// when records are replaced. Its background work goes on after the
    /// size is read, in both directions: its garbage collection rewrites
    /// live records from fragmented segments onto the end of the log (the
    /// files grow), and free segments ([`SEGMENT_BYTES`]) at the end of the
    /// log go back to the file system (they shrink). The size is the
    /// files' at the moment it is read.
    pub fn size_on_disk(&self) -> Result<u64, StoreError> {
        self.db.size_on_disk().map_err(db_err)
    }

    /// Commits, flushes and closes the store, and returns the bytes its
    /// files take once sled has let go of them: sled's flusher may still
    /// write a moment after the last handle is dropped (`open.rs`), so the
    /// size is final, and the directory may be reopened, copied or
    /// compacted ([`crate::compact`]) at once. Fails, leaving the store open, if
    /// a clone of this handle is still alive.
    pub fn close(self) -> Result<u64, StoreError> {
        self.flush()?;
        if Arc::strong_count(&self.group) > 1 {
            return Err(StoreError::Db(format!(
                "closing {}: another handle to the store is still open",
                self.dir.display()
            )));
        }
        let dir = self.dir.clone();
        drop(self);
        closed_size(&dir)
    }

    /// The open database (for compaction).
    pub(crate) fn db(&self) -> &sled::Db {
        &self.db
    }

    #[cfg(test)]
    pub(crate) fn raw_pages(&self) -> &sled::Tree {
        self.group.tree(Tree::Pages)
    }
}

/// The error for a directory that holds something other than a store of
/// this schema.
fn foreign(dir: &Path, found: &str) -> StoreError {
    StoreError::Foreign {
        dir: dir.display().to_string(),
        expected: SCHEMA.to_owned(),
        found: found.to_owned(),
    }
}

/// Waits until sled has let go of the database in `dir`, whose last
/// handle was just dropped, and returns the bytes its files take then.
pub(crate) fn closed_size(dir: &Path) -> Result<u64, StoreError> {
    match wait_released(dir, CLOSE_WAIT) {
        Ok(true) => files_size(dir),
        Ok(false) => Err(StoreError::Db(format!(
            "closing {}: its database was still locked after {} s",
            dir.display(),
            CLOSE_WAIT.as_secs()
        ))),
        Err(e) => Err(StoreError::Db(format!("closing {}: {e}", dir.display()))),
    }
}

/// The bytes a store's files take in `dir` (sled's log and its blob
/// files, what [`Store::size_on_disk`] counts): exact for a closed store.
pub(crate) fn files_size(dir: &Path) -> Result<u64, StoreError> {
    let len = |p: &Path| match std::fs::metadata(p) {
        Ok(m) => Ok(m.len()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(0),
        Err(e) => Err(StoreError::Db(format!("reading {}: {e}", p.display()))),
    };
    let mut size = len(&crate::open::db_file(dir))?;
    match std::fs::read_dir(dir.join("blobs")) {
        Ok(entries) => {
            for entry in entries {
                let entry = entry.map_err(db_err)?;
                size += len(&entry.path())?;
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(db_err(e)),
    }
    Ok(size)
}

#[cfg(test)]
mod tests;
