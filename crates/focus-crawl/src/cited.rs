//! Predecessor anchors: the anchor texts of the links to a queued URL that
//! the crawl has seen, kept with the URL in the store while it waits and
//! handed to the judge with it, so BINGO!'s anchors feature space
//! ([`focus_core::FeatureSpace::Anchors`]) reads what the pages citing a
//! page call it. Kept only when the featurizer computes that space; every
//! other crawl stores nothing here. Must not decide an order or classify.

use focus_frontier::Candidate;
use focus_store::{QueuedUrl, Store};

use crate::error::CrawlError;
use crate::parts::Analysis;

/// Anchor texts kept per URL at most (the first ones seen: a page with a
/// thousand in-links is described well enough by ten of them).
pub(crate) const MAX_CITED: usize = 10;

/// Whether the crawl keeps predecessor anchors.
pub(crate) fn kept(analysis: &Analysis) -> bool {
    analysis.featurizer.spaces().anchors
}

/// The anchors kept for each URL of `batch`, read before the batch is
/// fetched (nothing when the crawl keeps none).
pub(crate) fn for_batch(
    analysis: &Analysis,
    store: &Store,
    batch: &[Candidate],
) -> Result<Vec<Vec<String>>, CrawlError> {
    if !kept(analysis) {
        return Ok(Vec::new());
    }
    batch
        .iter()
        .map(|c| {
            Ok(store
                .get_queued(c.id.0)?
                .map(|q| q.cited)
                .unwrap_or_default())
        })
        .collect()
}

/// Adds `anchor` to `cited` unless it is empty, already there, or the list
/// is full; whether it was added.
pub(crate) fn add(cited: &mut Vec<String>, anchor: &str) -> bool {
    let anchor = anchor.trim();
    if anchor.is_empty() || cited.len() >= MAX_CITED || cited.iter().any(|a| a == anchor) {
        return false;
    }
    cited.push(anchor.to_owned());
    true
}

/// Records that a link with `anchor` points at the URL with page id `id`,
/// already queued in the store: the store's entry gains the anchor. A URL
/// no longer queued (fetched, or dropped) keeps nothing.
pub(crate) fn add_to_stored(store: &Store, id: u64, anchor: &str) -> Result<(), CrawlError> {
    if let Some(mut q) = store.get_queued(id)? {
        if add(&mut q.cited, anchor) {
            store.update_queued(&q)?;
        }
    }
    Ok(())
}

/// `fresh` (an entry about to be written over a queued URL's) with the
/// anchors the store already keeps for it, and `anchor` (unless empty)
/// after them.
pub(crate) fn carried_over(
    store: &Store,
    mut fresh: QueuedUrl,
    anchor: &str,
) -> Result<QueuedUrl, CrawlError> {
    if let Some(q) = store.get_queued(fresh.id)? {
        fresh.cited = q.cited;
    }
    add(&mut fresh.cited, anchor);
    Ok(fresh)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_are_kept_once_trimmed_and_bounded() {
        let mut cited = Vec::new();
        assert!(add(&mut cited, " Bicycle racing "));
        assert!(!add(&mut cited, "Bicycle racing"), "a repeat");
        assert!(!add(&mut cited, "   "), "no text");
        for i in 0..20 {
            add(&mut cited, &format!("link {i}"));
        }
        assert_eq!(cited.len(), MAX_CITED);
        assert_eq!(cited[0], "Bicycle racing");
        assert_eq!(cited[MAX_CITED - 1], format!("link {}", MAX_CITED - 2));
    }

    #[test]
    fn a_stored_entry_gains_anchors_and_keeps_them_when_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let q = QueuedUrl {
            url: "http://a.test/x".into(),
            id: 7,
            depth: 1,
            parent: Some(1),
            priority: 0.5,
            numtries: 0,
            tunnel: 0,
            extra: Vec::new(),
            cited: vec!["first".into()],
        };
        store.enqueue(std::slice::from_ref(&q)).unwrap();
        add_to_stored(&store, 7, "second").unwrap();
        add_to_stored(&store, 8, "not queued").unwrap();
        assert!(store.get_queued(8).unwrap().is_none());
        let raised = QueuedUrl {
            priority: 0.9,
            cited: Vec::new(),
            ..q
        };
        let raised = carried_over(&store, raised, "third").unwrap();
        assert_eq!(raised.cited, ["first", "second", "third"]);
        assert_eq!(raised.priority, 0.9);
    }
}
