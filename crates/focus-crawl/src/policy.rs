//! Crawl policies: the personality of a crawler. Given a judged page, a
//! policy decides whether its outlinks enter the frontier, with which
//! priority, and which frontier order the crawl uses.
//!
//! | policy | paper | expands | child priority | order |
//! |---|---|---|---|---|
//! | [`SoftFocus::VLDB`] (default) | Chakrabarti 1999, VLDB order | every page | R(parent), max over paths | (numtries ↑, R ↓, serverload ↑) |
//! | [`SoftFocus::WWW`] | Chakrabarti 1999, WWW order | every page | R(parent), max over paths | (numtries ↑, R ↓), ties by arrival |
//! | [`HardFocus`] | Chakrabarti 1999 | best leaf has a good ancestor-or-self | R(parent) (measurement only) | (numtries ↑, arbitrary) |
//! | [`BreadthFirst`] | baseline | every page | — | FIFO by depth |
//! | [`RandomOrder`] | 1999 "unfocused" | every page | — | seeded random |
//! | [`BestFirst`] | Diligenti's "standard focused" | every page | classifier score of the parent | score ↓ |

use focus_core::{Taxonomy, TopicId};

/// Which frontier discipline a policy needs (mapped onto `focus-frontier`
/// by the engine).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// (numtries ascending, priority descending, serverload ascending).
    Lexicographic,
    /// (numtries ascending, priority descending), ties by arrival.
    NumtriesPriority,
    /// (numtries ascending), otherwise first come first served.
    NumtriesFifo,
    /// Nondecreasing depth, first come first served.
    BreadthFirst,
    /// Seeded pseudo-random order.
    Random,
    /// Priority descending.
    BestFirst,
}

/// What the classifier said about a fetched page.
#[derive(Debug, Clone, Copy)]
pub struct PageVerdict<'a> {
    /// Soft relevance R(d) in [0, 1].
    pub relevance: f64,
    /// The best leaf class, if the page was classified.
    pub best_leaf: Option<TopicId>,
    /// The taxonomy with the good marks.
    pub taxonomy: &'a Taxonomy,
}

/// What happens to a page's outlinks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Expansion {
    /// Outlinks are not queued (hard focus pruning).
    Prune,
    /// Outlinks are queued with this priority (higher is sooner).
    Expand {
        /// The priority of each outlink.
        priority: f64,
    },
}

/// A crawler's personality.
pub trait Policy: Send + Sync {
    /// Short name used in reports and output files.
    fn name(&self) -> &'static str;
    /// The frontier order this policy needs.
    fn order(&self) -> Order;
    /// Whether the periodic distiller raises hub citations for this crawl.
    fn uses_distiller(&self) -> bool;
    /// The decision for one judged page.
    fn expand(&self, page: &PageVerdict<'_>) -> Expansion;
}

/// Soft focus: every outlink inherits its parent's relevance; the frontier
/// keeps the maximum over paths. The two papers order the frontier alike
/// but for one key: the VLDB paper breaks ties of relevance by `serverload`
/// ascending (hosts fetched least first, "to prevent the crawler going
/// depth-first into one or a few sites"), the WWW paper does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SoftFocus {
    order: Order,
}

impl SoftFocus {
    /// (numtries ↑, R ↓, serverload ↑): the VLDB 1999 paper; the default.
    pub const VLDB: SoftFocus = SoftFocus {
        order: Order::Lexicographic,
    };
    /// (numtries ↑, R ↓), ties by arrival: the WWW 1999 paper.
    pub const WWW: SoftFocus = SoftFocus {
        order: Order::NumtriesPriority,
    };
}

impl Default for SoftFocus {
    fn default() -> Self {
        Self::VLDB
    }
}

impl Policy for SoftFocus {
    fn name(&self) -> &'static str {
        "soft"
    }
    fn order(&self) -> Order {
        self.order
    }
    fn uses_distiller(&self) -> bool {
        true
    }
    fn expand(&self, page: &PageVerdict<'_>) -> Expansion {
        Expansion::Expand {
            priority: page.relevance.clamp(0.0, 1.0),
        }
    }
}

