//! The frontier proper: seen set, queued entries, per-host back queues and
//! the ready/cooling host sets that make dispatch polite.
//!
//! Host states: *ready* (waiting URLs, under its in-flight limit, cool-down
//! over: filed in `ready` by its best URL's key), *cooling* (filed in the
//! `cooling` heap by `ready_at`; stale heap entries are skipped lazily),
//! *saturated* (at its in-flight limit), *empty*, or *bad*.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap, HashMap, HashSet};

use focus_core::{HostKey, PageId};
use serde::Serialize;

use crate::candidate::Candidate;
use crate::discipline::{Discipline, Key};
use crate::host_queue::{HostQueue, HostRank};

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
    /// Distinct URLs ever accepted (queued or handed out).
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
}

/// The crawl frontier.
#[derive(Debug)]
pub struct Frontier {
    discipline: Discipline,
    max_in_flight_per_host: u32,
    topic_cap: Option<usize>,
    entries: HashMap<PageId, (Candidate, Key)>,
    seen: HashSet<PageId>,
    hosts: HashMap<HostKey, HostQueue>,
    ready: BTreeSet<(HostRank, HostKey)>,
    cooling: BinaryHeap<Reverse<(u64, HostKey)>>,
    topics: HashMap<u32, BTreeSet<(Key, PageId)>>,
    seq: u64,
    stats: FrontierStats,
}

impl Frontier {
    /// An empty frontier handing out one URL per host at a time.
    pub fn new(discipline: Discipline) -> Self {
        Self {
            discipline,
            max_in_flight_per_host: 1,
            topic_cap: None,
            entries: HashMap::new(),
            seen: HashSet::new(),
            hosts: HashMap::new(),
            ready: BTreeSet::new(),
            cooling: BinaryHeap::new(),
            topics: HashMap::new(),
            seq: 0,
            stats: FrontierStats::default(),
        }
    }

    /// Allows up to `n` (≥ 1) URLs of one host in flight at once.
    pub fn with_max_in_flight_per_host(mut self, n: u32) -> Self {
        self.max_in_flight_per_host = n.max(1);
        self
    }

    /// Caps the queued URLs per topic (`Candidate::layer`), evicting the
    /// worst: BINGO!'s bounded per-topic queues (25,000 in the paper).
    pub fn with_topic_cap(mut self, cap: usize) -> Self {
        self.topic_cap = Some(cap.max(1));
        self
    }

    /// The discipline in force.
    pub fn discipline(&self) -> Discipline {
        self.discipline
    }

    /// URLs waiting.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing is waiting.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// True when nothing is waiting and nothing is in flight.
    pub fn is_exhausted(&self) -> bool {
        self.entries.is_empty() && self.hosts.values().all(|h| h.in_flight == 0)
    }

    /// Counters.
    pub fn stats(&self) -> FrontierStats {
        FrontierStats {
            queued: self.entries.len() as u64,
            seen: self.seen.len() as u64,
            ..self.stats
        }
    }

    /// True if the URL was ever accepted (queued or handed out).
    pub fn has_seen(&self, id: PageId) -> bool {
        self.seen.contains(&id)
    }

    /// The queued candidate with this id.
    pub fn get(&self, id: PageId) -> Option<&Candidate> {
        self.entries.get(&id).map(|(c, _)| c)
    }

    /// Every queued candidate (arbitrary order), e.g. to persist them.
    pub fn queued(&self) -> impl Iterator<Item = &Candidate> {
        self.entries.values().map(|(c, _)| c)
    }

    /// Records a URL as already handed out (resuming a crawl: fetched
    /// pages are never queued again).
    pub fn mark_seen(&mut self, id: PageId) {
        self.seen.insert(id);
    }

