//! From plan to crawl: source of topics and seeds, training, policy.

use std::path::Path;
use std::sync::Arc;

use focus_classify::{
    CentroidConfig, Centroids, Classifier, Example, Featurizer, HierNb, HierNbConfig, Scoring,
};
use focus_cli::{CrawlPlan, TopicSource};
use focus_core::{CanonicalUrl, Canonicalizer, Relevance, Taxonomy, TopicId};
use focus_crawl::{CrawlConfig, Parts, Truth};
use focus_eval::Summary;
use focus_fetch::{ConnectTo, FetchConfig, Fetcher};
use focus_websim::{Corpus, Latency, ServerHandle, Site, Web, WebConfig};

use crate::user_input::{folder_examples, read_seeds};

/// Why a crawl could not be set up or run.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// A flag or input file is wrong.
    #[error("{0}")]
    Input(String),
    /// The crawl failed.
    #[error(transparent)]
    Crawl(#[from] focus_crawl::CrawlError),
    /// A classifier could not be trained.
    #[error(transparent)]
    Classify(#[from] focus_classify::ClassifyError),
    /// A stop was asked for (a signal, or [`crate::request_stop`]): what
    /// was not done because of it.
    #[error("stopped: {0}")]
    Stopped(String),
}

/// Example pages per leaf sampled from the websim for training.
const EXAMPLES_PER_LEAF: usize = 25;
/// Seeds taken from the websim for the good topic.
const WEBSIM_SEEDS: usize = 3;
/// The default good topic on the websim: the outdoor pursuits, the 1999
/// paper's cycling with its sibling leaves. The default web's leaves hold a
/// few thousand pages each (cycling 4,425), so a 5,000-page crawl of one
/// leaf runs out of it and its late harvest measures how much of the leaf
/// is left; the papers' topics outlasted their crawls, and so must the
/// front door's. `recreation/outdoors` (15,823 pages on seed 1) is also
/// what the stagnation diagnosis of a cycling crawl advises marking good
/// (VLDB paper §3.7). `docs/crawl.md` has both topics' numbers.
const DEFAULT_GOOD: &str = "recreation/outdoors";

/// The fetcher settings of a crawl from `base` (the real web's or the
/// loopback preset): the plan's politeness interval and connections per
/// host, and no host set aside
/// by the fetcher's wall clock — the crawl waits out failing hosts itself,
/// on its logical clock (`focus_crawl::host_health`), so a seeded crawl
/// stays the same crawl, and its URLs wait in the frontier meanwhile.
pub(crate) fn crawl_fetch_config(base: FetchConfig, plan: &CrawlPlan) -> FetchConfig {
    let per_host_connections = plan.host_connections.unwrap_or(base.per_host_connections);
    FetchConfig {
        host_interval: plan.host_interval.unwrap_or(base.host_interval),
        per_host_connections,
        // A domain never holds fewer connections than one of its hosts.
        per_domain_connections: base.per_domain_connections.max(per_host_connections),
        bad_after_failures: None,
        ..base
    }
}

/// The classifier `focus-soft --examples DIR --good GOOD` trains: the
/// folder's examples (URL examples fetched with `fetcher`) analysed as the
/// crawl analyses pages, then the training every crawl uses (hierarchical
/// naive Bayes with the relevance asked for). Public so that a
/// program outside the crawl (a benchmark's peer doing our per-page work)
/// judges pages with the very classifier our crawler would use.
pub async fn example_classifier(
    dir: &Path,
    good: &[String],
    relevance: Relevance,
    fetcher: &Fetcher,
    featurizer: &Featurizer,
    canon: &Canonicalizer,
) -> Result<(Taxonomy, HierNb), AppError> {
    let (taxonomy, examples) = folder_examples(dir, good, fetcher, featurizer, canon).await?;
    let classifier = train_classifier(&taxonomy, &examples, relevance)?;
    Ok((taxonomy, classifier))
}

/// Hierarchical naive Bayes trained on `examples` with the relevance the
/// strategy asks for; an error when there is nothing to train on.
fn train_classifier(
    taxonomy: &Taxonomy,
    examples: &[Example],
    relevance: Relevance,
) -> Result<HierNb, AppError> {
    if examples.is_empty() {
        return Err(AppError::Input("no usable training examples".into()));
    }
    tracing::info!(
        "training hierarchical naive Bayes on {} examples, {} topics",
        examples.len(),
        taxonomy.len() - 1
    );
    let scoring = match relevance {
        Relevance::Tempered => Scoring::Tempered,
        Relevance::Exact => Scoring::Exact,
    };
    let classifier = HierNb::train(
        taxonomy,
        examples,
        HierNbConfig {
            scoring,
            ..HierNbConfig::default()
        },
    )
    .map_err(|e| AppError::Input(e.to_string()))?;
    let temper = classifier.temper();
    tracing::info!(
        "relevance: {:?} (word evidence weight {:.3}·n^-{:.2})",
        relevance,
        temper.kappa,
        temper.alpha
    );
    Ok(classifier)
}

/// The similarity judge of the default soft rule's centroid floor
/// (`focus_crawl::policy::SoftFocus::with_centroid_floor`): Bergmark's TF-IDF
/// centroids with the paper's settings, trained on the same examples as the
/// classifier, a page's relevance being its best cosine with a centroid at
/// or under a good topic. `None`, with a warning, when no topic has the
/// examples a centroid needs: the crawl then runs without the floor.
fn similarity_judge(taxonomy: &Taxonomy, examples: &[Example]) -> Option<Arc<dyn Classifier>> {
    let mut centroids = match Centroids::train(examples, CentroidConfig::default()) {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!("no centroid floor under the soft rule: {e}");
            return None;
        }
    };
    centroids.set_good(&taxonomy.good_subtree());
    tracing::info!(
        "centroid floor: {} centroids, {} dictionary terms",
        centroids.topics().len(),
        centroids.dictionary().len()
    );
    Some(Arc::new(centroids))
}

