//! What the crawl keeps in the store beside its pages: the stored form of
//! a queued URL (its insertion rank and the features of the link that
//! queued it) and the run-metadata keys a resumed crawl reads back. Shared
//! by applying a page (`apply.rs`), the re-scorings (`rescore.rs`) and
//! resuming (`resume.rs`); must not decide anything about a page.

use focus_core::HostKey;
use focus_frontier::{Candidate, Frontier};
use focus_store::QueuedUrl;

use crate::apprentice;

/// The stored form of a queued URL; `extra` keeps the frontier's insertion
/// rank so a resumed crawl breaks ties as the original did, then the
/// features of the link that gave the URL its priority (for the link model:
/// they are its training example when the URL is fetched).
pub(crate) fn queued(c: &Candidate, frontier: &Frontier, features: &[u32]) -> QueuedUrl {
    let mut extra = frontier
        .seq_of(c.id)
        .map_or_else(|| 0u64.to_le_bytes().to_vec(), |s| s.to_le_bytes().to_vec());
    apprentice::to_bytes(features, &mut extra);
    QueuedUrl {
        url: c.url.to_string(),
        id: c.id.0,
        depth: c.depth,
        parent: c.parent.map(|p| p.0),
        priority: frontier.priority_of(c.id).unwrap_or(c.priority),
        numtries: frontier.numtries_of(c.id).unwrap_or(c.numtries),
        tunnel: c.tunnel.off_topic_steps,
        extra,
        // Set by the caller when the crawl keeps them (`crate::cited`).
        cited: Vec::new(),
    }
}

/// The link features stored by [`queued`] (none for a seed or an old store).
pub(crate) fn stored_features(q: &QueuedUrl) -> Box<[u32]> {
    apprentice::from_bytes(q.extra.get(8..).unwrap_or_default())
}

/// The run-metadata key of the clock's time at the last applied batch
/// (logical, or the stream's real clock), so a resumed crawl's hosts cool
/// as they did.
pub(crate) const CLOCK_KEY: &str = "clock_ms";

/// The run-metadata key of [`crate::tally::Tally::held`], so a resumed
/// crawl counts on.
pub(crate) const HELD_KEY: &str = "held_for_promising";
/// Store meta key of the fetches made one at a time while looking for a
/// foothold ([`crate::dispatch::searching`]).
pub(crate) const SEARCHED_KEY: &str = "searched_one_at_a_time";

/// The run-metadata key of the backlink requests made so far.
pub(crate) const PARENT_REQUESTS_KEY: &str = "parent_requests";

/// The run-metadata key of [`crate::tally::Tally::robots_refused_links`].
pub(crate) const ROBOTS_REFUSED_LINKS_KEY: &str = "robots_refused_links";

/// The run-metadata key of the parents those requests returned.
pub(crate) const PARENTS_FOUND_KEY: &str = "parents_found";

/// The run-metadata key under which a host's in-flight limit is kept.
pub(crate) fn host_limit_key(host: &HostKey) -> String {
    format!("host_limit/{host}")
}

/// The run-metadata key under which a host with a politeness interval
/// keeps the logical time it may be contacted again.
pub(crate) fn host_ready_key(host: &HostKey) -> String {
    format!("host_ready/{host}")
}

/// The insertion rank stored by [`queued`] (old stores: none, sorts first).
pub(crate) fn stored_seq(q: &QueuedUrl) -> u64 {
    q.extra
        .get(..8)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map_or(0, u64::from_le_bytes)
}
