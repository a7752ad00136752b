//! Bergmark's collection synthesis (2002) composed from the crates: topics
//! → search-service queries → seed pages → one TF-IDF centroid per topic
//! (focus-classify's [`Centroids`]) → the centroid quality report → an
//! optional pre-crawl pass that re-estimates idf (§6.4) → one crawl with
//! the [`CollectionSynthesis`] policy (threshold, cutoff, full
//! collections, never-follow patterns) → every collection ranked by
//! correlation, with precision at rank against the site's truth.

pub(crate) mod report;
mod topics;

use std::collections::BTreeMap;
use std::sync::Arc;

use focus_classify::{CentroidConfig, Centroids, DocumentFrequencies, Featurizer};
use focus_cli::{CollectionPlan, IdfSource, TopicSource, MIN_SEED_PAGES};
use focus_core::{Canonicalizer, Dispatch, TopicId};
use focus_crawl::collections::CollectionSynthesis;
use focus_crawl::{Parts, Truth};
use focus_eval::Summary;

pub use report::{Collection, CollectionsReport, Member, RANKS};
pub use topics::{parse_topics, TopicSpec, CORPUS_TOPICS, WEBSIM_TOPICS};

use crate::sample_pass::{breadth_first_sample, run_with_bar, Pass};
use crate::setup::{crawl_config, serve_source, web_fetcher, AppError};

/// What a collection-synthesis run produced.
#[derive(Debug)]
pub struct CollectionsOutcome {
    /// The crawl's summary (also in `summary.json`).
    pub summary: Summary,
    /// The collections (also in `collections.json`).
    pub report: CollectionsReport,
}

