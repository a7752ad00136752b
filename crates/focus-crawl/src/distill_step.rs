//! Periodic distillation: relevance-weighted HITS (1999 weighting) over the
//! stored link graph; the unvisited pages cited by the top hubs are raised
//! to the maximum priority ("revisiting" a hub on a static web re-reads its
//! stored links rather than fetching it again).

use std::collections::HashMap;

use focus_core::{HostKey, PageId};
use focus_distill::{GraphBuilder, Hits, HitsConfig};
use focus_store::Store;

use crate::engine::CrawlError;

/// Hubs and authorities with their URLs.
pub(crate) struct Distilled {
    pub(crate) hubs: Vec<(String, f64)>,
    pub(crate) authorities: Vec<(String, f64)>,
    /// Unvisited pages cited by hubs above the percentile.
    pub(crate) missed: Vec<PageId>,
}

fn host_id(url: &str) -> u64 {
    HostKey::of_url(url).map_or(0, |h| h.id())
}

pub(crate) fn distill(
    store: &Store,
    top_k: usize,
    hub_percentile: f64,
) -> Result<Distilled, CrawlError> {
    let mut urls: HashMap<u64, String> = HashMap::new();
    let mut builder = GraphBuilder::new();
    for page in store.pages() {
        let p = page?;
        builder.add_node(PageId(p.id), host_id(&p.url), p.relevance, true);
        urls.insert(p.id, p.url);
    }
    for link in store.links_with_urls() {
        let (from, to, url) = link?;
        if let std::collections::hash_map::Entry::Vacant(e) = urls.entry(to) {
            builder.add_node(PageId(to), host_id(&url), 0.0, false);
            e.insert(url);
        }
        builder.add_edge(PageId(from), PageId(to));
    }
    let graph = builder
        .build()
        .map_err(|e| CrawlError::Distill(e.to_string()))?;
    let hits =
        Hits::new(HitsConfig::relevance_1999()).map_err(|e| CrawlError::Distill(e.to_string()))?;
    let scores = hits.run(&graph);
    let name = |v: Vec<(PageId, f64)>| -> Vec<(String, f64)> {
        v.into_iter()
            .filter(|(_, s)| *s > 0.0)
            .filter_map(|(id, s)| urls.get(&id.0).map(|u| (u.clone(), s)))
            .collect()
    };
    let missed = scores
        .missed_neighbours(&graph, hub_percentile)
        .map_err(|e| CrawlError::Distill(e.to_string()))?
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    Ok(Distilled {
        hubs: name(scores.top_hubs(top_k)),
        authorities: name(scores.top_authorities(top_k)),
        missed,
    })
}
