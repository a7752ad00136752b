//! Crawl policies: the personality of a crawler. Given a judged page, a
//! policy decides whether its outlinks enter the frontier, with which
//! priority, and which frontier order the crawl uses.
//!
//! | policy | paper | expands | child priority | order |
//! |---|---|---|---|---|
//! | [`SoftFocus::default`] | Chakrabarti 1999 + the apprentice (WWW 2002), learnt link kinds and host health | every page | R(parent) × link kind factor ([`crate::link_value`]), or'ed with the link model's score of the link ([`crate::apprentice`]), × host health factor ([`crate::host_health`]), max over paths | (numtries ↑, R ↓, serverload ↑) |
//! | `SoftFocus::VLDB.with_learnt_links().with_host_health()` | the previous default | every page | R(parent) × link kind factor × host health factor | (numtries ↑, R ↓, serverload ↑) |
//! | [`SoftFocus::VLDB`] | Chakrabarti 1999, VLDB paper | every page | R(parent), max over paths | (numtries ↑, R ↓, serverload ↑) |
//! | [`SoftFocus::WWW`] | Chakrabarti 1999, WWW paper | every page | R(parent), max over paths | (numtries ↑, R ↓), ties by arrival |
//! | [`HardFocus`] | Chakrabarti 1999 | best leaf has a good ancestor-or-self | R(parent) (measurement only) | (numtries ↑, arbitrary) |
//! | [`BreadthFirst`] | baseline | every page | — | FIFO by depth |
//! | [`RandomOrder`] | 1999 "unfocused" | every page | — | seeded random |
//! | [`BestFirst`] | Diligenti's "standard focused" | every page | classifier score of the parent | score ↓ |
//! | [`ContextFocused`] | Diligenti et al. 2000 | every page | (N + 1 − queue) + likelihood: the page's context-graph layer, or "other", then its likelihood | priority ↓ (the N+2 queues as one order) |
//! | [`crate::bingo::Bingo`] learning | BINGO! 2003 | pages of a user topic whose parent is in the same topic (sharp focus) on the seeds' domains, and pages within `max_tunnel` steps of one | relevance, halved per off-topic step | last come first served (depth first) |
//! | [`crate::bingo::Bingo`] harvesting | BINGO! 2003 | pages of any user topic (soft focus), and pages within `max_tunnel` steps of one | relevance, halved per off-topic step | priority ↓ |
//! | [`CollectionSynthesis`] | Bergmark 2002 | nuggets (correlation ≥ threshold, collection not full), and off-topic pages within `cutoff` steps of one | correlation, halved per off-topic step | FIFO by depth (Mercator) |

use focus_core::{CanonicalUrl, ChildPriority, Crawler, SoftOrder, Taxonomy, TopicId};
use focus_frontier::{TopicCaps, TunnelState};

use crate::collections::CollectionSynthesis;
use crate::context_graph::ContextFocused;
use crate::link_value::{LinkKind, LinkValue};

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
    /// Last come, first served.
    DepthFirst,
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
    /// What links of each kind have been worth in this crawl so far.
    pub links: &'a LinkValue,
    /// The page's own path state: off-topic pages crossed since the last
    /// relevant page on the path that led to it.
    pub tunnel: TunnelState,
    /// The classifier's per-class scores, highest first (empty when the
    /// classifier gives none).
    pub scores: &'a [(TopicId, f64)],
    /// The best leaf of the page this one was found on (`None` for a seed
    /// or an unclassified parent).
    pub parent_best: Option<TopicId>,
}

#[cfg(test)]
impl<'a> PageVerdict<'a> {
    /// A verdict for policy tests: a seed page of `relevance` classified
    /// `best` (a path of `taxonomy`), at `steps` off-topic steps, without
    /// scores.
    pub(crate) fn of_test(
        taxonomy: &'a Taxonomy,
        links: &'a LinkValue,
        best: &str,
        relevance: f64,
        steps: u8,
    ) -> Self {
        PageVerdict {
            relevance,
            best_leaf: taxonomy.find(best),
            taxonomy,
            links,
            tunnel: TunnelState {
                off_topic_steps: steps,
            },
            scores: &[],
            parent_best: None,
        }
    }
}

