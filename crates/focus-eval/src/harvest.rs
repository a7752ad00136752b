//! Harvest-rate bookkeeping, O(1) per page.

use std::collections::VecDeque;

use focus_core::StopReason;
use serde::Serialize;

/// Tracks per-page relevance (estimated, and true when ground truth is
/// known) as pages are fetched.
#[derive(Debug, Clone)]
pub struct HarvestTracker {
    window: usize,
    estimated: Vec<f64>,
    truth: Vec<bool>,
    recent: VecDeque<f64>,
    recent_sum: f64,
    truth_known: bool,
}

impl HarvestTracker {
    /// A tracker whose moving average spans `window` pages (the 1999
    /// paper plots a window of 100).
    pub fn new(window: usize) -> Self {
        Self {
            window: window.max(1),
            estimated: Vec::new(),
            truth: Vec::new(),
            recent: VecDeque::new(),
            recent_sum: 0.0,
            truth_known: false,
        }
    }

    /// Records one fetched page.
    pub fn push(&mut self, relevance: f64, truth: Option<bool>) {
        self.estimated.push(relevance);
        self.recent.push_back(relevance);
        self.recent_sum += relevance;
        if self.recent.len() > self.window {
            if let Some(r) = self.recent.pop_front() {
                self.recent_sum -= r;
            }
        }
        if let Some(t) = truth {
            self.truth_known = true;
            self.truth.push(t);
        }
    }

    /// Pages recorded.
    pub fn len(&self) -> usize {
        self.estimated.len()
    }

    /// True before the first page.
    pub fn is_empty(&self) -> bool {
        self.estimated.is_empty()
    }

    /// Moving average of estimated relevance over the window.
    pub fn moving_average(&self) -> f64 {
        if self.recent.is_empty() {
            0.0
        } else {
            self.recent_sum / self.recent.len() as f64
        }
    }

    /// Mean estimated relevance over all pages.
    pub fn harvest_estimated(&self) -> f64 {
        mean(self.estimated.iter().copied())
    }

    /// Fraction of truly relevant pages (None without ground truth).
    pub fn harvest_true(&self) -> Option<f64> {
        self.truth_known
            .then(|| mean(self.truth.iter().map(|&t| f64::from(u8::from(t)))))
    }

    /// Fraction of truly relevant pages among the last `n`.
    pub fn harvest_true_last(&self, n: usize) -> Option<f64> {
        let skip = self.truth.len().saturating_sub(n);
        self.truth_known
            .then(|| mean(self.truth[skip..].iter().map(|&t| f64::from(u8::from(t)))))
    }

    /// Truly relevant pages found.
    pub fn relevant_found(&self) -> usize {
        self.truth.iter().filter(|&&t| t).count()
    }

    /// Per-page estimated relevance, in fetch order.
    pub fn estimated(&self) -> &[f64] {
        &self.estimated
    }

    /// Per-page truth, in fetch order (empty without ground truth).
    pub fn truth(&self) -> &[bool] {
        &self.truth
    }

    /// Moving averages of a series over a window (one value per page).
    pub fn moving(series: &[f64], window: usize) -> Vec<f64> {
        let window = window.max(1);
        let mut out = Vec::with_capacity(series.len());
        let mut sum = 0.0;
        for (i, &x) in series.iter().enumerate() {
            sum += x;
            if i >= window {
                sum -= series[i - window];
            }
            out.push(sum / (i + 1).min(window) as f64);
        }
        out
    }
}

fn mean(it: impl Iterator<Item = f64>) -> f64 {
    let (s, n) = it.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    if n == 0 {
        0.0
    } else {
        s / n as f64
    }
}

/// `summary.json` of the output contract.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Summary {
    /// Crawler personality (`soft`, `hard`, `bfs`, ...).
    pub crawler: String,
    /// Fetch attempts recorded.
    pub pages_fetched: u64,
    /// Mean estimated relevance.
    pub harvest_rate_estimated: f64,
    /// Fetch attempts per second of wall time.
    pub pages_per_s: f64,
    /// Wall time in seconds.
    pub elapsed_s: f64,
    /// Ground truth: fraction of relevant pages (websim only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub harvest_rate_true: Option<f64>,
    /// Ground truth over the last 1,000 pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub harvest_rate_true_last_1000: Option<f64>,
    /// Ground truth: relevant pages found / relevant pages in the web.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recall_true: Option<f64>,
    /// Ground truth: pages of the good topics in the web. A crawl longer
    /// than about half of it uses its topic up, and its late harvest then
    /// says how much is left rather than how well it stays on topic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relevant_pages_true: Option<u64>,
    /// Why the crawl stopped.
    pub stopped_because: StopReason,
    /// URLs still queued.
    pub frontier_left: u64,
    /// The stagnation diagnosis, if one was made.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stagnation: Option<String>,
    /// Mean estimated relevance of pages reached by same-site links from
    /// relevant pages (weighted by the parent's relevance), if any were.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_yield_same_site: Option<f64>,
    /// The same for cross-site links.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_yield_cross_site: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_worked_rates() {
        let mut h = HarvestTracker::new(2);
        for (r, t) in [(1.0, true), (0.0, false), (0.5, true), (0.5, false)] {
            h.push(r, Some(t));
        }
        assert_eq!(h.harvest_estimated(), 0.5);
        assert_eq!(h.moving_average(), 0.5);
        assert_eq!(h.harvest_true(), Some(0.5));
        assert_eq!(h.harvest_true_last(1), Some(0.0));
        assert_eq!(h.harvest_true_last(10), Some(0.5));
        assert_eq!(
            HarvestTracker::moving(&[1.0, 0.0, 0.5], 2),
            vec![1.0, 0.5, 0.25]
        );
        let no_truth = HarvestTracker::new(5);
        assert_eq!(no_truth.harvest_true(), None);
    }
}
