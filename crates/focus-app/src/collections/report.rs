//! What a collection-synthesis crawl built: each collection's pages ranked
//! by correlation with its centroid (Bergmark's precision against rank),
//! read back from `pages.jsonl`, judged against the site's truth when it
//! has one; written as `collections/<topic>.tsv`, `collections.json`, a
//! scatter of correlation against download order (the paper's Figures
//! 7–8) and a table.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::BufRead as _;
use std::path::Path;

use focus_core::PageLine;
use focus_eval::Series;
use serde::Serialize;

use crate::setup::AppError;

/// The ranks at which precision is read (the paper plots it against rank;
/// its crawl's collection ended near 0.5).
pub const RANKS: [usize; 3] = [10, 50, 100];

/// A page of a collection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Member {
    /// Its URL.
    pub url: String,
    /// Correlation with the collection's centroid.
    pub correlation: f64,
    /// Its place among the crawl's fetched pages (1 for the first).
    pub downloaded: u64,
    /// Whether it belongs to the collection's category (when known).
    pub relevant: Option<bool>,
}

/// One collection's report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Collection {
    /// Topic name.
    pub name: String,
    /// The search query that found its seed pages, if any.
    pub query: Option<String>,
    /// Seed pages fetched for its centroid.
    pub seed_pages: usize,
    /// The share of its seed pages (search results or given URLs) that
    /// belong to its category (when there is truth): what its centroid
    /// was built from.
    pub seed_precision: Option<f64>,
    /// Whether it had enough seed pages for a centroid.
    pub has_centroid: bool,
    /// Its seed pages assigned back to its own centroid, of all of them.
    pub seeds_self_assigned: (usize, usize),
    /// The most alike other centroid and their cosine similarity.
    pub nearest: Option<(String, f64)>,
    /// Pages assigned to it.
    pub size: usize,
    /// Of them, nuggets (correlation at least the threshold).
    pub nuggets: usize,
    /// Precision at each of [`RANKS`] (`None` when the collection is
    /// smaller or there is no truth).
    pub precision: Vec<Option<f64>>,
    /// Precision over the whole collection (when there is truth).
    pub precision_all: Option<f64>,
    /// The share of the crawl's fetched pages that belong to its category
    /// (when there is truth): the precision of taking pages at random.
    pub category_share: Option<f64>,
}

/// The report of a whole crawl.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CollectionsReport {
    /// One entry per topic.
    pub collections: Vec<Collection>,
    /// Pages fetched and analysed.
    pub fetched_pages: u64,
    /// Where idf came from (`seeds` or `pre-crawl of N pages`).
    pub idf: String,
    /// The nugget threshold.
    pub threshold: f64,
    /// Mean precision at each of [`RANKS`] over the collections that reach
    /// it, and how many do.
    pub mean_precision: Vec<(Option<f64>, usize)>,
    /// The topics with a centroid and the cosine similarity of every pair
    /// of their centroids (the paper's Figure 4 check: centroids should
    /// stand apart).
    pub centroid_similarity: (Vec<String>, Vec<Vec<f64>>),
}

/// Pages of a crawl as its collections hold them.
#[derive(Debug, Default)]
pub(crate) struct Crawled {
    /// Per topic path: its members in download order.
    pub members: BTreeMap<String, Vec<Member>>,
    /// Every fetched, analysed page's URL, in download order, with its
    /// best correlation (for the scatter) and the collection it went to.
    pub pages: Vec<(String, f64, Option<String>)>,
}

