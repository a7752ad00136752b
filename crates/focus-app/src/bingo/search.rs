//! BINGO!'s result post-processing (§3.6) over a finished crawl: the local
//! search index (focus-search's tantivy [`LocalIndex`]) of every page both
//! phases kept, with its topic, the classifier's confidence and its HITS
//! authority, and `bingo search`'s queries and clusters.

use std::collections::HashMap;
use std::path::Path;
use std::time::Instant;

use focus_core::{PageLine, Taxonomy};
use focus_search::{choose_k, LocalIndex, Query, Ranking, SearchDoc};
use focus_text::docfreq::DocFreq;
use focus_text::vocab::{Vocab, Vocabulary};
use focus_text::weighting::{Bingo as BingoWeighting, Weighting};
use focus_text::{Analyzer, TextConfig};

use super::archetypes::{read_texts, scored};
use crate::setup::AppError;

/// The phases whose pages are indexed, later ones winning.
const PHASES: [&str; 2] = ["learning", "harvesting"];

/// The largest number of clusters `--cluster` tries.
const MAX_CLUSTERS: usize = 8;

/// Results a cluster analysis looks at (at least `--limit`).
const CLUSTERED: usize = 200;

/// The seed of the k-means seeding (the same query, the same clusters).
const CLUSTER_SEED: u64 = 1;

/// Characteristic terms shown per cluster.
const LABEL_TERMS: usize = 5;

#[allow(clippy::needless_pass_by_value)] // used as `map_err(search_error)`
fn search_error(e: focus_search::SearchError) -> AppError {
    AppError::Input(e.to_string())
}

/// Builds `out/index` from the pages of both phases in `out`; returns the
/// number indexed. A page's topic is its class when that is a topic of
/// `taxonomy` other than the root, its confidence the crawl's relevance,
/// its authority the harvesting phase's HITS score (else the learning
/// phase's, else 0).
pub(super) fn index_crawl(out: &Path, taxonomy: &Taxonomy) -> Result<u64, AppError> {
    let mut docs: HashMap<String, SearchDoc> = HashMap::new();
    let mut authority: HashMap<String, f64> = HashMap::new();
    for phase in PHASES {
        let dir = out.join(phase);
        if !dir.join("pages.jsonl").is_file() {
            continue;
        }
        let texts = read_texts(&dir)?;
        if dir.join("authorities.tsv").is_file() {
            authority.extend(scored(&dir, "authorities.tsv")?);
        }
        let pages = std::fs::read_to_string(dir.join("pages.jsonl"))
            .map_err(|e| AppError::Input(format!("{}: {e}", dir.display())))?;
        for p in pages.lines().filter_map(|l| PageLine::parse(l).ok()) {
            let Some(t) = texts.get(&p.url) else { continue };
            let topic = p.class.filter(|c| {
                taxonomy
                    .find(c)
                    .is_some_and(|id| id != focus_core::TopicId::ROOT)
            });
            docs.insert(
                p.url.clone(),
                SearchDoc {
                    url: p.url,
                    title: t.title.clone(),
                    text: t.text.clone(),
                    topic,
                    confidence: p.relevance,
                    authority: 0.0,
                },
            );
        }
    }
    let mut docs: Vec<SearchDoc> = docs.into_values().collect();
    for d in &mut docs {
        d.authority = authority.get(&d.url).copied().unwrap_or(0.0);
    }
    docs.sort_by(|a, b| a.url.cmp(&b.url));
    let index = LocalIndex::create(&out.join("index"), docs).map_err(search_error)?;
    Ok(index.len())
}

/// One cluster of a topic's results.
#[derive(Debug, Clone, PartialEq)]
pub struct Cluster {
    /// Its most characteristic terms (stems).
    pub label: Vec<String>,
    /// The URLs of its results, in result order.
    pub urls: Vec<String>,
}

/// What `bingo search` found.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    /// The ranked results.
    pub hits: Vec<focus_search::Hit>,
    /// How long the query took (the index opened beforehand), in ms.
    pub query_ms: f64,
    /// The clusters of the results, when asked for.
    pub clusters: Option<Vec<Cluster>>,
}

/// Answers `bingo search`: `query` over the index of the crawl in `out`.
pub fn search_crawl(args: &focus_cli::SearchArgs) -> Result<SearchOutcome, AppError> {
    let index = LocalIndex::open(&args.out.join("index")).map_err(|e| {
        AppError::Input(format!(
            "{e} (run `bingo --out {}` first: it builds the index)",
            args.out.display()
        ))
    })?;
    let ranking: Ranking = args.rank.parse().map_err(search_error)?;
    let started = Instant::now();
    let hits = index
        .search(&Query {
            text: &args.query,
            topic: args.topic.as_deref(),
            ranking,
            limit: args.limit,
        })
        .map_err(search_error)?;
    let query_ms = started.elapsed().as_secs_f64() * 1000.0;
    let clusters = if args.cluster {
        let many = index
            .search(&Query {
                text: &args.query,
                topic: args.topic.as_deref(),
                ranking,
                limit: CLUSTERED.max(args.limit),
            })
            .map_err(search_error)?;
        Some(cluster(&args.out, &many)?)
    } else {
        None
    };
    Ok(SearchOutcome {
        hits,
        query_ms,
        clusters,
    })
}

/// k-means over the results' texts (BINGO!'s tf·idf over the results),
/// the number of clusters chosen by impurity, each labelled by its most
/// characteristic stems.
fn cluster(out: &Path, hits: &[focus_search::Hit]) -> Result<Vec<Cluster>, AppError> {
    let mut texts = HashMap::new();
    for phase in PHASES {
        let dir = out.join(phase);
        if dir.join("texts.jsonl").is_file() {
            texts.extend(read_texts(&dir)?);
        }
    }
    let analyzer = Analyzer::new(TextConfig::stemmed());
    let mut vocab = Vocabulary::new();
    let mut kept = Vec::new();
    let mut counts = Vec::new();
    for h in hits {
        if let Some(t) = texts.get(&h.url) {
            let text = format!("{}\n{}", t.title, t.text);
            counts.push(focus_text::counts::counts(&analyzer, &mut vocab, &text));
            kept.push(h.url.clone());
        }
    }
    let mut df = DocFreq::new();
    for c in &counts {
        df.add_document(c);
    }
    let vectors: Vec<_> = counts
        .iter()
        .map(|c| BingoWeighting.weigh(c, &df))
        .collect();
    let (_, clustering) = choose_k(&vectors, 1..=MAX_CLUSTERS, CLUSTER_SEED, 50);
    let labels = clustering.labels(&vocab as &dyn Vocab, LABEL_TERMS);
    Ok(labels
        .into_iter()
        .enumerate()
        .map(|(k, label)| Cluster {
            label,
            urls: clustering
                .members(k)
                .into_iter()
                .map(|i| kept[i].clone())
                .collect(),
        })
        .filter(|c| !c.urls.is_empty())
        .collect())
}