    /// Adds a URL, or raises it if it is queued with a lower priority.
    pub fn push(&mut self, c: Candidate) -> PushResult {
        if self.hosts.get(&c.host).is_some_and(|h| h.bad) {
            self.stats.dropped_bad_host += 1;
            return PushResult::Dropped;
        }
        if let Some((old, _)) = self.entries.get(&c.id) {
            if self.discipline.uses_priority() && c.priority > old.priority {
                self.reposition(c.id, |e| {
                    e.priority = c.priority;
                    e.tunnel = c.tunnel;
                    e.parent = c.parent;
                });
                self.stats.raised += 1;
                return PushResult::Raised;
            }
            self.stats.duplicates += 1;
            return PushResult::AlreadySeen;
        }
        if self.seen.contains(&c.id) {
            self.stats.duplicates += 1;
            return PushResult::AlreadySeen;
        }
        let key = self.next_key(&c);
        if !self.make_room_in_topic(&c, key) {
            self.stats.dropped_topic_cap += 1;
            return PushResult::Dropped;
        }
        self.seen.insert(c.id);
        self.insert(c, key);
        self.stats.pushed += 1;
        PushResult::Queued
    }

    /// Puts a handed-out URL back for another attempt (numtries + 1). The
    /// caller must also report its host with [`Frontier::host_done`].
    pub fn retry(&mut self, mut c: Candidate) -> PushResult {
        if self.hosts.get(&c.host).is_some_and(|h| h.bad) {
            self.stats.dropped_bad_host += 1;
            return PushResult::Dropped;
        }
        if self.entries.contains_key(&c.id) {
            return PushResult::AlreadySeen;
        }
        c.numtries = c.numtries.saturating_add(1);
        self.seen.insert(c.id);
        let key = self.next_key(&c);
        self.insert(c, key);
        self.stats.retried += 1;
        PushResult::Queued
    }

    /// Raises queued URLs to the maximum priority (citations of top hubs);
    /// returns how many were queued.
    pub fn raise_to_max(&mut self, ids: &[PageId]) -> usize {
        let mut n = 0;
        for &id in ids {
            if self.entries.contains_key(&id) {
                self.reposition(id, |e| e.priority = 1.0);
                n += 1;
            }
        }
        self.stats.raised += n as u64;
        n
    }

    /// Hands out the best URL among hosts that are ready at `now_ms`.
    pub fn pop_ready(&mut self, now_ms: u64) -> Option<Candidate> {
        self.wake_cooled(now_ms);
        let (_, host) = self.ready.pop_first()?;
        let q = self.hosts.get_mut(&host)?;
        q.ready_rank = None;
        let (_, id) = q.waiting.pop_first()?;
        q.in_flight += 1;
        q.serverload += 1;
        let (c, key) = self.entries.remove(&id)?;
        if let Some(layer) = c.layer {
            if let Some(t) = self.topics.get_mut(&layer) {
                t.remove(&(key, id));
            }
        }
        self.refile(&host, now_ms);
        self.stats.popped += 1;
        Some(c)
    }

    /// Reports that a fetch from `host` finished; the host may be contacted
    /// again from `next_ready_ms` on (its politeness interval).
    pub fn host_done(&mut self, host: &HostKey, next_ready_ms: u64) {
        if let Some(q) = self.hosts.get_mut(host) {
            q.in_flight = q.in_flight.saturating_sub(1);
            q.ready_at = q.ready_at.max(next_ready_ms);
        }
        self.refile(host, 0);
    }

    /// Tags a host bad: its queued URLs are removed and returned, and later
    /// pushes for it are dropped.
    pub fn mark_bad(&mut self, host: &HostKey) -> Vec<Candidate> {
        let Some(q) = self.hosts.get_mut(host) else {
            self.hosts.insert(
                host.clone(),
                HostQueue {
                    bad: true,
                    ..HostQueue::default()
                },
            );
            return Vec::new();
        };
        q.bad = true;
        if let Some(rank) = q.ready_rank.take() {
            self.ready.remove(&(rank, host.clone()));
        }
        let waiting = std::mem::take(&mut q.waiting);
        let mut drained = Vec::with_capacity(waiting.len());
        for (key, id) in waiting {
            if let Some((c, _)) = self.entries.remove(&id) {
                if let Some(layer) = c.layer {
                    if let Some(t) = self.topics.get_mut(&layer) {
                        t.remove(&(key, id));
                    }
                }
                drained.push(c);
            }
        }
        self.stats.dropped_bad_host += drained.len() as u64;
        drained
    }

