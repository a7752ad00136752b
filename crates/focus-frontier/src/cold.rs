//! The cold tier: queued URLs beyond the in-memory bound, kept per host as
//! sorted runs of records (URL string included) in one append-only temp
//! file. A host's new cold records wait in a small pending buffer; a full
//! buffer is written as one sorted run, whose first block stays in memory.
//! Popping a host's best cold record is a merge over its pending buffer and
//! its runs' heads, reading each run a block at a time, so the work per
//! operation does not depend on how many URLs are queued. Records
//! superseded by a raise stay in their run and are skipped when they
//! surface (the caller checks them against its id map).
//!
//! This file owns the queue side ([`ColdQueue`], its runs, size-tiered
//! compaction); the record encoding and the file are `cold/record.rs`.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, VecDeque};
use std::io;

use focus_core::PageId;

use crate::discipline::Key;

mod record;

use record::{corrupt, FIXED};
pub(crate) use record::{ColdRec, RecordFile};

/// Bytes read from a run at once (and kept of a new run).
const BLOCK_BYTES: usize = 4 * 1024;
/// Runs of one tier that are merged into one run of the next tier.
const FANOUT: usize = 8;
/// Pending records of one host that are written out as a run (default).
pub(crate) const RUN_AT: usize = 256;

/// Where a cold record is: its host's pending buffer (by arrival rank) or
/// the records file (by offset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColdAt {
    Pending(u64),
    File(u64),
}

/// One sorted run: `block` holds its next records in memory, `offset..end`
/// the rest on disk; `remaining` counts both.
#[derive(Debug)]
struct Run {
    offset: u64,
    end: u64,
    remaining: u64,
    block: VecDeque<(ColdRec, u64)>,
    /// 0 for a flushed pending buffer, t + 1 for a merge of tier-t runs.
    tier: u8,
}

impl Run {
    /// A run of `recs` (sorted) written at `offsets`, ending at `end`;
    /// only its first block stays in memory.
    fn new(recs: Vec<ColdRec>, offsets: Vec<u64>, end: u64, tier: u8) -> Self {
        let remaining = recs.len() as u64;
        let mut block = VecDeque::new();
        let mut bytes = 0;
        let mut next = end;
        for (r, o) in recs.into_iter().zip(offsets) {
            if bytes >= BLOCK_BYTES {
                next = o;
                break;
            }
            bytes += FIXED + r.url.len();
            block.push_back((r, o));
        }
        Self {
            offset: next,
            end,
            remaining,
            block,
            tier,
        }
    }

    /// The key of its next record.
    fn head(&self) -> Option<Key> {
        self.block.front().map(|(r, _)| r.key)
    }

    /// Removes its next record, reading the next block when needed.
    fn next(&mut self, file: &RecordFile) -> io::Result<Option<(ColdRec, u64)>> {
        let Some(rec) = self.block.pop_front() else {
            return Ok(None);
        };
        self.remaining -= 1;
        if self.block.is_empty() && self.offset < self.end {
            let block = file.read_range(self.offset, self.end, BLOCK_BYTES)?;
            if let Some((last, o)) = block.last() {
                self.offset = o + (FIXED + last.url.len()) as u64;
            }
            self.block = block.into();
        }
        Ok(Some(rec))
    }
}

/// One host's cold records.
#[derive(Debug, Default)]
pub(crate) struct ColdQueue {
    pending: BTreeMap<Key, ColdRec>,
    runs: Vec<Option<Run>>,
    free_runs: Vec<u32>,
    /// Runs by the key of their first unconsumed record.
    heads: BinaryHeap<Reverse<(Key, u32)>>,
    /// Records not yet consumed, stale ones included.
    pub(crate) records: u64,
}

impl ColdQueue {
    /// The key of the best record (possibly a stale one).
    pub(crate) fn best_key(&self) -> Option<Key> {
        let pending = self.pending.first_key_value().map(|(k, _)| *k);
        let run = self.heads.peek().map(|Reverse((k, _))| *k);
        match (pending, run) {
            (Some(p), Some(r)) => Some(p.min(r)),
            (p, r) => p.or(r),
        }
    }

