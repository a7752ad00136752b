//! Engine settings: how long a crawl runs, how it batches and distils,
//! where it writes. What the crawl is made of is [`crate::Parts`].

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use focus_core::{defaults, Dispatch, Flow};

use crate::stagnation::StagnationConfig;

/// Engine settings.
#[derive(Debug, Clone)]
pub struct CrawlConfig {
    /// Stop after this many fetch attempts (resumed ones included).
    pub max_pages: u64,
    /// Stop after this long.
    pub time_limit: Option<Duration>,
    /// URLs fetched concurrently: one batch, or the stream's slots.
    pub batch: usize,
    /// Distil every this many pages (policies that use the distiller);
    /// past ten such intervals, whenever the crawl has grown by a tenth.
    pub distill_every: u64,
    /// Hubs above this percentile have their unvisited citations raised.
    pub hub_percentile: f64,
    /// Output directory (the store lives in `store/` inside it).
    pub out: PathBuf,
    /// Seed of the random order.
    pub seed: u64,
    /// Continue the crawl stored in `out` (with no page stored there, the
    /// crawl starts from its seeds and notes it).
    pub resume: bool,
    /// Moving-average window of the harvest rate.
    pub window: usize,
    /// When to diagnose stagnation.
    pub stagnation: StagnationConfig,
    /// Which URLs fill a batch: by default a crawl ordered by priority
    /// fetches only URLs at least as promising as its recent harvest while
    /// such URLs exist, and waits for their hosts' politeness intervals
    /// rather than spend fetches on worse ones.
    pub dispatch: Dispatch,
    /// Batches on the logical clock (default: the same seed gives the same
    /// crawl) or a stream on the real clock (a slow fetch holds only its
    /// own slot).
    pub flow: Flow,
    /// Queued URLs the frontier keeps in memory; beyond it they go to its
    /// disk-backed cold tier (`None`: all in memory). Changes memory only,
    /// never the crawl's order.
    pub frontier_memory: Option<usize>,
    /// Attempts at one URL: a transient failure (5xx, 429, a timeout, a
    /// refused or broken connection) puts the URL back in the frontier with
    /// numtries + 1, so it is tried again after fresh URLs, until this many
    /// attempts have failed.
    pub max_tries: u32,
    /// Set to stop cleanly between batches (Ctrl-C, SIGTERM).
    pub stop: Arc<AtomicBool>,
    /// Write `texts.jsonl`: the title and main text of every fetched page
    /// that is not a duplicate (`focus_core::TextLine`), for a local search
    /// index over the crawl. A resumed crawl appends to it.
    pub keep_text: bool,
    /// Rewrite the closed store into a fresh database of its live
    /// records when the crawl ends (`focus_store::compact`; sled's log
    /// keeps the space of rewritten ones until its garbage collection gets
    /// to them). A failed compaction leaves the store as it was and is
    /// noted; the crawl's outputs stand.
    pub compact_store: bool,
}

impl CrawlConfig {
    /// Defaults ([`focus_core::defaults`], the same as the flags') for a
    /// crawl writing to `out`.
    pub fn new(out: PathBuf) -> Self {
        Self {
            max_pages: defaults::MAX_PAGES,
            time_limit: None,
            batch: defaults::BATCH,
            distill_every: defaults::DISTILL_EVERY,
            hub_percentile: defaults::HUB_PERCENTILE,
            out,
            seed: defaults::SEED,
            resume: false,
            window: defaults::HARVEST_WINDOW,
            stagnation: StagnationConfig::default(),
            dispatch: Dispatch::default(),
            flow: Flow::default(),
            frontier_memory: None,
            max_tries: defaults::MAX_TRIES,
            stop: Arc::new(AtomicBool::new(false)),
            keep_text: false,
            compact_store: false,
        }
    }
}
