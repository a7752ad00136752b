//! The names of crawl strategies: which crawler runs (its focus rule, and
//! with it the frontier order) and how batches are dispatched, plus the
//! defaults every crawl starts from. Data only: `focus-cli` chooses a
//! [`Strategy`] from flags, `focus-crawl` maps its [`Crawler`] to a policy,
//! the summary reports it. A new crawler is a new [`Crawler`] variant, its
//! policy and a binary; the engine's loop does not change.

use serde::{Deserialize, Serialize};

/// How soft focus breaks ties between URLs of equal relevance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SoftOrder {
    /// The VLDB 1999 paper's key: hosts fetched least first (`serverload`).
    #[default]
    Vldb,
    /// The WWW 1999 paper's order: first come, first served.
    Www,
}

/// The priority soft focus gives a page's outlinks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChildPriority {
    /// [`ChildPriority::Apprentice`], with the page's evidence in the rule
    /// floored at half its TF-IDF centroid cosine to the good topics
    /// (Bergmark's similarity, trained on the same examples): an off-topic
    /// page that reads like the topic passes more on to its links, and
    /// every page the classifier judges relevant (R ≥ ½) still comes first.
    #[default]
    CentroidFloor,
    /// [`ChildPriority::Learnt`] blended with an online link model (the
    /// link's anchor, context and URL words, the parent's relevance and
    /// class, the host relation) trained on the crawl's own judgements of
    /// the pages its links led to; the project's default before the
    /// centroid floor.
    Apprentice,
    /// The parent's relevance scaled by what links of the same kind (same
    /// site or cross site) from relevant pages have yielded in the crawl,
    /// and by how the link's host and site have answered (hosts that
    /// answer only errors sink); the project's default before the link
    /// model.
    Learnt,
    /// The link-kind scaling of [`ChildPriority::Learnt`] without the
    /// host answers (the project's default before host health).
    LinkKinds,
    /// The parent's relevance, as both 1999 papers give it.
    Paper,
}

/// Which crawler runs: the rule that decides whether a page's outlinks are
/// queued, with which priority, and in which frontier order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crawler {
    /// Chakrabarti et al.'s soft focus: every page expanded, children
    /// ordered by their parent's relevance.
    Soft {
        /// Tie-break order.
        order: SoftOrder,
        /// Child priority.
        priority: ChildPriority,
    },
    /// Chakrabarti et al.'s hard focus: only pages whose best leaf has a
    /// good ancestor are expanded.
    Hard,
    /// Baseline: breadth-first, every page expanded.
    BreadthFirst,
    /// Baseline: seeded random order (the 1999 papers' "unfocused").
    Random,
    /// Diligenti et al.'s "standard focused" crawler: best first by the
    /// parent's classifier score.
    BestFirst,
    /// Bergmark's collection synthesis: first come first served, a page's
    /// links followed when its correlation with its best centroid reaches
    /// the threshold, or along at most `cutoff` off-topic pages (the
    /// paper's defaults; `collection-synth` sets its own).
    Collections,
    /// Diligenti et al.'s context-focused crawler: a page's links are
    /// followed in the order of the queue (context-graph layer, then
    /// "other") its per-layer classifier puts it in, by likelihood.
    Context,
    /// BINGO!'s harvesting phase (after its learning phase): pages of any
    /// user topic expanded, URLs by classifier confidence, tunnelling with
    /// priority decay (`bingo` runs both phases).
    Bingo {
        /// Child priority: [`ChildPriority::Paper`] is the paper's;
        /// [`ChildPriority::Apprentice`] (the default) blends the online
        /// link model and host health into it while harvesting, and its SVMs
        /// give the pages they reject a Platt-calibrated relevance below ½
        /// (the link model's labels and the rule's order among them)
        /// instead of 0. The
        /// link-kind rules are soft focus's (read as the paper's here).
        priority: ChildPriority,
    },
}

impl Crawler {
    /// Soft focus with the defaults (VLDB order, the apprentice's child
    /// priority with the centroid floor).
    pub const SOFT: Crawler = Crawler::Soft {
        order: SoftOrder::Vldb,
        priority: ChildPriority::CentroidFloor,
    };

    /// BINGO! with the defaults: the apprentice's child priority, which
    /// found more than the paper's at 500 and 1,000 pages on the real
    /// corpus (`docs/bingo.md`).
    pub const BINGO: Crawler = Crawler::Bingo {
        priority: ChildPriority::Apprentice,
    };

    /// BINGO! as the paper gives it (`bingo --child-priority paper`): what
    /// the reproductions run.
    pub const BINGO_PAPER: Crawler = Crawler::Bingo {
        priority: ChildPriority::Paper,
    };

    /// Whether this is a baseline order rather than a focus rule.
    pub fn is_baseline(self) -> bool {
        matches!(self, Crawler::BreadthFirst | Crawler::Random)
    }
}

/// Which URLs fill a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dispatch {
    /// Only URLs at least as promising as the recent harvest (the moving
    /// average of relevance) while there are any; a promising URL's host
    /// (cooling, or with every connection busy) is waited for rather than
    /// a fetch spent on a worse URL.
    #[default]
    Promising,
    /// Every batch filled with the best ready URLs however poor
    /// (throughput first, as general crawlers do).
    Fill,
}

