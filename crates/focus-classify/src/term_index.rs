//! The hierarchical naive Bayes model's parameters laid out by term: for
//! each term, the `log θ` rows of every node that uses it, side by side.
//!
//! Classifying a page reads one row per (term, node). Laid out by node (as
//! trained and stored), those rows are scattered over every node's table,
//! and classification was bound on the cache misses; laid out by term, a
//! page's term is one hash look-up and one contiguous read. Derived from
//! the node tables, never stored.

use std::collections::HashMap;
use std::ops::Range;

use focus_core::IdHashing;
use focus_text::TermId;

/// One node's row for a term: the node's index and where its `k` values
/// start in [`TermIndex::values`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct NodeRow {
    pub(crate) node: u32,
    pub(crate) start: u32,
}

/// Every node's row for every term, by term.
#[derive(Debug, Clone, Default)]
pub(crate) struct TermIndex {
    by_term: HashMap<TermId, Range<u32>, IdHashing>,
    rows: Vec<NodeRow>,
    values: Vec<f64>,
}

impl TermIndex {
    /// Built from each node's sorted features and its `log θ` table
    /// (`[feature * k + child]`, `k` its number of children), nodes in the
    /// order given; a term's rows keep that order.
    pub(crate) fn build<'a>(
        nodes: impl Iterator<Item = (&'a [TermId], &'a [f64], usize)>,
    ) -> TermIndex {
        let mut per_term: HashMap<TermId, Vec<(u32, &[f64])>> = HashMap::new();
        for (n, (features, theta, k)) in nodes.enumerate() {
            for (r, &t) in features.iter().enumerate() {
                if let Some(row) = theta.get(r * k..(r + 1) * k) {
                    per_term.entry(t).or_default().push((n as u32, row));
                }
            }
        }
        let mut terms: Vec<TermId> = per_term.keys().copied().collect();
        terms.sort_unstable();
        let mut index = TermIndex::default();
        for t in terms {
            let start = index.rows.len() as u32;
            for &(node, row) in per_term.get(&t).map_or(&[][..], Vec::as_slice) {
                index.rows.push(NodeRow {
                    node,
                    start: index.values.len() as u32,
                });
                index.values.extend_from_slice(row);
            }
            index.by_term.insert(t, start..index.rows.len() as u32);
        }
        index
    }

    /// The rows of `term`, by node in build order.
    pub(crate) fn rows(&self, term: TermId) -> &[NodeRow] {
        self.by_term
            .get(&term)
            .and_then(|r| self.rows.get(r.start as usize..r.end as usize))
            .unwrap_or(&[])
    }

    /// The `k` values of a row.
    pub(crate) fn values(&self, row: NodeRow, k: usize) -> &[f64] {
        let start = row.start as usize;
        self.values.get(start..start + k).unwrap_or(&[])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_terms_rows_are_its_nodes_rows_in_node_order() {
        // Node 0: 2 children, features 3 and 7; node 1: 3 children, feature 7.
        let f0 = [TermId(3), TermId(7)];
        let t0 = [0.1, 0.2, 0.3, 0.4];
        let f1 = [TermId(7)];
        let t1 = [1.0, 2.0, 3.0];
        let nodes = [(&f0[..], &t0[..], 2), (&f1[..], &t1[..], 3)];
        let index = TermIndex::build(nodes.iter().copied());
        let seven = index.rows(TermId(7));
        assert_eq!(seven.iter().map(|r| r.node).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(index.values(seven[0], 2), [0.3, 0.4]);
        assert_eq!(index.values(seven[1], 3), [1.0, 2.0, 3.0]);
        let three = index.rows(TermId(3));
        assert_eq!(three.len(), 1);
        assert_eq!(index.values(three[0], 2), [0.1, 0.2]);
        assert!(index.rows(TermId(4)).is_empty());
    }
}
