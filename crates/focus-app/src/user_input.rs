//! The user's inputs read before a crawl: the seeds file, and the example
//! set with its URL examples fetched (a few at a time, outside the crawl)
//! and every example analysed as the crawl analyses pages.

use std::path::Path;

use focus_classify::{Example, Featurizer};
use focus_core::{CanonicalUrl, Canonicalizer, Taxonomy};
use focus_examples::{ExampleContent, LoadOptions};
use focus_fetch::{Body, Fetcher};
use focus_text::SparseVec;
use rayon::prelude::*;

use crate::setup::AppError;

/// An example-set folder read, its URLs fetched, its good topics marked.
pub(crate) async fn folder_examples(
    dir: &Path,
    good: &[String],
    fetcher: &Fetcher,
    featurizer: &Featurizer,
    canon: &Canonicalizer,
) -> Result<(Taxonomy, Vec<Example>), AppError> {
    let set = focus_examples::load(dir, good, &LoadOptions::default())
        .map_err(|e| AppError::Input(e.to_string()))?;
    for s in &set.skipped {
        tracing::warn!("skipped {}: {}", s.origin, s.reason);
    }
    let examples = user_examples(&set, fetcher, featurizer, canon).await;
    Ok((set.taxonomy, examples))
}

/// Example URLs fetched at once (the fetcher still keeps each host's
/// politeness interval).
const EXAMPLE_FETCHES: usize = 16;

/// The user's examples: files are analysed, URLs fetched first (several at
/// once); the examples keep the set's order whatever order fetches end in.
pub(crate) async fn user_examples(
    set: &focus_examples::ExampleSet,
    fetcher: &Fetcher,
    featurizer: &Featurizer,
    canon: &Canonicalizer,
) -> Vec<Example> {
    let mut fetched = fetch_example_urls(set, fetcher).await;
    let placeholder = canon.canonicalize("http://example.invalid/").ok();
    // The files' examples are analysed in parallel (each on its own), in
    // the set's order.
    let mut local: Vec<Option<SparseVec>> = set
        .examples
        .par_iter()
        .map(|e| match &e.content {
            ExampleContent::Html(html) => placeholder
                .as_ref()
                .map(|base| featurizer.document(&focus_html::analyze(html, base, canon))),
            ExampleContent::Text(text) => Some(featurizer.text(text)),
            ExampleContent::Url(_) => None,
        })
        .collect();
    let mut out = Vec::new();
    for (i, e) in set.examples.iter().enumerate() {
        let counts = match &e.content {
            ExampleContent::Html(_) | ExampleContent::Text(_) => match local[i].take() {
                Some(counts) => counts,
                None => continue,
            },
            ExampleContent::Url(url) => match fetched.remove(&i) {
                Some(Ok(page)) => match &page.body {
                    Body::Text(html) => {
                        featurizer.document(&focus_html::analyze(html, &page.final_url, canon))
                    }
                    Body::Bytes(_) => continue,
                },
                Some(Err(err)) => {
                    tracing::warn!("example {} ({}): {err}", url, e.origin);
                    continue;
                }
                None => continue,
            },
        };
        out.push(Example {
            counts,
            topic: e.topic,
        });
    }
    out
}

/// Fetches every URL example, at most [`EXAMPLE_FETCHES`] at a time, keyed
/// by its index in the set.
async fn fetch_example_urls(
    set: &focus_examples::ExampleSet,
    fetcher: &Fetcher,
) -> std::collections::HashMap<usize, focus_fetch::FetchOutcome> {
    let urls = set
        .examples
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.content {
            ExampleContent::Url(url) => Some((i, url.clone())),
            _ => None,
        });
    fetch_all(urls, fetcher).await
}

/// Fetches `urls` (keyed), at most [`EXAMPLE_FETCHES`] at a time (the
/// fetcher still keeps each host's politeness interval); a fetch task that
/// died is logged and left out.
pub(crate) async fn fetch_all(
    urls: impl IntoIterator<Item = (usize, CanonicalUrl)>,
    fetcher: &Fetcher,
) -> std::collections::HashMap<usize, focus_fetch::FetchOutcome> {
    let mut urls = urls.into_iter();
    let mut done = std::collections::HashMap::new();
    let mut running = tokio::task::JoinSet::new();
    loop {
        while running.len() < EXAMPLE_FETCHES {
            let Some((i, url)) = urls.next() else { break };
            let fetcher = fetcher.clone();
            running.spawn(async move { (i, fetcher.fetch(&url).await) });
        }
        match running.join_next().await {
            Some(Ok((i, outcome))) => {
                done.insert(i, outcome);
            }
            Some(Err(err)) => tracing::warn!("a fetch task failed: {err}"),
            None => break,
        }
    }
    done
}