    /// When the next host becomes ready (`None` if nothing is waiting or
    /// every waiting host is at its in-flight limit).
    pub fn next_ready_at(&self) -> Option<u64> {
        if !self.ready.is_empty() {
            return Some(0);
        }
        self.hosts
            .values()
            .filter(|q| {
                !q.bad && !q.waiting.is_empty() && q.in_flight < self.max_in_flight_per_host
            })
            .map(|q| q.ready_at)
            .min()
    }

    fn next_key(&mut self, c: &Candidate) -> Key {
        self.seq += 1;
        self.discipline.key(c, self.seq)
    }

    fn insert(&mut self, c: Candidate, key: Key) {
        let (id, host) = (c.id, c.host.clone());
        if let Some(layer) = c.layer.filter(|_| self.topic_cap.is_some()) {
            self.topics.entry(layer).or_default().insert((key, id));
        }
        self.entries.insert(id, (c, key));
        self.hosts
            .entry(host.clone())
            .or_default()
            .waiting
            .insert((key, id));
        self.refile(&host, 0);
    }

    /// Applies `change` to a queued entry and re-keys it (keeping its
    /// arrival order).
    fn reposition(&mut self, id: PageId, change: impl FnOnce(&mut Candidate)) {
        let Some((c, old_key)) = self.entries.get_mut(&id) else {
            return;
        };
        change(c);
        let new_key = self.discipline.key(c, old_key.seq);
        let old = std::mem::replace(old_key, new_key);
        let (host, layer) = (c.host.clone(), c.layer);
        if let Some(q) = self.hosts.get_mut(&host) {
            q.waiting.remove(&(old, id));
            q.waiting.insert((new_key, id));
        }
        if let Some(t) = layer.and_then(|l| self.topics.get_mut(&l)) {
            if t.remove(&(old, id)) {
                t.insert((new_key, id));
            }
        }
        self.refile(&host, 0);
    }

    /// Evicts the worst URL of a full topic queue if `key` beats it.
    fn make_room_in_topic(&mut self, c: &Candidate, key: Key) -> bool {
        let (Some(cap), Some(layer)) = (self.topic_cap, c.layer) else {
            return true;
        };
        let Some(queue) = self.topics.get(&layer) else {
            return true;
        };
        if queue.len() < cap {
            return true;
        }
        let Some(&(worst_key, worst_id)) = queue.last() else {
            return true;
        };
        if (worst_key.a, worst_key.b) <= (key.a, key.b) {
            return false;
        }
        if let Some((victim, vkey)) = self.entries.remove(&worst_id) {
            if let Some(t) = self.topics.get_mut(&layer) {
                t.remove(&(vkey, worst_id));
            }
            if let Some(q) = self.hosts.get_mut(&victim.host) {
                q.waiting.remove(&(vkey, worst_id));
            }
            self.refile(&victim.host, 0);
            self.stats.dropped_topic_cap += 1;
        }
        true
    }

    /// Files a host where its state says: ready (with a fresh rank), cooling
    /// or nowhere. `now_ms` = 0 means "file by time, let `pop_ready` decide".
    fn refile(&mut self, host: &HostKey, now_ms: u64) {
        let Some(q) = self.hosts.get_mut(host) else {
            return;
        };
        if let Some(rank) = q.ready_rank.take() {
            self.ready.remove(&(rank, host.clone()));
        }
        if q.bad || q.in_flight >= self.max_in_flight_per_host {
            return;
        }
        let Some(best) = q.best() else { return };
        if q.ready_at <= now_ms || q.ready_at == 0 {
            let rank = self.discipline.host_key(best, q.serverload);
            q.ready_rank = Some(rank);
            self.ready.insert((rank, host.clone()));
        } else if !q.cooling {
            q.cooling = true;
            self.cooling.push(Reverse((q.ready_at, host.clone())));
        }
    }

    fn wake_cooled(&mut self, now_ms: u64) {
        while let Some(Reverse((at, _))) = self.cooling.peek() {
            if *at > now_ms {
                break;
            }
            let Some(Reverse((_, host))) = self.cooling.pop() else {
                break;
            };
            let eligible = self.hosts.get(&host).is_some_and(|q| {
                q.ready_rank.is_none()
                    && !q.bad
                    && q.ready_at <= now_ms
                    && q.in_flight < self.max_in_flight_per_host
                    && !q.waiting.is_empty()
            });
            if eligible {
                self.refile(&host, now_ms);
            }
        }
    }
}
