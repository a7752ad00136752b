//! Group commit: the store's writes wait in memory and reach sled in one
//! transaction per group.
//!
//! Every sled transaction writes and syncs the log twice to the disk
//! (`sync_file_range` before and after its batch manifest), whatever its
//! size. Committed one fetch at a time, that was two synchronous disk writes
//! per page, most of a fast crawl's system time. Here an operation (one
//! fetch, one raise) joins the open group whole, reads see the group's
//! writes before sled's, and the group is committed as one transaction when
//! its owner says so ([`Group::commit`], once per crawl batch) or when it
//! holds its limit of writes. A crash loses the open group, as it loses
//! sled's unflushed window, and never part of an operation.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use sled::transaction::TransactionError;
use sled::{IVec, Transactional};

use crate::error::{db_err, StoreError};
use crate::held::HeldIds;

/// The trees whose writes are grouped (models are written directly: they
/// are large, rare and not part of any fetch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tree {
    Meta,
    Pages,
    Attempts,
    Links,
    Queue,
}

/// How many trees [`Tree`] names.
pub(crate) const GROUPED_TREES: usize = 5;

impl Tree {
    /// Every tree, in order.
    pub(crate) const ALL: [Tree; GROUPED_TREES] = [
        Tree::Meta,
        Tree::Pages,
        Tree::Attempts,
        Tree::Links,
        Tree::Queue,
    ];

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// Whether the ids it holds are kept in memory ([`HeldIds`]): the
    /// trees a fetch and a re-scoring mostly ask for ids they do not hold.
    pub(crate) fn is_indexed(self) -> bool {
        matches!(self, Tree::Pages | Tree::Queue)
    }
}

/// A pending value: `None` is a removal.
type Pending = HashMap<Vec<u8>, Option<IVec>>;

/// The open group's writes, by tree; the last write to a key wins.
#[derive(Default)]
struct Writes {
    trees: [Pending; GROUPED_TREES],
    count: usize,
}

/// What the group's lock guards: the open group's writes and the ids sled
/// holds (which change when the group is committed).
struct Guarded {
    writes: Writes,
    held: HeldIds,
}

/// The grouped trees and the open group.
pub(crate) struct Group {
    trees: [sled::Tree; GROUPED_TREES],
    guarded: Mutex<Guarded>,
    limit: usize,
}

impl Group {
    /// Groups writes to `trees` (in [`Tree`]'s order), committing by itself
    /// once a group holds `limit` writes; reads the ids the indexed trees
    /// hold.
    pub(crate) fn new(
        trees: [sled::Tree; GROUPED_TREES],
        limit: usize,
    ) -> Result<Group, StoreError> {
        let held = HeldIds::load(&trees)?;
        Ok(Group {
            trees,
            guarded: Mutex::new(Guarded {
                writes: Writes::default(),
                held,
            }),
            limit: limit.max(1),
        })
    }

    /// sled's tree, for reads that do not need the open group (the group is
    /// committed first: see [`Group::commit`]). Not for writes: those go
    /// through an operation, which the held ids follow.
    pub(crate) fn tree(&self, t: Tree) -> &sled::Tree {
        &self.trees[t.index()]
    }

    fn lock(&self) -> MutexGuard<'_, Guarded> {
        // A panic while the lock was held left whole operations only (an
        // operation joins the group after it has succeeded).
        self.guarded
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The value a read sees: the open group's write, else sled's.
    pub(crate) fn get(&self, t: Tree, key: &[u8]) -> Result<Option<IVec>, StoreError> {
        let g = self.lock();
        read(&self.trees, &g, t, key)
    }

