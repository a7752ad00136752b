//! Politeness-aware dispatch (Mercator's back queues): which host is
//! ready, cooling, saturated or bad, handing out the best URL of the best
//! ready host, taking hosts back when their fetch is done, per-host
//! in-flight limits and server loads. Queue contents (push, raise, the
//! seen set, topic caps) are the parent module's.

use std::cmp::Reverse;

use focus_core::HostKey;

use super::cold_tier::entry_of;
use super::Frontier;
use crate::candidate::Candidate;
use crate::discipline::Discipline;
use crate::host_queue::HostQueue;
use crate::index::{Slots, HANDED_OUT};

impl Frontier {
    /// Counts one past fetch from `host` in its server load (the VLDB
    /// order's third key) without handing anything out: resuming a crawl
    /// restores every host's load from the stored pages.
    pub fn note_served(&mut self, host: &HostKey) {
        let h = self.host_index(host);
        if let Some(q) = self.hosts.get_mut(h as usize) {
            q.serverload += 1;
        }
        self.refile(h, 0);
    }

    /// Gives `host` an in-flight limit of its own (`n` ≥ 1; 0 restores the
    /// frontier's default): a crawler mirrors what its fetcher allows the
    /// host — several connections when it asks for no interval between
    /// requests, one when it does — so a batch never holds URLs the fetcher
    /// would make wait.
    pub fn set_host_limit(&mut self, host: &HostKey, n: u32) {
        let h = self.host_index(host);
        if let Some(q) = self.hosts.get_mut(h as usize) {
            q.max_in_flight = n;
        }
        self.refile(h, 0);
    }

    /// The in-flight limit `host` was given by [`Frontier::set_host_limit`]
    /// (0: none, the frontier's default applies).
    pub fn host_limit(&self, host: &HostKey) -> u32 {
        self.host_ids
            .get(host)
            .and_then(|&h| self.hosts.get(h as usize))
            .map_or(0, |q| q.max_in_flight)
    }

    /// Hands out the best URL among hosts that are ready at `now_ms`.
    pub fn pop_ready(&mut self, now_ms: u64) -> Option<Candidate> {
        self.pop_ready_at_least(now_ms, f64::NEG_INFINITY)
    }

    /// Hands out the best URL among hosts that are ready at `now_ms` if its
    /// priority is at least `floor`; otherwise leaves the frontier as it
    /// was and returns `None`. Orders that ignore priority (breadth-first,
    /// random, numtries-FIFO) have no floor.
    pub fn pop_ready_at_least(&mut self, now_ms: u64, floor: f64) -> Option<Candidate> {
        self.wake_cooled(now_ms);
        loop {
            let (rank, h) = self.ready.pop_first()?;
            let q = self.hosts.get_mut(h as usize)?;
            q.ready_rank = None;
            // A host filed under a key it no longer has (its best cold
            // record was superseded and compacted away) is filed again.
            let now_best = q.best_key(&self.slots);
            if now_best.map(|b| self.discipline.host_key(b, q.serverload)) != Some(rank) {
                self.refile(h, now_ms);
                continue;
            }
            if !self.discipline.clears_floor(rank, floor) {
                self.refile(h, now_ms);
                return None;
            }
            let Some(q) = self.hosts.get_mut(h as usize) else {
                continue;
            };
            if q.cold_first(&self.slots) {
                match self.pop_cold(h) {
                    Ok(Some(c)) => {
                        if let Some(q) = self.hosts.get_mut(h as usize) {
                            q.in_flight += 1;
                            q.serverload += 1;
                        }
                        self.refile(h, now_ms);
                        self.stats.popped += 1;
                        return Some(c);
                    }
                    Ok(None) => {}
                    Err(_) => self.stats.spill_errors += 1,
                }
                self.refile(h, now_ms);
                continue;
            }
            let Some(q) = self.hosts.get_mut(h as usize) else {
                continue;
            };
            let Some((_, slot)) = q.pop_best(&self.slots) else {
                continue;
            };
            let Some(s) = self.release_slot(slot) else {
                self.refile(h, now_ms);
                continue;
            };
            let (url, s) = self.take_url(s);
            if let Some(q) = self.hosts.get_mut(h as usize) {
                if url.is_ok() {
                    q.in_flight += 1;
                    q.serverload += 1;
                }
            }
            self.refile(h, now_ms);
            if let Ok(url) = url {
                self.stats.popped += 1;
                return Some(self.candidate(&s, url));
            }
            self.stats.spill_errors += 1;
        }
    }

