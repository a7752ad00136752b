//! BINGO!'s two crawl strategies (Sizov et al. 2003, §2.6 and §3.3) as one
//! policy with a phase.
//!
//! - **Learning** (sharp focus): depth first, on the seeds' domains only; a
//!   page is accepted when it falls in a user topic and in the same topic
//!   as the page it was found on (class(p) = class(q)); the links of a
//!   rejected page are still followed up to `max_tunnel` off-topic steps
//!   ("one often has to tunnel through topic-unspecific welcome or
//!   table-of-contents pages").
//! - **Harvesting** (soft focus): every page classified into any user
//!   topic is accepted, whatever its parent's topic; URLs are ordered by the
//!   classifier's confidence (relevance σ(2·conf) of an SVM tree), with the
//!   priority of tunnelled links halved per off-topic step, and the
//!   periodic distiller raises the best hubs' citations (the paper's "best
//!   hubs … added to the high-priority end of the crawler's URL queue").
//!   The frontier keeps a bounded queue per topic (§4.2, "since the
//!   absolute priorities may vary for different topics"): a link joins the
//!   queue of the topic its page was classified into (the root's queue for
//!   links tunnelled from a page in no topic), at most 1,000 URLs of a
//!   topic are dispatchable and 25,000 more wait behind them, the worst
//!   evicted when a better one comes ([`TopicCaps::BINGO`]).
//!
//! A "user topic" is a good topic or one below it: the user's bookmark
//! folders are the good topics, OTHERS is not one.
//!
//! Beyond the paper, [`Bingo::with_apprentice`] lets the project's online
//! link model and host health join the harvest's priority, as soft focus's
//! do (`docs/bingo.md` has the measurements that made it `bingo`'s
//! default).

use std::collections::BTreeSet;

use focus_core::{CanonicalUrl, DomainKey, TopicId};
use focus_frontier::TopicCaps;

use crate::link_value::LinkValue;
use crate::policy::{Expansion, HardFocus, LinkPriority, Order, PageVerdict, Policy};

/// The paper's maximum tunnelling distance (§5.1).
pub const MAX_TUNNEL: u8 = 2;

/// Which of BINGO!'s phases a crawl runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Sharp focus, depth first, on the seeds' domains.
    Learning,
    /// Soft focus, best first by confidence, anywhere.
    Harvesting,
}

/// The BINGO! policy of one phase.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bingo {
    phase: Phase,
    max_tunnel: u8,
    /// The registered domains the learning phase stays on (empty: any).
    domains: BTreeSet<DomainKey>,
    /// Whether harvesting blends the online link model into a link's
    /// priority and sinks failing hosts (not the paper's rule; see
    /// [`Bingo::with_apprentice`]).
    apprentice: bool,
}

impl Bingo {
    /// The learning phase, restricted to the domains of `seeds`.
    pub fn learning(seeds: &[CanonicalUrl]) -> Self {
        Self {
            phase: Phase::Learning,
            max_tunnel: MAX_TUNNEL,
            domains: seeds.iter().map(CanonicalUrl::domain_key).collect(),
            apprentice: false,
        }
    }

    /// The harvesting phase.
    pub fn harvesting() -> Self {
        Self {
            phase: Phase::Harvesting,
            max_tunnel: MAX_TUNNEL,
            domains: BTreeSet::new(),
            apprentice: false,
        }
    }

    /// The same phase with the online link model and host health
    /// ([`crate::apprentice`], [`crate::host_health`]) joining the paper's
    /// priority while harvesting (learning stays the paper's sharp focus):
    /// `bingo`'s default, `--child-priority paper` leaves it out.
    pub fn with_apprentice(mut self) -> Self {
        self.apprentice = self.phase == Phase::Harvesting;
        self
    }

