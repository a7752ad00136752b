//! The compact link graph: nodes keyed by [`PageId`] with a host id, a
//! relevance and a visited flag, and CSR forward and reverse adjacency over
//! dense `u32` indices. Node indices follow ascending page id, so the id map
//! is a sorted vector searched by bisection (no hash map kept after build).

use focus_core::PageId;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::csr::{forward_from_sorted, transpose};
use crate::error::DistillError;
use crate::id_index::IdIndex;

/// Sentinel for an edge whose endpoint is not a node.
const DANGLING: u64 = u64::MAX;
/// Sentinel for a self-loop (cannot collide: index `u32::MAX` is never used).
const SELF_LOOP: u64 = u64::MAX - 1;
/// Largest node count: index `u32::MAX` stays free for the sentinels.
const MAX_NODES: usize = u32::MAX as usize - 1;

/// What [`GraphBuilder::build`] (or [`Graph::from_positions`]) skipped or
/// repaired, so callers can count it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildStats {
    /// Nodes added more than once (the last addition wins).
    pub duplicate_nodes: u64,
    /// Relevances that were NaN or outside `[0, 1]` and were clamped (NaN to 0).
    pub clamped_relevance: u64,
    /// Edges with an endpoint that was never added as a node (skipped).
    pub dangling_edges: u64,
    /// Edges from a page to itself (skipped).
    pub self_loops: u64,
    /// Repeated edges (kept once).
    pub duplicate_edges: u64,
}

#[derive(Debug, Clone, Copy)]
struct NodeEntry {
    id: u64,
    host: u64,
    relevance: f32,
    visited: bool,
}

/// Collects nodes and edges in any order, then [`build`](Self::build)s a [`Graph`].
#[derive(Debug, Default, Clone)]
pub struct GraphBuilder {
    nodes: Vec<NodeEntry>,
    edges: Vec<(u64, u64)>,
    clamped: u64,
}

impl GraphBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty builder with room for `nodes` nodes and `edges` edges.
    pub fn with_capacity(nodes: usize, edges: usize) -> Self {
        Self {
            nodes: Vec::with_capacity(nodes),
            edges: Vec::with_capacity(edges),
            clamped: 0,
        }
    }

    /// Add (or replace) a page: its host id, relevance `R` in `[0, 1]` and
    /// whether it has been fetched. Out-of-range relevance is clamped and counted.
    pub fn add_node(&mut self, id: PageId, host: u64, relevance: f64, visited: bool) -> &mut Self {
        let r = clamp_relevance(relevance, &mut self.clamped);
        self.nodes.push(NodeEntry {
            id: id.0,
            host,
            relevance: r,
            visited,
        });
        self
    }

    /// Add a directed link `from -> to`. Duplicates, self-loops and links to
    /// pages never added as nodes are allowed here and handled by `build`.
    pub fn add_edge(&mut self, from: PageId, to: PageId) -> &mut Self {
        self.edges.push((from.0, to.0));
        self
    }

    /// Number of node additions so far (duplicates included).
    pub fn node_additions(&self) -> usize {
        self.nodes.len()
    }

    /// Number of edge additions so far (duplicates included).
    pub fn edge_additions(&self) -> usize {
        self.edges.len()
    }

    /// Build the CSR graph (parallel). Fails only if there are more distinct
    /// nodes than a `u32` index can name.
    pub fn build(self) -> Result<Graph, DistillError> {
        let Self {
            mut nodes,
            edges,
            clamped,
        } = self;
        let mut stats = BuildStats {
            clamped_relevance: clamped,
            ..BuildStats::default()
        };
        // Stable sort keeps insertion order among equal ids: keep the last.
        nodes.par_sort_by_key(|n| n.id);
        let mut kept: Vec<NodeEntry> = Vec::with_capacity(nodes.len());
        for node in nodes {
            match kept.last_mut() {
                Some(last) if last.id == node.id => {
                    *last = node;
                    stats.duplicate_nodes += 1;
                }
                _ => kept.push(node),
            }
        }
        let n = kept.len();
        if n > MAX_NODES {
            return Err(DistillError::TooManyNodes {
                nodes: n,
                max: MAX_NODES,
            });
        }
        let ids: Vec<PageId> = kept.iter().map(|e| PageId(e.id)).collect();
        let hosts: Vec<u64> = kept.iter().map(|e| e.host).collect();
        let relevance: Vec<f32> = kept.iter().map(|e| e.relevance).collect();
        let visited: Vec<bool> = kept.iter().map(|e| e.visited).collect();
        drop(kept);

        let raw_ids: Vec<u64> = ids.iter().map(|p| p.0).collect();
        let index = IdIndex::new(&raw_ids);
        drop(raw_ids);
        let packed: Vec<u64> = edges
            .par_iter()
            .map(|&(from, to)| pack(index.get(from), index.get(to)))
            .collect();
        drop(edges);
        drop(index);
        Ok(finish(ids, hosts, relevance, visited, packed, stats))
    }
}

