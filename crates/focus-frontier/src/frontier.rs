//! The frontier proper: its state (seen set, queued slots, per-host back
//! queues, the ready/cooling host sets, topic queues) and the queue side —
//! push, raise, retry, snapshot, URL strings. Dispatch (which host goes
//! next, in-flight limits) is `frontier/dispatch.rs`, BINGO!'s topic caps
//! `frontier/topic_caps.rs`, the cold tier's bookkeeping
//! `frontier/cold_tier.rs`.
//!
//! Host states: *ready* (live waiting URLs, under its in-flight limit,
//! cool-down over: filed in `ready` by its best URL's key), *cooling*
//! (filed in the `cooling` heap by `ready_at`; stale heap entries are
//! re-filed lazily), *saturated* (at its in-flight limit), *empty*, *bad*.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap};
use std::path::Path;

use focus_core::{CanonicalUrl, HostKey, PageId};
use serde::Serialize;

use crate::candidate::Candidate;
use crate::cold::{RecordFile, RUN_AT};
use crate::discipline::{Discipline, Key, Sortable};
use crate::host_queue::{HostQueue, HostRank};
use crate::index::{Entry, IdMap, Slot, Slots, State, UrlRef, HANDED_OUT};
use crate::spill::Spill;
use crate::topics::{TopicCaps, TopicQueue};
use crate::FrontierError;

mod cold_tier;
mod dispatch;
mod topic_caps;

use cold_tier::entry_of;

/// Pending cold records over all hosts that make every host write its
/// pending buffer out as a run (bounds the memory they hold).
const PENDING_CAP: usize = 1 << 18;

/// What a push did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushResult {
    /// New URL, now queued.
    Queued,
    /// Already queued; its priority was raised (max over paths).
    Raised,
    /// Already queued with at least this priority, or already handed out.
    AlreadySeen,
    /// Refused: its host is bad, or its topic queue is full of better URLs.
    Dropped,
}

/// Counters for progress reports and `summary.json`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct FrontierStats {
    /// URLs waiting.
    pub queued: u64,
    /// Distinct URLs known (queued or handed out).
    pub seen: u64,
    /// Pushes that queued a new URL.
    pub pushed: u64,
    /// Pushes that raised a queued URL.
    pub raised: u64,
    /// Pushes of URLs already queued or handed out.
    pub duplicates: u64,
    /// URLs refused or drained because their host is bad.
    pub dropped_bad_host: u64,
    /// URLs refused or evicted by a per-topic cap.
    pub dropped_topic_cap: u64,
    /// URLs handed out.
    pub popped: u64,
    /// URLs put back for another try.
    pub retried: u64,
    /// URLs filed in the cold tier (or whose string was spilled).
    pub spilled: u64,
    /// Cold-tier and spill-file errors (a URL kept in memory, or lost when
    /// unreadable).
    pub spill_errors: u64,
    /// Bytes in the cold tier's and the spill file (each is truncated
    /// whenever nothing in it is queued).
    pub spill_bytes: u64,
}

/// The crawl frontier.
#[derive(Debug)]
pub struct Frontier {
    discipline: Discipline,
    max_in_flight_per_host: u32,
    topic_caps: Option<TopicCaps>,
    ids: IdMap,
    slots: Slots,
    queued: usize,
    hosts: Vec<HostQueue>,
    host_ids: HashMap<HostKey, u32>,
    ready: BTreeSet<(HostRank, u32)>,
    cooling: BinaryHeap<Reverse<(u64, u32)>>,
    topics: HashMap<u32, TopicQueue>,
    spill: Option<Spill>,
    /// The cold tier's runs (with a spill directory).
    records: Option<RecordFile>,
    /// Cold records waiting in hosts' pending buffers.
    cold_pending: usize,
    /// Pending cold records of one host that are written out as a run.
    cold_run_len: usize,
    mem_url_bound: usize,
    mem_urls: usize,
    seq: u64,
    stats: FrontierStats,
}