/// Runs collection synthesis as `plan` says and writes its outputs.
pub async fn run_collections(plan: &CollectionPlan) -> Result<CollectionsOutcome, AppError> {
    let canon = Canonicalizer::default();
    let featurizer = Featurizer::default();
    let crawl = &plan.crawl;
    // A wrong --out is refused before the topics are searched and the
    // statistics crawled.
    focus_crawl::check_config(&crawl_config(crawl))?;
    // The web: a served site (websim or corpus) or the real one.
    if !plan.web && matches!(crawl.source, TopicSource::Examples { .. }) {
        return Err(AppError::Input(
            "collection-synth does not train on --examples".into(),
        ));
    }
    let served = if plan.web {
        None
    } else {
        serve_source(&crawl.source, crawl.seed).await?
    };
    let is_websim = matches!(crawl.source, TopicSource::Websim { .. });
    let site = served.as_ref().map(|s| s.site.clone());
    let fetcher = match &served {
        Some(s) => s.fetcher(crawl)?,
        None => web_fetcher(crawl)?,
    };

    // Topics and their seed pages.
    let mut specs = match (&plan.topics, &site) {
        (Some(file), _) => topics::read_topics(file)?,
        (None, Some(site)) => topics::site_topics(site.as_ref(), crawl.source.good(), is_websim)?,
        (None, None) => {
            return Err(AppError::Input(
                "crawling the web needs --topics FILE".into(),
            ))
        }
    };
    let search_host = site.as_ref().map(|s| s.search_host().to_owned());
    topics::search(
        &mut specs,
        search_host.as_deref(),
        plan.results,
        &fetcher,
        &canon,
    )
    .await?;
    let (taxonomy, ids) = topics::taxonomy(&specs)?;
    let (examples, mut seeds) =
        topics::seed_examples(&specs, &ids, &fetcher, &featurizer, &canon).await;
    if let Some(f) = crawl.source.seeds_file() {
        seeds = crate::user_input::read_seeds(f, &canon)?;
    }
    if seeds.is_empty() {
        return Err(AppError::Input(
            "no seed pages: every search came back empty".into(),
        ));
    }

    // Centroids and the paper's check before crawling.
    let mut model = Centroids::train(
        &examples,
        CentroidConfig {
            top_k: plan.terms,
            min_overlap: plan.min_overlap,
            min_examples: MIN_SEED_PAGES,
        },
    )?;
    let quality = model.quality(&examples);
    tracing::info!(
        "{} centroids of {} terms (dictionary {}); {:.0} % of their seed pages assigned back to their own centroid",
        model.topics().len(),
        plan.terms,
        model.dictionary().len(),
        100.0 * quality.self_assigned()
    );
    let nearest: BTreeMap<TopicId, (TopicId, f64)> = quality
        .nearest()
        .into_iter()
        .filter_map(|(t, n)| Some((t, n?)))
        .collect();
    for (i, t) in quality.topics.iter().enumerate() {
        let (own, of) = quality.own[i];
        tracing::info!(
            "centroid `{}`: {own} of {of} seed pages assigned back to it; nearest centroid {}",
            taxonomy.path(*t),
            nearest.get(t).map_or("none".to_owned(), |(n, s)| format!(
                "`{}` (cosine {s:.2})",
                taxonomy.path(*n)
            ))
        );
    }
    for t in &ids {
        if !model.topics().contains(t) {
            tracing::warn!(
                "topic `{}` has fewer than {MIN_SEED_PAGES} seed pages: no centroid",
                taxonomy.path(*t)
            );
        }
    }

    // The truth, when the web has it: judges a URL against one topic.
    let site_topic: BTreeMap<TopicId, TopicId> = match &site {
        Some(site) => ids
            .iter()
            .zip(&specs)
            .filter_map(|(&id, s)| Some((id, site.find_topic(&s.name)?)))
            .collect(),
        None => BTreeMap::new(),
    };
    // A page the site has no label for is not in the category.
    let judge_topic = |url: &str, topic: TopicId| -> Option<bool> {
        let site = site.as_ref()?;
        let t = site_topic.get(&topic)?;
        Some(site.truth_relevant(url, &[*t]).unwrap_or(false))
    };

    // idf: from the seed pages, or re-estimated by a pre-crawl pass.
    let idf = match plan.idf {
        IdfSource::Seeds => "seed pages".to_owned(),
        IdfSource::PreCrawl(pages) => {
            let df = idf_pass(
                plan,
                pages,
                &model,
                &fetcher,
                &taxonomy,
                &featurizer,
                &seeds,
            )
            .await?;
            model.reestimate_idf_from(&df);
            format!("pre-crawl of {} pages", df.docs())
        }
    };

    // The crawl.
    let mut policy = CollectionSynthesis::new(plan.threshold, plan.cutoff)
        .never_following(plan.never_follow.clone());
    if let Some(n) = plan.collection_size {
        policy = policy.with_capacity(n);
    }
    if crawl.resume && crawl.out.join("pages.jsonl").is_file() {
        let before = report::read_pages(&crawl.out)?;
        let sizes = report::nugget_counts(&before, plan.threshold)
            .into_iter()
            .filter_map(|(path, n)| Some((taxonomy.find(&path)?, n)))
            .collect();
        policy = policy.with_sizes(sizes);
    }
    let truth = site.as_ref().map(|site| {
        let good: Vec<TopicId> = site_topic.values().copied().collect();
        let relevant_total = good.iter().map(|&g| site.truth_count(g)).sum();
        let judge = site.clone();
        Truth {
            is_relevant: Arc::new(move |url| judge.truth_relevant(url, &good)),
            relevant_total,
        }
    });
    let mut cfg = crawl_config(crawl);
    // Mercator filled every fetch slot; first come first served.
    cfg.dispatch = Dispatch::Fill;
    let parts = Parts {
        fetcher: fetcher.clone(),
        classifier: Arc::new(model.clone()),
        taxonomy: taxonomy.clone(),
        featurizer,
        policy: Box::new(policy),
        seeds,
        truth,
        parents: None,
        similarity: None,
    };
    let summary = run_with_bar(parts, cfg).await?;

    // The collections.
    let crawled = report::read_pages(&crawl.out)?;
    let dir = crawl.out.join("collections");
    std::fs::create_dir_all(&dir)
        .map_err(|e| AppError::Input(format!("{}: {e}", dir.display())))?;
    let fetched = crawled.pages.len();
    let mut collections = Vec::new();
    for (spec, &id) in specs.iter().zip(&ids) {
        let name = taxonomy.path(id).to_owned();
        let members: Vec<Member> = crawled
            .members
            .get(&name)
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|m| Member {
                relevant: judge_topic(&m.url, id),
                ..m
            })
            .collect();
        let ranked = report::ranked(members);
        report::write_tsv(&dir, &name, &ranked)?;
        let judged: Vec<bool> = ranked.iter().filter_map(|m| m.relevant).collect();
        let precision_all = (!judged.is_empty() && judged.len() == ranked.len())
            .then(|| judged.iter().filter(|&&r| r).count() as f64 / judged.len() as f64);
        let category_share = site_topic.contains_key(&id).then(|| {
            let hits = crawled
                .pages
                .iter()
                .filter(|(url, _, _)| judge_topic(url, id) == Some(true))
                .count();
            hits as f64 / fetched.max(1) as f64
        });
        let pos = quality.topics.iter().position(|&t| t == id);
        collections.push(Collection {
            name,
            query: spec.query.clone(),
            seed_pages: examples.iter().filter(|e| e.topic == id).count(),
            seed_precision: seed_precision(&spec.urls, |u| judge_topic(u, id)),
            has_centroid: pos.is_some(),
            seeds_self_assigned: pos.map_or((0, 0), |i| quality.own[i]),
            nearest: nearest
                .get(&id)
                .map(|&(t, s)| (taxonomy.path(t).to_owned(), s)),
            size: ranked.len(),
            nuggets: ranked
                .iter()
                .filter(|m| m.correlation >= plan.threshold)
                .count(),
            precision: RANKS
                .iter()
                .map(|&k| report::precision_at(&ranked, k))
                .collect(),
            precision_all,
            category_share,
        });
    }
    let mean_precision = (0..RANKS.len())
        .map(|i| {
            let got: Vec<f64> = collections.iter().filter_map(|c| c.precision[i]).collect();
            let mean = (!got.is_empty()).then(|| got.iter().sum::<f64>() / got.len() as f64);
            (mean, got.len())
        })
        .collect();
    let report = CollectionsReport {
        collections,
        fetched_pages: fetched as u64,
        idf,
        threshold: plan.threshold,
        mean_precision,
        centroid_similarity: (
            quality
                .topics
                .iter()
                .map(|&t| taxonomy.path(t).to_owned())
                .collect(),
            quality.similarity.clone(),
        ),
    };
    let by_name: BTreeMap<String, TopicId> = ids
        .iter()
        .map(|&id| (taxonomy.path(id).to_owned(), id))
        .collect();
    let svg = report::scatter(
        &format!("collection synthesis: {} collections", ids.len()),
        &crawled,
        &|url, class| judge_topic(url, *by_name.get(class)?),
    );
    write(&crawl.out.join("collections.svg"), &svg)?;
    let json = serde_json::to_string_pretty(&report)
        .map_err(|e| AppError::Input(format!("collections.json: {e}")))?;
    write(&crawl.out.join("collections.json"), &json)?;
    write(&crawl.out.join("collections.md"), &report::table(&report))?;
    if let Some(s) = served {
        s.handle.shutdown().await;
    }
    Ok(CollectionsOutcome { summary, report })
}

