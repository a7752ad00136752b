//! The flags of collection synthesis (`collection-synth`, Bergmark 2002)
//! on top of the shared crawl flags, and their typed plan.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use focus_core::Crawler;

use crate::args::CrawlArgs;
use crate::plan::{CrawlPlan, PlanError};

/// Search results per topic that build its centroid: Bergmark took
/// Google's top 7 per topic query.
pub const DEFAULT_RESULTS: usize = 7;
/// Terms kept per centroid (the paper: 20, also 40).
pub const DEFAULT_TERMS: usize = 20;
/// Dictionary terms a page must share to be assigned (the paper: 4).
pub const DEFAULT_MIN_OVERLAP: usize = 4;
/// Seed pages a topic needs for a centroid (the paper: 4).
pub const MIN_SEED_PAGES: usize = 4;
/// Pages of the pre-crawl pass that re-estimates idf (`--idf pre-crawl`).
pub const DEFAULT_IDF_PAGES: u64 = 2_000;

/// Flags of `collection-synth`.
#[derive(Debug, Clone, Args)]
pub struct CollectionArgs {
    /// The shared crawl flags. `--good` names the topics (repeatable) of
    /// the websim or the `--corpus`; without it the websim uses a set of
    /// its leaves and a corpus its 10 largest categories.
    #[command(flatten)]
    pub crawl: CrawlArgs,

    /// Topics, one per line: `NAME<TAB>QUERY` (the query goes to the
    /// search service of the websim or the corpus) or `NAME<TAB>URL URL
    /// ...` (seed pages of the topic); `#` starts a comment. On the
    /// websim or a corpus, a NAME that is one of its topics is judged
    /// against its truth.
    #[arg(long, value_name = "FILE")]
    pub topics: Option<PathBuf>,

    /// Crawl the web (or what `--connect-to` routes to) instead of the
    /// embedded websim: needs `--topics` with seed URLs.
    #[arg(long, conflicts_with = "corpus", requires = "topics")]
    pub web: bool,

    /// Search results per topic whose pages build its centroid.
    #[arg(long, default_value_t = DEFAULT_RESULTS, value_name = "K")]
    pub results: usize,

    /// Terms kept per centroid (the paper compares 20 and 40).
    #[arg(long, default_value_t = DEFAULT_TERMS, value_name = "N")]
    pub terms: usize,

    /// Dictionary terms a page must contain to be assigned to a centroid.
    #[arg(long, default_value_t = DEFAULT_MIN_OVERLAP, value_name = "N")]
    pub min_overlap: usize,

    /// A page correlating at least this much with its best centroid is a
    /// nugget: its links are followed.
    #[arg(long, default_value_t = focus_core::defaults::COLLECTION_THRESHOLD, value_name = "CORR")]
    pub threshold: f64,

    /// Off-topic pages a path may cross before it is abandoned (0: the
    /// links of an off-topic page are never followed).
    #[arg(long, default_value_t = focus_core::defaults::COLLECTION_CUTOFF, value_name = "N")]
    pub cutoff: u8,

    /// Where idf comes from: `seeds` (the centroids' seed pages, the
    /// paper's first crawls) or `pre-crawl` (a breadth-first pass of
    /// `--idf-pages` pages from the seeds first, the paper's §6.4).
    #[arg(long, value_enum, default_value_t = IdfArg::Seeds, value_name = "SOURCE")]
    pub idf: IdfArg,

    /// Pages of the pre-crawl pass of `--idf pre-crawl`.
    #[arg(long, default_value_t = DEFAULT_IDF_PAGES, value_name = "N")]
    pub idf_pages: u64,

    /// A collection holding this many nuggets is full: its centroid makes
    /// no more nuggets. Default: no limit.
    #[arg(long, value_name = "N")]
    pub collection_size: Option<u64>,

    /// Never queue a link whose URL contains this text or whose anchor text
    /// is this text, word for word ignoring case and punctuation: `next`
    /// drops "Next »" links, not "Next generation" (repeatable).
    #[arg(long = "never-follow", value_name = "TEXT")]
    pub never_follow: Vec<String>,
}

/// `--idf`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IdfArg {
    /// idf over the centroids' seed pages.
    Seeds,
    /// idf over a breadth-first pre-crawl.
    PreCrawl,
}

/// Where idf comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdfSource {
    /// The centroids' seed pages.
    Seeds,
    /// A breadth-first pass of this many pages from the seeds.
    PreCrawl(u64),
}

