//! A breadth-first pass that keeps the term counts of every page it
//! analyses: the statistics crawl of collection synthesis (its idf
//! re-estimate) and of the context-focused crawler (its reference corpus).
//! Also the one way a composed crawl runs behind the progress bar.

use std::sync::{Arc, Mutex};

use focus_classify::{Classifier, Featurizer, Judgement};
use focus_cli::CrawlPlan;
use focus_core::{CanonicalUrl, Dispatch, Taxonomy};
use focus_crawl::policy::BreadthFirst;
use focus_crawl::{CrawlConfig, Parts};
use focus_eval::Summary;
use focus_fetch::Fetcher;
use focus_text::SparseVec;

use crate::progress::Bar;
use crate::setup::{crawl_config, AppError};
use crate::stop::Running;

/// Runs a crawl behind the terminal progress bar, stopped by a stop
/// request (`crate::stop`); none starts once a stop was asked for.
pub(crate) async fn run_with_bar(parts: Parts, cfg: CrawlConfig) -> Result<Summary, AppError> {
    let _running = Running::start(&cfg.stop, &cfg.out)?;
    let mut bar = Bar::new(cfg.max_pages);
    let summary = focus_crawl::run(parts, cfg, &mut bar).await;
    bar.finish();
    Ok(summary?)
}

/// A classifier that keeps every document it is shown and judges it as
/// `inner` does (or not at all). The documents come in the order the
/// pipeline's threads hand them in; statistics over them (document
/// frequencies) do not depend on it.
struct Keeping {
    inner: Option<Arc<dyn Classifier>>,
    docs: Mutex<Vec<SparseVec>>,
}

impl Classifier for Keeping {
    fn classify(&self, counts: &SparseVec) -> Judgement {
        self.docs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(counts.clone());
        match &self.inner {
            Some(c) => c.classify(counts),
            None => Judgement {
                relevance: 0.0,
                best: None,
                scores: Vec::new(),
            },
        }
    }
}

/// What a pass crawls with.
pub(crate) struct Pass<'a> {
    /// The fetcher.
    pub(crate) fetcher: &'a Fetcher,
    /// The taxonomy its pages are named by.
    pub(crate) taxonomy: &'a Taxonomy,
    /// How pages become term counts.
    pub(crate) featurizer: &'a Featurizer,
    /// Where it starts.
    pub(crate) seeds: &'a [CanonicalUrl],
    /// What judges its pages in its `pages.jsonl` (none: not judged).
    pub(crate) judge: Option<Arc<dyn Classifier>>,
}

/// Crawls `pages` pages breadth-first, every batch filled, into
/// `OUT/<dir>` (an earlier, unfinished pass there is removed) and returns
/// the term counts of every page it analysed.
pub(crate) async fn breadth_first_sample(
    crawl: &CrawlPlan,
    dir: &str,
    pages: u64,
    pass: Pass<'_>,
) -> Result<Vec<SparseVec>, AppError> {
    let mut cfg = crawl_config(crawl);
    cfg.out = crawl.out.join(dir);
    if cfg.out.exists() {
        std::fs::remove_dir_all(&cfg.out)
            .map_err(|e| AppError::Input(format!("{}: {e}", cfg.out.display())))?;
    }
    cfg.max_pages = pages;
    cfg.resume = false;
    cfg.dispatch = Dispatch::Fill;
    let keeping = Arc::new(Keeping {
        inner: pass.judge,
        docs: Mutex::new(Vec::new()),
    });
    let parts = Parts {
        fetcher: pass.fetcher.clone(),
        classifier: keeping.clone(),
        taxonomy: pass.taxonomy.clone(),
        featurizer: pass.featurizer.clone(),
        policy: Box::new(BreadthFirst),
        seeds: pass.seeds.to_vec(),
        truth: None,
        parents: None,
        similarity: None,
    };
    tracing::info!("{dir}: a breadth-first crawl of {pages} pages");
    run_with_bar(parts, cfg).await?;
    let docs = std::mem::take(
        &mut *keeping
            .docs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    Ok(docs)
}
