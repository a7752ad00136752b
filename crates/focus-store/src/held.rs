//! Which page ids sled holds in the trees keyed by them (pages and queue),
//! kept in memory beside sled.
//!
//! A fetch checks each link it queues against both trees, and a re-scoring
//! reads each of a page's links from the queue; most of those ids are in
//! neither (a new link, a child fetched long ago). sled answers such a miss
//! only after walking its tree down to a leaf, which a long crawl's trees
//! have pushed out of sled's cache: a miss then reads and decodes pages of
//! the database file. The set answers a miss from memory (about 16 bytes an
//! id); sled is read only for an id it holds.
//!
//! The set follows sled's committed state: it is read from the trees when
//! the store opens and changed by each committed group, so every write to
//! an indexed tree must go through the group. Keys that are not 8-byte ids
//! are not indexed and are always read from sled.

use std::collections::HashSet;

use focus_core::IdHashing;

use crate::error::{db_err, StoreError};
use crate::group::{Tree, GROUPED_TREES};

/// The ids held by each indexed tree (`None` for a tree not indexed).
pub(crate) struct HeldIds {
    by_tree: [Option<HashSet<u64, IdHashing>>; GROUPED_TREES],
}

/// The id a key encodes, if it is an 8-byte id key.
fn id_of(key: &[u8]) -> Option<u64> {
    <[u8; 8]>::try_from(key).ok().map(u64::from_be_bytes)
}

impl HeldIds {
    /// Reads the id keys of the indexed trees (`Tree::is_indexed`).
    pub(crate) fn load(trees: &[sled::Tree; GROUPED_TREES]) -> Result<HeldIds, StoreError> {
        let mut by_tree: [Option<HashSet<u64, IdHashing>>; GROUPED_TREES] = Default::default();
        for t in Tree::ALL.into_iter().filter(|t| t.is_indexed()) {
            let mut ids = HashSet::default();
            for key in trees[t.index()].iter().keys() {
                ids.extend(id_of(&key.map_err(db_err)?));
            }
            by_tree[t.index()] = Some(ids);
        }
        Ok(HeldIds { by_tree })
    }

    /// Whether sled holds `key` in `t`, when the set knows: `None` for a
    /// tree not indexed or a key that is not an id.
    pub(crate) fn holds(&self, t: Tree, key: &[u8]) -> Option<bool> {
        let ids = self.by_tree[t.index()].as_ref()?;
        Some(ids.contains(&id_of(key)?))
    }

    /// Follows a committed write to `key` in `t` (`present`: an insert,
    /// else a removal).
    pub(crate) fn committed(&mut self, t: Tree, key: &[u8], present: bool) {
        let (Some(ids), Some(id)) = (self.by_tree[t.index()].as_mut(), id_of(key)) else {
            return;
        };
        if present {
            ids.insert(id);
        } else {
            ids.remove(&id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trees() -> (tempfile::TempDir, [sled::Tree; GROUPED_TREES]) {
        let dir = tempfile::tempdir().unwrap();
        let db = sled::Config::new().path(dir.path()).open().unwrap();
        (dir, crate::group::test_trees(&db))
    }

    #[test]
    fn knows_the_ids_of_indexed_trees_and_follows_commits() {
        let (_dir, trees) = trees();
        trees[Tree::Pages.index()]
            .insert(7u64.to_be_bytes(), &b"page"[..])
            .unwrap();
        trees[Tree::Queue.index()]
            .insert(9u64.to_be_bytes(), &b"queued"[..])
            .unwrap();
        let mut held = HeldIds::load(&trees).unwrap();
        let id = |n: u64| n.to_be_bytes();
        assert_eq!(held.holds(Tree::Pages, &id(7)), Some(true));
        assert_eq!(held.holds(Tree::Pages, &id(9)), Some(false));
        assert_eq!(held.holds(Tree::Queue, &id(9)), Some(true));
        // Not indexed, or not an id: the set does not know.
        assert_eq!(held.holds(Tree::Links, &id(7)), None);
        assert_eq!(held.holds(Tree::Pages, b"not an id"), None);
        held.committed(Tree::Queue, &id(9), false);
        held.committed(Tree::Pages, &id(9), true);
        assert_eq!(held.holds(Tree::Queue, &id(9)), Some(false));
        assert_eq!(held.holds(Tree::Pages, &id(9)), Some(true));
    }
}
