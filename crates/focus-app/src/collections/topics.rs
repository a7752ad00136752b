//! The topics of a collection-synthesis crawl and their seed pages: a
//! topics file (`NAME<TAB>QUERY` or `NAME<TAB>URL URL ...`), the topics a
//! user named on a served site, or the defaults; queries go to the search
//! service over HTTP, as Bergmark's went to Google.

use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};
use std::path::Path;

use focus_classify::{Example, Featurizer};
use focus_core::{CanonicalUrl, Canonicalizer, Taxonomy, TopicId};
use focus_fetch::{Body, Fetcher, Retry};
use focus_websim::Site;

use crate::setup::AppError;
use crate::user_input::fetch_all;

/// The websim leaves a crawl with no `--good` and no `--topics` collects:
/// eight leaves under eight different top-level topics, cooperative and
/// competitive ones.
pub const WEBSIM_TOPICS: [&str; 8] = [
    "recreation/outdoors/cycling",
    "arts/music/jazz",
    "business/investment/mutual_funds",
    "computers/hardware/laptops",
    "health/medicine/cardiology",
    "science/biology/genetics",
    "sports/individual/tennis",
    "society/government/elections",
];

/// Attempts at one search query.
const SEARCH_TRIES: usize = 3;

/// Categories a corpus crawl with no `--good` and no `--topics` collects:
/// its largest leaf categories.
pub const CORPUS_TOPICS: usize = 10;

/// One collection to build.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopicSpec {
    /// Its name (a topic path of the site when it has one).
    pub name: String,
    /// The search query, when its seeds come from the search service.
    pub query: Option<String>,
    /// Its seed page URLs, when given (or once the query has answered).
    pub urls: Vec<String>,
}

/// Parses a topics file: `NAME<TAB>QUERY` or `NAME<TAB>URL URL ...` per
/// line, `#` comments and blank lines ignored.
pub fn parse_topics(text: &str) -> Result<Vec<TopicSpec>, String> {
    let mut out: Vec<TopicSpec> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let Some((name, rest)) = line.split_once('\t') else {
            return Err(format!(
                "line {}: expected NAME<TAB>QUERY or NAME<TAB>URLS",
                i + 1
            ));
        };
        let (name, rest) = (name.trim(), rest.trim());
        if name.is_empty() || rest.is_empty() {
            return Err(format!("line {}: empty topic name or query", i + 1));
        }
        if out.iter().any(|t| t.name == name) {
            return Err(format!("line {}: topic `{name}` given twice", i + 1));
        }
        let words: Vec<&str> = rest.split_whitespace().collect();
        let is_url = |w: &&str| w.starts_with("http://") || w.starts_with("https://");
        let spec = if words.iter().all(is_url) {
            TopicSpec {
                name: name.to_owned(),
                query: None,
                urls: words.iter().map(|w| (*w).to_owned()).collect(),
            }
        } else {
            TopicSpec {
                name: name.to_owned(),
                query: Some(words.join(" ")),
                urls: Vec::new(),
            }
        };
        out.push(spec);
    }
    if out.is_empty() {
        return Err("no topics".into());
    }
    Ok(out)
}

/// Reads a topics file.
pub(crate) fn read_topics(path: &Path) -> Result<Vec<TopicSpec>, AppError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| AppError::Input(format!("{}: {e}", path.display())))?;
    parse_topics(&text).map_err(|e| AppError::Input(format!("{}: {e}", path.display())))
}

/// The topics of a served site: `named` (its topic paths or names), or
/// the defaults (the websim's [`WEBSIM_TOPICS`], a corpus's
/// [`CORPUS_TOPICS`] largest leaves); each queried by
/// [`Site::topic_query`].
pub(crate) fn site_topics(
    site: &dyn Site,
    named: &[String],
    websim: bool,
) -> Result<Vec<TopicSpec>, AppError> {
    let ids: Vec<TopicId> = if !named.is_empty() {
        named
            .iter()
            .map(|n| {
                site.find_topic(n)
                    .filter(|&t| t != TopicId::ROOT)
                    .ok_or_else(|| AppError::Input(format!("unknown topic `{n}`")))
            })
            .collect::<Result<_, _>>()?
    } else if websim {
        WEBSIM_TOPICS
            .iter()
            .filter_map(|n| site.find_topic(n))
            .collect()
    } else {
        let mut leaves = site.taxonomy().leaves();
        leaves.sort_by_key(|&l| (std::cmp::Reverse(site.truth_count(l)), l));
        leaves.truncate(CORPUS_TOPICS);
        leaves
    };
    Ok(ids
        .into_iter()
        .map(|t| TopicSpec {
            name: site.taxonomy().path(t).to_owned(),
            query: Some(site.topic_query(t)),
            urls: Vec::new(),
        })
        .collect())
}

/// The search service's request for the top `k` pages of `query`: its
/// words joined by `+`, each percent-encoded (a `&`, `#` or `+` in a word
/// is part of the word).
fn search_url(host: &str, query: &str, k: usize) -> String {
    let words: Vec<String> = query
        .split_whitespace()
        .map(|w| utf8_percent_encode(w, NON_ALPHANUMERIC).to_string())
        .collect();
    format!("http://{host}/search?q={}&max={k}", words.join("+"))
}