/// The seed URLs of a seeds file (one per line, `#` starts a comment); a
/// line that does not canonicalise is skipped with a warning, and a file
/// without any seed is an error.
pub(crate) fn read_seeds(
    path: &Path,
    canon: &Canonicalizer,
) -> Result<Vec<CanonicalUrl>, AppError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| AppError::Input(format!("{}: {e}", path.display())))?;
    let mut seeds = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        match canon.canonicalize(line) {
            Ok(u) => seeds.push(u),
            Err(e) => tracing::warn!("{}:{}: skipped seed: {e}", path.display(), i + 1),
        }
    }
    if seeds.is_empty() {
        return Err(AppError::Input(format!(
            "{}: no valid seed URL",
            path.display()
        )));
    }
    Ok(seeds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use focus_fetch::{ConnectTo, FetchConfig};
    use focus_websim::{Web, WebConfig};

    /// Example URLs are fetched several at a time, yet the examples come out
    /// exactly as a one-by-one fetch gives them: same order, same counts,
    /// failed fetches left out.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn example_urls_fetched_at_once_keep_the_sets_order() {
        let web = Arc::new(Web::new(WebConfig::default(), 1).unwrap());
        let server = focus_websim::serve(web.clone(), "127.0.0.1:0".parse().unwrap())
            .await
            .unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let mut lines = Vec::new();
        for (n, topic) in ["recreation/outdoors/cycling", "arts/music/jazz"]
            .into_iter()
            .enumerate()
        {
            let t = web.taxonomy().find(topic).unwrap();
            let dir = tmp.path().join(format!("t{n}"));
            std::fs::create_dir_all(&dir).unwrap();
            let mut urls: Vec<String> = web.sample(t, 20).into_iter().map(|p| p.url).collect();
            // A page that is not there: fetched, fails, left out.
            urls.insert(3, format!("{}no-such-page-{n}.html", urls[0]));
            lines.push(urls.len());
            std::fs::write(dir.join("urls.txt"), urls.join("\n")).unwrap();
            std::fs::write(dir.join("notes.txt"), "a plain text example").unwrap();
        }
        let set =
            focus_examples::load(tmp.path(), &["t0".to_owned()], &LoadOptions::default()).unwrap();
        let rule = ConnectTo::parse(&server.connect_to()).unwrap();
        let fetcher = Fetcher::new(FetchConfig::loopback(vec![rule])).unwrap();
        let (featurizer, canon) = (Featurizer::default(), Canonicalizer::default());

        let at_once = user_examples(&set, &fetcher, &featurizer, &canon).await;
        let mut one_by_one = Vec::new();
        for e in &set.examples {
            let counts = match &e.content {
                ExampleContent::Text(text) => featurizer.text(text),
                ExampleContent::Url(url) => match fetcher.fetch(url).await {
                    Ok(page) => match &page.body {
                        Body::Text(html) => {
                            featurizer.document(&focus_html::analyze(html, &page.final_url, &canon))
                        }
                        Body::Bytes(_) => continue,
                    },
                    Err(_) => continue,
                },
                ExampleContent::Html(_) => unreachable!("no html files in this set"),
            };
            one_by_one.push((e.topic, counts));
        }
        server.shutdown().await;

        let urls: usize = lines.iter().sum();
        assert_eq!(set.examples.len(), urls + 2);
        // The two missing pages (and any the websim's robots.txt forbids)
        // are left out; most examples are in.
        assert!(at_once.len() <= urls && at_once.len() > urls / 2);
        assert_eq!(at_once.len(), one_by_one.len());
        for (a, (topic, counts)) in at_once.iter().zip(&one_by_one) {
            assert_eq!(a.topic, *topic);
            assert_eq!(&a.counts, counts);
        }
    }
}