/// The priority of a page's outlinks: the page's evidence, scaled by link
/// kind.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LinkPriority {
    /// The rule's evidence from the citing page (its relevance R for soft
    /// focus).
    pub page: f64,
    /// The factor of links to the page's own site (registered domain).
    pub same_site: f64,
    /// The factor of links to other sites.
    pub cross_site: f64,
    /// Whether a link's priority is also scaled by how its host and site
    /// have answered so far ([`crate::host_health`]): hosts that answer
    /// only errors sink. The papers' own rules leave it off.
    pub by_host_health: bool,
    /// Whether the link model combines its score of the link with the
    /// page's evidence ([`crate::apprentice`]). The papers' own rules leave
    /// it off.
    pub by_link_model: bool,
}

impl LinkPriority {
    /// The same priority for every outlink.
    pub fn uniform(p: f64) -> Self {
        Self {
            page: p,
            same_site: 1.0,
            cross_site: 1.0,
            by_host_health: false,
            by_link_model: false,
        }
    }

    /// The priority of a link of `kind`: the page's evidence times the
    /// kind's factor (the rule), combined with the link's own evidence by
    /// `link_model` (asked only when `by_link_model`), times its host's
    /// health factor in (0, 1] (asked only when `by_host_health`).
    ///
    /// The link model joins the rule after the kind factor: scaling the
    /// model's score by the kind factor too was measured worse on
    /// Wikispeedia and on the websim with four in five cross-host links
    /// dead (issue 21's note).
    pub fn of(
        &self,
        kind: LinkKind,
        link_model: impl FnOnce(f64) -> f64,
        host_factor: impl FnOnce() -> f64,
    ) -> f64 {
        let rule = self.page
            * match kind {
                LinkKind::SameSite => self.same_site,
                LinkKind::CrossSite => self.cross_site,
            };
        let mut p = if self.by_link_model {
            link_model(rule)
        } else {
            rule
        };
        if self.by_host_health {
            p *= host_factor();
        }
        p
    }
}

/// What happens to a page's outlinks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Expansion {
    /// Outlinks are not queued (hard focus pruning).
    Prune,
    /// Outlinks are queued with this priority (higher is sooner).
    Expand {
        /// The priority of each outlink (higher is sooner).
        priority: LinkPriority,
        /// The path state each outlink carries: off-topic steps since the
        /// last relevant page (0 unless the policy tunnels).
        tunnel: TunnelState,
    },
}

impl Expansion {
    /// Outlinks queued with `priority`, on a path that does not tunnel.
    pub fn expand(priority: LinkPriority) -> Self {
        Expansion::Expand {
            priority,
            tunnel: TunnelState::default(),
        }
    }
}