/// Asks the search service on `search_host` for the top `k` pages of each
/// topic that has a query, over HTTP; fills in `urls`.
pub(crate) async fn search(
    topics: &mut [TopicSpec],
    search_host: Option<&str>,
    k: usize,
    fetcher: &Fetcher,
    canon: &Canonicalizer,
) -> Result<(), AppError> {
    let mut asks = Vec::new();
    for (i, t) in topics.iter().enumerate() {
        let Some(q) = &t.query else { continue };
        let Some(host) = search_host else {
            return Err(AppError::Input(format!(
                "topic `{}` has a query but this web has no search service: give its seed URLs",
                t.name
            )));
        };
        let url = canon
            .canonicalize(&search_url(host, q, k))
            .map_err(|e| AppError::Input(format!("search for `{}`: {e}", t.name)))?;
        asks.push((i, url));
    }
    // A search service may be slow to answer its first queries (it builds
    // its index then): a query that failed transiently is asked again.
    let mut answers = fetch_all(asks.clone(), fetcher).await;
    for _ in 1..SEARCH_TRIES {
        let again: Vec<_> = asks
            .iter()
            .filter(|(i, _)| {
                answers
                    .get(i)
                    .is_some_and(|a| a.as_ref().is_err_and(|e| e.retry() != Retry::Never))
            })
            .cloned()
            .collect();
        if again.is_empty() {
            break;
        }
        answers.extend(fetch_all(again, fetcher).await);
    }
    for (i, t) in topics.iter_mut().enumerate() {
        match answers.get(&i) {
            Some(Ok(page)) => {
                if let Body::Text(list) = &page.body {
                    t.urls = list
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .take(k)
                        .map(str::to_owned)
                        .collect();
                }
            }
            Some(Err(e)) => tracing::warn!("search for `{}` failed: {e}", t.name),
            None => {}
        }
    }
    Ok(())
}

/// The taxonomy of the collections (one topic per spec, all good).
pub(crate) fn taxonomy(topics: &[TopicSpec]) -> Result<(Taxonomy, Vec<TopicId>), AppError> {
    let mut taxonomy = Taxonomy::new();
    let mut ids = Vec::new();
    for t in topics {
        let id = taxonomy
            .add_path(&t.name)
            .map_err(|e| AppError::Input(format!("topic `{}`: {e}", t.name)))?;
        ids.push(id);
    }
    for &id in &ids {
        taxonomy
            .mark_good(id)
            .map_err(|e| AppError::Input(e.to_string()))?;
    }
    Ok((taxonomy, ids))
}

/// Fetches every topic's seed pages and turns each into a labelled example
/// (`ids[i]` is topic `i`'s id); returns the examples and the crawl's seeds
/// (every seed page once, in topic order).
pub(crate) async fn seed_examples(
    topics: &[TopicSpec],
    ids: &[TopicId],
    fetcher: &Fetcher,
    featurizer: &Featurizer,
    canon: &Canonicalizer,
) -> (Vec<Example>, Vec<CanonicalUrl>) {
    let mut wanted = Vec::new();
    for (i, t) in topics.iter().enumerate() {
        for u in &t.urls {
            match canon.canonicalize(u) {
                Ok(url) => wanted.push((i, url)),
                Err(e) => tracing::warn!("topic `{}`: skipped {u}: {e}", t.name),
            }
        }
    }
    let fetched = fetch_all(
        wanted
            .iter()
            .enumerate()
            .map(|(n, (_, url))| (n, url.clone())),
        fetcher,
    )
    .await;
    let mut examples = Vec::new();
    let mut seeds: Vec<CanonicalUrl> = Vec::new();
    for (n, (i, url)) in wanted.iter().enumerate() {
        if !seeds.contains(url) {
            seeds.push(url.clone());
        }
        match fetched.get(&n) {
            Some(Ok(page)) => {
                if let Body::Text(html) = &page.body {
                    let doc = focus_html::analyze(html, &page.final_url, canon);
                    examples.push(Example {
                        counts: featurizer.document(&doc),
                        topic: ids[*i],
                    });
                }
            }
            Some(Err(e)) => tracing::warn!("seed page {url}: {e}"),
            None => {}
        }
    }
    (examples, seeds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_word_with_a_reserved_character_stays_one_word() {
        let url = search_url("search.test", "R&D  c++ #1", 7);
        assert_eq!(url, "http://search.test/search?q=R%26D+c%2B%2B+%231&max=7");
        let canon = Canonicalizer::default().canonicalize(&url).unwrap();
        assert!(canon.as_str().contains("q=R%26D+c%2B%2B+%231"), "{canon}");
    }

    #[test]
    fn a_topics_file_gives_queries_or_urls() {
        let t = parse_topics(
            "# math\nalgebra\tlinear algebra matrices\ngeometry\thttp://a.test/g https://b.test/h\n\n",
        )
        .unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].query.as_deref(), Some("linear algebra matrices"));
        assert!(t[0].urls.is_empty());
        assert_eq!(t[1].query, None);
        assert_eq!(t[1].urls, vec!["http://a.test/g", "https://b.test/h"]);
    }

    #[test]
    fn a_bad_topics_file_says_which_line() {
        assert!(parse_topics("algebra only a name\n")
            .unwrap_err()
            .contains("line 1"));
        assert!(parse_topics("a\tx\na\ty\n").unwrap_err().contains("twice"));
        assert_eq!(parse_topics("# nothing\n").unwrap_err(), "no topics");
    }

    #[test]
    fn the_collections_taxonomy_marks_every_topic_good() {
        let specs = parse_topics("math/algebra\talgebra\nmath/geometry\tgeometry\n").unwrap();
        let (tax, ids) = taxonomy(&specs).unwrap();
        assert_eq!(ids.len(), 2);
        assert_eq!(tax.good_topics(), ids);
        assert_eq!(tax.path(ids[1]), "math/geometry");
    }
}
