//! Compact bookkeeping for queued URLs: a slot arena (about 88 bytes per
//! queued URL, URL string excluded) and one hash map from page id to slot
//! that is also the seen set ([`Entry`]: in memory, handed out, or cold).

use std::collections::HashMap;

use focus_core::{CanonicalUrl, IdHashing, PageId};

use crate::discipline::Key;
use crate::spill::SpillRef;
use crate::tunnel::TunnelState;

/// What the id map knows of a URL, packed in a `u64` (2 tag bits): queued
/// in memory (its slot), handed out (or drained), or queued in the cold
/// tier — pending in its host's buffer, or at an offset of the records file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry(u64);

/// An [`Entry`] unpacked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum State {
    Hot(u32),
    HandedOut,
    /// In the pending buffer of this host.
    Pending(u32),
    /// At this offset of the records file.
    File(u64),
}

const TAG_SHIFT: u32 = 62;
const PAYLOAD: u64 = (1 << TAG_SHIFT) - 1;

/// Seen and no longer queued.
pub(crate) const HANDED_OUT: Entry = Entry(1 << TAG_SHIFT);

impl Entry {
    pub(crate) fn hot(slot: u32) -> Self {
        Self(u64::from(slot))
    }

    pub(crate) fn pending(host: u32) -> Self {
        Self(2 << TAG_SHIFT | u64::from(host))
    }

    pub(crate) fn file(offset: u64) -> Self {
        Self(3 << TAG_SHIFT | (offset & PAYLOAD))
    }

    pub(crate) fn state(self) -> State {
        let payload = self.0 & PAYLOAD;
        match self.0 >> TAG_SHIFT {
            0 => State::Hot(payload as u32),
            1 => State::HandedOut,
            2 => State::Pending(payload as u32),
            _ => State::File(payload),
        }
    }
}

/// id → [`Entry`]: the seen set and where each queued URL is.
pub(crate) type IdMap = HashMap<PageId, Entry, IdHashing>;

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
    fn entries_round_trip() {
        assert_eq!(Entry::hot(7).state(), State::Hot(7));
        assert_eq!(Entry::hot(u32::MAX).state(), State::Hot(u32::MAX));
        assert_eq!(HANDED_OUT.state(), State::HandedOut);
        assert_eq!(Entry::pending(3).state(), State::Pending(3));
        assert_eq!(Entry::file(1 << 40).state(), State::File(1 << 40));
        assert_ne!(Entry::pending(3), Entry::file(3));
        assert_eq!(std::mem::size_of::<Entry>(), 8);
    }

    #[test]
    fn slot_stays_small() {
        assert!(std::mem::size_of::<Option<Slot>>() <= 88);
    }
}
