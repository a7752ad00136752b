//! Diligenti et al.'s context-focused crawler (2000) composed from the
//! crates: target pages of the good topic (sampled, or `--targets-file`) → their context graphs,
//! back-crawled through the site's backlink service over HTTP to `depth`
//! layers (a page in the layer nearest a target; a parent of two pages of
//! one layer counted twice in the next, as the paper's induced graph does;
//! at most `layer_cap` pages per layer, a seeded sample past it) and merged
//! → a breadth-first pass from the seeds whose pages are the reference
//! corpus of the TF-IDF weights → one naive Bayes per layer
//! (focus-classify's [`LayeredNb`], thresholds at the minimum training
//! likelihood, "other" below) → the crawl with [`ContextFocused`].

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::sync::Arc;

use focus_classify::{Featurizer, LayeredNb};
use focus_cli::{ContextPlan, TopicSource};
use focus_core::{CanonicalUrl, Canonicalizer, Crawler, Dispatch, Taxonomy};
use focus_crawl::context_graph::ContextFocused;
use focus_crawl::Parts;
use focus_eval::Summary;
use focus_fetch::{Body, Fetcher};
use focus_text::{SparseVec, TextConfig};
use focus_websim::{Corpus, Site};

use crate::sample_pass::{breadth_first_sample, run_with_bar, Pass};
use crate::setup::{crawl_config, fetch_all, read_seeds, websim, websim_good, AppError, Served};

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
}

/// `%XX`-escapes everything but unreserved characters (RFC 3986).
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// A seeded, order-free sample of `n` of `items` (by a hash of each item).
fn sample(mut items: Vec<String>, n: usize, seed: u64) -> Vec<String> {
    if items.len() <= n {
        return items;
    }
    items.sort_by_key(|u| (fnv1a(u, seed), u.clone()));
    items.truncate(n);
    items
}