/// Runs the crawl a plan describes (its strategy names the crawler) and
/// returns its summary.
pub async fn run(plan: &CrawlPlan) -> Result<Summary, AppError> {
    // Refused before the web is built, examples fetched or the classifier
    // trained: a wrong --out is answered at once.
    let cfg = crawl_config(plan);
    focus_crawl::check_config(&cfg)?;
    let policy = focus_crawl::policy::for_crawler(plan.strategy.crawler);
    let featurizer = Featurizer::default();
    let canon = Canonicalizer::default();
    let served = serve_source(&plan.source, plan.seed).await?;
    let (fetcher, taxonomy, examples, seeds, truth) = match (&served, &plan.source) {
        (Some(served), source) => {
            let (good, examples) = match source {
                TopicSource::Corpus { examples, .. } => (source.good().to_vec(), examples.clone()),
                _ => (websim_good(source.good()), None),
            };
            served
                .parts(
                    plan,
                    &good,
                    examples.as_deref(),
                    source.seeds_file(),
                    &featurizer,
                    &canon,
                )
                .await?
        }
        (None, TopicSource::Examples { dir, good, seeds }) => {
            let fetcher = web_fetcher(plan)?;
            let (taxonomy, examples) =
                folder_examples(dir, good, &fetcher, &featurizer, &canon).await?;
            let seeds = read_seeds(seeds, &canon)?;
            (fetcher, taxonomy, examples, seeds, None)
        }
        (None, _) => return Err(AppError::Input("no web to crawl".into())),
    };
    // The classifier and the similarity judge learn from the same examples,
    // each on its own: side by side.
    let (classifier, similarity) = rayon::join(
        || train_classifier(&taxonomy, &examples, plan.strategy.relevance),
        || {
            policy
                .uses_similarity()
                .then(|| similarity_judge(&taxonomy, &examples))
                .flatten()
        },
    );
    let classifier = classifier?;

    let parts = Parts {
        fetcher,
        classifier: Arc::new(classifier),
        taxonomy,
        featurizer,
        policy,
        seeds,
        truth,
        parents: None,
        similarity,
    };
    let summary = crate::sample_pass::run_with_bar(parts, cfg).await;
    if let Some(served) = served {
        served.handle.shutdown().await;
    }
    summary
}

/// The good topics of a websim crawl: those named, or [`DEFAULT_GOOD`].
pub(crate) fn websim_good(named: &[String]) -> Vec<String> {
    if named.is_empty() {
        vec![DEFAULT_GOOD.to_owned()]
    } else {
        named.to_vec()
    }
}

