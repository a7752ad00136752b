//! The cold tier's storage: the on-disk encoding of a cold record
//! ([`ColdRec`], a fixed 80-byte part then the URL's bytes) and the
//! append-only [`RecordFile`] that holds every host's runs, read by offset
//! or a block at a time. Owns the cold tier's file I/O; what the records
//! mean to a host's queue (runs, merging, compaction) is the parent module,
//! and it must not depend on that.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;

use focus_core::PageId;

use crate::discipline::Key;

/// Bytes of a record's fixed part; the URL's bytes follow.
pub(super) const FIXED: usize = 80;

/// A queued URL in the cold tier.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ColdRec {
    pub(crate) key: Key,
    pub(crate) id: PageId,
    pub(crate) priority: f64,
    pub(crate) parent: u64,
    pub(crate) host: u32,
    pub(crate) depth: u32,
    pub(crate) numtries: u32,
    /// `u32::MAX` = none.
    pub(crate) layer: u32,
    pub(crate) tunnel: u8,
    pub(crate) has_parent: bool,
    pub(crate) url: Box<str>,
}

impl ColdRec {
    /// Appends the encoded record; fails for a URL over 64 KiB.
    fn encode(&self, out: &mut Vec<u8>) -> io::Result<()> {
        let len = u16::try_from(self.url.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "URL over 64 KiB"))?;
        for n in [
            self.key.a,
            self.key.b,
            self.key.seq,
            self.id.0,
            self.priority.to_bits(),
            self.parent,
        ] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        for n in [self.host, self.depth, self.numtries, self.layer] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&[self.tunnel, u8::from(self.has_parent)]);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&[0; 12]);
        out.extend_from_slice(self.url.as_bytes());
        Ok(())
    }

    /// Bytes of the record starting `b`, from its fixed part.
    fn size(b: &[u8]) -> Option<usize> {
        let len = u16::from_le_bytes(b.get(66..68)?.try_into().ok()?);
        Some(FIXED + usize::from(len))
    }

    /// The record at the start of `b` and its size; `None` if `b` holds
    /// less than a whole record.
    fn decode(b: &[u8]) -> Option<(Self, usize)> {
        let size = Self::size(b)?;
        let url = std::str::from_utf8(b.get(FIXED..size)?).ok()?;
        let u64_at = |i: usize| -> Option<u64> {
            Some(u64::from_le_bytes(
                b.get(i * 8..i * 8 + 8)?.try_into().ok()?,
            ))
        };
        let u32_at = |i: usize| -> Option<u32> {
            let at = 48 + i * 4;
            Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
        };
        let rec = Self {
            key: Key {
                a: u64_at(0)?,
                b: u64_at(1)?,
                seq: u64_at(2)?,
            },
            id: PageId(u64_at(3)?),
            priority: f64::from_bits(u64_at(4)?),
            parent: u64_at(5)?,
            host: u32_at(0)?,
            depth: u32_at(1)?,
            numtries: u32_at(2)?,
            layer: u32_at(3)?,
            tunnel: *b.get(64)?,
            has_parent: *b.get(65)? != 0,
            url: url.into(),
        };
        Some((rec, size))
    }
}

/// The append-only file of runs; truncated when no record in it is live.
#[derive(Debug)]
pub(crate) struct RecordFile {
    file: File,
    len: u64,
    /// Records written and not yet consumed.
    live: u64,
}

impl RecordFile {
    pub(crate) fn new(dir: &Path) -> io::Result<Self> {
        Ok(Self {
            file: tempfile::tempfile_in(dir)?,
            len: 0,
            live: 0,
        })
    }

    /// Appends records; returns each one's offset and the end offset.
    pub(super) fn append(&mut self, recs: &[ColdRec]) -> io::Result<(Vec<u64>, u64)> {
        let mut buf = Vec::with_capacity(recs.len() * (FIXED + 64));
        let mut offsets = Vec::with_capacity(recs.len());
        for r in recs {
            offsets.push(self.len + buf.len() as u64);
            r.encode(&mut buf)?;
        }
        self.file.write_all_at(&buf, self.len)?;
        self.len += buf.len() as u64;
        self.live += recs.len() as u64;
        Ok((offsets, self.len))
    }

