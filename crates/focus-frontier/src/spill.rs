//! The frontier's only I/O: URL strings spilled to one append-only temp
//! file once the in-memory bound is reached. A record is the URL's bytes
//! alone; its [`SpillRef`] packs offset and length into one `u64`, so
//! reading a spilled URL back is a single `pread`. The file is unnamed
//! (deleted by the OS when dropped) and is truncated whenever no spilled
//! URL is queued any more.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// Flush the write buffer to the file once it holds this many bytes.
const FLUSH_AT: usize = 1 << 20;
/// Bits of a [`SpillRef`] that hold the record's length (URLs are at most
/// a few KiB; 16 MiB is far beyond any canonical URL).
const LEN_BITS: u32 = 24;
/// Largest offset a [`SpillRef`] can hold: 1 TiB of spilled URLs.
const MAX_OFFSET: u64 = (1 << (64 - LEN_BITS)) - 1;

/// Where a spilled URL is: offset in the upper 40 bits, length in the
/// lower 24.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SpillRef(u64);

impl SpillRef {
    fn new(offset: u64, len: usize) -> io::Result<Self> {
        let len = u64::try_from(len).ok().filter(|l| *l < 1 << LEN_BITS);
        match len {
            Some(len) if offset <= MAX_OFFSET => Ok(Self((offset << LEN_BITS) | len)),
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "URL longer than 16 MiB or spill file beyond 1 TiB",
            )),
        }
    }

    fn offset(self) -> u64 {
        self.0 >> LEN_BITS
    }

    fn len(self) -> usize {
        (self.0 & ((1 << LEN_BITS) - 1)) as usize
    }
}

/// Append-only store of URL strings.
#[derive(Debug)]
pub(crate) struct Spill {
    file: File,
    /// Bytes already written to the file.
    file_len: u64,
    /// Records not yet written, starting at `file_len`.
    buf: Vec<u8>,
    /// Records written and still referenced by a queued URL.
    pub(crate) live: u64,
}

impl Spill {
    /// An empty spill file in `dir`.
    pub(crate) fn new(dir: &Path) -> io::Result<Self> {
        Ok(Self {
            file: tempfile::tempfile_in(dir)?,
            file_len: 0,
            buf: Vec::new(),
            live: 0,
        })
    }

    /// Appends `url`; returns where it is.
    pub(crate) fn write(&mut self, url: &str) -> io::Result<SpillRef> {
        let at = SpillRef::new(self.file_len + self.buf.len() as u64, url.len())?;
        self.buf.extend_from_slice(url.as_bytes());
        if self.buf.len() >= FLUSH_AT {
            self.file.write_all_at(&self.buf, self.file_len)?;
            self.file_len += self.buf.len() as u64;
            self.buf.clear();
        }
        self.live += 1;
        Ok(at)
    }

    /// Reads the URL at `at`: one `pread`, or none if it is still buffered.
    pub(crate) fn read(&self, at: SpillRef) -> io::Result<String> {
        let (offset, len) = (at.offset(), at.len());
        let bytes = if offset >= self.file_len {
            let start = usize::try_from(offset - self.file_len).map_err(invalid)?;
            self.buf
                .get(start..start + len)
                .ok_or_else(|| invalid(()))?
                .to_vec()
        } else {
            let mut bytes = vec![0u8; len];
            self.file.read_exact_at(&mut bytes, offset)?;
            bytes
        };
        String::from_utf8(bytes).map_err(invalid)
    }

    /// One spilled URL is no longer queued; truncates the file when none is.
    pub(crate) fn release(&mut self) -> io::Result<()> {
        self.live = self.live.saturating_sub(1);
        if self.live == 0 {
            self.buf.clear();
            self.file_len = 0;
            self.file.set_len(0)?;
        }
        Ok(())
    }

    /// Bytes the file and buffer hold.
    pub(crate) fn bytes(&self) -> u64 {
        self.file_len + self.buf.len() as u64
    }
}

fn invalid<E>(_: E) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "corrupt spill record")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_through_buffer_and_file() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Spill::new(dir.path()).unwrap();
        let long = "x".repeat(FLUSH_AT);
        let a = s.write("http://a.example/").unwrap();
        let b = s.write(&long).unwrap();
        let c = s.write("http://c.example/é").unwrap();
        assert_eq!(s.read(a).unwrap(), "http://a.example/");
        assert_eq!(s.read(b).unwrap(), long);
        assert_eq!(s.read(c).unwrap(), "http://c.example/é");
        let beyond = SpillRef::new(s.bytes() + 10, 4).unwrap();
        assert!(s.read(beyond).is_err());
        assert!(SpillRef::new(MAX_OFFSET + 1, 1).is_err());
        assert!(SpillRef::new(0, 1 << LEN_BITS).is_err());
        let r = SpillRef::new(MAX_OFFSET, (1 << LEN_BITS) - 1).unwrap();
        assert_eq!((r.offset(), r.len()), (MAX_OFFSET, (1 << LEN_BITS) - 1));
        for _ in 0..3 {
            s.release().unwrap();
        }
        assert_eq!(s.bytes(), 0);
    }
}
