//! The reproduction's measures, pure functions over a crawl's fetch
//! attempts ([`Attempt`]) and the web's truth: Table 1's crawl summary,
//! the crawl result ranked by SVM confidence, the yardstick of top
//! authorities (the paper's top-1000 DBLP authors) and its size, and the
//! rule that picks the needle topic of the expert search.

use std::collections::{HashMap, HashSet};

/// One fetch attempt of a BINGO! crawl, as `pages.jsonl` records it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Attempt {
    /// The canonical URL requested.
    pub(super) url: String,
    /// Fetched in the learning phase (else harvesting).
    pub(super) learning: bool,
    /// The page was fetched and kept: a 2xx answer with content that does
    /// not repeat an earlier page.
    pub(super) stored: bool,
    /// The SVM tree put it in the user's topic (its class is the topic or
    /// below it): positively classified.
    pub(super) positive: bool,
    /// Its relevance, the classifier's confidence in the topic (the
    /// crawl's ranking; 0 for a page not stored).
    pub(super) relevance: f64,
    /// Links from the phase's seeds.
    pub(super) depth: u32,
    /// Its host.
    pub(super) host: String,
    /// Links the page carried (from the phase's store).
    pub(super) links: u64,
}

/// Table 1 of the paper: one column of the crawl summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Summary {
    pub(super) visited: usize,
    pub(super) stored: usize,
    pub(super) links: u64,
    pub(super) positive: usize,
    pub(super) hosts: usize,
    pub(super) max_depth: u32,
}

impl Summary {
    pub(super) fn of(attempts: &[Attempt]) -> Summary {
        Summary {
            visited: attempts.len(),
            stored: attempts.iter().filter(|a| a.stored).count(),
            links: attempts.iter().map(|a| a.links).sum(),
            positive: attempts.iter().filter(|a| a.positive).count(),
            hosts: attempts
                .iter()
                .map(|a| a.host.as_str())
                .collect::<HashSet<_>>()
                .len(),
            max_depth: attempts.iter().map(|a| a.depth).max().unwrap_or(0),
        }
    }
}

/// The crawl result as the local search engine keeps it (a page's latest
/// judgement wins, as in `OUT/index`): the URLs classified into the topic,
/// most confident first (equal confidences in fetch order).
pub(super) fn ranked_positive(attempts: &[Attempt]) -> Vec<String> {
    let mut latest: HashMap<&str, (usize, f64, bool)> = HashMap::new();
    for (i, a) in attempts.iter().enumerate().filter(|(_, a)| a.stored) {
        let first = latest.get(a.url.as_str()).map_or(i, |e| e.0);
        latest.insert(&a.url, (first, a.relevance, a.positive));
    }
    let mut kept: Vec<(&str, usize, f64)> = latest
        .into_iter()
        .filter(|(_, (_, _, pos))| *pos)
        .map(|(u, (i, r, _))| (u, i, r))
        .collect();
    kept.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.1.cmp(&b.1)));
    kept.into_iter().map(|(u, _, _)| u.to_owned()).collect()
}

/// Distinct URLs of `attempts` that were stored.
pub(super) fn stored_urls(attempts: &[Attempt]) -> HashSet<&str> {
    attempts
        .iter()
        .filter(|a| a.stored)
        .map(|a| a.url.as_str())
        .collect()
}

/// How many of the first `n` of `list` are in `set`.
pub(super) fn hits<S: std::hash::BuildHasher>(
    list: &[String],
    n: usize,
    set: &HashSet<String, S>,
) -> usize {
    list.iter().take(n).filter(|u| set.contains(*u)).count()
}

