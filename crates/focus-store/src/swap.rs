//! Swapping a store's directory for a fresh copy, and recovering from a
//! crash in the middle of it.
//!
//! A compaction writes its copy to `<store>.compacting`, then swaps it in
//! with two renames through `<store>.precompact` ([`replace`]). At every
//! moment one of the directories holds the whole store, and [`recover`],
//! which every open runs first, finishes or undoes what a crash left.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::error::StoreError;
use crate::open::wait_released;

/// Where a compaction of `dir` writes its copy, and where the original
/// waits while the two are swapped.
pub(crate) fn siblings(dir: &Path) -> Result<(PathBuf, PathBuf), StoreError> {
    let name = dir.file_name().ok_or_else(|| {
        StoreError::Db(format!(
            "{} names no directory to compact beside",
            dir.display()
        ))
    })?;
    let with = |suffix: &str| {
        let mut n = name.to_os_string();
        n.push(suffix);
        dir.with_file_name(n)
    };
    Ok((with(".compacting"), with(".precompact")))
}

/// A file-system error while doing `what` to `path`.
pub(crate) fn io_err(what: &str, path: &Path, e: &std::io::Error) -> StoreError {
    StoreError::Db(format!("{what} {}: {e}", path.display()))
}

/// Undoes or finishes a compaction of `dir` that a crash interrupted.
/// With the original set aside and no store in `dir`, the crash came
/// between the two renames: the original goes back. With both, the swap
/// was done: the original is removed. A copy left beside the store is
/// removed (a copy is only ever renamed whole and checked). Does nothing
/// when there was no compaction.
pub(crate) fn recover(dir: &Path) -> Result<(), StoreError> {
    // A path without a last component ("/", "..") has no siblings.
    if dir.file_name().is_none() {
        return Ok(());
    }
    // A store someone holds open may be in the middle of its own
    // compaction (the copy beside it is being written): not ours to touch.
    match wait_released(dir, Duration::ZERO) {
        Ok(true) => {}
        Ok(false) => return Ok(()),
        Err(e) => return Err(io_err("checking the lock of", dir, &e)),
    }
    let (copy, original) = siblings(dir)?;
    if original.exists() {
        if dir.exists() {
            remove(&original)?;
        } else {
            std::fs::rename(&original, dir).map_err(|e| io_err("restoring", dir, &e))?;
            sync_parent(dir)?;
        }
    }
    if copy.exists() {
        remove(&copy)?;
    }
    Ok(())
}

/// Removes a directory and everything in it.
pub(crate) fn remove(dir: &Path) -> Result<(), StoreError> {
    std::fs::remove_dir_all(dir).map_err(|e| io_err("removing", dir, &e))
}

/// Makes the renames in `dir`'s parent durable.
fn sync_parent(dir: &Path) -> Result<(), StoreError> {
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    sync_dir(parent)
}

/// Makes the entries of the directory `dir` (the files created in it)
/// durable.
fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    std::fs::File::open(dir)
        .and_then(|f| f.sync_all())
        .map_err(|e| io_err("syncing", dir, &e))
}

/// Puts the store in `copy` in the place of the one in `dir`: the
/// original is set aside as `<store>.precompact`, the copy renamed into
/// its place, and the original removed. A failed rename puts the original
/// back (or leaves it for [`recover`] to put back).
pub(crate) fn replace(dir: &Path, copy: &Path) -> Result<(), StoreError> {
    let (_, original) = siblings(dir)?;
    // sled synced the copy's files; their names in the copy's folders
    // must be durable too before the copy takes the store's place.
    sync_dir(copy)?;
    let blobs = copy.join("blobs");
    if blobs.is_dir() {
        sync_dir(&blobs)?;
    }
    std::fs::rename(dir, &original).map_err(|e| io_err("setting aside", dir, &e))?;
    sync_parent(dir)?;
    if let Err(e) = std::fs::rename(copy, dir) {
        let _ = std::fs::rename(&original, dir);
        let _ = std::fs::remove_dir_all(copy);
        return Err(io_err("replacing", dir, &e));
    }
    sync_parent(dir)?;
    // The copy is in place; an original that cannot be removed now is
    // removed by the next open.
    let _ = std::fs::remove_dir_all(&original);
    Ok(())
}
