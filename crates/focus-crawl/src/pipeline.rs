//! The crawl's stages as tasks joined by bounded channels:
//!
//! ```text
//! engine ──batch──▶ fetch (one tokio task per URL) ──outcome──▶ analyse (rayon) ──judged──▶ engine
//! ```
//!
//! Pages flow through as soon as their fetch ends, so parsing and
//! classification overlap the batch's slower fetches, and the engine
//! applies each judged page while the rest of the batch is still in flight
//! — but always in pop order: a page waits in a reorder buffer until every
//! page popped before it has been applied. Frontier and store operations
//! therefore happen in the same sequence however fetches interleave, which
//! is what keeps a seeded crawl deterministic. A page judged on-topic in a
//! crawl with backlink expansion ([`crate::parents`]) asks for its parents
//! there too, in pop order, so the request budget goes to the same pages
//! every run. The pipeline also adds up the time spent judging (over the
//! rayon threads) and applying ([`Pipeline::busy`], `summary.json`'s
//! `judge_busy_s` and `apply_busy_s`).
//!
//! Must not touch the frontier or the store (the engine's `apply` does).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use focus_core::{CanonicalUrl, Canonicalizer};
use focus_fetch::{FetchError, FetchOutcome};
use focus_frontier::Candidate;
use tokio::sync::mpsc;
use tokio::task::{JoinHandle, JoinSet};

use crate::error::CrawlError;
use crate::judge::{self, Judged};
use crate::parts::Analysis;
use crate::policy::HardFocus;

/// A request for a judged page's parents (see [`Stages::ask_parents`]).
pub(crate) type ParentsRequest = Pin<Box<dyn Future<Output = Vec<CanonicalUrl>> + Send>>;

/// Asks for a judged page's parents, or does not.
type AskParents = Arc<dyn Fn(&Judged) -> Option<ParentsRequest> + Send + Sync>;

/// The work of the two stages: the crawl's is [`PageStages`]; tests plug in
/// fetches with chosen delays and failures.
pub(crate) trait Stages: Send + Sync + 'static {
    /// Fetches one URL (I/O, on tokio).
    fn fetch(&self, c: &Candidate) -> impl Future<Output = FetchOutcome> + Send;
    /// Judges one fetched page (CPU, on rayon) that the anchor texts
    /// `cited` link to (empty unless the crawl keeps them).
    fn judge(&self, c: &Candidate, cited: &[String], outcome: &FetchOutcome) -> Judged;
    /// The request for a judged page's parents, if the crawl wants them
    /// (called in pop order, so a budget is spent deterministically);
    /// none by default.
    fn ask_parents(&self, _page: &Judged) -> Option<ParentsRequest> {
        None
    }
}

/// The crawl's stages: the fetcher, then parse, featurise and classify.
pub(crate) struct PageStages {
    analysis: Arc<Analysis>,
    canon: Canonicalizer,
}

impl PageStages {
    pub(crate) fn new(analysis: Arc<Analysis>) -> Self {
        Self {
            analysis,
            canon: Canonicalizer::default(),
        }
    }
}

impl Stages for PageStages {
    fn fetch(&self, c: &Candidate) -> impl Future<Output = FetchOutcome> + Send {
        self.analysis.fetcher.fetch(&c.url)
    }

    fn judge(&self, c: &Candidate, cited: &[String], outcome: &FetchOutcome) -> Judged {
        judge::judge_guarded(c, cited, outcome, &self.analysis, &self.canon)
    }

    /// A page judged on-topic (its best class under a good topic, the
    /// context crawler's queue 0) asks while the budget lasts. A failed
    /// request gives no parents: the crawl goes on without them.
    fn ask_parents(&self, page: &Judged) -> Option<ParentsRequest> {
        let expansion = self.analysis.parents.as_ref()?;
        let judgement = page.judgement.as_ref()?;
        if !page.follow || !HardFocus::admits(&self.analysis.taxonomy, judgement.best) {
            return None;
        }
        let url: CanonicalUrl = page
            .record
            .final_url
            .as_deref()
            .unwrap_or(&page.record.url)
            .parse()
            .ok()?;
        if !expansion.take() {
            return None;
        }
        let source = expansion.source();
        Some(Box::pin(async move {
            source.parents(&url).await.unwrap_or_else(|e| {
                tracing::warn!(%url, "no parents: {e}");
                Vec::new()
            })
        }))
    }
}

