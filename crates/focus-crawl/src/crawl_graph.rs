//! The crawl's link graph, kept in memory as pages are applied, for the
//! distiller: every fetched page (its host and relevance), every link it
//! holds, and the linked pages not fetched yet. Distilling reads this
//! rather than scanning the store, so its cost follows the graph instead of
//! every stored record and URL string. Pages are kept by position (the
//! order they were first met), so a link costs 8 bytes here, and the
//! distiller's graph is built straight from these positions
//! ([`Graph::from_positions`]) without a copy of the links keyed by id. A
//! resumed crawl rebuilds it from the store once. It also knows whether
//! the fetched pages all sit on one host (a one-site crawl), where the
//! distiller's cross-host rule would leave no link at all.

use std::collections::HashMap;

use focus_core::PageId;
use focus_distill::{Graph, PageNode};

use crate::error::CrawlError;

/// Fetched pages, their links and the linked pages, by position.
#[derive(Debug, Default)]
pub(crate) struct CrawlGraph {
    /// Page id → its position in `nodes`.
    positions: HashMap<u64, u32>,
    nodes: Vec<PageNode>,
    /// Links between positions.
    edges: Vec<(u32, u32)>,
    /// Set once more pages were met than a `u32` position can name: the
    /// graph stops growing and [`CrawlGraph::build`] fails.
    full: bool,
    /// The host of the first fetched page, and whether another host has
    /// been fetched since.
    first_host: Option<u64>,
    many_hosts: bool,
}

impl CrawlGraph {
    /// Records fetched page `id` on host `host` with relevance `relevance`
    /// and its `links` (target id, target host).
    pub(crate) fn page(
        &mut self,
        id: u64,
        host: u64,
        relevance: f64,
        links: impl IntoIterator<Item = (u64, u64)>,
    ) {
        match self.first_host {
            None => self.first_host = Some(host),
            Some(h) if h != host => self.many_hosts = true,
            Some(_) => {}
        }
        let fetched = PageNode {
            id: PageId(id),
            host,
            relevance,
            visited: true,
        };
        let Some(from) = self.position(fetched) else {
            return;
        };
        // A page met before as a link (or fetched before) is now this.
        self.nodes[from as usize] = fetched;
        for (to, to_host) in links {
            let linked = PageNode {
                id: PageId(to),
                host: to_host,
                relevance: 0.0,
                visited: false,
            };
            let Some(to) = self.position(linked) else {
                return;
            };
            self.edges.push((from, to));
        }
    }

    /// The position of `node`'s page, added as `node` if it is new; none
    /// once the graph is full.
    fn position(&mut self, node: PageNode) -> Option<u32> {
        if let Some(&at) = self.positions.get(&node.id.0) {
            return Some(at);
        }
        let Ok(at) = u32::try_from(self.nodes.len()) else {
            self.full = true;
            return None;
        };
        self.positions.insert(node.id.0, at);
        self.nodes.push(node);
        Some(at)
    }

    /// Whether the fetched pages sit on more than one host.
    pub(crate) fn spans_hosts(&self) -> bool {
        self.many_hosts
    }

    /// Pages (fetched or linked) and links recorded.
    pub(crate) fn size(&self) -> (usize, usize) {
        (self.nodes.len(), self.edges.len())
    }

    /// The distiller's graph of everything recorded.
    pub(crate) fn build(&self) -> Result<Graph, CrawlError> {
        if self.full {
            return Err(CrawlError::Distill(format!(
                "the crawl's link graph holds more than {} pages",
                u32::MAX
            )));
        }
        Graph::from_positions(&self.nodes, &self.edges)
            .map_err(|e| CrawlError::Distill(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fetched_page_replaces_its_unvisited_entry_and_is_not_undone_by_later_links() {
        let mut g = CrawlGraph::default();
        g.page(1, 10, 0.9, [(2, 20), (3, 30)]);
        g.page(2, 20, 0.5, [(1, 10), (3, 30)]);
        assert_eq!(g.size(), (3, 4));
        let graph = g.build().unwrap();
        let i = |id| graph.index_of(PageId(id)).unwrap() as usize;
        assert!(graph.visited_flags()[i(1)] && graph.visited_flags()[i(2)]);
        assert!(!graph.visited_flags()[i(3)]);
        assert_eq!(graph.relevances()[i(2)], 0.5);
        assert_eq!(graph.hosts()[i(3)], 30);
        assert_eq!(graph.edge_count(), 4);
        assert!(g.spans_hosts());
    }

    #[test]
    fn a_one_host_crawl_is_known_as_such() {
        let mut g = CrawlGraph::default();
        assert!(!g.spans_hosts());
        g.page(1, 10, 0.9, [(2, 10), (3, 30)]);
        g.page(2, 10, 0.5, [(1, 10)]);
        // Linking to another host is not fetching from it.
        assert!(!g.spans_hosts());
        g.page(3, 30, 0.1, []);
        assert!(g.spans_hosts());
    }
}
