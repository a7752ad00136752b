//! One back queue per host (Mercator): the host's waiting URLs in key
//! order, its in-flight count, the time it may be contacted again, its
//! server load and whether it was tagged bad.

use std::collections::BTreeSet;

use focus_core::PageId;

use crate::discipline::Key;

/// Where a host stands in dispatch, with the key it is filed under.
pub(crate) type HostRank = (u64, u64, u64, u64);

#[derive(Debug, Default)]
pub(crate) struct HostQueue {
    /// Waiting URLs, best first.
    pub(crate) waiting: BTreeSet<(Key, PageId)>,
    /// URLs handed out and not yet reported done.
    pub(crate) in_flight: u32,
    /// Earliest time (ms) the host may be contacted again.
    pub(crate) ready_at: u64,
    /// URLs fetched from this host so far (the VLDB paper's serverload).
    pub(crate) serverload: u64,
    /// Tagged bad: drained and refused from now on.
    pub(crate) bad: bool,
    /// The rank under which the host is filed among ready hosts, if it is.
    pub(crate) ready_rank: Option<HostRank>,
    /// True while the host has an entry in the cooling heap.
    pub(crate) cooling: bool,
}

impl HostQueue {
    pub(crate) fn best(&self) -> Option<Key> {
        self.waiting.first().map(|(k, _)| *k)
    }
}
