//! The baselines every focused crawler is measured against: breadth-first,
//! the 1999 paper's unfocused (random) order, and Diligenti's "standard
//! focused" best-first crawl.

use super::{Expansion, LinkPriority, Order, PageVerdict, Policy};

/// Breadth-first baseline: every outlink, in order of depth.
#[derive(Debug, Clone, Copy, Default)]
pub struct BreadthFirst;

impl Policy for BreadthFirst {
    fn name(&self) -> &'static str {
        "bfs"
    }
    fn order(&self) -> Order {
        Order::BreadthFirst
    }
    fn uses_distiller(&self) -> bool {
        false
    }
    fn expand(&self, _page: &PageVerdict<'_>) -> Expansion {
        Expansion::expand(LinkPriority::uniform(0.0))
    }
}

/// The 1999 paper's unfocused crawl: every outlink, pseudo-random order.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomOrder;

impl Policy for RandomOrder {
    fn name(&self) -> &'static str {
        "unfocused"
    }
    fn order(&self) -> Order {
        Order::Random
    }
    fn uses_distiller(&self) -> bool {
        false
    }
    fn expand(&self, _page: &PageVerdict<'_>) -> Expansion {
        Expansion::expand(LinkPriority::uniform(0.0))
    }
}

/// Diligenti's "standard focused" baseline: best-first on the parent's
/// classifier score, with no distiller and no numtries/serverload keys.
#[derive(Debug, Clone, Copy, Default)]
pub struct BestFirst;

impl Policy for BestFirst {
    fn name(&self) -> &'static str {
        "best-first"
    }
    fn order(&self) -> Order {
        Order::BestFirst
    }
    fn uses_distiller(&self) -> bool {
        false
    }
    fn expand(&self, page: &PageVerdict<'_>) -> Expansion {
        Expansion::expand(LinkPriority::uniform(page.relevance.clamp(0.0, 1.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link_value::LinkValue;
    use crate::policy::test_taxonomy as tax;
    use focus_frontier::TunnelState;

    #[test]
    fn baselines_expand_everything_and_ignore_relevance() {
        let t = tax();
        let v = PageVerdict {
            relevance: 0.9,
            best_leaf: None,
            taxonomy: &t,
            links: &LinkValue::new(),
            tunnel: TunnelState::default(),
            scores: &[],
            parent_best: None,
            similarity: 0.0,
        };
        for p in [&BreadthFirst as &dyn Policy, &RandomOrder] {
            assert_eq!(p.expand(&v), Expansion::expand(LinkPriority::uniform(0.0)));
            assert!(!p.uses_distiller());
        }
        assert_eq!(
            BestFirst.expand(&v),
            Expansion::expand(LinkPriority::uniform(0.9))
        );
        assert_eq!(RandomOrder.order(), Order::Random);
    }
}
