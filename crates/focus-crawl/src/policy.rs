//! Crawl policies: the personality of a crawler. Given a judged page, a
//! policy decides whether its outlinks enter the frontier, with which
//! priority, and which frontier order the crawl uses.
//!
//! | policy | paper | expands | child priority | order |
//! |---|---|---|---|---|
//! | [`SoftFocus::default`] | Chakrabarti 1999 + the apprentice (WWW 2002), learnt link kinds, host health and the centroid floor | every page | max(R, cos/2)(parent) × link kind factor ([`crate::link_value`]), or'ed with the link model's score of the link ([`crate::apprentice`]), × host health factor ([`crate::host_health`]), max over paths; cos is the parent's centroid cosine to the good topics ([`PageVerdict::similarity`]) | (numtries ↑, R ↓, serverload ↑) |
//! | `SoftFocus::VLDB.with_learnt_links().with_host_health().with_link_model()` | the previous default | every page | R(parent) × link kind factor, or'ed with the link model's score, × host health factor | (numtries ↑, R ↓, serverload ↑) |
//! | `SoftFocus::VLDB.with_learnt_links().with_host_health()` | the default before the link model | every page | R(parent) × link kind factor × host health factor | (numtries ↑, R ↓, serverload ↑) |
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

mod baselines;
mod chakrabarti;

pub use baselines::{BestFirst, BreadthFirst, RandomOrder};
pub use chakrabarti::{HardFocus, SoftFocus};

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
    /// The page's similarity to the good topics in [0, 1] (the crawl's
    /// [`crate::Parts::similarity`], the TF-IDF centroid cosine in the
    /// applications); 0 when the policy does not ask for it
    /// ([`Policy::uses_similarity`]) or the crawl has no similarity model.
    pub similarity: f64,
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
            similarity: 0.0,
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
    /// Whether the judge computes each page's [`PageVerdict::similarity`]
    /// for this policy (one more model per page); none but the default
    /// soft rule does.
    fn uses_similarity(&self) -> bool {
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
                ChildPriority::CentroidFloor => paper
                    .with_learnt_links()
                    .with_host_health()
                    .with_link_model()
                    .with_centroid_floor(),
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

/// The taxonomy of the policies' tests: recreation/cycling (good, with
/// racing and touring) and recreation/hiking.
#[cfg(test)]
pub(crate) fn test_taxonomy() -> Taxonomy {
    focus_core::TaxonomyBuilder::new()
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
