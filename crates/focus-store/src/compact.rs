//! Compaction: rewriting a closed store into a fresh database.
//!
//! sled 0.34 appends every write to its log and reclaims the space of
//! rewritten records itself, a segment at a time, so a crawl's store
//! (where every queued URL is written, then removed when it is fetched)
//! takes several times its live data on disk. [`compact`] copies every
//! tree's entries, in batches, into a fresh database beside the store
//! (`<store>.compacting`), checks the copy against the original entry by
//! entry, and swaps the two directories (`swap.rs`, which also recovers
//! from a crash in the middle, at every open).

use std::path::Path;

use crate::error::{db_err, StoreError};
use crate::open::{open_db, wait_released, CLOSE_WAIT, LOCK_WAIT};
use crate::store::{closed_size, Store, StoreConfig};
use crate::swap::{recover, remove, replace, siblings};

/// The page cache of each of the two databases while one is copied into
/// the other: each entry is read and written once, in key order, so a
/// cache buys little, and sled's default (1 GiB; the store's 64 MiB)
/// would be the copy's memory.
const COPY_CACHE_BYTES: u64 = 8 << 20;

/// The bytes of keys and values the copy writes as one sled batch (a
/// segment of sled's log is 512 KiB). On a 100,000-page crawl's store
/// (620,000 entries, 484 MB) the copy written in batches of 512 KiB took
/// 277 MB on disk, against 337 MB written one insert at a time, in the
/// same time (8.5 s) and peak memory (178 MB); batches of 2 MiB saved 3 %
/// more disk for twice the memory, and larger ones were bigger on disk
/// and slower.
const COPY_BATCH_BYTES: usize = 512 << 10;

/// What [`compact`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compaction {
    /// The store's files before, in bytes.
    pub bytes_before: u64,
    /// The store's files after, in bytes (the same as before when the
    /// fresh copy was not smaller and the original was kept).
    pub bytes_after: u64,
    /// Entries copied, over every tree.
    pub entries: u64,
    /// Whether the fresh copy replaced the original.
    pub replaced: bool,
}

/// Rewrites the store in `dir` into a fresh database and, if that is
/// smaller, puts it in the original's place. The store must be closed
/// ([`Store::close`]): one another handle holds is refused, as a foreign
/// directory is. A compaction that fails leaves the original as it was.
pub fn compact(dir: &Path) -> Result<Compaction, StoreError> {
    let (copy_dir, _) = siblings(dir)?;
    recover(dir)?;
    if !crate::open::db_file(dir).exists() {
        return Err(StoreError::Db(format!(
            "{} holds no store to compact",
            dir.display()
        )));
    }
    let cfg = StoreConfig {
        cache_bytes: COPY_CACHE_BYTES,
        ..StoreConfig::default()
    };
    let store = Store::open_recovered(dir, cfg)?;
    store.flush()?;
    let copied = copy_into(&store, &copy_dir);
    let bytes_before = store.close()?;
    let (entries, bytes_after) = match copied {
        Ok(done) => done,
        Err(e) => {
            // The copy's handle is dropped: once sled lets go of it,
            // nothing writes there any more.
            let _ = wait_released(&copy_dir, CLOSE_WAIT);
            let _ = std::fs::remove_dir_all(&copy_dir);
            return Err(e);
        }
    };
    if bytes_after >= bytes_before {
        remove(&copy_dir)?;
        return Ok(Compaction {
            bytes_before,
            bytes_after: bytes_before,
            entries,
            replaced: false,
        });
    }
    replace(dir, &copy_dir)?;
    Ok(Compaction {
        bytes_before,
        bytes_after,
        entries,
        replaced: true,
    })
}

/// Copies every tree of `store` into a fresh database in `to`, checks it,
/// closes it and returns the entries copied and the copy's size.
fn copy_into(store: &Store, to: &Path) -> Result<(u64, u64), StoreError> {
    if to.exists() {
        remove(to)?;
    }
    let from = store.db();
    let config = sled::Config::new()
        .path(to)
        .cache_capacity(COPY_CACHE_BYTES);
    let fresh = open_db(&config, LOCK_WAIT)
        .map_err(|e| StoreError::Db(format!("creating {}: {e}", to.display())))?;
    let mut entries = 0_u64;
    for name in from.tree_names() {
        let source = from.open_tree(&name).map_err(db_err)?;
        let target = fresh.open_tree(&name).map_err(db_err)?;
        let mut batch = sled::Batch::default();
        let mut batched = 0_usize;
        for kv in &source {
            let (k, v) = kv.map_err(db_err)?;
            batched += k.len() + v.len();
            batch.insert(k, v);
            entries += 1;
            if batched >= COPY_BATCH_BYTES {
                target
                    .apply_batch(std::mem::take(&mut batch))
                    .map_err(db_err)?;
                batched = 0;
            }
        }
        target.apply_batch(batch).map_err(db_err)?;
    }
    fresh.flush().map_err(db_err)?;
    check_copy(from, &fresh)?;
    drop(fresh);
    Ok((entries, closed_size(to)?))
}