    pub(crate) fn pending_len(&self) -> usize {
        self.pending.len()
    }

    /// Adds a record to the pending buffer.
    pub(crate) fn push(&mut self, rec: ColdRec) {
        self.pending.insert(rec.key, rec);
        self.records += 1;
    }

    /// The pending record of page `id`.
    pub(crate) fn pending(&self, id: PageId) -> Option<&ColdRec> {
        self.pending.values().find(|r| r.id == id)
    }

    /// Removes the pending record of page `id`.
    pub(crate) fn take_pending(&mut self, id: PageId) -> Option<ColdRec> {
        let key = self.pending.values().find(|r| r.id == id)?.key;
        self.records -= 1;
        self.pending.remove(&key)
    }

    /// Writes the pending buffer as one sorted run; returns each record's
    /// move `(id, seq, offset)` so the caller can update its id map.
    pub(crate) fn flush(&mut self, file: &mut RecordFile) -> io::Result<Vec<(PageId, u64, u64)>> {
        if self.pending.is_empty() {
            return Ok(Vec::new());
        }
        let recs: Vec<ColdRec> = std::mem::take(&mut self.pending).into_values().collect();
        let (offsets, end) = match file.append(&recs) {
            Ok(o) => o,
            Err(e) => {
                self.pending = recs.into_iter().map(|r| (r.key, r)).collect();
                return Err(e);
            }
        };
        let moves = recs
            .iter()
            .zip(&offsets)
            .map(|(r, o)| (r.id, r.key.seq, *o))
            .collect();
        self.add_run(Run::new(recs, offsets, end, 0));
        Ok(moves)
    }

    /// Removes and returns the best record with where it was.
    pub(crate) fn pop_best(
        &mut self,
        file: &mut RecordFile,
    ) -> io::Result<Option<(ColdRec, ColdAt)>> {
        let run_key = self.heads.peek().map(|Reverse((k, i))| (*k, *i));
        let pending_key = self.pending.first_key_value().map(|(k, _)| *k);
        let from_pending = match (pending_key, run_key) {
            (Some(p), Some((r, _))) => p < r,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return Ok(None),
        };
        if from_pending {
            let Some((_, rec)) = self.pending.pop_first() else {
                return Ok(None);
            };
            self.records -= 1;
            let at = ColdAt::Pending(rec.key.seq);
            return Ok(Some((rec, at)));
        }
        let Some((_, idx)) = run_key else {
            return Ok(None);
        };
        self.heads.pop();
        let Some(run) = self.runs.get_mut(idx as usize).and_then(Option::as_mut) else {
            return Err(corrupt());
        };
        let Some((rec, offset)) = run.next(file)? else {
            return Err(corrupt());
        };
        if let Some(next) = run.head() {
            self.heads.push(Reverse((next, idx)));
        } else {
            if let Some(slot) = self.runs.get_mut(idx as usize) {
                *slot = None;
            }
            self.free_runs.push(idx);
        }
        self.records -= 1;
        file.consumed(1)?;
        Ok(Some((rec, ColdAt::File(offset))))
    }

    fn add_run(&mut self, run: Run) {
        let Some(first) = run.head() else {
            return;
        };
        let idx = if let Some(i) = self.free_runs.pop() {
            if let Some(slot) = self.runs.get_mut(i as usize) {
                *slot = Some(run);
            }
            i
        } else {
            self.runs.push(Some(run));
            (self.runs.len() - 1) as u32
        };
        self.heads.push(Reverse((first, idx)));
    }

    /// Runs on disk.
    #[cfg(test)]
    pub(crate) fn run_count(&self) -> usize {
        self.runs.iter().flatten().count()
    }

