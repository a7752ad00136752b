//! The records the store keeps: one per fetch attempt, one per queued URL.

use focus_core::{Duplicate, DuplicateKind, PageLine};
use serde::{Deserialize, Serialize};

/// The outcome of fetching one page (one line of `pages.jsonl`). Its
/// `Default` is an empty record to fill in (id 0, no URL, attempt 0).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageRecord {
    /// Canonical URL.
    pub url: String,
    /// Its page id.
    pub id: u64,
    /// Which attempt at the URL this is (1 for the first).
    pub attempt: u32,
    /// The attempt failed transiently and the URL went back to the
    /// frontier (such records live in the store's `attempts` tree).
    pub retry: bool,
    /// Where a redirected fetch ended (`None` when it was not redirected).
    pub final_url: Option<String>,
    /// Its place in the crawl: the number of fetch attempts recorded
    /// before it (so `pages.jsonl` can be rewritten in the crawl's order).
    pub seq: u64,
    /// HTTP status, or 0 when no response was received.
    pub status: u16,
    /// Why the fetch failed, when it did (timeout, robots, too large...).
    pub error: Option<String>,
    /// Relevance R(d) in [0, 1] (0 when not classified).
    pub relevance: f64,
    /// Best class as a topic path, when classified.
    pub class: Option<String>,
    /// Links from the seeds.
    pub depth: u32,
    /// The page it was found on.
    pub parent: Option<u64>,
    /// When the fetch finished (ms since the Unix epoch).
    pub fetched_at_ms: u64,
    /// Body bytes received.
    pub bytes: u64,
    /// Near-duplicate fingerprint (SimHash of the page's text), if computed.
    pub fingerprint: Option<u64>,
    /// Exact hash (XXH3) of the page's text, if computed.
    pub content_hash: Option<u64>,
    /// When the text repeats an earlier page's: how, and that page's id.
    pub duplicate: Option<(DuplicateKind, u64)>,
    /// Engine-defined features of the link the page was queued by (the
    /// crawl's link model learns from them again on resume); empty when
    /// the crawl keeps none.
    pub link_features: Vec<u32>,
}

impl PageRecord {
    /// Its line of `pages.jsonl` (the output contract), given the URLs of
    /// its parent and of the page it duplicates (when it is a duplicate)
    /// and, where the web has one, the ground truth.
    pub fn line(
        &self,
        parent: Option<String>,
        duplicate_of: Option<String>,
        relevant_true: Option<bool>,
    ) -> PageLine {
        PageLine {
            attempt: self.attempt,
            bytes: self.bytes,
            class: self.class.clone(),
            depth: self.depth,
            duplicate: self.duplicate.map(|(kind, _)| Duplicate {
                kind,
                of: duplicate_of.unwrap_or_default(),
            }),
            error: self.error.clone(),
            fetched_at_ms: self.fetched_at_ms,
            final_url: self.final_url.clone(),
            parent,
            relevance: self.relevance,
            relevant_true,
            retry: self.retry,
            status: self.status,
            url: self.url.clone(),
        }
    }
}

/// A URL in the persisted frontier. The engine maps its frontier candidates
/// to this and back; `extra` carries discipline-specific state (numtries,
/// tunnel steps, layer) encoded by the engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueuedUrl {
    /// Canonical URL.
    pub url: String,
    /// Its page id.
    pub id: u64,
    /// Links from the seeds.
    pub depth: u32,
    /// The page it was found on.
    pub parent: Option<u64>,
    /// Its priority when queued (or last raised).
    pub priority: f64,
    /// Attempts already made (the VLDB paper's numtries): a URL put back
    /// after a transient failure keeps its count across a resume.
    pub numtries: u32,
    /// Off-topic pages on the path that led here since its last relevant
    /// page (tunnelling: Bergmark's cutoff, BINGO!'s decay); 0 for crawls
    /// that do not tunnel.
    pub tunnel: u8,
    /// Engine-defined extra state.
    pub extra: Vec<u8>,
    /// The anchor texts of the links to it seen while it was queued, when
    /// the crawl keeps them (BINGO!'s predecessor anchors; empty
    /// otherwise).
    pub cited: Vec<String>,
}

/// Records for the crate's unit tests.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::{PageRecord, QueuedUrl};

    /// A fetched page of `a.example`, linked from `parent`.
    pub(crate) fn page(id: u64, parent: Option<u64>) -> PageRecord {
        PageRecord {
            url: format!("http://a.example/{id}"),
            id,
            attempt: 1,
            retry: false,
            final_url: None,
            seq: id,
            status: 200,
            error: None,
            relevance: 0.5,
            class: Some("a/b".to_owned()),
            depth: u32::from(parent.is_some()),
            parent,
            fetched_at_ms: 1000 + id,
            bytes: 10,
            fingerprint: None,
            content_hash: None,
            duplicate: None,
            link_features: Vec::new(),
        }
    }

    /// A URL of `a.example` queued by page 1.
    pub(crate) fn queued(id: u64) -> QueuedUrl {
        QueuedUrl {
            url: format!("http://a.example/{id}"),
            id,
            depth: 1,
            parent: Some(1),
            priority: 0.5,
            numtries: 0,
            tunnel: 0,
            extra: vec![],
            cited: vec![],
        }
    }
}