/// Reads `pages.jsonl`: every page fetched without error and not a
/// duplicate, with its class (the best centroid) and correlation.
pub(crate) fn read_pages(out: &Path) -> Result<Crawled, AppError> {
    let path = out.join("pages.jsonl");
    let file = std::fs::File::open(&path)
        .map_err(|e| AppError::Input(format!("{}: {e}", path.display())))?;
    let mut crawled = Crawled::default();
    for line in std::io::BufReader::new(file).lines() {
        let line = line.map_err(|e| AppError::Input(format!("{}: {e}", path.display())))?;
        let Ok(p) = serde_json::from_str::<PageLine>(&line) else {
            continue;
        };
        if p.error.is_some() || p.retry || p.duplicate.is_some() {
            continue;
        }
        let downloaded = crawled.pages.len() as u64 + 1;
        if let Some(class) = &p.class {
            crawled
                .members
                .entry(class.clone())
                .or_default()
                .push(Member {
                    url: p.url.clone(),
                    correlation: p.relevance,
                    downloaded,
                    relevant: None,
                });
        }
        crawled.pages.push((p.url, p.relevance, p.class));
    }
    Ok(crawled)
}

/// Nuggets per topic path in an earlier part of a crawl (for a resumed
/// crawl's policy).
pub(crate) fn nugget_counts(crawled: &Crawled, threshold: f64) -> BTreeMap<String, u64> {
    crawled
        .members
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                v.iter().filter(|m| m.correlation >= threshold).count() as u64,
            )
        })
        .collect()
}

/// Ranks a collection's members by correlation (ties: downloaded first).
pub(crate) fn ranked(mut members: Vec<Member>) -> Vec<Member> {
    members.sort_by(|a, b| {
        b.correlation
            .total_cmp(&a.correlation)
            .then(a.downloaded.cmp(&b.downloaded))
    });
    members
}

/// Precision at `k` of a ranked, judged list (`None` when it is shorter
/// than `k` or a page in the top `k` has no truth).
pub(crate) fn precision_at(ranked: &[Member], k: usize) -> Option<f64> {
    if ranked.len() < k || k == 0 {
        return None;
    }
    let mut hits = 0;
    for m in &ranked[..k] {
        hits += usize::from(m.relevant?);
    }
    Some(hits as f64 / k as f64)
}

