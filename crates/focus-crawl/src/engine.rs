//! The crawl loop: bulk-synchronous batches of fetch (tokio) → analyse and
//! classify (rayon) → policy, frontier and store (in pop order).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use focus_classify::{Classifier, Judgement};
use focus_core::{CanonicalUrl, Canonicalizer, PageId, Taxonomy};
use focus_eval::{HarvestTracker, Summary};
use focus_fetch::{Body, FetchOutcome, Fetcher};
use focus_frontier::{Candidate, Discipline, Frontier, PushResult};
use focus_store::{PageRecord, QueuedUrl, Store};
use rayon::prelude::*;

use crate::distill_step::distill;
use crate::featurize::Featurizer;
use crate::output::{self, PagesLog};
use crate::policy::{Expansion, Order, PageVerdict, Policy};
use crate::stagnation::{StagnationConfig, StagnationMonitor};

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

struct Judged {
    record: PageRecord,
    links: Vec<(PageId, CanonicalUrl)>,
    judgement: Option<Judgement>,
    follow: bool,
}

/// The frontier's clock advances this much per batch. A logical clock keeps
/// the crawl's order independent of wall-clock timing (same seed, same
/// crawl); politeness is still enforced in real time by the fetcher, which
/// waits only if batches run faster than this tick.
const TICK_MS: u64 = 50;

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

fn discipline(order: Order, seed: u64) -> Discipline {
    match order {
        Order::Lexicographic => Discipline::Lexicographic,
        Order::NumtriesFifo => Discipline::NumtriesFifo,
        Order::BreadthFirst => Discipline::BreadthFirst,
        Order::Random => Discipline::Random { seed },
        Order::BestFirst => Discipline::BestFirst,
    }
}

/// The stored form of a queued URL; `extra` keeps the frontier's insertion
/// rank so a resumed crawl breaks ties as the original did.
fn queued(c: &Candidate, frontier: &Frontier) -> QueuedUrl {
    QueuedUrl {
        url: c.url.to_string(),
        id: c.id.0,
        depth: c.depth,
        parent: c.parent.map(|p| p.0),
        priority: frontier.priority_of(c.id).unwrap_or(c.priority),
        extra: frontier
            .seq_of(c.id)
            .map_or_else(Vec::new, |s| s.to_le_bytes().to_vec()),
    }
}

/// The insertion rank stored by [`queued`] (old stores: none, sorts first).
fn stored_seq(q: &QueuedUrl) -> u64 {
    q.extra
        .get(..8)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map_or(0, u64::from_le_bytes)
}

/// Analyses and classifies one fetch outcome (CPU work, run on rayon).
fn judge(c: &Candidate, outcome: &FetchOutcome, parts: &Parts, canon: &Canonicalizer) -> Judged {
    let mut record = PageRecord {
        url: c.url.to_string(),
        id: c.id.0,
        status: 0,
        error: None,
        relevance: 0.0,
        class: None,
        depth: c.depth,
        parent: c.parent.map(|p| p.0),
        fetched_at_ms: now_ms(),
        bytes: 0,
        fingerprint: None,
        content_hash: None,
    };
    let page = match outcome {
        Err(e) => {
            record.status = e.status().unwrap_or(0);
            record.error = Some(e.label());
            return Judged {
                record,
                links: Vec::new(),
                judgement: None,
                follow: false,
            };
        }
        Ok(p) => p,
    };
    record.status = page.status;
    record.bytes = page.wire_bytes;
    let Body::Text(html) = &page.body else {
        record.error = Some("not_text".into());
        return Judged {
            record,
            links: Vec::new(),
            judgement: None,
            follow: false,
        };
    };
    let doc = focus_html::analyze(html, &page.final_url, canon);
    let counts = parts.featurizer.document(&doc);
    let judgement = parts.classifier.classify(&counts);
    record.relevance = judgement.relevance;
    record.class = judgement.best.map(|b| parts.taxonomy.path(b).to_owned());
    record.content_hash = Some(xxhash(html));
    let follow = !(doc.meta_robots.nofollow || page.robots.nofollow);
    let mut seen = HashSet::new();
    let links = doc
        .links
        .into_iter()
        .filter(|l| !l.nofollow && l.url.page_id() != c.id)
        .filter(|l| seen.insert(l.url.page_id()))
        .map(|l| (l.url.page_id(), l.url))
        .collect();
    Judged {
        record,
        links,
        judgement: Some(judgement),
        follow,
    }
}

