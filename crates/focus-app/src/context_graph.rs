//! Diligenti et al.'s context-focused crawler (2000) composed from the
//! crates: target pages of the good topic (sampled, `--targets-file`, or
//! the URL examples of `--examples`) → their context graphs, back-crawled
//! through a backlink source (the web's backlink service over HTTP, or
//! `--backlinks-file`) to `depth` layers (a page in the layer nearest a
//! target; a parent of two pages of one layer counted twice in the next,
//! as the paper's induced graph does; at most `layer_cap` pages per layer,
//! a seeded sample past it) and merged → a breadth-first pass from the
//! seeds whose pages are the reference corpus of the TF-IDF weights → one
//! naive Bayes per layer (focus-classify's [`LayeredNb`], thresholds at
//! the minimum training likelihood, "other" below) → the crawl with
//! [`ContextFocused`], optionally asking for the parents of every page
//! judged on-topic (`--backlink-requests`, [`focus_crawl::parents`]) and
//! rebuilding the graphs and models every `--rebuild-every` pages from the
//! targets found (the crawl stops, is retrained and resumed: the engine's
//! own resume, nothing else).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use focus_classify::{Featurizer, LayeredNb};
use focus_cli::{ContextPlan, CrawlPlan, TopicSource};
use focus_core::{CanonicalUrl, Canonicalizer, Crawler, Dispatch, StopReason, Taxonomy, TopicId};
use focus_crawl::context_graph::ContextFocused;
use focus_crawl::parents::{BacklinkFile, BacklinkService, ParentExpansion, ParentSource};
use focus_crawl::{CrawlConfig, Parts, Truth};
use focus_eval::Summary;
use focus_examples::LoadOptions;
use focus_fetch::{Body, Fetcher};
use focus_text::{SparseVec, TextConfig};

use crate::sample_pass::{breadth_first_sample, run_with_bar, Pass};
use crate::setup::{crawl_config, serve_source, web_fetcher, websim_good, AppError, Served};
use crate::user_input::{fetch_all, read_seeds};

/// What a context-graph run produced.
#[derive(Debug)]
pub struct ContextOutcome {
    /// The crawl's summary (also in `summary.json`).
    pub summary: Summary,
    /// Pages in each layer of the merged context graph (layer 0: the
    /// targets), counted with the paper's repetitions.
    pub layer_sizes: Vec<usize>,
    /// Each layer's threshold (its minimum training likelihood).
    pub thresholds: Vec<f64>,
    /// The rebuilds of the context graphs during the crawl.
    pub rebuilds: Vec<Rebuild>,
}

/// One rebuild of the context graphs during a crawl.
#[derive(Debug, Clone, PartialEq)]
pub struct Rebuild {
    /// Pages fetched when it was made.
    pub at_pages: u64,
    /// Targets added (pages the crawl judged on-topic).
    pub new_targets: usize,
    /// Documents per layer of the rebuilt graph.
    pub layer_sizes: Vec<usize>,
}

/// A seeded, order-free sample of `n` of `items` (by a hash of each item).
fn sample(mut items: Vec<String>, n: usize, seed: u64) -> Vec<String> {
    if items.len() <= n {
        return items;
    }
    items.sort_by_key(|u| {
        (
            xxhash_rust::xxh3::xxh3_64_with_seed(u.as_bytes(), seed),
            u.clone(),
        )
    });
    items.truncate(n);
    items
}

/// Builds merged context graphs and their layer models, remembering every
/// backlink answer and page document, so a rebuild asks only for what is
/// new.
struct GraphBuilder<'a> {
    source: Arc<dyn ParentSource>,
    fetcher: &'a Fetcher,
    featurizer: &'a Featurizer,
    canon: &'a Canonicalizer,
    depth: usize,
    cap: usize,
    seed: u64,
    parents: HashMap<String, Vec<String>>,
    docs: HashMap<String, Option<SparseVec>>,
}

