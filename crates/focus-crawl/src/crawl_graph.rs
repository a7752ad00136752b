//! The crawl's link graph, kept in memory as pages are applied, for the
//! distiller: every fetched page (its host and relevance), every link it
//! holds, and the linked pages not fetched yet. Distilling reads this
//! rather than scanning the store, so its cost follows the graph (ids and
//! edges, 16 bytes a link) instead of every stored record and URL string.
//! A resumed crawl rebuilds it from the store once. It also knows whether
//! the fetched pages all sit on one host (a one-site crawl), where the
//! distiller's cross-host rule would leave no link at all.

use std::collections::HashMap;

use focus_core::PageId;
use focus_distill::{Graph, GraphBuilder};

use crate::error::CrawlError;

#[derive(Debug, Clone, Copy)]
struct Node {
    host: u64,
    relevance: f64,
    visited: bool,
}

/// Fetched pages, their links and the linked pages, by id.
#[derive(Debug, Default)]
pub(crate) struct CrawlGraph {
    nodes: HashMap<u64, Node>,
    edges: Vec<(u64, u64)>,
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
        self.nodes.insert(
            id,
            Node {
                host,
                relevance,
                visited: true,
            },
        );
        for (to, to_host) in links {
            self.nodes.entry(to).or_insert(Node {
                host: to_host,
                relevance: 0.0,
                visited: false,
            });
            self.edges.push((id, to));
        }
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
        let mut b = GraphBuilder::with_capacity(self.nodes.len(), self.edges.len());
        for (&id, n) in &self.nodes {
            b.add_node(PageId(id), n.host, n.relevance, n.visited);
        }
        for &(from, to) in &self.edges {
            b.add_edge(PageId(from), PageId(to));
        }
        b.build().map_err(|e| CrawlError::Distill(e.to_string()))
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