    /// Runs one operation: its reads see the group and its own earlier
    /// writes; its writes join the group only if it succeeds, so it is
    /// committed whole or not at all.
    pub(crate) fn op<R>(
        &self,
        f: impl FnOnce(&mut Op<'_>) -> Result<R, StoreError>,
    ) -> Result<R, StoreError> {
        let mut g = self.lock();
        let mut op = Op {
            trees: &self.trees,
            group: &g,
            staged: Vec::new(),
            latest: Default::default(),
        };
        let out = f(&mut op)?;
        let staged = op.staged;
        for (t, key, value) in staged {
            g.writes.trees[t.index()].insert(key, value);
            g.writes.count += 1;
        }
        if g.writes.count >= self.limit {
            commit(&self.trees, &mut g)?;
        }
        Ok(out)
    }

    /// Commits the open group in one sled transaction (a no-op when it is
    /// empty). Durable at sled's next flush.
    pub(crate) fn commit(&self) -> Result<(), StoreError> {
        let mut g = self.lock();
        commit(&self.trees, &mut g)
    }

    /// How many of the open group's writes to `t` add a key sled does not
    /// hold, minus those that remove one it holds (for exact counts before
    /// the group is committed).
    pub(crate) fn len_change(&self, t: Tree) -> Result<i64, StoreError> {
        let g = self.lock();
        let mut change = 0;
        for (key, value) in &g.writes.trees[t.index()] {
            let held = match g.held.holds(t, key) {
                Some(held) => held,
                None => self.trees[t.index()].contains_key(key).map_err(db_err)?,
            };
            change += match (held, value.is_some()) {
                (false, true) => 1,
                (true, false) => -1,
                _ => 0,
            };
        }
        Ok(change)
    }
}

impl Drop for Group {
    /// The last handle commits what is left, so a crawl that stops on an
    /// error keeps every whole operation it made.
    fn drop(&mut self) {
        let g = self
            .guarded
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Err(e) = commit(&self.trees, g) {
            eprintln!("focus-store: the last writes could not be committed: {e}");
        }
    }
}

/// The value a read sees: the open group's write, else sled's (not asked
/// for an id the held ids say sled does not hold).
fn read(
    trees: &[sled::Tree; GROUPED_TREES],
    g: &Guarded,
    t: Tree,
    key: &[u8],
) -> Result<Option<IVec>, StoreError> {
    match g.writes.trees[t.index()].get(key) {
        Some(pending) => Ok(pending.clone()),
        None if g.held.holds(t, key) == Some(false) => Ok(None),
        None => trees[t.index()].get(key).map_err(db_err),
    }
}

fn commit(trees: &[sled::Tree; GROUPED_TREES], g: &mut Guarded) -> Result<(), StoreError> {
    if g.writes.count == 0 {
        return Ok(());
    }
    let groups = &g.writes.trees;
    let result: Result<(), TransactionError<StoreError>> = trees[..].transaction(|tx| {
        for (tree, pending) in tx.iter().zip(groups) {
            for (key, value) in pending {
                match value {
                    Some(v) => tree.insert(key.as_slice(), v.clone())?,
                    None => tree.remove(key.as_slice())?,
                };
            }
        }
        Ok(())
    });
    result.map_err(|e| match e {
        TransactionError::Abort(e) => e,
        TransactionError::Storage(e) => db_err(e),
    })?;
    for (t, pending) in Tree::ALL.into_iter().zip(&g.writes.trees) {
        for (key, value) in pending {
            g.held.committed(t, key, value.is_some());
        }
    }
    g.writes = Writes::default();
    Ok(())
}

/// One operation's view: the group, then its own staged writes.
pub(crate) struct Op<'a> {
    trees: &'a [sled::Tree; GROUPED_TREES],
    group: &'a Guarded,
    staged: Vec<(Tree, Vec<u8>, Option<IVec>)>,
    /// Per tree and key, where in `staged` its last write is: a fetch
    /// stages a write for each of its new links and checks each against
    /// the ones before (a scan of `staged` made that quadratic).
    latest: [HashMap<Vec<u8>, usize>; GROUPED_TREES],
}

impl Op<'_> {
    /// The value this operation sees.
    pub(crate) fn get(&self, t: Tree, key: &[u8]) -> Result<Option<IVec>, StoreError> {
        let own = self.latest[t.index()]
            .get(key)
            .and_then(|&i| self.staged.get(i));
        match own {
            Some((_, _, value)) => Ok(value.clone()),
            None => read(self.trees, self.group, t, key),
        }
    }

    fn stage(&mut self, t: Tree, key: &[u8], value: Option<IVec>) {
        self.latest[t.index()].insert(key.to_vec(), self.staged.len());
        self.staged.push((t, key.to_vec(), value));
    }

    /// True if this operation sees a value at `key`.
    pub(crate) fn contains(&self, t: Tree, key: &[u8]) -> Result<bool, StoreError> {
        Ok(self.get(t, key)?.is_some())
    }

    /// Writes `value` at `key`.
    pub(crate) fn insert(&mut self, t: Tree, key: &[u8], value: impl Into<IVec>) {
        self.stage(t, key, Some(value.into()));
    }

    /// Removes `key`.
    pub(crate) fn remove(&mut self, t: Tree, key: &[u8]) {
        self.stage(t, key, None);
    }
}