impl Frontier {
    /// An empty in-memory frontier handing out one URL per host at a time.
    pub fn new(discipline: Discipline) -> Self {
        Self {
            discipline,
            max_in_flight_per_host: 1,
            topic_caps: None,
            ids: IdMap::default(),
            slots: Slots::default(),
            queued: 0,
            hosts: Vec::new(),
            host_ids: HashMap::new(),
            ready: BTreeSet::new(),
            cooling: BinaryHeap::new(),
            topics: HashMap::new(),
            spill: None,
            records: None,
            cold_pending: 0,
            cold_run_len: RUN_AT,
            mem_url_bound: usize::MAX,
            mem_urls: 0,
            seq: 0,
            stats: FrontierStats::default(),
        }
    }

    /// Keeps at most `mem_urls` queued URLs in memory; the rest go to the
    /// cold tier: per-host sorted runs in unnamed temp files in `dir`
    /// (deleted when the frontier is dropped). With topic caps every URL
    /// stays in memory and only URL strings beyond the bound are spilled.
    pub fn with_spill(mut self, dir: &Path, mem_urls: usize) -> Result<Self, FrontierError> {
        self.spill = Some(Spill::new(dir)?);
        self.records = Some(RecordFile::new(dir)?);
        self.mem_url_bound = mem_urls;
        Ok(self)
    }

    /// Writes a host's cold URLs out as a sorted run once `n` (≥ 1) of them
    /// are pending (default 256): fewer holds less in memory, more makes
    /// fewer, longer runs.
    pub fn with_cold_run_len(mut self, n: usize) -> Self {
        self.cold_run_len = n.max(1);
        self
    }

    /// Allows up to `n` (≥ 1) URLs of one host in flight at once (hosts
    /// given a limit of their own by [`Frontier::set_host_limit`] excepted).
    pub fn with_max_in_flight_per_host(mut self, n: u32) -> Self {
        self.max_in_flight_per_host = n.max(1);
        self
    }

    /// BINGO!'s bounded per-topic queues, the topic being
    /// `Candidate::layer`: at most `caps.outgoing` URLs of a topic are
    /// dispatchable, at most `caps.incoming` more wait behind them (the
    /// worst is evicted when a better one arrives).
    pub fn with_topic_caps(mut self, caps: TopicCaps) -> Self {
        self.topic_caps = Some(TopicCaps {
            incoming: caps.incoming,
            outgoing: caps.outgoing.max(1),
        });
        self
    }

    /// The discipline in force.
    pub fn discipline(&self) -> Discipline {
        self.discipline
    }

    /// URLs waiting.
    pub fn len(&self) -> usize {
        self.queued
    }

    /// True when nothing is waiting.
    pub fn is_empty(&self) -> bool {
        self.queued == 0
    }

    /// True when nothing is waiting and nothing is in flight.
    pub fn is_exhausted(&self) -> bool {
        self.queued == 0 && self.hosts.iter().all(|h| h.in_flight == 0)
    }

    /// Counters.
    pub fn stats(&self) -> FrontierStats {
        FrontierStats {
            queued: self.queued as u64,
            seen: self.ids.len() as u64,
            spill_bytes: self.spill.as_ref().map_or(0, Spill::bytes)
                + self.records.as_ref().map_or(0, RecordFile::bytes),
            ..self.stats
        }
    }

    /// True if the URL is queued or was handed out.
    pub fn has_seen(&self, id: PageId) -> bool {
        self.ids.contains_key(&id)
    }

    /// The priority of a queued URL.
    pub fn priority_of(&self, id: PageId) -> Option<f64> {
        match self.ids.get(&id)?.state() {
            State::Hot(slot) => self.slots.get(slot).map(|s| s.priority),
            State::HandedOut => None,
            State::Pending(_) | State::File(_) => self.cold_rec(id).map(|r| r.priority),
        }
    }

    /// A queued URL's attempts so far (numtries): a raise by a new link
    /// keeps it, so persist it from here rather than from the link.
    pub fn numtries_of(&self, id: PageId) -> Option<u32> {
        match self.ids.get(&id)?.state() {
            State::Hot(slot) => self.slots.get(slot).map(|s| s.numtries),
            State::HandedOut => None,
            State::Pending(_) | State::File(_) => self.cold_rec(id).map(|r| r.numtries),
        }
    }

