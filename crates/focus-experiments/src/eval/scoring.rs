//! How a crawl of the evaluation is scored: the category's scored and
//! training pages, each crawl's cumulative count of them per fetch attempt
//! ([`Scored`], [`score`]) read at the budgets, and the oracle's fetch
//! order that bounds what a perfect link classifier could find.

use std::collections::HashSet;

use focus_core::TopicId;
use focus_websim::{Corpus, Site};

use super::crawler::{Crawler, Protocol};
use super::split::Split;

/// One crawl's score (saved by `--splits` as JSON lines, `splits.rs`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Scored {
    /// Category path.
    pub category: String,
    /// Seed protocol.
    pub protocol: Protocol,
    /// Crawler.
    pub crawler: Crawler,
    /// Scored pages of the category under this protocol.
    pub scored_total: usize,
    /// Scored pages found after each fetch attempt (cumulative).
    pub found: Vec<usize>,
    /// The category's training pages fetched after each fetch attempt
    /// (cumulative): they earn nothing, but a classifier trained on them
    /// rates their links highest.
    pub training: Vec<usize>,
    /// Attempts that received no page, after each fetch attempt
    /// (cumulative): an error status or dead link, a refusal by robots.txt,
    /// a timeout, a skipped type.
    pub empty: Vec<usize>,
}

#[cfg(test)]
impl Scored {
    /// For report tests: a crawl of `n` fetches of which the first `k`
    /// found scored pages (of 100), no training page, no empty attempt.
    pub(super) fn first(
        category: &str,
        protocol: Protocol,
        crawler: Crawler,
        k: usize,
        n: usize,
    ) -> Self {
        let found: Vec<usize> = (1..=n).map(|i| i.min(k)).collect();
        Scored {
            category: category.into(),
            protocol,
            crawler,
            scored_total: 100,
            training: vec![0; n],
            empty: vec![0; n],
            found,
        }
    }
}

impl Scored {
    /// Scored pages found within `budget` attempts.
    pub fn found_at(&self, budget: usize) -> usize {
        within(&self.found, budget)
    }

    /// The category's training pages fetched within `budget` attempts.
    pub fn training_at(&self, budget: usize) -> usize {
        within(&self.training, budget)
    }

    /// Attempts within `budget` that received no page.
    pub fn empty_at(&self, budget: usize) -> usize {
        within(&self.empty, budget)
    }

    /// Fetch attempts made within `budget` (fewer when the crawl ended
    /// earlier).
    pub fn attempts_at(&self, budget: usize) -> usize {
        budget.min(self.found.len())
    }

    /// Recall of the scored pages within `budget` attempts.
    pub fn recall_at(&self, budget: usize) -> f64 {
        self.found_at(budget) as f64 / self.scored_total.max(1) as f64
    }

    /// Scored pages per fetch attempt within `budget` attempts.
    pub fn harvest_at(&self, budget: usize) -> f64 {
        let n = budget.min(self.found.len()).max(1);
        self.found_at(budget) as f64 / n as f64
    }

    /// The fewest fetch attempts after which this crawl had found `k`
    /// scored pages (0 for none), or `None` if it never found that many.
    pub fn attempts_to_find(&self, k: usize) -> Option<usize> {
        if k == 0 {
            return Some(0);
        }
        // `found` is cumulative, so it is sorted: the first entry at least
        // `k` is at the number of attempts that reached it, minus one.
        let i = self.found.partition_point(|&f| f < k);
        (i < self.found.len()).then_some(i + 1)
    }
}

/// A cumulative count (one entry per fetch attempt) read within `budget`
/// attempts: its last entry when the crawl ended earlier, 0 when it made
/// none.
fn within(cumulative: &[usize], budget: usize) -> usize {
    match cumulative.len() {
        0 => 0,
        n => cumulative[budget.min(n) - 1],
    }
}

/// The category's scored pages: labelled at or under `topic`, not training,
/// not seeds.
pub fn scored_pages(corpus: &Corpus, split: &Split, topic: TopicId, seeds: &[u32]) -> HashSet<u32> {
    (0..corpus.page_count())
        .filter(|&p| !split.is_train(p) && !seeds.contains(&p) && corpus.is_under(p, topic))
        .collect()
}

/// The category's training pages: labelled at or under `topic` and in
/// the training split.
pub fn training_pages(corpus: &Corpus, split: &Split, topic: TopicId) -> HashSet<u32> {
    (0..corpus.page_count())
        .filter(|&p| split.is_train(p) && corpus.is_under(p, topic))
        .collect()
}

