//! One back queue per host (Mercator): the host's waiting URLs as a heap of
//! (key, slot) — entries left behind by raises and evictions are skipped
//! lazily — its in-flight count, the time it may be contacted again, its
//! server load and whether it was tagged bad.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use focus_core::HostKey;

use crate::cold::ColdQueue;
use crate::discipline::Key;
use crate::index::Slots;

/// Where a host stands in dispatch, with the key it is filed under.
pub(crate) type HostRank = (u64, u64, u64, u64);

#[derive(Debug)]
pub(crate) struct HostQueue {
    pub(crate) key: HostKey,
    /// Waiting URLs, best first (may hold stale entries).
    pub(crate) waiting: BinaryHeap<Reverse<(Key, u32)>>,
    /// URLs handed out and not yet reported done.
    pub(crate) in_flight: u32,
    /// This host's own in-flight limit (0: the frontier's default).
    pub(crate) max_in_flight: u32,
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
    /// Its URLs in the cold tier.
    pub(crate) cold: ColdQueue,
}

impl HostQueue {
    pub(crate) fn new(key: HostKey) -> Self {
        Self {
            key,
            waiting: BinaryHeap::new(),
            in_flight: 0,
            max_in_flight: 0,
            ready_at: 0,
            serverload: 0,
            bad: false,
            ready_rank: None,
            cooling: false,
            cold: ColdQueue::default(),
        }
    }

    /// True when the host may have another URL in flight, `default` being
    /// the frontier's limit for hosts without one of their own.
    pub(crate) fn has_room(&self, default: u32) -> bool {
        let limit = if self.max_in_flight == 0 {
            default
        } else {
            self.max_in_flight
        };
        !self.bad && self.in_flight < limit
    }

    /// The best live entry, dropping stale ones on the way.
    pub(crate) fn best(&mut self, slots: &Slots) -> Option<(Key, u32)> {
        while let Some(Reverse((key, slot))) = self.waiting.peek().copied() {
            if slots.is_live(slot, key) {
                return Some((key, slot));
            }
            self.waiting.pop();
        }
        None
    }

    /// The key of the best entry, hot or cold (a cold one may be stale).
    pub(crate) fn best_key(&mut self, slots: &Slots) -> Option<Key> {
        let hot = self.best(slots).map(|(k, _)| k);
        match (hot, self.cold.best_key()) {
            (Some(h), Some(c)) => Some(h.min(c)),
            (h, c) => h.or(c),
        }
    }

    /// True when the best entry is in the cold tier.
    pub(crate) fn cold_first(&mut self, slots: &Slots) -> bool {
        match (self.best(slots), self.cold.best_key()) {
            (Some((h, _)), Some(c)) => c < h,
            (None, Some(_)) => true,
            _ => false,
        }
    }

    /// Removes and returns the best live entry.
    pub(crate) fn pop_best(&mut self, slots: &Slots) -> Option<(Key, u32)> {
        let best = self.best(slots)?;
        self.waiting.pop();
        Some(best)
    }
}
