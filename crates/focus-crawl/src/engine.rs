//! The crawl loop: pop a batch, run it through the fetch → analyse
//! pipeline (`pipeline.rs`), apply each judged page to policy, frontier and
//! store in pop order, distil between batches.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use focus_classify::Classifier;
use focus_core::{CanonicalUrl, Canonicalizer, DomainKey, PageId, StopReason, Taxonomy};
use focus_eval::Summary;
use focus_fetch::Fetcher;
use focus_frontier::{Candidate, Discipline, Frontier};
use focus_store::Store;

use crate::apply::{
    apply, host_limit_key, host_ready_key, learn_link, queued, stored_seq, CrawlState,
};
use crate::distill_step::distill;
use crate::link_value::LinkKind;
use crate::output::{self, PagesLog};
use crate::pipeline::{PageStages, Pipeline};
use crate::policy::{Order, Policy};
use crate::stagnation::StagnationConfig;
use crate::tally::Tally;
use focus_classify::Featurizer;

/// Why a crawl could not run or finish.
#[derive(Debug, thiserror::Error)]
pub enum CrawlError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] focus_store::StoreError),
    /// A file of the output directory could not be written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Writing an output failed.
    #[error("output: {0}")]
    Output(String),
    /// The distiller failed.
    #[error("distiller: {0}")]
    Distill(String),
    /// The output directory holds a crawl and `resume` was not asked for.
    #[error(
        "{0} already holds a crawl store: pass --resume to continue it, or choose another --out"
    )]
    Exists(PathBuf),
    /// Nothing to crawl.
    #[error("no seed URLs")]
    NoSeeds,
}