fn fnv1a(s: &str, seed: u64) -> u64 {
    // FNV-1a with the seed folded in: stable across platforms and builds.
    let mut h = 0xcbf2_9ce4_8422_2325u64 ^ seed;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Back-crawls the context graphs of `targets` to `depth` layers through
/// the backlink service on `search_host`; returns the layers' URLs
/// (layer 0 = the targets), repetitions kept.
async fn context_graphs(
    targets: &[String],
    depth: usize,
    cap: usize,
    seed: u64,
    search_host: &str,
    fetcher: &Fetcher,
    canon: &Canonicalizer,
) -> Vec<Vec<String>> {
    let mut layers = vec![targets.to_vec()];
    let mut placed: HashSet<String> = targets.iter().cloned().collect();
    for i in 1..=depth {
        let prev = &layers[i - 1];
        let mut unique: Vec<&String> = prev.iter().collect();
        unique.sort();
        unique.dedup();
        let asks: Vec<(usize, CanonicalUrl)> = unique
            .iter()
            .enumerate()
            .filter_map(|(k, u)| {
                let q = format!("http://{search_host}/backlinks?url={}&max={cap}", escape(u));
                canon.canonicalize(&q).ok().map(|c| (k, c))
            })
            .collect();
        let answers = fetch_all(asks, fetcher).await;
        let mut parents = Vec::new();
        for k in 0..unique.len() {
            if let Some(Ok(page)) = answers.get(&k) {
                if let Body::Text(list) = &page.body {
                    // One entry per child it links to: the paper's
                    // repetition of a common parent.
                    parents.extend(
                        list.lines()
                            .map(str::trim)
                            .filter(|l| !l.is_empty() && !placed.contains(*l))
                            .map(str::to_owned),
                    );
                }
            }
        }
        let layer = sample(parents, cap, seed.wrapping_add(i as u64));
        placed.extend(layer.iter().cloned());
        if layer.is_empty() {
            tracing::warn!("context graphs end at layer {}: no more backlinks", i - 1);
            break;
        }
        layers.push(layer);
    }
    layers
}

/// Fetches and featurizes every distinct URL of the layers; returns each
/// layer's documents (repetitions kept, failed fetches left out).
async fn layer_documents(
    layers: &[Vec<String>],
    fetcher: &Fetcher,
    featurizer: &Featurizer,
    canon: &Canonicalizer,
) -> Vec<Vec<SparseVec>> {
    let mut distinct: Vec<&String> = layers.iter().flatten().collect();
    distinct.sort();
    distinct.dedup();
    let urls: Vec<(usize, CanonicalUrl)> = distinct
        .iter()
        .enumerate()
        .filter_map(|(k, u)| canon.canonicalize(u).ok().map(|c| (k, c)))
        .collect();
    let fetched = fetch_all(urls, fetcher).await;
    let mut docs: HashMap<&str, SparseVec> = HashMap::new();
    for (k, u) in distinct.iter().enumerate() {
        if let Some(Ok(page)) = fetched.get(&k) {
            if let Body::Text(html) = &page.body {
                let doc = focus_html::analyze(html, &page.final_url, canon);
                docs.insert(u.as_str(), featurizer.document(&doc));
            }
        }
    }
    layers
        .iter()
        .map(|l| {
            l.iter()
                .filter_map(|u| docs.get(u.as_str()).cloned())
                .collect()
        })
        .collect()
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

/// Runs the context-focused crawler as `plan` says.
pub async fn run_context(plan: &ContextPlan) -> Result<ContextOutcome, AppError> {
    let crawl = &plan.crawl;
    let canon = Canonicalizer::default();
    // Diligenti's text: stop words removed, stemmed.
    let featurizer = Featurizer::new(TextConfig::stemmed());
    let (site, good, seeds_file): (Arc<dyn Site>, Vec<String>, _) = match &crawl.source {
        TopicSource::Websim {
            good,
            seeds,
            pages,
            dead_links,
            page_faults,
        } => (
            websim(*pages, *dead_links, *page_faults, crawl.seed)?,
            websim_good(good),
            seeds.clone(),
        ),
        TopicSource::Corpus {
            dir, good, seeds, ..
        } => (
            Arc::new(Corpus::load(dir).map_err(|e| AppError::Input(e.to_string()))?),
            good.clone(),
            seeds.clone(),
        ),
        TopicSource::Examples { .. } => {
            return Err(AppError::Input(
                "context-graph needs a backlink service: the websim or --corpus".into(),
            ))
        }
    };
    let served = Served::start(site, "web").await?;
    let fetcher = served.fetcher(crawl)?;
    let site_good = served.good_topics(&good)?;
    let seeds = served.seeds(&site_good, seeds_file.as_deref(), &canon)?;
    let truth = served.truth(&site_good, crawl.max_pages);
    let first = site_good
        .first()
        .copied()
        .ok_or_else(|| AppError::Input("no good topic".into()))?;

    // The targets and their merged context graph.
    let targets: Vec<String> = match &plan.targets_file {
        Some(file) => read_seeds(file, &canon)?
            .into_iter()
            .map(|u| u.to_string())
            .collect(),
        None => served
            .site
            .sample(first, plan.targets)
            .into_iter()
            .map(|p| p.url)
            .collect(),
    };
    let search_host = served.site.search_host().to_owned();
    let layers = context_graphs(
        &targets,
        plan.depth,
        plan.layer_cap,
        crawl.seed,
        &search_host,
        &fetcher,
        &canon,
    )
    .await;
    let mut docs = layer_documents(&layers, &fetcher, &featurizer, &canon).await;
    while docs.last().is_some_and(Vec::is_empty) {
        docs.pop();
    }
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
            fetcher: &fetcher,
            taxonomy: &taxonomy,
            featurizer: &featurizer,
            seeds: &seeds,
            judge: None,
        },
    )
    .await?;
    let model = LayeredNb::train_with_reference(&docs, &reference, true)?;
    tracing::info!(
        "one naive Bayes per layer (reference corpus {} pages); thresholds {:?}",
        reference.len(),
        model.thresholds()
    );

    // The crawl.
    let mut cfg = crawl_config(crawl);
    // The paper pops the first non-empty queue: every batch filled.
    cfg.dispatch = Dispatch::Fill;
    let parts = Parts {
        fetcher,
        classifier: Arc::new(model.clone()),
        taxonomy,
        featurizer,
        policy: match crawl.strategy.crawler {
            Crawler::Context => Box::new(ContextFocused::with_depth(docs.len() - 1)),
            // The standard focused crawler (best first on P(target | page))
            // and the baselines, with the same classifier.
            other => focus_crawl::policy::for_crawler(other),
        },
        seeds,
        truth: Some(truth),
    };
    let summary = run_with_bar(parts, cfg).await;
    served.handle.shutdown().await;
    Ok(ContextOutcome {
        summary: summary?,
        layer_sizes,
        thresholds: model.thresholds().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_escaped_for_a_query_parameter() {
        assert_eq!(
            escape("http://a.test/x?y=1&z"),
            "http%3A%2F%2Fa.test%2Fx%3Fy%3D1%26z"
        );
    }

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

    #[test]
    fn the_layer_taxonomy_names_layers_as_the_classifier_does() {
        let t = layer_taxonomy(5).unwrap();
        assert_eq!(t.path(LayeredNb::class_of(0)), "target");
        assert_eq!(t.path(LayeredNb::class_of(4)), "layer-4");
        assert_eq!(t.good_topics(), vec![LayeredNb::class_of(0)]);
    }
}