/// The file name (without `.tsv`) of a topic's collection in
/// `collections/`.
pub fn collection_slug(name: &str) -> String {
    report::slug(name)
}

/// The report as the markdown table `collections.md` holds.
pub fn collections_table(report: &CollectionsReport) -> String {
    report::table(report)
}

/// The share of `urls` that `judge` puts in the category (`None` without
/// URLs or truth).
fn seed_precision(urls: &[String], judge: impl Fn(&str) -> Option<bool>) -> Option<f64> {
    let judged: Vec<bool> = urls.iter().map(|u| judge(u)).collect::<Option<_>>()?;
    (!judged.is_empty()).then(|| judged.iter().filter(|&&r| r).count() as f64 / judged.len() as f64)
}

fn write(path: &std::path::Path, text: &str) -> Result<(), AppError> {
    std::fs::write(path, text).map_err(|e| AppError::Input(format!("{}: {e}", path.display())))
}

/// §6.4's pre-crawl pass: a breadth-first crawl of `pages` pages from the
/// seeds (in `OUT/idf-pass`) whose pages' document frequencies re-estimate
/// idf; kept in `OUT/idf.json` so a resumed run does not crawl it again.
async fn idf_pass(
    plan: &CollectionPlan,
    pages: u64,
    model: &Centroids,
    fetcher: &focus_fetch::Fetcher,
    taxonomy: &focus_core::Taxonomy,
    featurizer: &Featurizer,
    seeds: &[focus_core::CanonicalUrl],
) -> Result<DocumentFrequencies, AppError> {
    let out = &plan.crawl.out;
    let saved = out.join("idf.json");
    if plan.crawl.resume {
        if let Ok(text) = std::fs::read_to_string(&saved) {
            if let Ok(df) = serde_json::from_str::<DocumentFrequencies>(&text) {
                return Ok(df);
            }
        }
    }
    let docs = breadth_first_sample(
        &plan.crawl,
        "idf-pass",
        pages,
        Pass {
            fetcher,
            taxonomy,
            featurizer,
            seeds,
            judge: Some(Arc::new(model.clone())),
        },
    )
    .await?;
    let mut df = model.document_frequencies();
    for d in &docs {
        model.count_document(&mut df, d);
    }
    std::fs::create_dir_all(out).map_err(|e| AppError::Input(format!("{}: {e}", out.display())))?;
    let json = serde_json::to_string(&df).map_err(|e| AppError::Input(format!("idf.json: {e}")))?;
    write(&saved, &json)?;
    Ok(df)
}