    /// The same phase with another tunnelling distance.
    pub fn with_max_tunnel(mut self, steps: u8) -> Self {
        self.max_tunnel = steps;
        self
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Whether the page `v` describes is accepted (its links followed
    /// without tunnelling).
    pub fn accepts(&self, v: &PageVerdict<'_>) -> bool {
        let in_a_topic = HardFocus::admits(v.taxonomy, v.best_leaf);
        match self.phase {
            Phase::Harvesting => in_a_topic,
            // A seed (no classified parent) or a page after a tunnel
            // (its parent was rejected) only has to be in a topic.
            Phase::Learning => {
                in_a_topic
                    && (v.parent_best.is_none()
                        || v.parent_best == v.best_leaf
                        || !HardFocus::admits(v.taxonomy, v.parent_best))
            }
        }
    }

    /// The priority of the outlinks of a page whose evidence (relevance,
    /// decayed by its tunnel) is `evidence`.
    fn rule(&self, evidence: f64) -> LinkPriority {
        LinkPriority {
            by_host_health: self.apprentice,
            by_link_model: self.apprentice,
            ..LinkPriority::uniform(evidence)
        }
    }
}

impl Policy for Bingo {
    fn name(&self) -> &'static str {
        match self.phase {
            Phase::Learning => "bingo-learning",
            Phase::Harvesting => "bingo-harvesting",
        }
    }
    fn order(&self) -> Order {
        match self.phase {
            Phase::Learning => Order::DepthFirst,
            Phase::Harvesting => Order::BestFirst,
        }
    }
    fn uses_distiller(&self) -> bool {
        self.phase == Phase::Harvesting
    }
    fn backs_off_failing_hosts(&self) -> bool {
        self.apprentice
    }
    fn uses_link_model(&self) -> bool {
        self.apprentice
    }
    fn hub_citation(&self, _links: &LinkValue) -> LinkPriority {
        self.rule(1.0)
    }
    fn expand(&self, page: &PageVerdict<'_>) -> Expansion {
        let relevance = page.relevance.clamp(0.0, 1.0);
        match page.tunnel.child(self.accepts(page), self.max_tunnel) {
            Some(tunnel) => Expansion::Expand {
                priority: self.rule(tunnel.decay(relevance)),
                tunnel,
            },
            None => Expansion::Prune,
        }
    }
    fn follows(&self, url: &CanonicalUrl, _anchor: &str) -> bool {
        self.domains.is_empty() || self.domains.contains(&url.domain_key())
    }
    fn topic_caps(&self) -> Option<TopicCaps> {
        (self.phase == Phase::Harvesting).then_some(TopicCaps::BINGO)
    }
    fn queue_of(&self, page: &PageVerdict<'_>) -> Option<u32> {
        Some(page.best_leaf.unwrap_or(TopicId::ROOT).0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link_value::LinkValue;
    use focus_core::{Canonicalizer, Taxonomy, TaxonomyBuilder, TopicId};

    fn tax() -> Taxonomy {
        TaxonomyBuilder::new()
            .topic("db")
            .unwrap()
            .topic("ir")
            .unwrap()
            .topic("OTHERS")
            .unwrap()
            .good("db")
            .unwrap()
            .good("ir")
            .unwrap()
            .build()
    }

    fn verdict<'a>(
        t: &'a Taxonomy,
        links: &'a LinkValue,
        best: &str,
        parent: Option<&str>,
        steps: u8,
    ) -> PageVerdict<'a> {
        PageVerdict {
            parent_best: parent.and_then(|p| t.find(p)),
            ..PageVerdict::of_test(t, links, best, 0.8, steps)
        }
    }

    fn priority(e: Expansion) -> Option<(f64, u8)> {
        match e {
            Expansion::Expand { priority, tunnel } => Some((priority.page, tunnel.off_topic_steps)),
            Expansion::Prune => None,
        }
    }

    #[test]
    fn learning_keeps_a_pages_topic_and_tunnels_two_steps() {
        let (t, links) = (tax(), LinkValue::new());
        let p = Bingo::learning(&[]);
        assert_eq!(p.order(), Order::DepthFirst);
        assert!(!p.uses_distiller());
        // Same topic as its parent, or a seed: accepted at full priority.
        assert_eq!(
            priority(p.expand(&verdict(&t, &links, "db", Some("db"), 0))),
            Some((0.8, 0))
        );
        assert_eq!(
            priority(p.expand(&verdict(&t, &links, "db", None, 1))),
            Some((0.8, 0))
        );
        // Another user topic than its parent: rejected (sharp focus), its
        // links followed one step into the tunnel at half priority.
        assert_eq!(
            priority(p.expand(&verdict(&t, &links, "ir", Some("db"), 0))),
            Some((0.4, 1))
        );
        // OTHERS: rejected; two steps is the end of the tunnel.
        assert_eq!(
            priority(p.expand(&verdict(&t, &links, "OTHERS", Some("db"), 1))),
            Some((0.2, 2))
        );
        assert_eq!(
            priority(p.expand(&verdict(&t, &links, "OTHERS", Some("db"), 2))),
            None
        );
        // After a tunnel (parent rejected) a page of a topic is accepted.
        assert_eq!(
            priority(p.expand(&verdict(&t, &links, "ir", Some("OTHERS"), 2))),
            Some((0.8, 0))
        );
        let unclassified = PageVerdict {
            best_leaf: None,
            ..verdict(&t, &links, "db", Some("db"), 0)
        };
        assert!(!p.accepts(&unclassified));
    }

    #[test]
    fn harvesting_accepts_any_user_topic_and_orders_by_confidence() {
        let (t, links) = (tax(), LinkValue::new());
        let p = Bingo::harvesting();
        assert_eq!(p.order(), Order::BestFirst);
        assert!(p.uses_distiller());
        assert_eq!(
            priority(p.expand(&verdict(&t, &links, "ir", Some("db"), 0))),
            Some((0.8, 0))
        );
        assert_eq!(
            priority(p.expand(&verdict(&t, &links, "OTHERS", Some("db"), 0))),
            Some((0.4, 1))
        );
        let no_tunnel = Bingo::harvesting().with_max_tunnel(0);
        assert_eq!(
            priority(no_tunnel.expand(&verdict(&t, &links, "OTHERS", None, 0))),
            None
        );
        assert_eq!(t.find("OTHERS").map(|o| o != TopicId::ROOT), Some(true));
        // Per-topic queues while harvesting: a page's links join its
        // topic's queue, a page in no topic's the root's.
        assert_eq!(p.topic_caps(), Some(TopicCaps::BINGO));
        assert_eq!(Bingo::learning(&[]).topic_caps(), None);
        let ir = verdict(&t, &links, "ir", None, 0);
        assert_eq!(p.queue_of(&ir), t.find("ir").map(|i| i.0));
        let none = PageVerdict {
            best_leaf: None,
            ..ir
        };
        assert_eq!(p.queue_of(&none), Some(TopicId::ROOT.0));
    }

    #[test]
    fn the_apprentice_joins_the_harvest_only() {
        let (t, links) = (tax(), LinkValue::new());
        let paper = Bingo::harvesting();
        assert!(!paper.uses_link_model() && !paper.backs_off_failing_hosts());
        let h = Bingo::harvesting().with_apprentice();
        assert!(h.uses_link_model() && h.backs_off_failing_hosts());
        // The rule under the link model is the paper's: confidence, halved
        // per tunnelling step.
        match h.expand(&verdict(&t, &links, "OTHERS", Some("db"), 0)) {
            Expansion::Expand { priority, tunnel } => {
                assert_eq!((priority.page, tunnel.off_topic_steps), (0.4, 1));
                assert!(priority.by_link_model && priority.by_host_health);
            }
            Expansion::Prune => panic!("a harvest tunnels"),
        }
        // A hub citation: the paper's highest priority, kept under the
        // link model and host health.
        assert_eq!(paper.hub_citation(&links), LinkPriority::uniform(1.0));
        let cited = h.hub_citation(&links);
        assert!(cited.page == 1.0 && cited.by_link_model && cited.by_host_health);
        // Learning stays the paper's sharp focus.
        let l = Bingo::learning(&[]).with_apprentice();
        assert!(!l.uses_link_model() && !l.backs_off_failing_hosts());
    }

    #[test]
    fn learning_stays_on_the_seeds_domains() {
        let canon = Canonicalizer::default();
        let seed = canon
            .canonicalize("http://www.cs.wisc.edu/~dewitt/")
            .unwrap();
        let p = Bingo::learning(&[seed]);
        let url = |u: &str| canon.canonicalize(u).unwrap();
        assert!(p.follows(&url("http://pages.cs.wisc.edu/papers.html"), ""));
        assert!(!p.follows(&url("http://research.microsoft.com/~gray/"), ""));
        assert!(Bingo::harvesting().follows(&url("http://research.microsoft.com/~gray/"), ""));
    }
}
