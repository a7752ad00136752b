//! The flags of the context-focused crawler (`context-graph`, Diligenti
//! et al. 2000) on top of the shared crawl flags, and their typed plan.

use std::path::PathBuf;

use clap::Args;
use focus_core::Crawler;

use crate::args::CrawlArgs;
use crate::plan::{CrawlPlan, PlanError};

/// Layers of each context graph beyond its target (the paper: 4).
pub const DEFAULT_DEPTH: usize = 4;
/// Pages kept per layer, sampled past it (the paper: 300).
pub const DEFAULT_LAYER_CAP: usize = 300;
/// Target documents, each the centre of a context graph (the paper: 10).
pub const DEFAULT_TARGETS: usize = 10;
/// Pages of the breadth-first pass whose documents are the reference
/// corpus of the TF-IDF weights.
pub const DEFAULT_REFERENCE_PAGES: u64 = 500;

/// Flags of `context-graph`.
#[derive(Debug, Clone, Args)]
pub struct ContextArgs {
    /// The shared crawl flags (`--good` names the target topic).
    #[command(flatten)]
    pub crawl: CrawlArgs,

    /// Layers of each context graph beyond its target page.
    #[arg(long, default_value_t = DEFAULT_DEPTH, value_name = "N")]
    pub depth: usize,

    /// Pages kept per layer of the merged graph (a seeded sample past it).
    #[arg(long, default_value_t = DEFAULT_LAYER_CAP, value_name = "N")]
    pub layer_cap: usize,

    /// Target pages of the good topic whose context graphs are built.
    #[arg(long, default_value_t = DEFAULT_TARGETS, value_name = "N")]
    pub targets: usize,

    /// Pages of the breadth-first pass from the seeds that is the
    /// reference corpus of the TF-IDF weights.
    #[arg(long, default_value_t = DEFAULT_REFERENCE_PAGES, value_name = "N")]
    pub reference_pages: u64,

    /// Target pages, one URL per line (`#` comments), instead of
    /// `--targets` pages sampled from the good topic.
    #[arg(long, value_name = "FILE")]
    pub targets_file: Option<PathBuf>,

    /// Run the paper's "standard focused crawler" instead: best first by
    /// the layer-0 (target) classifier's likelihood, no context layers.
    #[arg(long, conflicts_with = "baseline")]
    pub standard: bool,

    /// Backlink expansion (the paper's Fig. 6 variant): ask for the
    /// parents of each page judged on-topic as it is found, up to N
    /// requests in the crawl, and queue them with the page's priority.
    /// 0: off, the paper's default crawler.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub backlink_requests: u64,

    /// Links as `SOURCE TARGET` lines (`#` comments), the backlink source
    /// instead of the web's backlink service: for the back-crawl and the
    /// backlink expansion. Needed with `--examples`.
    #[arg(long, value_name = "FILE")]
    pub backlinks_file: Option<PathBuf>,

    /// Rebuild the context graphs and the layer models every N pages from
    /// the targets found so far (the pages judged on-topic, at most
    /// `--targets` new ones each time), then go on crawling.
    #[arg(long, value_name = "N")]
    pub rebuild_every: Option<u64>,
}

/// A validated context-graph plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextPlan {
    /// The shared crawl plan: crawler [`Crawler::Context`], or
    /// [`Crawler::BestFirst`] (`--standard`), or a `--baseline`.
    pub crawl: CrawlPlan,
    /// Layers beyond the targets.
    pub depth: usize,
    /// Pages per layer.
    pub layer_cap: usize,
    /// Target pages.
    pub targets: usize,
    /// Reference-pass pages.
    pub reference_pages: u64,
    /// A file of target URLs (else sampled from the good topic).
    pub targets_file: Option<PathBuf>,
    /// Backlink requests of the backlink expansion (0: off).
    pub backlink_requests: u64,
    /// A file of links as the backlink source (else the web's service).
    pub backlinks_file: Option<PathBuf>,
    /// Pages between rebuilds of the context graphs (none: never).
    pub rebuild_every: Option<u64>,
}