impl GraphBuilder<'_> {
    /// The merged context graphs of `targets`: each layer's URLs (layer 0
    /// = the targets), repetitions kept.
    async fn layers(&mut self, targets: &[String]) -> Vec<Vec<String>> {
        let mut layers = vec![targets.to_vec()];
        let mut placed: HashSet<String> = targets.iter().cloned().collect();
        for i in 1..=self.depth {
            let mut unique: Vec<String> = layers[i - 1].clone();
            unique.sort();
            unique.dedup();
            self.ask(&unique).await;
            // One entry per child it links to: the paper's repetition of a
            // common parent.
            let parents: Vec<String> = unique
                .iter()
                .filter_map(|u| self.parents.get(u))
                .flatten()
                .filter(|p| !placed.contains(*p))
                .cloned()
                .collect();
            let layer = sample(parents, self.cap, self.seed.wrapping_add(i as u64));
            placed.extend(layer.iter().cloned());
            if layer.is_empty() {
                tracing::warn!("context graphs end at layer {}: no more backlinks", i - 1);
                break;
            }
            layers.push(layer);
        }
        layers
    }

    /// Asks the backlink source for the parents of the URLs not asked yet
    /// (all at once; a failed request gives none).
    async fn ask(&mut self, urls: &[String]) {
        let mut running = tokio::task::JoinSet::new();
        let new: Vec<&String> = urls
            .iter()
            .filter(|u| !self.parents.contains_key(*u))
            .collect();
        for u in new {
            let Ok(url) = self.canon.canonicalize(u) else {
                self.parents.insert(u.clone(), Vec::new());
                continue;
            };
            let (source, key) = (self.source.clone(), u.clone());
            running.spawn(async move {
                let found = source.parents(&url).await;
                (key, found)
            });
        }
        while let Some(done) = running.join_next().await {
            match done {
                Ok((key, Ok(found))) => {
                    let found = found.iter().map(ToString::to_string).collect();
                    self.parents.insert(key, found);
                }
                Ok((key, Err(e))) => {
                    tracing::warn!("no backlinks of {key}: {e}");
                    self.parents.insert(key, Vec::new());
                }
                Err(e) => tracing::warn!("a backlink request failed: {e}"),
            }
        }
    }

    /// Each layer's documents (repetitions kept, failed fetches left out),
    /// fetching the pages not fetched yet; trailing empty layers dropped.
    async fn documents(&mut self, layers: &[Vec<String>]) -> Vec<Vec<SparseVec>> {
        let mut new: Vec<&String> = layers
            .iter()
            .flatten()
            .filter(|u| !self.docs.contains_key(*u))
            .collect();
        new.sort();
        new.dedup();
        let urls: Vec<(usize, CanonicalUrl)> = new
            .iter()
            .enumerate()
            .filter_map(|(k, u)| self.canon.canonicalize(u).ok().map(|c| (k, c)))
            .collect();
        let fetched = fetch_all(urls, self.fetcher).await;
        for (k, u) in new.iter().enumerate() {
            let doc = match fetched.get(&k) {
                Some(Ok(page)) => match &page.body {
                    Body::Text(html) => {
                        let doc = focus_html::analyze(html, &page.final_url, self.canon);
                        Some(self.featurizer.document(&doc))
                    }
                    Body::Bytes(_) => None,
                },
                _ => None,
            };
            self.docs.insert((*u).clone(), doc);
        }
        let mut docs: Vec<Vec<SparseVec>> = layers
            .iter()
            .map(|l| {
                l.iter()
                    .filter_map(|u| self.docs.get(u).cloned().flatten())
                    .collect()
            })
            .collect();
        while docs.last().is_some_and(Vec::is_empty) {
            docs.pop();
        }
        docs
    }
}

/// The taxonomy of the layers: `target` (good), `layer-1` … `layer-N`, so
/// layer j is `LayeredNb::class_of(j)`.
fn layer_taxonomy(layers: usize) -> Result<Taxonomy, AppError> {
    let mut t = Taxonomy::new();
    for j in 0..layers {
        let name = if j == 0 {
            "target".to_owned()
        } else {
            format!("layer-{j}")
        };
        let id = t
            .add_path(&name)
            .map_err(|e| AppError::Input(e.to_string()))?;
        if id != LayeredNb::class_of(j) {
            return Err(AppError::Input(format!("layer {j} got topic {id:?}")));
        }
    }
    t.mark_good(LayeredNb::class_of(0))
        .map_err(|e| AppError::Input(e.to_string()))?;
    Ok(t)
}