/// One URL of a batch and the anchor texts of the links to it that the
/// crawl has seen (empty unless the crawl keeps them).
struct Job {
    candidate: Candidate,
    cited: Vec<String>,
}

/// The running stages. Dropping it closes the batch channel; the stages
/// then finish their current work and stop.
pub(crate) struct Pipeline {
    batches: mpsc::Sender<Vec<Job>>,
    judged: mpsc::Receiver<(usize, Judged)>,
    stages: [JoinHandle<()>; 2],
    ask_parents: AskParents,
    /// Nanoseconds the judging threads have spent judging.
    judging: Arc<AtomicU64>,
    /// Time spent in `apply`.
    applying: Duration,
}

/// Where the pipeline's time went: seconds spent judging (summed over
/// threads) and applying (the engine's sequential stage).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Busy {
    pub(crate) judge_s: f64,
    pub(crate) apply_s: f64,
}

impl Pipeline {
    /// Starts the stages for batches of at most `batch` URLs; every channel
    /// is bounded (one batch waiting to be fetched, `batch` pages between
    /// each later pair of stages).
    pub(crate) fn start<S: Stages>(stages: S, batch: usize) -> Self {
        let stages = Arc::new(stages);
        let asker = stages.clone();
        let ask_parents: AskParents = Arc::new(move |page: &Judged| asker.ask_parents(page));
        let cap = batch.max(1);
        let (batches, batch_rx) = mpsc::channel::<Vec<Job>>(1);
        let (fetched_tx, fetched_rx) = mpsc::channel(cap);
        let (judged_tx, judged) = mpsc::channel(cap);
        let judging = Arc::new(AtomicU64::new(0));
        let stages = [
            tokio::spawn(fetch_stage(stages.clone(), batch_rx, fetched_tx)),
            tokio::spawn(analyse_stage(
                stages,
                fetched_rx,
                judged_tx,
                judging.clone(),
            )),
        ];
        Self {
            batches,
            judged,
            stages,
            ask_parents,
            judging,
            applying: Duration::ZERO,
        }
    }

    /// The time spent judging and applying so far.
    pub(crate) fn busy(&self) -> Busy {
        Busy {
            judge_s: self.judging.load(Ordering::Relaxed) as f64 / 1e9,
            apply_s: self.applying.as_secs_f64(),
        }
    }

    /// Fetches, analyses and classifies `batch`, calling `apply(c, page)`
    /// for each candidate `c` and its page in pop order, as soon as the page
    /// and every page before it are judged (and its parents have come, if
    /// it asked for them). `cited[i]` holds the anchor texts of the links
    /// to `batch[i]` the crawl has seen (missing: none). After an error the
    /// rest of the batch may still be in flight: shut the pipeline down.
    pub(crate) async fn process(
        &mut self,
        batch: &[Candidate],
        cited: Vec<Vec<String>>,
        mut apply: impl FnMut(&Candidate, Judged) -> Result<(), CrawlError>,
    ) -> Result<(), CrawlError> {
        let stopped = || CrawlError::Output("the fetch/analyse pipeline stopped".into());
        let mut cited = cited.into_iter();
        let jobs = batch
            .iter()
            .map(|c| Job {
                candidate: c.clone(),
                cited: cited.next().unwrap_or_default(),
            })
            .collect();
        self.batches.send(jobs).await.map_err(|_| stopped())?;
        let mut waiting: Vec<Option<Judged>> = (0..batch.len()).map(|_| None).collect();
        let mut next = 0;
        while next < batch.len() {
            let (i, page) = self.judged.recv().await.ok_or_else(stopped)?;
            if let Some(slot) = waiting.get_mut(i) {
                *slot = Some(page);
            }
            while let (Some(c), Some(mut page)) = (
                batch.get(next),
                waiting.get_mut(next).and_then(Option::take),
            ) {
                if let Some(request) = (self.ask_parents)(&page) {
                    page.parents = Some(request.await);
                }
                let started = Instant::now();
                let applied = apply(c, page);
                self.applying += started.elapsed();
                applied?;
                next += 1;
            }
        }
        Ok(())
    }