impl ContextPlan {
    /// The paper's settings (depth 4, 300 pages per layer, 10 targets,
    /// no backlink expansion, no rebuild) around `crawl`.
    pub fn new(crawl: CrawlPlan) -> Self {
        Self {
            crawl,
            depth: DEFAULT_DEPTH,
            layer_cap: DEFAULT_LAYER_CAP,
            targets: DEFAULT_TARGETS,
            reference_pages: DEFAULT_REFERENCE_PAGES,
            targets_file: None,
            backlink_requests: 0,
            backlinks_file: None,
            rebuild_every: None,
        }
    }
}

/// Context-graph flags that do not make a crawl.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ContextPlanError {
    /// A shared flag is wrong.
    #[error(transparent)]
    Crawl(#[from] PlanError),
    /// A count of 0.
    #[error("{0} must be at least 1")]
    Zero(&'static str),
    /// `--examples` without a file of links: the back-crawl needs a
    /// backlink source.
    #[error("context-graph back-crawls through a backlink source: with --examples give --backlinks-file FILE (links as `SOURCE TARGET` lines); the websim and --corpus have a backlink service")]
    Examples,
}

impl ContextArgs {
    /// Validates the flags into a plan.
    pub fn plan(&self) -> Result<ContextPlan, ContextPlanError> {
        for (flag, n) in [
            ("--depth", self.depth as u64),
            ("--layer-cap", self.layer_cap as u64),
            ("--targets", self.targets as u64),
            ("--reference-pages", self.reference_pages),
            ("--rebuild-every", self.rebuild_every.unwrap_or(1)),
        ] {
            if n == 0 {
                return Err(ContextPlanError::Zero(flag));
            }
        }
        if self.crawl.examples.is_some() && self.backlinks_file.is_none() {
            return Err(ContextPlanError::Examples);
        }
        let own = if self.standard {
            Crawler::BestFirst
        } else {
            Crawler::Context
        };
        Ok(ContextPlan {
            crawl: self.crawl.plan(own)?,
            depth: self.depth,
            layer_cap: self.layer_cap,
            targets: self.targets,
            reference_pages: self.reference_pages,
            targets_file: self.targets_file.clone(),
            backlink_requests: self.backlink_requests,
            backlinks_file: self.backlinks_file.clone(),
            rebuild_every: self.rebuild_every,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: ContextArgs,
    }

    fn plan(args: &[&str]) -> Result<ContextPlan, ContextPlanError> {
        let mut v = vec!["context-graph"];
        v.extend_from_slice(args);
        Cli::try_parse_from(v).unwrap().args.plan()
    }

    #[test]
    fn the_papers_settings_by_default() {
        let p = plan(&[]).unwrap();
        assert_eq!(p.crawl.strategy.crawler, Crawler::Context);
        assert_eq!((p.depth, p.layer_cap, p.targets), (4, 300, 10));
        assert_eq!(
            plan(&["--depth", "0"]),
            Err(ContextPlanError::Zero("--depth"))
        );
        let standard = plan(&["--standard"]).unwrap();
        assert_eq!(standard.crawl.strategy.crawler, Crawler::BestFirst);
        let bfs = plan(&["--baseline", "bfs"]).unwrap();
        assert_eq!(bfs.crawl.strategy.crawler, Crawler::BreadthFirst);
        assert_eq!(
            plan(&["--examples", "e", "--seeds", "s", "--good", "a"]),
            Err(ContextPlanError::Examples)
        );
        assert_eq!((p.backlink_requests, p.rebuild_every), (0, None));
        assert_eq!(
            ContextPlan::new(p.crawl.clone()),
            p,
            "the flags' defaults are the paper's"
        );
    }

    #[test]
    fn backlinks_and_rebuilds_are_asked_for() {
        let p = plan(&[
            "--examples",
            "e",
            "--seeds",
            "s",
            "--good",
            "a",
            "--backlinks-file",
            "links.txt",
            "--backlink-requests",
            "50",
            "--rebuild-every",
            "500",
        ])
        .unwrap();
        assert_eq!(p.backlinks_file, Some(PathBuf::from("links.txt")));
        assert_eq!((p.backlink_requests, p.rebuild_every), (50, Some(500)));
        assert_eq!(
            plan(&["--rebuild-every", "0"]),
            Err(ContextPlanError::Zero("--rebuild-every"))
        );
    }
}