/// A validated collection-synthesis plan.
#[derive(Debug, Clone, PartialEq)]
pub struct CollectionPlan {
    /// The shared crawl plan (its crawler is [`Crawler::Collections`]; its
    /// source's `good` are the topic names, possibly none).
    pub crawl: CrawlPlan,
    /// The topics file, if any.
    pub topics: Option<PathBuf>,
    /// Crawl the web instead of a served site.
    pub web: bool,
    /// Search results per topic.
    pub results: usize,
    /// Terms per centroid.
    pub terms: usize,
    /// Minimum dictionary overlap.
    pub min_overlap: usize,
    /// Nugget threshold.
    pub threshold: f64,
    /// Off-topic steps allowed.
    pub cutoff: u8,
    /// Where idf comes from.
    pub idf: IdfSource,
    /// Nuggets that fill a collection.
    pub collection_size: Option<u64>,
    /// URL texts never followed.
    pub never_follow: Vec<String>,
}

/// Collection-synthesis flags that do not make a crawl.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CollectionPlanError {
    /// A shared flag is wrong.
    #[error(transparent)]
    Crawl(#[from] PlanError),
    /// `--threshold` outside [0, 1].
    #[error("--threshold must be a correlation between 0 and 1, not {0}")]
    Threshold(f64),
    /// `--terms`, `--results` or `--idf-pages` of 0.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    /// `--examples`: centroids come from search results or `--topics`.
    #[error(
        "collection-synth builds its centroids from search results or --topics, not --examples"
    )]
    Examples,
}

impl CollectionArgs {
    /// Validates the flags into a plan.
    pub fn plan(&self) -> Result<CollectionPlan, CollectionPlanError> {
        if !(0.0..=1.0).contains(&self.threshold) {
            return Err(CollectionPlanError::Threshold(self.threshold));
        }
        for (flag, n) in [
            ("--terms", self.terms as u64),
            ("--results", self.results as u64),
            ("--idf-pages", self.idf_pages),
        ] {
            if n == 0 {
                return Err(CollectionPlanError::Zero(flag));
            }
        }
        if self.crawl.examples.is_some() {
            return Err(CollectionPlanError::Examples);
        }
        Ok(CollectionPlan {
            crawl: self.crawl.plan(Crawler::Collections)?,
            topics: self.topics.clone(),
            web: self.web,
            results: self.results,
            terms: self.terms,
            min_overlap: self.min_overlap,
            threshold: self.threshold,
            cutoff: self.cutoff,
            idf: match self.idf {
                IdfArg::Seeds => IdfSource::Seeds,
                IdfArg::PreCrawl => IdfSource::PreCrawl(self.idf_pages),
            },
            collection_size: self.collection_size,
            never_follow: self.never_follow.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TopicSource;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: CollectionArgs,
    }

    fn plan(args: &[&str]) -> Result<CollectionPlan, CollectionPlanError> {
        let mut v = vec!["collection-synth"];
        v.extend_from_slice(args);
        Cli::try_parse_from(v).unwrap().args.plan()
    }

    #[test]
    fn no_arguments_is_the_papers_crawl_on_the_websim() {
        let p = plan(&[]).unwrap();
        assert_eq!(p.crawl.strategy.crawler, Crawler::Collections);
        assert!(matches!(p.crawl.source, TopicSource::Websim { .. }));
        assert_eq!((p.terms, p.min_overlap, p.results), (20, 4, 7));
        assert_eq!((p.threshold, p.cutoff), (0.3, 0));
        assert_eq!(p.idf, IdfSource::Seeds);
    }

    #[test]
    fn a_corpus_needs_no_good_topic_here() {
        let p = plan(&["--corpus", "c", "--idf", "pre-crawl", "--terms", "40"]).unwrap();
        assert!(matches!(&p.crawl.source, TopicSource::Corpus { good, .. } if good.is_empty()));
        assert_eq!(p.idf, IdfSource::PreCrawl(DEFAULT_IDF_PAGES));
        assert_eq!(p.terms, 40);
    }

    #[test]
    fn bad_flags_are_refused() {
        assert_eq!(
            plan(&["--threshold", "1.5"]),
            Err(CollectionPlanError::Threshold(1.5))
        );
        assert_eq!(
            plan(&["--terms", "0"]),
            Err(CollectionPlanError::Zero("--terms"))
        );
        assert_eq!(
            plan(&["--examples", "e", "--seeds", "s", "--good", "a"]),
            Err(CollectionPlanError::Examples)
        );
        assert!(
            Cli::try_parse_from(["c", "--web"]).is_err(),
            "--web needs --topics"
        );
    }
}