impl CrawlError {
    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Answers whether a URL is truly relevant (`None` when unknown).
pub type TruthFn = Box<dyn Fn(&str) -> Option<bool> + Send + Sync>;

/// Evaluation-only ground truth (the websim's): never read by the crawl's
/// decisions, only recorded next to them.
pub struct Truth {
    /// Whether a URL is truly relevant (`None` when unknown).
    pub is_relevant: TruthFn,
    /// Truly relevant pages in the whole web (for recall).
    pub relevant_total: u64,
}

/// Engine settings.
#[derive(Debug, Clone)]
pub struct CrawlConfig {
    /// Stop after this many fetch attempts (resumed ones included).
    pub max_pages: u64,
    /// Stop after this long.
    pub time_limit: Option<Duration>,
    /// URLs fetched concurrently per batch.
    pub batch: usize,
    /// Distil every this many pages (policies that use the distiller).
    pub distill_every: u64,
    /// Hubs above this percentile have their unvisited citations raised.
    pub hub_percentile: f64,
    /// Output directory (the store lives in `store/` inside it).
    pub out: PathBuf,
    /// Seed of the random order.
    pub seed: u64,
    /// Continue the crawl stored in `out`.
    pub resume: bool,
    /// Moving-average window of the harvest rate.
    pub window: usize,
    /// When to diagnose stagnation.
    pub stagnation: StagnationConfig,
    /// Fill every batch from the ready hosts in order, however poor their
    /// URLs (the throughput-first rule of general crawlers). By default a
    /// crawl ordered by priority only fetches URLs at least as promising as
    /// its recent harvest (the moving average of relevance) while such URLs
    /// exist, and waits for their hosts' politeness intervals rather than
    /// spend fetches on worse ones.
    pub fill_batches: bool,
    /// Queued URLs the frontier keeps in memory; beyond it they go to its
    /// disk-backed cold tier (`None`: all in memory). Changes memory only,
    /// never the crawl's order.
    pub frontier_memory: Option<usize>,
    /// Set to stop cleanly between batches (Ctrl-C).
    pub stop: Arc<AtomicBool>,
}

impl CrawlConfig {
    /// Defaults for a crawl writing to `out`.
    pub fn new(out: PathBuf) -> Self {
        Self {
            max_pages: 5000,
            time_limit: None,
            batch: 32,
            distill_every: 1000,
            hub_percentile: 90.0,
            out,
            seed: 1,
            resume: false,
            window: 100,
            stagnation: StagnationConfig::default(),
            fill_batches: false,
            frontier_memory: None,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }
}

/// What the crawl is made of.
pub struct Parts {
    /// The fetcher.
    pub fetcher: Fetcher,
    /// The classifier.
    pub classifier: Arc<dyn Classifier>,
    /// The taxonomy with the good marks (for hard focus and class names).
    pub taxonomy: Taxonomy,
    /// How pages become term counts (must match the classifier's training).
    pub featurizer: Featurizer,
    /// The crawler's personality.
    pub policy: Box<dyn Policy>,
    /// Where the crawl starts.
    pub seeds: Vec<CanonicalUrl>,
    /// Ground truth for evaluation, when known.
    pub truth: Option<Truth>,
}

impl Parts {
    /// The ground truth of `url`, when known (evaluation only).
    pub(crate) fn truth_of(&self, url: &str) -> Option<bool> {
        self.truth.as_ref().and_then(|t| (t.is_relevant)(url))
    }
}

/// A progress report after each page.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Fetch attempts so far.
    pub pages: u64,
    /// Moving average of estimated relevance.
    pub harvest_ma: f64,
    /// Pages per second so far.
    pub pages_per_s: f64,
    /// URLs queued.
    pub frontier: u64,
}

/// Receives progress (a terminal progress bar, a log, a test).
pub trait Observer {
    /// Called after each page.
    fn page(&mut self, p: &Progress);
    /// Called once with a human-readable message (stagnation, distillation).
    fn note(&mut self, message: &str);
}

/// The frontier's clock advances this much per batch. A logical clock keeps
/// the crawl's order independent of wall-clock timing (same seed, same
/// crawl); politeness is still enforced in real time by the fetcher, which
/// waits only if batches run faster than this tick.
const TICK_MS: u64 = 50;

/// The run-metadata key of the logical time of the last applied batch.
const CLOCK_KEY: &str = "clock_ms";

fn discipline(order: Order, seed: u64) -> Discipline {
    match order {
        Order::Lexicographic => Discipline::Lexicographic,
        Order::NumtriesPriority => Discipline::NumtriesPriority,
        Order::NumtriesFifo => Discipline::NumtriesFifo,
        Order::BreadthFirst => Discipline::BreadthFirst,
        Order::Random => Discipline::Random { seed },
        Order::BestFirst => Discipline::BestFirst,
    }
}

/// What the frontier gives the next batch.
enum Dispatch {
    /// URLs to fetch now.
    Batch(Vec<Candidate>),
    /// Nothing to fetch before this logical time (hosts are cooling).
    WaitUntil(u64),
    /// Nothing is queued.
    Exhausted,
}

/// Up to `room` URLs ready at `now`: those at least as promising as
/// `floor` first. If a promising URL waits out a politeness interval, no
/// fetch is spent on worse ones: the batch goes out with what there is, or
/// the crawl waits for that host. Otherwise the batch fills in order, and
/// when nothing is ready the crawl waits for the first cooling host.
fn next_batch(frontier: &mut Frontier, now: u64, room: usize, floor: f64) -> Dispatch {
    let mut batch: Vec<Candidate> = std::iter::from_fn(|| frontier.pop_ready_at_least(now, floor))
        .take(room)
        .collect();
    if batch.len() < room {
        match frontier.next_cooling_at_least(floor) {
            Some(at) if at > now => {
                if batch.is_empty() {
                    return Dispatch::WaitUntil(at);
                }
            }
            _ => batch
                .extend(std::iter::from_fn(|| frontier.pop_ready(now)).take(room - batch.len())),
        }
    }
    if !batch.is_empty() {
        return Dispatch::Batch(batch);
    }
    // Every queued host may be cooling down (politeness, robots.txt
    // crawl-delay): move the clock to the first one rather than stop.
    match frontier.next_ready_at() {
        Some(at) if at > now => Dispatch::WaitUntil(at),
        _ => Dispatch::Exhausted,
    }
}

/// Runs a crawl to its end and writes the output contract.
pub async fn run(
    parts: Parts,
    cfg: CrawlConfig,
    observer: &mut dyn Observer,
) -> Result<Summary, CrawlError> {
    let started = Instant::now();
    std::fs::create_dir_all(&cfg.out).map_err(|e| CrawlError::io(&cfg.out, e))?;
    let store_dir = cfg.out.join("store");
    if store_dir.exists() && !cfg.resume {
        return Err(CrawlError::Exists(cfg.out.clone()));
    }
    let store = Store::open(&store_dir)?;
    let mut log = PagesLog::open(&cfg.out, cfg.resume)?;
    let mut frontier = Frontier::new(discipline(parts.policy.order(), cfg.seed));
    if let Some(bound) = cfg.frontier_memory {
        // Beyond `bound` queued URLs the frontier files URLs in its
        // disk-backed cold tier (unnamed temp files here; the store keeps
        // the durable copy that resume re-pushes).
        let dir = cfg.out.join("frontier");
        std::fs::create_dir_all(&dir).map_err(|e| CrawlError::io(&dir, e))?;
        frontier = frontier
            .with_spill(&dir, bound)
            .map_err(|e| CrawlError::io(&dir, std::io::Error::other(e.to_string())))?;
    }
    let mut tally = Tally::new(cfg.window, cfg.stagnation.clone());
    let parts = Arc::new(parts);
    let canon = Canonicalizer::default();

    // Resume: fetched pages are never fetched again; queued URLs come back.
    if cfg.resume && store.page_count() > 0 {
        let mut hosts = HashSet::new();
        // In fetch order, so the harvest moving average (which sets the
        // dispatch floor) and the stagnation census end where they stopped.
        let mut pages = store.pages().collect::<Result<Vec<_>, _>>()?;
        pages.sort_by_key(|p| (p.fetched_at_ms, p.id));
        let urls: Vec<Option<CanonicalUrl>> = pages
            .iter()
            .map(|p| canon.canonicalize(&p.url).ok())
            .collect();
        // Each page's relevance and site, for the link yields of its children.
        let sites: HashMap<u64, (f64, DomainKey)> = pages
            .iter()
            .zip(&urls)
            .filter_map(|(p, u)| Some((p.id, (p.relevance, u.as_ref()?.domain_key()))))
            .collect();
        for (p, url) in pages.iter().zip(&urls) {
            frontier.mark_seen(PageId(p.id));
            if let Some(url) = url {
                let host = url.host_key();
                frontier.note_served(&host);
                hosts.insert(host);
            }
            if let Some((_, site)) = sites.get(&p.id) {
                let parent = p.parent.and_then(|id| sites.get(&id));
                learn_link(&mut tally, parent, site, p.relevance);
            }
            let best = p.class.as_deref().and_then(|c| parts.taxonomy.find(c));
            tally.push(p.id, p.relevance, best, parts.truth_of(&p.url));
        }
        for host in &hosts {
            if let Some(limit) = store.get_meta::<u32>(&host_limit_key(host))? {
                frontier.set_host_limit(host, limit);
            }
            if let Some(at) = store.get_meta::<u64>(&host_ready_key(host))? {
                frontier.cool_until(host, at);
            }
        }
        let mut stored = store.queued().collect::<Result<Vec<_>, _>>()?;
        stored.sort_by_key(stored_seq);
        for q in stored {
            if let Ok(url) = canon.canonicalize(&q.url) {
                frontier.push(Candidate::new(
                    url,
                    q.depth,
                    q.parent.map(PageId),
                    q.priority,
                ));
            }
        }
        observer.note(&format!(
            "resumed: {} pages already fetched, {} queued",
            tally.fetched,
            frontier.len()
        ));
    } else {
        if parts.seeds.is_empty() {
            return Err(CrawlError::NoSeeds);
        }
        let seeds: Vec<Candidate> = parts
            .seeds
            .iter()
            .map(|u| Candidate::new(u.clone(), 0, None, 1.0))
            .collect();
        for c in &seeds {
            frontier.push(c.clone());
        }
        store.enqueue(
            &seeds
                .iter()
                .map(|c| queued(c, &frontier))
                .collect::<Vec<_>>(),
        )?;
    }

    let mut pipeline = Pipeline::start(PageStages::new(parts.clone()), cfg.batch);
    let mut stopped_because = StopReason::MaxPages;
    let mut last_distilled = tally.fetched / cfg.distill_every.max(1);
    // The logical clock goes on from the last batch of a resumed crawl, so
    // hosts cool as they did.
    let mut tick: u64 = match store.get_meta::<u64>(CLOCK_KEY)? {
        Some(at) if cfg.resume => at / TICK_MS + 1,
        _ => 0,
    };
    while tally.fetched < cfg.max_pages {
        if cfg.stop.load(Ordering::Relaxed) {
            stopped_because = StopReason::Interrupted;
            break;
        }
        if cfg.time_limit.is_some_and(|t| started.elapsed() >= t) {
            stopped_because = StopReason::TimeLimit;
            break;
        }
        let room = (cfg.max_pages - tally.fetched).min(cfg.batch as u64) as usize;
        let now = tick * TICK_MS;
        let floor = if cfg.fill_batches {
            f64::NEG_INFINITY
        } else {
            tally.tracker.moving_average()
        };
        let batch = match next_batch(&mut frontier, now, room, floor) {
            Dispatch::Batch(batch) => batch,
            Dispatch::WaitUntil(at) => {
                tick = at.div_ceil(TICK_MS);
                continue;
            }
            Dispatch::Exhausted => {
                stopped_because = StopReason::FrontierEmpty;
                break;
            }
        };
        tick += 1;
        // Fetch, analyse and classify on the pipeline; apply in pop order.
        let mut st = CrawlState {
            frontier: &mut frontier,
            store: &store,
            log: &mut log,
            tally: &mut tally,
        };
        pipeline
            .process(&batch, |c, j| {
                apply(&parts, &mut st, c, &j, now)?;
                observer.page(&Progress {
                    pages: st.tally.fetched,
                    harvest_ma: st.tally.tracker.moving_average(),
                    pages_per_s: st.tally.fetched as f64
                        / started.elapsed().as_secs_f64().max(1e-9),
                    frontier: st.frontier.len() as u64,
                });
                if let Some(report) = st.tally.new_diagnosis(&parts.taxonomy) {
                    observer.note(report);
                    tracing::warn!("{report}");
                }
                Ok(())
            })
            .await?;
        store.put_meta(CLOCK_KEY, &now)?;
        let fetched = tally.fetched;
        if parts.policy.uses_distiller() && fetched / cfg.distill_every.max(1) > last_distilled {
            last_distilled = fetched / cfg.distill_every.max(1);
            let d = distill(&store, 100, cfg.hub_percentile)?;
            let raised = frontier.raise_to_max(&d.missed);
            // Persist the raises, so a resumed crawl keeps them.
            for id in &d.missed {
                if let (Some(mut q), Some(p)) = (store.get_queued(id.0)?, frontier.priority_of(*id))
                {
                    q.priority = p;
                    store.update_queued(&q)?;
                }
            }
            observer.note(&format!(
                "distilled at {fetched} pages: {} hubs, {raised} unvisited hub citations raised",
                d.hubs.len()
            ));
        }
    }
    pipeline.shutdown().await;
    log.flush()?;
    store.flush()?;

    let d = distill(&store, 100, cfg.hub_percentile)?;
    output::tsv(&cfg.out.join("hubs.tsv"), &d.hubs)?;
    output::tsv(&cfg.out.join("authorities.tsv"), &d.authorities)?;
    let elapsed = started.elapsed().as_secs_f64();
    let summary = Summary {
        crawler: parts.policy.name().to_owned(),
        pages_fetched: tally.fetched,
        harvest_rate_estimated: tally.tracker.harvest_estimated(),
        pages_per_s: tally.fetched as f64 / elapsed.max(1e-9),
        elapsed_s: elapsed,
        harvest_rate_true: tally.tracker.harvest_true(),
        harvest_rate_true_last_1000: tally.tracker.harvest_true_last(1000),
        recall_true: parts
            .truth
            .as_ref()
            .map(|t| tally.relevant_fetched() as f64 / t.relevant_total.max(1) as f64),
        relevant_pages_true: parts.truth.as_ref().map(|t| t.relevant_total),
        stopped_because,
        frontier_left: frontier.len() as u64,
        stagnation: tally.stagnation.clone(),
        link_yield_same_site: tally.links.observed_yield(LinkKind::SameSite),
        link_yield_cross_site: tally.links.observed_yield(LinkKind::CrossSite),
        judged_relevant_agreement: tally.tracker.agreement().agreement(),
        judged_relevant_precision: tally.tracker.agreement().precision(),
        judged_relevant_recall: tally.tracker.agreement().recall(),
    };
    let good: Vec<&str> = parts
        .taxonomy
        .good_topics()
        .into_iter()
        .map(|g| parts.taxonomy.path(g))
        .collect();
    output::finish(
        &cfg.out,
        &summary,
        tally.tracker.estimated(),
        &format!(
            "{} crawl on {}: relevance per page",
            summary.crawler,
            good.join(", ")
        ),
    )?;
    Ok(summary)
}