    /// Size-tiered compaction: while some tier holds `FANOUT` runs, merges
    /// them into one run of the next tier, dropping the records `live`
    /// rejects (superseded by raises). Each record is rewritten about
    /// log4(host's cold records / run length) times over its life and a
    /// host keeps a few runs per tier. Returns the kept records' moves.
    pub(crate) fn compact(
        &mut self,
        file: &mut RecordFile,
        live: impl Fn(&ColdRec, ColdAt) -> bool,
    ) -> io::Result<Vec<(PageId, u64, u64)>> {
        // Records moved by this call: a cascade must see its own moves.
        let mut moved: HashMap<PageId, (u64, u64)> = HashMap::new();
        loop {
            let mut tiers: BTreeMap<u8, Vec<u32>> = BTreeMap::new();
            for (i, r) in self.runs.iter().enumerate() {
                if let Some(r) = r {
                    tiers.entry(r.tier).or_default().push(i as u32);
                }
            }
            let Some((tier, idxs)) = tiers.into_iter().find(|(_, v)| v.len() >= FANOUT) else {
                return Ok(moved
                    .into_iter()
                    .map(|(id, (seq, offset))| (id, seq, offset))
                    .collect());
            };
            let mut srcs: Vec<Run> = Vec::with_capacity(idxs.len());
            for i in idxs {
                if let Some(r) = self.runs.get_mut(i as usize).and_then(Option::take) {
                    srcs.push(r);
                    self.free_runs.push(i);
                }
            }
            let consumed: u64 = srcs.iter().map(|r| r.remaining).sum();
            let mut merge: BinaryHeap<Reverse<(Key, usize)>> = srcs
                .iter()
                .enumerate()
                .filter_map(|(i, r)| r.head().map(|k| Reverse((k, i))))
                .collect();
            let mut kept = Vec::new();
            while let Some(Reverse((_, i))) = merge.pop() {
                let Some(src) = srcs.get_mut(i) else { break };
                if let Some((rec, offset)) = src.next(file)? {
                    let is_live = match moved.get(&rec.id) {
                        Some(&(_, o)) => o == offset,
                        None => live(&rec, ColdAt::File(offset)),
                    };
                    if is_live {
                        kept.push(rec);
                    }
                }
                if let Some(k) = src.head() {
                    merge.push(Reverse((k, i)));
                }
            }
            self.records -= consumed - kept.len() as u64;
            if !kept.is_empty() {
                let (offsets, end) = file.append(&kept)?;
                moved.extend(
                    kept.iter()
                        .zip(&offsets)
                        .map(|(r, o)| (r.id, (r.key.seq, *o))),
                );
                self.add_run(Run::new(kept, offsets, end, tier.saturating_add(1)));
            }
            file.consumed(consumed)?;
            self.heads = self
                .runs
                .iter()
                .enumerate()
                .filter_map(|(i, r)| Some(Reverse((r.as_ref()?.head()?, i as u32))))
                .collect();
        }
    }

    /// Every unconsumed record with where it is, without consuming them.
    pub(crate) fn all(&self, file: &RecordFile) -> io::Result<Vec<(ColdRec, ColdAt)>> {
        let mut out: Vec<(ColdRec, ColdAt)> = self
            .pending
            .values()
            .map(|r| (r.clone(), ColdAt::Pending(r.key.seq)))
            .collect();
        for run in self.runs.iter().flatten() {
            out.extend(run.block.iter().map(|(r, o)| (r.clone(), ColdAt::File(*o))));
            let rest = file.read_range(run.offset, run.end, usize::MAX)?;
            out.extend(rest.into_iter().map(|(r, o)| (r, ColdAt::File(o))));
        }
        Ok(out)
    }

