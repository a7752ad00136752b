//! Compact bookkeeping for queued URLs: a slot arena (about 88 bytes per
//! queued URL, URL string excluded) and one hash map from page id to slot
//! that is also the seen set (`HANDED_OUT` marks URLs already given out).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use focus_core::{CanonicalUrl, PageId};

use crate::discipline::Key;
use crate::spill::SpillRef;
use crate::tunnel::TunnelState;

/// Slot value of a URL that was handed out (or drained): seen, not queued.
pub(crate) const HANDED_OUT: u32 = u32::MAX;

/// Page ids are already XXH3 hashes: the map only needs to mix them once.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (n ^ (n >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    }
}

/// id → slot (or `HANDED_OUT`).
pub(crate) type IdMap = HashMap<PageId, u32, BuildHasherDefault<IdHasher>>;

/// Where a queued URL's string lives.
#[derive(Debug)]
pub(crate) enum UrlRef {
    /// In memory.
    Mem(Box<CanonicalUrl>),
    /// In the spill file.
    Disk(SpillRef),
    /// Moved out of a slot that is leaving the frontier.
    Taken,
}

/// A queued URL without its string.
#[derive(Debug)]
pub(crate) struct Slot {
    pub(crate) key: Key,
    pub(crate) id: PageId,
    pub(crate) priority: f64,
    /// Parent page id; meaningful when `has_parent`.
    pub(crate) parent: u64,
    pub(crate) host: u32,
    pub(crate) depth: u32,
    pub(crate) numtries: u32,
    /// Layer or topic; `u32::MAX` = none.
    pub(crate) layer: u32,
    pub(crate) tunnel: TunnelState,
    pub(crate) has_parent: bool,
    /// Waiting in its topic's incoming queue (not dispatchable yet).
    pub(crate) parked: bool,
    pub(crate) url: UrlRef,
}

impl Slot {
    pub(crate) fn layer(&self) -> Option<u32> {
        (self.layer != u32::MAX).then_some(self.layer)
    }

    pub(crate) fn parent(&self) -> Option<PageId> {
        self.has_parent.then_some(PageId(self.parent))
    }
}

/// Arena of slots with a free list.
#[derive(Debug, Default)]
pub(crate) struct Slots {
    slots: Vec<Option<Slot>>,
    free: Vec<u32>,
}

impl Slots {
    pub(crate) fn insert(&mut self, slot: Slot) -> u32 {
        if let Some(i) = self.free.pop() {
            if let Some(s) = self.slots.get_mut(i as usize) {
                *s = Some(slot);
                return i;
            }
        }
        self.slots.push(Some(slot));
        (self.slots.len() - 1) as u32
    }

    pub(crate) fn get(&self, i: u32) -> Option<&Slot> {
        self.slots.get(i as usize).and_then(Option::as_ref)
    }

    pub(crate) fn get_mut(&mut self, i: u32) -> Option<&mut Slot> {
        self.slots.get_mut(i as usize).and_then(Option::as_mut)
    }

    pub(crate) fn take(&mut self, i: u32) -> Option<Slot> {
        let s = self.slots.get_mut(i as usize)?.take()?;
        self.free.push(i);
        Some(s)
    }

    /// True when slot `i` holds a dispatchable entry filed under `key`
    /// (heap entries left behind by raises and evictions fail this).
    pub(crate) fn is_live(&self, i: u32, key: Key) -> bool {
        self.get(i).is_some_and(|s| s.key == key && !s.parked)
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &Slot> {
        self.slots.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_stays_small() {
        assert!(std::mem::size_of::<Option<Slot>>() <= 88);
    }
}
