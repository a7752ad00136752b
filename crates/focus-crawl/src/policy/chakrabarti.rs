//! The 1999 papers' focus rules (Chakrabarti, van den Berg and Dom): soft
//! focus, with the project's learnt link kinds, host health and link model
//! as options on it, and hard focus.

use focus_core::{Taxonomy, TopicId};

use super::{Expansion, LinkPriority, Order, PageVerdict, Policy};
use crate::link_value::{LinkKind, LinkValue};

/// Soft focus: every outlink inherits its parent's relevance (scaled by its
/// link kind's learnt yield unless the policy is one of the papers' own);
/// the frontier keeps the maximum over paths. The two papers order the frontier alike
/// but for one key: the VLDB paper breaks ties of relevance by `serverload`
/// ascending (hosts fetched least first, "to prevent the crawler going
/// depth-first into one or a few sites"), the WWW paper does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SoftFocus {
    order: Order,
    learnt_links: bool,
    host_health: bool,
    link_model: bool,
    centroid_floor: bool,
}

impl SoftFocus {
    /// (numtries ↑, R ↓, serverload ↑): the VLDB 1999 paper; the default.
    pub const VLDB: SoftFocus = SoftFocus {
        order: Order::Lexicographic,
        learnt_links: false,
        host_health: false,
        link_model: false,
        centroid_floor: false,
    };
    /// (numtries ↑, R ↓), ties by arrival: the WWW 1999 paper.
    pub const WWW: SoftFocus = SoftFocus {
        order: Order::NumtriesPriority,
        learnt_links: false,
        host_health: false,
        link_model: false,
        centroid_floor: false,
    };

    /// The same order, but an outlink's priority is its parent's relevance
    /// scaled by what links of its kind (same site or cross site) from
    /// relevant pages have yielded so far in this crawl, relative to the
    /// better kind ([`LinkValue::factor`]).
    pub const fn with_learnt_links(self) -> Self {
        Self {
            learnt_links: true,
            ..self
        }
    }

    /// The same, and an outlink's priority is also scaled by how its host
    /// and site have answered so far ([`crate::host_health`]).
    pub const fn with_host_health(self) -> Self {
        Self {
            host_health: true,
            ..self
        }
    }

    /// The same, and an outlink's priority is blended with the online link
    /// model's score of the link ([`crate::apprentice`]).
    pub const fn with_link_model(self) -> Self {
        Self {
            link_model: true,
            ..self
        }
    }

    /// The same, and the page's evidence in the rule is its relevance R
    /// floored at half its similarity to the good topics
    /// ([`PageVerdict::similarity`], the centroid cosine): max(R, cos/2).
    ///
    /// An off-topic page that reads like the topic is the neighbour that
    /// leads into it. On Wikispeedia the centroid cosine ranks those pages
    /// better than the naive Bayes R (its neighbour AUC, docs/classify.md),
    /// while R ranks the topic's own pages best; halving the cosine keeps
    /// every page the classifier judges relevant (R ≥ ½) ahead of every
    /// page it does not. Only the rule's evidence moves: R itself (the
    /// harvest, the link model's labels, the siblings' children, the
    /// distiller) does not.
    pub const fn with_centroid_floor(self) -> Self {
        Self {
            centroid_floor: true,
            ..self
        }
    }
}

