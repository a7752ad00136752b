//! Opening sled's database when a handle this process just dropped may
//! still hold its lock.
//!
//! sled 0.34 takes an exclusive `flock` on its database file when it opens
//! and releases it when its background flusher thread exits, which happens
//! after the last handle is dropped, not during the drop. Reopening the
//! same directory at once in the same process (resuming a crawl in the
//! process that ran it, a test) can then find the lock still held
//! (spacejam/sled#1289). So opening retries for a short while when, and
//! only when, the error is that lock; another process that holds the
//! database open still gets a clear error, after the wait.
//!
//! The same lock says when a closed store is final: until sled releases
//! it, its flusher may still write the files ([`wait_released`]).

use std::fs::{File, TryLockError};
use std::path::Path;
use std::time::{Duration, Instant};

/// How long opening waits for a lock that a dropped handle may still hold.
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(2);

/// Whether `e` is sled's "could not acquire lock" (it reports a failed
/// `try_lock_exclusive` as an I/O error of kind `Other`, naming the lock in
/// its message; sled is pinned, so the text is fixed).
fn is_lock_held(e: &sled::Error) -> bool {
    matches!(e, sled::Error::Io(io) if io.to_string().starts_with("could not acquire lock"))
}

/// Opens `config`'s database, retrying while its lock is held, up to
/// `wait` (doubling pauses from 5 ms, at most 100 ms each).
pub(crate) fn open_db(config: &sled::Config, wait: Duration) -> sled::Result<sled::Db> {
    let deadline = Instant::now() + wait;
    let mut pause = Duration::from_millis(5);
    loop {
        match config.open() {
            Err(e) if is_lock_held(&e) && Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(100));
            }
            result => return result,
        }
    }
}

/// How long closing waits for sled to let go of the files.
pub(crate) const CLOSE_WAIT: Duration = Duration::from_secs(30);

/// The file sled locks (and writes its log to) in a database directory.
pub(crate) fn db_file(dir: &Path) -> std::path::PathBuf {
    dir.join("db")
}

/// Waits, up to `wait`, until no one holds the lock on the database in
/// `dir`: once sled's last handle is dropped and its flusher has exited,
/// nothing of this process writes its files any more. `Ok(false)` if the
/// lock was still held at the deadline; a directory without a database is
/// released.
pub(crate) fn wait_released(dir: &Path, wait: Duration) -> std::io::Result<bool> {
    let file = match File::open(db_file(dir)) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(true),
        Err(e) => return Err(e),
    };
    let deadline = Instant::now() + wait;
    let mut pause = Duration::from_millis(1);
    loop {
        match file.try_lock() {
            // Dropping the file releases the lock at once.
            Ok(()) => return Ok(true),
            Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            Err(TryLockError::WouldBlock) => return Ok(false),
            Err(TryLockError::Error(e)) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(dir: &std::path::Path) -> sled::Config {
        sled::Config::new().path(dir)
    }

    #[test]
    fn a_dropped_handle_never_blocks_the_next_open() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..30_u32 {
            let db = open_db(&config(dir.path()), LOCK_WAIT).unwrap();
            db.insert(i.to_be_bytes(), &[1]).unwrap();
            db.flush().unwrap();
            drop(db);
        }
        let db = open_db(&config(dir.path()), LOCK_WAIT).unwrap();
        assert_eq!(db.len(), 30);
    }

    #[test]
    fn a_held_lock_is_waited_for_then_reported() {
        let dir = tempfile::tempdir().unwrap();
        let held = open_db(&config(dir.path()), LOCK_WAIT).unwrap();
        // sled refuses a second open of a directory while a handle is live
        // even within the process (each open takes its own lock).
        let wait = Duration::from_millis(200);
        let started = Instant::now();
        let err = open_db(&config(dir.path()), wait).unwrap_err();
        assert!(is_lock_held(&err), "{err}");
        assert!(
            started.elapsed() >= wait,
            "it waited {:?}",
            started.elapsed()
        );
        assert!(
            started.elapsed() < wait * 10,
            "it waited {:?}",
            started.elapsed()
        );
        // Released, the directory opens again.
        drop(held);
        assert!(open_db(&config(dir.path()), LOCK_WAIT).is_ok());
    }

    #[test]
    fn a_held_database_is_not_released_and_a_dropped_one_is() {
        let dir = tempfile::tempdir().unwrap();
        let db = open_db(&config(dir.path()), LOCK_WAIT).unwrap();
        let short = Duration::from_millis(100);
        assert!(!wait_released(dir.path(), short).unwrap());
        drop(db);
        assert!(wait_released(dir.path(), CLOSE_WAIT).unwrap());
        // Released means sled lets go: the next open takes the lock at
        // its first try.
        let again = config(dir.path()).open();
        assert!(again.is_ok(), "{:?}", again.err());
        let empty = tempfile::tempdir().unwrap();
        assert!(wait_released(&empty.path().join("none"), short).unwrap());
    }

    #[test]
    fn other_errors_are_not_retried() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a-file");
        std::fs::write(&file, b"not a directory").unwrap();
        let started = Instant::now();
        let err = open_db(&config(&file.join("db")), LOCK_WAIT).unwrap_err();
        assert!(!is_lock_held(&err), "{err}");
        assert!(
            started.elapsed() < LOCK_WAIT,
            "it waited {:?}",
            started.elapsed()
        );
    }
}