/// The web of a context crawl: how to fetch it, where to start, the
/// targets, its backlink service (if any) and its truth (if known).
struct ContextWeb {
    fetcher: Fetcher,
    seeds: Vec<CanonicalUrl>,
    targets: Vec<String>,
    search_host: Option<String>,
    truth: Option<Truth>,
}

/// The context crawl's web on a served site (the websim or a corpus).
fn on_site(
    served: &Served,
    plan: &ContextPlan,
    canon: &Canonicalizer,
) -> Result<ContextWeb, AppError> {
    let crawl = &plan.crawl;
    let good = match &crawl.source {
        TopicSource::Websim { good, .. } => websim_good(good),
        source => source.good().to_vec(),
    };
    let site_good = served.good_topics(&good)?;
    let first: TopicId = site_good
        .first()
        .copied()
        .ok_or_else(|| AppError::Input("no good topic".into()))?;
    let targets = match &plan.targets_file {
        Some(file) => read_targets(file, canon)?,
        None => served
            .site
            .sample(first, plan.targets)
            .into_iter()
            .map(|p| p.url)
            .collect(),
    };
    Ok(ContextWeb {
        fetcher: served.fetcher(crawl)?,
        seeds: served.seeds(&site_good, crawl.source.seeds_file(), canon)?,
        targets,
        search_host: Some(served.site.search_host().to_owned()),
        truth: Some(served.truth(&site_good, crawl.max_pages)),
    })
}

/// The context crawl's web for `--examples`: the targets are the good
/// topics' example URLs (or `--targets-file`).
fn on_web(plan: &ContextPlan, canon: &Canonicalizer) -> Result<ContextWeb, AppError> {
    let crawl = &plan.crawl;
    let TopicSource::Examples { dir, good, seeds } = &crawl.source else {
        return Err(AppError::Input("no web to crawl".into()));
    };
    let targets = if let Some(file) = &plan.targets_file {
        read_targets(file, canon)?
    } else {
        let set = focus_examples::load(dir, good, &LoadOptions::default())
            .map_err(|e| AppError::Input(e.to_string()))?;
        let goods = set.taxonomy.good_topics();
        set.urls()
            .filter(|(e, _)| {
                goods
                    .iter()
                    .any(|&g| set.taxonomy.is_ancestor_or_self(g, e.topic))
            })
            .map(|(_, u)| u.to_string())
            .collect()
    };
    if targets.is_empty() {
        return Err(AppError::Input(
            "no target URLs: list them in the good topics' urls.txt or give --targets-file".into(),
        ));
    }
    Ok(ContextWeb {
        fetcher: web_fetcher(crawl)?,
        seeds: read_seeds(seeds, canon)?,
        targets,
        search_host: None,
        truth: None,
    })
}

fn read_targets(file: &std::path::Path, canon: &Canonicalizer) -> Result<Vec<String>, AppError> {
    Ok(read_seeds(file, canon)?
        .into_iter()
        .map(|u| u.to_string())
        .collect())
}

/// Pages of the crawl in `out` judged on-topic (queue 0), most likely
/// first, that are not targets yet: at most `n`.
fn found_targets(
    out: &std::path::Path,
    known: &HashSet<String>,
    n: usize,
) -> Result<Vec<String>, AppError> {
    let crawled = crate::collections::report::read_pages(out)?;
    let mut found: Vec<(f64, String)> = crawled
        .members
        .get("target")
        .into_iter()
        .flatten()
        .filter(|m| !known.contains(&m.url))
        .map(|m| (m.correlation, m.url.clone()))
        .collect();
    found.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    Ok(found.into_iter().take(n).map(|(_, u)| u).collect())
}