    /// Reports that a fetch from `host` finished; the host may be contacted
    /// again from `next_ready_ms` on (its politeness interval).
    pub fn host_done(&mut self, host: &HostKey, next_ready_ms: u64) {
        let Some(&h) = self.host_ids.get(host) else {
            return;
        };
        if let Some(q) = self.hosts.get_mut(h as usize) {
            q.in_flight = q.in_flight.saturating_sub(1);
        }
        self.cool(h, next_ready_ms);
    }

    /// Keeps `host` from being handed out before `ready_ms` (a resumed
    /// crawl restores the cool-downs its hosts had when it stopped).
    pub fn cool_until(&mut self, host: &HostKey, ready_ms: u64) {
        if let Some(&h) = self.host_ids.get(host) {
            self.cool(h, ready_ms);
        }
    }

    fn cool(&mut self, h: u32, ready_ms: u64) {
        if let Some(q) = self.hosts.get_mut(h as usize) {
            q.ready_at = q.ready_at.max(ready_ms);
        }
        self.refile(h, 0);
    }

    /// Tags a host bad: its dispatchable URLs are removed and returned, its
    /// URLs parked in topic queues are dropped when they reach the front,
    /// and later pushes for it are dropped.
    pub fn mark_bad(&mut self, host: &HostKey) -> Vec<Candidate> {
        let h = self.host_index(host);
        let Some(q) = self.hosts.get_mut(h as usize) else {
            return Vec::new();
        };
        q.bad = true;
        if let Some(rank) = q.ready_rank.take() {
            self.ready.remove(&(rank, h));
        }
        let waiting = std::mem::take(&mut q.waiting);
        let mut drained = Vec::new();
        for Reverse((key, slot)) in waiting {
            if !self.slots.is_live(slot, key) {
                continue;
            }
            if let Some(s) = self.release_slot(slot) {
                match self.take_url(s) {
                    (Ok(url), s) => drained.push(self.candidate(&s, url)),
                    (Err(_), _) => self.stats.spill_errors += 1,
                }
            }
        }
        let pending = self
            .hosts
            .get(h as usize)
            .map_or(0, |q| q.cold.pending_len());
        let cold = match (self.hosts.get_mut(h as usize), self.records.as_mut()) {
            (Some(q), Some(file)) => q.cold.drain(file),
            _ => Ok(Vec::new()),
        };
        self.cold_pending -= pending;
        match cold {
            Ok(recs) => {
                for (rec, at) in recs {
                    if self.ids.get(&rec.id) != Some(&entry_of(&rec, at)) {
                        continue;
                    }
                    self.ids.insert(rec.id, HANDED_OUT);
                    self.queued -= 1;
                    match self.cold_candidate(&rec) {
                        Ok(c) => drained.push(c),
                        Err(_) => self.stats.spill_errors += 1,
                    }
                }
            }
            Err(_) => self.stats.spill_errors += 1,
        }
        self.stats.dropped_bad_host += drained.len() as u64;
        drained
    }

    /// Whether some host is ready at `now_ms` with a URL to hand out,
    /// whatever its priority (what a dispatch that holds back poor URLs
    /// leaves behind).
    pub fn any_ready(&mut self, now_ms: u64) -> bool {
        self.wake_cooled(now_ms);
        !self.ready.is_empty()
    }

