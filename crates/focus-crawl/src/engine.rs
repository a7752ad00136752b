//! The crawl loop, in named steps: [`open`] the output directory and the
//! store, seed a fresh crawl or resume a stored one, then run [`batches`]
//! ([`one_batch`]: pop, fetch → analyse on the pipeline, apply in pop
//! order; then the store's commit and the distiller when due) until a stop
//! rule holds, or the stream of `stream.rs` under [`Flow::Stream`], and
//! [`summarise`]. The steps both loops take are `loop_steps.rs`. The
//! stages live in their own modules and never import this one.

use std::time::Instant;

use focus_core::{Flow, StopReason};
use focus_eval::Summary;
use focus_fetch::DuplicateDetector;
use focus_frontier::Frontier;
use focus_store::Store;

use crate::apply::{CrawlState, Rules, NEAR_DUPLICATE_BITS};
use crate::compaction;
use crate::config::CrawlConfig;
use crate::crawl_graph::CrawlGraph;
use crate::dispatch::{self, Next, TICK_MS};
use crate::distill_step::{self, distill};
use crate::error::CrawlError;
use crate::link_value::LinkKind;
use crate::loop_steps::{on_page, Cadence, Ends, TOP_K};
use crate::observer::Observer;
use crate::output::{self, PagesLog, TextLog};
use crate::parts::{Parts, Split};
use crate::pipeline::{Busy, PageStages, Pipeline};
use crate::resume;
use crate::scorer::Scorer;
use crate::stored_form::CLOCK_KEY;
use crate::tally::Tally;

/// Runs a crawl to its end and writes the output contract.
pub async fn run(
    parts: Parts,
    cfg: CrawlConfig,
    observer: &mut dyn Observer,
) -> Result<Summary, CrawlError> {
    let started = Instant::now();
    check_config(&cfg)?;
    let Split {
        analysis,
        policy,
        seeds,
        scorer,
    } = parts.split(cfg.keep_text);
    let mut st = open(&cfg, policy.order(), policy.topic_caps())?;
    if cfg.resume && st.store.page_count()? > 0 {
        let notice = resume::resume(&mut st, &analysis, &scorer)?;
        observer.note(&notice);
    } else {
        if cfg.resume {
            // A crawl stopped before it stored a page starts again; so does
            // a mistyped --out, which the user should hear about.
            observer.note(&format!(
                "--resume: no page is stored in {}, so the crawl starts from its seeds",
                cfg.out.display()
            ));
        }
        resume::seed(&mut st, &seeds)?;
    }
    let rules = Rules {
        analysis: &analysis,
        policy: policy.as_ref(),
        scorer: &scorer,
        max_tries: cfg.max_tries.max(1),
    };
    let mut pipeline = Pipeline::start(PageStages::new(analysis.clone()), cfg.batch);
    let mut cadence = Cadence::new(st.tally.fetched, cfg.distill_every);
    // The clock goes on from the last batch of a resumed crawl, so hosts
    // cool as they did.
    let resumed_at = match st.store.get_meta::<u64>(CLOCK_KEY)? {
        Some(at) if cfg.resume => Some(at),
        _ => None,
    };
    let ends = Ends {
        cfg: &cfg,
        policy: policy.as_ref(),
        started,
    };
    let stopped_because = match cfg.flow {
        Flow::Batches => {
            let tick = resumed_at.map_or(0, |at| at / TICK_MS + 1);
            batches(
                &rules,
                &mut st,
                &mut pipeline,
                &ends,
                &mut cadence,
                tick,
                observer,
            )
            .await?
        }
        Flow::Stream => {
            let clock = resumed_at.map_or(0, |at| at + TICK_MS);
            crate::stream::run(
                &rules,
                &mut st,
                &mut pipeline,
                &ends,
                &mut cadence,
                clock,
                observer,
            )
            .await?
        }
    };
    let busy = pipeline.busy();
    pipeline.shutdown().await;
    st.log.flush()?;
    if let Some(texts) = &mut st.texts {
        texts.flush()?;
    }
    st.store.flush()?;
    summarise(&cfg, st, &rules, stopped_because, started, busy, observer)
}