/// The share of `set` that is classified into the topic after each fetch
/// attempt (latest judgement wins), one point per `step` attempts.
pub(super) fn positive_curve<S: std::hash::BuildHasher>(
    attempts: &[Attempt],
    set: &HashSet<String, S>,
    step: usize,
) -> Vec<(f64, f64)> {
    let mut now: HashMap<&str, bool> = HashMap::new();
    let mut n = 0usize;
    let mut out = Vec::new();
    for (i, a) in attempts.iter().enumerate() {
        if a.stored && set.contains(&a.url) {
            let was = now.insert(&a.url, a.positive).unwrap_or(false);
            match (was, a.positive) {
                (false, true) => n += 1,
                (true, false) => n -= 1,
                _ => {}
            }
        }
        if (i + 1) % step.max(1) == 0 || i + 1 == attempts.len() {
            out.push(((i + 1) as f64, n as f64 / set.len().max(1) as f64));
        }
    }
    out
}

/// The size of the yardstick of top authorities for a topic of `pages`
/// pages: a tenth of them, at least 10 and at most 100 (the paper's top
/// 1,000 of 31,582 DBLP authors, scaled to crawls of thousands of pages).
pub(super) fn top_k(pages: usize) -> usize {
    (pages / 10).clamp(10, 100).min(pages)
}

/// The `k` most linked-to of `(url, in-degree)`, ties by URL.
pub(super) fn top_authorities(mut pages: Vec<(String, u32)>, k: usize) -> Vec<String> {
    pages.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    pages.into_iter().take(k).map(|p| p.0).collect()
}

/// The needle of the expert search: the smallest leaf topic with at least
/// `min` pages (ties by path).
pub(super) fn needle(leaves: &[(String, u64)], min: u64) -> Option<&str> {
    leaves
        .iter()
        .filter(|(_, n)| *n >= min)
        .min_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)))
        .map(|(p, _)| p.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(url: &str, stored: bool, relevance: f64) -> Attempt {
        Attempt {
            url: url.into(),
            learning: false,
            stored,
            positive: stored && relevance > 0.5,
            relevance,
            depth: 1,
            host: url.split('/').nth(2).unwrap_or("").into(),
            links: 2,
        }
    }

    #[test]
    fn the_needle_is_the_smallest_leaf_that_is_big_enough() {
        let leaves: Vec<(String, u64)> = [("a/z", 10), ("a/y", 9), ("b/x", 10), ("c", 500)]
            .map(|(p, n)| (p.to_owned(), n))
            .into();
        assert_eq!(needle(&leaves, 10), Some("a/z"), "ties by path");
        assert_eq!(needle(&leaves, 11), Some("c"));
        assert_eq!(needle(&leaves, 501), None);
    }

    #[test]
    fn the_yardstick_is_a_tenth_of_the_topic_within_bounds() {
        assert_eq!(top_k(4425), 100);
        assert_eq!(top_k(158), 15);
        assert_eq!(top_k(60), 10);
        assert_eq!(top_k(7), 7);
        let pages = vec![
            ("b".to_owned(), 5),
            ("a".to_owned(), 5),
            ("c".to_owned(), 9),
        ];
        assert_eq!(top_authorities(pages, 2), ["c", "a"]);
    }

    #[test]
    fn the_result_ranks_the_latest_judgements_by_confidence() {
        let attempts = vec![
            at("http://a.test/1", true, 0.9),
            at("http://a.test/2", true, 0.7),
            at("http://a.test/3", false, 0.0),
            at("http://b.test/4", true, 0.7),
            // fetched again in harvesting, now outside the topic
            at("http://a.test/1", true, 0.3),
            at("http://b.test/5", true, 0.8),
        ];
        assert_eq!(
            ranked_positive(&attempts),
            ["http://b.test/5", "http://a.test/2", "http://b.test/4"]
        );
        let s = Summary::of(&attempts);
        assert_eq!(
            (s.visited, s.stored, s.positive, s.hosts, s.links),
            (6, 5, 4, 2, 12)
        );
        let set: HashSet<String> = ["http://a.test/1", "http://b.test/5"]
            .map(String::from)
            .into();
        assert_eq!(
            positive_curve(&attempts, &set, 2),
            [(2.0, 0.5), (4.0, 0.5), (6.0, 0.5)]
        );
        assert_eq!(hits(&ranked_positive(&attempts), 2, &set), 1);
    }
}