/// Hard focus: expand a page only if its best leaf class has a good
/// ancestor (or is good itself).
#[derive(Debug, Clone, Copy, Default)]
pub struct HardFocus;

impl HardFocus {
    /// The 1999 rule on its own, for reports and tests.
    pub fn admits(taxonomy: &Taxonomy, best_leaf: Option<TopicId>) -> bool {
        best_leaf.is_some_and(|leaf| {
            taxonomy
                .good_topics()
                .into_iter()
                .any(|g| taxonomy.is_ancestor_or_self(g, leaf))
        })
    }
}

impl Policy for HardFocus {
    fn name(&self) -> &'static str {
        "hard"
    }
    fn order(&self) -> Order {
        Order::NumtriesFifo
    }
    fn uses_distiller(&self) -> bool {
        true
    }
    fn expand(&self, page: &PageVerdict<'_>) -> Expansion {
        if Self::admits(page.taxonomy, page.best_leaf) {
            Expansion::Expand {
                priority: page.relevance.clamp(0.0, 1.0),
            }
        } else {
            Expansion::Prune
        }
    }
}

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
        Expansion::Expand { priority: 0.0 }
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
        Expansion::Expand { priority: 0.0 }
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
        Expansion::Expand {
            priority: page.relevance.clamp(0.0, 1.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use focus_core::TaxonomyBuilder;

    fn tax() -> Taxonomy {
        TaxonomyBuilder::new()
            .topic("recreation/cycling/racing")
            .unwrap()
            .topic("recreation/cycling/touring")
            .unwrap()
            .topic("recreation/hiking")
            .unwrap()
            .good("recreation/cycling")
            .unwrap()
            .build()
    }

    #[test]
    fn hard_focus_expands_only_below_a_good_topic() {
        let t = tax();
        let racing = t.find("recreation/cycling/racing");
        let hiking = t.find("recreation/hiking");
        let v = |best_leaf| PageVerdict {
            relevance: 0.4,
            best_leaf,
            taxonomy: &t,
        };
        assert_eq!(
            HardFocus.expand(&v(racing)),
            Expansion::Expand { priority: 0.4 }
        );
        assert_eq!(HardFocus.expand(&v(hiking)), Expansion::Prune);
        assert_eq!(HardFocus.expand(&v(None)), Expansion::Prune);
    }

    #[test]
    fn soft_focus_passes_relevance_and_never_prunes() {
        let t = tax();
        let hiking = t.find("recreation/hiking");
        let v = PageVerdict {
            relevance: 0.05,
            best_leaf: hiking,
            taxonomy: &t,
        };
        for soft in [SoftFocus::VLDB, SoftFocus::WWW] {
            assert_eq!(soft.expand(&v), Expansion::Expand { priority: 0.05 });
            let over = PageVerdict {
                relevance: 1.5,
                ..v
            };
            assert_eq!(soft.expand(&over), Expansion::Expand { priority: 1.0 });
            assert!(soft.uses_distiller());
        }
        assert_eq!(SoftFocus::default().order(), Order::Lexicographic);
        assert_eq!(SoftFocus::WWW.order(), Order::NumtriesPriority);
    }

    #[test]
    fn baselines_expand_everything_and_ignore_relevance() {
        let t = tax();
        let v = PageVerdict {
            relevance: 0.9,
            best_leaf: None,
            taxonomy: &t,
        };
        for p in [&BreadthFirst as &dyn Policy, &RandomOrder] {
            assert_eq!(p.expand(&v), Expansion::Expand { priority: 0.0 });
            assert!(!p.uses_distiller());
        }
        assert_eq!(BestFirst.expand(&v), Expansion::Expand { priority: 0.9 });
        assert_eq!(RandomOrder.order(), Order::Random);
    }
}
