//! The websim configuration ([`WebConfig`]): sizes, the topic taxonomy with
//! each topic's role, the text mixture, link parameters and fault hosts.
//! `Default` is the default web (`fixtures/websim/default.toml` mirrors it).

mod defaults;

use defaults::{default_faults, default_topics};
use serde::{Deserialize, Serialize};

use crate::WebsimError;

/// How a topic's pages are placed in the web's link structure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TopicRole {
    /// Topical hosts whose pages cite same-topic pages at a moderate rate.
    #[default]
    Normal,
    /// Pages cite each other heavily across hosts (the cycling case).
    Cooperative,
    /// Pages rarely cite each other; they sit side by side under off-topic
    /// list pages of other hosts and are reached through their parent
    /// topic's directory pages (the mutual-funds case). Needs `host_topic`.
    Competitive,
    /// Target documents behind off-topic paths: institution -> department
    /// -> person -> document (the context-graph case). Needs `home_topic`,
    /// `section_topic` and `person_topic`.
    Context,
    /// Directory hosts whose pages list many pages of `hub_of` across hosts.
    Hub,
    /// A few large off-topic sites linked from everywhere (footers).
    Universal,
    /// Pages only appear on other topics' hosts (host, section or person
    /// topics of competitive and context topics); no hosts of its own.
    Structural,
}

/// One leaf of the taxonomy (its ancestors are implied by the path).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopicSpec {
    /// Slash-separated topic path, e.g. `business/investment/mutual_funds`.
    pub path: String,
    /// Relative share of hosts given to this topic.
    #[serde(default = "one")]
    pub weight: f64,
    /// Link-structure role.
    #[serde(default)]
    pub role: TopicRole,
    /// Competitive: the (structural) topic of the hosts carrying its pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_topic: Option<String>,
    /// Hub: the subtree its directory pages list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hub_of: Option<String>,
    /// Context: topic of the institution home pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home_topic: Option<String>,
    /// Context: topic of the department (section) pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section_topic: Option<String>,
    /// Context: topic of the person pages that link to the documents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person_topic: Option<String>,
}

fn one() -> f64 {
    1.0
}

/// How a page's words are drawn (`docs/websim.md` justifies each value).
///
/// A page mixes its own leaf with 1 to `other_topics` other leaves
/// (siblings most often), in proportions drawn from a Dirichlet with
/// concentration `own_concentration` for its own leaf and
/// `other_concentration` for each other one. A topical word picks a topic
/// by those proportions, then one of the vocabularies on its path by the
/// `level1` : `level2` : `leaf` shares. Content words are bursty: with
/// probability `burst` a word repeats one already on the page (a Pólya
/// urn, the Dirichlet compound multinomial of Madsen et al. 2005).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MixConfig {
    /// Share of background words (function words and general terms) in a
    /// page's body, before the per-page jitter.
    pub background: f64,
    /// Weight of a topic's top-level vocabulary in its words.
    pub level1: f64,
    /// Weight of its second-level vocabulary (shared by siblings).
    pub level2: f64,
    /// Weight of its own leaf vocabulary.
    pub leaf: f64,
    /// Per-page spread of topicality: the topical share is scaled by a
    /// factor drawn uniformly from `[1 - jitter, 1 + jitter]`.
    pub jitter: f64,
    /// Fraction of a leaf's vocabulary ranks borrowed from its siblings'
    /// lists (at about the same rank, so the shared word is about as
    /// likely in both leaves).
    pub sibling_overlap: f64,
    /// A page mixes its own leaf with 1..=`other_topics` other leaves.
    pub other_topics: u32,
    /// Probability that another topic is a sibling of the page's leaf.
    pub other_sibling: f64,
    /// Probability that it is a leaf under the same top-level topic but
    /// another parent (else any leaf of the web).
    pub other_cousin: f64,
    /// Dirichlet concentration of the page's own leaf.
    pub own_concentration: f64,
    /// Dirichlet concentration of each other topic.
    pub other_concentration: f64,
    /// Probability that a content word repeats one already on the page.
    pub burst: f64,
    /// Share of topical words (of the host's main topic) in a host's
    /// template: site slogan, menu, sidebar and footer.
    pub template_topical: f64,
}

