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

use std::collections::HashMap;
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

/// One URL sent to the pipeline (numbered in the order it was sent) and
/// the anchor texts of the links to it that the crawl has seen (empty
/// unless the crawl keeps them).
struct Job {
    seq: u64,
    candidate: Candidate,
    cited: Vec<String>,
}

/// A judged page as it leaves the pipeline: its job's number, its
/// candidate and the page.
type Arrival = (u64, Candidate, Judged);

/// The running stages. Dropping it closes the job channel; the stages
/// then finish their current work and stop.
pub(crate) struct Pipeline {
    jobs: mpsc::Sender<Vec<Job>>,
    judged: mpsc::Receiver<Arrival>,
    /// The number the next job sent gets.
    next_seq: u64,
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
    /// Starts the stages for at most `in_flight` URLs at a time; every
    /// channel is bounded (one set of URLs waiting to be fetched,
    /// `in_flight` pages between each later pair of stages).
    pub(crate) fn start<S: Stages>(stages: S, in_flight: usize) -> Self {
        let stages = Arc::new(stages);
        let asker = stages.clone();
        let ask_parents: AskParents = Arc::new(move |page: &Judged| asker.ask_parents(page));
        let cap = in_flight.max(1);
        let (jobs, jobs_rx) = mpsc::channel::<Vec<Job>>(1);
        let (fetched_tx, fetched_rx) = mpsc::channel(cap);
        let (judged_tx, judged) = mpsc::channel(cap);
        let judging = Arc::new(AtomicU64::new(0));
        let stages = [
            tokio::spawn(fetch_stage(stages.clone(), jobs_rx, fetched_tx)),
            tokio::spawn(analyse_stage(
                stages,
                fetched_rx,
                judged_tx,
                judging.clone(),
            )),
        ];
        Self {
            jobs,
            judged,
            next_seq: 0,
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

    /// Sends `urls` to be fetched and judged; `cited[i]` holds the anchor
    /// texts of the links to `urls[i]` the crawl has seen (missing: none).
    /// Their fetches start at once, beside any still in flight. Returns
    /// the number of the first.
    pub(crate) async fn submit(
        &mut self,
        urls: Vec<Candidate>,
        cited: Vec<Vec<String>>,
    ) -> Result<u64, CrawlError> {
        let first = self.next_seq;
        let mut cited = cited.into_iter();
        let jobs: Vec<Job> = urls
            .into_iter()
            .map(|candidate| {
                let seq = self.next_seq;
                self.next_seq += 1;
                Job {
                    seq,
                    candidate,
                    cited: cited.next().unwrap_or_default(),
                }
            })
            .collect();
        self.jobs.send(jobs).await.map_err(|_| stopped())?;
        Ok(first)
    }

    /// The next judged page, in the order pages finish (cancel safe: a
    /// page is taken only when this returns). Ask for its parents with
    /// [`Pipeline::with_parents`] before applying it.
    pub(crate) async fn arrival(&mut self) -> Result<(Candidate, Judged), CrawlError> {
        let (_, c, page) = self.judged.recv().await.ok_or_else(stopped)?;
        Ok((c, page))
    }

    /// `page` with its parents, if the crawl asks for them.
    pub(crate) async fn with_parents(&self, mut page: Judged) -> Judged {
        if let Some(request) = (self.ask_parents)(&page) {
            page.parents = Some(request.await);
        }
        page
    }

    /// Runs `apply`, counting its time as the sequential stage's.
    pub(crate) fn timed<T>(&mut self, apply: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let out = apply();
        self.applying += started.elapsed();
        out
    }

    /// Fetches, analyses and classifies `batch`, calling `apply(c, page)`
    /// for each candidate `c` and its page in pop order, as soon as the page
    /// and every page before it are judged (and its parents have come, if
    /// it asked for them). `cited[i]` holds the anchor texts of the links
    /// to `batch[i]` the crawl has seen (missing: none). Nothing else may be
    /// in flight. After an error the rest of the batch may still be in
    /// flight: shut the pipeline down.
    pub(crate) async fn process(
        &mut self,
        batch: &[Candidate],
        cited: Vec<Vec<String>>,
        mut apply: impl FnMut(&Candidate, Judged) -> Result<(), CrawlError>,
    ) -> Result<(), CrawlError> {
        let first = self.submit(batch.to_vec(), cited).await?;
        let mut waiting: Vec<Option<Judged>> = (0..batch.len()).map(|_| None).collect();
        let mut next = 0;
        while next < batch.len() {
            let (seq, _, page) = self.judged.recv().await.ok_or_else(stopped)?;
            let slot = usize::try_from(seq - first)
                .ok()
                .and_then(|i| waiting.get_mut(i));
            if let Some(slot) = slot {
                *slot = Some(page);
            }
            while let (Some(c), Some(page)) = (
                batch.get(next),
                waiting.get_mut(next).and_then(Option::take),
            ) {
                let page = self.with_parents(page).await;
                self.timed(|| apply(c, page))?;
                next += 1;
            }
        }
        Ok(())
    }

    /// Stops the stages and waits for them.
    pub(crate) async fn shutdown(self) {
        let Self {
            jobs,
            judged,
            stages,
            ..
        } = self;
        drop(jobs);
        drop(judged);
        for stage in stages {
            let _ = stage.await;
        }
    }
}

/// The error of a pipeline whose stages have stopped.
fn stopped() -> CrawlError {
    CrawlError::Output("the fetch/analyse pipeline stopped".into())
}

/// Fetches every URL it is sent concurrently, those of later sends beside
/// those still in flight, and passes every outcome on as soon as it
/// arrives. A fetch task that dies still yields an outcome (an error), so
/// the engine never waits for a page that will not come.
async fn fetch_stage<S: Stages>(
    stages: Arc<S>,
    mut jobs: mpsc::Receiver<Vec<Job>>,
    out: mpsc::Sender<(Job, FetchOutcome)>,
) {
    let mut tasks = JoinSet::new();
    // Each job leaves with its outcome, found by its fetch task's id.
    let mut in_flight: HashMap<tokio::task::Id, Job> = HashMap::new();
    let mut open = true;
    loop {
        tokio::select! {
            sent = jobs.recv(), if open => match sent {
                Some(sent) => {
                    for job in sent {
                        let (stages, c) = (stages.clone(), job.candidate.clone());
                        let task = tasks.spawn(async move { stages.fetch(&c).await });
                        in_flight.insert(task.id(), job);
                    }
                }
                None => open = false,
            },
            Some(done) = tasks.join_next_with_id() => {
                let (id, outcome) = match done {
                    Ok((id, outcome)) => (id, outcome),
                    Err(e) => (e.id(), Err(FetchError::Protocol("fetch task failed".into()))),
                };
                if let Some(job) = in_flight.remove(&id) {
                    if out.send((job, outcome)).await.is_err() {
                        return;
                    }
                }
            },
            else => return,
        }
    }
}

/// Hands each fetched page to rayon for parsing and classification, adding
/// the time it takes to `judging`; the judged page goes on to the engine.
async fn analyse_stage<S: Stages>(
    stages: Arc<S>,
    mut fetched: mpsc::Receiver<(Job, FetchOutcome)>,
    out: mpsc::Sender<Arrival>,
    judging: Arc<AtomicU64>,
) {
    while let Some((job, outcome)) = fetched.recv().await {
        let (stages, out, judging) = (stages.clone(), out.clone(), judging.clone());
        rayon::spawn(move || {
            let started = Instant::now();
            let page = stages.judge(&job.candidate, &job.cited, &outcome);
            let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
            judging.fetch_add(nanos, Ordering::Relaxed);
            // The engine has gone (an error ended the crawl): nothing to do.
            let _ = out.blocking_send((job.seq, job.candidate, page));
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

    /// Fetches that end at once, but for URLs containing `slow`, which
    /// wait until the test lets them go.
    struct OneSlow {
        go: Arc<tokio::sync::Notify>,
    }

    impl Stages for OneSlow {
        fn fetch(&self, c: &Candidate) -> impl Future<Output = FetchOutcome> + Send {
            let (url, go) = (c.url.to_string(), self.go.clone());
            async move {
                if url.contains("slow") {
                    go.notified().await;
                }
                Err(FetchError::Protocol(format!("fetched {url}")))
            }
        }

        fn judge(&self, c: &Candidate, _: &[String], _: &FetchOutcome) -> Judged {
            judge::failed(c, 0, String::new(), focus_fetch::Retry::Never)
        }
    }

    /// What the stream loop relies on: pages leave as they arrive, and URLs
    /// sent later are fetched while an earlier one is still in flight. A
    /// fetch that never ends until the rest have arrived would hold a
    /// batch applied in pop order for good.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_slow_fetch_holds_only_its_own_slot() {
        let go = Arc::new(tokio::sync::Notify::new());
        let mut pipeline = Pipeline::start(OneSlow { go: go.clone() }, 4);
        let mut first = batch("slow", 1);
        first.extend(batch("a", 3));
        let urls =
            |b: &[Candidate]| -> Vec<String> { b.iter().map(|c| c.url.to_string()).collect() };
        let (slow, rest) = (first[0].url.to_string(), urls(&first[1..]));
        let later = batch("b", 2);
        let arrived = tokio::time::timeout(Duration::from_secs(10), async {
            pipeline.submit(first, Vec::new()).await.unwrap();
            let mut got = Vec::new();
            for _ in 0..3 {
                got.push(pipeline.arrival().await.unwrap().0.url.to_string());
            }
            // The slow fetch is still in flight; a later send goes past it.
            pipeline.submit(later.clone(), Vec::new()).await.unwrap();
            for _ in 0..2 {
                got.push(pipeline.arrival().await.unwrap().0.url.to_string());
            }
            go.notify_one();
            got.push(pipeline.arrival().await.unwrap().0.url.to_string());
            got
        })
        .await
        .expect("every page arrives");
        let mut early = arrived[..3].to_vec();
        early.sort();
        let mut want = rest.clone();
        want.sort();
        assert_eq!(early, want, "the first send's fast pages came first");
        let mut next = arrived[3..5].to_vec();
        next.sort();
        let mut want = urls(&later);
        want.sort();
        assert_eq!(
            next, want,
            "the later send's pages came before the slow one"
        );
        assert_eq!(arrived[5], slow);
        pipeline.shutdown().await;
    }
}
