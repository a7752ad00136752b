//! The frontier's only I/O: URL strings spilled to one append-only temp
//! file (length-prefixed records) once the in-memory bound is reached.
//! The file is unnamed (deleted by the OS when dropped) and is truncated
//! whenever no spilled URL is queued any more.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// Flush the write buffer to the file once it holds this many bytes.
const FLUSH_AT: usize = 1 << 20;

/// Append-only store of URL strings, addressed by offset.
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

    /// Appends `url`; returns its offset.
    pub(crate) fn write(&mut self, url: &str) -> io::Result<u64> {
        let len = u32::try_from(url.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "URL longer than 4 GiB"))?;
        let offset = self.file_len + self.buf.len() as u64;
        self.buf.extend_from_slice(&len.to_le_bytes());
        self.buf.extend_from_slice(url.as_bytes());
        if self.buf.len() >= FLUSH_AT {
            self.file.write_all_at(&self.buf, self.file_len)?;
            self.file_len += self.buf.len() as u64;
            self.buf.clear();
        }
        self.live += 1;
        Ok(offset)
    }

    /// Reads the URL at `offset`.
    pub(crate) fn read(&self, offset: u64) -> io::Result<String> {
        let bytes = if offset >= self.file_len {
            let start = usize::try_from(offset - self.file_len).map_err(invalid)?;
            let len_bytes = self.buf.get(start..start + 4).ok_or_else(|| invalid(()))?;
            let len = u32::from_le_bytes(len_bytes.try_into().map_err(invalid)?) as usize;
            self.buf
                .get(start + 4..start + 4 + len)
                .ok_or_else(|| invalid(()))?
                .to_vec()
        } else {
            let mut len_bytes = [0u8; 4];
            self.file.read_exact_at(&mut len_bytes, offset)?;
            let mut bytes = vec![0u8; u32::from_le_bytes(len_bytes) as usize];
            self.file.read_exact_at(&mut bytes, offset + 4)?;
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
        assert!(s.read(s.bytes() + 10).is_err());
        for _ in 0..3 {
            s.release().unwrap();
        }
        assert_eq!(s.bytes(), 0);
    }
}
