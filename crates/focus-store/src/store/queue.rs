//! The store's queue: the URLs the crawl will fetch, one key each, written
//! through the open group in operations of at most [`QUEUE_OP_URLS`] URLs.

use crate::codec::{decode, encode, id_key};
use crate::error::StoreError;
use crate::group::{Op, Tree};
use crate::records::QueuedUrl;

use super::Store;

/// The most URLs one operation queues: a fetch's new links beyond them,
/// and a long [`Store::enqueue`], are queued in operations of their own,
/// so that a page with thousands of links does not make one transaction
/// of them (see [`super::StoreConfig::group_writes`]).
pub(super) const QUEUE_OP_URLS: usize = 256;

impl Store {
    /// Adds URLs to the persisted queue (seeds); already stored pages and
    /// already queued URLs are skipped. Returns how many were added.
    pub fn enqueue(&self, urls: &[QueuedUrl]) -> Result<usize, StoreError> {
        self.queue_in_ops(encode_queued(urls)?)
    }

    /// Queues `values` as [`queue_new`] does, in operations of at most
    /// [`QUEUE_OP_URLS`] each; how many were queued.
    pub(super) fn queue_in_ops(&self, values: Vec<Encoded>) -> Result<usize, StoreError> {
        let mut values = values.into_iter().peekable();
        let mut added = 0;
        while values.peek().is_some() {
            let chunk: Vec<Encoded> = values.by_ref().take(QUEUE_OP_URLS).collect();
            added += self.group.op(|op| queue_new(op, chunk))?;
        }
        Ok(added)
    }

    /// Replaces a queued URL's record (after a priority raise).
    pub fn update_queued(&self, q: &QueuedUrl) -> Result<(), StoreError> {
        let key = id_key(q.id);
        let value = encode(q)?;
        self.group.op(|op| {
            if op.contains(Tree::Queue, &key)? {
                op.insert(Tree::Queue, &key, value);
            }
            Ok(())
        })
    }

    /// A queued URL's record, if it is queued.
    pub fn get_queued(&self, id: u64) -> Result<Option<QueuedUrl>, StoreError> {
        self.get_decoded(Tree::Queue, "queue", id)
    }

    /// Removes a URL from the persisted queue (dropped by the frontier).
    pub fn remove_queued(&self, id: u64) -> Result<(), StoreError> {
        self.group.op(|op| {
            op.remove(Tree::Queue, &id_key(id));
            Ok(())
        })
    }

    /// Every queued URL, in id order (to re-push on resume).
    pub fn queued(&self) -> impl Iterator<Item = Result<QueuedUrl, StoreError>> + '_ {
        self.committed(Tree::Queue, |k, v| decode("queue", k, v))
    }

    /// Number of queued URLs.
    pub fn queued_count(&self) -> Result<usize, StoreError> {
        self.count(Tree::Queue)
    }
}

/// A queued URL's key and encoded record.
pub(super) type Encoded = ([u8; 8], Vec<u8>);

/// Each URL's key and encoded record.
pub(super) fn encode_queued(urls: &[QueuedUrl]) -> Result<Vec<Encoded>, StoreError> {
    urls.iter()
        .map(|q| Ok((id_key(q.id), encode(q)?)))
        .collect()
}

/// Queues the URLs that are neither stored pages nor already queued;
/// how many.
pub(super) fn queue_new(op: &mut Op<'_>, urls: Vec<Encoded>) -> Result<usize, StoreError> {
    let mut added = 0;
    for (key, value) in urls {
        if !op.contains(Tree::Pages, &key)? && !op.contains(Tree::Queue, &key)? {
            op.insert(Tree::Queue, &key, value);
            added += 1;
        }
    }
    Ok(added)
}