/// The web `source` names, served on loopback: the embedded websim (built
/// from `seed`) or a replayed corpus; none for a user's own web
/// (`--examples`).
pub(crate) async fn serve_source(
    source: &TopicSource,
    seed: u64,
) -> Result<Option<Served>, AppError> {
    Ok(match source {
        TopicSource::Websim {
            pages,
            dead_links,
            page_faults,
            latency_ms,
            ..
        } => {
            let web = websim(*pages, *dead_links, *page_faults, seed)?;
            let served = match latency_ms {
                Some(ms) => {
                    let latency = Latency::lognormal(*ms, WEBSIM_LATENCY_SIGMA, seed);
                    Served::start_with(web, ServedKind::Distant, latency).await?
                }
                None => Served::start(web, ServedKind::Websim).await?,
            };
            Some(served)
        }
        TopicSource::Corpus { dir, .. } => {
            let corpus = Corpus::load(dir).map_err(|e| AppError::Input(e.to_string()))?;
            Some(Served::start(Arc::new(corpus), ServedKind::Replay).await?)
        }
        TopicSource::Examples { .. } => None,
    })
}

/// The embedded websim the websim flags describe: `pages` pages (default
/// web otherwise), `dead_links` percent of cross-host links dead,
/// `page_faults` percent of pages broken, generated from `seed`.
pub(crate) fn websim(
    pages: Option<u32>,
    dead_links: Option<u8>,
    page_faults: Option<u8>,
    seed: u64,
) -> Result<Arc<dyn Site>, AppError> {
    let mut config = match pages {
        Some(n) => WebConfig::default().with_pages(n),
        None => WebConfig::default(),
    };
    if let Some(percent) = dead_links {
        config = config.with_dead_links(percent);
    }
    if let Some(percent) = page_faults {
        config.page_faults = f64::from(percent) / 100.0;
    }
    Ok(Arc::new(
        Web::new(config, seed).map_err(|e| AppError::Input(e.to_string()))?,
    ))
}

/// A crawl's fetcher for the web: the real web's settings, with the
/// plan's `--connect-to` rules.
pub(crate) fn web_fetcher(plan: &CrawlPlan) -> Result<Fetcher, AppError> {
    let mut connect_to = Vec::new();
    for c in &plan.connect_to {
        let rule = ConnectTo::parse(c).map_err(|e| AppError::Input(e.to_string()))?;
        connect_to.push(ConnectTo {
            plain: plan.connect_plain,
            ..rule
        });
    }
    let cfg = crawl_fetch_config(
        FetchConfig {
            connect_to,
            ..FetchConfig::default()
        },
        plan,
    );
    Fetcher::new(cfg).map_err(|e| AppError::Input(e.to_string()))
}

/// The engine settings a plan asks for (a stop signal sets their `stop`
/// flag while the crawl runs: `crate::stop`).
pub(crate) fn crawl_config(plan: &CrawlPlan) -> CrawlConfig {
    let mut cfg = CrawlConfig::new(plan.out.clone());
    cfg.max_pages = plan.max_pages;
    cfg.time_limit = plan.time_limit;
    cfg.batch = plan.concurrency;
    cfg.flow = plan.flow;
    cfg.distill_every = plan.distill_every;
    cfg.dispatch = plan.strategy.dispatch;
    cfg.frontier_memory = plan.frontier_memory;
    cfg.max_tries = plan.max_tries;
    cfg.seed = plan.seed;
    cfg.resume = plan.resume;
    cfg.compact_store = plan.compact_store;
    cfg
}

/// What a crawl is given besides its policy: the fetcher, the crawler's
/// taxonomy with good marks, training examples, seeds and (on a served
/// web) the evaluation-only truth.
type Inputs = (
    Fetcher,
    Taxonomy,
    Vec<Example>,
    Vec<CanonicalUrl>,
    Option<Truth>,
);

/// What a web served on loopback is, which decides how long its fetcher
/// waits for a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ServedKind {
    /// The embedded websim, whose slow and stalling hosts are faults the
    /// crawl must time out on ([`FetchConfig::loopback`]).
    Websim,
    /// A replayed corpus of real pages, which never delays a page on
    /// purpose ([`FetchConfig::replay`]).
    Replay,
    /// The embedded websim answering after a [`Latency`], as servers
    /// across the internet: the real web's timeouts
    /// ([`FetchConfig::replay`]), so a slow answer is waited for as a
    /// crawl of the real web would.
    Distant,
}

/// Log-normal sigma of `--websim-latency` (half of it, in variance, the
/// host's own median): a tenth of the answers take more than 3.6 times
/// the median, one in a hundred more than 10 times.
pub(crate) const WEBSIM_LATENCY_SIGMA: f64 = 1.0;

