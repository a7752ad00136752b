//! Diligenti et al.'s context-focused crawler (2000, §3.3) as a policy.
//! A per-layer classifier assigns every fetched page to the layer of the
//! merged context graph it most likely belongs to (0: a target; j: j links
//! from one) with its likelihood, or to "other" below the layer's
//! threshold. The paper keeps N+2 queues of pages — layers 0..N, then
//! "other" — each sorted by likelihood, and follows the links of the page
//! at the head of the first non-empty queue.
//!
//! Here the queues are one priority order over the pages' outlinks:
//! priority = (N + 1 − queue) + likelihood·(1 − ε), so every URL of a
//! lower queue comes before any URL of a higher one and likelihood orders
//! each queue. A URL linked from several pages keeps its best (queue,
//! likelihood), which the frontier's maximum over paths gives for free,
//! and a resumed crawl keeps it in the stored priority.

use focus_core::TopicId;

use crate::policy::{Expansion, LinkPriority, Order, PageVerdict, Policy};

/// The paper's context-graph depth (layers beyond the targets).
pub const DEPTH: usize = 4;

/// Keeps a likelihood of 1 below the next queue's priority.
const BELOW_ONE: f64 = 0.999;

/// The context-focused policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextFocused {
    /// The class of each layer, layer 0 (the targets) first.
    layers: Vec<TopicId>,
}

impl ContextFocused {
    /// A policy over the layers whose classes are `layers` (layer 0, the
    /// targets, first): N + 2 queues for N = `layers.len() − 1`.
    pub fn new(layers: Vec<TopicId>) -> Self {
        Self { layers }
    }

    /// The policy for a context graph of `depth` layers beyond the
    /// targets, whose classifier names layer j `TopicId(j + 1)` (as
    /// `focus_classify::LayeredNb` does).
    pub fn with_depth(depth: usize) -> Self {
        Self::new((0..=depth).map(|j| TopicId(j as u32 + 1)).collect())
    }

    /// The queue of a page judged `best` (0..=N for a layer, N + 1 for
    /// "other") and its likelihood.
    pub fn queue(&self, best: Option<TopicId>, scores: &[(TopicId, f64)]) -> (usize, f64) {
        let other = self.layers.len();
        let layer = best.and_then(|b| self.layers.iter().position(|&l| l == b));
        match layer {
            Some(j) => {
                let likelihood = scores
                    .iter()
                    .find(|(t, _)| Some(*t) == best)
                    .map_or(0.0, |s| s.1);
                (j, likelihood)
            }
            // "Other": sorted by its best likelihood all the same.
            None => (other, scores.first().map_or(0.0, |s| s.1)),
        }
    }

    /// The priority of the outlinks of a page in `queue` with `likelihood`.
    pub fn priority(&self, queue: usize, likelihood: f64) -> f64 {
        let above = self.layers.len().saturating_sub(queue) as f64;
        above + likelihood.clamp(0.0, 1.0) * BELOW_ONE
    }
}

impl Policy for ContextFocused {
    fn name(&self) -> &'static str {
        "context"
    }
    fn order(&self) -> Order {
        Order::BestFirst
    }
    fn uses_distiller(&self) -> bool {
        false
    }
    fn expand(&self, page: &PageVerdict<'_>) -> Expansion {
        let (queue, likelihood) = self.queue(page.best_leaf, page.scores);
        Expansion::expand(LinkPriority::uniform(self.priority(queue, likelihood)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link_value::LinkValue;
    use focus_core::{Taxonomy, TaxonomyBuilder};
    use focus_frontier::TunnelState;

    fn tax() -> (Taxonomy, Vec<TopicId>) {
        let t = TaxonomyBuilder::new()
            .topic("target")
            .unwrap()
            .topic("layer-1")
            .unwrap()
            .topic("layer-2")
            .unwrap()
            .build();
        let ids = ["target", "layer-1", "layer-2"]
            .iter()
            .map(|n| t.find(n).unwrap())
            .collect();
        (t, ids)
    }

    fn priority(
        p: &ContextFocused,
        t: &Taxonomy,
        best: Option<TopicId>,
        scores: &[(TopicId, f64)],
    ) -> f64 {
        let links = LinkValue::new();
        let v = PageVerdict {
            relevance: 0.0,
            best_leaf: best,
            taxonomy: t,
            links: &links,
            tunnel: TunnelState::default(),
            scores,
            parent_best: None,
            similarity: 0.0,
        };
        match p.expand(&v) {
            Expansion::Expand { priority, .. } => priority.page,
            Expansion::Prune => panic!("the context crawler expands every page"),
        }
    }

    #[test]
    fn a_lower_queue_always_comes_first_and_likelihood_orders_each_queue() {
        let (t, ids) = tax();
        let p = ContextFocused::new(ids.clone());
        let (l0, l1, l2) = (ids[0], ids[1], ids[2]);
        let target_weak = priority(&p, &t, Some(l0), &[(l0, 0.34), (l1, 0.33)]);
        let layer1_sure = priority(&p, &t, Some(l1), &[(l1, 1.0), (l0, 0.0)]);
        let layer1_weak = priority(&p, &t, Some(l1), &[(l1, 0.4), (l2, 0.3)]);
        let layer2 = priority(&p, &t, Some(l2), &[(l2, 0.9)]);
        let other = priority(&p, &t, None, &[(l2, 0.99)]);
        assert!(target_weak > layer1_sure, "queue 0 before queue 1");
        assert!(layer1_sure > layer1_weak, "likelihood within a queue");
        assert!(layer1_weak > layer2 && layer2 > other);
        assert!(other >= 0.0);
        assert_eq!(p.queue(None, &[]), (3, 0.0), "N + 1 = 3 is other");
        assert_eq!(p.order(), Order::BestFirst);
    }
}