/// A page as [`Graph::from_positions`] takes it: what
/// [`GraphBuilder::add_node`] is given.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PageNode {
    /// The page.
    pub id: PageId,
    /// Its host id.
    pub host: u64,
    /// Its relevance `R` in `[0, 1]` (clamped and counted otherwise).
    pub relevance: f64,
    /// Whether it has been fetched.
    pub visited: bool,
}

impl Graph {
    /// The graph of `nodes`, in any order, and of `edges` between their
    /// positions in `nodes`: the same graph, statistics included, as a
    /// [`GraphBuilder`] given the same nodes in the same order and the
    /// edges between their ids (a repeated id keeps its last entry; an edge
    /// to a position past the end is dangling). For a caller that keeps its
    /// graph by position: a link costs it 8 bytes rather than 16, and the
    /// build needs no second copy of the links keyed by id. Fails if there
    /// are more distinct nodes than a `u32` index can name.
    pub fn from_positions(nodes: &[PageNode], edges: &[(u32, u32)]) -> Result<Graph, DistillError> {
        let too_many = |nodes| DistillError::TooManyNodes {
            nodes,
            max: MAX_NODES,
        };
        let positions = u32::try_from(nodes.len()).map_err(|_| too_many(nodes.len()))?;
        let mut stats = BuildStats::default();
        // Stable sort keeps position order among equal ids: keep the last.
        let mut order: Vec<u32> = (0..positions).collect();
        order.par_sort_by_key(|&i| nodes[i as usize].id);
        // Per position, its node's index; per index, the position kept.
        let mut rank = vec![0u32; nodes.len()];
        let mut kept: Vec<u32> = Vec::with_capacity(nodes.len());
        for &pos in &order {
            match kept.last_mut() {
                Some(last) if nodes[*last as usize].id == nodes[pos as usize].id => {
                    *last = pos;
                    stats.duplicate_nodes += 1;
                }
                _ => kept.push(pos),
            }
            rank[pos as usize] = (kept.len() - 1) as u32;
        }
        drop(order);
        if kept.len() > MAX_NODES {
            return Err(too_many(kept.len()));
        }
        for n in nodes {
            clamp_relevance(n.relevance, &mut stats.clamped_relevance);
        }
        let node = |i: &u32| &nodes[*i as usize];
        let ids: Vec<PageId> = kept.iter().map(|i| node(i).id).collect();
        let hosts: Vec<u64> = kept.iter().map(|i| node(i).host).collect();
        let relevance: Vec<f32> = kept
            .iter()
            .map(|i| clamp_relevance(node(i).relevance, &mut 0))
            .collect();
        let visited: Vec<bool> = kept.iter().map(|i| node(i).visited).collect();
        drop(kept);
        let at = |p: u32| rank.get(p as usize).copied();
        let packed: Vec<u64> = edges
            .par_iter()
            .map(|&(from, to)| pack(at(from), at(to)))
            .collect();
        Ok(finish(ids, hosts, relevance, visited, packed, stats))
    }
}

/// `relevance` as a graph holds it: NaN as 0, clamped to `[0, 1]`; each
/// repair is counted in `clamped`.
fn clamp_relevance(relevance: f64, clamped: &mut u64) -> f32 {
    let r = if relevance.is_nan() {
        *clamped += 1;
        0.0
    } else if !(0.0..=1.0).contains(&relevance) {
        *clamped += 1;
        relevance.clamp(0.0, 1.0)
    } else {
        relevance
    };
    r as f32
}

/// An edge between node indices packed for sorting (source high); the
/// sentinels sort last.
fn pack(from: Option<u32>, to: Option<u32>) -> u64 {
    match (from, to) {
        (Some(s), Some(d)) if s == d => SELF_LOOP,
        (Some(s), Some(d)) => (u64::from(s) << 32) | u64::from(d),
        _ => DANGLING,
    }
}

/// The graph of nodes in index order and their packed edges: sentinels
/// counted and dropped, repeats removed, CSR both ways.
fn finish(
    ids: Vec<PageId>,
    hosts: Vec<u64>,
    relevance: Vec<f32>,
    visited: Vec<bool>,
    mut packed: Vec<u64>,
    mut stats: BuildStats,
) -> Graph {
    let n = ids.len();
    packed.par_sort_unstable();
    while let Some(&last) = packed.last() {
        match last {
            DANGLING => stats.dangling_edges += 1,
            SELF_LOOP => stats.self_loops += 1,
            _ => break,
        }
        packed.pop();
    }
    let before = packed.len();
    packed.dedup();
    stats.duplicate_edges = (before - packed.len()) as u64;
    packed.shrink_to_fit();

    let (fwd_off, fwd_dst) = forward_from_sorted(n, &packed);
    drop(packed);
    let (rev_off, rev_src) = transpose(n, &fwd_off, &fwd_dst);
    Graph {
        ids,
        hosts,
        relevance,
        visited,
        fwd_off,
        fwd_dst,
        rev_off,
        rev_src,
        stats,
    }
}