    /// Stops the stages and waits for them.
    pub(crate) async fn shutdown(self) {
        let Self {
            batches,
            judged,
            stages,
            ask_parents: _,
            judging: _,
            applying: _,
        } = self;
        drop(batches);
        drop(judged);
        for stage in stages {
            let _ = stage.await;
        }
    }
}

/// Fetches each batch concurrently and passes every outcome on as soon as
/// it arrives. A fetch task that dies still yields an outcome (an error),
/// so the engine never waits for a page that will not come.
async fn fetch_stage<S: Stages>(
    stages: Arc<S>,
    mut batches: mpsc::Receiver<Vec<Job>>,
    out: mpsc::Sender<(usize, Job, FetchOutcome)>,
) {
    while let Some(batch) = batches.recv().await {
        let mut tasks = JoinSet::new();
        for (i, job) in batch.iter().enumerate() {
            let (stages, c) = (stages.clone(), job.candidate.clone());
            tasks.spawn(async move { (i, stages.fetch(&c).await) });
        }
        // Each job leaves with its outcome; those left had no answer.
        let mut unanswered: Vec<Option<Job>> = batch.into_iter().map(Some).collect();
        while let Some(done) = tasks.join_next().await {
            let Ok((i, outcome)) = done else { continue };
            if let Some(c) = unanswered.get_mut(i).and_then(Option::take) {
                if out.send((i, c, outcome)).await.is_err() {
                    return;
                }
            }
        }
        for (i, c) in unanswered.into_iter().enumerate() {
            if let Some(c) = c {
                let lost = Err(FetchError::Protocol("fetch task failed".into()));
                if out.send((i, c, lost)).await.is_err() {
                    return;
                }
            }
        }
    }
}