fn xxhash(s: &str) -> u64 {
    // The store keeps an exact content hash; PageId's hash is the same XXH3.
    PageId::of_canonical(s).0
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
    let mut tracker = HarvestTracker::new(cfg.window);
    let mut monitor = StagnationMonitor::new(cfg.stagnation.clone());
    let parts = Arc::new(parts);
    let truth_of = |url: &str| parts.truth.as_ref().and_then(|t| (t.is_relevant)(url));
    let canon = Canonicalizer::default();

    // Resume: fetched pages are never fetched again; queued URLs come back.
    let mut fetched = 0u64;
    let mut relevant_urls: HashSet<u64> = HashSet::new();
    if cfg.resume && store.page_count() > 0 {
        for p in store.pages() {
            let p = p?;
            frontier.mark_seen(PageId(p.id));
            if let Ok(url) = canon.canonicalize(&p.url) {
                frontier.note_served(&url.host_key());
            }
            let t = truth_of(&p.url);
            if t == Some(true) {
                relevant_urls.insert(p.id);
            }
            tracker.push(p.relevance, t);
            monitor.push(
                p.relevance,
                p.class.as_deref().and_then(|c| parts.taxonomy.find(c)),
            );
            fetched += 1;
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
            "resumed: {fetched} pages already fetched, {} queued",
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

    let mut stopped_because = "max pages".to_owned();
    let mut stagnation_report: Option<String> = None;
    let mut last_distilled = fetched / cfg.distill_every.max(1);
    let mut tick: u64 = 0;
    while fetched < cfg.max_pages {
        if cfg.stop.load(Ordering::Relaxed) {
            stopped_because = "interrupted".into();
            break;
        }
        if cfg.time_limit.is_some_and(|t| started.elapsed() >= t) {
            stopped_because = "time limit".into();
            break;
        }
        let room = (cfg.max_pages - fetched).min(cfg.batch as u64) as usize;
        let now = tick * TICK_MS;
        let batch: Vec<Candidate> = std::iter::from_fn(|| frontier.pop_ready(now))
            .take(room)
            .collect();
        if batch.is_empty() {
            // Every queued host may be cooling down (politeness, robots.txt
            // crawl-delay): move the clock to the first one rather than stop.
            match frontier.next_ready_at() {
                Some(at) if at > now => {
                    tick = at.div_ceil(TICK_MS);
                    continue;
                }
                _ => {
                    stopped_because = "frontier empty".into();
                    break;
                }
            }
        }
        tick += 1;
        // Fetch concurrently; results keep the pop order.
        let mut tasks = tokio::task::JoinSet::new();
        for (i, c) in batch.iter().enumerate() {
            let (f, url) = (parts.fetcher.clone(), c.url.clone());
            tasks.spawn(async move { (i, f.fetch(&url).await) });
        }
        let mut outcomes: Vec<Option<FetchOutcome>> = vec![None; batch.len()];
        while let Some(done) = tasks.join_next().await {
            if let Ok((i, o)) = done {
                outcomes[i] = Some(o);
            }
        }
        // Analyse and classify in parallel on rayon, off the async threads.
        let (p2, b2) = (parts.clone(), batch.clone());
        let judged: Vec<Judged> = tokio::task::spawn_blocking(move || {
            let canon = Canonicalizer::default();
            b2.par_iter()
                .zip(outcomes.par_iter())
                .map(|(c, o)| match o {
                    Some(o) => judge(c, o, &p2, &canon),
                    None => judge(
                        c,
                        &Err(focus_fetch::FetchError::Protocol(
                            "fetch task failed".into(),
                        )),
                        &p2,
                        &canon,
                    ),
                })
                .collect()
        })
        .await
        .map_err(|e| CrawlError::Output(format!("analysis task: {e}")))?;

        for (c, j) in batch.iter().zip(judged) {
            // The frontier hands a host out again only after its politeness
            // interval (robots.txt crawl-delay included), so a batch never
            // waits on a cooling host.
            let interval = parts.fetcher.host_status(&c.host).interval;
            frontier.host_done(&c.host, now + interval.as_millis() as u64);
            let mut new: Vec<QueuedUrl> = Vec::new();
            if let (Some(judgement), true) = (&j.judgement, j.follow) {
                let verdict = PageVerdict {
                    relevance: judgement.relevance,
                    best_leaf: judgement.best,
                    taxonomy: &parts.taxonomy,
                };
                if let Expansion::Expand { priority } = parts.policy.expand(&verdict) {
                    for (_, url) in &j.links {
                        let cand = Candidate::new(url.clone(), c.depth + 1, Some(c.id), priority);
                        match frontier.push(cand.clone()) {
                            PushResult::Queued => new.push(queued(&cand, &frontier)),
                            PushResult::Raised => {
                                store.update_queued(&queued(&cand, &frontier))?;
                            }
                            PushResult::AlreadySeen | PushResult::Dropped => {}
                        }
                    }
                }
            }
            let links: Vec<(u64, String)> = j
                .links
                .iter()
                .map(|(id, u)| (id.0, u.to_string()))
                .collect();
            store.record_fetch(&j.record, &links, &new)?;
            let truth = if j.judgement.is_some() {
                truth_of(&j.record.url)
            } else {
                Some(false).filter(|_| parts.truth.is_some())
            };
            if truth == Some(true) {
                relevant_urls.insert(j.record.id);
            }
            let parent_url = match c.parent {
                Some(p) => store.get_page(p.0)?.map(|r| r.url),
                None => None,
            };
            log.write(&j.record, parent_url.as_deref(), truth)?;
            tracker.push(j.record.relevance, truth);
            monitor.push(
                j.record.relevance,
                j.judgement.as_ref().and_then(|x| x.best),
            );
            fetched += 1;
            observer.page(&Progress {
                pages: fetched,
                harvest_ma: tracker.moving_average(),
                pages_per_s: fetched as f64 / started.elapsed().as_secs_f64().max(1e-9),
                frontier: frontier.len() as u64,
            });
            if stagnation_report.is_none() {
                if let Some(d) = monitor.diagnose(&parts.taxonomy) {
                    let report = d.report(&parts.taxonomy);
                    observer.note(&report);
                    tracing::warn!("{report}");
                    stagnation_report = Some(report);
                }
            }
        }
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
    log.flush()?;
    store.flush()?;

    let d = distill(&store, 100, cfg.hub_percentile)?;
    output::tsv(&cfg.out.join("hubs.tsv"), &d.hubs)?;
    output::tsv(&cfg.out.join("authorities.tsv"), &d.authorities)?;
    let elapsed = started.elapsed().as_secs_f64();
    let summary = Summary {
        crawler: parts.policy.name().to_owned(),
        pages_fetched: fetched,
        harvest_rate_estimated: tracker.harvest_estimated(),
        pages_per_s: fetched as f64 / elapsed.max(1e-9),
        elapsed_s: elapsed,
        harvest_rate_true: tracker.harvest_true(),
        harvest_rate_true_last_1000: tracker.harvest_true_last(1000),
        recall_true: parts
            .truth
            .as_ref()
            .map(|t| relevant_urls.len() as f64 / t.relevant_total.max(1) as f64),
        stopped_because,
        frontier_left: frontier.len() as u64,
        stagnation: stagnation_report,
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
        tracker.estimated(),
        &format!(
            "{} crawl on {}: relevance per page",
            summary.crawler,
            good.join(", ")
        ),
    )?;
    Ok(summary)
}
