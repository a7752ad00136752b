//! Periodic distillation: relevance-weighted HITS (1999 weighting) over the
//! crawl's link graph; the unvisited pages cited by the top hubs are raised
//! by the policy's hub-citation rule (`Policy::hub_citation`): "revisiting"
//! a hub on a static web re-reads its stored links rather than fetching it
//! again.
//!
//! The 1999 rule counts only links between hosts: links inside a host are
//! nepotism (navigation, the site's own pages praising each other). On a
//! one-site crawl (every fetched page on one host, e.g. a crawl of one
//! encyclopedia or intranet) that leaves no link at all, so while the crawl
//! has fetched from one host only, every link counts; from the second host
//! on, the 1999 rule holds.

use std::collections::HashMap;

use focus_core::PageId;
use focus_distill::{Hits, HitsConfig};
use focus_store::Store;

use crate::crawl_graph::CrawlGraph;
use crate::error::CrawlError;

/// The page count of the first distillation after `fetched` pages: every
/// `every` pages, and once the crawl is past `10 × every` pages, whenever
/// it has grown by a tenth since the last one. One distillation costs in
/// proportion to the graph, which grows with the crawl; spacing them in
/// proportion too keeps the distiller's share of a crawl's work the same
/// at 10^6 pages as at 10^4 (at a fixed interval it would grow without
/// bound). A crawl of up to `10 × every` pages distils exactly as every
/// `every` pages. The schedule is a fixed sequence, so a resumed crawl
/// distils at the same page counts as one run straight through.
pub(crate) fn next_distillation(fetched: u64, every: u64) -> u64 {
    let every = every.max(1);
    let mut at = every;
    while at <= fetched {
        at += every.max(at / 10);
    }
    at
}

/// The top hubs and authorities, and what the hubs cite unvisited.
pub(crate) struct Distilled {
    pub(crate) hubs: Vec<(PageId, f64)>,
    pub(crate) authorities: Vec<(PageId, f64)>,
    /// Unvisited pages cited by hubs above the percentile.
    pub(crate) missed: Vec<PageId>,
}

/// Distils `graph`: the `top_k` best hubs and authorities (scores above
/// zero) and the unvisited citations of hubs above `hub_percentile`.
pub(crate) fn distill(
    graph: &CrawlGraph,
    top_k: usize,
    hub_percentile: f64,
) -> Result<Distilled, CrawlError> {
    let config = HitsConfig {
        cross_host_only: graph.spans_hosts(),
        ..HitsConfig::relevance_1999()
    };
    let graph = graph.build()?;
    let hits = Hits::new(config).map_err(|e| CrawlError::Distill(e.to_string()))?;
    let scores = hits.run(&graph);
    let positive = |v: Vec<(PageId, f64)>| v.into_iter().filter(|(_, s)| *s > 0.0).collect();
    let missed = scores
        .missed_neighbours(&graph, hub_percentile)
        .map_err(|e| CrawlError::Distill(e.to_string()))?
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    Ok(Distilled {
        hubs: positive(scores.top_hubs(top_k)),
        authorities: positive(scores.top_authorities(top_k)),
        missed,
    })
}

/// The URLs of `pages` (fetched, queued, or only linked), with their scores.
pub(crate) fn named(
    store: &Store,
    pages: &[(PageId, f64)],
) -> Result<Vec<(String, f64)>, CrawlError> {
    let mut urls: HashMap<u64, String> = HashMap::new();
    for (id, _) in pages {
        if let Some(p) = store.get_page(id.0)? {
            urls.insert(id.0, p.url);
        } else if let Some(q) = store.get_queued(id.0)? {
            urls.insert(id.0, q.url);
        }
    }
    if urls.len() < pages.len() {
        // Pages only linked (never queued): their URL is on a stored link.
        for link in store.links_with_urls() {
            let (_, to, url) = link?;
            if pages.iter().any(|(id, _)| id.0 == to) {
                urls.entry(to).or_insert(url);
                if urls.len() == pages.len() {
                    break;
                }
            }
        }
    }
    Ok(pages
        .iter()
        .filter_map(|(id, s)| urls.get(&id.0).map(|u| (u.clone(), *s)))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distillations_are_every_n_pages_then_every_tenth_of_the_crawl() {
        let schedule = |every, until| {
            let mut at = Vec::new();
            let mut next = next_distillation(0, every);
            while next <= until {
                at.push(next);
                next = next_distillation(next, every);
            }
            at
        };
        let first: Vec<u64> = (1..=10).map(|k| k * 1000).collect();
        assert_eq!(schedule(1000, 10_000), first);
        // Past ten intervals the gap is a tenth of the crawl.
        assert_eq!(
            schedule(1000, 15_000),
            [first.clone(), vec![11_000, 12_100, 13_310, 14_641]].concat()
        );
        // Some sixty distillations in a million pages, not a thousand.
        assert!((50..70).contains(&schedule(1000, 1_000_000).len()));
        // A crawl resumed mid-way distils where a straight one would.
        assert_eq!(next_distillation(12_500, 1000), 13_310);
        assert_eq!(next_distillation(999, 1000), 1000);
        assert_eq!(next_distillation(1000, 1000), 2000);
        assert_eq!(next_distillation(5, 0), 6);
    }
}
