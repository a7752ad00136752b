//! One fetched page becomes a judgement: parse, featurise, classify and
//! collect its out-links (pure CPU work, run on rayon by the pipeline).
//! Must not touch the frontier or the store: the engine applies judgements.

use std::collections::HashSet;
use std::time::{SystemTime, UNIX_EPOCH};

use focus_classify::Judgement;
use focus_core::{CanonicalUrl, Canonicalizer, PageId};
use focus_fetch::{Body, FetchOutcome};
use focus_frontier::Candidate;
use focus_store::PageRecord;

use crate::engine::Parts;

/// A fetched page, judged: its store record, its distinct followable links
/// and the classifier's judgement (`None` when there was no text to judge).
pub(crate) struct Judged {
    pub(crate) record: PageRecord,
    pub(crate) links: Vec<(PageId, CanonicalUrl)>,
    pub(crate) judgement: Option<Judgement>,
    pub(crate) follow: bool,
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The record of a page before anything is known about it.
fn blank_record(c: &Candidate) -> PageRecord {
    PageRecord {
        url: c.url.to_string(),
        id: c.id.0,
        status: 0,
        error: None,
        relevance: 0.0,
        class: None,
        depth: c.depth,
        parent: c.parent.map(|p| p.0),
        fetched_at_ms: now_ms(),
        bytes: 0,
        fingerprint: None,
        content_hash: None,
    }
}

/// A page that produced no judgement: its HTTP status (0 when none) and why.
pub(crate) fn failed(c: &Candidate, status: u16, error: String) -> Judged {
    let mut record = blank_record(c);
    record.status = status;
    record.error = Some(error);
    Judged {
        record,
        links: Vec::new(),
        judgement: None,
        follow: false,
    }
}

/// Analyses and classifies one fetch outcome (CPU work, run on rayon).
pub(crate) fn judge(
    c: &Candidate,
    outcome: &FetchOutcome,
    parts: &Parts,
    canon: &Canonicalizer,
) -> Judged {
    let page = match outcome {
        Err(e) => return failed(c, e.status().unwrap_or(0), e.label()),
        Ok(p) => p,
    };
    let Body::Text(html) = &page.body else {
        let mut j = failed(c, page.status, "not_text".into());
        j.record.bytes = page.wire_bytes;
        return j;
    };
    let mut record = blank_record(c);
    record.status = page.status;
    record.bytes = page.wire_bytes;
    let doc = focus_html::analyze(html, &page.final_url, canon);
    let counts = parts.featurizer.document(&doc);
    let judgement = parts.classifier.classify(&counts);
    record.relevance = judgement.relevance;
    record.class = judgement.best.map(|b| parts.taxonomy.path(b).to_owned());
    record.content_hash = Some(xxhash(html));
    let follow = !(doc.meta_robots.nofollow || page.robots.nofollow);
    let mut seen = HashSet::new();
    let links = doc
        .links
        .into_iter()
        .filter(|l| !l.nofollow && l.url.page_id() != c.id)
        .filter(|l| seen.insert(l.url.page_id()))
        .map(|l| (l.url.page_id(), l.url))
        .collect();
    Judged {
        record,
        links,
        judgement: Some(judgement),
        follow,
    }
}

fn xxhash(s: &str) -> u64 {
    // The store keeps an exact content hash; PageId's hash is the same XXH3.
    PageId::of_canonical(s).0
}

/// [`judge`], with a panic in the parser or the classifier (a bug that bad
/// input triggered) turned into a failed page instead of a dead crawl.
pub(crate) fn judge_guarded(
    c: &Candidate,
    outcome: &FetchOutcome,
    parts: &Parts,
    canon: &Canonicalizer,
) -> Judged {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        judge(c, outcome, parts, canon)
    }))
    .unwrap_or_else(|_| {
        tracing::error!(url = %c.url, "analysis panicked; the page is recorded as failed");
        failed(c, 0, "analysis_panicked".into())
    })
}