/// Runs the context-focused crawler as `plan` says.
pub async fn run_context(plan: &ContextPlan) -> Result<ContextOutcome, AppError> {
    let crawl = &plan.crawl;
    // A wrong --out is refused before the graphs are built.
    focus_crawl::check_config(&segment_config(crawl))?;
    let canon = Canonicalizer::default();
    // Diligenti's text: stop words removed, stemmed.
    let featurizer = Featurizer::new(TextConfig::stemmed());
    let served = serve_source(&crawl.source, crawl.seed).await?;
    let web = match &served {
        Some(served) => on_site(served, plan, &canon)?,
        None => on_web(plan, &canon)?,
    };
    let source: Arc<dyn ParentSource> = match (&plan.backlinks_file, &web.search_host) {
        (Some(file), _) => {
            let links = BacklinkFile::read(file).map_err(|e| AppError::Input(e.to_string()))?;
            tracing::info!(
                "backlinks of {} pages read from {}",
                links.len(),
                file.display()
            );
            Arc::new(links)
        }
        (None, Some(host)) => Arc::new(BacklinkService::new(
            web.fetcher.clone(),
            host,
            plan.layer_cap,
        )),
        (None, None) => {
            return Err(AppError::Input(
                "no backlink source: give --backlinks-file FILE".into(),
            ))
        }
    };

    // The targets and their merged context graph.
    let mut builder = GraphBuilder {
        source: source.clone(),
        fetcher: &web.fetcher,
        featurizer: &featurizer,
        canon: &canon,
        depth: plan.depth,
        cap: plan.layer_cap,
        seed: crawl.seed,
        parents: HashMap::new(),
        docs: HashMap::new(),
    };
    let mut targets = web.targets.clone();
    let layers = builder.layers(&targets).await;
    let docs = builder.documents(&layers).await;
    if docs.len() < 2 || docs.iter().any(Vec::is_empty) {
        return Err(AppError::Input(format!(
            "the context graphs hold too little to train on (documents per layer: {:?})",
            docs.iter().map(Vec::len).collect::<Vec<_>>()
        )));
    }
    let layer_sizes: Vec<usize> = docs.iter().map(Vec::len).collect();
    tracing::info!("merged context graph: documents per layer {layer_sizes:?}");

    // The reference corpus: a breadth-first pass from the seeds.
    let taxonomy = layer_taxonomy(docs.len())?;
    let reference = breadth_first_sample(
        crawl,
        "reference-pass",
        plan.reference_pages,
        Pass {
            fetcher: &web.fetcher,
            taxonomy: &taxonomy,
            featurizer: &featurizer,
            seeds: &web.seeds,
            judge: None,
        },
    )
    .await?;
    let mut model = LayeredNb::train_with_reference(&docs, &reference, true)?;
    tracing::info!(
        "one naive Bayes per layer (reference corpus {} pages); thresholds {:?}",
        reference.len(),
        model.thresholds()
    );
    let thresholds = model.thresholds().to_vec();

    // The crawl, in segments of `--rebuild-every` pages with a rebuild
    // between them (one segment without).
    let mut cfg = segment_config(crawl);
    let every = plan.rebuild_every.unwrap_or(crawl.max_pages).max(1);
    let mut rebuilds = Vec::new();
    let mut segment_end = every;
    let mut summary = loop {
        cfg.max_pages = segment_end.min(crawl.max_pages);
        let parts = Parts {
            fetcher: web.fetcher.clone(),
            classifier: Arc::new(model.clone()),
            taxonomy: taxonomy.clone(),
            featurizer: featurizer.clone(),
            policy: match crawl.strategy.crawler {
                Crawler::Context => Box::new(ContextFocused::with_depth(docs.len() - 1)),
                // The standard focused crawler (best first on P(target |
                // page)) and the baselines, with the same classifier.
                other => focus_crawl::policy::for_crawler(other),
            },
            seeds: web.seeds.clone(),
            truth: web.truth.clone(),
            parents: (plan.backlink_requests > 0)
                .then(|| ParentExpansion::new(source.clone(), plan.backlink_requests)),
            similarity: None,
        };
        let summary = run_with_bar(parts, cfg.clone()).await?;
        let done = summary.pages_fetched;
        if done >= crawl.max_pages || summary.stopped_because != StopReason::MaxPages {
            break summary;
        }
        segment_end = (done / every + 1) * every;
        // The rebuild: the targets found so far join the graph.
        let known: HashSet<String> = targets.iter().cloned().collect();
        let new = found_targets(&crawl.out, &known, plan.targets)?;
        if !new.is_empty() {
            targets.extend(new.iter().cloned());
            let layers = builder.layers(&targets).await;
            let mut rebuilt = builder.documents(&layers).await;
            rebuilt.truncate(docs.len());
            if rebuilt.len() == docs.len() && rebuilt.iter().all(|l| !l.is_empty()) {
                model = LayeredNb::train_with_reference(&rebuilt, &reference, true)?;
                let sizes: Vec<usize> = rebuilt.iter().map(Vec::len).collect();
                tracing::info!(
                    "rebuilt at {done} pages with {} new targets: documents per layer {sizes:?}",
                    new.len()
                );
                rebuilds.push(Rebuild {
                    at_pages: done,
                    new_targets: new.len(),
                    layer_sizes: sizes,
                });
            } else {
                tracing::warn!("the rebuilt graph lost a layer; the models stay as they were");
            }
        }
        // The next segment resumes this crawl with the rebuilt models.
        cfg.resume = true;
    };
    if crawl.compact_store {
        let note = focus_crawl::compact_finished(&crawl.out, &mut summary)?;
        tracing::info!("{note}");
    }
    if let Some(served) = served {
        served.handle.shutdown().await;
    }
    Ok(ContextOutcome {
        summary,
        layer_sizes,
        thresholds,
        rebuilds,
    })
}

