//! The frontier's side of the cold tier: filing a URL cold, flushing and
//! compacting a host's runs (keeping the id map's locations right),
//! raising and handing out cold URLs. The runs themselves are `cold.rs`.

use focus_core::{CanonicalUrl, PageId};

use super::{Frontier, PENDING_CAP};
use crate::candidate::Candidate;
use crate::cold::{ColdAt, ColdRec};
use crate::discipline::{Key, Sortable};
use crate::index::{Entry, State, HANDED_OUT};
use crate::tunnel::TunnelState;
use crate::FrontierError;

impl Frontier {
    /// Files a new URL in the cold tier when the in-memory bound is
    /// reached (never with topic caps); false when it stays in memory.
    pub(super) fn insert_cold(&mut self, c: &Candidate, host: u32, key: Key) -> bool {
        if self.records.is_none() || self.topic_caps.is_some() || self.mem_urls < self.mem_url_bound
        {
            return false;
        }
        self.stats.spilled += 1;
        self.queued += 1;
        self.put_cold(ColdRec {
            key,
            id: c.id,
            priority: c.priority,
            parent: c.parent.map_or(0, |p| p.0),
            url: c.url.as_str().into(),
            host,
            depth: c.depth,
            numtries: c.numtries,
            layer: c.layer.unwrap_or(u32::MAX),
            tunnel: c.tunnel.off_topic_steps,
            has_parent: c.parent.is_some(),
        });
        true
    }

    /// Adds a live record to its host's pending buffer and files the host.
    pub(super) fn put_cold(&mut self, rec: ColdRec) {
        let (h, id, key) = (rec.host, rec.id, rec.key);
        let Some(q) = self.hosts.get_mut(h as usize) else {
            return;
        };
        q.cold.push(rec);
        let full = q.cold.pending_len() >= self.cold_run_len;
        self.ids.insert(id, Entry::pending(h));
        self.cold_pending += 1;
        if full {
            self.flush_cold(h);
        }
        if self.cold_pending >= PENDING_CAP {
            for h in 0..self.hosts.len() as u32 {
                self.flush_cold(h);
            }
        }
        self.consider(h, key);
    }

    /// Writes host `h`'s pending cold records out as a run, then compacts
    /// its runs (dropping records superseded by raises).
    pub(super) fn flush_cold(&mut self, h: u32) {
        let (Some(q), Some(file)) = (self.hosts.get_mut(h as usize), self.records.as_mut()) else {
            return;
        };
        let Ok(moves) = q.cold.flush(file) else {
            self.stats.spill_errors += 1;
            return;
        };
        self.cold_pending -= moves.len();
        for (id, _, offset) in moves {
            if let Some(e) = self.ids.get_mut(&id) {
                if *e == Entry::pending(h) {
                    *e = Entry::file(offset);
                }
            }
        }
        let ids = &self.ids;
        let compacted = q
            .cold
            .compact(file, |rec, at| ids.get(&rec.id) == Some(&entry_of(rec, at)));
        match compacted {
            Ok(moves) => {
                for (id, _, offset) in moves {
                    if let Some(e) = self.ids.get_mut(&id) {
                        *e = Entry::file(offset);
                    }
                }
            }
            Err(_) => self.stats.spill_errors += 1,
        }
    }

    /// The live record of a cold URL.
    pub(super) fn cold_rec(&self, id: PageId) -> Option<ColdRec> {
        match self.ids.get(&id)?.state() {
            State::Pending(h) => self.hosts.get(h as usize)?.cold.pending(id).cloned(),
            State::File(offset) => self.records.as_ref()?.read_one(offset).ok(),
            State::Hot(_) | State::HandedOut => None,
        }
    }

    /// Re-keys a cold URL: a new record under the new key (keeping its
    /// arrival rank); an old pending record is replaced, an old record in a
    /// run goes stale and is skipped when it surfaces.
    pub(super) fn cold_rekey(&mut self, old: ColdRec, change: impl FnOnce(&mut ColdRec)) {
        let Some(at) = self.ids.get(&old.id).map(|e| e.state()) else {
            return;
        };
        if let State::Pending(h) = at {
            if let Some(q) = self.hosts.get_mut(h as usize) {
                if q.cold.take_pending(old.id).is_some() {
                    self.cold_pending -= 1;
                }
            }
        }
        let seq = old.key.seq;
        let mut new = old;
        change(&mut new);
        new.key = self.discipline.key_of(
            Sortable {
                id: new.id.0,
                numtries: new.numtries,
                depth: new.depth,
                priority: new.priority,
                layer: (new.layer != u32::MAX).then_some(new.layer),
            },
            seq,
        );
        self.put_cold(new);
    }

    /// Hands out host `h`'s best cold record: `None` when it was stale.
    pub(super) fn pop_cold(&mut self, h: u32) -> Result<Option<Candidate>, FrontierError> {
        let (Some(q), Some(file)) = (self.hosts.get_mut(h as usize), self.records.as_mut()) else {
            return Err(FrontierError::NoSpill);
        };
        let Some((rec, at)) = q.cold.pop_best(file)? else {
            return Ok(None);
        };
        if let ColdAt::Pending(_) = at {
            self.cold_pending -= 1;
        }
        if self.ids.get(&rec.id) != Some(&entry_of(&rec, at)) {
            return Ok(None);
        }
        self.ids.insert(rec.id, HANDED_OUT);
        self.queued -= 1;
        self.cold_candidate(&rec).map(Some)
    }

    pub(super) fn cold_candidate(&self, rec: &ColdRec) -> Result<Candidate, FrontierError> {
        let url: CanonicalUrl = rec.url.parse()?;
        let host = self
            .hosts
            .get(rec.host as usize)
            .map_or_else(|| url.host_key(), |q| q.key.clone());
        Ok(Candidate {
            url,
            id: rec.id,
            host,
            depth: rec.depth,
            parent: rec.has_parent.then_some(PageId(rec.parent)),
            priority: rec.priority,
            numtries: rec.numtries,
            tunnel: TunnelState {
                off_topic_steps: rec.tunnel,
            },
            layer: (rec.layer != u32::MAX).then_some(rec.layer),
        })
    }
}

/// The id-map entry a cold record found at `at` has when it is live.
pub(super) fn entry_of(rec: &ColdRec, at: ColdAt) -> Entry {
    match at {
        ColdAt::Pending(_) => Entry::pending(rec.host),
        ColdAt::File(offset) => Entry::file(offset),
    }
}