    /// Removes and returns every unconsumed record (a host tagged bad).
    pub(crate) fn drain(&mut self, file: &mut RecordFile) -> io::Result<Vec<(ColdRec, ColdAt)>> {
        let out = self.all(file)?;
        let in_runs: u64 = self.runs.iter().flatten().map(|r| r.remaining).sum();
        *self = Self::default();
        file.consumed(in_runs)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::record::tests::rec;
    use super::*;

    #[test]
    fn runs_and_pending_merge_in_key_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut file = RecordFile::new(dir.path()).unwrap();
        let mut q = ColdQueue::default();
        // Three runs of 400 (several blocks each) and a pending tail, keys
        // interleaved.
        let mut seq = 0;
        for _ in 0..3 {
            for _ in 0..400 {
                seq += 1;
                q.push(rec(seq, (seq * 7919) % 100_003));
            }
            let moves = q.flush(&mut file).unwrap();
            assert_eq!(moves.len(), 400);
            for (id, seq, offset) in moves.iter().step_by(37) {
                let r = file.read_one(*offset).unwrap();
                assert_eq!((r.id, r.key.seq), (*id, *seq));
            }
        }
        for _ in 0..10 {
            seq += 1;
            q.push(rec(seq, (seq * 7919) % 100_003));
        }
        assert_eq!(q.records, 1210);
        assert_eq!(q.all(&file).unwrap().len(), 1210);
        let mut keys = Vec::new();
        while let Some((r, _)) = q.pop_best(&mut file).unwrap() {
            keys.push(r.key);
        }
        assert_eq!(keys.len(), 1210);
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(q.records, 0);
        assert_eq!(file.bytes(), 0, "the file is truncated once empty");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Interleaved pushes, flushes and pops come out in key order, as
        /// from a sorted model, across pending buffers and multi-block runs.
        #[test]
        fn pops_follow_a_sorted_model(ops in proptest::collection::vec((0u8..10, 0u64..1_000_000, 0usize..400), 1..1500)) {
            let dir = tempfile::tempdir().unwrap();
            let mut file = RecordFile::new(dir.path()).unwrap();
            let mut q = ColdQueue::default();
            let mut model = std::collections::BTreeSet::new();
            for (i, (op, b, url_len)) in ops.into_iter().enumerate() {
                match op {
                    0..=5 => {
                        let mut r = rec(i as u64, b);
                        r.url = "u".repeat(url_len).into();
                        model.insert(r.key);
                        q.push(r);
                    }
                    6 => {
                        q.flush(&mut file).unwrap();
                        let moves = q.compact(&mut file, |_, _| true).unwrap();
                        for (id, seq, offset) in moves {
                            let r = file.read_one(offset).unwrap();
                            proptest::prop_assert_eq!((r.id, r.key.seq), (id, seq));
                        }
                        proptest::prop_assert!(q.run_count() < FANOUT * 8);
                    }
                    _ => {
                        let got = q.pop_best(&mut file).unwrap().map(|(r, _)| r.key);
                        proptest::prop_assert_eq!(got, model.pop_first());
                    }
                }
                proptest::prop_assert_eq!(q.best_key(), model.first().copied());
                proptest::prop_assert_eq!(q.records, model.len() as u64);
            }
            proptest::prop_assert_eq!(q.all(&file).unwrap().len(), model.len());
        }
    }

    #[test]
    fn compaction_bounds_runs_and_drops_what_is_not_live() {
        let dir = tempfile::tempdir().unwrap();
        let mut file = RecordFile::new(dir.path()).unwrap();
        let mut q = ColdQueue::default();
        for seq in 1..=2000u64 {
            q.push(rec(seq, (seq * 7919) % 100_003));
            if seq % 20 == 0 {
                q.flush(&mut file).unwrap();
                // Records with a seq divisible by 3 were superseded.
                q.compact(&mut file, |r, _| r.key.seq % 3 != 0).unwrap();
                assert!(q.run_count() < FANOUT * 4, "{} runs", q.run_count());
            }
        }
        let mut keys = Vec::new();
        while let Some((r, _)) = q.pop_best(&mut file).unwrap() {
            keys.push(r.key);
        }
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
        // Every record that was never compacted away or that is live came out.
        assert!(keys.iter().filter(|k| k.seq % 3 != 0).count() == 1334);
        assert_eq!(q.records, 0);
        assert_eq!(file.bytes(), 0);
    }

    #[test]
    fn pending_records_can_be_found_and_taken() {
        let mut q = ColdQueue::default();
        q.push(rec(1, 5));
        q.push(rec(2, 3));
        assert_eq!(q.pending(PageId(14)).map(|r| r.key.b), Some(3));
        assert_eq!(q.take_pending(PageId(14)).map(|r| r.key.b), Some(3));
        assert_eq!(q.pending(PageId(14)), None);
        assert_eq!(q.best_key().map(|k| k.seq), Some(1));
    }
}
