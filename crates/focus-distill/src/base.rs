//! BINGO!'s base set for link analysis: the positively classified pages,
//! all their successors, and a seeded, bounded sample of their predecessors
//! (Kleinberg's construction as BINGO! 2003 §2.5 describes it).

use focus_core::PageId;
use serde::{Deserialize, Serialize};

use crate::graph::Graph;

/// Bounds and seed for the predecessor sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaseSetConfig {
    /// At most this many predecessors are sampled per positive page
    /// (Kleinberg's `d`, 50 by default).
    pub max_predecessors_per_page: usize,
    /// At most this many predecessors in total.
    pub max_predecessors_total: usize,
    /// Seed of the sample (same seed, same base set).
    pub seed: u64,
}

impl Default for BaseSetConfig {
    fn default() -> Self {
        Self {
            max_predecessors_per_page: 50,
            max_predecessors_total: 100_000,
            seed: 0,
        }
    }
}

/// The base set: sorted node indices of the graph it was built from.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BaseSet {
    /// All members, ascending node index.
    pub nodes: Vec<u32>,
    /// Positive pages found in the graph.
    pub positives: usize,
    /// Successors added (not already positive).
    pub successors_added: usize,
    /// Sampled predecessors added (not already in the set).
    pub predecessors_added: usize,
    /// Positive page ids that are not nodes of the graph (skipped).
    pub unknown_positives: usize,
}

pub(crate) use focus_core::mix64;

fn sample_key(seed: u64, root: PageId, pred: PageId) -> u64 {
    mix64(mix64(seed ^ root.0) ^ pred.0.rotate_left(17))
}

/// Build BINGO!'s base set in `graph` from the positively classified pages.
/// The predecessor sample is order-independent: for each positive page the
/// predecessors with the smallest seeded hash are taken, then the total cap
/// keeps the smallest hashes overall. Use [`Graph::induced_subgraph`] on
/// `nodes` to get the graph HITS runs on.
pub fn base_set(graph: &Graph, positive: &[PageId], config: &BaseSetConfig) -> BaseSet {
    let n = graph.node_count();
    let mut in_set = vec![false; n];
    let mut out = BaseSet::default();
    let mut roots = Vec::new();
    for &id in positive {
        match graph.index_of(id) {
            Some(i) if !in_set[i as usize] => {
                in_set[i as usize] = true;
                roots.push(i);
            }
            Some(_) => {}
            None => out.unknown_positives += 1,
        }
    }
    roots.sort_unstable();
    out.positives = roots.len();
    let is_root = in_set.clone();
    for &r in &roots {
        for &v in graph.successors(r) {
            if !in_set[v as usize] {
                in_set[v as usize] = true;
                out.successors_added += 1;
            }
        }
    }
    let ids = graph.page_ids();
    let mut sampled: Vec<(u64, u32)> = Vec::new();
    let mut row: Vec<(u64, u32)> = Vec::new();
    for &r in &roots {
        row.clear();
        row.extend(
            graph
                .predecessors(r)
                .iter()
                .filter(|&&u| !is_root[u as usize])
                .map(|&u| (sample_key(config.seed, ids[r as usize], ids[u as usize]), u)),
        );
        let d = config.max_predecessors_per_page;
        if row.len() > d {
            if d == 0 {
                row.clear();
            } else {
                row.select_nth_unstable(d - 1);
                row.truncate(d);
            }
        }
        sampled.extend_from_slice(&row);
    }
    sampled.sort_unstable();
    let mut taken = 0;
    for (_, u) in sampled {
        if taken >= config.max_predecessors_total {
            break;
        }
        if !in_set[u as usize] {
            in_set[u as usize] = true;
            out.predecessors_added += 1;
            taken += 1;
        }
    }
    out.nodes = (0..n as u32).filter(|&i| in_set[i as usize]).collect();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::GraphBuilder;

    /// 0 is positive; 0 -> 1, 0 -> 2; 3..=12 -> 0; 13 -> 1 (not a predecessor of a positive).
    fn graph() -> Graph {
        let mut b = GraphBuilder::new();
        for i in 0..14 {
            b.add_node(PageId(i), i, 0.5, true);
        }
        b.add_edge(PageId(0), PageId(1))
            .add_edge(PageId(0), PageId(2));
        for i in 3..=12 {
            b.add_edge(PageId(i), PageId(0));
        }
        b.add_edge(PageId(13), PageId(1));
        b.build().unwrap()
    }

    #[test]
    fn base_set_bounds_predecessors_and_is_seeded() {
        let g = graph();
        let cfg = BaseSetConfig {
            max_predecessors_per_page: 4,
            max_predecessors_total: 3,
            seed: 7,
        };
        let a = base_set(&g, &[PageId(0), PageId(0), PageId(99)], &cfg);
        assert_eq!(a.positives, 1);
        assert_eq!(a.unknown_positives, 1);
        assert_eq!(a.successors_added, 2);
        assert_eq!(a.predecessors_added, 3);
        assert_eq!(a.nodes.len(), 6);
        assert!(a.nodes.starts_with(&[0, 1, 2]));
        assert!(!a.nodes.contains(&13));
        assert_eq!(a, base_set(&g, &[PageId(0)], &cfg).clone_with_unknown(1));
        let other: Vec<BaseSet> = (0..8)
            .map(|s| base_set(&g, &[PageId(0)], &BaseSetConfig { seed: s, ..cfg }))
            .collect();
        assert!(other.iter().any(|b| b.nodes != a.nodes), "seed must matter");
        let all = base_set(&g, &[PageId(0)], &BaseSetConfig::default());
        assert_eq!(all.nodes.len(), 13);
    }

    impl BaseSet {
        fn clone_with_unknown(mut self, unknown: usize) -> Self {
            self.unknown_positives = unknown;
            self
        }
    }
}