impl Default for SoftFocus {
    /// The VLDB order with the link model, learnt link kinds, host health
    /// and the centroid floor: the project's soft crawl.
    fn default() -> Self {
        Self::VLDB
            .with_learnt_links()
            .with_host_health()
            .with_link_model()
            .with_centroid_floor()
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
    fn backs_off_failing_hosts(&self) -> bool {
        self.host_health
    }
    fn uses_link_model(&self) -> bool {
        self.link_model
    }
    fn uses_similarity(&self) -> bool {
        self.centroid_floor
    }
    fn hub_citation(&self, links: &LinkValue) -> LinkPriority {
        self.rule(1.0, links)
    }
    fn expand(&self, page: &PageVerdict<'_>) -> Expansion {
        let r = page.relevance.clamp(0.0, 1.0);
        let evidence = if self.centroid_floor {
            r.max(page.similarity.clamp(0.0, 1.0) / 2.0)
        } else {
            r
        };
        Expansion::expand(self.rule(evidence, page.links))
    }
}

impl SoftFocus {
    /// The priority of the outlinks of a page of relevance `r`.
    fn rule(self, r: f64, links: &LinkValue) -> LinkPriority {
        if self.learnt_links {
            LinkPriority {
                page: r,
                same_site: links.factor(LinkKind::SameSite),
                cross_site: links.factor(LinkKind::CrossSite),
                by_host_health: self.host_health,
                by_link_model: self.link_model,
            }
        } else {
            LinkPriority {
                by_host_health: self.host_health,
                by_link_model: self.link_model,
                ..LinkPriority::uniform(r)
            }
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
            Expansion::expand(LinkPriority::uniform(page.relevance.clamp(0.0, 1.0)))
        } else {
            Expansion::Prune
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{test_taxonomy as tax, BreadthFirst};
    use focus_frontier::TunnelState;

    #[test]
    fn hard_focus_expands_only_below_a_good_topic() {
        let t = tax();
        let racing = t.find("recreation/cycling/racing");
        let hiking = t.find("recreation/hiking");
        let links = LinkValue::new();
        let v = |best_leaf| PageVerdict {
            relevance: 0.4,
            best_leaf,
            taxonomy: &t,
            links: &links,
            tunnel: TunnelState::default(),
            scores: &[],
            parent_best: None,
            similarity: 0.0,
        };
        assert_eq!(
            HardFocus.expand(&v(racing)),
            Expansion::expand(LinkPriority::uniform(0.4))
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
            links: &LinkValue::new(),
            tunnel: TunnelState::default(),
            scores: &[],
            parent_best: None,
            similarity: 0.0,
        };
        for soft in [SoftFocus::VLDB, SoftFocus::WWW] {
            assert_eq!(
                soft.expand(&v),
                Expansion::expand(LinkPriority::uniform(0.05))
            );
            let over = PageVerdict {
                relevance: 1.5,
                ..v
            };
            assert_eq!(
                soft.expand(&over),
                Expansion::expand(LinkPriority::uniform(1.0))
            );
            assert!(soft.uses_distiller());
        }
        assert_eq!(
            SoftFocus::default(),
            SoftFocus::VLDB
                .with_learnt_links()
                .with_host_health()
                .with_link_model()
                .with_centroid_floor()
        );
        assert!(SoftFocus::default().uses_link_model());
        assert!(!SoftFocus::VLDB.uses_link_model());
        assert!(!SoftFocus::VLDB
            .with_learnt_links()
            .with_host_health()
            .uses_link_model());
        assert!(!BreadthFirst.uses_link_model());
        assert!(SoftFocus::default().backs_off_failing_hosts());
        assert!(!SoftFocus::VLDB.backs_off_failing_hosts());
        assert!(!SoftFocus::VLDB
            .with_learnt_links()
            .backs_off_failing_hosts());
        assert!(!BreadthFirst.backs_off_failing_hosts());
        assert_eq!(SoftFocus::default().order(), Order::Lexicographic);
        assert_eq!(SoftFocus::WWW.order(), Order::NumtriesPriority);
    }

    #[test]
    fn the_centroid_floor_raises_only_the_rules_evidence_and_only_when_asked() {
        let t = tax();
        let links = LinkValue::new();
        let page = |relevance, similarity| PageVerdict {
            similarity,
            ..PageVerdict::of_test(&t, &links, "recreation/hiking", relevance, 0)
        };
        let evidence = |soft: SoftFocus, v: &PageVerdict<'_>| match soft.expand(v) {
            Expansion::Expand { priority, .. } => priority.page,
            Expansion::Prune => panic!("soft focus never prunes"),
        };
        let floored = SoftFocus::default();
        assert!(floored.uses_similarity());
        // An off-topic page that reads like the topic: half its cosine.
        assert_eq!(evidence(floored, &page(0.05, 0.6)), 0.3);
        // A relevant page keeps its R: half a cosine never reaches ½.
        assert_eq!(evidence(floored, &page(0.55, 1.0)), 0.55);
        assert_eq!(evidence(floored, &page(0.2, 0.3)), 0.2);
        // Out-of-range inputs are clamped, not passed on.
        assert_eq!(evidence(floored, &page(-1.0, 7.0)), 0.5);
        assert_eq!(evidence(floored, &page(0.1, -3.0)), 0.1);
        // Without the floor, the same page passes on its R: the previous
        // default and the papers' rules neither ask for nor read it.
        let previous = SoftFocus::VLDB
            .with_learnt_links()
            .with_host_health()
            .with_link_model();
        for soft in [
            previous,
            SoftFocus::VLDB,
            SoftFocus::WWW,
            SoftFocus::WWW.with_learnt_links(),
        ] {
            assert!(!soft.uses_similarity());
            assert_eq!(evidence(soft, &page(0.05, 0.6)), 0.05);
        }
        assert!(!HardFocus.uses_similarity() && !BreadthFirst.uses_similarity());
        // The floor changes the page's evidence only: the kind factors and
        // the switches of the rule are the previous default's.
        let (a, b) = (
            floored.expand(&page(0.05, 0.6)),
            previous.expand(&page(0.05, 0.6)),
        );
        match (a, b) {
            (Expansion::Expand { priority: a, .. }, Expansion::Expand { priority: b, .. }) => {
                assert_eq!(LinkPriority { page: b.page, ..a }, b);
            }
            _ => panic!("soft focus never prunes"),
        }
        // A hub citation is still the rule of a page of relevance 1.
        assert_eq!(floored.hub_citation(&links), previous.hub_citation(&links));
    }

    /// Link yields after 1,000 relevant pages whose same-site links led
    /// to relevant pages 0.8 of the time and cross-site ones 0.04.
    fn same_site_pays() -> LinkValue {
        let mut links = LinkValue::new();
        for _ in 0..1000 {
            links.observe(1.0, LinkKind::SameSite, 0.8);
            links.observe(1.0, LinkKind::CrossSite, 0.04);
        }
        links
    }

    #[test]
    fn learnt_links_scale_the_worse_kind_and_leave_the_papers_alone() {
        let t = tax();
        let links = same_site_pays();
        let v = PageVerdict {
            relevance: 0.5,
            best_leaf: None,
            taxonomy: &t,
            links: &links,
            tunnel: TunnelState::default(),
            scores: &[],
            parent_best: None,
            similarity: 0.0,
        };
        let factor = links.factor(LinkKind::CrossSite);
        assert!(factor < 0.1, "{factor}");
        for soft in [SoftFocus::VLDB, SoftFocus::WWW] {
            assert_eq!(
                soft.with_learnt_links().expand(&v),
                Expansion::expand(LinkPriority {
                    page: 0.5,
                    same_site: 1.0,
                    cross_site: factor,
                    by_host_health: false,
                    by_link_model: false,
                })
            );
            assert_eq!(soft.with_learnt_links().order(), soft.order());
            // The papers' own rule ignores what links yielded.
            assert_eq!(
                soft.expand(&v),
                Expansion::expand(LinkPriority::uniform(0.5))
            );
        }
    }

    #[test]
    fn hub_citations_get_the_rule_of_a_page_of_relevance_one() {
        let links = same_site_pays();
        // The papers raise them to the highest priority.
        for paper in [SoftFocus::VLDB, SoftFocus::WWW] {
            assert_eq!(paper.hub_citation(&links), LinkPriority::uniform(1.0));
        }
        assert_eq!(HardFocus.hub_citation(&links), LinkPriority::uniform(1.0));
        // The default keeps what it learnt of link kinds, links and hosts.
        assert_eq!(
            SoftFocus::default().hub_citation(&links),
            LinkPriority {
                page: 1.0,
                same_site: 1.0,
                cross_site: links.factor(LinkKind::CrossSite),
                by_host_health: true,
                by_link_model: true,
            }
        );
    }
}