    /// When the next host becomes ready (`None` if nothing is waiting or
    /// every waiting host is at its in-flight limit). Costs one pass over
    /// the hosts; call it only when `pop_ready` returned `None`.
    pub fn next_ready_at(&mut self) -> Option<u64> {
        if !self.ready.is_empty() {
            return Some(0);
        }
        let limit = self.max_in_flight_per_host;
        let slots = &self.slots;
        self.hosts
            .iter_mut()
            .filter(|q| q.has_room(limit))
            .filter_map(|q| (q.best(slots).is_some() || q.cold.records > 0).then_some(q.ready_at))
            .min()
    }

    /// When the first host that waits out a politeness interval (cooling)
    /// and holds a URL with a priority of at least `floor` becomes ready;
    /// `None` if no cooling host holds one. Orders that ignore priority
    /// have no floor. Looks at cooling hosts only (those fetched within
    /// their interval), so it is cheap where hosts ask for no interval.
    pub fn next_cooling_at_least(&mut self, floor: f64) -> Option<u64> {
        let limit = self.max_in_flight_per_host;
        let (slots, discipline) = (&self.slots, self.discipline);
        let hosts = &mut self.hosts;
        self.cooling
            .iter()
            .filter_map(|&Reverse((_, h))| {
                let q = hosts.get_mut(h as usize)?;
                if !q.cooling || !q.has_room(limit) {
                    return None;
                }
                best_clears(q, slots, discipline, floor).then_some(q.ready_at)
            })
            .min()
    }

    /// Whether `host` still has a queued URL with a priority of at least
    /// `floor` (orders that ignore priority: any queued URL), whatever its
    /// state. A crawler that has just filled `host`'s in-flight limit asks
    /// this to tell whether the host's next URLs are worth waiting for.
    pub fn holds_at_least(&mut self, host: &HostKey, floor: f64) -> bool {
        let Some(&h) = self.host_ids.get(host) else {
            return false;
        };
        let (slots, discipline) = (&self.slots, self.discipline);
        let Some(q) = self.hosts.get_mut(h as usize) else {
            return false;
        };
        !q.bad && best_clears(q, slots, discipline, floor)
    }

    /// Files a host where its state says: ready (with a fresh rank), cooling
    /// or nowhere. `now_ms` = 0 means "file by time, let `pop_ready` decide".
    pub(super) fn refile(&mut self, h: u32, now_ms: u64) {
        let Some(q) = self.hosts.get_mut(h as usize) else {
            return;
        };
        if let Some(rank) = q.ready_rank.take() {
            self.ready.remove(&(rank, h));
        }
        if !q.has_room(self.max_in_flight_per_host) {
            return;
        }
        let Some(best) = q.best_key(&self.slots) else {
            return;
        };
        if q.ready_at <= now_ms || q.ready_at == 0 {
            let rank = self.discipline.host_key(best, q.serverload);
            q.ready_rank = Some(rank);
            self.ready.insert((rank, h));
        } else if !q.cooling {
            q.cooling = true;
            self.cooling.push(Reverse((q.ready_at, h)));
        }
    }

    fn wake_cooled(&mut self, now_ms: u64) {
        while let Some(Reverse((at, _))) = self.cooling.peek() {
            if *at > now_ms {
                break;
            }
            let Some(Reverse((_, h))) = self.cooling.pop() else {
                break;
            };
            if let Some(q) = self.hosts.get_mut(h as usize) {
                q.cooling = false;
                if q.ready_rank.is_none() {
                    self.refile(h, now_ms);
                }
            }
        }
    }
}

/// Whether `q`'s best URL, hot or cold, has a priority of at least `floor`
/// under `discipline` (orders that ignore priority: whether it has one).
fn best_clears(q: &mut HostQueue, slots: &Slots, discipline: Discipline, floor: f64) -> bool {
    q.best_key(slots)
        .is_some_and(|best| discipline.clears_floor(discipline.host_key(best, q.serverload), floor))
}