    /// A queued URL's insertion rank, the last tie-break of every order.
    /// Persist it with the URL and re-push in this order on resume, so the
    /// resumed frontier breaks ties exactly as the original did.
    pub fn seq_of(&self, id: PageId) -> Option<u64> {
        match self.ids.get(&id)?.state() {
            State::Hot(slot) => self.slots.get(slot).map(|s| s.key.seq),
            State::HandedOut => None,
            State::Pending(_) | State::File(_) => self.cold_rec(id).map(|r| r.key.seq),
        }
    }

    /// Every queued candidate (arbitrary order), to persist them; URLs that
    /// cannot be read back from the spill file are an error.
    pub fn snapshot(&self) -> Result<Vec<Candidate>, FrontierError> {
        let mut out: Vec<Candidate> = self
            .slots
            .iter()
            .map(|s| Ok(self.candidate(s, self.url_of(s)?)))
            .collect::<Result<_, FrontierError>>()?;
        if let Some(file) = self.records.as_ref() {
            for q in &self.hosts {
                for (rec, at) in q.cold.all(file)? {
                    if self.ids.get(&rec.id) == Some(&entry_of(&rec, at)) {
                        out.push(self.cold_candidate(&rec)?);
                    }
                }
            }
        }
        Ok(out)
    }