/// A compact directed link graph (CSR both ways). Node `i` is the `i`-th
/// smallest page id; adjacency lists are sorted and free of duplicates and
/// self-loops. Not serialisable on purpose: a graph is rebuilt from the
/// stored links, so no file can hand it inconsistent offsets.
#[derive(Debug, Clone, PartialEq)]
pub struct Graph {
    ids: Vec<PageId>,
    hosts: Vec<u64>,
    relevance: Vec<f32>,
    visited: Vec<bool>,
    fwd_off: Vec<usize>,
    fwd_dst: Vec<u32>,
    rev_off: Vec<usize>,
    rev_src: Vec<u32>,
    stats: BuildStats,
}

impl Graph {
    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.ids.len()
    }

    /// Number of distinct edges.
    pub fn edge_count(&self) -> usize {
        self.fwd_dst.len()
    }

    /// What the builder skipped or repaired.
    pub fn build_stats(&self) -> BuildStats {
        self.stats
    }

    /// Dense index of a page, if it is a node.
    pub fn index_of(&self, id: PageId) -> Option<u32> {
        self.ids.binary_search(&id).ok().map(|i| i as u32)
    }

    /// Page ids in index order (ascending).
    pub fn page_ids(&self) -> &[PageId] {
        &self.ids
    }

    /// Host ids in index order.
    pub fn hosts(&self) -> &[u64] {
        &self.hosts
    }

    /// Relevances in index order.
    pub fn relevances(&self) -> &[f32] {
        &self.relevance
    }

    /// Visited flags in index order.
    pub fn visited_flags(&self) -> &[bool] {
        &self.visited
    }

    /// Page id of node `i` (`None` if out of range).
    pub fn page_id(&self, i: u32) -> Option<PageId> {
        self.ids.get(i as usize).copied()
    }

    /// Successors (out-links) of node `i`, ascending; empty if out of range.
    pub fn successors(&self, i: u32) -> &[u32] {
        let i = i as usize;
        if i >= self.ids.len() {
            return &[];
        }
        &self.fwd_dst[self.fwd_off[i]..self.fwd_off[i + 1]]
    }

    /// Predecessors (in-links) of node `i`, ascending; empty if out of range.
    pub fn predecessors(&self, i: u32) -> &[u32] {
        let i = i as usize;
        if i >= self.ids.len() {
            return &[];
        }
        &self.rev_src[self.rev_off[i]..self.rev_off[i + 1]]
    }

    pub(crate) fn forward(&self) -> (&[usize], &[u32]) {
        (&self.fwd_off, &self.fwd_dst)
    }

    pub(crate) fn reverse(&self) -> (&[usize], &[u32]) {
        (&self.rev_off, &self.rev_src)
    }

    /// Bytes held by the graph's arrays (excluding the struct itself).
    pub fn heap_bytes(&self) -> usize {
        self.ids.len() * 8
            + self.hosts.len() * 8
            + self.relevance.len() * 4
            + self.visited.len()
            + (self.fwd_off.len() + self.rev_off.len()) * std::mem::size_of::<usize>()
            + (self.fwd_dst.len() + self.rev_src.len()) * 4
    }

    /// The subgraph induced by `nodes` (indices of this graph; out-of-range
    /// and repeated indices are ignored). Node attributes are kept.
    pub fn induced_subgraph(&self, nodes: &[u32]) -> Graph {
        let n = self.ids.len();
        let mut keep = vec![false; n];
        for &i in nodes {
            if let Some(k) = keep.get_mut(i as usize) {
                *k = true;
            }
        }
        let mut new_index = vec![u32::MAX; n];
        let mut next = 0u32;
        for (i, &k) in keep.iter().enumerate() {
            if k {
                new_index[i] = next;
                next += 1;
            }
        }
        let old: Vec<usize> = (0..n).filter(|&i| keep[i]).collect();
        let m = old.len();
        let mut fwd_off = Vec::with_capacity(m + 1);
        fwd_off.push(0);
        let mut fwd_dst = Vec::new();
        for &u in &old {
            for &v in &self.fwd_dst[self.fwd_off[u]..self.fwd_off[u + 1]] {
                let nv = new_index[v as usize];
                if nv != u32::MAX {
                    fwd_dst.push(nv);
                }
            }
            fwd_off.push(fwd_dst.len());
        }
        let (rev_off, rev_src) = transpose(m, &fwd_off, &fwd_dst);
        Graph {
            ids: old.iter().map(|&i| self.ids[i]).collect(),
            hosts: old.iter().map(|&i| self.hosts[i]).collect(),
            relevance: old.iter().map(|&i| self.relevance[i]).collect(),
            visited: old.iter().map(|&i| self.visited[i]).collect(),
            fwd_off,
            fwd_dst,
            rev_off,
            rev_src,
            stats: BuildStats::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(i: u64) -> PageId {
        PageId(i)
    }

    #[test]
    fn build_dedups_skips_and_counts() {
        let mut b = GraphBuilder::new();
        b.add_node(p(30), 1, 0.5, true)
            .add_node(p(10), 2, 2.0, false)
            .add_node(p(20), 3, f64::NAN, true)
            .add_node(p(30), 9, 0.25, false);
        b.add_edge(p(10), p(30))
            .add_edge(p(10), p(30))
            .add_edge(p(20), p(20))
            .add_edge(p(20), p(99))
            .add_edge(p(30), p(10))
            .add_edge(p(10), p(20));
        let g = b.build().unwrap();
        assert_eq!(g.node_count(), 3);
        assert_eq!(g.page_ids(), &[p(10), p(20), p(30)]);
        assert_eq!(g.hosts(), &[2, 3, 9]);
        assert_eq!(g.relevances(), &[1.0, 0.0, 0.25]);
        assert_eq!(g.visited_flags(), &[false, true, false]);
        assert_eq!(g.edge_count(), 3);
        assert_eq!(g.successors(0), &[1, 2]);
        assert_eq!(g.predecessors(0), &[2]);
        assert_eq!(g.predecessors(2), &[0]);
        assert_eq!(
            g.build_stats(),
            BuildStats {
                duplicate_nodes: 1,
                clamped_relevance: 2,
                dangling_edges: 1,
                self_loops: 1,
                duplicate_edges: 1,
            }
        );
        assert_eq!(g.index_of(p(20)), Some(1));
        assert_eq!(g.index_of(p(21)), None);
        assert!(g.successors(7).is_empty());
    }

    #[test]
    fn by_positions_is_the_graph_the_builder_makes_of_the_same_pages() {
        // Pseudo-random pages with repeated ids and out-of-range
        // relevances, and links with repeats, self-loops and positions past
        // the end.
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % m
        };
        for (pages, links) in [(0, 5), (1, 3), (40, 200), (300, 2_000)] {
            let nodes: Vec<PageNode> = (0..pages)
                .map(|_| PageNode {
                    id: p(next(pages.max(1) * 3 / 4 + 1)),
                    host: next(7),
                    relevance: next(13) as f64 / 10.0 - 0.1,
                    visited: next(2) == 0,
                })
                .collect();
            let edges: Vec<(u32, u32)> = (0..links)
                .map(|_| (next(pages + 2) as u32, next(pages + 2) as u32))
                .collect();
            let mut b = GraphBuilder::new();
            for n in &nodes {
                b.add_node(n.id, n.host, n.relevance, n.visited);
            }
            // A position past the end names an id no page has.
            let id = |i: u32| nodes.get(i as usize).map_or(p(u64::MAX), |n| n.id);
            for &(from, to) in &edges {
                b.add_edge(id(from), id(to));
            }
            let by_id = b.build().unwrap();
            let by_position = Graph::from_positions(&nodes, &edges).unwrap();
            assert_eq!(by_position, by_id, "{pages} pages, {links} links");
            if pages >= 40 {
                let s = by_position.build_stats();
                assert!(s.duplicate_nodes > 0 && s.clamped_relevance > 0);
                assert!(s.dangling_edges > 0 && s.self_loops > 0 && s.duplicate_edges > 0);
            }
        }
    }

    #[test]
    fn induced_subgraph_keeps_inner_edges_only() {
        let mut b = GraphBuilder::new();
        for i in 0..4 {
            b.add_node(p(i), i, 0.5, true);
        }
        for (u, v) in [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)] {
            b.add_edge(p(u), p(v));
        }
        let g = b.build().unwrap();
        let s = g.induced_subgraph(&[0, 2, 3, 3, 42]);
        assert_eq!(s.page_ids(), &[p(0), p(2), p(3)]);
        assert_eq!(s.edge_count(), 3);
        assert_eq!(s.successors(0), &[1]);
        assert_eq!(s.successors(1), &[2]);
        assert_eq!(s.successors(2), &[0]);
        assert_eq!(s.predecessors(0), &[2]);
    }
}