/// A crawler's personality.
pub trait Policy: Send + Sync {
    /// Short name used in reports and output files.
    fn name(&self) -> &'static str;
    /// The frontier order this policy needs.
    fn order(&self) -> Order;
    /// Whether the periodic distiller raises hub citations for this crawl.
    fn uses_distiller(&self) -> bool;
    /// The rule that raises an unvisited page cited by one of the
    /// distiller's top hubs: the rule of a link from a page of the highest
    /// evidence (R = 1), given what links of each kind have been worth
    /// (`links`). A citation is raised to it, never lowered. By default
    /// the highest priority, 1, as the 1999 papers raise hub citations
    /// (their rule is R itself); a rule with learnt link kinds, the link
    /// model or host health keeps them, so a citation of a kind of link,
    /// a link or a host the crawl has learnt to expect nothing from is
    /// raised less.
    fn hub_citation(&self, _links: &LinkValue) -> LinkPriority {
        LinkPriority::uniform(1.0)
    }
    /// The decision for one judged page.
    fn expand(&self, page: &PageVerdict<'_>) -> Expansion;
    /// Whether a host that fails waits before its next try
    /// ([`crate::host_health::HostHealth::backoff_ms`]); the papers' rules
    /// and the baselines do not.
    fn backs_off_failing_hosts(&self) -> bool {
        false
    }
    /// Whether the crawl keeps link features and trains the link model
    /// ([`crate::apprentice`]); the papers' rules and the baselines do not.
    fn uses_link_model(&self) -> bool {
        false
    }
    /// Whether a page that answers "gone" on a host that has served no
    /// page sends the crawl to the host's root ([`crate::ascent`]): the
    /// policies that learn from failures (host health) and keep link
    /// features for the root's lesson (the link model).
    fn ascends_dead_links(&self) -> bool {
        self.uses_link_model() && self.backs_off_failing_hosts()
    }
    /// Whether a link to `url` with anchor text `anchor` may be followed
    /// at all (a crawler's list of links never to follow or URLs never to
    /// download); every link by default.
    fn follows(&self, _url: &CanonicalUrl, _anchor: &str) -> bool {
        true
    }
    /// Bounded per-topic queues for the frontier (BINGO!'s), the topic of a
    /// link being [`Policy::queue_of`] its page; none by default.
    fn topic_caps(&self) -> Option<TopicCaps> {
        None
    }
    /// The topic queue the links of `page` join (`Candidate::layer`); used
    /// only with [`Policy::topic_caps`].
    fn queue_of(&self, _page: &PageVerdict<'_>) -> Option<u32> {
        None
    }
}

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
}

impl SoftFocus {
    /// (numtries ↑, R ↓, serverload ↑): the VLDB 1999 paper; the default.
    pub const VLDB: SoftFocus = SoftFocus {
        order: Order::Lexicographic,
        learnt_links: false,
        host_health: false,
        link_model: false,
    };
    /// (numtries ↑, R ↓), ties by arrival: the WWW 1999 paper.
    pub const WWW: SoftFocus = SoftFocus {
        order: Order::NumtriesPriority,
        learnt_links: false,
        host_health: false,
        link_model: false,
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
}

impl Default for SoftFocus {
    /// The VLDB order with the link model, learnt link kinds and host
    /// health: the project's soft crawl.
    fn default() -> Self {
        Self::VLDB
            .with_learnt_links()
            .with_host_health()
            .with_link_model()
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
    fn hub_citation(&self, links: &LinkValue) -> LinkPriority {
        self.rule(1.0, links)
    }
    fn expand(&self, page: &PageVerdict<'_>) -> Expansion {
        Expansion::expand(self.rule(page.relevance.clamp(0.0, 1.0), page.links))
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

/// The policy a [`Crawler`] names.
pub fn for_crawler(crawler: Crawler) -> Box<dyn Policy> {
    match crawler {
        Crawler::Soft { order, priority } => {
            let paper = match order {
                SoftOrder::Vldb => SoftFocus::VLDB,
                SoftOrder::Www => SoftFocus::WWW,
            };
            Box::new(match priority {
                ChildPriority::Paper => paper,
                ChildPriority::Apprentice => paper
                    .with_learnt_links()
                    .with_host_health()
                    .with_link_model(),
                ChildPriority::Learnt => paper.with_learnt_links().with_host_health(),
                ChildPriority::LinkKinds => paper.with_learnt_links(),
            })
        }
        Crawler::Hard => Box::new(HardFocus),
        Crawler::BreadthFirst => Box::new(BreadthFirst),
        Crawler::Random => Box::new(RandomOrder),
        Crawler::BestFirst => Box::new(BestFirst),
        Crawler::Collections => Box::new(CollectionSynthesis::default()),
        Crawler::Context => Box::new(ContextFocused::with_depth(crate::context_graph::DEPTH)),
        Crawler::Bingo { priority } => {
            let bingo = crate::bingo::Bingo::harvesting();
            Box::new(match priority {
                ChildPriority::Apprentice => bingo.with_apprentice(),
                _ => bingo,
            })
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
        let links = LinkValue::new();
        let v = |best_leaf| PageVerdict {
            relevance: 0.4,
            best_leaf,
            taxonomy: &t,
            links: &links,
            tunnel: TunnelState::default(),
            scores: &[],
            parent_best: None,
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