/// How the crawl keeps its fetches going.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flow {
    /// Batches on a logical clock: a batch of URLs is popped, fetched and
    /// applied in pop order, and the next is popped when the last page is
    /// applied, so the same seed gives the same crawl page for page; a
    /// batch lasts as long as its slowest fetch.
    #[default]
    Batches,
    /// A stream on the real clock: a URL is popped whenever one of the
    /// batch's slots is free, and each page is applied as it arrives, so
    /// a slow fetch holds only its own slot; the order then depends on
    /// how fetches interleave (not reproducible page for page).
    Stream,
}

/// How the classifier turns a page into its relevance R.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Relevance {
    /// Naive Bayes posteriors with the word evidence tempered by a
    /// length-dependent weight fitted on the examples, so R ranks and is
    /// calibrated on real pages.
    #[default]
    Tempered,
    /// The papers' exact naive Bayes posterior (0 or 1 to many decimal
    /// places on real pages); the reproductions use it.
    Exact,
}

/// A crawl strategy: the crawler, its dispatch rule and its relevance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strategy {
    /// Which crawler runs.
    pub crawler: Crawler,
    /// Which URLs fill a batch.
    pub dispatch: Dispatch,
    /// How a page's relevance is computed.
    pub relevance: Relevance,
}

impl Strategy {
    /// `crawler` with the default dispatch and relevance.
    pub const fn of(crawler: Crawler) -> Self {
        Self {
            crawler,
            dispatch: Dispatch::Promising,
            relevance: Relevance::Tempered,
        }
    }

    /// `crawler` as the papers ran it: the default dispatch and the exact
    /// posterior.
    pub const fn paper(crawler: Crawler) -> Self {
        Self {
            relevance: Relevance::Exact,
            ..Self::of(crawler)
        }
    }
}

/// The defaults every crawl starts from, whether built from flags
/// (`focus-cli`) or in code (`focus-crawl`'s `CrawlConfig::new`).
pub mod defaults {
    /// Fetch attempts of a crawl.
    pub const MAX_PAGES: u64 = 5000;
    /// URLs fetched at once (one batch).
    pub const BATCH: usize = 32;
    /// Pages between two distillations.
    pub const DISTILL_EVERY: u64 = 1000;
    /// Hubs above this percentile have their unvisited citations raised.
    pub const HUB_PERCENTILE: f64 = 90.0;
    /// Pages in the harvest rate's moving average.
    pub const HARVEST_WINDOW: usize = 100;
    /// Seed of every random choice.
    pub const SEED: u64 = 1;
    /// Attempts at one URL before a transient failure (5xx, 429, a
    /// timeout, a refused or broken connection) abandons it.
    pub const MAX_TRIES: u32 = 3;
    /// Collection synthesis: a page correlating at least this much with
    /// its best centroid is a nugget (Bergmark: 0.3 separates "could be
    /// relevant" from "probably not").
    pub const COLLECTION_THRESHOLD: f64 = 0.3;
    /// Collection synthesis: off-topic pages a path may cross (Bergmark:
    /// "so far 0 is looking best").
    pub const COLLECTION_CUTOFF: u8 = 0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategies_name_themselves_in_json() {
        let s = Strategy::of(Crawler::SOFT);
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(
            json,
            r#"{"crawler":{"soft":{"order":"vldb","priority":"centroid_floor"}},"dispatch":"promising","relevance":"tempered"}"#
        );
        let back: Strategy = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s);
        assert!(Crawler::Random.is_baseline() && !Crawler::Hard.is_baseline());
    }
}

/// One of BINGO!'s feature spaces (§3.4), named on the command line
/// (`bingo --spaces`). The classifier crate computes and separates them.
/// Every space but [`FeatureSpace::Anchors`] is computed from the fetched
/// page alone; that one also reads what the crawl knows of the page's
/// in-links when it judges the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FeatureSpace {
    /// Single terms of title, headings and main text (every classifier's
    /// space).
    Terms,
    /// Unordered pairs of terms within a few tokens of each other.
    TermPairs,
    /// The terms of the page's neighbours as the page names them: the
    /// anchor texts of its out-links (its successors' descriptions; the
    /// successors themselves are not fetched when a page is judged).
    Neighbours,
    /// The page's terms combined with the terms of its predecessors'
    /// anchor texts: the anchors of the links to the page from pages the
    /// crawl fetched before it ("anchor terms of predecessors" as a
    /// component of a combined space, §3.4). A page nobody has linked to
    /// yet (a seed, a training page) has only its terms here.
    Anchors,
}

impl FeatureSpace {
    /// Every space.
    pub const ALL: [FeatureSpace; 4] = [
        Self::Terms,
        Self::TermPairs,
        Self::Neighbours,
        Self::Anchors,
    ];

    /// The space's name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Self::Terms => "terms",
            Self::TermPairs => "pairs",
            Self::Neighbours => "neighbours",
            Self::Anchors => "anchors",
        }
    }

    /// The space named `name` ([`FeatureSpace::name`]).
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}