impl Default for MixConfig {
    fn default() -> Self {
        Self {
            background: 0.62,
            level1: 0.3,
            level2: 0.35,
            leaf: 0.35,
            jitter: 0.8,
            sibling_overlap: 0.45,
            other_topics: 3,
            other_sibling: 0.5,
            other_cousin: 0.2,
            own_concentration: 1.8,
            other_concentration: 0.6,
            burst: 0.3,
            template_topical: 0.35,
        }
    }
}

/// Parameters of the link generator.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LinkConfig {
    /// Mean number of cross-host links of a leaf page (heavy-tailed).
    pub external_mean: f64,
    /// Probability that a page's external-link focus is its own topic
    /// (normal topics).
    pub self_normal: f64,
    /// Same, cooperative topics.
    pub self_cooperative: f64,
    /// Same, context documents (citations between documents).
    pub self_context: f64,
    /// Probability that the focus is a sibling leaf (else a random page).
    pub sibling: f64,
    /// Probability that an external link follows the page's focus.
    pub focus_stick: f64,
    /// Probability that an external link goes to a universal site.
    pub universal_rate: f64,
    /// Probability that an external link goes to a fault host.
    pub fault_rate: f64,
    /// Probability that a topical external link targets a host's home page.
    pub home_bias: f64,
    /// Zipf exponent of host popularity (authorities).
    pub popularity_exponent: f64,
    /// Number of cross-host links of a hub (directory) page: lower bound.
    pub hub_min: u32,
    /// Upper bound (exclusive) of the hub page link count.
    pub hub_max: u32,
    /// Share of content links to other hosts that are dead, as much of the
    /// real web's are: half point at a page its host no longer has (404),
    /// half at a host that no longer exists (a `.invalid` name, which never
    /// resolves). The link keeps the anchor text it had. Default 0.
    pub dead_cross_host: f64,
}

impl Default for LinkConfig {
    fn default() -> Self {
        Self {
            external_mean: 2.2,
            self_normal: 0.35,
            self_cooperative: 0.75,
            self_context: 0.5,
            sibling: 0.15,
            focus_stick: 0.27,
            universal_rate: 0.1,
            fault_rate: 0.01,
            home_bias: 0.35,
            popularity_exponent: 0.9,
            hub_min: 10,
            hub_max: 30,
            dead_cross_host: 0.0,
        }
    }
}

/// The fault a fault host produces (see `docs/websim.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    /// `/go/K/N`: K redirects (301/302/307/308) ending on a real page.
    RedirectChain,
    /// `/loop/a/N` <-> `/loop/b/N`: a redirect loop.
    RedirectLoop,
    /// Every page answers 404 Not Found.
    NotFound,
    /// Every page answers 410 Gone.
    Gone,
    /// Every page answers 500 Internal Server Error.
    ServerError,
    /// Every page answers 503 with `Retry-After`.
    Unavailable,
    /// Pages (a mirror of a real host) answer after `slow_ms`.
    Slow,
    /// Headers and a first chunk, then the body stalls for `stall_ms`.
    Stall,
    /// The connection is closed without a response.
    Reset,
    /// PDF, JPEG, ZIP and octet-stream bodies (some behind `.html` URLs).
    NonHtml,
    /// An HTML page of `oversized_bytes`.
    Oversized,
    /// A mirror of a real host with malformed HTML.
    Malformed,
    /// A mirror of a real host, always gzip-encoded.
    Gzip,
    /// An infinite calendar: every month links to the next and previous.
    Calendar,
    /// A mirror of a real host whose links carry fresh `?sid=` values.
    SessionId,
    /// A near-duplicate mirror of a real host.
    Mirror,
    /// robots.txt disallows everything (pages are a mirror).
    RobotsForbidden,
}

/// How a broken page of a regular host answers ([`WebConfig::page_faults`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PageFault {
    /// 500 Internal Server Error.
    ServerError,
    /// 503 Service Unavailable with `Retry-After: 1`.
    Unavailable,
    /// Headers and the first bytes of the page, then a stall of `stall_ms`.
    Trickle,
    /// The connection is closed without a response.
    Reset,
}

impl PageFault {
    /// Every kind, in the order a page's hash picks them.
    pub const ALL: [PageFault; 4] = [
        PageFault::ServerError,
        PageFault::Unavailable,
        PageFault::Trickle,
        PageFault::Reset,
    ];
}

/// One fault host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultSpec {
    /// The host name (lower case).
    pub host: String,
    /// The fault it produces.
    pub kind: FaultKind,
}