/// Whether `copy` holds exactly `from`'s trees and entries, read back.
fn check_copy(from: &sled::Db, copy: &sled::Db) -> Result<(), StoreError> {
    let mut names = from.tree_names();
    let mut copied = copy.tree_names();
    names.sort();
    copied.sort();
    if names != copied {
        return Err(StoreError::Db(
            "compaction: the copy's trees differ from the store's".to_owned(),
        ));
    }
    for name in names {
        let a = from.open_tree(&name).map_err(db_err)?;
        let b = copy.open_tree(&name).map_err(db_err)?;
        let mut left = a.iter();
        let mut right = b.iter();
        loop {
            match (left.next(), right.next()) {
                (None, None) => break,
                (Some(x), Some(y)) => {
                    let (x, y) = (x.map_err(db_err)?, y.map_err(db_err)?);
                    if x != y {
                        return Err(differs(&name));
                    }
                }
                _ => return Err(differs(&name)),
            }
        }
    }
    Ok(())
}

fn differs(tree: &[u8]) -> StoreError {
    StoreError::Db(format!(
        "compaction: the copy of tree `{}` differs from the store's",
        String::from_utf8_lossy(tree)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::fixtures::{page, queued};
    use crate::store::files_size;
    use crate::PageRecord;

    /// Everything a reader of the store sees, in a comparable form.
    fn contents(s: &Store) -> String {
        let pages: Vec<_> = s.pages().map(Result::unwrap).collect();
        let queue: Vec<_> = s.queued().map(Result::unwrap).collect();
        let links: Vec<_> = s.links_with_urls().map(Result::unwrap).collect();
        let meta: Option<Vec<u64>> = s.get_meta("seeds").unwrap();
        let model = s.get_model("m").unwrap();
        format!("{pages:?}\n{queue:?}\n{links:?}\n{meta:?}\n{model:?}")
    }

    /// What a store reads once opened (then closed, so the next open
    /// finds it released).
    fn reopened(dir: &Path) -> String {
        let s = Store::open(dir).unwrap();
        let seen = contents(&s);
        s.close().unwrap();
        seen
    }

    /// A store whose log holds much more than its live data: pages queued,
    /// fetched (leaving the queue), then rewritten.
    fn churned(dir: &Path) -> String {
        let s = Store::open(dir).unwrap();
        for round in 0..4 {
            for id in 0..600_u64 {
                let q = queued(10_000 + id);
                let links = [(q.id, q.url.clone())];
                let fetched = PageRecord {
                    relevance: f64::from(round),
                    ..page(id, None)
                };
                s.record_fetch(&fetched, &links, &[q]).unwrap();
                s.remove_queued(10_000 + id).unwrap();
            }
            s.flush().unwrap();
        }
        s.enqueue(&[queued(7), queued(99_999)]).unwrap();
        s.put_meta("seeds", &vec![1_u64, 2, 3]).unwrap();
        s.put_model("m", b"model bytes").unwrap();
        let seen = contents(&s);
        s.close().unwrap();
        seen
    }

    #[test]
    fn compaction_keeps_every_entry_and_shrinks_a_churned_store() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("store");
        let before = churned(&dir);
        let done = compact(&dir).unwrap();
        assert!(done.replaced, "{done:?}");
        assert!(done.bytes_after < done.bytes_before, "{done:?}");
        assert_eq!(done.bytes_after, files_size(&dir).unwrap());
        assert!(done.entries >= 600 * 2, "{done:?}");
        let (copy, original) = siblings(&dir).unwrap();
        assert!(!copy.exists() && !original.exists());
        let s = Store::open(&dir).unwrap();
        assert_eq!(contents(&s), before);
        // The compacted store is a store like any other: it takes writes.
        s.record_fetch(&page(5_000, None), &[], &[]).unwrap();
        assert_eq!(s.close().unwrap(), files_size(&dir).unwrap());
        assert_eq!(Store::open(&dir).unwrap().page_count().unwrap(), 601);
    }

    /// A tree holding several batches' worth is copied in several, every
    /// entry whole.
    #[test]
    fn a_tree_larger_than_a_batch_is_copied_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("store");
        let s = Store::open(&dir).unwrap();
        let size = 100 << 10;
        let models = 3 * COPY_BATCH_BYTES / size;
        let blob = |i: usize| vec![u8::try_from(i % 251).unwrap(); size];
        for round in 0..2 {
            for i in 0..models {
                s.put_model(&format!("m{i}"), &blob(i + round)).unwrap();
            }
        }
        s.close().unwrap();
        let done = compact(&dir).unwrap();
        assert!(done.entries >= models as u64, "{done:?}");
        let s = Store::open(&dir).unwrap();
        for i in 0..models {
            let got = s.get_model(&format!("m{i}")).unwrap();
            assert_eq!(got, Some(blob(i + 1)), "model {i}");
        }
    }

    #[test]
    fn a_store_with_nothing_to_reclaim_is_kept_as_it_is() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("store");
        let once = compact_twice(&dir);
        // The second compaction finds nothing to gain or gains a little;
        // either way the store is whole.
        assert!(once.bytes_after <= once.bytes_before, "{once:?}");
        if !once.replaced {
            assert_eq!(once.bytes_after, once.bytes_before);
        }
        assert_eq!(Store::open(&dir).unwrap().page_count().unwrap(), 600);
    }

    fn compact_twice(dir: &Path) -> Compaction {
        churned(dir);
        compact(dir).unwrap();
        compact(dir).unwrap()
    }

    #[test]
    fn an_open_store_a_foreign_database_and_an_empty_directory_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("store");
        churned(&dir);
        let open = Store::open(&dir).unwrap();
        assert!(compact(&dir).is_err(), "the store is open");
        // A copy beside a store someone holds open may be that holder's
        // compaction under way: recovery leaves it alone.
        let (copy, _) = siblings(&dir).unwrap();
        std::fs::create_dir_all(&copy).unwrap();
        recover(&dir).unwrap();
        assert!(copy.exists());
        open.close().unwrap();
        recover(&dir).unwrap();
        assert!(!copy.exists());
        let foreign = tmp.path().join("foreign");
        let db = sled::open(&foreign).unwrap();
        db.insert("k", "v").unwrap();
        db.flush().unwrap();
        drop(db);
        assert!(wait_released(&foreign, CLOSE_WAIT).unwrap());
        let err = compact(&foreign).unwrap_err();
        assert!(matches!(err, StoreError::Foreign { .. }), "{err}");
        assert_eq!(
            sled::open(&foreign).unwrap().get("k").unwrap().unwrap(),
            b"v"
        );
        let none = compact(&tmp.path().join("none")).unwrap_err();
        assert!(none.to_string().contains("no store"), "{none}");
        assert!(!tmp.path().join("none").exists());
    }

    /// The states a crash can leave, each recovered by the next open.
    #[test]
    fn an_interrupted_compaction_is_undone_or_finished_by_the_next_open() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("store");
        let before = churned(&dir);
        let (copy, original) = siblings(&dir).unwrap();
        let copy_of = |from: &Path, to: &Path| {
            std::fs::create_dir_all(to).unwrap();
            for e in std::fs::read_dir(from).unwrap() {
                let e = e.unwrap();
                if e.file_type().unwrap().is_file() {
                    std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
                }
            }
        };
        // A copy half written: removed, the store untouched.
        std::fs::create_dir_all(&copy).unwrap();
        std::fs::write(copy.join("db"), b"half").unwrap();
        assert_eq!(reopened(&dir), before);
        assert!(!copy.exists());
        // Set aside, not yet replaced: the original comes back.
        std::fs::rename(&dir, &original).unwrap();
        copy_of(&original, &copy);
        assert_eq!(reopened(&dir), before);
        assert!(!copy.exists() && !original.exists());
        // Replaced, the original not yet removed: it is removed.
        copy_of(&dir, &original);
        std::fs::write(original.join("db"), b"stale").unwrap();
        assert_eq!(reopened(&dir), before);
        assert!(!original.exists());
    }
}
