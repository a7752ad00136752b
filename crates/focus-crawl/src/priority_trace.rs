//! The priority trace, target [`crate::PRIORITY_TRACE`]: one function per
//! event, so the events' names and fields (tabulated in `docs/crawl.md`,
//! parsed by `bins/focus-soft/tests/priority_trace.rs`) are written in one
//! place. Off, an event costs a level check: a field that needs a frontier
//! lookup is read only when the event is enabled. Must not change what it
//! traces.

use focus_core::{CanonicalUrl, PageId};
use focus_frontier::{Candidate, Frontier, PushResult};

/// Why a queued link is re-scored.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Cause {
    /// Its page's fetched children.
    Children,
    /// A sweep of the frontier after the link model learnt more.
    LinkModel,
}

/// How a URL was offered to the frontier.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Offer {
    /// As a link of an expanded page of relevance `from_relevance`.
    Link { from_relevance: f64 },
    /// As the root of a dead page's host (`crate::ascent`).
    RootAscent,
}

/// Candidate `c`, judged `relevance`, is applied as the crawl's `seq`-th
/// attempt.
pub(crate) fn fetched(c: &Candidate, relevance: f64, seq: u64) {
    tracing::trace!(
        target: crate::PRIORITY_TRACE,
        url = %c.url,
        priority = c.priority,
        numtries = c.numtries,
        depth = c.depth,
        relevance,
        seq,
        "fetched"
    );
}

/// `cand` was offered by page `from` at its priority, and the frontier
/// answered `outcome`.
pub(crate) fn offered(
    frontier: &Frontier,
    cand: &Candidate,
    from: &CanonicalUrl,
    how: Offer,
    outcome: PushResult,
) {
    match how {
        Offer::Link { from_relevance } => tracing::trace!(
            target: crate::PRIORITY_TRACE,
            url = %cand.url,
            from = %from,
            from_relevance,
            offered = cand.priority,
            ?outcome,
            priority = ?frontier.priority_of(cand.id),
            "link offered"
        ),
        Offer::RootAscent => tracing::trace!(
            target: crate::PRIORITY_TRACE,
            url = %cand.url,
            from = %from,
            offered = cand.priority,
            ?outcome,
            priority = ?frontier.priority_of(cand.id),
            "root ascent"
        ),
    }
}

/// The priority of queued URL `id` before a change, for [`rescored`] and
/// [`hub_citation`]; not looked up while the trace is off.
pub(crate) fn before(frontier: &Frontier, id: PageId) -> Option<f64> {
    tracing::enabled!(target: crate::PRIORITY_TRACE, tracing::Level::TRACE)
        .then(|| frontier.priority_of(id))
        .flatten()
}

/// Queued link `url` moved from `before` to `priority`, re-scored for
/// `cause` with page evidence `evidence`.
pub(crate) fn rescored(
    url: &CanonicalUrl,
    cause: Cause,
    evidence: f64,
    before: Option<f64>,
    priority: f64,
) {
    tracing::trace!(
        target: crate::PRIORITY_TRACE,
        url = %url,
        ?cause,
        evidence,
        before,
        priority,
        "re-scored"
    );
}

/// A top hub's citation raised queued URL `url` from `before` to
/// `priority`.
pub(crate) fn hub_citation(url: &str, before: Option<f64>, priority: f64) {
    tracing::trace!(
        target: crate::PRIORITY_TRACE,
        url,
        before,
        priority,
        "hub citation"
    );
}