/// Everything that defines a synthetic web (with the seed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebConfig {
    /// Number of regular pages (fault hosts and services not counted).
    pub pages: u32,
    /// Number of regular hosts (universal sites included).
    pub hosts: u32,
    /// Log-normal sigma of host sizes before scaling to `pages`.
    pub host_size_sigma: f64,
    /// No host holds more than this fraction of the pages.
    pub max_host_share: f64,
    /// Number of universal (linked-from-everywhere) hosts.
    pub universal_hosts: u32,
    /// Fraction of the pages on universal hosts.
    pub universal_share: f64,
    /// Size of the background vocabulary.
    pub background_words: u32,
    /// Size of each topic's vocabulary.
    pub topic_words: u32,
    /// Zipf exponent of term frequencies.
    pub zipf_exponent: f64,
    /// Median number of body words of a page (log-normal).
    pub length_median: f64,
    /// Log-normal sigma of body lengths.
    pub length_sigma: f64,
    /// Text mixture.
    pub mix: MixConfig,
    /// Link generator.
    pub links: LinkConfig,
    /// Host name of the backlink and search services.
    pub search_host: String,
    /// Delay of the `slow` fault, milliseconds.
    pub slow_ms: u64,
    /// Stall of the `stall` fault, milliseconds.
    pub stall_ms: u64,
    /// Body size of the `oversized` fault, bytes.
    pub oversized_bytes: usize,
    /// Fraction of the regular hosts' pages (home pages excepted) that are
    /// broken on a host that is otherwise fine, as on any real site: each
    /// answers 500, or 503 with `Retry-After`, or trickles its first bytes
    /// and stalls, or closes the connection ([`PageFault`]), every time it
    /// is asked. Default 0 (the fault hosts carry the faults); the crawl's
    /// fault-isolation tests turn it on.
    pub page_faults: f64,
    /// The leaves of the taxonomy.
    pub topics: Vec<TopicSpec>,
    /// The fault hosts.
    pub faults: Vec<FaultSpec>,
}

impl WebConfig {
    /// Parse a TOML configuration; `file` names it in errors.
    pub fn from_toml(file: &str, text: &str) -> Result<Self, WebsimError> {
        toml::from_str(text).map_err(|e| WebsimError::Config {
            file: file.to_string(),
            message: e.to_string(),
        })
    }

    /// Check that the numbers describe a web that can be generated.
    pub fn validate(&self) -> Result<(), WebsimError> {
        let unit = |name: &str, v: f64| {
            if (0.0..=1.0).contains(&v) {
                Ok(())
            } else {
                Err(WebsimError::Invalid(format!(
                    "{name} = {v} is not in [0, 1]"
                )))
            }
        };
        unit("max_host_share", self.max_host_share)?;
        unit("page_faults", self.page_faults)?;
        unit("universal_share", self.universal_share)?;
        unit("mix.sibling_overlap", self.mix.sibling_overlap)?;
        unit("mix.jitter", self.mix.jitter)?;
        unit("mix.background", self.mix.background)?;
        unit("mix.other_sibling", self.mix.other_sibling)?;
        unit("mix.other_cousin", self.mix.other_cousin)?;
        unit("mix.burst", self.mix.burst)?;
        unit("mix.template_topical", self.mix.template_topical)?;
        let l = &self.links;
        for (name, v) in [
            ("links.self_normal", l.self_normal),
            ("links.self_cooperative", l.self_cooperative),
            ("links.self_context", l.self_context),
            ("links.sibling", l.sibling),
            ("links.focus_stick", l.focus_stick),
            ("links.universal_rate", l.universal_rate),
            ("links.fault_rate", l.fault_rate),
            ("links.dead_cross_host", l.dead_cross_host),
            ("links.home_bias", l.home_bias),
        ] {
            unit(name, v)?;
        }
        let m = &self.mix;
        let parts = [m.level1, m.level2, m.leaf];
        if parts.iter().any(|p| !p.is_finite() || *p < 0.0) || parts.iter().sum::<f64>() <= 0.0 {
            return Err(WebsimError::Invalid(
                "mix level weights must be >= 0 with a positive sum".into(),
            ));
        }
        if m.other_sibling + m.other_cousin > 1.0
            || m.other_topics > 10
            || [m.own_concentration, m.other_concentration]
                .iter()
                .any(|a| !a.is_finite() || *a <= 0.0)
        {
            return Err(WebsimError::Invalid(
                "mix: other_sibling + other_cousin <= 1, other_topics <= 10, \
                 concentrations > 0"
                    .into(),
            ));
        }
        if self.universal_share > 0.5 || self.max_host_share <= 0.0 {
            return Err(WebsimError::Invalid(
                "need universal_share <= 0.5 and max_host_share > 0".into(),
            ));
        }
        if self.background_words > 200_000 || self.topic_words > 20_000 {
            return Err(WebsimError::Invalid(
                "vocabularies are capped at 200,000 / 20,000 words".into(),
            ));
        }
        let finite = [
            self.host_size_sigma,
            self.zipf_exponent,
            self.length_median,
            self.length_sigma,
            l.external_mean,
            l.popularity_exponent,
        ];
        if finite.iter().any(|v| !v.is_finite() || *v < 0.0) || self.length_median < 1.0 {
            return Err(WebsimError::Invalid(
                "sizes, exponents and lengths must be finite and non-negative".into(),
            ));
        }
        if self.topics.iter().all(|t| {
            t.weight <= 0.0 || matches!(t.role, TopicRole::Structural | TopicRole::Universal)
        }) {
            return Err(WebsimError::Invalid(
                "no topic with hosts of its own has a positive weight".into(),
            ));
        }
        Ok(())
    }