/// The grouped trees of a test database, in [`Tree`]'s order.
#[cfg(test)]
pub(crate) fn test_trees(db: &sled::Db) -> [sled::Tree; GROUPED_TREES] {
    ["m", "p", "a", "l", "q"].map(|name| db.open_tree(name).unwrap())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(limit: usize) -> (tempfile::TempDir, sled::Db, Group) {
        let dir = tempfile::tempdir().unwrap();
        let db = sled::Config::new().path(dir.path()).open().unwrap();
        let g = Group::new(test_trees(&db), limit).unwrap();
        (dir, db, g)
    }

    #[test]
    fn reads_see_the_open_group_before_sled_and_commit_writes_it() {
        let (_dir, _db, g) = group(100);
        g.tree(Tree::Queue).insert(b"k", b"old".as_slice()).unwrap();
        g.op(|op| {
            op.insert(Tree::Pages, b"p", b"page".as_slice());
            op.remove(Tree::Queue, b"k");
            Ok(())
        })
        .unwrap();
        assert_eq!(
            g.get(Tree::Pages, b"p").unwrap().as_deref(),
            Some(&b"page"[..])
        );
        assert_eq!(g.get(Tree::Queue, b"k").unwrap(), None);
        // Not in sled yet.
        assert_eq!(g.tree(Tree::Pages).get(b"p").unwrap(), None);
        assert_eq!(g.len_change(Tree::Pages).unwrap(), 1);
        assert_eq!(g.len_change(Tree::Queue).unwrap(), -1);
        g.commit().unwrap();
        assert_eq!(
            g.tree(Tree::Pages).get(b"p").unwrap().as_deref(),
            Some(&b"page"[..])
        );
        assert_eq!(g.tree(Tree::Queue).get(b"k").unwrap(), None);
        assert_eq!(g.len_change(Tree::Pages).unwrap(), 0);
    }

    #[test]
    fn an_operation_sees_its_own_writes_and_a_failed_one_leaves_nothing() {
        let (_dir, _db, g) = group(100);
        let seen = g
            .op(|op| {
                op.insert(Tree::Meta, b"x", b"1".as_slice());
                op.contains(Tree::Meta, b"x")
            })
            .unwrap();
        assert!(seen);
        // Its last write to a key is what it sees, per tree.
        let seen = g
            .op(|op| {
                op.insert(Tree::Queue, b"k", b"1".as_slice());
                op.insert(Tree::Links, b"k", b"other tree".as_slice());
                op.remove(Tree::Queue, b"k");
                let removed = op.get(Tree::Queue, b"k")?;
                op.insert(Tree::Queue, b"k", b"2".as_slice());
                Ok((
                    removed,
                    op.get(Tree::Queue, b"k")?,
                    op.get(Tree::Links, b"k")?,
                ))
            })
            .unwrap();
        assert_eq!(seen.0, None);
        assert_eq!(seen.1.as_deref(), Some(&b"2"[..]));
        assert_eq!(seen.2.as_deref(), Some(&b"other tree"[..]));
        assert_eq!(
            g.get(Tree::Queue, b"k").unwrap().as_deref(),
            Some(&b"2"[..])
        );
        let failed: Result<(), _> = g.op(|op| {
            op.insert(Tree::Meta, b"y", b"2".as_slice());
            Err(StoreError::Db("refused".into()))
        });
        assert!(failed.is_err());
        assert_eq!(g.get(Tree::Meta, b"y").unwrap(), None);
        assert_eq!(g.get(Tree::Meta, b"x").unwrap().as_deref(), Some(&b"1"[..]));
    }

    #[test]
    fn ids_are_read_through_the_held_ids_across_commits_and_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let db = sled::Config::new().path(dir.path()).open().unwrap();
        let id = |n: u64| n.to_be_bytes();
        let g = Group::new(test_trees(&db), 100).unwrap();
        g.op(|op| {
            op.insert(Tree::Queue, &id(1), b"one".as_slice());
            op.insert(Tree::Queue, &id(2), b"two".as_slice());
            Ok(())
        })
        .unwrap();
        g.commit().unwrap();
        g.op(|op| {
            op.remove(Tree::Queue, &id(1));
            op.insert(Tree::Pages, &id(1), b"page".as_slice());
            Ok(())
        })
        .unwrap();
        assert_eq!(g.len_change(Tree::Queue).unwrap(), -1);
        assert_eq!(g.len_change(Tree::Pages).unwrap(), 1);
        g.commit().unwrap();
        let seen = |g: &Group| {
            [
                (Tree::Queue, 1),
                (Tree::Queue, 2),
                (Tree::Pages, 1),
                (Tree::Pages, 2),
            ]
            .map(|(tree, n)| g.get(tree, &id(n)).unwrap().is_some())
        };
        assert_eq!(seen(&g), [false, true, true, false]);
        assert_eq!(g.len_change(Tree::Queue).unwrap(), 0);
        drop(g);
        assert_eq!(
            seen(&Group::new(test_trees(&db), 100).unwrap()),
            [false, true, true, false]
        );
    }

    #[test]
    fn a_full_group_commits_by_itself_between_operations() {
        let (_dir, _db, g) = group(3);
        for i in 0u8..2 {
            g.op(|op| {
                op.insert(Tree::Links, &[i], [i].as_slice());
                op.insert(Tree::Pages, &[i], [i].as_slice());
                Ok(())
            })
            .unwrap();
            // The first operation (2 writes) waits; the second fills the
            // group (4 ≥ 3) and both reach sled together.
            let committed = g.tree(Tree::Pages).len();
            assert_eq!(committed, if i == 0 { 0 } else { 2 });
        }
    }

    #[test]
    fn dropping_the_group_commits_what_is_left() {
        let dir = tempfile::tempdir().unwrap();
        {
            let db = sled::Config::new().path(dir.path()).open().unwrap();
            let g = Group::new(test_trees(&db), 100).unwrap();
            g.op(|op| {
                op.insert(Tree::Attempts, b"a", b"kept".as_slice());
                Ok(())
            })
            .unwrap();
            drop(g);
            db.flush().unwrap();
        }
        let db = sled::Config::new().path(dir.path()).open().unwrap();
        let a = db.open_tree("a").unwrap();
        assert_eq!(a.get(b"a").unwrap().as_deref(), Some(&b"kept"[..]));
    }
}