/// The batch loop ([`Flow::Batches`]): pops a batch on the logical clock
/// (tick `tick` first), runs it through the pipeline, applies it in pop
/// order, and goes on until a stop rule holds.
async fn batches(
    rules: &Rules<'_>,
    st: &mut CrawlState,
    pipeline: &mut Pipeline,
    ends: &Ends<'_>,
    cadence: &mut Cadence,
    mut tick: u64,
    observer: &mut dyn Observer,
) -> Result<StopReason, CrawlError> {
    while st.tally.fetched < ends.cfg.max_pages {
        if let Some(reason) = ends.stop_now() {
            return Ok(reason);
        }
        let now = tick * TICK_MS;
        // With pages left and nothing in flight, there is room.
        let Some(next) = ends.next(st, now, 0, &[])? else {
            break;
        };
        let batch = match next {
            Next::Batch { urls, .. } => urls,
            Next::WaitUntil { at, .. } => {
                tick = at.div_ceil(TICK_MS);
                continue;
            }
            Next::Exhausted => return Ok(StopReason::FrontierEmpty),
        };
        tick += 1;
        one_batch(rules, st, pipeline, &batch, now, ends.started, observer).await?;
        cadence.after_pages(ends, st, now, observer)?;
    }
    Ok(StopReason::MaxPages)
}

/// Refuses a configuration the crawl could not run with, before anything
/// is created: a batch of no URLs, an output path that is or lies under a
/// file, or one that already holds a crawl store while `resume` is off.
/// [`run`] checks it first; a program that does slow work before the crawl
/// (training a classifier, fetching example pages) can call it before that
/// work, so a user's mistake is answered at once.
pub fn check_config(cfg: &CrawlConfig) -> Result<(), CrawlError> {
    if cfg.batch == 0 {
        return Err(CrawlError::ZeroBatch);
    }
    if let Some(file) = file_on_the_way(&cfg.out) {
        return Err(CrawlError::NotAFolder(file));
    }
    if cfg.out.join("store").exists() && !cfg.resume {
        return Err(CrawlError::Exists(cfg.out.clone()));
    }
    Ok(())
}

/// The nearest existing path at or above `path` when it is not a folder
/// (`notes.txt` for `notes.txt` or `notes.txt/crawl`): what stops a
/// program from creating `path` as a folder, named so the user learns
/// which path is in the way (the OS would answer "File exists" or "Not a
/// directory" without saying). `None` when `path` is a folder or can be
/// created as one as far as what exists says. A program
/// that writes under a folder it is given (a report's `--out`, a scratch
/// `--work`) asks it before its slow work, as [`check_config`] does for a
/// crawl's output.
pub fn file_on_the_way(path: &std::path::Path) -> Option<std::path::PathBuf> {
    path.ancestors()
        .find(|a| !a.as_os_str().is_empty() && a.exists())
        .filter(|existing| !existing.is_dir())
        .map(std::path::Path::to_path_buf)
}

/// Opens the output directory, the store, the page log and an empty
/// frontier in `order` ([`check_config`] has refused an output path the
/// crawl may not write to).
fn open(
    cfg: &CrawlConfig,
    order: crate::policy::Order,
    topic_caps: Option<focus_frontier::TopicCaps>,
) -> Result<CrawlState, CrawlError> {
    std::fs::create_dir_all(&cfg.out).map_err(|e| CrawlError::io(&cfg.out, e))?;
    let store_dir = cfg.out.join("store");
    let store = Store::open(&store_dir)?;
    let log = PagesLog::create(&cfg.out)?;
    let texts = if cfg.keep_text {
        Some(TextLog::open(&cfg.out, cfg.resume)?)
    } else {
        None
    };
    let mut frontier = Frontier::new(dispatch::discipline(order, cfg.seed));
    if let Some(caps) = topic_caps {
        frontier = frontier.with_topic_caps(caps);
    }
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
    Ok(CrawlState {
        frontier,
        store,
        log,
        texts,
        tally: Tally::new(cfg.window, cfg.stagnation.clone()),
        graph: CrawlGraph::default(),
        duplicates: DuplicateDetector::new(NEAR_DUPLICATE_BITS),
    })
}