/// A web served on loopback for one crawl: the embedded websim or a
/// replayed corpus, behind the one [`Site`] interface.
pub(crate) struct Served {
    pub(crate) site: Arc<dyn Site>,
    pub(crate) handle: ServerHandle,
    kind: ServedKind,
}

impl Served {
    pub(crate) async fn start(site: Arc<dyn Site>, kind: ServedKind) -> Result<Self, AppError> {
        Self::start_with(site, kind, Latency::NONE).await
    }

    /// [`Served::start`], answering after `latency` (only a
    /// [`ServedKind::Distant`] web has one: its fetcher waits as on the
    /// real web).
    async fn start_with(
        site: Arc<dyn Site>,
        kind: ServedKind,
        latency: Latency,
    ) -> Result<Self, AppError> {
        let what = match kind {
            ServedKind::Websim => "websim",
            ServedKind::Replay => "corpus",
            ServedKind::Distant => "websim with latency",
        };
        let addr = "127.0.0.1:0"
            .parse()
            .map_err(|_| AppError::Input("bad address".into()))?;
        let handle = focus_websim::serve_with(site.clone(), addr, latency)
            .await
            .map_err(|e| AppError::Input(e.to_string()))?;
        tracing::info!(
            "{what}: {} pages on {} hosts, listening on {} (--connect-to {})",
            site.page_count(),
            site.host_count(),
            handle.addr(),
            handle.connect_to()
        );
        Ok(Self { site, handle, kind })
    }

    /// A crawl's fetcher for this site: every host routed to the loopback
    /// server, in plain HTTP whatever the URL's scheme (the server
    /// terminates no TLS, and a replayed mirror's pages may link with
    /// absolute `https://` URLs), with the timeouts of the web's kind.
    pub(crate) fn fetcher(&self, plan: &CrawlPlan) -> Result<Fetcher, AppError> {
        Fetcher::new(crawl_fetch_config(self.fetch_config()?, plan))
            .map_err(|e| AppError::Input(e.to_string()))
    }

    /// The fetch settings of this web before the plan's overrides.
    fn fetch_config(&self) -> Result<FetchConfig, AppError> {
        let rule = ConnectTo {
            plain: true,
            ..ConnectTo::parse(&self.handle.connect_to())
                .map_err(|e| AppError::Input(e.to_string()))?
        };
        Ok(match self.kind {
            ServedKind::Websim => FetchConfig::loopback(vec![rule]),
            ServedKind::Replay | ServedKind::Distant => FetchConfig::replay(vec![rule]),
        })
    }

    /// The crawl's inputs on this site: examples sampled from it (or read
    /// from `examples`), seeds of the first good topic (or read from
    /// `seeds`), truth from the site's labels.
    async fn parts(
        &self,
        plan: &CrawlPlan,
        good: &[String],
        examples: Option<&Path>,
        seeds: Option<&Path>,
        featurizer: &Featurizer,
        canon: &Canonicalizer,
    ) -> Result<Inputs, AppError> {
        let site = &self.site;
        let fetcher = self.fetcher(plan)?;
        let site_good = self.good_topics(good)?;
        let (taxonomy, examples) = if let Some(dir) = examples {
            let names: Vec<String> = site_good
                .iter()
                .map(|&t| site.taxonomy().path(t).to_owned())
                .collect();
            folder_examples(dir, &names, &fetcher, featurizer, canon).await?
        } else {
            let mut taxonomy = site.taxonomy().clone();
            for &g in &site_good {
                taxonomy
                    .mark_good(g)
                    .map_err(|e| AppError::Input(e.to_string()))?;
            }
            let examples = sampled_examples(site.as_ref(), &taxonomy, featurizer, canon);
            if examples.is_empty() {
                return Err(AppError::Input(format!(
                    "no training page could be sampled from the served web ({} pages on {} hosts): \
                     a websim this small has about one page per host, too few to sample \
                     examples from; use a bigger --websim-pages (the default web has {})",
                    site.page_count(),
                    site.host_count(),
                    WebConfig::default().pages
                )));
            }
            (taxonomy, examples)
        };
        let seeds = self.seeds(&site_good, seeds, canon)?;
        let truth = self.truth(&site_good, plan.max_pages);
        Ok((fetcher, taxonomy, examples, seeds, Some(truth)))
    }

    /// The good topics named by `good`, in the site's own taxonomy.
    pub(crate) fn good_topics(&self, good: &[String]) -> Result<Vec<TopicId>, AppError> {
        good.iter()
            .map(|g| {
                self.site
                    .find_topic(g)
                    .filter(|&t| t != TopicId::ROOT)
                    .ok_or_else(|| unknown_topic(self.site.taxonomy(), g))
            })
            .collect()
    }