/// The engine's configuration of one segment of the crawl: the plan's,
/// with every batch filled (the paper pops the first non-empty queue) and
/// no compaction, since the next segment reopens the store: with
/// `--compact-store` the store is compacted once, after the last segment.
fn segment_config(crawl: &CrawlPlan) -> CrawlConfig {
    let mut cfg = crawl_config(crawl);
    cfg.dispatch = Dispatch::Fill;
    cfg.compact_store = false;
    cfg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_layer_past_its_cap_is_a_seeded_sample() {
        let items: Vec<String> = (0..50).map(|i| format!("u{i}")).collect();
        let a = sample(items.clone(), 10, 7);
        assert_eq!(a.len(), 10);
        let mut shuffled = items.clone();
        shuffled.reverse();
        assert_eq!(
            sample(shuffled, 10, 7),
            a,
            "the input's order does not matter"
        );
        assert_ne!(
            sample(items.clone(), 10, 8),
            a,
            "another seed, another sample"
        );
        assert_eq!(sample(items[..5].to_vec(), 10, 7).len(), 5);
    }

    /// `--compact-store` reaches no segment: each segment's store is
    /// reopened by the next, so the compaction is `run_context`'s, once,
    /// after the loop (the integration test checks it happened).
    #[test]
    fn no_segment_compacts_the_store_the_next_one_reopens() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            args: focus_cli::ContextArgs,
        }
        let flags = ["context-graph", "--rebuild-every", "200", "--compact-store"];
        let plan = Cli::parse_from(flags).args.plan().unwrap();
        assert!(plan.crawl.compact_store, "the flag is read");
        let cfg = segment_config(&plan.crawl);
        assert!(!cfg.compact_store);
        assert_eq!(cfg.dispatch, Dispatch::Fill);
        assert_eq!(cfg.max_pages, plan.crawl.max_pages);
    }

    #[test]
    fn the_layer_taxonomy_names_layers_as_the_classifier_does() {
        let t = layer_taxonomy(5).unwrap();
        assert_eq!(t.path(LayeredNb::class_of(0)), "target");
        assert_eq!(t.path(LayeredNb::class_of(4)), "layer-4");
        assert_eq!(t.good_topics(), vec![LayeredNb::class_of(0)]);
    }
}
