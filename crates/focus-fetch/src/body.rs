//! Reading a response body under limits: a deadline for the whole body, a
//! minimum transfer rate (a body that trickles is cut long before the
//! deadline), a cap on the *decoded* size enforced while streaming (so a
//! gzip bomb stops at the cap), and gzip / deflate / brotli decoding.

use std::io::Write;

use http_body_util::BodyExt;
use hyper::body::Incoming;
use std::time::Duration;

use tokio::time::Instant;

use crate::config::FetchConfig;
use crate::outcome::{FetchError, TimeoutPhase};

/// A body slower than this for a whole window is cut (curl's
/// `--speed-limit` / `--speed-time`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MinRate {
    pub(crate) bytes_per_s: u64,
    pub(crate) window: Duration,
}

impl MinRate {
    /// The configured rate, or `None` when the check is off.
    pub(crate) fn of(cfg: &FetchConfig) -> Option<Self> {
        (cfg.min_rate_bytes_per_s > 0 && !cfg.min_rate_window.is_zero()).then_some(Self {
            bytes_per_s: cfg.min_rate_bytes_per_s,
            window: cfg.min_rate_window,
        })
    }

    /// Bytes a window must bring.
    fn per_window(self) -> u64 {
        (self.bytes_per_s as f64 * self.window.as_secs_f64()).ceil() as u64
    }
}

/// What a body may cost.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// Decoded (and wire) bytes at most.
    pub(crate) cap: usize,
    /// The whole body by then.
    pub(crate) deadline: Instant,
    /// The slowest transfer tolerated.
    pub(crate) min_rate: Option<MinRate>,
}

/// A `Write` sink that refuses to grow past `cap`.
struct Capped {
    buf: Vec<u8>,
    cap: usize,
}

impl Write for Capped {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        if self.buf.len() + data.len() > self.cap {
            return Err(std::io::Error::other(OverCap));
        }
        self.buf.extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[derive(Debug)]
struct OverCap;
impl std::fmt::Display for OverCap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("decoded size over the cap")
    }
}
impl std::error::Error for OverCap {}

enum Decoder {
    Identity(Capped),
    Gzip(Box<flate2::write::GzDecoder<Capped>>),
    Deflate(Box<flate2::write::ZlibDecoder<Capped>>),
    Brotli(Box<brotli::DecompressorWriter<Capped>>),
}

impl Decoder {
    fn new(encoding: &str, cap: usize) -> Result<Self, FetchError> {
        let sink = Capped {
            buf: Vec::new(),
            cap,
        };
        Ok(match encoding.trim().to_ascii_lowercase().as_str() {
            "" | "identity" => Decoder::Identity(sink),
            "gzip" | "x-gzip" => Decoder::Gzip(Box::new(flate2::write::GzDecoder::new(sink))),
            "deflate" => Decoder::Deflate(Box::new(flate2::write::ZlibDecoder::new(sink))),
            "br" => Decoder::Brotli(Box::new(brotli::DecompressorWriter::new(sink, 8192))),
            other => {
                return Err(FetchError::Decode(format!(
                    "unsupported content-encoding `{other}`"
                )))
            }
        })
    }

    fn write(&mut self, data: &[u8], cap: usize) -> Result<(), FetchError> {
        let r = match self {
            Decoder::Identity(w) => w.write_all(data),
            Decoder::Gzip(w) => w.write_all(data),
            Decoder::Deflate(w) => w.write_all(data),
            Decoder::Brotli(w) => w.write_all(data),
        };
        r.map_err(|e| map_io(&e, cap))
    }

    fn finish(self, cap: usize) -> Result<Vec<u8>, FetchError> {
        let r = match self {
            Decoder::Identity(w) => Ok(w),
            Decoder::Gzip(w) => w.finish(),
            Decoder::Deflate(w) => w.finish(),
            Decoder::Brotli(w) => w
                .into_inner()
                .map_err(|_| std::io::Error::other("truncated brotli stream")),
        };
        r.map(|w| w.buf).map_err(|e| map_io(&e, cap))
    }
}

fn map_io(e: &std::io::Error, cap: usize) -> FetchError {
    if e.get_ref()
        .is_some_and(<dyn std::error::Error + Send + Sync>::is::<OverCap>)
    {
        FetchError::TooLarge { limit: cap }
    } else {
        FetchError::Decode(e.to_string())
    }
}

/// Reads and decodes `body` under `limits`: the deadline, the minimum
/// transfer rate (checked over consecutive windows from the first body
/// byte's wait on) and the cap on decoded and wire bytes. Returns
/// (decoded bytes, bytes on the wire).
pub(crate) async fn read(
    mut body: Incoming,
    content_encoding: &str,
    limits: Limits,
) -> Result<(Vec<u8>, u64), FetchError> {
    let cap = limits.cap;
    let mut decoder = Decoder::new(content_encoding, cap)?;
    let mut wire = 0u64;
    let mut window = limits.min_rate.map(|r| (Instant::now() + r.window, 0u64));
    loop {
        let wake = window.map_or(limits.deadline, |(end, _)| end.min(limits.deadline));
        let next = tokio::time::timeout_at(wake, body.frame()).await;
        let now = Instant::now();
        let data = match next {
            Err(_) if now >= limits.deadline => {
                return Err(FetchError::Timeout(TimeoutPhase::Total))
            }
            // A rate window ended without a frame: judged below.
            Err(_) => bytes::Bytes::new(),
            Ok(None) => break,
            Ok(Some(frame)) => {
                match frame
                    .map_err(|e| FetchError::Protocol(e.to_string()))?
                    .into_data()
                {
                    Ok(data) => data,
                    Err(_) => continue,
                }
            }
        };
        wire += data.len() as u64;
        if let (Some((end, got)), Some(rate)) = (window.as_mut(), limits.min_rate) {
            *got += data.len() as u64;
            if now >= *end {
                if *got < rate.per_window() {
                    return Err(FetchError::Timeout(TimeoutPhase::Slow));
                }
                *end = now + rate.window;
                *got = 0;
            }
        }
        // Wire bytes are capped too: an endless identity body stops here.
        if wire > cap as u64 {
            return Err(FetchError::TooLarge { limit: cap });
        }
        decoder.write(&data, cap)?;
    }
    Ok((decoder.finish(cap)?, wire))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoders_stop_at_the_cap() {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(&vec![0u8; 1 << 20]).unwrap();
        let bomb = gz.finish().unwrap();
        let mut d = Decoder::new("gzip", 1000).unwrap();
        assert_eq!(
            d.write(&bomb, 1000),
            Err(FetchError::TooLarge { limit: 1000 })
        );
        let mut ok = Decoder::new("gzip", 2 << 20).unwrap();
        ok.write(&bomb, 2 << 20).unwrap();
        assert_eq!(ok.finish(2 << 20).unwrap().len(), 1 << 20);
        assert!(Decoder::new("compress", 10).is_err());
        let mut bad = Decoder::new("gzip", 100).unwrap();
        let r = bad
            .write(b"not gzip at all", 100)
            .and_then(|()| bad.finish(100).map(|_| ()));
        assert!(matches!(r, Err(FetchError::Decode(_))));
    }

    #[test]
    fn brotli_round_trip() {
        let mut enc = brotli::CompressorWriter::new(Vec::new(), 4096, 5, 22);
        enc.write_all(b"hello brotli").unwrap();
        let data = enc.into_inner();
        let mut d = Decoder::new("br", 100).unwrap();
        d.write(&data, 100).unwrap();
        assert_eq!(d.finish(100).unwrap(), b"hello brotli");
    }
}