    /// Up to `n` bytes from `offset` (fewer at the end of the file).
    fn read_upto(&self, offset: u64, n: usize) -> io::Result<Vec<u8>> {
        let mut buf = vec![0u8; n];
        let mut got = 0;
        while got < n {
            match self.file.read_at(&mut buf[got..], offset + got as u64) {
                Ok(0) => break,
                Ok(k) => got += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        buf.truncate(got);
        Ok(buf)
    }

    /// Reads the record at `offset` (a raise or a lookup of a cold URL).
    pub(crate) fn read_one(&self, offset: u64) -> io::Result<ColdRec> {
        let head = self.read_upto(offset, FIXED)?;
        let size = ColdRec::size(&head).ok_or_else(corrupt)?;
        let bytes = self.read_upto(offset, size)?;
        ColdRec::decode(&bytes).map(|(r, _)| r).ok_or_else(corrupt)
    }

    /// Decodes the records in `offset..end`, block by block.
    pub(super) fn read_range(
        &self,
        mut offset: u64,
        end: u64,
        max_bytes: usize,
    ) -> io::Result<Vec<(ColdRec, u64)>> {
        let mut out = Vec::new();
        while offset < end {
            let want = usize::try_from(end - offset)
                .unwrap_or(usize::MAX)
                .min(max_bytes);
            let mut bytes = self.read_upto(offset, want)?;
            let mut at = 0;
            while let Some((r, size)) = bytes.get(at..).and_then(ColdRec::decode) {
                out.push((r, offset + at as u64));
                at += size;
            }
            if at == 0 {
                // One record larger than the block: read exactly it.
                let size = ColdRec::size(&bytes).ok_or_else(corrupt)?;
                bytes = self.read_upto(offset, size)?;
                let (r, size) = ColdRec::decode(&bytes).ok_or_else(corrupt)?;
                out.push((r, offset));
                at = size;
            }
            offset += at as u64;
            if max_bytes < usize::MAX {
                break;
            }
        }
        Ok(out)
    }

    /// Marks `n` records consumed; truncates the file once none is live.
    pub(super) fn consumed(&mut self, n: u64) -> io::Result<()> {
        self.live = self.live.saturating_sub(n);
        if self.live == 0 && self.len > 0 {
            self.len = 0;
            self.file.set_len(0)?;
        }
        Ok(())
    }

    /// Bytes in the file.
    pub(crate) fn bytes(&self) -> u64 {
        self.len
    }
}

/// The error for a record that does not decode (or a run that lost one).
pub(super) fn corrupt() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "corrupt frontier record")
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A record with key `(0, b, seq)`, id `seq * 7` and a URL whose length
    /// varies with `seq` (shared with the queue's tests).
    pub(in crate::cold) fn rec(seq: u64, b: u64) -> ColdRec {
        ColdRec {
            key: Key { a: 0, b, seq },
            id: PageId(seq * 7),
            priority: 0.5,
            parent: 3,
            host: 2,
            depth: 4,
            numtries: 1,
            layer: u32::MAX,
            tunnel: 2,
            has_parent: true,
            url: format!("http://h.example/{}", "x".repeat((seq % 50) as usize)).into(),
        }
    }

    #[test]
    fn records_round_trip() {
        let r = rec(5, 11);
        let mut buf = Vec::new();
        r.encode(&mut buf).unwrap();
        assert_eq!(buf.len(), FIXED + r.url.len());
        assert_eq!(ColdRec::decode(&buf), Some((r.clone(), buf.len())));
        assert_eq!(ColdRec::decode(&buf[..40]), None);
        assert_eq!(ColdRec::decode(&buf[..buf.len() - 1]), None);
        let mut long = r;
        long.url = "y".repeat(70_000).into();
        assert!(long.encode(&mut Vec::new()).is_err());
    }
}