    /// The crawl's seeds: read from `file`, or the site's seed pages of the
    /// first good topic.
    pub(crate) fn seeds(
        &self,
        site_good: &[TopicId],
        file: Option<&Path>,
        canon: &Canonicalizer,
    ) -> Result<Vec<CanonicalUrl>, AppError> {
        let first = site_good
            .first()
            .copied()
            .ok_or_else(|| AppError::Input("no good topic".into()))?;
        Ok(match file {
            Some(file) => read_seeds(file, canon)?,
            None => self
                .site
                .seed_urls(first, WEBSIM_SEEDS)
                .iter()
                .filter_map(|u| canon.canonicalize(u).ok())
                .collect(),
        })
    }

    /// The evaluation-only truth of a crawl of `max_pages` for the good
    /// topics (warning when the topic is small for such a crawl).
    pub(crate) fn truth(&self, site_good: &[TopicId], max_pages: u64) -> Truth {
        let site = &self.site;
        let mut relevant: Vec<TopicId> = site_good.to_vec();
        relevant.sort_unstable();
        relevant.dedup();
        let relevant_total = relevant.iter().map(|&g| site.truth_count(g)).sum::<u64>();
        if max_pages.saturating_mul(2) > relevant_total {
            tracing::warn!(
                "the good topic has {relevant_total} pages on this web: a crawl of {max_pages} pages \
                 can use up much of it, and its late harvest then measures what is left \
                 rather than how well the crawl stays on topic"
            );
        }
        let judge = site.clone();
        Truth {
            is_relevant: Arc::new(move |url| judge.truth_relevant(url, &relevant)),
            relevant_total,
        }
    }
}

fn unknown_topic(taxonomy: &Taxonomy, name: &str) -> AppError {
    let leaves: Vec<&str> = taxonomy
        .leaves()
        .into_iter()
        .map(|l| taxonomy.path(l))
        .collect();
    AppError::Input(format!(
        "unknown good topic `{name}`; topics include: {}",
        leaves.join(", ")
    ))
}

/// Sampled example pages of every leaf of a served site (never the seeds).
fn sampled_examples(
    web: &dyn Site,
    taxonomy: &Taxonomy,
    featurizer: &Featurizer,
    canon: &Canonicalizer,
) -> Vec<Example> {
    crate::websim_text::websim_pages(web, taxonomy, featurizer, canon, EXAMPLES_PER_LEAF)
        .into_iter()
        .flatten()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn politeness_flags_reach_the_fetcher() {
        use std::time::Duration;
        let source = TopicSource::websim(Vec::new());
        let base = CrawlPlan::new(source, "out".into());
        let plan = |interval: Option<Duration>, connections: Option<usize>| CrawlPlan {
            host_interval: interval,
            host_connections: connections,
            ..base.clone()
        };
        // Polite by default: the real web's interval and connections.
        let polite = crawl_fetch_config(FetchConfig::default(), &plan(None, None));
        assert_eq!(polite.host_interval, Duration::from_secs(1));
        assert_eq!(polite.per_host_connections, 2);
        let own = plan(Some(Duration::ZERO), Some(16));
        let own = crawl_fetch_config(FetchConfig::default(), &own);
        assert_eq!(own.host_interval, Duration::ZERO);
        assert_eq!(own.per_host_connections, 16);
        assert_eq!(own.per_domain_connections, 16);
    }

    #[tokio::test]
    async fn a_served_corpus_is_fetched_with_the_replay_timeouts_and_the_websim_with_loopbacks() {
        let web = websim(Some(500), None, None, 1).unwrap();
        let cases = [
            (ServedKind::Websim, FetchConfig::loopback(Vec::new())),
            (ServedKind::Replay, FetchConfig::default()),
        ];
        for (kind, timeouts) in cases {
            let served = Served::start(web.clone(), kind).await.unwrap();
            let cfg = served.fetch_config().unwrap();
            served.handle.shutdown().await;
            assert_eq!(cfg.first_byte_timeout, timeouts.first_byte_timeout);
            assert_eq!(cfg.total_timeout, timeouts.total_timeout);
            assert_eq!(cfg.host_interval, std::time::Duration::ZERO);
            assert_eq!(cfg.connect_to.len(), 1);
            assert!(cfg.connect_to[0].plain);
        }
    }
}
