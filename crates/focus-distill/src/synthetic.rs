//! Seeded synthetic link graphs for tests, benchmarks and the reference
//! comparison: power-law-ish in- and out-degrees, hosts as blocks of
//! consecutive pages with a share of intra-host links, relevant hosts with
//! high `R`. Deterministic: same configuration, same graph. Pure computation,
//! no I/O.

use focus_core::PageId;
use serde::{Deserialize, Serialize};

use crate::base::mix64;
use crate::graph::GraphBuilder;

/// Shape of a synthetic graph.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SyntheticConfig {
    /// Number of pages (page ids `0..nodes`).
    pub nodes: u64,
    /// Number of links generated (before deduplication).
    pub edges: u64,
    /// Pages per host (host of page `i` is `i / pages_per_host`).
    pub pages_per_host: u64,
    /// Fraction of links that stay within the source's host.
    pub local_fraction: f64,
    /// Fraction of hosts that are on topic (their pages get `R` in `[0.6, 1]`,
    /// others `R` in `[0, 0.3]`).
    pub relevant_host_fraction: f64,
    /// Fraction of pages marked visited.
    pub visited_fraction: f64,
    /// Seed.
    pub seed: u64,
}

impl SyntheticConfig {
    /// A graph with `edges` links over `edges / 10` pages, 20 pages per host.
    pub fn with_edges(edges: u64, seed: u64) -> Self {
        Self {
            nodes: (edges / 10).max(2),
            edges,
            pages_per_host: 20,
            local_fraction: 0.3,
            relevant_host_fraction: 0.3,
            visited_fraction: 0.6,
            seed,
        }
    }
}

/// Uniform `[0, 1)` from a hash.
fn unit(h: u64) -> f64 {
    (h >> 11) as f64 / (1u64 << 53) as f64
}

/// Generate the graph into a builder (call [`GraphBuilder::build`]).
/// Sources are skewed towards low page ids and targets towards high ones
/// (`floor(n * u^3)`), which gives heavy-tailed out- and in-degrees with
/// hubs and authorities on different pages. No self-loops are generated.
pub fn generate(config: &SyntheticConfig) -> GraphBuilder {
    let n = config.nodes.max(2);
    let per_host = config.pages_per_host.max(1);
    let mut b = GraphBuilder::with_capacity(n as usize, config.edges as usize);
    let seed = mix64(config.seed);
    for i in 0..n {
        let host = i / per_host;
        let hh = mix64(seed ^ 0xA5A5 ^ host.wrapping_mul(0x1000_0000_01B3));
        let ph = mix64(seed ^ i.wrapping_mul(0x9E37_79B9));
        let relevant = unit(hh) < config.relevant_host_fraction;
        let r = if relevant {
            0.6 + 0.4 * unit(ph)
        } else {
            0.3 * unit(ph)
        };
        let visited = unit(mix64(ph)) < config.visited_fraction;
        b.add_node(PageId(i), host, r, visited);
    }
    let skew = |u: f64| ((n as f64 * u * u * u) as u64).min(n - 1);
    for e in 0..config.edges {
        let h1 = mix64(seed ^ e.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        let h2 = mix64(h1);
        let h3 = mix64(h2);
        let src = skew(unit(h1));
        let mut dst = if unit(h3) < config.local_fraction {
            let start = src / per_host * per_host;
            let len = per_host.min(n - start);
            start + (h2 % len)
        } else {
            n - 1 - skew(unit(h2))
        };
        if dst == src {
            dst = if src + 1 < n { src + 1 } else { 0 };
        }
        b.add_edge(PageId(src), PageId(dst));
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic_and_seeded() {
        let cfg = SyntheticConfig::with_edges(5_000, 3);
        let a = generate(&cfg).build().unwrap();
        let b = generate(&cfg).build().unwrap();
        assert_eq!(a, b);
        let c = generate(&SyntheticConfig { seed: 4, ..cfg })
            .build()
            .unwrap();
        assert_ne!(a, c);
        assert_eq!(a.node_count(), 500);
        assert_eq!(a.build_stats().self_loops, 0);
        assert!(a.edge_count() > 3_000);
        assert!(a.relevances().iter().all(|r| (0.0..=1.0).contains(r)));
    }
}