    /// Read and parse a TOML configuration file.
    pub fn load(path: &std::path::Path) -> Result<Self, WebsimError> {
        let text = std::fs::read_to_string(path).map_err(crate::site::io(path))?;
        Self::from_toml(&path.display().to_string(), &text)
    }

    /// This configuration resized to `pages` pages, with at least one host
    /// per 50 pages (as `websim --pages N`): a bigger web of the same
    /// model, whose topics outlast longer crawls.
    #[must_use]
    pub fn with_pages(mut self, pages: u32) -> Self {
        self.pages = pages;
        self.hosts = self.hosts.max(pages / 50).min(pages);
        self
    }

    /// This configuration with `percent` % of every page's cross-host
    /// content links dead (`links.dead_cross_host`; as `websim
    /// --dead-links` and the crawlers' `--websim-dead-links`).
    #[must_use]
    pub fn with_dead_links(mut self, percent: u8) -> Self {
        self.links.dead_cross_host = f64::from(percent) / 100.0;
        self
    }

    /// The small web of `fixtures/websim/small.toml` (about 20,000 pages)
    /// for fast tests.
    pub fn small() -> Self {
        Self {
            pages: 20_000,
            hosts: 500,
            universal_hosts: 6,
            max_host_share: 0.03,
            ..Self::default()
        }
    }

    /// Serialise as TOML (for `fixtures/websim/default.toml`).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }
}

impl Default for WebConfig {
    fn default() -> Self {
        Self {
            pages: 200_000,
            hosts: 4_000,
            host_size_sigma: 1.7,
            max_host_share: 0.008,
            universal_hosts: 12,
            universal_share: 0.03,
            background_words: 6_000,
            topic_words: 300,
            zipf_exponent: 1.0,
            length_median: 125.0,
            length_sigma: 1.55,
            mix: MixConfig::default(),
            links: LinkConfig::default(),
            search_host: "search.websim".to_string(),
            slow_ms: 3_000,
            stall_ms: 120_000,
            oversized_bytes: 12 * 1024 * 1024,
            page_faults: 0.0,
            topics: default_topics(),
            faults: default_faults(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Web;

    #[test]
    fn with_dead_links_takes_a_percentage() {
        let c = WebConfig::default().with_dead_links(80);
        assert!((c.links.dead_cross_host - 0.8).abs() < 1e-12);
        assert_eq!(
            WebConfig::default().with_dead_links(0),
            WebConfig::default()
        );
    }

    #[test]
    fn with_pages_resizes_hosts_as_the_binary_does() {
        let big = WebConfig::default().with_pages(1_000_000);
        assert_eq!((big.pages, big.hosts), (1_000_000, 20_000));
        // Never fewer hosts than configured, never more hosts than pages.
        let mid = WebConfig::default().with_pages(50_000);
        assert_eq!((mid.pages, mid.hosts), (50_000, 4_000));
        let tiny = WebConfig::default().with_pages(1_000);
        assert_eq!((tiny.pages, tiny.hosts), (1_000, 1_000));
        assert!(Web::new(WebConfig::default().with_pages(10), 1).is_err());
    }
}