/// The fetch order of a crawler that knows, for every URL it has
/// discovered, whether the page is scored and whether it belongs to the
/// category (`relevant`: scored pages, training pages and seeds of it).
/// It fetches discovered scored pages first, then discovered relevant ones
/// (they earn nothing but lead on), then the others by how many relevant
/// pages they link to; ties first discovered first. It still has to
/// discover a page through a fetched page's links, so it bounds what a
/// perfect link classifier could do with the same seeds and budget (a
/// greedy bound, not the optimum).
pub fn oracle_order<S: std::hash::BuildHasher, R: std::hash::BuildHasher>(
    corpus: &Corpus,
    seeds: &[u32],
    scored: &HashSet<u32, S>,
    relevant: &HashSet<u32, R>,
    budget: usize,
) -> Vec<u32> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let key = |p: u32| {
        let class = if scored.contains(&p) {
            2u8
        } else {
            u8::from(relevant.contains(&p))
        };
        let leads = corpus
            .out_links(p)
            .iter()
            .filter(|q| relevant.contains(q))
            .count();
        (class, leads)
    };
    let mut heap = BinaryHeap::new();
    let mut seen = HashSet::new();
    let mut seq = 0u64;
    for &s in seeds {
        if seen.insert(s) {
            heap.push((key(s), Reverse(seq), s));
            seq += 1;
        }
    }
    let mut out = Vec::new();
    while let Some((_, _, p)) = heap.pop() {
        out.push(p);
        if out.len() == budget {
            break;
        }
        for &q in corpus.out_links(p) {
            if seen.insert(q) {
                heap.push((key(q), Reverse(seq), q));
                seq += 1;
            }
        }
    }
    out
}

/// How many of a crawl's fetch attempts had received no page after each
/// attempt.
pub fn empty_attempts(fetched: &[Option<String>]) -> Vec<usize> {
    fetched
        .iter()
        .scan(0, |n, u| {
            *n += usize::from(u.is_none());
            Some(*n)
        })
        .collect()
}

/// Scores a crawl's fetch attempts (the URL of the page each received,
/// `None` for an attempt that received none) against a set of pages (the
/// scored pages, or the training pages): how many of them it has fetched
/// after each attempt.
pub fn score<S: std::hash::BuildHasher>(
    corpus: &Corpus,
    fetched: &[Option<String>],
    scored: &HashSet<u32, S>,
) -> Vec<usize> {
    let mut seen = HashSet::new();
    let mut found = 0;
    fetched
        .iter()
        .map(|u| {
            if let Some(p) = u.as_deref().and_then(|u| corpus.page_id(u)) {
                if scored.contains(&p) && seen.insert(p) {
                    found += 1;
                }
            }
            found
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_cumulative_and_read_at_budgets() {
        let s = Scored {
            category: "c".into(),
            protocol: Protocol::Hub,
            crawler: Crawler::Soft,
            scored_total: 4,
            found: vec![0, 1, 1, 2, 2],
            training: vec![1, 1, 2, 2, 2],
            empty: empty_attempts(&[Some("a".into()), None, None, Some("b".into()), None]),
        };
        assert_eq!(s.empty, [0, 1, 2, 2, 3]);
        assert_eq!((s.empty_at(2), s.empty_at(100)), (1, 3));
        assert_eq!((s.attempts_at(3), s.attempts_at(100)), (3, 5));
        assert_eq!(s.training_at(3), 2);
        assert_eq!(s.training_at(100), 2);
        assert_eq!(s.found_at(2), 1);
        assert_eq!(s.found_at(100), 2);
        assert!((s.recall_at(4) - 0.5).abs() < 1e-12);
        assert!((s.harvest_at(4) - 0.5).abs() < 1e-12);
        // A crawl that ended early is read over the attempts it made.
        assert!((s.harvest_at(100) - 0.4).abs() < 1e-12);
    }

    #[test]
    fn the_attempts_a_crawl_needed_to_find_k_pages_are_its_first_reaching_k() {
        let s = Scored::first("c", Protocol::Hub, Crawler::Soft, 3, 5);
        assert_eq!(s.found, [1, 2, 3, 3, 3]);
        assert_eq!(s.attempts_to_find(0), Some(0));
        assert_eq!(s.attempts_to_find(1), Some(1));
        assert_eq!(s.attempts_to_find(3), Some(3));
        // Never found four, and an empty crawl never found one.
        assert_eq!(s.attempts_to_find(4), None);
        let none = Scored::first("c", Protocol::Hub, Crawler::Soft, 0, 0);
        assert_eq!(none.attempts_to_find(1), None);
        let late = Scored {
            found: vec![0, 0, 2, 2, 5],
            ..s.clone()
        };
        assert_eq!(late.attempts_to_find(1), Some(3));
        assert_eq!(late.attempts_to_find(2), Some(3));
        assert_eq!(late.attempts_to_find(4), Some(5));
    }
}