/// The file name of a topic's collection.
pub(crate) fn slug(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Writes `collections/<topic>.tsv` (rank, correlation, download order,
/// relevant, URL).
pub(crate) fn write_tsv(dir: &Path, name: &str, ranked: &[Member]) -> Result<(), AppError> {
    let mut s = String::from("rank\tcorrelation\tdownloaded\trelevant\turl\n");
    for (i, m) in ranked.iter().enumerate() {
        let rel = match m.relevant {
            Some(true) => "1",
            Some(false) => "0",
            None => "",
        };
        let _ = writeln!(
            s,
            "{}\t{:.4}\t{}\t{rel}\t{}",
            i + 1,
            m.correlation,
            m.downloaded,
            m.url
        );
    }
    let path = dir.join(format!("{}.tsv", slug(name)));
    std::fs::write(&path, s).map_err(|e| AppError::Input(format!("{}: {e}", path.display())))
}

/// The paper's Figures 7–8: every assigned page's correlation with its
/// closest centroid against download order, in its category or not.
pub(crate) fn scatter(
    title: &str,
    crawled: &Crawled,
    judge: &dyn Fn(&str, &str) -> Option<bool>,
) -> String {
    let (mut hit, mut miss, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
    for (i, (url, corr, class)) in crawled.pages.iter().enumerate() {
        let Some(class) = class else { continue };
        let point = (i as f64 + 1.0, *corr);
        match judge(url, class) {
            Some(true) => hit.push(point),
            Some(false) => miss.push(point),
            None => unknown.push(point),
        }
    }
    let series: Vec<Series> = [
        ("in its collection's category", hit),
        ("not in its category", miss),
        ("no truth", unknown),
    ]
    .into_iter()
    .filter(|(_, p)| !p.is_empty())
    .map(|(name, points)| Series {
        name: name.to_owned(),
        points,
    })
    .collect();
    focus_eval::scatter(
        title,
        "pages downloaded",
        "correlation with closest centroid",
        &series,
    )
}

/// The report as a markdown table.
pub(crate) fn table(r: &CollectionsReport) -> String {
    let mut s = String::from(
        "| collection | seeds (own centroid) | seeds in category | size | nuggets | P@10 | P@50 | P@100 | P(all) | category share |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let f = |x: Option<f64>| x.map_or("–".to_owned(), |v| format!("{v:.2}"));
    for c in &r.collections {
        let _ = writeln!(
            s,
            "| {} | {} ({}) | {} | {} | {} | {} | {} | {} | {} | {} |",
            c.name,
            c.seed_pages,
            c.seeds_self_assigned.0,
            f(c.seed_precision),
            c.size,
            c.nuggets,
            f(c.precision.first().copied().flatten()),
            f(c.precision.get(1).copied().flatten()),
            f(c.precision.get(2).copied().flatten()),
            f(c.precision_all),
            f(c.category_share),
        );
    }
    let _ = write!(s, "| mean (collections reaching the rank) | | | | |");
    for (p, n) in &r.mean_precision {
        let _ = write!(s, " {} ({n}) |", f(*p));
    }
    s.push_str(" | |\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(corr: f64, downloaded: u64, relevant: Option<bool>) -> Member {
        Member {
            url: format!("http://a.test/{downloaded}"),
            correlation: corr,
            downloaded,
            relevant,
        }
    }

    #[test]
    fn precision_is_read_down_the_ranking_by_correlation() {
        let r = ranked(vec![
            m(0.2, 1, Some(false)),
            m(0.9, 2, Some(true)),
            m(0.5, 3, Some(true)),
            m(0.5, 4, Some(false)),
        ]);
        assert_eq!(
            r.iter().map(|x| x.downloaded).collect::<Vec<_>>(),
            vec![2, 3, 4, 1],
            "by correlation, ties downloaded first"
        );
        assert_eq!(precision_at(&r, 1), Some(1.0));
        assert_eq!(precision_at(&r, 2), Some(1.0));
        assert_eq!(precision_at(&r, 4), Some(0.5));
        assert_eq!(precision_at(&r, 5), None, "shorter than the rank");
        let unjudged = ranked(vec![m(0.4, 1, None)]);
        assert_eq!(precision_at(&unjudged, 1), None);
    }

    #[test]
    fn pages_are_read_back_with_their_collection_and_order() {
        let dir = tempfile::tempdir().unwrap();
        let line = |url: &str, class: Option<&str>, rel: f64, error: Option<&str>| {
            let mut p = serde_json::json!({
                "url": url, "attempt": 1, "bytes": 10, "depth": 0, "fetched_at_ms": 0,
                "relevance": rel, "status": 200,
            });
            if let Some(c) = class {
                p["class"] = c.into();
            }
            if let Some(e) = error {
                p["error"] = e.into();
            }
            p.to_string()
        };
        let text = [
            line("http://a.test/1", Some("math/algebra"), 0.5, None),
            line("http://a.test/2", None, 0.0, Some("status_404")),
            line("http://a.test/3", None, 0.0, None),
            line("http://a.test/4", Some("math/algebra"), 0.1, None),
        ]
        .join("\n");
        std::fs::write(dir.path().join("pages.jsonl"), text).unwrap();
        let c = read_pages(dir.path()).unwrap();
        assert_eq!(c.pages.len(), 3, "the failed fetch is not a page");
        let algebra = &c.members["math/algebra"];
        assert_eq!(algebra.len(), 2);
        assert_eq!(algebra[1].downloaded, 3);
        assert_eq!(nugget_counts(&c, 0.3)["math/algebra"], 1);
        let svg = scatter("t", &c, &|url, _| Some(url.ends_with('1')));
        assert_eq!(svg.matches("<circle").count(), 2);
        assert_eq!(slug("Science/Biology/Birds"), "Science_Biology_Birds");
    }
}