/// Fetches, analyses and classifies one batch on the pipeline and applies
/// each page in pop order, reporting progress and the stagnation
/// diagnosis as they come.
async fn one_batch(
    rules: &Rules<'_>,
    st: &mut CrawlState,
    pipeline: &mut Pipeline,
    batch: &[focus_frontier::Candidate],
    now: u64,
    started: Instant,
    observer: &mut dyn Observer,
) -> Result<(), CrawlError> {
    let cited = crate::cited::for_batch(rules.analysis, &st.store, batch)?;
    pipeline
        .process(batch, cited, |c, j| {
            on_page(rules, st, c, &j, now, started, observer)
        })
        .await
}

/// Writes the final outputs (hubs, authorities, summary, harvest plot),
/// closes the store (compacting it if asked) and returns the summary.
fn summarise(
    cfg: &CrawlConfig,
    st: CrawlState,
    rules: &Rules<'_>,
    stopped_because: StopReason,
    started: Instant,
    busy: Busy,
    observer: &mut dyn Observer,
) -> Result<Summary, CrawlError> {
    let d = distill(&st.graph, TOP_K, cfg.hub_percentile)?;
    output::tsv(
        &cfg.out.join("hubs.tsv"),
        &distill_step::named(&st.store, &d.hubs)?,
    )?;
    output::tsv(
        &cfg.out.join("authorities.tsv"),
        &distill_step::named(&st.store, &d.authorities)?,
    )?;
    let tally = &st.tally;
    let scorer: &Scorer = rules.scorer;
    let elapsed = started.elapsed().as_secs_f64();
    let mut summary = Summary {
        crawler: rules.policy.name().to_owned(),
        pages_fetched: tally.fetched,
        duplicate_pages: tally.duplicates,
        failed_fetches: tally.failed(),
        attempts_by_outcome: tally.outcomes.clone(),
        retried_attempts: tally.retried,
        abandoned_by_cause: tally.abandoned.clone(),
        root_ascents: tally.ascents.fetched(),
        root_ascents_answered: tally.ascents.answered(),
        harvest_rate_estimated: tally.tracker.harvest_estimated(),
        pages_per_s: tally.fetched as f64 / elapsed.max(1e-9),
        elapsed_s: elapsed,
        harvest_rate_true: tally.tracker.harvest_true(),
        harvest_rate_true_last_1000: tally.tracker.harvest_true_last(1000),
        recall_true: scorer.recall(tally.relevant_fetched()),
        relevant_pages_true: scorer.relevant_total(),
        stopped_because,
        frontier_left: st.frontier.len() as u64,
        stagnation: tally.stagnation.clone(),
        link_yield_same_site: tally.links.observed_yield(LinkKind::SameSite),
        link_yield_cross_site: tally.links.observed_yield(LinkKind::CrossSite),
        judged_relevant_agreement: tally.tracker.agreement().agreement(),
        judged_relevant_precision: tally.tracker.agreement().precision(),
        judged_relevant_recall: tally.tracker.agreement().recall(),
        backlink_requests: tally.parent_requests,
        backlink_parents: tally.parents_found,
        held_for_promising: tally.held,
        searched_one_at_a_time: tally.searched,
        robots_refused_links: tally.robots_refused_links,
        judge_busy_s: busy.judge_s,
        apply_busy_s: busy.apply_s,
        store_bytes: 0,
        store_bytes_before_compaction: None,
    };
    // Only the store and the tally are used from here: the rest of what
    // the crawl held in memory (frontier, link graph, fingerprints) goes
    // before the store is closed and compacted, so the compaction's copy
    // does not add to it.
    let CrawlState {
        frontier,
        store,
        log,
        texts,
        tally,
        graph,
        duplicates,
    } = st;
    drop((frontier, log, texts, graph, duplicates));
    let store_dir = store.dir().to_path_buf();
    match store.close() {
        Ok(bytes) => {
            summary.store_bytes = bytes;
            if cfg.compact_store {
                observer.note(&compaction::compact_store(&store_dir, &mut summary));
            }
        }
        // The store was flushed before the summary: what failed is only
        // the wait for sled to let go of its files, so the crawl's
        // outputs are still written.
        Err(e) => observer.note(&format!(
            "the store was flushed but not closed ({e}); summary.json's store_bytes is 0"
        )),
    }
    let taxonomy = &rules.analysis.taxonomy;
    let good: Vec<&str> = taxonomy
        .good_topics()
        .into_iter()
        .map(|g| taxonomy.path(g))
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use focus_classify::{Classifier, Featurizer, Judgement};
    use focus_core::{Canonicalizer, Taxonomy};
    use focus_fetch::{FetchConfig, Fetcher};
    use focus_text::SparseVec;

    use super::*;
    use crate::observer::Progress;
    use crate::policy::SoftFocus;

    struct Unsure;

    impl Classifier for Unsure {
        fn classify(&self, _: &SparseVec) -> Judgement {
            Judgement {
                relevance: 0.5,
                best: None,
                scores: Vec::new(),
            }
        }
    }

    struct Quiet;

    impl Observer for Quiet {
        fn page(&mut self, _: &Progress) {}
        fn note(&mut self, _: &str) {}
    }

    fn parts() -> Parts {
        let seed = Canonicalizer::default()
            .canonicalize("http://a.example/")
            .unwrap();
        Parts {
            fetcher: Fetcher::new(FetchConfig::loopback(Vec::new())).unwrap(),
            classifier: Arc::new(Unsure),
            taxonomy: Taxonomy::new(),
            featurizer: Featurizer::default(),
            policy: Box::new(SoftFocus::VLDB),
            seeds: vec![seed],
            truth: None,
            parents: None,
            similarity: None,
        }
    }

    /// An output path that is a file, or lies under one, is refused naming
    /// the file (not the path asked for), and the file is left as it was.
    #[tokio::test]
    async fn an_output_path_at_or_under_a_file_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("notes.txt");
        std::fs::write(&file, "mine").unwrap();
        for out in [file.clone(), file.join("crawl").join("deeper")] {
            let err = run(parts(), CrawlConfig::new(out.clone()), &mut Quiet)
                .await
                .unwrap_err();
            match &err {
                CrawlError::NotAFolder(path) => assert_eq!(path, &file, "--out {}", out.display()),
                other => panic!("--out {}: expected NotAFolder, got {other}", out.display()),
            }
            assert!(err.to_string().contains("not a folder"), "{err}");
            assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine");
        }
    }

    /// An output path whose folders do not exist yet is not refused: the
    /// crawl creates them.
    #[test]
    fn missing_folders_on_the_way_are_no_obstacle() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a").join("b");
        assert_eq!(file_on_the_way(&out), None);
        assert_eq!(file_on_the_way(std::path::Path::new("relative/out")), None);
    }

    /// A library user's `CrawlConfig` with a batch of no URLs is refused
    /// before anything is opened, as the CLI refuses `--concurrency 0`,
    /// rather than crawling one URL per batch or stopping as if the
    /// frontier were empty.
    #[tokio::test]
    async fn a_batch_of_no_urls_is_refused_before_the_crawl_opens() {
        let parts = parts();
        let out = tempfile::tempdir().unwrap();
        let mut cfg = CrawlConfig::new(out.path().join("crawl"));
        cfg.batch = 0;
        let err = run(parts, cfg, &mut Quiet).await.unwrap_err();
        assert!(matches!(err, CrawlError::ZeroBatch), "{err}");
        assert!(err.to_string().contains("at least 1"), "{err}");
        assert!(!out.path().join("crawl").exists(), "nothing is written");
    }
}