    /// Ids of URLs handed out (or drained): on resume, feed them to
    /// [`Frontier::mark_seen`] before re-pushing the snapshot.
    pub fn handed_out(&self) -> impl Iterator<Item = PageId> + '_ {
        self.ids
            .iter()
            .filter(|(_, s)| **s == HANDED_OUT)
            .map(|(id, _)| *id)
    }

    /// Records a URL as already handed out (resuming a crawl: fetched
    /// pages are never queued again). No effect on a queued URL.
    pub fn mark_seen(&mut self, id: PageId) {
        self.ids.entry(id).or_insert(HANDED_OUT);
    }

    /// Adds a URL, or raises it if it is queued with a lower priority.
    pub fn push(&mut self, c: Candidate) -> PushResult {
        let host = self.host_index(&c.host);
        if self.hosts.get(host as usize).is_some_and(|h| h.bad) {
            self.stats.dropped_bad_host += 1;
            return PushResult::Dropped;
        }
        match self.ids.get(&c.id).map(|e| e.state()) {
            Some(State::HandedOut) => {
                self.stats.duplicates += 1;
                PushResult::AlreadySeen
            }
            Some(State::Pending(_) | State::File(_)) => {
                let old = self.cold_rec(c.id);
                match old {
                    Some(old) if c.priority > old.priority && self.discipline.uses_priority() => {
                        self.cold_rekey(old, |r| {
                            r.priority = c.priority;
                            r.tunnel = c.tunnel.off_topic_steps;
                            r.has_parent = c.parent.is_some();
                            r.parent = c.parent.map_or(0, |p| p.0);
                        });
                        self.stats.raised += 1;
                        PushResult::Raised
                    }
                    _ => {
                        self.stats.duplicates += 1;
                        PushResult::AlreadySeen
                    }
                }
            }
            Some(State::Hot(slot)) => {
                let better = self
                    .slots
                    .get(slot)
                    .is_some_and(|s| c.priority > s.priority);
                if better && self.discipline.uses_priority() {
                    self.reposition(slot, |s| {
                        s.priority = c.priority;
                        s.tunnel = c.tunnel;
                        s.has_parent = c.parent.is_some();
                        s.parent = c.parent.map_or(0, |p| p.0);
                    });
                    self.stats.raised += 1;
                    PushResult::Raised
                } else {
                    self.stats.duplicates += 1;
                    PushResult::AlreadySeen
                }
            }
            None => {
                let r = self.insert(c, host);
                if r == PushResult::Queued {
                    self.stats.pushed += 1;
                }
                r
            }
        }
    }

    /// Puts a handed-out URL back for another attempt (numtries + 1). The
    /// caller must also report its host with [`Frontier::host_done`].
    pub fn retry(&mut self, mut c: Candidate) -> PushResult {
        let host = self.host_index(&c.host);
        if self.hosts.get(host as usize).is_some_and(|h| h.bad) {
            self.stats.dropped_bad_host += 1;
            return PushResult::Dropped;
        }
        if self.ids.get(&c.id).is_some_and(|s| *s != HANDED_OUT) {
            return PushResult::AlreadySeen;
        }
        c.numtries = c.numtries.saturating_add(1);
        self.ids.remove(&c.id);
        let r = self.insert(c, host);
        if r == PushResult::Queued {
            self.stats.retried += 1;
        }
        r
    }

    /// Raises queued URLs to the maximum priority, 1 (citations of top
    /// hubs); returns how many were below it.
    pub fn raise_to_max(&mut self, ids: &[PageId]) -> usize {
        ids.iter().filter(|id| self.raise(**id, 1.0)).count()
    }

    /// Raises a queued URL to `priority` when that is higher than its own
    /// (a citation of a top hub; never lowers it); whether it moved.
    pub fn raise(&mut self, id: PageId, priority: f64) -> bool {
        let higher = self.priority_of(id).is_some_and(|p| priority > p);
        let moved = higher && self.rekey(id, priority) == Some(true);
        self.stats.raised += u64::from(moved);
        moved
    }

    /// Sets a queued URL's priority, lower or higher (a page's links
    /// re-scored once its fetched children have been judged); false when
    /// the URL is not queued, already has that priority, or the discipline
    /// ignores priorities.
    pub fn set_priority(&mut self, id: PageId, priority: f64) -> bool {
        self.discipline.uses_priority() && self.rekey(id, priority) == Some(true)
    }

    /// Gives a queued URL (hot or cold) a new priority and files it under
    /// its new key: `None` when it is not queued, `Some(false)` when it
    /// already had that priority (nothing to do).
    fn rekey(&mut self, id: PageId, priority: f64) -> Option<bool> {
        match self.ids.get(&id)?.state() {
            State::HandedOut => None,
            State::Pending(_) | State::File(_) => {
                let old = self.cold_rec(id)?;
                let differs = old.priority != priority;
                if differs {
                    self.cold_rekey(old, |r| r.priority = priority);
                }
                Some(differs)
            }
            State::Hot(slot) => {
                let differs = self.slots.get(slot)?.priority != priority;
                if differs {
                    self.reposition(slot, |s| s.priority = priority);
                }
                Some(differs)
            }
        }
    }

    fn host_index(&mut self, key: &HostKey) -> u32 {
        if let Some(&h) = self.host_ids.get(key) {
            return h;
        }
        let h = self.hosts.len() as u32;
        self.hosts.push(HostQueue::new(key.clone()));
        self.host_ids.insert(key.clone(), h);
        h
    }

    fn insert(&mut self, c: Candidate, host: u32) -> PushResult {
        self.seq += 1;
        let key = self.discipline.key(&c, self.seq);
        let Some(parked) = self.make_room_in_topic(c.layer, key) else {
            self.stats.dropped_topic_cap += 1;
            return PushResult::Dropped;
        };
        if self.insert_cold(&c, host, key) {
            return PushResult::Queued;
        }
        let url = self.store_url(c.url);
        let slot = self.slots.insert(Slot {
            key,
            id: c.id,
            priority: c.priority,
            parent: c.parent.map_or(0, |p| p.0),
            host,
            depth: c.depth,
            numtries: c.numtries,
            layer: c.layer.unwrap_or(u32::MAX),
            tunnel: c.tunnel,
            has_parent: c.parent.is_some(),
            parked,
            url,
        });
        self.ids.insert(c.id, Entry::hot(slot));
        self.queued += 1;
        if let Some(t) = c.layer.and_then(|l| self.topics.get_mut(&l)) {
            if parked {
                t.incoming.insert((key, slot));
            } else {
                t.outgoing += 1;
            }
        }
        if !parked {
            self.file_in_host(host, key, slot);
        }
        PushResult::Queued
    }

    fn file_in_host(&mut self, host: u32, key: Key, slot: u32) {
        let Some(q) = self.hosts.get_mut(host as usize) else {
            return;
        };
        q.waiting.push(Reverse((key, slot)));
        self.consider(host, key);
    }

    /// Re-files host `host` if an entry with `key` just arrived and may
    /// change its place: a ready host moves only if its best URL improved;
    /// a cooling host is re-filed when it wakes. Skipping the rest keeps a
    /// push from touching the ready set and the host's best slot.
    fn consider(&mut self, host: u32, key: Key) {
        let Some(q) = self.hosts.get_mut(host as usize) else {
            return;
        };
        let moves = match q.ready_rank {
            Some(rank) => self.discipline.host_key(key, q.serverload) < rank,
            None => !q.cooling,
        };
        if moves {
            self.refile(host, 0);
        }
    }

    /// Applies `change` to a queued slot and re-keys it (keeping its
    /// arrival order); the old heap entry goes stale.
    fn reposition(&mut self, slot: u32, change: impl FnOnce(&mut Slot)) {
        let discipline = self.discipline;
        let Some(s) = self.slots.get_mut(slot) else {
            return;
        };
        change(s);
        let old = s.key;
        let new = discipline.key_of(
            Sortable {
                id: s.id.0,
                numtries: s.numtries,
                depth: s.depth,
                priority: s.priority,
                layer: s.layer(),
            },
            old.seq,
        );
        s.key = new;
        let (host, parked, layer) = (s.host, s.parked, s.layer());
        if parked {
            if let Some(t) = layer.and_then(|l| self.topics.get_mut(&l)) {
                t.incoming.remove(&(old, slot));
                t.incoming.insert((new, slot));
            }
        } else {
            self.file_in_host(host, new, slot);
        }
    }

    /// Takes a dispatchable slot out of the frontier (marking its id
    /// handed out) and refills its topic's outgoing queue.
    fn release_slot(&mut self, slot: u32) -> Option<Slot> {
        let s = self.slots.take(slot)?;
        self.ids.insert(s.id, HANDED_OUT);
        self.queued -= 1;
        if let Some(l) = s.layer() {
            self.promote(l);
        }
        Some(s)
    }

    fn store_url(&mut self, url: CanonicalUrl) -> UrlRef {
        if self.mem_urls >= self.mem_url_bound {
            if let Some(sp) = self.spill.as_mut() {
                match sp.write(url.as_str()) {
                    Ok(off) => {
                        self.stats.spilled += 1;
                        return UrlRef::Disk(off);
                    }
                    Err(_) => self.stats.spill_errors += 1,
                }
            }
        }
        self.mem_urls += 1;
        UrlRef::Mem(Box::new(url))
    }

    fn url_of(&self, s: &Slot) -> Result<CanonicalUrl, FrontierError> {
        match &s.url {
            UrlRef::Mem(u) => Ok((**u).clone()),
            UrlRef::Disk(off) => {
                let sp = self.spill.as_ref().ok_or(FrontierError::NoSpill)?;
                Ok(sp.read(*off)?.parse()?)
            }
            UrlRef::Taken => Err(FrontierError::NoSpill),
        }
    }

    /// Moves the URL out of a slot leaving the frontier (no copy when it
    /// is in memory, one read when spilled) and releases its storage.
    fn take_url(&mut self, mut s: Slot) -> (Result<CanonicalUrl, FrontierError>, Slot) {
        let url = match std::mem::replace(&mut s.url, UrlRef::Taken) {
            UrlRef::Mem(u) => {
                self.mem_urls -= 1;
                Ok(*u)
            }
            UrlRef::Disk(at) => {
                let read = self
                    .spill
                    .as_ref()
                    .ok_or(FrontierError::NoSpill)
                    .and_then(|sp| Ok(sp.read(at)?.parse()?));
                self.forget_url(&UrlRef::Disk(at));
                read
            }
            UrlRef::Taken => Err(FrontierError::NoSpill),
        };
        (url, s)
    }

    fn forget_url(&mut self, url: &UrlRef) {
        match url {
            UrlRef::Mem(_) => self.mem_urls -= 1,
            UrlRef::Taken => {}
            UrlRef::Disk(_) => {
                if let Some(sp) = self.spill.as_mut() {
                    if sp.release().is_err() {
                        self.stats.spill_errors += 1;
                    }
                }
            }
        }
    }

    fn candidate(&self, s: &Slot, url: CanonicalUrl) -> Candidate {
        let host = self
            .hosts
            .get(s.host as usize)
            .map_or_else(|| url.host_key(), |q| q.key.clone());
        Candidate {
            url,
            id: s.id,
            host,
            depth: s.depth,
            parent: s.parent(),
            priority: s.priority,
            numtries: s.numtries,
            tunnel: s.tunnel,
            layer: s.layer(),
        }
    }
}