/// Hands each fetched page to rayon for parsing and classification, adding
/// the time it takes to `judging`; the judged page goes on to the engine.
async fn analyse_stage<S: Stages>(
    stages: Arc<S>,
    mut fetched: mpsc::Receiver<(usize, Job, FetchOutcome)>,
    out: mpsc::Sender<(usize, Judged)>,
    judging: Arc<AtomicU64>,
) {
    while let Some((i, job, outcome)) = fetched.recv().await {
        let (stages, out, judging) = (stages.clone(), out.clone(), judging.clone());
        rayon::spawn(move || {
            let started = Instant::now();
            let page = stages.judge(&job.candidate, &job.cited, &outcome);
            let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
            judging.fetch_add(nanos, Ordering::Relaxed);
            // The engine has gone (an error ended the crawl): nothing to do.
            let _ = out.blocking_send((i, page));
        });
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use focus_core::Canonicalizer;

    use super::*;

    /// Fetches that finish in reverse pop order; a URL containing `panic`
    /// kills its fetch task.
    struct Reversed {
        n: u64,
    }

    impl Stages for Reversed {
        fn fetch(&self, c: &Candidate) -> impl Future<Output = FetchOutcome> + Send {
            let url = c.url.to_string();
            let rank: u64 = url
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            let delay = Duration::from_millis(5 * (self.n - rank));
            async move {
                tokio::time::sleep(delay).await;
                assert!(!url.contains("panic"), "fetch task dies");
                Err(FetchError::Protocol(format!("fetched {url}")))
            }
        }

        fn judge(&self, c: &Candidate, _: &[String], outcome: &FetchOutcome) -> Judged {
            let label = match outcome {
                Err(FetchError::Protocol(m)) => m.clone(),
                Err(e) => e.label(),
                Ok(_) => "ok".into(),
            };
            judge::failed(c, 0, label, focus_fetch::Retry::Never)
        }
    }

    fn batch(host: &str, n: u64) -> Vec<Candidate> {
        let canon = Canonicalizer::default();
        (0..n)
            .map(|i| {
                let url = canon
                    .canonicalize(&format!("http://{host}-{i}.test/p/{i}"))
                    .unwrap();
                Candidate::new(url, 0, None, 1.0)
            })
            .collect()
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn pages_are_applied_in_pop_order_whatever_order_fetches_end() {
        let mut pipeline = Pipeline::start(Reversed { n: 8 }, 8);
        for round in ["a", "b"] {
            let batch = batch(round, 8);
            let mut applied = Vec::new();
            pipeline
                .process(&batch, Vec::new(), |c, page| {
                    applied.push((
                        c.url.to_string(),
                        page.record.url.clone(),
                        page.record.error,
                    ));
                    Ok(())
                })
                .await
                .unwrap();
            let want: Vec<_> = batch
                .iter()
                .map(|c| {
                    let url = c.url.to_string();
                    (url.clone(), url.clone(), Some(format!("fetched {url}")))
                })
                .collect();
            assert_eq!(applied, want);
        }
        pipeline.shutdown().await;
    }

    /// Fetches that end in reverse pop order, judged by the anchors they
    /// were sent with.
    struct Echo;

    impl Stages for Echo {
        fn fetch(&self, c: &Candidate) -> impl Future<Output = FetchOutcome> + Send {
            Reversed { n: 8 }.fetch(c)
        }

        fn judge(&self, c: &Candidate, cited: &[String], _: &FetchOutcome) -> Judged {
            judge::failed(c, 0, cited.join("|"), focus_fetch::Retry::Never)
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn each_page_is_judged_with_its_own_anchors() {
        let mut pipeline = Pipeline::start(Echo, 8);
        let batch = batch("e", 5);
        // Anchors for the first three only: the rest have none.
        let cited: Vec<Vec<String>> = (0..3)
            .map(|i| vec![format!("to {i}"), format!("also {i}")])
            .collect();
        let mut got = Vec::new();
        pipeline
            .process(&batch, cited, |c, page| {
                got.push((c.url.to_string(), page.record.error.unwrap_or_default()));
                Ok(())
            })
            .await
            .unwrap();
        let want: Vec<(String, String)> = batch
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let label = if i < 3 {
                    format!("to {i}|also {i}")
                } else {
                    String::new()
                };
                (c.url.to_string(), label)
            })
            .collect();
        assert_eq!(got, want);
        pipeline.shutdown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dead_fetch_task_still_yields_its_page_as_a_failure() {
        let mut pipeline = Pipeline::start(Reversed { n: 4 }, 4);
        let batch = batch("panic", 4);
        let mut errors = Vec::new();
        pipeline
            .process(&batch, Vec::new(), |_, page| {
                errors.push(page.record.error);
                Ok(())
            })
            .await
            .unwrap();
        assert_eq!(errors.len(), 4);
        assert!(errors.iter().all(Option::is_some), "{errors:?}");
        assert!(errors
            .iter()
            .all(|e| !e.as_deref().unwrap_or("").starts_with("fetched")));
        pipeline.shutdown().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_apply_error_ends_the_batch_and_the_pipeline_still_shuts_down() {
        let mut pipeline = Pipeline::start(Reversed { n: 6 }, 6);
        let batch = batch("c", 6);
        let mut seen = 0;
        let result = pipeline
            .process(&batch, Vec::new(), |_, _| {
                seen += 1;
                if seen == 3 {
                    return Err(CrawlError::Output("disk full".into()));
                }
                Ok(())
            })
            .await;
        assert!(matches!(result, Err(CrawlError::Output(m)) if m == "disk full"));
        assert_eq!(seen, 3, "nothing is applied after the failing page");
        tokio::time::timeout(Duration::from_secs(5), pipeline.shutdown())
            .await
            .unwrap();
    }
}
